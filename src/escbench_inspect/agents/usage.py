"""Agent metrics from the transcript: chart reads per run and which sections each run queried.

``tool_usage`` reads one run's messages (the tool calls and their returns, as Inspect View shows
them); solvers record it per run in the store (``record_usage``) and ``agent_tool_scorer`` turns
it into a dict score: ``tool_calls_<run>`` (chart-tool calls), ``read_errors_<run>``,
``submitted_<run>``, ``read_<section>_<run>`` (1 if the run read that section successfully; its
mean is the share of runs that queried it) and, for paired runs only, ``read_changed_<run>`` (1 if
the run read a section whose text differs between the two charts). With ``recover_tool_calls``
on, ``native_tool_calls_<run>`` and ``recovered_tool_calls_<run>`` (calls of any tool, ``submit``
included, parsed by the provider vs recovered from the message text by ``agents.recovery``) are
added. Keys drop the ``_<run>`` suffix for the single-run escalation agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageTool
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import store

from escbench_inspect.agents.chart import TOOL_NAME, resolve_section

_USAGE_KEY = "escbench_agent_usage"
CHANGED_KEY = "escbench_changed_sections"


@dataclass(frozen=True)
class ToolUsage:
    """One agent run's use of the chart tool, as read from its messages."""

    tool_calls: int = 0
    read_errors: int = 0
    sections_read: tuple[str, ...] = ()  # distinct sections read without error, in order
    calls: tuple[dict, ...] = field(default_factory=tuple)  # {"section": requested, "error": bool}
    submitted: bool = False
    # with recover_tool_calls only (else None): calls of any tool, submit included, parsed by the
    # provider vs recovered from the message text (counted by agents.recovery.recovering_model)
    native_tool_calls: int | None = None
    recovered_tool_calls: int | None = None


def tool_usage(
    messages: Sequence[ChatMessage],
    vocabulary: Sequence[str],
    submitted: bool = False,
    call_counts: dict[str, int] | None = None,
) -> ToolUsage:
    """Chart-tool calls in ``messages`` and the sections they returned.

    ``call_counts`` (``agents.recovery.call_counts``, with ``recover_tool_calls`` on) fills the
    native/recovered counts.
    """
    errors_by_id = {
        m.tool_call_id: m.error is not None
        for m in messages
        if isinstance(m, ChatMessageTool) and m.function == TOOL_NAME
    }
    calls: list[dict] = []
    read: list[str] = []
    for message in messages:
        if not isinstance(message, ChatMessageAssistant):
            continue
        for call in message.tool_calls or []:
            if call.function != TOOL_NAME:
                continue
            requested = call.arguments.get("section")
            failed = errors_by_id.get(call.id, True)
            calls.append({"section": requested, "error": failed})
            section = resolve_section(requested, vocabulary)
            if not failed and section is not None and section not in read:
                read.append(section)
    return ToolUsage(
        tool_calls=len(calls),
        read_errors=sum(c["error"] for c in calls),
        sections_read=tuple(read),
        calls=tuple(calls),
        submitted=submitted,
        native_tool_calls=None if call_counts is None else call_counts["native"],
        recovered_tool_calls=None if call_counts is None else call_counts["recovered"],
    )


def record_usage(run: str, usage: ToolUsage) -> None:
    """Keep a run's usage in the sample store (read by ``agent_tool_scorer``)."""
    runs = dict(store().get(_USAGE_KEY) or {})
    runs[run] = asdict(usage)
    store().set(_USAGE_KEY, runs)


CSS_RECOMMEND_METADATA = "css:recommend_metadata"
"""Store key where the CSS paired solver keeps each run's ``Recommendation.metadata``."""


def recorded_usage() -> dict[str, dict]:
    """Usage per run: recorded by the escalation agent, or carried in the CSS recommend metadata
    (a shared baseline ran in another sample; its usage travels with the recommendation)."""
    runs = dict(store().get(_USAGE_KEY) or {})
    for run, metadata in (store().get(CSS_RECOMMEND_METADATA) or {}).items():
        if isinstance(metadata, dict) and "tool_usage" in metadata:
            runs.setdefault(run, metadata["tool_usage"])
    return runs


def usage_values(
    runs: dict[str, dict],
    vocabulary: Sequence[str],
    changed_sections: Sequence[str] = (),
    suffix_runs: bool = True,
    recovery: bool = False,
) -> dict[str, float]:
    """The score dict for the recorded runs (see the module docstring for the keys)."""
    values: dict[str, float] = {}
    for run, usage in runs.items():
        tail = f"_{run}" if suffix_runs else ""
        read = set(usage["sections_read"])
        values[f"tool_calls{tail}"] = float(usage["tool_calls"])
        values[f"read_errors{tail}"] = float(usage["read_errors"])
        values[f"submitted{tail}"] = float(usage["submitted"])
        for section in vocabulary:
            values[f"read_{section}{tail}"] = float(section in read)
        if changed_sections:
            values[f"read_changed{tail}"] = float(bool(read & set(changed_sections)))
        if recovery:
            values[f"native_tool_calls{tail}"] = float(usage.get("native_tool_calls") or 0)
            values[f"recovered_tool_calls{tail}"] = float(usage.get("recovered_tool_calls") or 0)
    return values


@scorer(metrics={"*": [mean()]})
def agent_tool_scorer(
    runs: Sequence[str], vocabulary: Sequence[str], suffix_runs: bool = True, recovery: bool = False
) -> Scorer:
    """Tool-use measurements of the agent runs (means: calls per run, share reading each section).

    ``recovery`` (the task's ``recover_tool_calls``) adds the native/recovered call counts.

    Reads the usage the agent solver recorded in the store; changed sections come from the store
    key the setup solver wrote (``changed_sections``), when there is a pair of charts. A single
    run cut short before recording (e.g. by an Inspect sample limit) is read from the sample's
    messages, as unsubmitted.
    """

    async def score(state: TaskState, target: Target) -> Score:
        recorded = recorded_usage()
        missing = [run for run in runs if run not in recorded]
        if missing and len(runs) == 1:
            recorded[runs[0]] = asdict(tool_usage(state.messages, vocabulary))
        elif missing:
            raise RuntimeError(f"no recorded agent usage for runs {missing}")
        chosen = {run: recorded[run] for run in runs}
        changed = tuple(store().get(CHANGED_KEY) or ())
        values = usage_values(chosen, vocabulary, changed, suffix_runs, recovery)
        summary = ", ".join(
            f"{run}: {u['tool_calls']} calls, read {list(u['sections_read'])}"
            + (f", {u.get('recovered_tool_calls') or 0} call(s) recovered from text" if recovery else "")
            for run, u in chosen.items()
        )
        return Score(
            value=values,
            explanation=summary,
            metadata={"agent_runs": chosen, "changed_sections": list(changed)},
        )

    return score


def record_changed_sections(baseline: dict[str, str], mutated: dict[str, str]) -> list[str]:
    """Store (and return) the sections whose text differs between two charts of one sample."""
    changed = [name for name in baseline if baseline[name] != mutated.get(name)]
    store().set(CHANGED_KEY, changed)
    return changed
