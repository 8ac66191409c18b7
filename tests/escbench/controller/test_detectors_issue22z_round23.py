"""Issue 22z round 23 (conflict): the mechanisms the twenty-sixth blind half's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev21.yaml``, whose items are also read one by
one with the other C development items in ``test_detectors_issue22u_conflict.py``). Each mechanism is then
taken out -- a module pattern replaced by the one before it or by one that never (or always) matches, a helper
by one that finds nothing, or one lexicon entry deleted from a copy of the lexicon -- and its item must
flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import NEVER, lexicon_entry_test, module_mechanism_test

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import Lexicon, default_lexicon, detect

pytestmark = pytest.mark.usefixtures("before_round30", "before_round61")
DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV21_FILE).items}
ALWAYS = regex.compile(r"")


def _without(pattern: regex.Pattern, added: str) -> regex.Pattern:
    """The pattern as it was before round 23: the text round 23 added cut out (it must be there once)."""
    assert pattern.pattern.count(added) == 1, added
    return regex.compile(pattern.pattern.replace(added, "", 1), pattern.flags)


CLAUSE_SPLIT_ROUND_22 = _without(detectors._CLAUSE_SPLIT, detectors._AND_VALUE_SOURCE)
RECORD_DATE_ROUND_22 = _without(
    detectors._RECORD_DATE, r"|\b(?:letter|summary|referral|note|notes|list)\s+of\s+"
)
REPORTED_VALUE_ROUND_22 = _without(
    detectors._REPORTED_VALUE, r"|\b(?:result|level|reading|value)s?\b[^.;=\d]{0,30}=\s*$"
)
SAME_OCCASION_ROUND_22 = _without(detectors._SAME_OCCASION, r"|stick|venepuncture|venipuncture|syringe")
HEADING_GAP_ROUND_22 = _without(detectors._HEADING_GAP, r"|\s*:\s*[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?\s+")
WEIGHED_AT_ROUND_22 = _without(
    detectors._WEIGHED_AT,
    r"|\b(?:insists?|says?|said|thinks?|reckons?|states?|estimates?)\s+(?:(?:it'?s|he'?s|she'?s|he\s+is|she\s+is)\s+)?"
    r"(?:nearer|closer\s+to|more\s+like)\s+(?P<amt>\d{2,3}(?:\.\d+)?)\b",
)


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (by default with the lexicon ``detectors.default_lexicon`` returns, which a
    fixture may replace)."""
    lexicon = lexicon or detectors.default_lexicon()
    lexicon.memo.clear()
    return detect(DEV[item_id].text, lexicon).conflict


def test_dev_file_is_conflict_in_the_dev_half_with_paired_near_misses() -> None:
    assert set(DEV) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in DEV.values())
    assert {"agreement", "resolved", "documented_change", "dated_history"} <= {i.kind for i in DEV.values()}
    for item in DEV.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive":
            assert f"{item.id}_n1" in DEV, item.id


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc23_one_drug_status", "_only_drug", lambda *_: ()),
    ("dc23_status_alone", "_NEGATED_OTHER", ALWAYS),  # a drug-less clause's status read for no clause
    ("dc23_status_alone_none_n1", "_NONE_AFTER", NEVER),
    ("dc23_status_decided_n1", "_DECIDED", NEVER),
    ("dc23_status_dated_n1", "_DATE_STATED", NEVER),
    ("dc23_two_names_one_drug", "_DRUG_JOIN", NEVER),
    ("dc23_and_value_source", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_22),
    ("dc23_letter_of_date", "_RECORD_DATE", RECORD_DATE_ROUND_22),
    ("dc23_result_equals", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_22),
    ("dc23_same_stick", "_SAME_OCCASION", SAME_OCCASION_ROUND_22),
    ("dc23_heading_then_source", "_HEADING_GAP", HEADING_GAP_ROUND_22),
    ("dc23_weight_estimate", "_WEIGHED_AT", WEIGHED_AT_ROUND_22),
]


test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)


# (the item, the exact text deleted from a copy of attributes.yaml, what it is replaced by): with the entry
# gone the item must flip
LEXICON_ENTRIES = [
    ("dc23_shorthand_alias", "drug_aliases: {mtx: methotrexate, ", "drug_aliases: {"),
    ("dc23_off_the_letter", "|repeats?|letter|summary|kardex)", "|repeats?)"),
    ("dc23_off_the_letter", r"(?:pt'?s|patient'?s|his|her|their|my)\\s+own\\s+(?:med", r"zz\\s+(?:med"),
    ("dc23_nil_charted", r'"re:\\bnil\\b(?=', r'"re:\\bzz\\b(?='),
    ("dc23_own_doses", r"(?:doing|giving|injecting)\\s+(?:his", r"(?:zz)\\s+(?:his"),
    ("dc23_recent_fill", r"(?:fill|refill|dispensing)\\s+(?:(?:\\d+", r"(?:zz)\\s+(?:(?:\\d+"),
    ("dc23_vitamin_d_n1", r'''"re:\\bd/c(?:'d|-ed|ed)\\b"''', '''"d/c'd", "d/c-ed"'''),
    ("dc23_yellow_book", '"(inr|anticoagulation|anticoagulant|warfarin) book", ', ""),
    ("dc23_yellow_book_colour", '"yellow book", ', ""),
    ("dc23_not_currently_pregnant", r"\\bnot\\s+(?:currently|presently|now|actually)\\s+pregnant", r"\\bzz"),
    ("dc23_status_heading_neg", r"status\\s*[:\\-–—]\\s*(?:[a-z]+\\s+){0,3}(?:neg(?:ative)?|-ve)", "zz"),
    ("dc23_field_pregnant", r"[:=]\\s*(?:currently\\s+)?pregnant\\b(?!", r"zz\\b(?!"),
    (
        "dc23_loss_confirmed_n1",
        r"(?:miscarriage|delivery|termination|pregnancy\\s+loss)\\b[^.;]{0,30}?\\bconfirmed",
        "zz",
    ),
    ("dc23_back_on_n1", r"|put|are|were)\\s+back\\s+on\\b", r"|put|are|were)\\s+zz\\b"),
    ("dc23_since_reaction_n1", r"(?:rash|reaction|anaphylaxis|angioedema|episode)", "(?:zz)"),
    ("dc23_stent_date", '"des", "pci", ', ""),
    ("dc23_platelet_count", ', "platelet count", "platelet"]', "]"),
]


test_each_lexicon_entry_carries_its_item = lexicon_entry_test(
    DEV,
    fires,
    [(i, "attributes.yaml", old, new) for i, old, new in LEXICON_ENTRIES],
)


@pytest.mark.parametrize(
    ("clause", "stopped"),
    [
        ("aspirin d/c'd by the GP", True),
        ("metformin d/c-ed on admission", True),
        ("calcium carbonate with vitamin D", False),  # a bare "D" was read as "d/c'd"
        ("D/C summary lists aspirin", False),  # "d/c" alone is a discharge
    ],
)
def test_dc_shorthand_is_one_word(clause: str, stopped: bool) -> None:
    assert (default_lexicon().attributes.stopped.search(clause) is not None) is stopped  # type: ignore[union-attr]


def test_a_field_that_reads_pregnant_is_not_a_dated_or_sbar_one() -> None:
    """ "flag: PREGNANT" is a pregnancy now; "B: pregnant 2021" (an SBAR background) and "pregnant 2019" are
    not."""
    assert detect(DEV["dc23_field_pregnant"].text).conflict
    assert not detect("B: pregnant 2021 (SVD that year). Today urine hCG neg, agrees not pregnant.").conflict
    assert not detect(DEV["dc23_field_pregnant_n1"].text).conflict


def test_one_drug_keeps_each_of_its_names() -> None:
    """ "insulin degludec" is one drug with two names, each of which another clause may use; a clause with two
    drugs has no one drug."""
    drug = default_lexicon().attributes.drug  # type: ignore[union-attr]
    clause = "Insulin degludec 22 units OD recorded held; aspirin 75 mg"
    assert detectors._only_drug(clause, list(drug.finditer(clause))) == ()
    one = clause.split(";")[0]
    names = detectors._only_drug(one, list(drug.finditer(one)))
    assert [m.group("drug").lower() for m in names] == ["insulin", "degludec"]
