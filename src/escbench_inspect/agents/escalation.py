"""Agent mode of the escalation tasks (``-T solver=agent``).

The conversation carries the setting, the new information, the request and any message received
after the request (same headers as the prompt setting). The earlier record and the auto-generated
chart summary sit in a two-section chart that the agent reads with ``read_chart_section``. The
section list is the same for every variant: where a variant has no summary, the section says so,
so neither the tool description nor the prompt reveals the variant. The decision is submitted
through a schema-typed ``submit(action, confidence, reason)`` tool (``structured=True``) or as
a JSON string through ``submit(answer)``; either way the completion is the usual JSON decision,
scored by the unchanged ``escalation_scorer``.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.agent import AgentState, AgentSubmit
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from escbench_inspect.agents.chart import ChartVocabulary, chart_setup
from escbench_inspect.agents.loop import AgentLimits, chart_agent
from escbench_inspect.agents.recovery import call_counts, reset_call_counts
from escbench_inspect.agents.submit import (
    reset_submitted,
    submit_answer,
    submit_decision,
    was_submitted,
)
from escbench_inspect.agents.usage import agent_tool_scorer, record_usage, tool_usage
from escbench_inspect.datasets.assembly import default_action_space
from escbench_inspect.datasets.escalation import episode_metadata, escalation_dataset
from escbench_inspect.datasets.render import render_blocks
from escbench_inspect.datasets.schema import (
    Action,
    BlockKind,
    Episode,
    SeedScenario,
    TaskClass,
    Variant,
)
from escbench_inspect.solvers.prompts import (
    OUTPUT_INSTRUCTIONS,
    ROLE_BY_CLASS,
    UNCERTAINTY_CHECKLIST,
    PromptCondition,
)

CHART_METADATA_KEY = "chart_sections"
RUN_NAME = "agent"

ESCALATION_CHART = ChartVocabulary(
    {
        "earlier_record": "The patient's earlier record (before today's new information).",
        "chart_summary": "The auto-generated chart summary.",
    }
)
CONVERSATION_BLOCKS: tuple[BlockKind, ...] = (
    BlockKind.SETTING,
    BlockKind.NEW_INFORMATION,
    BlockKind.REQUEST,
    BlockKind.LATE_MESSAGE,
)


def episode_chart(episode: Episode) -> dict[str, str]:
    """The two chart sections of an episode (fixed names; every episode has both)."""
    record, summary = episode.block(BlockKind.EARLIER_RECORD), episode.block(BlockKind.SUMMARY)
    if record is None or summary is None:
        raise ValueError(f"episode {episode.episode_id} lacks its earlier record or chart summary")
    return {"earlier_record": record, "chart_summary": summary}


def agent_episode_sample(episode: Episode) -> Sample:
    """The episode for agent mode: conversation blocks as input, the chart in metadata."""
    return Sample(
        id=episode.episode_id,
        input=render_blocks(episode, kinds=CONVERSATION_BLOCKS),
        target=[a.value for a in episode.acceptable_actions],
        metadata={**episode_metadata(episode), CHART_METADATA_KEY: episode_chart(episode)},
    )


def agent_escalation_dataset(
    split: str = "test",
    classes: Sequence[TaskClass] = tuple(TaskClass),
    variants: Sequence[Variant] = tuple(Variant),
    seeds: Sequence[SeedScenario] | None = None,
) -> MemoryDataset:
    """The escalation episodes as agent-mode samples (same ids, targets and metadata contract)."""
    return escalation_dataset(
        split, classes, variants, seeds, to_sample=agent_episode_sample, name="escbench-escalation-agent"
    )


def agent_system_prompt(task_class: TaskClass, condition: PromptCondition, structured: bool = True) -> str:
    """The prompt condition's system prompt, adapted to a chart the agent must read itself."""
    options = default_action_space()[task_class]
    actions = "\n".join(f"- {option.action.value}: {option.definition}" for option in options)
    parts = [
        f"You are {ROLE_BY_CLASS[task_class]}, working inside a clinical workflow. The "
        "conversation holds an episode made of labelled blocks; the patient's chart is not in the "
        "conversation. "
        "You must choose exactly one action.",
        "Read the chart with the read_chart_section tool, one section per call. Sections:\n"
        + ESCALATION_CHART.listing(),
        f"Actions:\n{actions}",
    ]
    if condition == "uncertainty":
        parts.append(UNCERTAINTY_CHECKLIST)
    if structured:
        parts.append(
            "Give your decision by calling submit with action (one of: "
            + ", ".join(a.value for a in Action)
            + "), confidence (a number between 0 and 1) and reason (one or two short sentences)."
        )
    else:
        parts.append(
            "Give your decision by calling submit with answer set to the decision object. "
            + OUTPUT_INSTRUCTIONS.replace("Respond with", "The answer must be")
        )
    return "\n\n".join(parts)


@solver
def escalation_agent(
    prompt: PromptCondition = "vanilla",
    structured: bool = True,
    limits: AgentLimits | None = None,
    recover_tool_calls: bool = False,
) -> Solver:
    """Load the sample's chart into the store, run the ReAct agent, record its tool use.

    ``recover_tool_calls``: see ``agents.recovery`` (off by default).
    """

    setup = chart_setup(ESCALATION_CHART, RUN_NAME, CHART_METADATA_KEY)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task_class = TaskClass(state.metadata["task_class"])
        state = await setup(state, generate)
        reset_submitted(RUN_NAME)
        reset_call_counts(RUN_NAME)
        submit_tool = submit_decision(RUN_NAME) if structured else submit_answer(RUN_NAME)
        agent = chart_agent(
            agent_system_prompt(task_class, prompt, structured),
            ESCALATION_CHART,
            instance=RUN_NAME,
            limits=limits or AgentLimits(),
            submit=AgentSubmit(tool=submit_tool, answer_only=True),
            recover_tool_calls=recover_tool_calls,
        )
        agent_state = AgentState(messages=state.messages)
        try:
            async with span(name=RUN_NAME, type="agent"):
                agent_state = await agent(agent_state)
        finally:  # also when an Inspect sample limit ends the run: keep its transcript
            state.messages = agent_state.messages
            state.output = agent_state.output
            submitted = was_submitted(RUN_NAME)
            if not submitted:
                # an unsubmitted run has no answer: never score its last thoughts as a decision
                state.output.completion = ""
            counts = call_counts(RUN_NAME) if recover_tool_calls else None
            usage = tool_usage(agent_state.messages, ESCALATION_CHART.names, submitted, counts)
            record_usage(RUN_NAME, usage)
        return state

    return solve


def agent_escalation_task_parts(
    split: str,
    classes: Sequence[TaskClass],
    variants: Sequence[Variant],
    seeds: Sequence[SeedScenario] | None,
    prompt: PromptCondition = "vanilla",
    structured: bool = True,
    limits: AgentLimits | None = None,
    recover_tool_calls: bool = False,
) -> tuple[MemoryDataset, Solver, list[Scorer]]:
    """Dataset, solver and extra (tool-use) scorers of ``escalation_task(solver="agent")``."""
    dataset = agent_escalation_dataset(split, classes, variants, seeds)
    agent = escalation_agent(
        prompt=prompt,
        structured=structured,
        limits=limits or AgentLimits(),
        recover_tool_calls=recover_tool_calls,
    )
    tool_scorer = agent_tool_scorer(
        runs=(RUN_NAME,),
        vocabulary=ESCALATION_CHART.names,
        suffix_runs=False,
        recovery=recover_tool_calls,
    )
    return dataset, agent, [tool_scorer]
