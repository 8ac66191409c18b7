"""Issue 22w (conflict): the mechanisms the fourth blind half's misses showed, read on this project's own
wording (``detector_heldout_dev8.yaml``, whose items are read one by one with dev6's in
``test_detectors_issue22u_conflict.py``), and the pieces behind them."""

from __future__ import annotations

import pytest

from escbench_inspect.controller import heldout
from escbench_inspect.controller.detectors import (
    _DATE_STATED,
    _date_value,
    attribute_conflicts,
    default_lexicon,
    detect,
)

DEV8 = heldout.load_heldout(heldout.DEV8_FILE).items  # read item by item in test_detectors_issue22u_conflict


def test_dev8_is_in_the_dev_half() -> None:
    ids = {i.id for i in heldout.half_items("dev")}
    assert {i.id for i in DEV8} <= ids


@pytest.mark.parametrize(
    ("text", "weekday"),
    [("says Mon PM", 0), ("says Thu", 3), ("says Sun AM", 6)],
)
def test_capitalised_weekday(text: str, weekday: int) -> None:
    match = _DATE_STATED.search(text)
    assert match is not None and (None, None, None, weekday, None) in _date_value(match)


@pytest.mark.parametrize("text", ["Sat 94% on air", "mon 2", "sun exposure"])
def test_not_a_weekday(text: str) -> None:
    match = _DATE_STATED.search(text)
    assert match is None or all(reading[3] is None for reading in _date_value(match))


def test_class_stop_meets_a_member_only() -> None:
    lexicon = default_lexicon()
    member = "Letter says 'not on anticoagulants', wife says he takes apixaban twice daily."
    other = "Letter says 'not on anticoagulants', wife says he takes amlodipine every day."
    assert [m.key for pair in attribute_conflicts(member, lexicon) for m in pair] == ["apixaban", "apixaban"]
    assert attribute_conflicts(other, lexicon) == []


def test_change_cue_in_a_question_is_no_change() -> None:
    question = "the text said my INR was 2.1 but the clinic letter says 4.4, should I change my dose?"
    statement = "the text said my INR was 2.1 but the clinic letter says 4.4 after the dose change."
    assert detect(question).conflict
    assert not detect(statement).conflict


@pytest.mark.parametrize(
    "text",
    [
        "If the two lists disagree, hold the dose and call pharmacy.",
        "Should the labels conflict, ring the ward before giving it.",
    ],
)
def test_disagreement_in_a_condition_is_hypothetical(text: str) -> None:
    detection = detect(text)
    assert not detection.conflict and any(s.reason == "hypothetical" for s in detection.suppressed)
