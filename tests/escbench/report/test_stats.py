"""Report statistics against hand-computed values and against scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as scipy_stats

from escbench_inspect.analysis.stats import (
    Ratio,
    binary_auroc,
    expected_calibration_error,
    failure_auroc,
    holm,
    paired_wilcoxon,
    resample_weights,
    risk_coverage,
    seed_bootstrap,
    signflip_pvalue,
)


def _mean(values: list[float]) -> Ratio:
    return Ratio(np.asarray(values, dtype=float), np.ones(len(values)))


def test_seed_bootstrap_resamples_seeds_not_episodes() -> None:
    # seeds A (2 episodes, both right), B (one right, one wrong), C (both wrong): any resample of
    # the three seeds has a mean in {0, 1/6, …, 1}; episode resampling would reach other values.
    clusters = ["A", "A", "B", "B", "C", "C"]
    result = seed_bootstrap(clusters, {"acc": _mean([1, 1, 1, 0, 0, 0])}, 4000, np.random.default_rng(0))[
        "acc"
    ]
    assert result.value == pytest.approx(0.5)
    for end in (result.low, result.high):
        assert min(abs(end * 6 - k) for k in range(7)) < 1e-9
    assert result.low < 0.5 < result.high


def test_seed_bootstrap_degenerate_and_reproducible() -> None:
    clusters = ["a", "b", "c", "d"]
    metrics = {"all_right": _mean([1, 1, 1, 1]), "mixed": _mean([1, 0, 1, 0])}
    first = seed_bootstrap(clusters, metrics, 500, np.random.default_rng(7))
    second = seed_bootstrap(clusters, metrics, 500, np.random.default_rng(7))
    assert first == second
    assert (first["all_right"].low, first["all_right"].high) == (1.0, 1.0)
    no_ci = seed_bootstrap(clusters, metrics, 0, np.random.default_rng(7))["mixed"]
    assert no_ci.value == 0.5 and math.isnan(no_ci.low) and math.isnan(no_ci.high)


def test_seed_bootstrap_ratio_skips_undefined_resamples() -> None:
    # sensitivity: seeds "x" and "z" have escalation-required episodes; resamples without either
    # are undefined and skipped, the others lie between z's 0.0 and x's 1.0
    escalated = np.array([1.0, 1.0, 1.0, 1.0, 0.0, 0.0])
    required = np.array([1.0, 1.0, 0.0, 0.0, 1.0, 1.0])
    result = seed_bootstrap(
        ["x", "x", "y", "y", "z", "z"],
        {"sens": Ratio(escalated * required, required)},
        300,
        np.random.default_rng(1),
    )["sens"]
    assert (result.value, result.low, result.high) == (0.5, 0.0, 1.0)


def test_seed_bootstrap_gives_no_interval_below_two_contributing_seeds() -> None:
    # one seed overall, or one seed with escalation-required episodes: resampling can only
    # reproduce the point estimate, so the interval is undefined rather than [v, v]
    one = seed_bootstrap(["a"] * 4, {"acc": _mean([1, 0, 1, 1])}, 300, np.random.default_rng(1))["acc"]
    assert one.value == 0.75 and math.isnan(one.low) and math.isnan(one.high)
    required = np.array([1.0, 1.0, 0.0, 0.0])
    sens = seed_bootstrap(
        ["x", "x", "y", "y"],
        {"sens": Ratio(np.array([1.0, 0.0, 0.0, 0.0]), required)},
        300,
        np.random.default_rng(1),
    )["sens"]
    assert sens.value == 0.5 and math.isnan(sens.low) and math.isnan(sens.high)


def test_resample_weights_draw_every_seed_count_once_per_resample() -> None:
    weights = resample_weights(5, 100, np.random.default_rng(3))
    assert weights.shape == (100, 5)
    assert np.all(weights.sum(axis=1) == 5)


def test_auroc_hand_computed() -> None:
    # wrong decisions have failure scores 0.9, 0.4; correct ones 0.1, 0.4, 0.2:
    # 0.9 beats all three (3), 0.4 beats 0.1 and 0.2 and ties 0.4 (2.5): 5.5 of 6 pairs
    scores = [0.9, 0.4, 0.1, 0.4, 0.2]
    wrong = [True, True, False, False, False]
    assert binary_auroc(scores, wrong) == pytest.approx(5.5 / 6)
    assert math.isnan(binary_auroc([0.1, 0.2], [True, True]))


def test_failure_auroc_matches_mann_whitney() -> None:
    rng = np.random.default_rng(11)
    for _ in range(20):
        confidence = rng.choice([0.5, 0.6, 0.7, 0.8, 0.9, 0.95], size=40)
        correct = rng.random(40) < 0.6
        if correct.all() or not correct.any():
            continue
        u = scipy_stats.mannwhitneyu(1 - confidence[~correct], 1 - confidence[correct]).statistic
        expected = u / ((~correct).sum() * correct.sum())
        assert failure_auroc(confidence, correct) == pytest.approx(expected)


def test_failure_auroc_constant_confidence_is_chance() -> None:
    assert failure_auroc(np.full(6, 0.8), np.array([1, 0, 1, 0, 0, 1], bool)) == 0.5


def test_ece_hand_computed() -> None:
    # bin 9: accuracy 0.5 vs confidence 0.95; bin 5: 1.0 vs 0.55; bin 0: 0.0 vs 0.05
    cal = expected_calibration_error(
        np.array([0.95, 0.95, 0.55, 0.55, 0.05]), np.array([1, 0, 1, 1, 0], bool)
    )
    assert cal.ece == pytest.approx((2 * 0.45 + 2 * 0.45 + 0.05) / 5)
    assert cal.bin_count == [1, 0, 0, 0, 0, 2, 0, 0, 0, 2]
    assert cal.bin_accuracy[9] == 0.5 and math.isnan(cal.bin_accuracy[1])


def test_ece_bin_edges_are_left_closed_and_one_is_in_the_last_bin() -> None:
    for k in range(10):
        cal = expected_calibration_error(np.array([k / 10]), np.array([True]))
        assert cal.bin_count[k] == 1, k
    assert expected_calibration_error(np.array([1.0]), np.array([True])).bin_count[9] == 1


def test_risk_coverage_hand_computed() -> None:
    curve = risk_coverage(np.array([0.9, 0.8, 0.7]), np.array([1, 0, 1], bool))
    assert curve.coverage == pytest.approx([1 / 3, 2 / 3, 1.0])
    assert curve.risk == pytest.approx([0.0, 0.5, 1 / 3])
    assert curve.aurc == pytest.approx((0 + 0.5 + 1 / 3) / 3)


def test_risk_coverage_ties_enter_together() -> None:
    curve = risk_coverage(np.array([0.9, 0.9, 0.5]), np.array([1, 0, 1], bool))
    assert curve.threshold == [0.9, 0.5]
    assert curve.risk == pytest.approx([0.5, 1 / 3])
    assert curve.aurc == pytest.approx(2 / 3 * 0.5 + 1 / 3 * 1 / 3)


def test_holm_hand_computed() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    adjusted = holm([0.01, float("nan"), 0.02])  # NaN is outside the family of m = 2
    assert adjusted[0] == pytest.approx(0.02) and adjusted[2] == pytest.approx(0.02)
    assert math.isnan(adjusted[1])
    assert holm([0.6, 0.7]) == [1.0, 1.0]
    assert holm([]) == []


def test_holm_rejects_like_the_step_down_procedure() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        p = rng.random(7) ** 3
        alpha = 0.05
        order = np.argsort(p)
        rejected = np.zeros(7, bool)
        for rank, idx in enumerate(order):
            if p[idx] > alpha / (7 - rank):
                break
            rejected[idx] = True
        assert list(np.asarray(holm(p)) <= alpha) == list(rejected)


@pytest.mark.parametrize(
    "diff",
    [
        [0.5, 0.5, 0.0, 1.0, -0.5, 0.5, 1.0, 0.5],  # zeros and ties, n = 8: permutation
        [-1.0, -0.5, -1.0, -1.0, -0.5, 0.0, -1.0, -0.5, -1.0],  # n = 9
        [0.1, -0.25, 0.3, 0.45, 0.5, -0.6, 0.7],  # no ties: exact
        list(np.linspace(-0.3, 1.0, 20).round(1)),  # ties, n = 20: asymptotic
        [0.5] * 30 + [-0.5] * 5 + [0.0] * 17,  # n = 52 > 50: asymptotic
    ],
)
def test_paired_wilcoxon_matches_scipy(diff: list[float]) -> None:
    clean = np.zeros(len(diff))
    ours = paired_wilcoxon(clean, np.asarray(diff))
    theirs = scipy_stats.wilcoxon(np.asarray(diff))
    assert ours.pvalue == pytest.approx(float(theirs.pvalue), rel=1e-12)
    assert ours.statistic == pytest.approx(float(theirs.statistic))
    assert ours.mean_difference == pytest.approx(np.mean(diff))


def test_signflip_pvalue_hand_computed() -> None:
    # differences 1, 2, 3 all positive: W+ = 6 is the largest of 8 sign patterns -> p = 2/8
    assert signflip_pvalue(np.array([1.0, 2.0, 3.0])) == pytest.approx(0.25)


def test_paired_wilcoxon_needs_two_seeds() -> None:
    single = paired_wilcoxon([1.0], [0.0])
    assert math.isnan(single.statistic) and math.isnan(single.pvalue)
    assert (single.n_pairs, single.mean_difference, single.note) == (1, -1.0, "fewer than 2 paired seeds")
    assert scipy_stats.wilcoxon([-1.0]).pvalue == 1.0  # what scipy would have printed


def test_paired_wilcoxon_degenerate_cases() -> None:
    same = paired_wilcoxon([0.5, 1.0, 0.0], [0.5, 1.0, 0.0])
    assert (same.pvalue, same.n_nonzero, same.note) == (1.0, 0, "all differences are zero")
    empty = paired_wilcoxon([], [])
    assert empty.n_pairs == 0 and math.isnan(empty.pvalue)


def test_clustered_stderr_is_nan_with_one_cluster_and_matches_inspect_otherwise() -> None:
    from inspect_ai.scorer import SampleScore, Score, stderr

    from escbench.metrics import clustered_stderr

    def scores(seeds: list[str], values: list[float]) -> list[SampleScore]:
        return [
            SampleScore(score=Score(value=v), sample_id=str(i), sample_metadata={"seed_id": s})
            for i, (s, v) in enumerate(zip(seeds, values, strict=True))
        ]

    one_seed = scores(["s1"] * 4, [1.0, 0.0, 1.0, 0.0])
    assert stderr(cluster="seed_id")(one_seed) == 0.0  # Inspect's value, which reads as certainty
    assert math.isnan(clustered_stderr("seed_id")(one_seed))
    two_seeds = scores(["s1", "s1", "s2", "s2"], [1.0, 1.0, 0.0, 1.0])
    assert clustered_stderr("seed_id")(two_seeds) == pytest.approx(stderr(cluster="seed_id")(two_seeds))
    assert clustered_stderr("seed_id")(two_seeds) > 0
