"""Model-vs-model comparisons (``analysis.compare``): planted differences are recovered, identical
models give none, the test's false-positive rate is calibrated, and bad pairs are refused.

The scripted models are in ``report_helpers``: ``late10`` escalates late-risk in eight more seeds
than ``late2``, so ``late2`` − ``late10`` differs on exactly the sixteen late-risk episodes (8 seeds
× 2 surfaces), each worth −6 utility 5:1 (+1 → −5), −1 accuracy and −1 escalated-when-required,
and on nothing else; ``late2_copy`` is ``late2``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log, write_eval_log
from report_helpers import EPISODES, ESCALATING, SEEDS, VARIANTS, late_risk_policy, write_paired_logs
from scipy import stats as scipy_stats

from escbench_inspect.analysis.compare import MIN_COMMON_SEEDS, comparison_pairs
from escbench_inspect.analysis.results import ReportOptions, build_report
from escbench_inspect.analysis.stats import exact_signed_rank, signflip_pvalue
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import scripted_model


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return write_paired_logs(tmp_path_factory.mktemp("compare"))


def pair_rows(report, model_a: str, model_b: str):
    pairs = report.comparisons.pairs
    mine = pairs[(pairs["model_a"] == f"mockllm/{model_a}") & (pairs["model_b"] == f"mockllm/{model_b}")]
    return mine.set_index("metric")


def test_planted_late_risk_difference_is_recovered(logs: dict[str, str]) -> None:
    report = build_report([logs["late2"], logs["late10"]], ReportOptions(n_boot=500))
    rows = pair_rows(report, "late10", "late2")  # alphabetical: late10 is a, late2 is b
    episodes = len(EPISODES)
    required = sum(e.escalation_required for e in EPISODES)
    # b − a = late2 − late10: 16 episodes go from +1 to −5 (utility), right to wrong, escalated to not
    expected = {"utility_5": -16 * 6 / episodes, "accuracy": -16 / episodes, "sensitivity": -16 / required}
    for metric, value in expected.items():
        row = rows.loc[metric]
        assert row["difference"] == pytest.approx(value), metric
        assert row["ci_high"] < 0 and row["ci_low"] <= value <= row["ci_high"], metric
        assert (row["seeds_b_lower"], row["seeds_b_higher"], row["tested_seeds"]) == (8, 0, 12), metric
        # 8 nonzero per-seed differences, all of one sign: exact two-sided p = 2 / 2^8
        assert row["p_value"] == pytest.approx(2 / 2**8), metric
        assert row["p_holm"] == pytest.approx(3 * 2 / 2**8) and row["significant"], metric
    mcnemar = report.comparisons.mcnemar.iloc[0]
    assert (mcnemar["a_right_b_wrong"], mcnemar["a_wrong_b_right"]) == (16, 0)
    assert mcnemar["p_value"] == pytest.approx(scipy_stats.binomtest(0, 16, 0.5).pvalue)

    strata = report.comparisons.strata
    late = strata[(strata["value"] == "late_risk") & (strata["metric"] == "sensitivity")].iloc[0]
    assert late["difference"] == pytest.approx(-16 / 24) and late["ci_high"] < 0
    others = strata[(strata["stratum"] == "variant") & (strata["value"] != "late_risk")]
    assert (others["difference"] == 0).all() and (others["ci_low"] == 0).all()

    worst = report.comparisons.disagreements
    planted = ESCALATING[10] - ESCALATING[2]
    assert set(worst["seed_id"]) <= planted and worst["seed_rank"].max() == 3
    assert set(worst["variant"]) == {"late_risk"} and len(worst) == 3 * 2
    assert set(worst["action_a"]) == {"Escalate"} and set(worst["action_b"]) == {"Answer"}
    assert set(worst["log_b"]) == {logs["late2"]}

    ranking = report.comparisons.ranking.set_index("model")["p_first"]
    assert ranking["mockllm/late10"] > 0.95 and ranking.sum() == pytest.approx(1.0)


def test_identical_models_differ_in_nothing(logs: dict[str, str]) -> None:
    report = build_report([logs["late2"], logs["late2_copy"]], ReportOptions(n_boot=500))
    rows = pair_rows(report, "late2", "late2_copy")
    assert (rows["difference"] == 0).all() and (rows["ci_low"] == 0).all() and (rows["ci_high"] == 0).all()
    assert (rows["p_value"] == 1).all() and not rows["significant"].any()
    assert report.comparisons.mcnemar.iloc[0]["p_value"] == 1.0
    assert report.comparisons.disagreements.empty


def test_pairs_on_different_dataset_versions_are_refused(logs: dict[str, str], tmp_path: Path) -> None:
    log = read_eval_log(logs["late10"])
    log.eval.metadata = {**log.eval.metadata, "dataset_hash": "0" * 64}
    changed = tmp_path / "late10_other_corpus.eval"
    write_eval_log(log, str(changed))
    report = build_report([logs["late2"], str(changed)], ReportOptions(n_boot=50))
    assert report.comparisons.pairs.empty
    (reason,) = report.comparisons.refused["reason"]
    assert reason.startswith("run on different dataset versions (dataset_hash 000000000000 vs")
    assert any("not compared: run on different dataset versions" in note for note in report.notes)


def test_pairs_with_too_few_common_seeds_are_refused(logs: dict[str, str], tmp_path: Path) -> None:
    few = SEEDS[: MIN_COMMON_SEEDS - 1]
    eval(
        escalation_task(split="test", prompt="uncertainty", seeds=few, variants=VARIANTS),
        model=scripted_model(late_risk_policy(set()), name="few"),
        log_dir=str(tmp_path),
        display="none",
    )
    report = build_report([logs["late2"], str(tmp_path)], ReportOptions(n_boot=50))
    (reason,) = report.comparisons.refused["reason"]
    assert reason.startswith(f"{MIN_COMMON_SEEDS - 1} seed(s) in common")


def test_pairs_are_models_within_a_prompt_and_each_model_with_its_controllers() -> None:
    groups = [
        ("a", "uncertainty", "model"),
        ("a", "uncertainty", "full"),
        ("b", "uncertainty", "model"),
        ("c", "vanilla", "model"),
    ]
    assert comparison_pairs(groups) == [
        (groups[0], groups[2], "models"),
        (groups[0], groups[1], "controller"),
    ]


# --------------------------------------------------------------------------- the test itself


def test_exact_signed_rank_matches_scipy() -> None:
    rng = np.random.default_rng(3)
    for _ in range(60):  # ties and zeros, n <= 10: scipy's permutation path (2.6 s a call at n = 13)
        d = rng.integers(-3, 4, size=int(rng.integers(2, 11))) / 10
        if d.any():
            assert exact_signed_rank(d).pvalue == pytest.approx(scipy_stats.wilcoxon(d).pvalue, abs=1e-12)
            assert exact_signed_rank(d).pvalue == pytest.approx(signflip_pvalue(d), abs=1e-12)
    for _ in range(20):  # no ties, n = 30: scipy's exact null
        d = rng.normal(size=30)
        assert exact_signed_rank(d).pvalue == pytest.approx(scipy_stats.wilcoxon(d, method="exact").pvalue)
    assert math.isnan(exact_signed_rank([0.3]).pvalue) and exact_signed_rank([0, 0, 0]).pvalue == 1.0


def simulated_rejections(pvalue, draws: int, shift: float = 0.0, seed: int = 0) -> float:
    """Share of draws with p < 0.05 for two models over 32 seeds: per seed a chance of the right
    call drawn from Beta(2, 2) (seeds differ in difficulty), ten episodes (two escalation-required:
    a miss costs 5, else 1), A and B drawn independently; B's chance raised by ``shift``."""
    rng = np.random.default_rng(seed)
    cost = np.where(np.arange(10) < 2, 5.0, 1.0)
    hits = 0
    for _ in range(draws):
        p = rng.beta(2, 2, size=32)[:, None]
        a = np.where(rng.random((32, 10)) < p, 1.0, -cost).mean(axis=1)
        b = np.where(rng.random((32, 10)) < np.clip(p + shift, 0, 1), 1.0, -cost).mean(axis=1)
        hits += pvalue(b - a) < 0.05
    return hits / draws


def test_false_positive_rate_is_calibrated_and_a_miscalibrated_test_is_caught() -> None:
    draws = 1000
    bound = 0.05 + 2.58 * math.sqrt(0.05 * 0.95 / draws)  # 99% upper limit of an exact 5% test
    fpr = simulated_rejections(lambda d: exact_signed_rank(d).pvalue, draws)
    assert 0.02 < fpr <= bound, fpr
    # planted defect: a one-sided p-value reported as two-sided doubles the false positives
    halved = simulated_rejections(lambda d: exact_signed_rank(d).pvalue / 2, draws)
    assert halved > bound, halved
    # and the test has power against a real difference of the same size as its noise
    assert simulated_rejections(lambda d: exact_signed_rank(d).pvalue, 200, shift=0.15) > 0.8
