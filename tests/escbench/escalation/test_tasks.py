"""Tasks end to end on mockllm: every registered task, the CLI, bad parameters, composition."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import inspect_eval_cli
from inspect_ai import Task, eval, eval_set
from inspect_ai.dataset import Sample
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.scorer import match
from inspect_ai.solver import generate

from escbench.tasks import documentation, escalation, evidence, messaging, triage
from escbench_inspect.params import TaskParameterError
from escbench_inspect.testing import decision_json, log_metrics, scripted_model

ALWAYS_ESCALATE = scripted_model(lambda messages: decision_json("Escalate", 0.8))
EXPECTED_METRICS = {
    "correct/mean",
    "correct/clustered_stderr",
    "escalated/sensitivity",
    "escalated/miss_rate",
    "escalated/specificity",
    "escalated/n_required",
    "escalated/n_not_required",
    "utility_5/mean",
    "utility_10/mean",
    "invalid/mean",
    "invalid/count",
    "confidence/mean_present",
}


@pytest.mark.parametrize("task_fn", [escalation, documentation, evidence, messaging, triage])
def test_each_task_runs_and_reports_every_metric(task_fn, tmp_path: Path) -> None:
    log = eval(
        task_fn(variants="clean,late_risk"),
        model=ALWAYS_ESCALATE,
        limit=6,
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success"
    assert log.eval.task.startswith("escbench/")
    names = set(log_metrics(log))
    assert names >= EXPECTED_METRICS
    assert all(s.scores["escalation_scorer"].answer == "Escalate" for s in log.samples)
    assert {"dataset_hash", "escbench_version", "prompt"} <= log.eval.metadata.keys()


ESCBENCH_METRICS = {
    "escbench/sensitivity",
    "escbench/miss_rate",
    "escbench/specificity",
    "escbench/count",
    "escbench/mean_present",
}


def escbench_metric_names(log) -> set[str]:
    """The metric names as the log (and the console) carry them, namespace included."""
    return {name for score in log.results.scores for name in score.metrics if "/" in name}


def test_metric_names_are_escbench_namespaced_and_short(tmp_path: Path) -> None:
    log = eval(
        triage(variants="late_risk"), model=ALWAYS_ESCALATE, limit=2, log_dir=str(tmp_path), display="none"
    )[0]
    names = escbench_metric_names(log)
    assert names >= ESCBENCH_METRICS
    assert "escbench/by_variant_late_risk" in names
    assert all(name.startswith("escbench/") for name in names), names
    escalated = next(score for score in log.results.scores if score.name == "escalated")
    assert escalated.metrics["escbench/sensitivity"].value == 1.0


def test_uncertainty_prompt_reaches_the_model(tmp_path: Path) -> None:
    log = eval(
        triage(prompt="uncertainty"),
        model=ALWAYS_ESCALATE,
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )[0]
    system = log.samples[0].messages[0]
    assert system.role == "system" and "missed escalation is more harmful" in system.text
    vanilla = eval(triage(), model=ALWAYS_ESCALATE, limit=1, log_dir=str(tmp_path), display="none")[0]
    assert "more harmful" not in vanilla.samples[0].messages[0].text


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"split": "train"}, "accepted: test, dev, all"),
        ({"prompt": "cot"}, "accepted: vanilla, uncertainty"),
        ({"variants": "clean,late"}, "'late' for task parameter 'variants'"),
        ({"classes": ["triage", "radiology"]}, "'radiology' for task parameter 'classes'"),
        ({"solver": "react"}, "task parameter 'solver'"),
        ({"structured": "yes"}, "task parameter 'structured'"),
    ],
)
def test_bad_parameters_fail_clearly(kwargs: dict, message: str) -> None:
    with pytest.raises(TaskParameterError, match=message):
        escalation(**kwargs)


def test_bad_parameter_on_the_command_line(tmp_path: Path) -> None:
    result = inspect_eval_cli("-T", "split=training", log_dir=tmp_path)
    assert result.returncode != 0
    assert "accepted: test, dev, all" in result.stdout + result.stderr


@pytest.mark.slow
def test_cli_eval_writes_a_successful_log(tmp_path: Path) -> None:
    result = inspect_eval_cli("--limit", "3", log_dir=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    log = read_eval_log(list_eval_logs(str(tmp_path))[0].name)
    assert log.status == "success" and len(log.samples) == 3
    # mockllm's default text is not a decision: recorded as invalid, never as a silent pass
    assert log_metrics(log)["invalid/count"] == 3


def test_composes_with_other_benchmarks_in_an_eval_set(tmp_path: Path) -> None:
    other = Task(
        dataset=[Sample(input="Say hi", target="hi")],
        solver=generate(),
        scorer=match(),
        name="other_benchmark",
    )
    model = scripted_model(lambda messages: decision_json("Answer", 0.5))
    success, logs = eval_set(
        [triage(variants="clean"), other],
        model=model,
        limit=2,
        log_dir=str(tmp_path),
        display="none",
    )
    assert success
    assert sorted(log.eval.task for log in logs) == ["escbench/triage", "other_benchmark"]
