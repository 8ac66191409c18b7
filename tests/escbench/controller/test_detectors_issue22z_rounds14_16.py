"""Issue 22z rounds 14-16 (conflict): the mechanisms the fourteenth, sixteenth and seventeenth blind halves'
misses showed, read on this project's own wording (``detector_heldout_dev14.yaml``, whose items are also read
one by one with the other C development items in ``test_detectors_issue22u_conflict.py``). Each mechanism is
then taken out -- a module pattern replaced by the one before it or by one that never matches, or one lexicon
entry deleted from a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import NEVER, lexicon_entry_test

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import Lexicon, default_lexicon, detect

DEV14 = {i.id: i for i in heldout.load_heldout(heldout.DEV14_FILE).items}
FLAGS = regex.IGNORECASE | regex.VERSION1
# the patterns as they were before the round that changed them
CLAUSE_SPLIT_ROUND_13 = regex.compile(
    r",\s+(?:and|while|whereas|but)\s+|\s+(?:but|whereas|while|vs\.?|versus)\s+|\s+and\s+(?=as\s+\d)", FLAGS
)

COMMA_ROUND_14 = regex.compile(r",(?=\s)\s*|\s+[-–—/]\s+", FLAGS)
COUNT_ROUND_15 = regex.compile(r"\b(?P<n>two|three|four|2|3|4)\s*(?:x\s*|(?P<of>(?!)))?$", FLAGS)
MILD_ROUND_15 = regex.compile(
    r"\bmild\s+(?:\w+\s+)?(?:rash|itch\w*|hives|urticaria|reaction)\b|\bnausea\b|\b(?:gi|stomach|tummy)\s+upset\b"
    r"|\bupset\s+stomach\b|\bintoleran(?:ce|t)\b|\bdiarrh?o?ea\b|\bside[\s-]+effects?\b",
    FLAGS,
)
SENTENCE_END_ROUND_14 = regex.compile(
    r"(?:(?<!\d)\.(?!\d)|\.(?=\s))(?<!\b(?i:hospital|nhs|chi|tel|phone|ref|case|mrn|bed|room)\s+(?i:no)\.)"
    r"|[!?;]|\n\s*\n|\n(?=[ \t]*(?:[A-Z0-9\-•*\[(\"]|$))"
)
SAME_LENGTH_ROUND_14 = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-"})


# these mechanisms are tested as the detectors read before round 23's general status readings
pytestmark = pytest.mark.usefixtures("before_round23_status", "before_round29_record")


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (the attribute pairs and the contradiction phrases)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV14[item_id].text, lexicon).conflict


def test_dev14_is_conflict_in_the_dev_half_with_every_kind() -> None:
    assert set(DEV14) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in DEV14.values())
    kinds = {i.kind for i in DEV14.values() if i.kind}
    assert {"agreement", "resolved", "dated_history", "documented_change", "negated"} <= kinds
    for item in DEV14.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive":
            assert f"{item.id}_n1" in DEV14, item.id


# (the positive item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    # round 14
    ("dc14_arrow", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_13),
    ("dc14_among_list", "_AMONG_BEFORE", NEVER),
    ("dc14_regimen_status", "_REGIMEN_OBJECT", NEVER),
    # dc14_reaction_caused ("naproxen caused angioedema"): read since round 19 by two mechanisms, see
    # test_detectors_issue22z_rounds19_20.py
    ("dc14_allergy_only", "_ONLY_AFTER", regex.compile(r"\s+only\b", FLAGS)),
    ("dc14_rh_heading", "_SIGN_ALONE", NEVER),
    ("dc14_same_sample_value", "_SAME_OCCASION", NEVER),
    ("dc14_has_it_as_year", "_IT_AS", NEVER),
    # round 15
    ("dc15_change_not_made", "_CHANGE_NOT_MADE", NEVER),
    ("dc15_minus_sign", "_SAME_LENGTH", SAME_LENGTH_ROUND_14),
    ("dc15_and_as_reaction", "_COMMA", COMMA_ROUND_14),
    ("dc15_heading_value", "_HEADING_GAP", NEVER),
    ("dc15_estimate", "_SENTENCE_END", SENTENCE_END_ROUND_14),
    # round 16
    ("dc16_two_of_the", "_COUNT_BEFORE", COUNT_ROUND_15),
    ("dc16_says_year", "_SAYS_YEAR", NEVER),
    ("dc16_swapped_dates", "_swapped_numeric", lambda first, second: False),
    ("dc16_od_os", "_EYE_LATIN", NEVER),
    ("dc16_itch_only", "_REACTION_GRADES", (("severe", detectors._SEVERE_REACTION), ("mild", MILD_ROUND_15))),
    ("dc16_bare_strength", "_BARE_DOSE", NEVER),
]


# round 17: "RhD: positive per booking bloods, negative per transfusion lab" is also read under its heading
SECOND_PATH = {"dc14_rh_heading": "_heading_items"}


@pytest.mark.parametrize(
    ("item_id", "name", "replacement"), MODULE_MECHANISMS, ids=[f"{i}-{n}" for i, n, _ in MODULE_MECHANISMS]
)
def test_each_module_mechanism_carries_its_item(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    assert DEV14[item_id].label == "positive"
    assert fires(item_id)
    monkeypatch.setattr(detectors, name, replacement)
    if item_id in SECOND_PATH:  # round 17's list heading reads the item too: the mechanism is checked alone
        monkeypatch.setattr(detectors, SECOND_PATH[item_id], lambda *args: [])
    assert not fires(item_id)


# (the item, the lexicon file, the exact text deleted from a copy of it, what it is replaced by): with the
# entry gone the item must flip
LEXICON_ENTRIES = [
    # round 14
    (
        "dc14_no_outstanding_n1",
        "attributes.yaml",
        '"no (outstanding|remaining|further|other) (discrepancy|discrepancies|conflict)", ',
        "",
    ),
    ("dc14_no_difference_n1", "attributes.yaml", '"no (difference|differences) between",', ""),
    ("dc14_both_now_match_n1", "attributes.yaml", r"(?:both\\s+|all\\s+|now\\s+)*", r"(?:both\\s+|all\\s+)?"),
    (
        "dc14_mismatch_reconciled_n1",
        "attributes.yaml",
        r"(?:mismatch|discrepancy|difference|query)\\s+(?:was",
        "zz(?:",
    ),
    (
        "dc14_consistent_with_group",
        "attributes.yaml",
        r"consistent(?!\\s+with\\s+(?:(?:group|type)\\s+)?(?:(?-i:AB|A|B|O)\\b|\\d))",
        "consistent",
    ),
    (
        "dc14_label_removed_n1",
        "attributes.yaml",
        r"[^.;\\n]{0,60}?\\bin\\s+(?:(?:jan",
        r"[^.;\\n]{0,60}?\\bzz\\s+(?:(?:jan",
    ),
    (
        "dc14_negative_challenge_n1",
        "attributes.yaml",
        r'"re:\\bafter\\s+(?:an?\\s+)?(?:negative|uneventful|tolerated|passed)\\b[^.;\\n]{0,40}?\\bchallenge\\b",',
        "",
    ),
    (
        "dc14_old_list_differs_n1",
        "attributes.yaml",
        r"\\bdiffer(?:s|ed)?\\s+from\\s+(?:today",
        r"\\bzz\\s+from\\s+(?:today",
    ),
    (
        "dc14_since_entered_n1",
        "attributes.yaml",
        r'"re:\\b(?:now|since|subsequently)\\s+',
        r'"re:\\b(?:zz)\\s+',
    ),
    (
        "dc14_not_on_list",
        "attributes.yaml",
        r"\\bnot\\s+on\\s+(?:(?:the|his",
        r"\\bzz\\s+on\\s+(?:(?:the|his",
    ),
    ("dc14_allergy_blank", "attributes.yaml", r"(?:none|nil|blank|empty)\\b", r"(?:none|nil)\\b"),
    (
        "dc14_ceiling",
        "attributes.yaml",
        r'"re:\\bward[\\s-]+(?:based|level)',
        r'"re:\\bzz[\\s-]+(?:based|level)',
    ),
    ("dc14_denies_possibility", "attributes.yaml", "(any)? (poss|possibility|chance|likelihood)", "(zz)"),
    (
        "dc14_upt_in",
        "attributes.yaml",
        r"(?:hcg|upt)\\s+(?:at|in|on|from|this|today)\\b(?:\\s+[a-z]+){0,2}?\\s+(?:is\\s+|was\\s+)?pos",
        r"(?:hcg)\\s+(?:at|in|on|from|this|today)\\b(?:\\s+[a-z]+){0,2}?\\s+(?:is\\s+|was\\s+)?pos",
    ),
    # round 15
    ("dc15_which_is_why_n1", "attributes.yaml", '"which is why", "that is why", "that\'s why",', ""),
    ("dc15_reclassified_n1", "attributes.yaml", '"reclassified/re-classified/regrouped/re-grouped",', ""),
    ("dc15_dosette", "attributes.yaml", r'"re:\\bstill\\s+in\\s+(?:the', r'"re:\\bzz\\s+in\\s+(?:the'),
    ("dc15_cpr_field", "attributes.yaml", r'"re:\\bcpr\\s*[:=?]\\s*(?:yes|y)\\b", ', ""),
    ("dc15_fall_weekday", "attributes.yaml", r'"re:\\b(?:fell|went\\s+down)\\b', r'"re:\\b(?:zz)\\b'),
    # round 16
    (
        "dc16_last_filled",
        "attributes.yaml",
        r"(?<!\\b(?:filled|dispensed|supplied|collected|issued|refilled)",
        "(?<!zz",
    ),
    (
        "dc16_then_narrative",
        "attributes.yaml",
        # (round 51 added its clause-closing exception to the same entry)
        r'"re:\\bthen\\b(?!\\s+(?:the|a|an|my|his|her|their|i|she|he|they|we|you|it|straight|later|at)\\b)'
        r'(?!\\s*(?:[,.;:!?)]|$))",',
        '"then",',
    ),
    (
        "dc16_its_only_since_n1",
        "conflict.yaml",
        r"only(?!\\s+(?:since|been|after|when|recently|from|for)\\b)",
        "only",
    ),
    ("dc16_cos_changed_n1", "attributes.yaml", "(?:because|cos|coz|cuz|'cause)", "(?:because)"),
    (
        "dc16_diuresis_n1",
        "attributes.yaml",
        '"after (diuresis|offloading|paracentesis|drainage|iv diuretics|diuretics)",',
        "",
    ),
    ("dc16_clarified_n1", "attributes.yaml", r'"re:\\bclarified(?<!', r'"re:\\bzzclarified(?<!'),
    (
        "dc16_does_not_n1",
        "attributes.yaml",
        r'"re:\\b(?:it|they)\\s+(?:does|do)\\s*(?:not|n',
        r'"re:\\b(?:zz)\\s+(?:does|do)\\s*(?:not|n',
    ),
    ("dc16_aed_class", "attributes.yaml", '"seizure medication/medications/meds", ', ""),
    ("dc16_never_started", "attributes.yaml", '"bisphosphonate/bisphosphonates", ', ""),
]


test_each_lexicon_entry_carries_its_item = lexicon_entry_test(
    DEV14, fires, LEXICON_ENTRIES, ids=[i for i, *_ in LEXICON_ENTRIES]
)


def test_a_change_before_a_semicolon_explains_the_stale_record(fresh_memo: None) -> None:
    """The change stated before a semicolon explains the record that still shows the old dose; after a
    full stop it is another sentence's, and the stale record stands alone."""
    text = DEV14["dc14_semicolon_change_n1"].text
    assert not detect(text).conflict
    assert detect(text.replace("; the repeat slip", ". The repeat slip")).conflict


def test_a_population_a_guideline_speaks_of_has_no_rhd_type(fresh_memo: None) -> None:
    """'Rh-negative patients are flagged for anti-D' is guidance, not this patient's RhD type."""
    guidance = (
        "Rh-negative patients are flagged for anti-D; her group is A RhD positive per the transfusion lab."
    )
    assert not detect(guidance).conflict
    assert detect(
        "Rh-negative per the booking bloods; her group is A RhD positive per the transfusion lab."
    ).conflict


def test_no_other_active_medications_is_no_status_of_the_drug(fresh_memo: None) -> None:
    """A summary's 'no other active medications' says nothing of the one drug it filled."""
    filled = "Pharmacy feed: filled today as amoxicillin 500 mg TDS; no other active medications."
    assert not detect(filled).conflict
