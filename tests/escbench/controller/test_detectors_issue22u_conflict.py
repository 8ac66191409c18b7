"""Issue 22u (conflict): the mechanisms the third blind half's misses showed, read on this project's own
wording (``detector_heldout_dev6.yaml``), and the pieces behind them."""

from __future__ import annotations

import pytest

from escbench_inspect.controller import heldout
from escbench_inspect.controller.detectors import (
    _DATE,
    _DATE_EVENT,
    _date_value,
    _dates_differ,
    _lab_readings,
    attribute_conflicts,
    default_lexicon,
    detect,
    expand_shorthand,
)

DEV6 = heldout.load_heldout(heldout.DEV6_FILE).items
# the C development items of rounds 5 (dev6), 6 (dev8), 7 (dev9), 8-11 (dev10), 12 (dev12), 13 (dev13),
# 14-16 (dev14), 17 (dev15), 18 (dev16), 19 (dev17), 20 (dev18), 21 (dev19), 22 (dev20), 23 (dev21) and 24
# (dev22), each read as labelled
C_DEV = [
    *DEV6,
    *(
        item
        for path in (
            heldout.DEV8_FILE,
            heldout.DEV9_FILE,
            heldout.DEV10_FILE,
            heldout.DEV12_FILE,
            heldout.DEV13_FILE,
            heldout.DEV14_FILE,
            heldout.DEV15_FILE,
            heldout.DEV16_FILE,
            heldout.DEV17_FILE,
            heldout.DEV18_FILE,
            heldout.DEV19_FILE,
            heldout.DEV20_FILE,
            heldout.DEV21_FILE,
            heldout.DEV22_FILE,
        )
        for item in heldout.load_heldout(path).items
    ),
]


@pytest.mark.parametrize("item", C_DEV, ids=[i.id for i in C_DEV])
def test_c_dev_item_reads_as_labelled(item: heldout.HeldoutItem) -> None:
    detection = detect(item.text)
    assert detection.conflict == (item.label == "positive"), detection.evidence


def test_dev6_covers_every_conflict_kind() -> None:
    assert all(i.detector == "conflict" for i in DEV6)
    near = {i.kind for i in DEV6 if i.label == "near_miss"}
    assert {"agreement", "documented_change", "dated_history"} <= near


def test_upper_case_mar_is_no_month() -> None:
    assert _DATE.search("Wt on MAR 9 st 2 lb") is None
    assert _DATE.search("seen on 9 Mar 2024") is not None
    assert _DATE.search("MAR shows 9 March") is not None


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("last given Friday", (None, None, None, 4, None)),
        ("last given yesterday 18:00", (None, None, None, None, 1)),
        ("last given this morning", (None, None, None, None, 0)),
        ("last given 3 days ago", (None, None, None, None, 3)),
        ("last given two weeks ago", (None, None, None, None, 14)),
        ("last given in june", (6, None, None, None, None)),
        ("last given 14/09/2023", (9, 14, 2023, None, None)),
    ],
)
def test_date_readings(text: str, reading: tuple) -> None:
    match = _DATE_EVENT.search(text, len("last given"))
    assert match is not None and reading in _date_value(match)


@pytest.mark.parametrize(
    ("first", "second", "differ"),
    [
        ("yesterday", "3 days ago", True),
        ("today", "last night", True),
        ("last week", "2 weeks ago", False),
        ("yesterday", "yesterday", False),
        ("Friday", "Monday", True),
        ("Friday", "yesterday", False),  # a weekday and a relative date are not compared
        ("in june", "14/06/2024", False),
    ],
)
def test_dates_differ(first: str, second: str, differ: bool) -> None:
    a, b = (_date_value(_DATE_EVENT.search(t)) for t in (first, second))
    assert _dates_differ(a, b) is differ


def test_hba1c_percent_converts_to_mmol_per_mol() -> None:
    units = default_lexicon().attributes.spec.lab_units["hba1c"]
    (value,), tag = _lab_readings((7.0, "%"), units)
    assert tag == "canonical" and value == pytest.approx(53.0, abs=0.1)
    (value,), _ = _lab_readings((53.0, "mmol/mol"), units)
    assert value == 53.0


@pytest.mark.parametrize(
    ("text", "expansion"),
    [
        ("Ambulance h/o: chest pain settled", "handover"),
        ("verbal h/o from the day team", "handover"),
        ("Pt h/o MI in 2015", "history of"),
        ("h/o asthma", "history of"),
    ],
)
def test_h_o_after_a_team_is_a_handover(text: str, expansion: str) -> None:
    assert expansion in expand_shorthand(text, default_lexicon().shorthand).text


def test_quoted_value_keeps_the_callers_offsets() -> None:
    text = "Our list has penicillin (hives), whereas the transfer form gives her allergies as 'none'."
    detection = detect(text)
    assert detection.conflict
    assert all(text[e.start : e.end] == e.text for e in detection.evidence)


@pytest.mark.parametrize(
    "text",
    [
        # a count, a duration or a dose after a reporting verb is no laboratory value
        "Potassium 4.1 on the ward sample, the pharmacy label says 28 tablets.",
        "Sodium 139 mmol/L on the lab report, the discharge letter says 5 days of antibiotics.",
        "INR 2.4 per the clinic, the patient says 3 mg on Mondays.",
    ],
)
def test_bare_number_is_read_only_without_a_unit(text: str) -> None:
    pairs = attribute_conflicts(text, default_lexicon())
    assert not [m for pair in pairs for m in pair if m.attribute == "lab_value"]


@pytest.mark.parametrize(
    "text",
    [
        # the side of the heart or brain is not a limb's
        "The echo report says left ventricular dilatation; the GP letter says right knee pain.",
        "CT report says left hemisphere infarct; ward notes say right arm weakness.",
    ],
)
def test_side_alone_is_not_an_organ_side(text: str) -> None:
    assert not detect(text).conflict
