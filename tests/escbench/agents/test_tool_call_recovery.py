"""``recover_tool_calls``: bare-JSON tool calls in the message text become real tool calls (opt-in)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_helpers import run_scripted
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageAssistant, get_model
from inspect_ai.tool import ToolCall

from escbench.tasks import css_agent, triage
from escbench_inspect.agents.recovery import (
    RECOVERED_KEY,
    RECOVERY_NOTE,
    parse_text_tool_call,
    recover_tool_call,
)
from escbench_inspect.analysis.logs import condition_label
from escbench_inspect.local.cli import tool_call_recovery_args
from escbench_inspect.params import TaskParameterError
from escbench_inspect.testing.agents import fixed_script, scripted_agent_model
from escbench_inspect.testing.css import Grader

NAMES = ("read_chart_section", "submit")
DECISION = {"action": "Escalate", "confidence": 0.8, "reason": "Red flag in the chart."}


def call_text(name: str, arguments: object, key: str = "arguments") -> str:
    return json.dumps({"name": name, key: arguments})


READ = call_text("read_chart_section", {"section": "earlier_record"})
SUBMIT = call_text("submit", DECISION)
# What the 0.5B local model writes: a sentence, then the call as a JSON block (no <tool_call> tags).
TEXT_STEPS = [f"I will read the earlier record.\n{READ}", f"```json\n{SUBMIT}\n```"]


# --- parsing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        READ,
        f"Let me look.\n\n{READ}\n",
        f"```json\n{READ}\n```",
        f"```\n{READ}\n```",
        f"<tool_call>\n{READ}\n</tool_call>",
        call_text("read_chart_section", {"section": "earlier_record"}, key="parameters"),
        f"I need the record {{not json}} first: {READ}",
    ],
)
def test_a_single_json_tool_call_is_recognised(text: str) -> None:
    assert parse_text_tool_call(text, NAMES) == ("read_chart_section", {"section": "earlier_record"})


@pytest.mark.parametrize(
    "text",
    [
        "I think we should escalate.",
        f"{READ}\n{SUBMIT}",  # several calls: ambiguous
        f"{READ} and the decision {json.dumps(DECISION)}",  # a call plus another JSON object
        call_text("list_sections", {}),  # unknown tool
        call_text("read_chart_section", "earlier_record"),  # non-object arguments
        call_text("read_chart_section", json.dumps({"section": "earlier_record"})),  # JSON string
        call_text("read_chart_section", ["earlier_record"]),
        '{"name": "read_chart_section", "arguments": {"section": "earlier_record"}',  # truncated
        "{'name': 'read_chart_section', 'arguments': {'section': 'earlier_record'}}",  # not JSON
        '{"name": "submit", "arguments": {}, "parameters": {}}',  # both keys
        '{"name": "submit", "arguments": {}, "id": "x"}',  # extra key
        '{"function": "submit", "arguments": {}}',
        '{"name": 3, "arguments": {}}',
        json.dumps(DECISION),  # a decision object, not a tool call
    ],
)
def test_ambiguous_unknown_or_malformed_texts_are_left_alone(text: str) -> None:
    assert parse_text_tool_call(text, NAMES) is None
    message = ChatMessageAssistant(content=text)
    assert recover_tool_call(message, NAMES, turn=0) is None
    assert message.text == text and not message.tool_calls and not message.metadata


def test_recovery_attaches_the_call_keeps_the_text_and_notes_it() -> None:
    message = ChatMessageAssistant(content=TEXT_STEPS[0])
    call = recover_tool_call(message, NAMES, turn=3)
    assert call is not None and message.tool_calls == [call]
    assert (call.id, call.function, call.arguments) == (
        "recovered_3",
        "read_chart_section",
        {"section": "earlier_record"},
    )
    assert message.text.startswith(TEXT_STEPS[0])
    assert message.text.endswith(RECOVERY_NOTE.format(name="read_chart_section"))
    assert message.metadata[RECOVERED_KEY] == {
        "turn": 3,
        "tool_call_id": "recovered_3",
        "function": "read_chart_section",
        "original_text": TEXT_STEPS[0],
    }


def test_a_message_with_native_tool_calls_is_never_touched() -> None:
    native = ToolCall(id="call_1", function="read_chart_section", arguments={"section": "chart_summary"})
    message = ChatMessageAssistant(content=SUBMIT, tool_calls=[native])
    assert recover_tool_call(message, NAMES, turn=0) is None
    assert message.tool_calls == [native] and message.text == SUBMIT and not message.metadata


# --- escalation agent mode -----------------------------------------------------------------------


def run(task, steps: list, tmp_path: Path, limit: int = 2) -> EvalLog:
    return run_scripted(task, steps, tmp_path, limit)


def metric_means(log: EvalLog) -> dict[str, float]:
    return {s.name: s.metrics["mean"].value for s in log.results.scores if "mean" in s.metrics}


def test_recovered_calls_read_the_chart_and_submit(tmp_path: Path) -> None:
    log = run(triage(solver="agent", variants="late_risk", recover_tool_calls=True), TEXT_STEPS, tmp_path)
    assert log.eval.metadata["recover_tool_calls"] is True
    for sample in log.samples:
        assert sample.scores["escalation_scorer"].answer == "Escalate"
        assert json.loads(sample.output.completion) == DECISION
        usage = sample.scores["agent_tool_scorer"].value
        assert usage["submitted"] == 1.0 and usage["tool_calls"] == 1.0
        assert usage["read_earlier_record"] == 1.0 and usage["read_errors"] == 0.0
        assert usage["recovered_tool_calls"] == 2.0 and usage["native_tool_calls"] == 0.0
        assistant = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
        assert len(assistant) == 2
        recorded = [
            (m.metadata[RECOVERED_KEY]["tool_call_id"], m.metadata[RECOVERED_KEY]["function"])
            for m in assistant
        ]
        assert recorded == [("recovered_0", "read_chart_section"), ("recovered_1", "submit")]
        assert [c.id for c in assistant[0].tool_calls] == ["recovered_0"]  # react drops the submit call
        tool_returns = [m for m in sample.messages if m.role == "tool"]
        assert tool_returns[0].function == "read_chart_section" and tool_returns[0].error is None
        assert sample.metadata["chart_sections"]["earlier_record"] in tool_returns[0].text
        assert "recovered from text" in sample.scores["agent_tool_scorer"].explanation
    means = metric_means(log)
    assert means["recovered_tool_calls"] == 2.0 and means["native_tool_calls"] == 0.0
    assert means["submitted"] == 1.0


def test_without_recovery_nothing_changes(tmp_path: Path) -> None:
    log = run(triage(solver="agent", variants="late_risk"), TEXT_STEPS, tmp_path, limit=1)
    assert log.eval.metadata["recover_tool_calls"] is False
    sample = log.samples[0]
    assert sample.scores["escalation_scorer"].value["invalid"] == 1.0
    usage = sample.scores["agent_tool_scorer"].value
    assert usage["submitted"] == 0.0 and usage["tool_calls"] == 0.0
    assert "recovered_tool_calls" not in usage and "native_tool_calls" not in usage
    assistant = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert len(assistant) == 15 and not any(m.tool_calls or m.metadata for m in assistant)
    assert "recovered_tool_calls" not in metric_means(log)


def test_native_calls_are_counted_as_native(tmp_path: Path) -> None:
    steps = [("read_chart_section", {"section": "earlier_record"}), ("submit", DECISION)]
    log = run(triage(solver="agent", variants="clean", recover_tool_calls=True), steps, tmp_path, limit=1)
    usage = log.samples[0].scores["agent_tool_scorer"].value
    assert usage["native_tool_calls"] == 2.0 and usage["recovered_tool_calls"] == 0.0
    assert usage["submitted"] == 1.0


def test_ambiguous_texts_are_not_recovered_in_a_run(tmp_path: Path) -> None:
    steps = [f"{READ}\n{SUBMIT}"]  # two calls in one message, every turn
    log = run(triage(solver="agent", variants="clean", recover_tool_calls=True), steps, tmp_path, limit=1)
    usage = log.samples[0].scores["agent_tool_scorer"].value
    assert usage["submitted"] == 0.0 and usage["tool_calls"] == 0.0
    assert usage["recovered_tool_calls"] == 0.0


def test_a_wrong_section_in_a_recovered_call_gets_the_usual_tool_error(tmp_path: Path) -> None:
    steps = [call_text("read_chart_section", {"section": "labs"}), SUBMIT]
    log = run(triage(solver="agent", variants="clean", recover_tool_calls=True), steps, tmp_path, limit=1)
    usage = log.samples[0].scores["agent_tool_scorer"].value
    assert usage["read_errors"] == 1.0 and usage["submitted"] == 1.0 and usage["recovered_tool_calls"] == 2.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"recover_tool_calls": True}, "applies only with solver=agent"),
        ({"solver": "agent", "recover_tool_calls": "yes"}, "accepted: True, False"),
    ],
)
def test_recover_tool_calls_is_validated(kwargs: dict, message: str) -> None:
    with pytest.raises(TaskParameterError, match=message):
        triage(**kwargs)


def test_prompt_mode_records_recovery_off() -> None:
    assert triage().metadata["recover_tool_calls"] is False
    assert condition_label({"prompt": "vanilla", "solver": "agent", "recover_tool_calls": True}) == (
        "vanilla+agent+recovered"
    )


# --- css_agent -----------------------------------------------------------------------------------


def test_css_agent_recovers_calls_in_both_runs(tmp_path: Path) -> None:
    steps = [
        call_text("read_chart_section", {"section": "procedures"}),
        call_text("submit", {"answer": "Recommendation: per chart. Rationale: read the procedures."}),
    ]
    grader = get_model("mockllm/grader", custom_outputs=Grader(), memoize=False)
    log = eval(
        css_agent(limit=1, recover_tool_calls=True),
        model=scripted_agent_model(fixed_script(steps)),
        model_roles={"grader": grader},
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success", log.error
    assert log.eval.metadata["css_agent"]["recover_tool_calls"] is True
    usage = log.samples[0].scores["agent_tool_scorer"].value
    for run_name in ("baseline", "mutated"):
        assert usage[f"submitted_{run_name}"] == 1.0
        assert usage[f"read_procedures_{run_name}"] == 1.0
        assert usage[f"recovered_tool_calls_{run_name}"] == 2.0
        assert usage[f"native_tool_calls_{run_name}"] == 0.0
    assert metric_means(log)["recovered_tool_calls_mutated"] == 2.0
    assert css_agent(limit=1).metadata["css_agent"]["recover_tool_calls"] is False


# --- escbench local run --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tasks", "extra", "added"),
    [
        (["escbench/css_agent"], [], True),
        (["escbench/triage"], ["-T", "solver=agent"], True),
        (["escbench/escalation"], ["--task-arg", "solver=agent", "--display", "plain"], True),
        (["escbench/triage"], ["-Tsolver=agent"], True),
        (["escbench/triage"], [], False),
        (["escbench/triage"], ["-T", "solver=prompt"], False),
        (["escbench/css"], ["--model-role", "grader=x"], False),
        (["escbench/triage"], ["-T", "solver=agent", "-T", "recover_tool_calls=false"], False),
        (["escbench/css_agent", "escbench/css"], [], False),
    ],
)
def test_local_run_adds_recovery_for_agent_tasks(tasks: list[str], extra: list[str], added: bool) -> None:
    args, note = tool_call_recovery_args(tasks, extra)
    assert (args == ["-T", "recover_tool_calls=true"]) == added
    if added:
        assert note is not None and "recover_tool_calls=true" in note
    else:
        assert args == []
