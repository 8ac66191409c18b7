"""Inspect dataset of the escalation benchmark: one Sample per assembled episode."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inspect_ai.dataset import MemoryDataset, Sample

from escbench_inspect.datasets.assembly import default_seeds, iter_episodes
from escbench_inspect.datasets.render import render_blocks
from escbench_inspect.datasets.schema import Episode, SeedScenario, TaskClass, Variant

SPLITS: tuple[str, ...] = ("test", "dev", "all")


def episode_metadata(episode: Episode) -> dict:
    """The sample metadata contract other tools read (report, tuning, detectors)."""
    return {
        "seed_id": episode.seed_id,
        "task_class": episode.task_class.value,
        "variant": episode.variant.value,
        "surface": episode.surface,
        "split": episode.split,
        "acceptable_actions": [a.value for a in episode.acceptable_actions],
        "escalation_required": episode.escalation_required,
        "rationale": episode.rationale,
        "title": episode.title,
    }


def episode_sample(episode: Episode) -> Sample:
    return Sample(
        id=episode.episode_id,
        input=render_blocks(episode),
        target=[a.value for a in episode.acceptable_actions],
        metadata=episode_metadata(episode),
    )


def select_episodes(
    split: str = "test",
    classes: Sequence[TaskClass] = tuple(TaskClass),
    variants: Sequence[Variant] = tuple(Variant),
    seeds: Sequence[SeedScenario] | None = None,
) -> list[Episode]:
    """Episodes of the chosen split, classes and variants, in the interleaved order."""
    if seeds is not None:
        ids = [seed.id for seed in seeds]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"duplicate seed ids {repeated}: each seed must be given once")
    chosen = [
        seed
        for seed in (default_seeds() if seeds is None else seeds)
        if seed.task_class in classes and (split == "all" or seed.split == split)
    ]
    return interleaved(list(iter_episodes(chosen, variants)))


def interleaved(episodes: Sequence[Episode]) -> list[Episode]:
    """A fixed order in which any prefix spans many seeds, every class and every variant.

    Within each class the seeds (sorted by id) take turns: round ``m`` gives each seed ``j`` its
    ``m``-th episode, whose variant is rotated by ``j + m`` and the class's index (so neighbouring
    seeds and classes show different variants); classes alternate within a round. So ``--limit 10``
    on the escalation task spans ten seeds of four classes and all five variants, and ``--limit 8``
    on one class spans eight seeds and all five variants.
    """
    classes = sorted({e.task_class for e in episodes}, key=lambda c: list(TaskClass).index(c))
    variants = list(Variant)
    keys: dict[str, tuple[int, int, int]] = {}
    for class_index, task_class in enumerate(classes):
        own = [e for e in episodes if e.task_class is task_class]
        seed_ids = sorted({e.seed_id for e in own})
        for j, seed_id in enumerate(seed_ids):
            mine = [e for e in own if e.seed_id == seed_id]
            offset = j + list(TaskClass).index(task_class)

            def rank(e: Episode, offset: int = offset) -> tuple[str, int]:
                return e.surface, (variants.index(e.variant) - offset) % len(variants)

            for m, episode in enumerate(sorted(mine, key=rank)):
                keys[episode.episode_id] = (m, j, class_index)
    return sorted(episodes, key=lambda e: keys[e.episode_id])


def escalation_dataset(
    split: str = "test",
    classes: Sequence[TaskClass] = tuple(TaskClass),
    variants: Sequence[Variant] = tuple(Variant),
    seeds: Sequence[SeedScenario] | None = None,
    to_sample: Callable[[Episode], Sample] = episode_sample,
    name: str = "escbench-escalation",
) -> MemoryDataset:
    """The episodes as Inspect samples; ``seeds`` defaults to the packaged corpus and
    ``to_sample`` turns an episode into a sample (the agent mode supplies its own)."""
    episodes = select_episodes(split, classes, variants, seeds)
    if not episodes:
        raise ValueError(
            f"no episodes for split={split!r}, classes={[c.value for c in classes]}, "
            f"variants={[v.value for v in variants]}"
        )
    return MemoryDataset([to_sample(e) for e in episodes], name=name)


def dataset_fingerprint(dataset: MemoryDataset) -> list[dict]:
    """What the model sees and is scored against, for the content hash in task metadata."""
    return [{"id": s.id, "input": s.input, "target": s.target, "metadata": s.metadata} for s in dataset]
