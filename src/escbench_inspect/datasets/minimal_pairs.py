"""Minimal-pair checks: every variant of a seed must look like its clean episode.

A content-free policy must not be able to tell the variants apart. So within one (seed, surface),
all five episodes share the same blocks and headers, the same paragraph and line structure per
block, the same number of bracketed fields and of absence-vocabulary phrases, and block lengths
close to the clean episode's. ``seed_problems`` lists every breach; ``escbench validate`` and the
tests report them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

import regex

from escbench_inspect.datasets.errors import DataFileError, read_yaml
from escbench_inspect.datasets.schema import BlockKind, Episode, SeedScenario, Variant

VOCABULARY_FILE = Path(__file__).parent / "absence_vocabulary.yaml"
BRACKETED = regex.compile(r"\[[^\[\]\n]+\]")
# A replaced block may be at most this much shorter or longer than the clean block (ratio of
# characters); beyond it, length alone would start to separate the variants.
LENGTH_RATIO_BOUNDS = (0.75, 1.33)


@functools.cache
def absence_pattern(path: Path = VOCABULARY_FILE) -> regex.Pattern:
    """One case-insensitive pattern matching any phrase of the absence vocabulary."""
    data = read_yaml(path)
    phrases = data.get("phrases") if isinstance(data, dict) else None
    if not isinstance(phrases, list) or not phrases or not all(isinstance(p, str) for p in phrases):
        raise DataFileError(path, ["field 'phrases': expected a non-empty list of strings"])
    try:
        return regex.compile(r"\b(?:" + "|".join(f"(?:{p})" for p in phrases) + r")\b", regex.I)
    except regex.error as error:
        raise DataFileError(path, [f"field 'phrases': does not compile: {error}"]) from error


def absence_count(text: str) -> int:
    return len(absence_pattern().findall(text))


def paragraph_shape(text: str) -> tuple[int, ...]:
    """Lines per paragraph (paragraphs are separated by blank lines)."""
    return tuple(len(p.splitlines()) for p in regex.split(r"\n[ \t]*\n", text.strip()))


def layout(episode: Episode) -> tuple:
    """Everything about an episode's shape that does not need reading its content."""
    return tuple(
        (
            block.kind.value,
            paragraph_shape(block.text),
            len(BRACKETED.findall(block.text)),
            absence_count(block.text),
        )
        for block in episode.blocks
    )


def _surface_problems(episodes: dict[Variant, Episode]) -> list[str]:
    clean = episodes[Variant.CLEAN]
    reference = layout(clean)
    problems = []
    for variant, episode in episodes.items():
        if variant is Variant.CLEAN:
            continue
        where = episode.episode_id
        shape = layout(episode)
        for (kind, *want), (_, *got) in zip(reference, shape, strict=True):
            names = ("paragraph/line shape", "bracketed fields", "absence phrases")
            for name, a, b in zip(names, want, got, strict=True):
                if a != b:
                    problems.append(f"{where}: block {kind}: {name} {b} differs from clean {a}")
        for block, clean_block in zip(episode.blocks, clean.blocks, strict=True):
            if block.text == clean_block.text:
                continue
            ratio = len(block.text) / len(clean_block.text)
            low, high = LENGTH_RATIO_BOUNDS
            if not low <= ratio <= high:
                problems.append(
                    f"{where}: block {block.kind.value}: length {len(block.text)} is {ratio:.2f}x "
                    f"the clean block's {len(clean_block.text)} (allowed {low}-{high})"
                )
    return problems


def seed_problems(seed: SeedScenario, surfaces: Iterable[dict[Variant, Episode]]) -> list[str]:
    """Every minimal-pair breach of one seed, over its surfaces' episodes (one dict per surface)."""
    problems = []
    immaterial = seed.hooks.missing.immaterial
    for field, text in (
        ("hooks.missing.marker", seed.hooks.missing.marker),
        ("hooks.missing.immaterial.blank", immaterial.blank),
    ):
        if not absence_count(text):
            problems.append(f"{field}: uses no phrase of the absence vocabulary: {text!r}")
    for episodes in surfaces:
        problems += _surface_problems(episodes)
    return problems


def same_blocks(episode: Episode) -> bool:
    return tuple(b.kind for b in episode.blocks) == tuple(BlockKind)
