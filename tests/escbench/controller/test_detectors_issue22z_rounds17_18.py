"""Issue 22z rounds 17-18 (conflict): the mechanisms the eighteenth to twentieth blind halves' misses and
false positives showed, read on this project's own wording (``detector_heldout_dev15.yaml`` for round 17,
``detector_heldout_dev16.yaml`` for round 18, whose items are also read one by one with the other C
development items in ``test_detectors_issue22u_conflict.py``). Each
mechanism is then taken out -- a module pattern replaced by the one before it or by one that never matches,
or one lexicon entry deleted from a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import NEVER, lexicon_entry_test

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import Lexicon, default_lexicon, detect

DEV15 = {i.id: i for i in heldout.load_heldout(heldout.DEV15_FILE).items}
DEV16 = {i.id: i for i in heldout.load_heldout(heldout.DEV16_FILE).items}
DEV = DEV15 | DEV16
FLAGS = regex.IGNORECASE | regex.VERSION1
# the patterns as they were before the round that changed them
HEADING_COLON_ROUND_16 = regex.compile(r"\s*:")
SENTENCE_END_ROUND_16 = regex.compile(
    r"(?:(?<!\d)\.(?!\d)|\.(?=\s))(?<!\b(?i:hospital|nhs|chi|tel|phone|ref|case|mrn|bed|room)\s+(?i:no)\.)"
    r"(?<!\b(?i:est|approx|appx)\.)"
    r"|[!?;]|\n\s*\n|\n(?=[ \t]*(?:[A-Z0-9\-•*\[(\"]|$))"
)
CLAUSE_SPLIT_ROUND_16 = regex.compile(
    r",\s+(?:and|while|whereas|but)\s+|\s+(?:but|whereas|while|vs\.?|versus|↔|<->|<>)\s+"
    r"|\s+and\s+(?=as\s+\d)",
    FLAGS,
)
REPORTED_VALUE_ROUND_16 = regex.compile(
    r"\b(?:reads?|reported|reports|says?|said|shows?|showed|gives?|gave|records?|recorded|quotes?|quoted|is|was|of"
    r"|wrote|writes|written)\s*:?\s*$"
    r"|\b(?:result|level|reading|value)s?\s+(?:as|at)\s*$",
    FLAGS,
)
REPORTED_VALUE_ROUND_17 = regex.compile(
    r"\b(?:reads?|reported|reports|says?|said|shows?|showed|gives?|gave|records?|recorded|quotes?|quoted|is|was|of"
    r"|wrote|writes|written|measured|measures|found)\s*:?\s*$"
    r"|\b(?:result|level|reading|value)s?\s+(?:as|at)\s*$",
    FLAGS,
)
SAME_OCCASION_ROUND_17 = regex.compile(
    r"\bsame\s+(?:date|day|sample|specimen|draw|time|tube|collection|visit|result|admission|week|month"
    r"|morning|afternoon|evening|night|hour|shift)\b"
    r"|\bat\s+the\s+same\s+time\b|\bsimultaneous(?:ly)?\b|\bsame[\s-]+day\b"
    r"|\b(?:drawn|taken|sent|collected)\s+together\b",
    FLAGS,
)
BARE_NUMBER_ROUND_17 = regex.compile(
    detectors._BARE_NUMBER.pattern.replace(r"(?![\d:/%]|\.\d|", r"(?![\d.:/%]|", 1), FLAGS
)
SAME_OCCASION_ROUND_16 = regex.compile(
    r"\bsame\s+(?:date|day|sample|specimen|draw|time|tube|collection|visit|result|admission|week|month)\b"
    r"|\bat\s+the\s+same\s+time\b|\bsimultaneous(?:ly)?\b|\bsame[\s-]+day\b"
    r"|\b(?:drawn|taken|sent|collected)\s+together\b",
    FLAGS,
)


# these mechanisms are tested as the detectors read before round 23's general status readings
pytestmark = pytest.mark.usefixtures(
    "before_round23_status", "before_round24_reaction", "before_round30", "before_round31"
)


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (the attribute pairs and the contradiction phrases)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV[item_id].text, lexicon).conflict


@pytest.mark.parametrize("part", [DEV15, DEV16], ids=["dev15", "dev16"])
def test_dev15_and_dev16_are_conflict_in_the_dev_half_with_every_kind(part: dict) -> None:
    assert set(part) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in part.values())
    kinds = {i.kind for i in part.values() if i.kind}
    assert {"agreement", "resolved", "negated"} <= kinds
    for item in part.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive":
            assert f"{item.id}_n1" in part, item.id


# (the positive item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc17_list_heading", "_heading_items", lambda *args: []),
    ("dc17_dash_heading", "_HEADING_COLON", HEADING_COLON_ROUND_16),
    ("dc17_entry_status", "_RECORD_BEFORE", NEVER),
    ("dc17_poss_abbrev", "_SENTENCE_END", SENTENCE_END_ROUND_16),
    ("dc17_and_second_source", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_16),
    ("dc17_measured", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_16),
    ("dc17_same_afternoon", "_SAME_OCCASION", SAME_OCCASION_ROUND_16),
    ("dc17_other_member", "_other_member", lambda *args: False),
    # round 18
    ("dc18_full_stop", "_BARE_NUMBER", BARE_NUMBER_ROUND_17),
    ("dc18_told_us", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_17),
    ("dc18_same_doppler", "_SAME_OCCASION", SAME_OCCASION_ROUND_17),
]


@pytest.mark.parametrize(
    ("item_id", "name", "replacement"), MODULE_MECHANISMS, ids=[f"{i}-{n}" for i, n, _ in MODULE_MECHANISMS]
)
def test_each_module_mechanism_carries_its_item(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    assert DEV[item_id].label == "positive"
    assert fires(item_id)
    monkeypatch.setattr(detectors, name, replacement)
    assert not fires(item_id)


# (the item, the lexicon file, the exact text deleted from a copy of it, what it is replaced by): with the
# entry gone the item must flip
LEXICON_ENTRIES = [
    (
        "dc17_code_full",
        "attributes.yaml",
        # (round 32 added "code status as full" to the same entry)
        r"code(?:\\s+status\\s*[:\\-]?|\\s*[:=]|\\s+status\\s+(?:as|is|was|of))\\s*full",
        r"code\\s+status\\s*full",
    ),
    (
        "dc17_preg_short",
        "attributes.yaml",
        r'"re:\\bpreg(?:nan(?:t|cy)|\\.)?\\s*(?:status|flag)?(?:\\s+on\\s+\\w+)?\\s*(?:[:=?]|\\s-)\\s*(?:no|n|',
        r'"re:\\bpregnan(?:t|cy)\\s*(?:status|flag)?(?:\\s+on\\s+\\w+)?\\s*(?:[:=?]|\\s-)\\s*(?:no|n|',
    ),
    (
        "dc17_denies_any",
        "attributes.yaml",
        '"(denies|denied|denying) (any|a) (pregnancy|current pregnancy)",',
        "",
    ),
    (
        "dc17_poss_abbrev",
        "attributes.yaml",
        r'"re:\\b(?:denies|denied|denying)\\s+(?:any\\s+)?poss\\.',
        r'"re:\\b(?:zz)\\s+(?:any\\s+)?poss\\.',
    ),
    (
        "dc17_hcg_negative",
        "attributes.yaml",
        r"hcg\\s*(?:(?:is|was|test)\\s+)?(?:neg(?:ative)?\\b|-ve\\b)",
        r"zz\\s*(?:(?:is|was|test)\\s+)?(?:neg(?:ative)?\\b|-ve\\b)",
    ),
    ("dc17_hcg_clock", "attributes.yaml", r"(?:[^.;,\\d]|\\d{1,2}:\\d{2}){0,45}?", r"[^.;,\\d]{0,45}?"),
    (
        "dc17_states_months",
        "attributes.yaml",
        r"|(?:states|says|reports)\\s+(?:pt|she|patient)(?:\\s+is)?|(?:my|his|our)",
        "|(?:my|his|our)",
    ),
    (
        "dc17_charted_od",
        "attributes.yaml",
        r'"re:\\bcharted\\s+(?:od|bd|bid|tds|tid|qds|qid|daily|nocte|mane|weekly|regularly)\\b",',
        "",
    ),
    ("dc17_carry_on", "attributes.yaml", '"carry/carrying on (with|taking)", ', ""),
    ("dc17_appears_on", "attributes.yaml", r'"re:\\bappears?\\b(?=', r'"re:\\bzz\\b(?='),
    (
        "dc17_inpatient_resus",
        "attributes.yaml",
        r"(?:drug\\s+|resuscitation\\s+|resus\\s+|dnacpr\\s+|",
        r"(?:drug\\s+|",
    ),
    (
        "dc17_being_replaced",
        "attributes.yaml",
        r'"re:(?<!\\b(?:being|be|getting|get|to\\s+be)\\s)\\breplaced\\b"',
        '"replaced"',
    ),
    (
        "dc17_both_one_side",
        "attributes.yaml",
        r"(?!\\s+(?:the\\s+)?(?:left|right|lt|rt)\\b(?!\\s+and\\b))",
        "",
    ),
    ("dc17_troponin_i", "attributes.yaml", '"troponin i", "troponin t", "hs troponin", ', ""),
    ("dc17_band_no_mark", "attributes.yaml", r"band\\s*[-–—:]?", r"band\\s*[-–—:]"),
    (
        "dc17_record_allergy",
        "attributes.yaml",
        r'"re:\\b(?:record|records|list|profile|chart|ehr|epr|notes|summary|system)\\s+(?:(?:has',
        r'"re:\\bzz\\s+(?:(?:has',
    ),
    (
        "dc17_never_reacted",
        "attributes.yaml",
        r'"re:\\b(?:never|not)\\s+(?:(?:had|having)',
        r'"re:\\bzz\\s+(?:(?:had|having)',
    ),
    (
        "dc17_entry_status",
        "attributes.yaml",
        "|issued|dispensed|collected|ordered|requested|due|records?|items?)",
        "|records?|items?)",
    ),
    ("dc17_reweighed_until", "attributes.yaml", r'"re:\\bre-?weighed\\b(?<!', r'"re:\\bre-?weighed\\b(?<!zz'),
    (
        "dc17_differs_materially",
        "conflict.yaml",
        "(materially|significantly|substantially|markedly|considerably)",
        "(zz)",
    ),
    ("dc17_no_mismatch_n1", "attributes.yaml", '"no (mismatch|mismatches)", ', ""),
    ("dc17_isnt_one_n1", "attributes.yaml", r'"re:\\bthere\\s+(?:isn', r'"re:\\bzz\\s+(?:isn'),
    ("dc17_not_different_n1", "attributes.yaml", r'"re:(?<!\\bnot\\s+)\\bnot\\s+different\\b", ', ""),
    ("dc17_same_now_n1", "attributes.yaml", r'"re:\\b(?:the\\s+)?same\\s+now\\b",', ""),
    (
        "dc17_now_align_n1",
        "attributes.yaml",
        r"(?:the\\s+same|aligns?|aligned|",
        r"(?:the\\s+same|",
    ),
    ("dc17_fixed_it_n1", "attributes.yaml", r'"re:\\bfixed\\s+(?:it|', r'"re:\\bzz\\s+(?:it|'),
    (
        "dc17_been_removed_n1",
        "attributes.yaml",
        r"been\\s+(?:removed|deleted|corrected|amended|fixed)",
        r"been\\s+(?:zz)",
    ),
    ("dc17_differs_materially_n1", "attributes.yaml", ' "only because",', ""),
    (
        "dc17_managed_as_n1",
        "attributes.yaml",
        r'"re:\\bnow\\s+(?:managed|treated',
        r'"re:\\bzz\\s+(?:managed|treated',
    ),
    # round 18
    ("dc18_mtx", "attributes.yaml", "  mtx,\n", "  zz,\n"),
    ("dc18_kardex", "attributes.yaml", '"kardex", "armband",', ""),
    (
        "dc18_given_clock",
        "attributes.yaml",
        r'"re:\\bgiven\\s+(?:at\\s+)?(?:[01]',
        r'"re:\\bzz\\s+(?:at\\s+)?(?:[01]',
    ),
    (
        "dc18_contains_no",
        "attributes.yaml",
        r'"re:\\b(?:contains?|contained|has|have|had)\\s+no\\b',
        r'"re:\\bzz\\s+no\\b',
    ),
    ("dc18_angioedema_on", "attributes.yaml", '"(angioedema|angiooedema|anaphylaxis) on",', ""),
    (
        "dc18_recorded_as",
        "attributes.yaml",
        r"(?:recorded|listed|documented|given|coded)\\s+as\\b(?!",
        r"(?:zz)\\s+as\\b(?!",
    ),
    (
        "dc18_no_previous_reaction",
        "attributes.yaml",
        r'"re:\\bno\\s+(?:previous|prior)\\s+',
        r'"re:\\bno\\s+(?:zz)\\s+',
    ),
    ("dc18_iup", "attributes.yaml", r'"re:\\b(?-i:IUP)\\b",', ""),
    (
        "dc18_everything_done",
        "attributes.yaml",
        r"\\s+everything\\s+(?:done|possible)",
        r"\\s+zz\\s+(?:done|possible)",
    ),
    ("dc18_isnt_what", "conflict.yaml", r"\\s+what\\s+(?:the|they", r"\\s+zz\\s+(?:the|they"),
    # (round 33 added what follows "concordant" in the entry)
    (
        "dc18_concordant_n1",
        "attributes.yaml",
        "|equivalent|concordant(?!\\\\s+(?:(?:prior|previous|historical|historic|earlier)\\\\s+)?(?:groups?|groupings?"
        "|results?|samples?|readings?|values?)\\\\b)|",
        "|equivalent|",
    ),
    (
        "dc18_been_fixed_n1",
        "attributes.yaml",
        "removed|deleted|corrected|amended|fixed)",
        "removed|deleted|corrected|amended)",
    ),
    (
        "dc18_was_mistake_n1",
        "attributes.yaml",
        r'"re:\\b(?:was|were)\\s+(?:a|an|their|our|his|her|my)\\s+(?:[\\w-]+\\s+)?(?:mistake|error)\\b",',
        "",
    ),
    ("dc18_fine_now_n1", "attributes.yaml", r"(?:fine|ok|okay|sorted)\\s+now", r"(?:zz)\\s+now"),
    (
        "dc18_nothing_contradictory_n1",
        "attributes.yaml",
        r"\\bnothing\\s+(?:contradictory",
        r"\\bzz\\s+(?:contradictory",
    ),
]


test_each_lexicon_entry_carries_its_item = lexicon_entry_test(
    DEV, fires, LEXICON_ENTRIES, ids=[i for i, *_ in LEXICON_ENTRIES]
)


def test_a_list_heading_reaches_only_entries_that_state_its_attribute(fresh_memo: None) -> None:
    """An entry read under the heading must state the attribute and key the heading's own entry states: a
    second analyte in the list is not the heading's ("Potassium: 5.9 (VBG) / urea 7.1 (lab)")."""
    assert detect(DEV["dc17_list_heading"].text).conflict
    assert not detect("Potassium: 5.9 mmol/L (VBG) / urea 7.1 mmol/L (lab chemistry).").conflict
    assert not detect("Potassium: 5.9 (VBG). 4.2 mmol/L (lab chemistry) was last week's.").conflict


def test_two_members_of_one_class_but_not_a_class_and_its_member(fresh_memo: None) -> None:
    """Clarithromycin against erythromycin is a dispute over which drug; "penicillin" (or "PCN") against
    amoxicillin names the class and its member, which agree."""
    assert detect(
        "GP record allergy: clarithromycin (rash); hospital record allergy: erythromycin (rash)."
    ).conflict
    assert not detect("GP record allergy: PCN (rash); hospital record allergy: amoxicillin (rash).").conflict
    assert not detect(
        "GP record allergy: penicillin (rash); hospital record allergy: amoxicillin (rash)."
    ).conflict
