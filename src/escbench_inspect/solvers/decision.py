"""Solver: one schema-enforced decision ``{action, confidence, reason}`` per episode."""

from __future__ import annotations

from inspect_ai.model import ChatMessageSystem, GenerateConfig, ResponseSchema
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import JSONSchema, json_schema
from pydantic import BaseModel, Field

from escbench_inspect.datasets.assembly import default_action_space
from escbench_inspect.datasets.schema import Action, TaskClass
from escbench_inspect.solvers.prompts import PromptCondition, system_prompt

# Short reasons keep small local models from running away; Inspect strips maxLength from schemas.
DECISION_MAX_TOKENS = 400


class DecisionSchema(BaseModel):
    """The JSON object every agent must return."""

    action: Action
    confidence: float = Field(description="Probability (0 to 1) that the action is correct.")
    reason: str = Field(description="One or two short sentences.")


def decision_schema() -> JSONSchema:
    return json_schema(DecisionSchema)


def decision_config(structured: bool) -> GenerateConfig:
    """Generate config: structured output when the provider supports it."""
    schema = (
        ResponseSchema(name="escalation_decision", json_schema=decision_schema(), strict=True)
        if structured
        else None
    )
    return GenerateConfig(response_schema=schema, max_tokens=DECISION_MAX_TOKENS)


@solver
def decision_solver(prompt: PromptCondition = "vanilla", structured: bool = True) -> Solver:
    """Insert the class-specific system prompt and generate one decision."""
    config = decision_config(structured)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task_class = TaskClass(state.metadata["task_class"])
        text = system_prompt(task_class, default_action_space()[task_class], prompt)
        state.messages.insert(0, ChatMessageSystem(content=text))
        return await generate(state, response_schema=config.response_schema, max_tokens=config.max_tokens)

    return solve
