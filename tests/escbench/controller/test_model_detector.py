"""The model-based detector: strict replies, failures unscored and counted, rule/model/both."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from escbench_inspect.controller.demo import (
    answer_biased_policy,
    scripted_detector_failure,
    scripted_detector_policy,
)
from escbench_inspect.controller.model_detector import DetectorFailure, episode_text, parse_detector_reply
from escbench_inspect.controller.scorer import ControllerConfig, ControllerFile, Thresholds, Weights
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import log_metrics, scripted_model

EPISODE = "She denies chest pain. New facial droop since noon. Dose not stated on the referral."


def _reply(**flags: tuple[bool, list[str]]) -> str:
    base = {name: {"present": False, "evidence": []} for name in ("conflict", "missing", "high_risk")}
    for name, (present, evidence) in flags.items():
        base[name] = {"present": present, "evidence": evidence}
    return json.dumps(base)


def test_valid_reply_with_verbatim_evidence() -> None:
    text = _reply(high_risk=(True, ["facial   droop"]), missing=(True, ["Dose not stated"]))
    found = parse_detector_reply(f"```json\n{text}\n```", EPISODE)
    assert found.flags == {"conflict": False, "missing": True, "high_risk": True}
    assert found.evidence["high_risk"] == ["facial   droop"]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("There is a red flag.", "not_json"),
        (json.dumps({"conflict": True, "missing": False, "high_risk": False}), "schema_invalid"),
        (_reply(high_risk=(True, [])), "evidence_missing"),
        (_reply(high_risk=(True, ["crushing chest pain"])), "evidence_not_in_text"),
        (_reply().replace("false", '"false"', 1), "schema_invalid"),
    ],
)
def test_unusable_reply_is_a_failure_not_a_flag(reply: str, reason: str) -> None:
    with pytest.raises(DetectorFailure) as info:
        parse_detector_reply(reply, EPISODE)
    assert info.value.reason == reason


def _controller_file(tmp_path: Path) -> Path:
    config = ControllerConfig(
        name="full",
        ablation="full",
        weights=Weights(conflict=0.5, missing=0.25, high_risk=0.5, uncertainty=0.0),
        thresholds=Thresholds(low=0.25, high=0.5),
    )
    path = tmp_path / "controller.json"
    path.write_text(ControllerFile(controllers={"full": config}).model_dump_json())
    return path


@pytest.fixture(scope="module")
def model_run(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("detector")
    task = escalation_task(
        split="all",
        classes="documentation,messaging",
        controller=str(_controller_file(tmp)),
        detectors="model",
    )
    [log] = inspect_eval(
        task,
        model=scripted_model(answer_biased_policy),
        model_roles={"detector": scripted_model(scripted_detector_policy, name="detector")},
        log_dir=str(tmp),
        display="none",
    )
    assert log.status == "success"
    return log


def test_failed_detector_replies_are_unscored_and_counted(model_run) -> None:
    log = model_run
    expected_failures = 0
    reasons = set()
    for sample in log.samples:
        failure = scripted_detector_failure(episode_text(str(sample.input)))
        expected_failures += failure is not None
        recorded = sample.scores["model_detector"]
        control = sample.scores["controller_full"]
        if failure is None:
            assert recorded.value["detector_failed"] == 0
            assert control.value["full_detector_failed"] == 0 and not math.isnan(
                control.value["full_correct"]
            )
            assert control.metadata["controller"]["detectors"] == "model"
            assert control.metadata["controller"]["model_flags"] == recorded.metadata["model_flags"]
        else:
            assert recorded.value["detector_failed"] == 1
            assert all(math.isnan(recorded.value[k]) for k in ("conflict", "missing", "high_risk"))
            assert control.value["full_detector_failed"] == 1 and math.isnan(control.value["full_correct"])
            reasons.add(control.metadata["controller"]["detector_failure"])
            assert control.metadata["controller"]["detector_failure"] in (
                "not_json",
                "schema_invalid",
                "evidence_not_in_text",
                "detector_error",
            )
    # all four kinds of failure occur in this selection (prose, schema, evidence, exception)
    assert reasons == {"not_json", "schema_invalid", "evidence_not_in_text", "detector_error"}
    metrics = log_metrics(log)
    assert metrics["detector_failed/count"] == expected_failures  # the model detector's own count
    assert metrics["full_detector_failed/count"] == expected_failures
    # the escalation scorer (the model's own action) is untouched by detector failures
    assert all(not math.isnan(s.scores["escalation_scorer"].value["correct"]) for s in log.samples)


def test_detectors_parameter_is_validated() -> None:
    from escbench_inspect.params import TaskParameterError

    with pytest.raises(TaskParameterError) as info:
        escalation_task(detectors="regex")
    assert "rule" in str(info.value) and "both" in str(info.value)
