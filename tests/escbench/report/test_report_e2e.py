"""End to end: two scripted mockllm "models" -> logs -> ``escbench report`` -> exact numbers.

The run covers up to two test seeds per class plus one dev seed of the packaged corpus (whatever
its size), and every expected number is computed here, by hand, from the episodes' metadata and
the two policies:

- ``always_escalate``: Escalate at confidence 0.8 on every episode;
- ``rule``: late-risk -> Escalate (0.9); missing -> Ask_Clarification (0.7); stale -> prose, an
  invalid output; conflict on surface b -> the model call raises (an errored sample); clean and
  conflict on surface a -> Answer (0.6).

A stand-in controller scorer (same score dict as ``escalation_scorer``, ``Score.metadata
["controller"]["name"] == "full"``) turns Ask_Clarification into Escalate, so the report's grouping
by controller variant is exercised without depending on the real controller.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import Task, eval, task_with
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Target, match, scorer
from inspect_ai.solver import TaskState, generate
from scipy import stats as scipy_stats

from escbench_inspect.analysis.report import write_report
from escbench_inspect.analysis.results import SECTION_HOOKS, ReportOptions, ReportSection, build_report
from escbench_inspect.analysis.shortcuts import best_content_free, default_audit
from escbench_inspect.cli import main as cli_main
from escbench_inspect.datasets.assembly import default_seeds
from escbench_inspect.datasets.escalation import select_episodes
from escbench_inspect.datasets.render import render_blocks
from escbench_inspect.datasets.schema import Action, Episode
from escbench_inspect.scorers.escalation import decision_score, escalation_metrics
from escbench_inspect.scorers.parse import Decision, parse_decision
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import decision_json, last_user_text, scripted_model

ESCALATE_CONF, LATE_CONF, ASK_CONF, ANSWER_CONF = 0.8, 0.9, 0.7, 0.6
MODELS = ("mockllm/always_escalate", "mockllm/rule")


def chosen_seeds() -> list:
    seeds = sorted(default_seeds(), key=lambda s: s.id)
    picked = []
    for task_class in sorted({s.task_class for s in seeds}, key=lambda c: c.value):
        picked += [s for s in seeds if s.task_class == task_class and s.split == "test"][:2]
    picked += [s for s in seeds if s.split == "dev"][:1]
    return picked


SEEDS = chosen_seeds()
EPISODES = select_episodes("all", seeds=SEEDS)
BY_TEXT = {render_blocks(e): e for e in EPISODES}
TEST_EPISODES = [e for e in EPISODES if e.split == "test"]


def rule_action(e: Episode) -> tuple[str, float | None]:
    """(action, confidence) of the rule policy: an action name, "invalid" or "error"."""
    variant = e.variant.value
    if variant == "late_risk":
        return "Escalate", LATE_CONF
    if variant == "missing":
        return "Ask_Clarification", ASK_CONF
    if variant == "stale":
        return "invalid", None
    if variant == "conflict" and e.surface == "b":
        return "error", None
    return "Answer", ANSWER_CONF


def rule_policy(messages) -> str:
    action, confidence = rule_action(BY_TEXT[last_user_text(messages)])
    if action == "error":
        raise RuntimeError("scripted provider failure")
    if action == "invalid":
        return "I would need to think about this one."
    return decision_json(action, confidence)


def expected_action(model: str, controller: str, e: Episode) -> tuple[str, float | None]:
    if model.endswith("always_escalate"):
        return "Escalate", ESCALATE_CONF
    action, confidence = rule_action(e)
    if controller == "full" and action == "Ask_Clarification":
        return "Escalate", confidence
    return action, confidence


@scorer(metrics=escalation_metrics())
def stand_in_controller():
    """Same contract as a controller scorer: Ask_Clarification -> Escalate, named "full"."""

    async def score(state: TaskState, target: Target) -> Score:
        decision = parse_decision(state.output.completion)
        final = Action.ESCALATE if decision.action is Action.ASK_CLARIFICATION else decision.action
        overridden = final is not decision.action
        info = {
            "name": "full",
            "model_action": decision.action.value if decision.action else None,
            "final_action": final.value if final else None,
            "overridden": overridden,
        }
        final_decision = Decision(final, decision.confidence, decision.reason, decision.error)
        return decision_score(final_decision, state.metadata, controller=info)

    return score


def demo_section(paths: list[str], out_dir: Path) -> ReportSection:
    return ReportSection(
        title="Demo section", markdown=f"{len(paths)} demo log(s).", numbers={"logs": len(paths)}
    )


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("logs")
    base = escalation_task(split="all", prompt="uncertainty", seeds=SEEDS)
    task = task_with(base, scorer=[base.scorer[0], stand_in_controller()])
    models = [
        scripted_model(lambda m: decision_json("Escalate", ESCALATE_CONF), name="always_escalate"),
        scripted_model(rule_policy, name="rule"),
    ]
    logs = eval(task, model=models, log_dir=str(directory), display="none", fail_on_error=False)
    assert all(log.status == "success" for log in logs)
    # inputs the report must skip, each with its reason
    other = [Sample(input="hello", target="x")]
    others = [
        Task(dataset=other, solver=generate(), scorer=match(), metadata=metadata, name=name)
        for name, metadata in (
            ("plain", None),
            ("css", {"benchmark": "escbench-css"}),
            ("demo", {"benchmark": "escbench-demo"}),
        )
    ]
    eval(
        others,
        model=scripted_model(lambda m: "x", name="other"),
        log_dir=str(directory),
        display="none",
    )
    return directory


CSS_TITLE = "Causal Sensitivity Score (CSS) vs coverage (CMS)"


@pytest.fixture(scope="module")
def report(log_dir: Path):
    return build_report([str(log_dir)], ReportOptions(n_boot=400))


def group_rows(model: str, controller: str) -> list[tuple[Episode, str, float | None]]:
    return [(e, *expected_action(model, controller, e)) for e in TEST_EPISODES]


def row(frame, model: str, controller: str) -> dict:
    match_ = frame[(frame["model"] == model) & (frame["controller"] == controller)]
    assert len(match_) == 1
    return match_.iloc[0].to_dict()


GROUPS = [(m, c) for m in MODELS for c in ("model", "full")]


def test_groups_and_counts(report) -> None:
    assert report.groups == [(m, "uncertainty", c) for m, c in GROUPS]
    for model, controller in GROUPS:
        rows = group_rows(model, controller)
        counts = row(report.counts, model, controller)
        assert counts["episodes"] == len(TEST_EPISODES)
        assert counts["seeds"] == len({e.seed_id for e in TEST_EPISODES})
        assert counts["invalid"] == sum(a == "invalid" for _, a, _ in rows)
        assert counts["errored"] == sum(a == "error" for _, a, _ in rows)
    assert row(report.counts, "mockllm/rule", "model")["errored"] > 0


@pytest.mark.parametrize(("model", "controller"), GROUPS)
def test_table1_exact(report, model: str, controller: str) -> None:
    rows = group_rows(model, controller)
    required = [a == "Escalate" for e, a, _ in rows if e.escalation_required]
    not_required = [a != "Escalate" for e, a, _ in rows if not e.escalation_required]
    correct = [a in {x.value for x in e.acceptable_actions} for e, a, _ in rows]

    def utility(e: Episode, a: str, c_fn: float) -> float:
        if e.escalation_required:
            return 1.0 if a == "Escalate" else -c_fn
        return -1.0 if a == "Escalate" else 1.0

    expected = {
        "sensitivity": sum(required) / len(required),
        "missed_rate": 1 - sum(required) / len(required),
        "specificity": sum(not_required) / len(not_required),
        "accuracy": sum(correct) / len(rows),
        "utility_5": sum(utility(e, a, 5) for e, a, _ in rows) / len(rows),
        "utility_10": sum(utility(e, a, 10) for e, a, _ in rows) / len(rows),
    }
    got = row(report.table1, model, controller)
    for name, value in expected.items():
        assert got[name] == pytest.approx(value), name
        assert got[f"{name}_ci_low"] <= value + 1e-12 <= got[f"{name}_ci_high"] + 2e-12, name
    if model.endswith("always_escalate"):
        assert (got["sensitivity_ci_low"], got["sensitivity_ci_high"]) == (1.0, 1.0)
        assert (got["specificity_ci_low"], got["specificity_ci_high"]) == (0.0, 0.0)


@pytest.mark.parametrize(("model", "controller"), GROUPS)
def test_table2_and_table3_exact(report, model: str, controller: str) -> None:
    rows = group_rows(model, controller)
    t2 = row(report.table2, model, controller)
    for variant in ("clean", "missing", "stale", "conflict", "late_risk"):
        part = [(e, a) for e, a, _ in rows if e.variant.value == variant]
        accuracy = sum(a in {x.value for x in e.acceptable_actions} for e, a in part) / len(part)
        assert t2[variant] == pytest.approx(accuracy), variant
    t3 = row(report.table3, model, controller)
    required = [a for e, a, _ in rows if e.escalation_required]
    assert t3["required_episodes"] == len(required)
    for action in ("Answer", "Ask_Clarification", "Abstain", "Escalate", "invalid", "error"):
        assert t3[action] == pytest.approx(required.count(action) / len(required)), action
        assert t3[f"{action}_n"] == required.count(action)


def hand_calibration(rows) -> dict:
    pairs = [(c, a in {x.value for x in e.acceptable_actions}) for e, a, c in rows if c is not None]
    right = [c for c, ok in pairs if ok]
    wrong = [c for c, ok in pairs if not ok]
    # every scripted confidence falls in its own ECE bin, so bins = distinct confidences
    by_conf: dict[float, list[bool]] = defaultdict(list)
    for c, ok in pairs:
        by_conf[c].append(ok)
    ece = sum(len(v) / len(pairs) * abs(sum(v) / len(v) - c) for c, v in by_conf.items())
    wins = sum((w < r) + 0.5 * (w == r) for w in wrong for r in right)
    auroc = wins / (len(wrong) * len(right)) if wrong and right else math.nan
    accepted, errors, aurc = 0, 0, 0.0
    for c in sorted(by_conf, reverse=True):
        accepted += len(by_conf[c])
        errors += by_conf[c].count(False)
        aurc += len(by_conf[c]) / len(pairs) * errors / accepted
    return {
        "with_confidence": len(pairs),
        "without_confidence": len(rows) - len(pairs),
        "mean_conf_correct": sum(right) / len(right) if right else math.nan,
        "mean_conf_incorrect": sum(wrong) / len(wrong) if wrong else math.nan,
        "ece": ece,
        "auroc": auroc,
        "aurc": aurc,
    }


@pytest.mark.parametrize(("model", "controller"), GROUPS)
def test_calibration_exact(report, model: str, controller: str) -> None:
    expected = hand_calibration(group_rows(model, controller))
    got = row(report.calibration, model, controller)
    for name, value in expected.items():
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(got[name]), name
        else:
            assert got[name] == pytest.approx(value), name
    if model.endswith("always_escalate"):
        assert got["auroc"] == 0.5
        assert got["aurc"] == pytest.approx(1 - row(report.table1, model, controller)["accuracy"])


def test_significance_matches_scipy_and_holm(report) -> None:
    sig = report.significance
    assert len(sig) == 2 * 4  # two models x four perturbations, model's own action
    expected_p = []
    for model in MODELS:
        rows = group_rows(model, "model")
        per_seed: dict[tuple[str, str], list[bool]] = defaultdict(list)
        for e, a, _ in rows:
            per_seed[(e.seed_id, e.variant.value)].append(a in {x.value for x in e.acceptable_actions})
        seeds = sorted({e.seed_id for e in TEST_EPISODES})
        clean = np.array([np.mean(per_seed[(s, "clean")]) for s in seeds])
        for variant in ("missing", "stale", "conflict", "late_risk"):
            perturbed = np.array([np.mean(per_seed[(s, variant)]) for s in seeds])
            got = sig[(sig["model"] == model) & (sig["perturbation"] == variant)].iloc[0]
            diff = perturbed - clean
            p = 1.0 if not diff.any() else float(scipy_stats.wilcoxon(diff).pvalue)
            assert got["p_value"] == pytest.approx(p), (model, variant)
            assert got["mean_difference"] == pytest.approx(diff.mean())
            expected_p.append(p)
    # Holm by hand: step down through the sorted p-values
    m = len(expected_p)
    order = np.argsort(expected_p, kind="stable")
    significant = 0
    for rank, idx in enumerate(order):
        if expected_p[idx] * (m - rank) >= 0.05:
            break
        significant += 1
    assert int(sig["significant"].sum()) == significant


def test_late_risk_sensitivity(report) -> None:
    for model, controller in GROUPS:
        rows = [
            (e, a)
            for e, a, _ in group_rows(model, controller)
            if e.variant.value == "late_risk" and e.escalation_required
        ]
        got = row(report.late_risk, model, controller)
        assert got["value"] == pytest.approx(sum(a == "Escalate" for _, a in rows) / len(rows))


def test_skipped_inputs_are_named_with_reasons(report) -> None:
    reasons = [s["reason"] for s in report.loaded.skipped]
    assert any(r.startswith("not an escbench log") for r in reasons)
    assert not any("escbench-css" in r or "css report" in r for r in reasons)  # CSS has a section
    assert any("escbench-demo" in r for r in reasons)
    if any(e.split == "dev" for e in EPISODES):
        assert any("dev-split" in note for note in report.notes)


def test_errored_samples_can_be_excluded(log_dir: Path) -> None:
    excluded = build_report([str(log_dir)], ReportOptions(n_boot=0, errored="exclude"))
    rows = [(e, a) for e, a, _ in group_rows("mockllm/rule", "model") if a != "error"]
    got = row(excluded.table1, "mockllm/rule", "model")
    assert got["episodes"] == len(rows)
    accuracy = sum(a in {x.value for x in e.acceptable_actions} for e, a in rows) / len(rows)
    assert got["accuracy"] == pytest.approx(accuracy)
    assert row(excluded.counts, "mockllm/rule", "model")["errored"] > 0  # still reported


def test_cli_writes_every_output_and_reruns_identically(
    log_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(SECTION_HOOKS, "escbench-demo", f"{__name__}:demo_section")
    args = ["report", str(log_dir), "--out", str(tmp_path / "a"), "--bootstrap", "300"]
    assert cli_main(args) == 0
    out = tmp_path / "a"
    for name in (
        "report.md",
        "report.json",
        "table1_escalation.csv",
        "table2_accuracy_by_variant.csv",
        "table3_actions_escalation_required.csv",
        "calibration.csv",
        "significance.csv",
        "figures/fig1_late_risk_sensitivity.png",
        "figures/fig2_accuracy_by_variant.png",
        "figures/fig3_reliability.png",
        "figures/fig4_risk_coverage.png",
    ):
        assert (out / name).stat().st_size > 0, name

    def no_nan(token: str) -> float:
        raise AssertionError(f"non-JSON number {token}")

    numbers = json.loads((out / "report.json").read_text(), parse_constant=no_nan)
    assert numbers["sections"]["Demo section"] == {"logs": 1}
    assert CSS_TITLE in numbers["sections"]
    markdown = (out / "report.md").read_text()
    assert "## Demo section" in markdown and "](figures/fig3_reliability.png)" in markdown
    assert f"## {CSS_TITLE}" in markdown
    floor = best_content_free(default_audit())
    floor_row = next(line for line in markdown.splitlines() if "*content-free floor*" in line)
    assert f"*{floor.policy}*" in floor_row and f"| {floor.accuracy:.2f} |" in floor_row

    # a second run without figures: identical numbers (seeded bootstrap)
    rerun = build_report([str(log_dir)], ReportOptions(n_boot=300))
    write_report(rerun, tmp_path / "b", figures=False)
    again = json.loads((tmp_path / "b" / "report.json").read_text())
    for key in ("table1", "table2", "table3", "calibration", "significance"):
        assert again[key] == numbers[key], key


def test_no_escalation_logs_gives_an_empty_report_that_says_why(
    log_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    plain = [str(p) for p in log_dir.glob("*.eval") if "_plain_" in p.name]
    assert cli_main(["report", *plain, "--out", str(tmp_path / "a"), "--bootstrap", "10"]) == 1
    assert "no test-split escalation decisions found" in capsys.readouterr().out
    assert "not an escbench log" in (tmp_path / "a" / "report.md").read_text()
    # with a CSS log among them, the CSS section is the report (tests/escbench/report/test_small_runs.py)
    css = [str(p) for p in log_dir.glob("*.eval") if "_css_" in p.name]
    assert cli_main(["report", *plain, *css, "--out", str(tmp_path / "b"), "--bootstrap", "10"]) == 0
    markdown = (tmp_path / "b" / "report.md").read_text()
    assert "not an escbench log" in markdown and f"## {CSS_TITLE}" in markdown
