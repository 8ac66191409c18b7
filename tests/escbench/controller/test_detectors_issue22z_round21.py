"""Issue 22z round 21 (conflict): the mechanisms the twenty-third and twenty-fourth blind halves' misses and
false positives showed, read on this project's own wording (``detector_heldout_dev19.yaml``, whose items are
also read one by one with the other C development items in ``test_detectors_issue22u_conflict.py``). Each
mechanism is then taken out -- a module pattern replaced by the one before it or by one that never matches, or
one lexicon entry deleted from a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import regex

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import Lexicon, default_lexicon, detect

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV19_FILE).items}
NEVER = regex.compile(r"(?!)")
FLAGS = regex.IGNORECASE | regex.VERSION1


def _without(pattern: regex.Pattern, added: str) -> regex.Pattern:
    """The pattern as it was before round 21: the text round 21 added cut out (it must be there once)."""
    assert pattern.pattern.count(added) == 1, added
    return regex.compile(pattern.pattern.replace(added, "", 1), pattern.flags)


# the patterns as they were before round 21
MONTH_WITH_YEAR = r"(?!,?\s+(?:19|20)\d\d\b)"
REPORTED_VALUE_ROUND_20 = _without(detectors._REPORTED_VALUE, r"|documents|documented|lists|listed|has")
REGIMEN_OBJECT_ROUND_20 = _without(detectors._REGIMEN_OBJECT, r"(?:\s+(?:on|in)\b)?")
WEIGHED_AT_ROUND_20 = _without(
    detectors._WEIGHED_AT,
    r"|\b(?:i'?m|i\s+am|he'?s|she'?s|he\s+is|she\s+is)\s+(?:only\s+|actually\s+|really\s+)?"
    r"(?P<amt>1[1-9]\d|[2-4]\d\d)\b(?=\s*(?:[,;!]|\.(?!\d)|$|\s+(?:now|today|not|and|but)\b))",
)
BLOOD_GROUP_ROUND_20 = _without(detectors._BLOOD_GROUP, r"|only\s+if|if\s+(?:needed|required)|on\s+standby")


def _states_another_round_20(
    mentions: list[detectors.Mention], clause: int, attribute: str, key: str | None
) -> bool:
    """Round 20's reading: a value of any attribute other than ``key`` in the clause."""
    return key is not None and any(o.clause == clause and o.key != key and not o.implied for o in mentions)


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (the attribute pairs and the contradiction phrases)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV[item_id].text, lexicon).conflict


def test_dev19_is_conflict_in_the_dev_half_with_paired_near_misses() -> None:
    assert set(DEV) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in DEV.values())
    assert {"agreement", "resolved", "documented_change", "dated_history"} <= {i.kind for i in DEV.values()}
    for item in DEV.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive":
            assert f"{item.id}_n1" in DEV, item.id


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc21_record_dated", "_RECORD_DATE", NEVER),
    ("dc21_documents_value", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_20),
    ("dc21_cause_named_n1", "_states_another", _states_another_round_20),
    ("dc21_taking_daily", "_SCHEDULE_ONLY", NEVER),
    ("dc21_active_on_list", "_REGIMEN_OBJECT", REGIMEN_OBJECT_ROUND_20),
    ("dc21_meds_heading", "_HEADING_LEAD", regex.compile(r"\W*$")),
    ("dc21_listed_with", "_LISTED_WITH", NEVER),
    ("dc21_weighed_bare_n1", "UnitlessWeight", float),  # every weight read in kg alone
    ("dc21_weight_of_person", "_WEIGHED_AT", WEIGHED_AT_ROUND_20),
    ("dc21_birth_same_day", "_SAME_OCCASION", NEVER),
    ("dc21_worked_out_dose", "_WORKED_OUT", NEVER),
    ("dc21_before_resolved_n1", "_BLOOD_GROUP", BLOOD_GROUP_ROUND_20),
]


@pytest.mark.parametrize(
    ("item_id", "name", "replacement"), MODULE_MECHANISMS, ids=[f"{i}-{n}" for i, n, _ in MODULE_MECHANISMS]
)
def test_each_module_mechanism_carries_its_item(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    positive = DEV[item_id].label == "positive"
    assert fires(item_id) is positive
    monkeypatch.setattr(detectors, name, replacement)
    assert fires(item_id) is not positive


def test_a_month_with_its_year_keeps_the_year(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    """ "records her last mammogram as June 2023": "as June" alone, read first, would drop the year, and June
    2023 would agree with June 2021."""
    assert fires("dc21_month_with_year")
    for name in ("_DATE_STATED", "_DATE_EVENT"):
        monkeypatch.setattr(detectors, name, _without(getattr(detectors, name), MONTH_WITH_YEAR))
    assert not fires("dc21_month_with_year")


def test_a_bare_weight_reads_in_kg_and_in_lb(fresh_memo: None) -> None:
    """A weight without its unit differs from one with it only if it differs read either way."""
    assert fires("dc21_weighed_bare")  # 120 is neither 68 kg nor 150 lb
    assert not fires("dc21_weighed_bare_n1")  # 150 lb = 68 kg
    weighed = detectors.UnitlessWeight(150)
    assert isinstance(weighed, float) and weighed == 150.0


# (the item, the exact text deleted from a copy of attributes.yaml, what it is replaced by): with the entry
# gone the item must flip
LEXICON_ENTRIES = [
    ("dc21_ice_source", r'"re:(?-i:\\bICE\\b)",', ""),
    ("dc21_nil_allergies", '"nil (known)? (drug)? allergies", ', ""),
    ("dc21_ran_out", r'"re:\\b(?:ran|has\\s+run|had\\s+run|have\\s+run)\\s+out', r'"re:\\bzz'),
    ("dc21_hasnt_taken", r"(?:been\\s+)?taken\\b(?!", r"(?:been\\s+)?zz\\b(?!"),
    ("dc21_is_on", r"(?:currently\\s+|now\\s+)?on\\b(?!", r"(?:currently\\s+|now\\s+)?zz\\b(?!"),
    ("dc21_superseded_n1", r'"re:\\bsuperseded\\b(?<!', r'"re:\\bzz\\b(?<!'),
    ("dc21_original_booking_n1", r"\\bfrom\\s+the\\s+(?:original|old|previous|earlier|first)", r"\\bzz"),
    ("dc21_no_difference_n1", r"\\s+no\\s+difference\\b", r"\\s+zz\\b"),
    (
        "dc21_they_say_same_n1",
        r"(?:exactly\\s+|just\\s+)?the\\s+same\\b(?!",
        r"(?:exactly\\s+|just\\s+)?zz\\b(?!",
    ),
    ("dc21_cause_named_n1", r"(?:is\\s+|was\\s+)?expected\\b", r"(?:is\\s+|was\\s+)?zz\\b"),
    ("dc21_weak_d_n1", r'"re:\\bweak\\s+d\\s+(?:type\\s+)?[1-3]\\b",', ""),
    ("dc21_delivered_month_n1", r'"re:\\bdelivered\\s+(?:in\\s+)?', r'"re:\\bzz\\s+(?:in\\s+)?'),
    (
        "dc21_same_as_always",
        r"same\\s+as(?!\\s+(?:always|usual|ever|normal|every\\s+\\w+)\\b)",
        r"same\\s+as",
    ),
    ("dc21_before_resolved", "till|til|before|pending|once", "till|til|pending|once"),
    ("dc21_get_it_sorted", r"(?<!\\b(?:get|gets|getting)\\s+(?:this|it|that|things)\\s)", ""),
    (
        "dc21_full_cpr_words",
        '"for (full)? (resuscitation|cpr|resus|cardiopulmonary resuscitation)"',
        '"for (full)? (resuscitation|cpr|resus)"',
    ),
    ("dc21_preg_status_quoted", r"\\s+status\\s+(?:is\\s+|was\\s+)?neg(?:ative)?", r"\\s+zz\\s+"),
    ("dc21_preg_excluded", r"(?:excluded|ruled\\s+out)\\b", r"zz\\b"),
    ("dc21_hcg_below_five", r"(?:<\\s*[1-5]|[0-4](?:\\.\\d+)?)(?!\\d|[.,]\\d)", r"zz"),
    ("dc21_test_plus_join", r"\\+(?:ve\\b|(?!\\s*[a-zβ])))", r"\\+(?:ve\\b)?)"),
]


@pytest.mark.parametrize(("item_id", "old", "new"), LEXICON_ENTRIES, ids=[i for i, *_ in LEXICON_ENTRIES])
def test_each_lexicon_entry_carries_its_item(
    lexicon_without: Callable[[str, str, str], Lexicon], item_id: str, old: str, new: str
) -> None:
    positive = DEV[item_id].label == "positive"
    assert fires(item_id) is positive
    assert fires(item_id, lexicon_without("attributes.yaml", old, new)) is not positive


def test_is_on_is_no_hold_nor_a_call() -> None:
    """ "is on" has the patient on a drug, not on hold, on call or on the ward."""
    assert not detect(
        "GP list: apixaban 5 mg BD is on hold for the procedure; pt says stopped 2 days ago."
    ).conflict
    assert detect(DEV["dc21_is_on"].text).conflict


def test_a_record_date_is_only_the_date_a_record_was_written_or_filled() -> None:
    """ "dated 03/09/2025" and "last fill 03/02/2024" date a record, not an earlier value; a value's own date
    ("warfarin 5 mg on 02/01/2024") still dates it."""
    assert detectors._RECORD_DATE.search("the discharge summary dated 22/04/2024 lists")
    assert detectors._RECORD_DATE.search("fill history (last fill 03/02/2024, #30)")
    assert not detectors._RECORD_DATE.search("warfarin 5 mg on 02/01/2024 per the clinic book")
