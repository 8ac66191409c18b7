"""``-T solver=agent`` on the escalation tasks: what the agent sees, scoring, tool-use metrics."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import regex
from agent_helpers import run_scripted
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageTool

from escbench.tasks import escalation, triage
from escbench_inspect.agents.escalation import (
    CHART_METADATA_KEY,
    ESCALATION_CHART,
    agent_escalation_dataset,
    agent_system_prompt,
)
from escbench_inspect.agents.usage import tool_usage
from escbench_inspect.datasets.escalation import escalation_dataset
from escbench_inspect.datasets.schema import TaskClass
from escbench_inspect.testing import decision_json, scripted_model
from escbench_inspect.testing.agents import fixed_script, scripted_agent_model

LEAK = regex.compile(r"\b(variant|perturb\w*|stale|late[ _-]?risk|clean|missing|conflict\w*)\b", regex.I)
DECISION = {"action": "Escalate", "confidence": 0.8, "reason": "Red flag in the chart."}
READ_TWO_THEN_SUBMIT = [
    ("read_chart_section", {"section": "Earlier Record"}),
    ("read_chart_section", {"section": "chart_summary"}),
    ("submit", DECISION),
]
LIMIT = 4  # the first seed's episodes of the chosen variants, both surfaces


def run(task, steps: list, tmp_path: Path, limit: int = LIMIT) -> EvalLog:
    return run_scripted(task, steps, tmp_path, limit)


def test_agent_samples_move_record_and_summary_into_a_fixed_chart() -> None:
    prompt_samples = {s.id: s for s in escalation_dataset("all")}
    agent_samples = list(agent_escalation_dataset("all"))
    assert {s.id for s in agent_samples} == set(prompt_samples)
    for sample in agent_samples:
        twin = prompt_samples[sample.id]
        chart = sample.metadata[CHART_METADATA_KEY]
        assert list(chart) == list(ESCALATION_CHART.names)  # same list for every variant
        assert sample.target == twin.target
        assert {k: v for k, v in sample.metadata.items() if k != CHART_METADATA_KEY} == twin.metadata
        assert "=== EARLIER RECORD ===" not in sample.input and chart["earlier_record"] not in sample.input
        assert "=== REQUEST ===" in sample.input and "=== NEW INFORMATION ===" in sample.input
        assert chart["earlier_record"] in twin.input
        assert chart["chart_summary"] in twin.input and "CHART SUMMARY" not in sample.input
        assert "=== MESSAGE RECEIVED AFTER THE REQUEST ===" in sample.input
        for text in [sample.input, *chart.values()]:
            assert LEAK.search(text) is None


@pytest.mark.parametrize("condition", ["vanilla", "uncertainty"])
@pytest.mark.parametrize("task_class", list(TaskClass))
def test_agent_prompt_depends_only_on_class_and_condition(task_class: TaskClass, condition: str) -> None:
    text = agent_system_prompt(task_class, condition)
    assert "read_chart_section" in text and "- earlier_record:" in text and "- chart_summary:" in text
    assert ("missed escalation is more harmful" in text.lower()) == (condition == "uncertainty")


def test_agent_mode_is_scored_like_the_prompt_mode(tmp_path: Path) -> None:
    variants = "clean,late_risk"  # one not requiring escalation, one requiring it
    agent = run(triage(solver="agent", variants=variants), READ_TWO_THEN_SUBMIT, tmp_path)
    prompt = eval(
        triage(variants=variants),
        model=scripted_model(lambda m: decision_json(**DECISION)),
        limit=LIMIT,
        log_dir=str(tmp_path),
        display="none",
    )[0]
    agent_scores = {s.id: s.scores["escalation_scorer"] for s in agent.samples}
    prompt_scores = {s.id: s.scores["escalation_scorer"] for s in prompt.samples}
    assert agent_scores.keys() == prompt_scores.keys() and len(agent_scores) == LIMIT
    assert {s.value["correct"] for s in agent_scores.values()} == {0.0, 1.0}
    for sample_id, score in agent_scores.items():
        assert score.value == prompt_scores[sample_id].value
        assert score.answer == "Escalate"
    assert json.loads(agent.samples[0].output.completion) == DECISION
    metrics = {s.name: s.metrics for s in agent.results.scores}
    assert metrics["correct"]["mean"].value == prompt.results.scores[0].metrics["mean"].value
    assert agent.eval.metadata["solver"] == "agent"


def test_tool_metrics_come_from_the_transcript(tmp_path: Path) -> None:
    log = run(
        triage(solver="agent", variants="stale,clean"),
        [
            ("read_chart_section", {"section": "earlier record"}),
            ("read_chart_section", {"section": "../chart_summary"}),
            ("submit", DECISION),
        ],
        tmp_path,
    )
    for sample in log.samples:
        usage = tool_usage(sample.messages, ESCALATION_CHART.names, submitted=True)
        score = sample.scores["agent_tool_scorer"]
        assert score.metadata["agent_runs"]["agent"]["sections_read"] == list(usage.sections_read)
        assert score.value == {
            "tool_calls": 2.0,
            "read_errors": 1.0,
            "submitted": 1.0,
            "read_earlier_record": 1.0,
            "read_chart_summary": 0.0,
        }
        errors = [m for m in sample.messages if isinstance(m, ChatMessageTool) and m.error]
        assert len(errors) == 1 and "Valid sections: earlier_record, chart_summary" in errors[0].error.message
    metrics = {
        s.name: s.metrics["mean"].value
        for s in log.results.scores
        if s.name != "escalation_scorer" and "mean" in s.metrics
    }
    assert metrics["tool_calls"] == 2.0 and metrics["read_earlier_record"] == 1.0
    assert metrics["read_chart_summary"] == 0.0


def test_json_answer_without_the_typed_submit_is_scored_the_same(tmp_path: Path) -> None:
    steps = [
        ("read_chart_section", {"section": "earlier_record"}),
        ("submit", {"answer": decision_json(**DECISION)}),
    ]
    log = run(escalation(solver="agent", structured=False, classes="messaging"), steps, tmp_path)
    assert all(s.scores["escalation_scorer"].answer == "Escalate" for s in log.samples)
    assert log.samples[0].messages[0].text.count('"action"') == 1  # JSON format in the prompt


def test_a_run_that_never_submits_is_invalid(tmp_path: Path) -> None:
    log = run(triage(solver="agent", variants="clean"), ["I think we should escalate."], tmp_path, 1)
    for sample in log.samples:
        assert sample.scores["escalation_scorer"].value["invalid"] == 1.0
        assert sample.scores["agent_tool_scorer"].value["submitted"] == 0.0
        assert sum(m.role == "assistant" for m in sample.messages) == 15  # DEFAULT_MAX_TURNS
    assert math.isnan(log.samples[0].scores["escalation_scorer"].value["confidence"])


def test_a_run_cut_by_an_inspect_message_limit_keeps_its_transcript(tmp_path: Path) -> None:
    steps = [("read_chart_section", {"section": "earlier_record"})]
    log = eval(
        triage(solver="agent", variants="clean"),
        model=scripted_agent_model(fixed_script(steps)),
        limit=1,
        message_limit=6,
        log_dir=str(tmp_path),
        display="none",
    )[0]
    sample = log.samples[0]
    assert sample.limit is not None and sample.limit.type == "message"
    assert sample.scores["escalation_scorer"].value["invalid"] == 1.0
    usage = sample.scores["agent_tool_scorer"].value
    assert usage["submitted"] == 0.0 and usage["tool_calls"] >= 1 and usage["read_earlier_record"] == 1.0
