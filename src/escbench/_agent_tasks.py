"""``escbench/css_agent``: CSS with ReAct agents reading the chart (builder in escbench_inspect)."""

from __future__ import annotations

from inspect_ai import Task, task

from escbench_inspect.agents.css import css_agent_task
from escbench_inspect.params import reject_unknown, task_parameters


@task
def css_agent(
    families: str | list[str] | None = "D",
    interventions: str | list[str] | None = None,
    limit: int | None = 100,
    chart_length: str = "short",
    allow_self_judge: bool = False,
    max_turns: int = 15,
    max_reads: int = 20,
    max_section_bytes: int = 8192,
    recover_tool_calls: bool = False,
    **unknown: object,
) -> Task:
    """Paired CSS tuples answered by ReAct agents that read the chart via ``read_chart_section``.

    Args:
        families: subset of A-E (default D, surgery status, as in the paper's agent setting).
        interventions: catalog ids or short forms like ``D1`` (default all in the families).
        limit: at most this many tuples, whole cases in corpus order (default 100; null: all).
        chart_length: short | medium | long | xlong (the 8 KB cap bites from ``long`` on).
        allow_self_judge: let the grader be the evaluated model (recorded in the log).
        max_turns: model generations per agent run (then the run stops unsubmitted).
        max_reads: chart reads per agent run (later calls get a tool error).
        max_section_bytes: per-call cap on a section's text (0: no cap).
        recover_tool_calls: turn a tool call the model wrote as bare JSON text into a real one
            (off by default; for weak local models; not comparable to native tool use).
    """
    reject_unknown("css_agent", unknown, task_parameters(css_agent))
    return css_agent_task(
        families=families,
        interventions=interventions,
        limit=limit,
        chart_length=chart_length,
        allow_self_judge=allow_self_judge,
        max_turns=max_turns,
        max_reads=max_reads,
        max_section_bytes=max_section_bytes,
        recover_tool_calls=recover_tool_calls,
    )
