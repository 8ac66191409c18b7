"""The ten escbench metrics read the scores Inspect's epoch reducer leaves, not the scorer's own.

``pytest_inspect_evals.metrics`` runs each metric through a real eval on mockllm: equal epochs under
``mean`` and ``mode`` must change nothing (:func:`assert_agreeing_epochs_change_nothing`), and
disagreeing epochs under ``mean`` give the expected value (:func:`run_metrics`). Metrics named:
sensitivity, miss_rate, specificity, n_required, n_not_required, clustered_stderr, mean_present,
count, by_variant, by_class. Skipped where the helper is not installed (it needs Python 3.11).
"""

from __future__ import annotations

import math

import pytest

from escbench.metrics import (
    by_class,
    by_variant,
    clustered_stderr,
    count,
    mean_present,
    miss_rate,
    n_not_required,
    n_required,
    sensitivity,
    specificity,
)

try:
    from pytest_inspect_evals import metrics as epoch_helper
except ImportError:  # Python 3.10, or installed without the dev extra
    pytest.skip("pytest_inspect_evals is not installed", allow_module_level=True)

# four episodes: two require escalation; two seeds, two variants, two classes
METADATA = [
    {"escalation_required": True, "seed_id": "s1", "variant": "late_risk", "task_class": "triage"},
    {"escalation_required": True, "seed_id": "s2", "variant": "late_risk", "task_class": "messaging"},
    {"escalation_required": False, "seed_id": "s1", "variant": "clean", "task_class": "triage"},
    {"escalation_required": False, "seed_id": "s2", "variant": "clean", "task_class": "messaging"},
]
# the scorer's own values: escalated on the first and third episode; one confidence missing
SCORES = [
    {"escalated": 1.0, "correct": 1.0, "confidence": 0.9},
    {"escalated": 0.0, "correct": 0.0, "confidence": math.nan},
    {"escalated": 1.0, "correct": 0.0, "confidence": 0.7},
    {"escalated": 0.0, "correct": 1.0, "confidence": 0.5},
]
METRICS = {
    "escalated": [sensitivity(), miss_rate(), specificity(), n_required(), n_not_required(), count()],
    "correct": [clustered_stderr("seed_id"), by_variant(), by_class()],
    "confidence": [mean_present()],
}


def test_agreeing_epochs_change_no_escbench_metric() -> None:
    epoch_helper.assert_agreeing_epochs_change_nothing(METRICS, SCORES, metadata=METADATA)


def test_disagreeing_epochs_are_read_as_the_reducer_leaves_them() -> None:
    """Two epochs per episode under ``mean``: an episode escalated once in two counts 0.5."""
    first = SCORES
    second = [
        {**s, "escalated": 1.0 - s["escalated"] if i == 0 else s["escalated"]} for i, s in enumerate(SCORES)
    ]
    values = epoch_helper.run_metrics(
        METRICS, [[a, b] for a, b in zip(first, second, strict=True)], metadata=METADATA
    )
    assert values["escalated/escbench/sensitivity"] == pytest.approx((0.5 + 0.0) / 2)
    assert values["escalated/escbench/miss_rate"] == pytest.approx(0.75)
    assert values["escalated/escbench/specificity"] == pytest.approx(0.5)
    assert values["escalated/escbench/n_required"] == 2
    assert values["escalated/escbench/n_not_required"] == 2
    assert values["escalated/escbench/count"] == pytest.approx(1.5)
    assert values["confidence/escbench/mean_present"] == pytest.approx((0.9 + 0.7 + 0.5) / 3)
