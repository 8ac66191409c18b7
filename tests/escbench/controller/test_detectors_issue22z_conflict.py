"""Issue 22z (conflict): the mechanisms the eighth blind half's misses showed, read on this project's own
wording (``detector_heldout_dev10.yaml``, whose items are read one by one with dev6's, dev8's and dev9's
in ``test_detectors_issue22u_conflict.py``); each mechanism is then taken out and its item must fail."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import NEVER

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import (
    _DATE_EVENT,
    _date_value,
    attribute_conflicts,
    default_lexicon,
    detect,
)

DEV10 = {i.id: i for i in heldout.load_heldout(heldout.DEV10_FILE).items}


# these mechanisms are tested as the detectors read before round 23's general status readings
pytestmark = pytest.mark.usefixtures("before_round23_status", "before_round30")


def fires(item_id: str) -> bool:
    default_lexicon().memo.clear()
    return bool(attribute_conflicts(DEV10[item_id].text, default_lexicon()))


def fires_on(text: str) -> bool:
    default_lexicon().memo.clear()
    return bool(attribute_conflicts(text, default_lexicon()))


def fires_keyed(text: str) -> bool:
    """A pair of one attribute's mentions, not only of the generic typed values (the fallback that
    would hide a lost mechanism)."""
    default_lexicon().memo.clear()
    pairs = attribute_conflicts(text, default_lexicon())
    return any(not m.attribute.startswith("typed_") for pair in pairs for m in pair)


def test_dev10_is_conflict_in_the_dev_half_with_every_kind() -> None:
    assert set(DEV10) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in DEV10.values())
    assert {"agreement", "documented_change", "dated_history"} <= {i.kind for i in DEV10.values() if i.kind}


# (the positive item, the module name behind its mechanism, what replaces it): with the mechanism taken
# out the item must no longer fire -- each check is shown able to fail
PLANTED = [
    ("dc10_same_date", "_SAME_OCCASION", NEVER),
    ("dc10_same_draw_unit", "_SAME_OCCASION", NEVER),
    ("dc10_one_date_both", "_same_calendar_date", lambda first, second: False),
    # round 13 reads "HbA1c as 52" in the analyte pattern; "our FBC this morning 118 g/L" still needs this
    ("dc10_fbc_hb", "_analyte_then_value", lambda clause, a, add: False),
    ("dc10_not_alone", "_NOT_ALONE", NEVER),
    ("dc10_group_words", "_BLOOD_GROUP_WORDS", NEVER),
    ("dc10_no_named_allergy", "_NO_BEFORE", NEVER),
    ("dc10_entry_held", "_AMOUNT_AFTER", NEVER),
    # round 9
    ("dc10_abo_alone", "_ABO_ALONE", NEVER),
    ("dc10_heading_drug", "_heading_drug", lambda clause, drugs: None),
    ("dc10_slash_sources", "_COMMA", regex.compile(r",(?=\s)\s*|\s+[-–—]\s+")),  # without the slash
    # round 10
    ("dc10_and_as", "_AS_AGAIN", NEVER),
    ("dc10_still_being_given", "_AMOUNT_BEFORE", NEVER),
    # round 11
    ("dc10_vs_value", "_LEADING_VALUE", NEVER),
    ("dc10_no_fills_since", "_FILLS_STOPPED", NEVER),
    ("dc10_havent_been_giving", "_NEGATIVE_AUXILIARY", NEVER),
]


def test_two_clauses_of_one_past_event() -> None:
    """Both clauses name the same past event ("birth wt") in the same words: not history to each other."""
    assert fires("dc10_same_past_event")
    assert not fires("dc10_same_past_event_n1")


def test_an_explanation_between_the_two_statements(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    """The typo explained in the clause between "one form … the other" and "both forms say … now" (read with
    "14.1kg on one form and 17.1kg on the other" as one clause, as before round 23, which cuts it in two and
    so reads the explanation in the second value's own clause)."""
    assert not fires("dc10_typo_between_n1")
    split = detectors._CLAUSE_SPLIT
    before = split.pattern.replace(detectors._AND_VALUE_SOURCE, "", 1)
    monkeypatch.setattr(detectors, "_CLAUSE_SPLIT", regex.compile(before, split.flags))
    assert not fires("dc10_typo_between_n1")
    monkeypatch.setattr(detectors, "_EXPLAINED_BETWEEN", 0)
    assert fires("dc10_typo_between_n1")


# round 17: "Gliclazide: discharge letter …, nursing home MAR shows 80 mg BD still being given" is also read
# under its heading (`_heading_items`)
SECOND_PATH = {"dc10_still_being_given": "_heading_items"}


@pytest.mark.parametrize(("item_id", "name", "replacement"), PLANTED, ids=[f"{i}-{n}" for i, n, _ in PLANTED])
def test_each_mechanism_carries_its_item(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    # two readings dated alike are read by the typed-value reading (no analyte pattern takes "potassium
    # on 3 March as"), so those two are checked on any pair
    check = fires_on if item_id in ("dc10_same_date", "dc10_one_date_both") else fires_keyed
    assert DEV10[item_id].label == "positive"
    assert check(DEV10[item_id].text)
    monkeypatch.setattr(detectors, name, replacement)
    if item_id in SECOND_PATH:  # round 17's list heading reads the item too: the mechanism is checked alone
        monkeypatch.setattr(detectors, SECOND_PATH[item_id], lambda *args: [])
    assert not check(DEV10[item_id].text)


def test_a_denied_change_is_none(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    text = "Clinic list: azathioprine stopped; summary lists azathioprine 50 mg OD as current, no restart."
    assert fires_keyed(text)
    monkeypatch.setattr(detectors, "_CHANGE_DENIED", NEVER)
    assert not fires_keyed(text)


@pytest.mark.parametrize(
    ("text", "day"),
    [("it was on the 4th", 4), ("told us it was the 11th, we need", 11), ("the 23rd but the", 23)],
)
def test_a_day_of_the_month_alone(text: str, day: int) -> None:
    match = _DATE_EVENT.search(text)
    assert match is not None and _date_value(match) == frozenset({(None, day, None, None, None)})


@pytest.mark.parametrize("text", ["the 3rd dose is due", "the 2nd time this week", "the 1st line treatment"])
def test_an_ordinal_of_a_count_is_no_date(text: str) -> None:
    assert _DATE_EVENT.search(text) is None


def test_same_calendar_date() -> None:
    assert detectors._same_calendar_date("on 14 November 89", "report of 14/11/2026 shows 212")
    assert not detectors._same_calendar_date("on 14 November 89", "report of 15 November shows 212")
    assert not detectors._same_calendar_date("on 14 November 89", "report shows 212")


def test_a_change_a_third_clause_names() -> None:
    """The difference is the change a third clause documents only when it names one of the two values."""
    assert not fires("dc10_third_clause_n1")
    assert fires("dc10_third_clause")


def test_a_stop_is_not_also_an_activity() -> None:
    """ "no longer takes it" is a stop; its "takes" is not read again as the drug still taken."""
    assert not fires("dc10_continues_to_take_n1")
    assert fires("dc10_continues_to_take")


@pytest.mark.parametrize(
    ("text", "fires_"),
    [
        ("Band says B Pos. Lab system says O Neg.", True),
        ("Band says B Pos. Lab system says B Pos.", False),
        ("A positive result on the lab system; the ward says A negative test.", False),
    ],
)
def test_blood_group_in_words(text: str, fires_: bool, fresh_memo: None) -> None:
    assert bool(attribute_conflicts(text, default_lexicon())) is fires_


def test_a_year_inside_a_full_date_is_no_history() -> None:
    """A calendar date dates a record; its year alone does not make the clause history (a month and
    year, "03/2024", still does)."""
    history = default_lexicon().attributes.history  # type: ignore[union-attr]
    assert history is not None
    assert history.search("sodium 12/05/2026 = 139 mmol/L") is None
    assert history.search("wt 11.2 kg (03/2024)") is not None
    assert history.search("seen in 2019") is not None


# ---- M (round 9): the absences blind v9 showed, on dev11 ------------------------------------------
DEV11 = heldout.load_heldout(heldout.DEV11_FILE).items


@pytest.mark.parametrize("item", DEV11, ids=[i.id for i in DEV11])
def test_dev11_item_reads_as_labelled(item: heldout.HeldoutItem) -> None:
    detection = detect(item.text, task_class=item.task_class)
    assert detection.missing == (item.label == "positive"), detection.evidence


LATER_SUPPLIED = [i for i in DEV11 if i.kind == "resolved"]


@pytest.mark.parametrize("item", LATER_SUPPLIED, ids=[i.id for i in LATER_SUPPLIED])
def test_an_absence_filled_since_fires_without_its_reading(
    item: heldout.HeldoutItem, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each "resolved" near miss is carried by the later-supplied reading: without it, it fires."""
    monkeypatch.setattr(detectors, "_LATER_SUPPLIED", NEVER)
    detectors._default_flags.cache_clear()
    assert detect(item.text, task_class=item.task_class).missing
