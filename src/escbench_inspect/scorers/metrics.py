"""Escalation metric computations over dict-valued scores (registered in :mod:`escbench.metrics`).

Each reads one key of the score value (Inspect passes that key's value per sample) and the
sample's ``escalation_required`` metadata. They are hand-written because Inspect's ``mean`` has no
notion of a conditioning subset (sensitivity is a mean over escalation-required samples only).
The ``@metric`` registration lives in the ``escbench`` package so the metric names are
``escbench/<name>`` in editable and regular installs alike (Inspect prefixes a registered name
with the top-level package of its defining module).
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Metric, SampleScore, grouped, mean, stderr, value_to_float

_to_float = value_to_float()


def _conditional_values(scores: list[SampleScore], required: bool) -> list[float]:
    return [
        _to_float(s.score.value)
        for s in scores
        if bool((s.sample_metadata or {}).get("escalation_required")) is required
    ]


def conditional_mean(required: bool, flip: bool = False) -> Metric:
    """Mean over the samples with ``escalation_required == required`` (1 − it if ``flip``).

    NaN (undefined, not 0) when no sample is in the subset, e.g. sensitivity of a run without an
    escalation-required episode; :func:`subset_size` beside it shows that count.
    """

    def compute(scores: list[SampleScore]) -> float:
        values = _conditional_values(scores, required)
        if not values:
            return math.nan
        average = sum(values) / len(values)
        return 1.0 - average if flip else average

    return compute


def subset_size(required: bool) -> Metric:
    """How many samples have ``escalation_required == required``: a conditional mean's denominator."""

    def compute(scores: list[SampleScore]) -> float:
        return float(len(_conditional_values(scores, required)))

    return compute


def mean_of_present() -> Metric:
    """Mean over samples whose value is present (a missing confidence is NaN, not 0)."""

    def compute(scores: list[SampleScore]) -> float:
        values = [
            float(s.score.value)
            for s in scores
            if isinstance(s.score.value, (int, float)) and math.isfinite(s.score.value)
        ]
        return sum(values) / len(values) if values else math.nan

    return compute


def stderr_over_clusters(cluster: str) -> Metric:
    """Inspect's ``stderr(cluster=cluster)``, but NaN when the scores span fewer than two clusters.

    Inspect returns 0.0 for a single cluster (its finite-cluster correction divides by C − 1), which
    reads as "no uncertainty"; with one seed the uncertainty is unknown, so it is NaN here.
    """
    inner = stderr(cluster=cluster)

    def compute(scores: list[SampleScore]) -> float:
        clusters = {(s.sample_metadata or {}).get(cluster) for s in scores}
        return math.nan if len(clusters) < 2 else inner(scores)

    return compute


def flag_count() -> Metric:
    """Sum of a 0/1 value: how many samples carry the flag (e.g. invalid outputs)."""

    def compute(scores: list[SampleScore]) -> float:
        return float(sum(_to_float(s.score.value) for s in scores))

    return compute


def mean_by(metadata_key: str) -> Metric:
    """Mean per value of a sample metadata key, each group named by its value, in sorted order.

    Sorted because Inspect's ``grouped`` lists groups in the order the samples come, which differs
    between a run and a re-scoring (``escbench score``); Inspect View puts rows in one table only
    when their metric names come in the same order.
    """
    per_group = grouped(mean(), metadata_key, all=False, name_template="{group_name}")

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return dict(sorted(per_group(scores).items()))  # type: ignore[union-attr]

    return compute
