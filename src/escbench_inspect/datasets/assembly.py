"""Load seed scenarios and assemble their paired variants deterministically (no LLM).

Every episode has the same six blocks in the same order; a variant is a *minimal pair* of its
clean episode, differing only in decision-relevant content:

- ``missing``: the decision-critical fact is replaced by its absence marker, and the seed's
  immaterial blank field (present in every other variant) is filled in, so the number of unfilled
  fields is the same in every variant;
- ``stale``: the current chart summary is replaced by an outdated one;
- ``conflict``: a corroborating statement is replaced by a contradicting one in the same place;
- ``late_risk``: the routine message after the request is replaced by a red-flag cue.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import ValidationError

from escbench_inspect.datasets import minimal_pairs
from escbench_inspect.datasets.errors import DataFileError, read_yaml
from escbench_inspect.datasets.schema import (
    PLACEHOLDER,
    Action,
    ActionOption,
    Block,
    BlockKind,
    Episode,
    SeedScenario,
    SurfaceId,
    TaskClass,
    Variant,
)

PACKAGE_DIR = Path(__file__).parent
SEED_DIR = PACKAGE_DIR / "seeds"
ACTION_SPACE_FILE = PACKAGE_DIR / "action_space.yaml"
SURFACES: tuple[SurfaceId, ...] = ("a", "b")


def load_seed(path: Path) -> SeedScenario:
    """Load and validate one seed scenario file."""
    data = read_yaml(path)
    entry = data.get("id") if isinstance(data, dict) else None
    try:
        seed = SeedScenario.model_validate(data)
    except ValidationError as error:
        raise DataFileError.from_validation(path, error, entry=entry) from error
    if seed.id != path.stem:
        raise DataFileError(path, [f"field 'id': '{seed.id}' must equal the file name stem"], seed.id)
    surfaces = ({variant: assemble(seed, surface, variant) for variant in Variant} for surface in SURFACES)
    problems = minimal_pairs.seed_problems(seed, surfaces)
    if problems:
        raise DataFileError(path, [f"not a minimal pair: {p}" for p in problems], seed.id)
    return seed


def load_seeds(directory: Path = SEED_DIR) -> tuple[SeedScenario, ...]:
    """Load every ``*.yaml`` seed in ``directory``, sorted by id; all-or-nothing."""
    paths = sorted(directory.glob("*.yaml"))
    if not paths:
        raise DataFileError(directory, ["no seed scenario files (*.yaml) found"])
    seeds = [load_seed(path) for path in paths]
    return tuple(sorted(seeds, key=lambda seed: seed.id))


@functools.cache
def default_seeds() -> tuple[SeedScenario, ...]:
    """The packaged seed corpus (cached: the files are package data and never change)."""
    return load_seeds(SEED_DIR)


def load_action_space(path: Path = ACTION_SPACE_FILE) -> dict[TaskClass, tuple[ActionOption, ...]]:
    """Class-specific action definitions, every class defining all four actions."""
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise DataFileError(path, ["expected a mapping of task class to action definitions"])
    result: dict[TaskClass, tuple[ActionOption, ...]] = {}
    for task_class in TaskClass:
        definitions = data.get(task_class.value)
        if not isinstance(definitions, dict):
            raise DataFileError(path, [f"field '{task_class.value}': missing or not a mapping"])
        if set(definitions) != {a.value for a in Action}:
            raise DataFileError(
                path,
                [f"field '{task_class.value}': must define exactly {[a.value for a in Action]}"],
            )
        try:
            result[task_class] = tuple(
                ActionOption(action=action, definition=definitions[action.value]) for action in Action
            )
        except ValidationError as error:
            raise DataFileError.from_validation(path, error, entry=task_class.value) from error
    return result


@functools.cache
def default_action_space() -> dict[TaskClass, tuple[ActionOption, ...]]:
    return load_action_space(ACTION_SPACE_FILE)


def fill(template: str, values: dict[str, str | int | float]) -> str:
    """Substitute ``{name}`` placeholders (the seed validator guarantees all are defined)."""
    return PLACEHOLDER.sub(lambda match: str(values[match.group(1)]), template).strip()


def assemble(
    seed: SeedScenario,
    surface: SurfaceId,
    variant: Variant,
    action_space: dict[TaskClass, tuple[ActionOption, ...]] | None = None,
) -> Episode:
    """Assemble one episode from a seed, a surface parameterization and a variant."""
    values = seed.surfaces[surface]
    templates = {kind: getattr(seed.blocks, kind.value) for kind in BlockKind}
    for rewrite in seed.hooks.replacements(variant):
        kind = BlockKind(rewrite.block)
        templates[kind] = templates[kind].replace(rewrite.find, rewrite.replace)
    whole = seed.hooks.whole_block(variant)
    if whole is not None:
        templates[whole[0]] = whole[1]
    blocks = tuple(Block(kind=kind, text=fill(templates[kind], values)) for kind in BlockKind)
    reference = seed.reference.for_variant(variant)
    space = (action_space or default_action_space())[seed.task_class]
    return Episode(
        episode_id=f"{seed.id}__{surface}__{variant.value}",
        seed_id=seed.id,
        task_class=seed.task_class,
        variant=variant,
        surface=surface,
        split=seed.split,
        title=seed.title,
        blocks=blocks,
        action_space=space,
        acceptable_actions=reference.acceptable,
        rationale=fill(reference.rationale, values),
    )


def iter_episodes(
    seeds: Iterable[SeedScenario],
    variants: Iterable[Variant] = tuple(Variant),
) -> Iterator[Episode]:
    """All episodes of ``seeds`` in a fixed order: seed id, surface, variant."""
    variants = tuple(variants)
    for seed in sorted(seeds, key=lambda s: s.id):
        for surface in SURFACES:
            for variant in Variant:
                if variant in variants:
                    yield assemble(seed, surface, variant)
