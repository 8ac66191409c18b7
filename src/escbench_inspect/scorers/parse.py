"""Parse an agent's decision ``{action, confidence, reason}`` from free model output.

Lenient where the intent is unambiguous (code fences, prose or a reasoning block around the object,
case/space/underscore variants of action names, key case, single quotes, trailing commas); invalid
where it is not (unknown action, several different decision objects, truncated JSON, no object).
A confidence that is missing, non-numeric or outside [0, 1] is recorded as missing, never clamped.

Hand-written because no library parses "JSON-ish" objects out of prose with these exact rules:
``json`` rejects the lenient forms and ``ast.literal_eval`` alone rejects JSON literals.
"""

from __future__ import annotations

import ast
import io
import json
import math
import tokenize
from dataclasses import dataclass

import regex

from escbench_inspect.datasets.schema import Action

_REASONING_BLOCK = regex.compile(r"<(think|thinking|reasoning)>.*?</\1>", flags=regex.S | regex.I)
_TRAILING_COMMA = regex.compile(r",(\s*[}\]])")
_ACTION_KEYS = {"action", "decision"}
_REASON_KEYS = ("reason", "rationale", "reasoning", "explanation")
_ACTIONS_BY_LETTERS = {regex.sub(r"[^a-z]", "", a.value.lower()): a for a in Action}


@dataclass(frozen=True)
class Decision:
    """A parsed decision. ``action`` is None (and ``error`` set) when the output is invalid."""

    action: Action | None
    confidence: float | None
    reason: str
    error: str | None = None
    confidence_error: str | None = None  # why ``confidence`` is None when a decision object was found

    @property
    def valid(self) -> bool:
        return self.error is None


def normalize_action(name: object) -> Action | None:
    """Canonical action for case/space/underscore/hyphen variants; None if unknown."""
    if not isinstance(name, str):
        return None
    return _ACTIONS_BY_LETTERS.get(regex.sub(r"[^a-z]", "", name.lower()))


def _object_spans(text: str) -> tuple[list[str], bool]:
    """Top-level ``{...}`` substrings (string-aware), and whether an object was left unclosed."""
    spans: list[str] = []
    depth, start, quote, escaped = 0, -1, "", False
    for index, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
            continue
        if char in "\"'" and depth > 0:
            # An apostrophe inside prose-like values is only a quote at a value boundary.
            if char == "'" and index > 0 and text[index - 1].isalnum():
                continue
            quote = char
        elif char == "{":
            if depth == 0:
                start = index
            depth += 1
        elif char == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append(text[start : index + 1])
    return spans, depth > 0


def _python_literal(text: str) -> object:
    """Evaluate a Python-literal-like object, mapping JSON's true/false/null tokens."""
    mapping = {"true": "True", "false": "False", "null": "None"}
    tokens = [
        (tok.type, mapping.get(tok.string, tok.string) if tok.type == tokenize.NAME else tok.string)
        for tok in tokenize.generate_tokens(io.StringIO(text).readline)
    ]
    return ast.literal_eval(tokenize.untokenize(tokens))


def _load_object(text: str) -> dict | None:
    for attempt in (
        lambda t: json.loads(t),
        lambda t: json.loads(_TRAILING_COMMA.sub(r"\1", t)),
        _python_literal,
    ):
        try:
            value = attempt(text)
        # TypeError: ast.literal_eval builds sets/dicts from unhashable members ("{{}}", "{[]: 1}")
        # and raises it; found by the reliability fuzz tests. parse_decision must never raise.
        except (
            ValueError,
            TypeError,
            SyntaxError,
            tokenize.TokenError,
            MemoryError,
            RecursionError,
        ):
            continue
        return value if isinstance(value, dict) else None
    return None


def _lower_keys(obj: dict) -> dict:
    return {str(key).strip().lower(): value for key, value in obj.items()}


def _confidence(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, (int, float)) and math.isfinite(value) and 0.0 <= value <= 1.0:
        return float(value)
    return None


def _confidence_error(latest_first: list[dict]) -> str:
    """Why no usable confidence was found (the latest object's value names the problem)."""
    raws = [obj["confidence"] for obj in latest_first if "confidence" in obj]
    if not raws:
        return "no confidence given"
    return f"confidence {raws[0]!r} is not a number in [0, 1]"


def parse_decision(text: str | None) -> Decision:
    """Parse one model output into a :class:`Decision` (see module docstring for the rules)."""
    if not text or not text.strip():
        return Decision(None, None, "", "empty output")
    cleaned = _REASONING_BLOCK.sub(" ", text)
    spans, unclosed = _object_spans(cleaned)
    decisions: list[dict] = []
    for span in spans:
        obj = _load_object(span)
        if obj is None:
            continue
        obj = _lower_keys(obj)
        if _ACTION_KEYS & obj.keys():
            decisions.append(obj)
    if not decisions:
        if unclosed:
            return Decision(None, None, "", "truncated JSON object")
        if spans:
            return Decision(None, None, "", "no decision object (no 'action' key)")
        return Decision(None, None, "", "no JSON object in output")

    raw_actions = [obj.get("action", obj.get("decision")) for obj in decisions]
    actions = [normalize_action(raw) for raw in raw_actions]
    # Agreeing repeats (e.g. a draft then the final object): the last one wins, field by field.
    latest_first = decisions[::-1]
    reason = next((str(obj[k]) for obj in latest_first for k in _REASON_KEYS if k in obj), "")
    confidence = next(
        (c for obj in latest_first if (c := _confidence(obj.get("confidence"))) is not None), None
    )
    confidence_error = None if confidence is not None else _confidence_error(latest_first)
    if any(action is None for action in actions):
        unknown = next(raw for raw, action in zip(raw_actions, actions, strict=True) if action is None)
        return Decision(None, confidence, reason, f"unknown action {unknown!r}", confidence_error)
    if len(set(actions)) > 1:
        names = sorted({a.value for a in actions if a is not None})
        return Decision(None, None, reason, f"several different decision objects: {names}")
    return Decision(actions[0], confidence, reason, confidence_error=confidence_error)
