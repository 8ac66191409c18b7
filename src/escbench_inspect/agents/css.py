"""``escbench/css_agent``: the paired CSS protocol with a ReAct agent reading the chart by section.

The CSS task's pluggable recommendation step (``RecommendFn``) is replaced by a ``react`` agent
whose only view of the chart is ``read_chart_section`` over the ten sections: the baseline run reads
the original chart, the mutated run the mutated chart, through the same tool (one store instance
per run). Dataset, baseline sharing, the judge and its metrics are those of ``escbench/css``; a
second scorer adds the agents' tool use (``agent_tool_scorer``). As in the paper's agent setting,
the section names are listed up front (system prompt and tool description); there is no
list-sections tool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Literal

from inspect_ai import Task, task_with
from inspect_ai.agent import AgentSubmit, run
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageUser

from escbench_inspect.agents.chart import ChartVocabulary, put_chart
from escbench_inspect.agents.loop import AgentLimits, chart_agent
from escbench_inspect.agents.recovery import call_counts, reset_call_counts
from escbench_inspect.agents.submit import reset_submitted, submit_answer, was_submitted
from escbench_inspect.agents.usage import agent_tool_scorer, record_changed_sections, tool_usage
from escbench_inspect.css import SECTION_NAMES, SECTION_TITLES
from escbench_inspect.css.dataset import chart_sections, plan_tuples, validate_params
from escbench_inspect.css.prompts import RECOMMENDER_SYSTEM, RECOMMENDER_USER
from escbench_inspect.css.solver import ChartRequest, Recommendation, RecommendFn
from escbench_inspect.css.task import css_task
from escbench_inspect.params import TaskParameterError, boolean, require_model_role

CSS_CHART = ChartVocabulary({name: SECTION_TITLES[name] for name in SECTION_NAMES})
RUNS: tuple[str, ...] = ("baseline", "mutated")
RECOMMENDER = "react_agent"
AGENT_SPAN = "chart_agent"
DEFAULT_FAMILIES = "D"
DEFAULT_LIMIT = 100

AGENT_SYSTEM = (
    f"{RECOMMENDER_SYSTEM}\n\nThe patient's chart is not in the conversation. Read it with the "
    "read_chart_section tool, one section per call. The ten sections are:\n"
    f"{CSS_CHART.listing()}"
)
_ANSWER_PART = RECOMMENDER_USER.partition("{chart}")[2].strip()
AGENT_USER = (
    "The patient's chart is available in ten sections through read_chart_section.\n\n"
    f"{_ANSWER_PART}\n\nSubmit this answer with the submit tool."
)


def run_name(request: ChartRequest) -> str:
    return "baseline" if request.intervention_id is None else "mutated"


def agent_recommend(limits: AgentLimits | None = None, recover_tool_calls: bool = False) -> RecommendFn:
    """A ``RecommendFn`` that runs the chart agent on the request's chart."""
    limits = limits or AgentLimits()

    async def recommend(request: ChartRequest) -> Recommendation:
        name = run_name(request)
        instance = f"css_{name}"
        put_chart(request.sections, CSS_CHART, instance)
        reset_submitted(instance)
        reset_call_counts(instance)
        if request.intervention_id is not None:
            baseline = chart_sections(request.case_id, None, request.chart_length)
            record_changed_sections(baseline, dict(request.sections))
        agent = chart_agent(
            AGENT_SYSTEM,
            CSS_CHART,
            instance=instance,
            limits=limits,
            submit=AgentSubmit(tool=submit_answer(instance), answer_only=True),
            model=request.model,
            recover_tool_calls=recover_tool_calls,
        )
        # the paired solver wraps each run in a span named "baseline"/"mutated"; the agent's own
        # span inside it is named after the agent
        state = await run(agent, [ChatMessageUser(content=AGENT_USER)], name=AGENT_SPAN)
        submitted = was_submitted(instance)
        counts = call_counts(instance) if recover_tool_calls else None
        usage = tool_usage(state.messages, CSS_CHART.names, submitted, counts)
        # an unsubmitted run (turn limit) has no recommendation: the judge sees an empty one
        text = state.output.completion if submitted else ""
        return Recommendation(
            text=text,
            messages=state.messages,
            output=state.output,
            metadata={"tool_usage": asdict(usage)},
        )

    return recommend


def tuple_limited_cases(
    families: str | Sequence[str] | None,
    interventions: str | Sequence[str] | None,
    limit: int | None,
) -> list[str] | None:
    """Whole cases, in corpus order, whose tuples number at most ``limit`` (None: all cases).

    Cutting by case keeps each case's tuples (which share one baseline) together and lets
    ``escbench/css`` compute the dataset and its provenance itself; one tuple per case (Family D)
    gives exactly ``limit`` tuples.
    """
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise TaskParameterError("limit", limit, "a positive integer or null")
    plans, _ = plan_tuples(validate_params(families, interventions))
    per_case: dict[str, int] = {}
    for plan in plans:
        per_case[plan.case_id] = per_case.get(plan.case_id, 0) + 1
    chosen: list[str] = []
    total = 0
    for case_id, count in per_case.items():
        if total + count > limit:
            break
        chosen.append(case_id)
        total += count
    if not chosen:
        raise TaskParameterError("limit", limit, "at least the first case's tuple count")
    return chosen


def _positive_int(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise TaskParameterError(name, value, f"an integer >= {minimum}")
    return value


def css_agent_task(
    *,
    families: str | Sequence[str] | None = DEFAULT_FAMILIES,
    interventions: str | Sequence[str] | None = None,
    limit: int | None = DEFAULT_LIMIT,
    chart_length: Literal["short", "medium", "long", "xlong"] = "short",
    allow_self_judge: bool = False,
    max_turns: int = AgentLimits.max_turns,
    max_reads: int = AgentLimits.max_reads,
    max_section_bytes: int = AgentLimits.max_section_bytes,
    recover_tool_calls: bool = False,
) -> Task:
    """``escbench/css`` answered by ReAct agents that read the chart via ``read_chart_section``.

    The single definition of the ``escbench/css_agent`` parameters.

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
    require_model_role("grader", "escbench/css_agent")
    limits = AgentLimits(
        max_turns=_positive_int("max_turns", max_turns, 2),
        max_reads=_positive_int("max_reads", max_reads, 1),
        max_section_bytes=_positive_int("max_section_bytes", max_section_bytes, 0),
    )
    recover_tool_calls = boolean("recover_tool_calls", recover_tool_calls)
    cases = tuple_limited_cases(families, interventions, limit)
    base = css_task(
        families=families,
        interventions=interventions,
        cases=cases,
        chart_length=chart_length,
        allow_self_judge=allow_self_judge,
        recommend=agent_recommend(limits, recover_tool_calls),
        recommender=RECOMMENDER,
    )
    tool_scorer = agent_tool_scorer(runs=RUNS, vocabulary=CSS_CHART.names, recovery=recover_tool_calls)
    scorers = [*base.scorer, tool_scorer]
    return task_with(
        base,
        scorer=scorers,
        metadata={
            **(base.metadata or {}),
            "css_agent": {
                "limit": limit,
                **asdict(limits),
                "sections": list(CSS_CHART.names),
                "recover_tool_calls": recover_tool_calls,
            },
        },
    )


def retrieved_but_ignored(log: EvalLog, section: str = "procedures") -> dict[str, float]:
    """Among scored samples: the share whose mutated run read ``section`` and still scored CSS 0.

    The paper's "retrieved the right information and still ignored it", from a css_agent log.
    """
    read = ignored = scored = 0
    for sample in log.samples or []:
        css_score = sample.scores.get("css_judge") if sample.scores else None
        usage = sample.scores.get("agent_tool_scorer") if sample.scores else None
        if css_score is None or usage is None:
            continue
        css = css_score.value.get("css") if isinstance(css_score.value, dict) else None
        if not isinstance(css, (int, float)) or css != css:  # judge failure: NaN
            continue
        scored += 1
        if usage.value.get(f"read_{section}_mutated") == 1:
            read += 1
            ignored += css == 0
    return {
        "scored": float(scored),
        "read_share": read / scored if scored else float("nan"),
        "retrieved_but_ignored": ignored / scored if scored else float("nan"),
        "ignored_given_read": ignored / read if read else float("nan"),
    }
