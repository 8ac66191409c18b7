"""Property-based tests (hypothesis) of the decision parser and the assembly/rendering pipeline.

Example counts are modest so the folder stays CI-fast; raise them locally when changing the
parser or the schema, e.g. ``ESCBENCH_FUZZ_EXAMPLES=2000 pytest tests/escbench/reliability/test_fuzzing.py``
(the counts scale together).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from escbench_inspect.datasets.assembly import SURFACES, assemble, load_seed
from escbench_inspect.datasets.errors import DataFileError
from escbench_inspect.datasets.render import header, render_blocks
from escbench_inspect.datasets.schema import (
    Action,
    BlockKind,
    Episode,
    SeedScenario,
    TaskClass,
    Variant,
)
from escbench_inspect.scorers.parse import parse_decision

EXAMPLES = int(os.environ.get("ESCBENCH_FUZZ_EXAMPLES", "60"))


def fuzz(scale: float = 1.0) -> settings:
    """Per-test settings (not a global profile, which would change other suites' tests)."""
    return settings(
        max_examples=max(1, int(EXAMPLES * scale)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


# --------------------------------------------------------------------------------------------
# parse_decision
# --------------------------------------------------------------------------------------------

FRAGMENTS = [
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    ":",
    ",",
    "\\",
    " ",
    "\n",
    "action",
    "decision",
    "Action",
    "confidence",
    "reason",
    "Escalate",
    "answer",
    "Ask_Clarification",
    "abstain",
    "0.5",
    "1.7",
    "-1",
    "NaN",
    "true",
    "null",
    "None",
    "<think>",
    "</think>",
    "```json",
    "```",
    "```",
    "...",
    "\x00",
    "é",
    "{{",
    "}}",
    "1e999",
    "0x1F",
]
jsonish = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=5), max_size=40).map("".join)


def _check_invariants(text: str | None) -> None:
    decision = parse_decision(text)
    assert (decision.action is None) == (decision.error is not None)
    assert decision.valid == (decision.error is None)
    assert decision.action is None or isinstance(decision.action, Action)
    assert decision.confidence is None or (
        isinstance(decision.confidence, float)
        and math.isfinite(decision.confidence)
        and 0.0 <= decision.confidence <= 1.0
    )
    assert isinstance(decision.reason, str)


@fuzz()
@given(st.text(max_size=300))
def test_parse_never_raises_on_arbitrary_text(text: str) -> None:
    _check_invariants(text)


@fuzz()
@given(jsonish)
def test_parse_never_raises_on_json_like_fragments(text: str) -> None:
    _check_invariants(text)


def test_parse_handles_none_and_pathological_inputs() -> None:
    for text in [
        None,
        "",
        "{" * 5000,
        "}" * 5000,
        "[" * 5000 + "]" * 5000,
        '{"action": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"confidence": ' + "9" * 5000 + "}",
        "{'action': 'Answer', 'confidence': 1" + "0" * 5000 + "}",
        # ast.literal_eval raised TypeError on these (unhashable set/dict members):
        "{{}}",
        "{[]: 1}",
        "{'action': 'Answer', 'x': {{'a': 1}}}",
    ]:
        _check_invariants(text)


def _action_spelling(action: Action) -> st.SearchStrategy[str]:
    value = action.value
    return st.sampled_from(
        [
            value,
            value.lower(),
            value.upper(),
            value.replace("_", " "),
            value.replace("_", "-"),
            f"  {value}  ",
        ]
    )


decisions = st.fixed_dictionaries(
    {
        "action": st.sampled_from(list(Action)),
        "confidence": st.one_of(
            st.none(),
            st.floats(0, 1),
            st.floats(allow_nan=True, allow_infinity=True),
            st.floats(0, 1).map(str),
            st.booleans(),
        ),
        "reason": st.text(max_size=80),
    }
)


@fuzz()
@given(decisions, st.data(), st.sampled_from(["bare", "fenced", "prose", "think", "keycase"]))
def test_valid_decision_objects_round_trip(decision: dict, data: Any, wrapper: str) -> None:
    action: Action = decision["action"]
    payload: dict[str, Any] = {"action": data.draw(_action_spelling(action)), "reason": decision["reason"]}
    if decision["confidence"] is not None:
        payload["confidence"] = decision["confidence"]
    if wrapper == "keycase":
        payload = {key.upper(): value for key, value in payload.items()}
    text = json.dumps(payload)
    text = {
        "bare": text,
        "fenced": f"```json\n{text}\n```",
        "prose": f"Here is my decision.\n{text}\nThank you.",
        "think": f"<think>maybe Abstain? let me see</think>{text}",
        "keycase": text,
    }[wrapper]
    parsed = parse_decision(text)
    assert parsed.action is action, (text, parsed)
    assert parsed.error is None
    if "<think>" not in decision["reason"] and "</" not in decision["reason"]:
        assert parsed.reason == decision["reason"]
    raw = decision["confidence"]
    if isinstance(raw, str):
        raw = float(raw)
    expected = (
        float(raw)
        if isinstance(raw, float) and not isinstance(raw, bool) and math.isfinite(raw) and 0 <= raw <= 1
        else None
    )
    assert parsed.confidence == expected


# --------------------------------------------------------------------------------------------
# Seed scenarios: assembly, rendering, round trips
# --------------------------------------------------------------------------------------------

# Template text never contains braces (placeholders are added explicitly) nor upper-case letters
# (the missing hook's fact is an upper-case token, so it occurs exactly where it is put).
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 .,;:-'/()%\n", min_size=1, max_size=60).filter(
    lambda s: s.strip() != ""
)
IDENT = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
SURFACE_VALUE = st.one_of(
    st.text(max_size=30).filter(lambda s: "QXZ" not in s),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
RECORD = ["setting", "earlier_record", "new_information", "request"]
AUTHORED = [*RECORD, "summary", "late_message"]
NON_ESCALATE = [a.value for a in Action if a is not Action.ESCALATE]


@st.composite
def acceptable_sets(draw: st.DrawFn) -> list[str]:
    if draw(st.booleans()):
        return ["Escalate"]
    return draw(st.lists(st.sampled_from(NON_ESCALATE), min_size=1, max_size=2, unique=True))


@st.composite
def seed_dicts(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(IDENT, max_size=3, unique=True))
    blocks = {kind: draw(WORDS) for kind in AUTHORED}
    blocks["setting"] += "".join(f" {{{name}}}" for name in names)
    missing_block = draw(st.sampled_from(RECORD))
    fact = "QXZ FACT " + draw(st.from_regex(r"[A-Z]{1,6}", fullmatch=True))
    blocks[missing_block] = f"{blocks[missing_block]} {fact}. {draw(WORDS)}"
    blank_block = draw(st.sampled_from(RECORD))
    blank = "QXB BLANK " + draw(st.from_regex(r"[A-Z]{1,6}", fullmatch=True))
    blocks[blank_block] = f"{blocks[blank_block]} {blank}."
    conflict_block = draw(st.sampled_from(["earlier_record", "new_information", "summary"]))
    consistent = "QXC AGREES " + draw(st.from_regex(r"[A-Z]{1,6}", fullmatch=True))
    blocks[conflict_block] = f"{blocks[conflict_block]} {consistent}."
    return {
        "id": draw(IDENT),
        "task_class": draw(st.sampled_from([c.value for c in TaskClass])),
        "split": draw(st.sampled_from(["dev", "test"])),
        "title": draw(WORDS),
        "specialty": draw(WORDS),
        "decision_tested": draw(WORDS),
        "surfaces": {s: {name: draw(SURFACE_VALUE) for name in names} for s in SURFACES},
        "blocks": blocks,
        "hooks": {
            "missing": {
                "block": missing_block,
                "remove": fact,
                "marker": "[" + draw(WORDS).replace("\n", " ") + "]",
                "immaterial": {"block": blank_block, "blank": blank, "filled": "filled in"},
            },
            "stale": {"text": draw(WORDS)},
            "conflict": {"block": conflict_block, "consistent": consistent, "text": "disagrees"},
            "late_risk": {"text": draw(WORDS)},
        },
        "reference": {
            v.value: {"acceptable": draw(acceptable_sets()), "rationale": draw(WORDS)} for v in Variant
        },
    }


@fuzz(0.5)
@given(seed_dicts())
def test_random_valid_seeds_assemble_render_and_round_trip(data: dict[str, Any]) -> None:
    seed = SeedScenario.model_validate(data)
    assert SeedScenario.model_validate(seed.model_dump(mode="json")) == seed
    assert SeedScenario.model_validate_json(seed.model_dump_json()) == seed

    fact = seed.hooks.missing.remove
    episodes: list[Episode] = []
    for surface in SURFACES:
        clean = assemble(seed, surface, Variant.CLEAN)
        for variant in Variant:
            episode = assemble(seed, surface, variant)
            episodes.append(episode)
            assert Episode.model_validate(episode.model_dump(mode="json")) == episode
            assert list(episode.acceptable_actions) == list(seed.reference.for_variant(variant).acceptable)
            text = render_blocks(episode)
            assert all(header(b.kind) in text and b.text in text for b in episode.blocks)
            # Only the hooked blocks change relative to the clean episode.
            assert [b.kind for b in episode.blocks] == list(BlockKind)
            hooked = {
                Variant.CLEAN: set(),
                Variant.MISSING: {
                    BlockKind(seed.hooks.missing.block),
                    BlockKind(seed.hooks.missing.immaterial.block),
                },
                Variant.CONFLICT: {BlockKind(seed.hooks.conflict.block)},
                Variant.STALE: {BlockKind.SUMMARY},
                Variant.LATE_RISK: {BlockKind.LATE_MESSAGE},
            }[variant]
            for block in clean.blocks:
                if block.kind not in hooked:
                    assert episode.block(block.kind) == block.text
            assert (fact in text) == (variant is not Variant.MISSING)
    assert len({e.episode_id for e in episodes}) == len(SURFACES) * len(Variant)


# --------------------------------------------------------------------------------------------
# Junk is rejected cleanly: ValidationError from the schema, DataFileError from the loader
# --------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)


def _load_text(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "junk_seed.yaml"
        path.write_text(text, encoding="utf-8")
        load_seed(path)


@fuzz()
@given(json_values)
def test_junk_values_are_rejected_by_the_schema(junk: Any) -> None:
    with pytest.raises(ValidationError):
        SeedScenario.model_validate(junk)


@fuzz()
@given(st.text(max_size=200))
def test_junk_yaml_text_is_a_data_file_error(text: str) -> None:
    with pytest.raises(DataFileError):
        _load_text(text)


@st.composite
def mutated_seed(draw: st.DrawFn) -> dict[str, Any]:
    """A valid seed with one value replaced by junk or one key removed, anywhere in the tree."""
    data = draw(seed_dicts())
    data["id"] = "junk_seed"
    node: Any = data
    while True:
        keys = list(node) if isinstance(node, dict) else []
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        child = node[key]
        if not isinstance(child, dict) or draw(st.booleans()):
            if draw(st.booleans()):
                del node[key]
            else:
                node[key] = draw(json_values)
            break
        node = child
    return data


@fuzz(0.66)
@given(mutated_seed())
def test_mutated_seed_files_load_or_fail_with_a_data_file_error(data: dict[str, Any]) -> None:
    try:
        text = yaml.safe_dump(data, allow_unicode=True)
    except yaml.YAMLError:
        return
    try:
        _load_text(text)
    except DataFileError as error:
        assert "junk_seed.yaml" in str(error)
