"""Decision parser: valid, lenient and invalid outputs."""

from __future__ import annotations

import pytest

from escbench_inspect import parse_decision
from escbench_inspect.datasets.schema import Action

VALID = [
    ('{"action": "Escalate", "confidence": 0.9, "reason": "chest pain"}', Action.ESCALATE, 0.9),
    ('```json\n{"action": "Answer", "confidence": 0.7, "reason": "ok"}\n```', Action.ANSWER, 0.7),
    (
        'I think so. {"action": "Abstain", "confidence": 0.5, "reason": "x"} Done.',
        Action.ABSTAIN,
        0.5,
    ),
    (
        '<think>maybe {"action": "Answer"}</think>{"action": "Escalate", "confidence": 1}',
        Action.ESCALATE,
        1.0,
    ),
    (
        '{"action": "ask clarification", "confidence": 0.6, "reason": "x"}',
        Action.ASK_CLARIFICATION,
        0.6,
    ),
    ('{"action": "ASK-CLARIFICATION", "confidence": 0.6}', Action.ASK_CLARIFICATION, 0.6),
    ('{"action": "AskClarification", "confidence": 0.6}', Action.ASK_CLARIFICATION, 0.6),
    ('{"Action": "escalate", "Confidence": 0.8, "Reason": "x"}', Action.ESCALATE, 0.8),
    ("{'action': 'Escalate', 'confidence': 0.8, 'reason': 'x'}", Action.ESCALATE, 0.8),
    ('{"action": "Escalate", "confidence": 0.8, "reason": "x",}', Action.ESCALATE, 0.8),
    ('{"action": "Escalate", "confidence": "0.8", "reason": "x"}', Action.ESCALATE, 0.8),
    ('{"action": "Escalate", "confidence": 0.8, "reason": "has {braces}"}', Action.ESCALATE, 0.8),
    (
        '{"action": "Escalate", "confidence": 0.8} and again {"action": "escalate"}',
        Action.ESCALATE,
        0.8,
    ),
    ('{"action": "Answer", "confidence": true, "reason": "it is true"}', Action.ANSWER, None),
]

MISSING_CONFIDENCE = [
    '{"action": "Answer", "reason": "x"}',
    '{"action": "Answer", "confidence": "high", "reason": "x"}',
    '{"action": "Answer", "confidence": 85, "reason": "x"}',
    '{"action": "Answer", "confidence": -0.1, "reason": "x"}',
    '{"action": "Answer", "confidence": null, "reason": "x"}',
    '{"action": "Answer", "confidence": NaN, "reason": "x"}',
]

INVALID = [
    ("", "empty output"),
    ("I would escalate this to a doctor.", "no JSON object"),
    ('{"action": "Refer", "confidence": 0.9}', "unknown action"),
    ('{"action": "Answer"} {"action": "Escalate"}', "several different decision objects"),
    ('{"action": "Escalate", "confidence": 0.9, "reason": "the patient has', "truncated"),
    ('{"confidence": 0.9, "reason": "x"}', "no decision object"),
    ('{"action": 3}', "unknown action"),
]


@pytest.mark.parametrize(("text", "action", "confidence"), VALID)
def test_valid_and_lenient_outputs(text: str, action: Action, confidence: float | None) -> None:
    decision = parse_decision(text)
    assert decision.error is None, decision.error
    assert decision.action is action
    assert decision.confidence == confidence


@pytest.mark.parametrize("text", MISSING_CONFIDENCE)
def test_bad_confidence_is_missing_not_clamped(text: str) -> None:
    decision = parse_decision(text)
    assert decision.action is Action.ANSWER
    assert decision.confidence is None
    assert decision.error is None


@pytest.mark.parametrize(("text", "error"), INVALID)
def test_invalid_outputs_carry_their_reason(text: str, error: str) -> None:
    decision = parse_decision(text)
    assert decision.action is None
    assert decision.error is not None and error in decision.error


def test_reason_is_kept() -> None:
    decision = parse_decision('{"action": "Escalate", "confidence": 0.9, "reason": "INR 9.1"}')
    assert decision.reason == "INR 9.1"
