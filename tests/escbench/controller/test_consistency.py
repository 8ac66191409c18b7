"""Consistency-based uncertainty over Inspect epochs, from a scripted model with known samples."""

from __future__ import annotations

import math

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval

from escbench_inspect.analysis.results import ReportOptions, build_report
from escbench_inspect.analysis.stats import action_consistency
from escbench_inspect.controller import tune as tune_mod
from escbench_inspect.controller.demo import SamplingPolicy, sampled_actions
from escbench_inspect.controller.scorer import with_detectors
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import scripted_model

K = 4


def test_action_consistency_known_answers() -> None:
    found = action_consistency(["Answer", "Answer", "Escalate", "Answer"])
    assert (found.majority, found.agreement, found.samples) == ("Answer", 0.75, 4)
    assert found.entropy == pytest.approx(-(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25)))
    tie = action_consistency(["Answer", "Escalate"])
    assert (tie.majority, tie.agreement, tie.entropy) == ("Escalate", 0.5, pytest.approx(1.0))
    assert action_consistency(["invalid"] * 3).entropy == 0.0


@pytest.fixture(scope="module")
def epochs_log(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("epochs")
    task = escalation_task(
        split="all", classes="triage", variants=["clean", "late_risk"], prompt="uncertainty"
    )
    [log] = inspect_eval(
        task,
        model=scripted_model(SamplingPolicy(K), name="sampling"),
        epochs=K,
        log_dir=str(tmp),
        display="none",
    )
    assert log.status == "success"
    return log


def _prompt_text(sample) -> str:
    return next(m.text for m in reversed(sample.messages) if m.role == "user")


def test_epoch_consistency_matches_the_scripted_answer_key(epochs_log) -> None:
    log = epochs_log
    rows, _ = tune_mod.read_log_rows([log.location], ["dev", "test"])
    records = tune_mod.make_records(rows)
    assert records.epochs == K
    expected: dict[str, float] = {}
    for sample in log.samples:
        expected[str(sample.id)] = action_consistency(sampled_actions(_prompt_text(sample), K)).agreement
    got = dict(zip(records.ids.tolist(), records.consistency.tolist(), strict=True))
    assert got == pytest.approx(expected)
    assert set(np.round(records.consistency, 2)) - {0.5, 0.75, 1.0} == set()
    assert records.consistency.min() < 1.0  # the samples do disagree on some episodes


def test_report_adds_consistency_calibration(epochs_log) -> None:
    report = build_report([epochs_log.location], ReportOptions(split="all", n_boot=50))
    row = report.calibration[report.calibration["controller"] == "model"].iloc[0]
    assert row["epochs"] == K and row["consistency_episodes"] == len({s.id for s in epochs_log.samples})
    # by hand: per episode, majority share vs the majority action's correctness
    agreement, wrong = [], []
    for sid in sorted({str(s.id) for s in epochs_log.samples}):
        sample = next(s for s in epochs_log.samples if str(s.id) == sid)
        found = action_consistency(sampled_actions(_prompt_text(sample), K))
        agreement.append(found.agreement)
        wrong.append(found.majority not in sample.metadata["acceptable_actions"])
    from escbench_inspect.analysis.stats import binary_auroc

    assert row["consistency_auroc"] == pytest.approx(binary_auroc(1 - np.array(agreement), np.array(wrong)))
    assert math.isfinite(row["consistency_ece"]) and math.isfinite(row["ece"])


def test_tuning_with_consistency_stays_dev_only(epochs_log, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[set[str], str]] = []
    real = tune_mod.grid_search

    def spy(records, ablation="full", chunk=256, uncertainty="stated"):
        seen.append((set(records.split.tolist()), uncertainty))
        return real(records, ablation, chunk, uncertainty)

    monkeypatch.setattr(tune_mod, "grid_search", spy)
    file, _ = tune_mod.tune([epochs_log.location], uncertainty="consistency")
    assert seen and all(splits == {"dev"} for splits, _ in seen)
    assert {u for _, u in seen} == {"stated", "consistency"}  # comparison covers both
    assert all(c.uncertainty == "consistency" for c in file.controllers.values())
    rows = {(r["ablation"], r["detectors"], r["uncertainty"]) for r in file.comparison}
    assert {
        ("full", "rule", "stated"),
        ("full", "rule", "consistency"),
        ("confidence_only", "none", "consistency"),
    } <= rows
    # a consistency controller needs all epochs: a per-sample scorer refuses it clearly
    with pytest.raises(ValueError, match="post hoc"):
        with_detectors(file.controllers["full"], None)
