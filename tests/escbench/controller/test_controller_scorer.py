"""End to end: a scripted mockllm run with the controller applied in the task and by re-scoring."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import score as inspect_score

from escbench.scorers import controller_full, controller_workflow_only
from escbench_inspect.controller.demo import answer_biased_policy
from escbench_inspect.controller.scorer import (
    ControllerConfig,
    ControllerFile,
    Thresholds,
    Weights,
    apply_policy,
    risk,
)
from escbench_inspect.datasets.schema import Action
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import last_user_text, scripted_model

KEYS = {"correct", "escalated", "invalid", "utility_5", "utility_10", "confidence"}
META = {
    "name",
    "ablation",
    "weights",
    "thresholds",
    "model_action",
    "final_action",
    "overridden",
    "R",
    "C",
    "M",
    "H",
}


def _controller_file(tmp_path: Path) -> Path:
    def config(ablation: str, u: float) -> ControllerConfig:
        return ControllerConfig(
            name=ablation,
            ablation=ablation,  # type: ignore[arg-type]
            weights=Weights(conflict=0.5, missing=0.25, high_risk=0.5, uncertainty=u),
            thresholds=Thresholds(low=0.25, high=0.5),
        )

    path = tmp_path / "controller.json"
    file = ControllerFile(
        controllers={"full": config("full", 0.25), "workflow_only": config("workflow_only", 0.0)}
    )
    path.write_text(file.model_dump_json())
    return path


def _some_without_confidence(messages) -> str:
    """The answer-biased policy, with every fourth episode's confidence left out (the demo policy omits
    it in 5 % of episodes, which the 40 episodes here may not reach), so both explanation forms occur."""
    reply = answer_biased_policy(messages)
    if len(last_user_text(messages)) % 4 == 0:
        reply = re.sub(r',\s*"confidence":\s*[0-9.]+', "", reply)
    return reply


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("ctl")
    path = _controller_file(tmp)
    task = escalation_task(
        split="all", classes="triage", variants=["clean", "late_risk"], controller=str(path)
    )
    model = scripted_model(_some_without_confidence)
    [log] = inspect_eval(task, model=model, log_dir=str(tmp), display="none")
    assert log.status == "success"
    return log, path


def test_task_parameter_applies_the_controller(run) -> None:
    log, _ = run
    names = {s.scorer for s in log.results.scores}
    # one scorer per ablation in the file, beside the model's own action
    assert {"escalation_scorer", "controller_full", "controller_workflow_only"} <= names
    overridden = 0
    for sample in log.samples:
        base = sample.scores["escalation_scorer"]
        ctl = sample.scores["controller_full"]
        assert set(ctl.value) == {f"full_{k}" for k in [*KEYS, "detector_failed"]}
        assert ctl.value["full_detector_failed"] == 0
        meta = ctl.metadata["controller"]
        assert set(meta) >= META and meta["name"] == "full"
        model = Action(meta["model_action"]) if meta["model_action"] else None
        assert (base.metadata["action"] or None) == meta["model_action"]
        w = Weights(**meta["weights"])
        r = risk(w, meta["C"], meta["M"], meta["H"], meta["confidence"])
        assert r == pytest.approx(meta["R"], abs=1e-6)
        final = apply_policy(model, r, Thresholds(**meta["thresholds"]))
        assert meta["final_action"] == (final.value if final else None)
        assert ctl.value["full_escalated"] == float(final is Action.ESCALATE)
        overridden += meta["overridden"]
    assert overridden > 0

    def metric_names(scorer: str, prefix: str = "") -> set[tuple[str, str]]:
        return {
            (s.name.removeprefix(prefix), m)
            for s in log.results.scores
            if s.scorer == scorer
            for m in s.metrics
        }

    own = metric_names("escalation_scorer")
    assert metric_names("controller_full", "full_") - own == {("detector_failed", "escbench/count")}


def test_rescoring_with_named_ablations(run) -> None:
    log, path = run
    rescored = inspect_score(
        log,
        [controller_full(str(path)), controller_workflow_only(str(path))],
        action="append",
        display="none",
    )
    names = {s.scorer for s in rescored.results.scores}
    assert {"controller_full", "controller_workflow_only"} <= set(names)
    sample = rescored.samples[0]
    assert sample.scores["controller_workflow_only"].metadata["controller"]["ablation"] == ("workflow_only")


def test_controller_explanation_says_why_the_final_action_is_right_or_wrong(run) -> None:
    log, _ = run
    seen = set()
    for sample in log.samples:
        score = sample.scores["controller_full"]
        meta = score.metadata["controller"]
        final = meta["final_action"]
        accepted = sample.metadata["acceptable_actions"]
        member = "∈" if final in accepted else "∉"
        verdict = f"{final} {member} {{{', '.join(accepted)}}} — {sample.metadata['rationale']}"
        note = (
            f"Controller full: R={meta['R']:.3f} (C={int(meta['C'])} M={int(meta['M'])} "
            f"H={int(meta['H'])}); model {meta['model_action'] or 'invalid'} -> final {final}."
        )
        missing = meta["confidence"] is None
        confidence = "Confidence missing (no confidence given): NaN, left out of confidence/mean_present."
        paragraphs = [verdict, confidence, note] if missing else [verdict, note]
        assert score.explanation == "\n\n".join(paragraphs)
        assert score.metadata["confidence_missing_reason"] == ("no confidence given" if missing else None)
        seen.add(missing)
    assert seen == {True, False}


# What Inspect View reads (checked in headless Chromium, see docs/controller.md "In Inspect View"):
# - the header's score box shows the group of rows holding the declared headline
#   (``eval.headline_metric``); with none declared it shows the shortest group of rows instead,
#   which with controllers was their three ``detector_failed`` counts;
# - each row, and each sample-list column, is labelled by the score key alone (``EvalScore.name``,
#   the key of the score dict), never by the scorer: a controller's keys must carry its name;
# - rows and columns come in the order of ``results.scores`` and of the score dict's keys.
VIEW_ORDER = ["correct", "utility_5", "utility_10", "escalated", "invalid", "confidence"]


def test_view_headline_is_the_models_accuracy(run) -> None:
    from inspect_ai.log import headline_metric

    log, _ = run
    declared = log.eval.headline_metric
    assert (declared.scorer, declared.score, declared.metric) == ("escalation_scorer", "correct", "mean")
    resolved = headline_metric(log)
    assert (resolved.score.scorer, resolved.score.name, resolved.name) == (
        "escalation_scorer",
        "correct",
        "mean",
    )
    model_correct = [s.scores["escalation_scorer"].value["correct"] for s in log.samples]
    assert resolved.metric.value == pytest.approx(sum(model_correct) / len(model_correct))


def test_view_rows_name_their_scorer_and_lead_with_accuracy_then_utility(run) -> None:
    log, _ = run
    names = [s.name for s in log.results.scores]
    assert len(names) == len(set(names))  # no two rows (or sample-list columns) share a label
    by_scorer: dict[str, list[str]] = {}
    for score in log.results.scores:
        by_scorer.setdefault(score.scorer, []).append(score.name)
    assert by_scorer["escalation_scorer"] == VIEW_ORDER
    for scorer, prefix in (("controller_full", "full"), ("controller_workflow_only", "workflow_only")):
        assert by_scorer[scorer] == [f"{prefix}_{k}" for k in [*VIEW_ORDER, "detector_failed"]]
    assert [s.name for s in log.results.scores][0] == "correct"  # the model's accuracy leads
    sample_columns = [key for s in log.samples[:1] for score in s.scores.values() for key in score.value]
    assert len(sample_columns) == len(set(sample_columns)) == len(names)


def test_rescored_old_log_gets_the_headline(run, tmp_path: Path) -> None:
    """``escbench score`` declares the headline on a log written before it was declared."""
    from inspect_ai.log import write_eval_log

    from escbench_inspect.analysis.posthoc import apply_controller, drop_scorers

    log, path = run
    old = log.model_copy(deep=True)
    old.eval.headline_metric = None
    drop_scorers(old, {"controller_full", "controller_workflow_only"})
    old_path = tmp_path / "old.eval"
    write_eval_log(old, str(old_path))
    target, _ = apply_controller(old_path, path)
    from inspect_ai.log import read_eval_log

    header = read_eval_log(str(target), header_only=True)
    assert (
        header.eval.headline_metric is not None and header.eval.headline_metric.scorer == "escalation_scorer"
    )
    assert header.results.scores[0].name == "correct"
    # View puts the model's and the controllers' accuracy in one table only when their metric names
    # come in the same order (re-scoring sees the samples in another order than the run)
    metric_order = {tuple(s.metrics) for s in header.results.scores if s.name.endswith("correct")}
    assert len(metric_order) == 1, metric_order
