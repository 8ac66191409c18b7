"""Scripted mockllm agents: tool calls chosen from the conversation so far (tests and demos).

A *script* maps a run's conversation to its next step: ``("read_chart_section", {"section": …})``,
``("submit", {…})`` or plain text. Steps are chosen from the input (never a shared iterator), so
concurrent samples and the two runs of a CSS pair each follow the script from its start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, Model, ModelOutput, get_model

from escbench_inspect.testing import usage_for

Step = tuple[str, dict[str, Any]] | str
Script = Callable[[list[ChatMessage]], Step]


def step_index(messages: Sequence[ChatMessage]) -> int:
    """How many turns the agent has taken in this conversation."""
    return sum(isinstance(m, ChatMessageAssistant) for m in messages)


def fixed_script(steps: Sequence[Step]) -> Script:
    """The same steps for every run; the last step repeats if the run goes on."""

    def script(messages: list[ChatMessage]) -> Step:
        return steps[min(step_index(messages), len(steps) - 1)]

    return script


def step_output(step: Step, model: str, turn: int) -> ModelOutput:
    if isinstance(step, str):
        output = ModelOutput.from_content(model=model, content=step)
    else:
        name, arguments = step
        output = ModelOutput.for_tool_call(
            model,
            name,
            arguments,
            tool_call_id=f"call_{turn}_{name}",
            content=f"Step {turn + 1}: {name}.",
        )
    output.usage = usage_for(str(step))
    return output


def scripted_agent_model(script: Script, name: str = "agent") -> Model:
    """A mockllm model that plays ``script`` (every output carries a usage: no tokenizer needed)."""

    def respond(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        return step_output(script(messages), f"mockllm/{name}", step_index(messages))

    return get_model(f"mockllm/{name}", custom_outputs=respond, memoize=False)
