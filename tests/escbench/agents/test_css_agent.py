"""``escbench/css_agent``: default selection, parameters, paired agent runs through the same tool."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.event import SpanBeginEvent, ToolEvent
from inspect_ai.model import ChatMessage, ChatMessageTool, get_model

from escbench.tasks import css_agent
from escbench_inspect.agents.css import retrieved_but_ignored
from escbench_inspect.css.dataset import chart_sections
from escbench_inspect.params import TaskParameterError
from escbench_inspect.testing.agents import Step, scripted_agent_model, step_index
from escbench_inspect.testing.css import Grader


def reads_procedures_then_quotes_it(messages: list[ChatMessage]) -> Step:
    """Read two sections, then recommend quoting the last line of the procedures section read."""
    turn = step_index(messages)
    if turn == 0:
        return ("read_chart_section", {"section": "Procedures"})
    if turn == 1:
        return ("read_chart_section", {"section": "tumor board question"})
    procedures = next(m.text for m in messages if isinstance(m, ChatMessageTool))
    return ("submit", {"answer": f"Recommendation: per chart. Rationale: {procedures.splitlines()[-1]}"})


def test_default_selection_is_100_family_d_tuples() -> None:
    task = css_agent()
    assert len(task.dataset) == 100
    assert {s.metadata["family"] for s in task.dataset} == {"D"}
    assert task.metadata["css_tuples"] == 100 and task.metadata["css_recommender"] == "react_agent"
    assert task.metadata["css_agent"]["max_section_bytes"] == 8192
    assert task.metadata["css_agent"]["max_turns"] == 15 and task.metadata["css_agent"]["max_reads"] == 20
    assert len(css_agent(families="A,D", limit=7).dataset) <= 7


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"limit": 0}, "parameter 'limit'; accepted: a positive integer"),
        ({"max_turns": 1}, "parameter 'max_turns'; accepted: an integer >= 2"),
        ({"max_section_bytes": "8k"}, "parameter 'max_section_bytes'; accepted: an integer"),
        ({"families": "Z"}, "parameter 'families'; accepted: A, B, C, D, E"),
        ({"limt": 5}, "'limt' \\(did you mean 'limit'"),
    ],
)
def test_bad_parameters_fail_clearly(kwargs: dict, message: str) -> None:
    with pytest.raises(TaskParameterError, match=message):
        css_agent(**kwargs)


def test_baseline_and_mutated_agents_read_their_own_chart(tmp_path: Path) -> None:
    grader = get_model("mockllm/grader", custom_outputs=Grader(), memoize=False)
    log = eval(
        css_agent(limit=2),
        model=scripted_agent_model(reads_procedures_then_quotes_it),
        model_roles={"grader": grader},
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success", log.error
    assert log.eval.task == "escbench/css_agent"
    for sample in log.samples:
        case, intervention, length = (
            sample.metadata[k] for k in ("case_id", "intervention_id", "chart_length")
        )
        original = chart_sections(case, None, length)["procedures"].splitlines()[-1]
        mutated = chart_sections(case, intervention, length)["procedures"].splitlines()[-1]
        assert original != mutated
        assert sample.store["css:baseline"].endswith(original)
        assert sample.store["css:mutated"].endswith(mutated)
        spans = [e for e in sample.events if isinstance(e, SpanBeginEvent)]
        names = {e.id: e.name for e in spans}
        # each agent run sits in the paired solver's "baseline" / "mutated" span
        assert [names.get(e.parent_id) for e in spans if e.name == "chart_agent"] == ["baseline", "mutated"]
        tool_events = [e for e in sample.events if isinstance(e, ToolEvent)]
        assert [e.function for e in tool_events].count("read_chart_section") == 4
        assert sample.scores["css_judge"].value["css"] == 1  # the judge is unchanged
        usage = sample.scores["agent_tool_scorer"]
        assert usage.value["read_procedures_mutated"] == usage.value["read_procedures_baseline"] == 1
        assert "procedures" in usage.metadata["changed_sections"]
    metrics = {s.name: s.metrics for s in log.results.scores}
    for run in ("baseline", "mutated"):
        assert metrics[f"tool_calls_{run}"]["mean"].value == 2.0
        assert metrics[f"read_procedures_{run}"]["mean"].value == 1.0
        assert metrics[f"read_labs_{run}"]["mean"].value == 0.0
        assert metrics[f"read_changed_{run}"]["mean"].value == 1.0
    assert metrics["css"]["mean"].value == 1.0
    assert retrieved_but_ignored(log) == {
        "scored": 2.0,
        "read_share": 1.0,
        "retrieved_but_ignored": 0.0,
        "ignored_given_read": 0.0,
    }
