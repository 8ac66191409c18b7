"""ReAct agents over the chart tool, with bounded turns (Inspect's ``react``)."""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.agent import Agent, AgentPrompt, AgentState, AgentSubmit, react
from inspect_ai.model import ChatMessageAssistant, Model
from inspect_ai.tool import Tool

from escbench_inspect.agents.chart import (
    DEFAULT_MAX_READS,
    DEFAULT_MAX_SECTION_BYTES,
    ChartVocabulary,
    chart_tool,
)
from escbench_inspect.agents.recovery import recovering_model

DEFAULT_MAX_TURNS = 15
"""Model generations per agent run; the run stops (unsubmitted) after this many."""

CONTINUE_PROMPT = (
    "Continue: read any chart sections you still need with read_chart_section, then give your "
    "final answer with the {submit} tool."
)
LAST_TURN_PROMPT = "This is your last turn: give your final answer now with the {submit} tool."

ASSISTANT_PROMPT = (
    "You work in turns. In each turn, think briefly, then call a tool. The chart is not in the "
    "conversation: read the sections you need with read_chart_section (one section per call). "
    "When you are ready, call the {submit} tool with your final answer; it ends the task."
)


@dataclass(frozen=True)
class AgentLimits:
    """Bounds of one agent run (documented in docs/agents.md)."""

    max_turns: int = DEFAULT_MAX_TURNS
    max_reads: int = DEFAULT_MAX_READS
    max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES

    def __post_init__(self) -> None:
        if self.max_turns < 2 or self.max_reads < 1 or self.max_section_bytes < 0:
            raise ValueError(f"invalid agent limits: {self}")


def turns_taken(state: AgentState) -> int:
    return sum(isinstance(m, ChatMessageAssistant) for m in state.messages)


def turn_limit(max_turns: int, submit_name: str = "submit"):
    """``on_continue`` hook: stop after ``max_turns`` generations, warn before the last one."""

    async def on_continue(state: AgentState) -> bool | str:
        turns = turns_taken(state)
        if turns >= max_turns:
            return False
        if turns == max_turns - 1:
            return LAST_TURN_PROMPT.replace("{submit}", submit_name)
        if not state.output.message.tool_calls:
            return CONTINUE_PROMPT.replace("{submit}", submit_name)
        return True

    return on_continue


def chart_agent(
    instructions: str,
    vocabulary: ChartVocabulary,
    instance: str = "chart",
    limits: AgentLimits | None = None,
    submit: AgentSubmit | None = None,
    extra_tools: list[Tool] | None = None,
    model: Model | None = None,
    recover_tool_calls: bool = False,
) -> Agent:
    """A ``react`` agent whose only source of chart facts is ``read_chart_section``.

    ``submit`` defaults to Inspect's ``submit(answer)`` with ``answer_only=True`` (the completion
    is exactly the submitted answer); ``model`` defaults to the evaluated model.
    ``recover_tool_calls`` (off by default) turns a tool call the model wrote as bare JSON text into
    a real tool call (``agents.recovery``); off, ``react`` gets the model unchanged.
    """
    submit = submit or AgentSubmit(answer_only=True)
    limits = limits or AgentLimits()
    tools = [chart_tool(vocabulary, instance, limits.max_section_bytes, limits.max_reads)]
    return react(
        prompt=AgentPrompt(
            instructions=instructions,
            assistant_prompt=ASSISTANT_PROMPT.replace("{submit}", submit.name or "submit"),
            submit_prompt=None,
        ),
        tools=[*tools, *(extra_tools or [])],
        submit=submit,
        on_continue=turn_limit(limits.max_turns, submit.name or "submit"),
        model=recovering_model(model, instance) if recover_tool_calls else model,
    )
