"""The escbench metrics, registered as ``escbench/<name>`` (code: ``escbench_inspect.scorers.metrics``).

Registered in the ``escbench`` package: Inspect prefixes a metric's name with the top-level
package of the module defining it, so metrics defined in ``escbench_inspect`` were unprefixed in
an editable install and ``escbench_inspect/…`` in a regular one. Short names keep the console's
columns apart (``sensitivity`` and ``specificity``, not two ``escalation_s…``).
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, metric

from escbench_inspect.scorers.metrics import (
    conditional_mean,
    flag_count,
    mean_by,
    mean_of_present,
    stderr_over_clusters,
    subset_size,
)


@metric(name="sensitivity")
def sensitivity() -> Metric:
    """Share of escalation-required episodes on which the agent escalated (apply to ``escalated``)."""
    return conditional_mean(required=True)


@metric(name="miss_rate")
def miss_rate() -> Metric:
    """Share of escalation-required episodes the agent did not escalate: 1 − sensitivity."""
    return conditional_mean(required=True, flip=True)


@metric(name="specificity")
def specificity() -> Metric:
    """Share of episodes not requiring escalation on which the agent did not escalate.

    NaN when every episode of the run requires escalation (``n_not_required`` is then 0).
    """
    return conditional_mean(required=False, flip=True)


@metric(name="n_required")
def n_required() -> Metric:
    """Number of escalation-required episodes: the denominator of sensitivity and miss rate."""
    return subset_size(required=True)


@metric(name="n_not_required")
def n_not_required() -> Metric:
    """Number of episodes not requiring escalation: the denominator of specificity."""
    return subset_size(required=False)


@metric(name="clustered_stderr")
def clustered_stderr(cluster: str) -> Metric:
    """Standard error clustered by ``cluster`` (Inspect's), NaN with fewer than two clusters."""
    return stderr_over_clusters(cluster)


@metric(name="mean_present")
def mean_present() -> Metric:
    """Mean over samples whose value is present (a missing confidence is NaN, not 0)."""
    return mean_of_present()


@metric(name="count")
def count() -> Metric:
    """Sum of a 0/1 value: how many samples carry the flag (e.g. invalid outputs)."""
    return flag_count()


# Inspect names a metric's results after the metric's registered name, so two `grouped` metrics
# on one score key would collide; these give each grouping its own name.
@metric(name="by_variant")
def by_variant() -> Metric:
    """Mean per episode variant (clean, missing, stale, conflict, late_risk)."""
    return mean_by("variant")


@metric(name="by_class")
def by_class() -> Metric:
    """Mean per task class (documentation, evidence, messaging, triage)."""
    return mean_by("task_class")
