"""The dev/test split rule: two dev seeds per class, chosen so that dev looks like test.

The controller is tuned on dev only, so dev must not teach a rule that test contradicts. For each
task class, among all pairs of its seeds, the dev pair is the one whose reference-action mix per
variant is closest to the rest of the class's (the test seeds'): the sum over the five variants of
the total-variation distance between the two action-set distributions. Ties go to the pair whose
seed ids sort first, so the rule is deterministic. ``seed.split`` in every file must equal it (a
test checks), and ``escbench validate`` reports a seed whose split disagrees.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from escbench_inspect.datasets.schema import SeedScenario, TaskClass, Variant

DEV_SEEDS_PER_CLASS = 2


def _mix(seeds: Sequence[SeedScenario], variant: Variant) -> dict[tuple[str, ...], float]:
    counts = Counter(tuple(a.value for a in seed.reference.for_variant(variant).acceptable) for seed in seeds)
    return {key: count / len(seeds) for key, count in counts.items()}


def mix_distance(dev: Sequence[SeedScenario], test: Sequence[SeedScenario]) -> float:
    """Sum over variants of the total-variation distance between dev's and test's action mix."""
    total = 0.0
    for variant in Variant:
        a, b = _mix(dev, variant), _mix(test, variant)
        total += 0.5 * sum(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in a.keys() | b.keys())
    return total


def representative_dev_seeds(seeds: Sequence[SeedScenario]) -> frozenset[str]:
    """Ids of the dev seeds the rule chooses (two per class)."""
    chosen: set[str] = set()
    for task_class in TaskClass:
        members = sorted((s for s in seeds if s.task_class is task_class), key=lambda s: s.id)
        if len(members) <= DEV_SEEDS_PER_CLASS:
            continue
        best = min(
            itertools.combinations(members, DEV_SEEDS_PER_CLASS),
            key=lambda pair: (
                round(mix_distance(pair, [s for s in members if s not in pair]), 9),
                tuple(s.id for s in pair),
            ),
        )
        chosen |= {s.id for s in best}
    return frozenset(chosen)


def split_problems(seeds: Sequence[SeedScenario]) -> list[str]:
    """Seeds whose ``split`` field disagrees with the rule."""
    dev = representative_dev_seeds(seeds)
    return [
        f"{seed.id}: split is '{seed.split}' but the representative-dev rule gives "
        f"'{'dev' if seed.id in dev else 'test'}'"
        for seed in seeds
        if (seed.split == "dev") != (seed.id in dev)
    ]
