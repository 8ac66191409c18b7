"""A scripted, answer-biased mockllm model and a log of it, for controller demos and benchmarks.

The policy mimics the failure pattern of small models in the seed paper: it mostly answers with
high confidence, escalates some late messages that mention a symptom, asks now and then, and
occasionally omits its confidence or returns an invalid object. Choices are a deterministic hash
of the sample input, so the log is reproducible and needs no network.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import regex
from inspect_ai.model import ChatMessage

from escbench_inspect.testing import decision_json, last_user_text, scripted_model

LATE_HEADER = "=== MESSAGE RECEIVED AFTER THE REQUEST ==="
# Every episode has a late message; this crude symptom spotter stands in for a small model's
# risk recognition (it also fires on harmless symptoms, as such a model would).
SYMPTOM_WORDS = regex.compile(
    r"\b(?:chest|breath\w*|faint\w*|bleed\w*|blood\w*|swell\w*|rash|spots|racing|confus\w*|"
    r"numb\w*|weak\w*|vomit\w*|fever|pain\w*|dizz\w*|suicid\w*)\b",
    regex.I,
)


def _unit(text: str, salt: str) -> float:
    digest = hashlib.sha256((salt + text).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def answer_biased_policy(messages: list[ChatMessage]) -> str:
    """One decision for the transcript in the last user message."""
    text = last_user_text(messages)
    roll, conf_roll = _unit(text, "action"), _unit(text, "confidence")
    if _unit(text, "invalid") < 0.02:
        return '{"action": "Defer", "confidence": 0.9}'
    confidence: float | None = round(0.80 + 0.19 * conf_roll, 2)
    if _unit(text, "noconf") < 0.05:
        confidence = None
    late = text.split(LATE_HEADER, 1)[1] if LATE_HEADER in text else ""
    if SYMPTOM_WORDS.search(late) and roll < 0.45:
        return decision_json("Escalate", confidence, "late red flag")
    if roll < 0.08:
        return decision_json("Escalate", confidence, "escalating")
    if roll < 0.22:
        return decision_json("Ask_Clarification", confidence, "need a detail")
    if roll < 0.25:
        return decision_json("Abstain", confidence, "insufficient")
    return decision_json("Answer", confidence, "routine")


def make_scripted_log(log_dir: str | Path, split: str = "all", prompt: str = "uncertainty") -> Path:
    """Run escbench/escalation on the scripted model and return the .eval log path."""
    from inspect_ai import eval as inspect_eval

    from escbench_inspect.tasks import escalation_task

    task = escalation_task(split=split, prompt=prompt)
    [log] = inspect_eval(
        task,
        model=scripted_model(answer_biased_policy, name="answer-biased"),
        log_dir=str(log_dir),
        display="none",
        max_connections=64,
    )
    if log.status != "success":
        raise RuntimeError(f"scripted run failed: {log.error}")
    return Path(log.location)


if __name__ == "__main__":
    import sys

    print(make_scripted_log(sys.argv[1] if len(sys.argv) > 1 else "logs"))
