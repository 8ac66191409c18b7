"""Agreement statistics of the review: Cohen's kappa, Fleiss' kappa, Krippendorff's alpha (nominal).

Written with numpy because the runtime needs no statistics package for three short formulas
(scikit-learn, statsmodels and ``krippendorff`` would be heavy extras); the tests check each against
hand-computed values and against statsmodels and ``krippendorff``. Intervals come from a bootstrap
over clusters (seeds for episodes, cases for tuples), since an item's siblings are not independent.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence

import numpy as np

Label = Hashable


def cohen_kappa(a: Sequence[Label], b: Sequence[Label]) -> float:
    """Cohen's kappa of two raters over the same items (NaN when chance agreement is 1 or no items)."""
    if len(a) != len(b):
        raise ValueError("both raters must label the same items")
    if not a:
        return math.nan
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    count_a, count_b = Counter(a), Counter(b)
    expected = sum(count_a[k] * count_b[k] for k in count_a) / (n * n)
    return math.nan if expected == 1 else (observed - expected) / (1 - expected)


def fleiss_kappa(ratings: Sequence[Sequence[Label]]) -> float:
    """Fleiss' kappa; ``ratings[i]`` are item i's labels, the same number (>= 2) for every item."""
    if not ratings:
        return math.nan
    m = len(ratings[0])
    if m < 2 or any(len(r) != m for r in ratings):
        raise ValueError("Fleiss' kappa needs the same number (>= 2) of ratings per item")
    categories = sorted({x for r in ratings for x in r}, key=str)
    counts = np.array([[Counter(r)[c] for c in categories] for r in ratings], dtype=float)
    per_item = ((counts**2).sum(axis=1) - m) / (m * (m - 1))
    shares = counts.sum(axis=0) / counts.sum()
    expected = float((shares**2).sum())
    return math.nan if expected == 1 else (float(per_item.mean()) - expected) / (1 - expected)


def krippendorff_alpha(units: Sequence[Sequence[Label]]) -> float:
    """Krippendorff's alpha, nominal metric; ``units[i]`` are item i's labels (any number; < 2 unused)."""
    pairable = [u for u in units if len(u) >= 2]
    categories = sorted({x for u in pairable for x in u}, key=str)
    if not pairable or len(categories) < 1:
        return math.nan
    index = {c: i for i, c in enumerate(categories)}
    coincidences = np.zeros((len(categories), len(categories)))
    for unit in pairable:
        counts = np.zeros(len(categories))
        for x in unit:
            counts[index[x]] += 1
        coincidences += (np.outer(counts, counts) - np.diag(counts)) / (len(unit) - 1)
    totals = coincidences.sum(axis=1)
    n = totals.sum()
    disagreement_observed = coincidences.sum() - np.trace(coincidences)
    disagreement_expected = (np.outer(totals, totals).sum() - (totals**2).sum()) / (n - 1)
    if disagreement_expected == 0:
        return math.nan
    return float(1 - disagreement_observed / disagreement_expected)


def cluster_bootstrap(
    units: Sequence[Sequence[Label]],
    clusters: Sequence[Hashable],
    statistic: Callable[[list[Sequence[Label]]], float],
    n_boot: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile interval of ``statistic`` over resampled clusters (NaN, NaN below two clusters)."""
    by_cluster: dict[Hashable, list[Sequence[Label]]] = {}
    for unit, cluster in zip(units, clusters, strict=True):
        by_cluster.setdefault(cluster, []).append(unit)
    keys = sorted(by_cluster, key=str)
    if len(keys) < 2 or n_boot <= 0:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(n_boot):
        chosen = rng.integers(0, len(keys), len(keys))
        sample = [unit for k in chosen for unit in by_cluster[keys[k]]]
        value = statistic(sample)
        if not math.isnan(value):
            values.append(value)
    if not values:
        return math.nan, math.nan
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)
