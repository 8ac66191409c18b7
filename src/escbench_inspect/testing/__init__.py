"""Scripted ``mockllm`` models for tests, demos and benchmarks (no network, no API keys).

This module: decision models for the escalation tasks; ``testing.agents``: tool-calling agent
scripts; ``testing.css``: a CSS recommender and grader. (The controller's scripted demo model is
``escbench_inspect.controller.demo``, next to the controller it demonstrates.)

Every scripted output carries a ``usage`` so mockllm never needs tiktoken's downloadable tokenizer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from inspect_ai.model import ChatMessage, Model, ModelOutput, ModelUsage, get_model

Policy = Callable[[list[ChatMessage]], str]


def usage_for(text: str, prompt_tokens: int = 100) -> ModelUsage:
    output_tokens = max(1, len(text) // 4)
    return ModelUsage(
        input_tokens=prompt_tokens,
        output_tokens=output_tokens,
        total_tokens=prompt_tokens + output_tokens,
    )


def output_with_usage(text: str, model: str = "mockllm/model") -> ModelOutput:
    output = ModelOutput.from_content(model=model, content=text)
    output.usage = usage_for(text)
    return output


def scripted_model(policy: Policy, name: str = "model", **model_args: Any) -> Model:
    """A mockllm model whose reply is ``policy(messages)``, chosen per input (not a shared iterator)."""

    def respond(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        return output_with_usage(policy(messages), model=f"mockllm/{name}")

    return get_model(f"mockllm/{name}", custom_outputs=respond, memoize=False, **model_args)


def decision_json(action: str, confidence: float | None = 0.9, reason: str = "scripted") -> str:
    """A decision object as a model would return it."""
    payload: dict[str, Any] = {"action": action, "reason": reason}
    if confidence is not None:
        payload["confidence"] = confidence
    return json.dumps(payload)


def last_user_text(messages: list[ChatMessage]) -> str:
    return next((m.text for m in reversed(messages) if m.role == "user"), "")


def log_metrics(log: Any) -> dict[str, float]:
    """``{"<score key>/<metric>": value}`` from an eval log's results.

    The escbench metrics are named ``escbench/<metric>`` in the log (editable and regular
    installs alike, see :mod:`escbench.metrics`); the namespace is dropped here for brevity.
    """
    return {
        f"{score.name}/{name.rsplit('/', 1)[-1]}": metric.value
        for score in log.results.scores
        for name, metric in score.metrics.items()
    }
