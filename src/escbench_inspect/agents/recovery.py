"""Opt-in recovery of tool calls that a weak model writes as bare JSON text (``recover_tool_calls``).

Some small local models (the 0.5B Qwen of ``escbench local``) always *mean* to call a tool, with
the right name and arguments, but write the call as a JSON object in the message text
(``{"name": "read_chart_section", "arguments": {"section": "procedures"}}``, possibly in a code
fence or in ``<tool_call>`` tags the provider did not parse) instead of a parsed tool call. With
``recover_tool_calls`` on, ``recovering_model`` generates as ``react`` would and then, for an
assistant message with **no** tool calls whose text holds **exactly one** JSON object of the form
``{"name": <a tool of this agent>, "arguments": {...}}`` (``"parameters"`` accepted for
``"arguments"``), attaches that call as a real ``ToolCall`` (id ``recovered_<turn>``). The text is
kept and a note appended; the message metadata records the recovery (``RECOVERED_KEY``). Every
generation's native and recovered calls are counted in the sample store per run instance
(``call_counts``; ``react`` drops the submit call from the messages, so the transcript alone
cannot count it). Anything else — several JSON objects, an unknown tool name, non-object
arguments, extra keys, invalid JSON — is left as is.

Off by default: with it off the agent is Inspect's ``react`` with the model unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from inspect_ai.agent import Agent, AgentState
from inspect_ai.model import ChatMessageAssistant, Model, get_model
from inspect_ai.tool import Tool, ToolCall, ToolDef
from inspect_ai.util import store

RECOVERED_KEY = "escbench_recovered_tool_call"
"""Assistant-message metadata key marking a tool call recovered from the message text."""
RECOVERED_ID_PREFIX = "recovered_"
RECOVERY_NOTE = (
    "[escbench: no tool call was parsed from this message; the {name} call written in its text was "
    "recovered as a tool call (recover_tool_calls=true)]"
)

_FENCE = re.compile(r"```[A-Za-z0-9_-]*")
_TOOL_CALL_TAG = re.compile(r"</?tool_call>", re.I)
_ARGUMENT_KEYS = ("arguments", "parameters")


def json_objects(text: str) -> list[Any]:
    """The top-level JSON objects in ``text``, in order (code fences and tool_call tags ignored)."""
    cleaned = _TOOL_CALL_TAG.sub(" ", _FENCE.sub(" ", text))
    decoder = json.JSONDecoder()
    found: list[Any] = []
    position = cleaned.find("{")
    while position != -1:
        try:
            value, end = decoder.raw_decode(cleaned, position)
        except json.JSONDecodeError:
            position = cleaned.find("{", position + 1)
            continue
        found.append(value)
        position = cleaned.find("{", end)
    return found


def parse_text_tool_call(text: str, names: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """``(name, arguments)`` if ``text`` holds exactly one JSON tool call to one of ``names``."""
    objects = json_objects(text)
    if len(objects) != 1 or not isinstance(objects[0], dict):
        return None
    call = objects[0]
    keys = set(call)
    argument_keys = [key for key in _ARGUMENT_KEYS if key in keys]
    if len(argument_keys) != 1 or keys != {"name", argument_keys[0]}:
        return None
    name, arguments = call["name"], call[argument_keys[0]]
    if not isinstance(name, str) or name not in names or not isinstance(arguments, dict):
        return None
    return name, arguments


def recover_tool_call(message: ChatMessageAssistant, names: Sequence[str], turn: int) -> ToolCall | None:
    """Attach the tool call written in ``message``'s text (in place); None if there is none.

    Messages that already carry tool calls are never touched.
    """
    if message.tool_calls:
        return None
    parsed = parse_text_tool_call(message.text, names)
    if parsed is None:
        return None
    name, arguments = parsed
    call = ToolCall(id=f"{RECOVERED_ID_PREFIX}{turn}", function=name, arguments=arguments)
    original = message.text
    message.tool_calls = [call]
    message.text = f"{original}\n\n{RECOVERY_NOTE.format(name=name)}"
    message.metadata = {
        **(message.metadata or {}),
        RECOVERED_KEY: {"turn": turn, "tool_call_id": call.id, "function": name, "original_text": original},
    }
    return call


def is_recovered(message: ChatMessageAssistant) -> bool:
    return bool(message.metadata and RECOVERED_KEY in message.metadata)


def tool_names(tools: Sequence[Tool]) -> list[str]:
    return [ToolDef(t).name for t in tools]


def _counts_key(instance: str) -> str:
    return f"escbench_tool_call_counts:{instance}"


def reset_call_counts(instance: str) -> None:
    store().set(_counts_key(instance), {"native": 0, "recovered": 0})


def call_counts(instance: str) -> dict[str, int]:
    """Tool calls of the run ``instance`` so far: parsed by the provider vs recovered from text."""
    return dict(store().get(_counts_key(instance)) or {"native": 0, "recovered": 0})


def recovering_model(model: str | Model | None = None, instance: str = "chart") -> Agent:
    """A model step for ``react(model=…)``: generate, then recover a bare-JSON tool call.

    Counts each generation's native and recovered tool calls under ``instance`` (``call_counts``).
    """

    async def execute(state: AgentState, tools: list[Tool]) -> AgentState:
        output = await get_model(model).generate(state.messages, tools)
        turn = sum(isinstance(m, ChatMessageAssistant) for m in state.messages)
        counts = call_counts(instance)
        if recover_tool_call(output.message, tool_names(tools), turn) is not None:
            counts["recovered"] += 1
        else:
            counts["native"] += len(output.message.tool_calls or [])
        store().set(_counts_key(instance), counts)
        state.output = output
        state.messages.append(output.message)
        return state

    return execute
