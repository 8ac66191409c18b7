"""Submit tools for the chart agents; each records in the store that its run submitted."""

from __future__ import annotations

import json
from typing import Literal

from inspect_ai.tool import Tool, tool
from inspect_ai.util import store

ActionName = Literal["Answer", "Ask_Clarification", "Abstain", "Escalate"]
"""The decision actions as a schema enum (kept equal to ``Action`` by a test)."""


def _submitted_key(instance: str) -> str:
    return f"escbench_submitted:{instance}"


def mark_submitted(instance: str) -> None:
    store().set(_submitted_key(instance), True)


def was_submitted(instance: str) -> bool:
    return bool(store().get(_submitted_key(instance)))


def reset_submitted(instance: str) -> None:
    store().set(_submitted_key(instance), False)


@tool(name="submit", max_output=0)
def submit_answer(instance: str = "chart") -> Tool:
    """Free-text submission (the completion is the answer string)."""

    async def execute(answer: str) -> str:
        """Submit your final answer; this ends the task.

        Args:
          answer: Your final answer.
        """
        mark_submitted(instance)
        return answer

    return execute


@tool(name="submit", max_output=0)
def submit_decision(instance: str = "chart") -> Tool:
    """Schema-typed decision submission; the completion is the decision as a JSON object."""

    async def execute(action: ActionName, confidence: float, reason: str) -> str:
        """Submit your final decision; this ends the task.

        Args:
          action: The one action you choose.
          confidence: Probability (0 to 1) that the action is correct.
          reason: One or two short sentences.
        """
        mark_submitted(instance)
        return json.dumps({"action": action, "confidence": confidence, "reason": reason})

    return execute
