"""A fault-injecting model provider for the reliability suite: ``escfault/model``.

It is Inspect's ``mockllm`` with a per-sample script: the module-level :data:`PLAN` maps a
sample's input text (the last user message) to a :data:`Behaviour` that returns the output or
raises. Being a registered provider (not a ``custom_outputs`` callable, which a log cannot record),
``eval_retry`` can re-create it by name from the log — the test then "repairs" the provider by
changing :data:`PLAN` between the run and the retry.

Two provider-level choices, both documented Inspect extension points:

- ``should_retry`` retries :class:`TransientProviderError` (as real providers retry HTTP 429/5xx)
  and nothing else; a :class:`ProviderError` fails the sample.
- ``retry_wait`` waits zero seconds instead of Inspect's exponential backoff (3 s and up), so the
  suite stays fast; the retry decision itself is Inspect's.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    StopReason,
    modelapi,
)
from inspect_ai.model._providers.mockllm import MockLLM
from tenacity import wait_none

from escbench_inspect.testing import decision_json, last_user_text, usage_for

MODEL = "escfault/model"


class ProviderError(RuntimeError):
    """A permanent provider failure (not retried)."""


class TransientProviderError(RuntimeError):
    """A transient provider failure (retried by Inspect, like an HTTP 503)."""


# A behaviour gets the sample's input text and how many times this input was seen (1 = first).
Behaviour = Callable[[str, int], "ModelOutput | Awaitable[ModelOutput]"]

PLAN: dict[str, Behaviour] = {}
"""Exact input text -> behaviour."""
CONTAINS: list[tuple[str, Behaviour]] = []
"""(substring, behaviour): for inputs not in PLAN, the first whose substring the input contains."""
DEFAULTS: dict[str, Behaviour] = {}
"""Model name (``escfault/<name>``) -> behaviour for everything else (default: ``answer()``)."""
CALLS: Counter[str] = Counter()


def reset() -> None:
    PLAN.clear()
    CONTAINS.clear()
    DEFAULTS.clear()
    CALLS.clear()


def output(text: str, stop_reason: StopReason = "stop", error: str | None = None) -> ModelOutput:
    result = ModelOutput.from_content(model=MODEL, content=text, stop_reason=stop_reason, error=error)
    result.usage = usage_for(text)
    return result


def answer(action: str = "Answer", confidence: float = 0.8) -> Behaviour:
    return lambda text, call: output(decision_json(action, confidence, reason="own decision"))


def raises(message: str = "provider exploded") -> Behaviour:
    def behaviour(text: str, call: int) -> ModelOutput:
        raise ProviderError(message)

    return behaviour


def raises_first(then: Behaviour | None = None, times: int = 1) -> Behaviour:
    """Transient error on the first ``times`` calls, then ``then``."""

    def behaviour(text: str, call: int) -> ModelOutput | Awaitable[ModelOutput]:
        if call <= times:
            raise TransientProviderError("503 service unavailable")
        return (then or answer())(text, call)

    return behaviour


def fails_first_attempt(then: Behaviour | None = None) -> Behaviour:
    """A permanent error on the first call only (recovered by a sample-level retry)."""

    def behaviour(text: str, call: int) -> ModelOutput | Awaitable[ModelOutput]:
        if call == 1:
            raise ProviderError("connection reset by peer")
        return (then or answer())(text, call)

    return behaviour


def hangs(seconds: float = 30.0, calls: int | None = None, then: Behaviour | None = None) -> Behaviour:
    """Never answers within ``seconds`` (on the first ``calls`` calls, or always)."""

    async def behaviour(text: str, call: int) -> ModelOutput:
        if calls is None or call <= calls:
            await asyncio.sleep(seconds)
        result = (then or answer())(text, call)
        return await result if asyncio.iscoroutine(result) else result  # type: ignore[return-value]

    return behaviour


def says(text_out: str, stop_reason: StopReason = "stop", error: str | None = None) -> Behaviour:
    return lambda text, call: output(text_out, stop_reason, error)


def empty_choices() -> Behaviour:
    """A provider reply with no choices at all (some APIs do this on a filtered prompt)."""

    def behaviour(text: str, call: int) -> ModelOutput:
        result = ModelOutput(model=MODEL, choices=[])
        result.usage = usage_for("")
        return result

    return behaviour


def echo(then: str | None = None) -> Behaviour:
    """Repeat the input verbatim (and optionally append ``then``, e.g. the model's own object)."""
    return lambda text, call: output(text if then is None else f"{text}\n\n{then}")


class FaultyModel(MockLLM):
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(
            model_name,
            base_url,
            api_key,
            config or GenerateConfig(),
            custom_outputs=self._respond,
            **model_args,
        )

    async def _respond(
        self, messages: list[ChatMessage], tools: Any, tool_choice: Any, config: Any
    ) -> ModelOutput:
        text = last_user_text(messages)
        CALLS[text] += 1
        behaviour = PLAN.get(text) or next(
            (b for fragment, b in CONTAINS if fragment in text),
            DEFAULTS.get(self.model_name, answer()),
        )
        result = behaviour(text, CALLS[text])
        return await result if isinstance(result, Awaitable) else result

    def should_retry(self, ex: Exception) -> bool:
        return isinstance(ex, TransientProviderError)

    def retry_wait(self) -> Any:
        return wait_none()


@modelapi(name="escfault")
def escfault() -> type[ModelAPI]:
    return FaultyModel
