"""Scripted CSS models: a recommender and a grader for mockllm (every output carries a ModelUsage)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable

from inspect_ai.model import ModelOutput, ModelUsage

USAGE = ModelUsage(input_tokens=20, output_tokens=10, total_tokens=30)


def output(model: str, text: str) -> ModelOutput:
    out = ModelOutput.from_content(model, text)
    out.usage = USAGE
    return out


class Recommender:
    """Scripted evaluated model: counts calls, answers depend on the chart (baseline vs mutated)."""

    def __init__(self, model: str = "mockllm/model"):
        self.model = model
        self.calls = 0
        self.charts: Counter[str] = Counter()

    def __call__(self, input, tools, tool_choice, config) -> ModelOutput:  # noqa: A002
        self.calls += 1
        text = input[-1].text
        self.charts[text] += 1
        return output(self.model, "Recommendation: proceed as per guideline. Rationale: chart.")


def cms_reply(prompt: str) -> str:
    ids = re.findall(r"^([a-z0-9_]+) \| ", prompt, re.MULTILINE)
    return json.dumps(
        {"items": [{"id": i, "covered": k == 0} for k, i in enumerate(ids)], "rationale": "first item only"}
    )


class Grader:
    """Scripted grader; ``css_reply`` maps the judge prompt to the raw reply text."""

    def __init__(self, css_reply: Callable[[str], str] | None = None, model: str = "mockllm/grader"):
        self.model = model
        self.css_calls = 0
        self.cms_calls = 0
        self.css_reply = css_reply or (lambda prompt: '{"score": 1, "rationale": "updated"}')

    def __call__(self, input, tools, tool_choice, config) -> ModelOutput:  # noqa: A002
        prompt = input[-1].text
        if "Consensus items" in prompt:
            self.cms_calls += 1
            return output(self.model, cms_reply(prompt))
        self.css_calls += 1
        reply = self.css_reply(prompt)
        if reply == "RAISE":
            raise RuntimeError("grader API unavailable")
        return output(self.model, reply)
