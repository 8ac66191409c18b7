"""Issue 22z rounds 21-22 (conflict): the mechanisms the twenty-third to twenty-fifth blind halves' misses and
false positives showed, read on this project's own wording (``detector_heldout_dev19.yaml``, round 21, and
``detector_heldout_dev20.yaml``, round 22, whose items are also read one by one with the other C development
items in ``test_detectors_issue22u_conflict.py``). Each mechanism is then taken out -- a module pattern
replaced by the one before it or by one that never matches, a helper by one that reads nothing, or one lexicon
entry deleted from a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import NEVER, lexicon_entry_test, module_mechanism_test

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import Lexicon, default_lexicon, detect

# round 21's items (dc21_*) and round 22's (dc22_*)
DEV_FILES = (heldout.DEV19_FILE, heldout.DEV20_FILE)
DEV = {i.id: i for path in DEV_FILES for i in heldout.load_heldout(path).items}
FLAGS = regex.IGNORECASE | regex.VERSION1


def _without(pattern: regex.Pattern, added: str) -> regex.Pattern:
    """The pattern as it was before round 21: the text round 21 added cut out (it must be there once)."""
    assert pattern.pattern.count(added) == 1, added
    return regex.compile(pattern.pattern.replace(added, "", 1), pattern.flags)


# the patterns as they were before round 22
RECORD_DATE_ROUND_21 = regex.compile(
    # (round 62 added the day a supply was dispensed after the fill's bracket)
    detectors._RECORD_DATE.pattern.replace(r"(?:community\s+)?", "", 1).replace(
        r"(?:on\s+)?\(?|", r"(?:on\s+)?|", 1
    ),
    detectors._RECORD_DATE.flags,
)
THE_DAY = r"(?:the\s+)?"
WHOLE_WEEKDAYS = (r"wed(?:nes)?|weds|thu|thurs|fri|sat(?:ur)?|sun", r"wed|weds|thu|thurs|fri|sat|sun")
SAME_OCCASION_ROUND_21 = _without(detectors._SAME_OCCASION, r"|\bsplit\s+samples?\b")
REPORTED_AS_ROUND_21 = _without(detectors._REPORTED_VALUE, r"|(?<=^\s*)as")
DOSE_GAP_ROUND_21 = _without(detectors._DOSE_GAP, r"(?:(?:tabs?|tablets?|caps(?:ules)?)\s+)?")
SCHEDULE_ONLY_ROUND_21 = _without(detectors._SCHEDULE_ONLY, r"|since\s+[\w/ ]{1,30}")
SIDE_ALONE_ROUND_21 = regex.compile(
    detectors._SIDE_ALONE.pattern.replace(r"on\s+the\s+(?-i:(?P<side6>[LR]))", r"(?!)(?P<side6>x)", 1),
    detectors._SIDE_ALONE.flags,
)
RECENT_ROUND_21 = _without(detectors._RECENT, r"|(?:2|3|two|three)\s+(?:weeks|wks)\s+ago")
WEIGHT_CONTEXT_ROUND_21 = _without(
    detectors._WEIGHT_CONTEXT,
    r"|\b(?:is|was|am|are|were|he'?s|she'?s|i'?m)\s+\d{1,3}(?:\.\d+)?\s*(?:kgs?|lbs?|pounds)\b",
)

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


# these mechanisms are tested as the detectors read before round 23's general status readings
pytestmark = pytest.mark.usefixtures(
    "before_round23_status",
    "before_round25_lab",
    "before_round29_record",
    "before_round30",
    "before_round31",
    "before_round34",
    "before_round36",
    "before_round59",
    "before_round64",
)


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (the attribute pairs and the contradiction phrases)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV[item_id].text, lexicon).conflict


@pytest.mark.parametrize("path", DEV_FILES, ids=lambda p: p.name)
def test_dev_files_are_conflict_in_the_dev_half_with_paired_near_misses(path: object) -> None:
    items = {i.id: i for i in heldout.load_heldout(path).items}  # type: ignore[arg-type]
    assert set(items) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in items.values())
    assert {"agreement", "resolved", "documented_change", "dated_history"} <= {i.kind for i in items.values()}
    for item in items.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive":
            assert f"{item.id}_n1" in items, item.id


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
    ("dc22_fill_in_brackets", "_RECORD_DATE", RECORD_DATE_ROUND_21),
    ("dc22_split_sample", "_SAME_OCCASION", SAME_OCCASION_ROUND_21),
    ("dc22_split_sample", "_REPORTED_VALUE", REPORTED_AS_ROUND_21),
    ("dc22_split_sample", "_one_analyte_before", lambda *_: detectors.IMPLIED),
    ("dc22_latest_n1", "_LATEST", NEVER),
    ("dc22_on_the_r", "_SIDE_ALONE", SIDE_ALONE_ROUND_21),
    ("dc22_form_before_status", "_DOSE_GAP", DOSE_GAP_ROUND_21),
    ("dc22_since", "_SCHEDULE_ONLY", SCHEDULE_ONLY_ROUND_21),
    ("dc22_stable_weight", "_STABLE", NEVER),
    ("dc22_weeks_ago", "_RECENT", RECENT_ROUND_21),
    ("dc22_person_in_kg", "_WEIGHT_CONTEXT", WEIGHT_CONTEXT_ROUND_21),
]


test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)


def test_a_month_with_its_year_keeps_the_year(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    """ "records her last mammogram as June 2023": "as June" alone, read first, would drop the year, and June
    2023 would agree with June 2021."""
    assert fires("dc21_month_with_year")
    for name in ("_DATE_STATED", "_DATE_EVENT"):
        monkeypatch.setattr(detectors, name, _without(getattr(detectors, name), MONTH_WITH_YEAR))
    assert not fires("dc21_month_with_year")


@pytest.mark.parametrize(("old", "new"), [(THE_DAY, ""), WHOLE_WEEKDAYS], ids=["the-day", "whole-weekday"])
def test_a_weekday_with_its_day_reads_the_day(
    old: str, new: str, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    """ "fell on monday the 3rd" and "the fall was wednesday 5th" are days of the month: round 22 reads the
    day after "the" and after every weekday's whole name; without either the dates share nothing."""
    assert fires("dc22_weekday_the_day")
    for name in ("_DATE_STATED", "_DATE_EVENT"):
        pattern = getattr(detectors, name)
        assert pattern.pattern.count(old) == 1, old
        monkeypatch.setattr(
            detectors, name, regex.compile(pattern.pattern.replace(old, new, 1), pattern.flags)
        )
    assert not fires("dc22_weekday_the_day")


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
    # (round 62 read "need" and "want" beside "get")
    (
        "dc21_get_it_sorted",
        r"(?<!\\b(?:get|gets|getting|need|needs|needed|want|wants|wanted)\\s+(?:this|it|that|things)\\s)",
        "",
    ),
    (
        "dc21_full_cpr_words",
        '"for (full)? (resuscitation|cpr|resus|cardiopulmonary resuscitation)"',
        '"for (full)? (resuscitation|cpr|resus)"',
    ),
    ("dc21_preg_status_quoted", r"\\s+status\\s+(?:is\\s+|was\\s+|as\\s+)?neg(?:ative)?", r"\\s+zz\\s+"),
    ("dc21_preg_excluded", r"(?:excluded|ruled\\s+out)\\b", r"zz\\b"),
    ("dc21_hcg_below_five", r"(?:<\\s*[1-5]|[0-4](?:\\.\\d+)?)(?!\\d|[.,]\\d)", r"zz"),
    ("dc21_test_plus_join", r"\\+(?:ve\\b|(?!\\s*[a-zβ])))", r"\\+(?:ve\\b)?)"),
    ("dc22_stop_date", r'stop_date: ["re:\\b(?:stop|', r'stop_date: ["re:\\b(?:zz|'),
    ("dc22_shouldnt_be_on", r"(?:shouldn'?t|shouldnt|should\\s+not|", r"(?:zz|"),
    ("dc22_not_used", r"\\bnot\\s+(?:been\\s+)?(?:used|using)", r"\\bzz"),
    ("dc22_on_current_list", r"(?:gp|repeat|current|active|practice|surgery)\\s+(?:med", r"zz\\s+(?:med"),
    ("dc22_wants_resus", r"\\bwants?\\s+to\\s+be\\s+res+us+", r"\\bzz\\s+res+us+"),
    ("dc22_has_pregnant", "|reads|has|have|show|say|read|list|record)", "|reads|show|say|read|list|record)"),
    ("dc22_discharge_papers", r'"papers/paperwork", "re:(?-i:\\bER\\b)",', ""),
    ("dc22_referral_examination", '"referring", "examination", ', ""),
    ("dc22_isnt_pregnant", r"(?:isn'?t|isnt|wasn'?t|wasnt|aren'?t)\\s+pregnant", r"zz\\s+pregnant"),
    ("dc22_rescinded_n1", '"rescinded/revoked"', '"zz"'),
    ("dc22_corrected_by_team_n1", r"(?:corrected|amended|fixed|updated)\\s+by\\s+", r"zz\\s+by\\s+"),
    ("dc22_clarified_n1", r"been\\s+(?:clarified|reconciled)\\b(?<!", r"been\\s+zz\\b(?<!"),
    ("dc22_after_stopping_n1", r"(?:stopping|starting|holding|withholding|treatment", r"(?:zz|treatment"),
    (
        "dc22_both_documents_n1",
        r"both(?:\\s+(?:documents|records|forms|lists|letters|systems|sheets))?",
        "both",
    ),
]


test_each_lexicon_entry_carries_its_item = lexicon_entry_test(
    DEV,
    fires,
    [(i, "attributes.yaml", old, new) for i, old, new in LEXICON_ENTRIES],
    ids=[i for i, *_ in LEXICON_ENTRIES],
)


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


@pytest.mark.parametrize(
    ("text", "critical"),
    [
        ("Sodium on 3 March 139 mmol/L.", False),
        ("Potassium on the sample of 14 May was 4.1 mmol/L.", False),
        ("Sodium on 3 March 119 mmol/L.", True),
    ],
)
def test_a_dates_day_is_no_critical_value(text: str, critical: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """H reads the number after an analyte; round 22 blanks a date first, so the "3" of "3 March" is no
    sodium of 3 mmol/L. With dates not recognised the day is read again."""
    assert detect(text).high_risk is critical
    if not critical:
        monkeypatch.setattr(detectors, "_DATE", NEVER)
        assert detect(text).high_risk
