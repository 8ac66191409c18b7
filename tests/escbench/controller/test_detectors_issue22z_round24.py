"""Issue 22z round 24 (conflict): the mechanisms blind halves 27-30's misses and false positives showed, read
on this project's own wording (``detector_heldout_dev22.yaml``, whose items are also read one by one with the
other C development items in ``test_detectors_issue22u_conflict.py``). Each mechanism is then taken out -- a
module pattern replaced by the one before it or by one that never matches, a helper by one that finds nothing,
or one lexicon entry deleted from a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import NEVER, lexicon_entry_test, module_mechanism_test

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import Lexicon, default_lexicon, detect

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV22_FILE).items}
# round 25's laboratory readings cover the "same am" item: round 24's mechanisms are tested as read before it
pytestmark = pytest.mark.usefixtures("before_round25_lab", "before_round30")


def _swapped(pattern: regex.Pattern, new: str, old: str) -> regex.Pattern:
    """The pattern as it was before round 24: the text round 24 wrote put back (it must be there once)."""
    assert pattern.pattern.count(new) == 1, new
    return regex.compile(pattern.pattern.replace(new, old, 1), pattern.flags)


SAME_OCCASION_ROUND_23 = _swapped(detectors._SAME_OCCASION, "|am|pm", "")
IMPLIED_DOSE_ROUND_23 = _swapped(detectors._IMPLIED_DOSE, r"(?!\s*/(?!\s*(?:day|d)\b))", r"(?!\s*/)")
GESTATION_ROUND_23 = _swapped(detectors._GESTATION, r"|pregnancy\s+of", "")


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV[item_id].text, lexicon).conflict


def test_dev_file_is_conflict_in_the_dev_half_with_paired_near_misses() -> None:
    assert set(DEV) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in DEV.values())
    assert {"agreement", "resolved", "documented_change", "negated"} <= {i.kind for i in DEV.values()}
    for item in DEV.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive":
            assert f"{item.id}_n1" in DEV, item.id


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc24_same_am", "_SAME_OCCASION", SAME_OCCASION_ROUND_23),
    ("dc24_analyte_date", "_SAMPLE_DATE", NEVER),
    ("dc24_op_note_dated", "_PROCEDURE_RECORD", NEVER),
    ("dc24_dose_per_day", "_IMPLIED_DOSE", IMPLIED_DOSE_ROUND_23),
    ("dc24_allergen_reaction", "_reaction_of", lambda *_: False),
    ("dc24_empty_entry", "_EMPTY_ENTRY", NEVER),
    ("dc24_pregnancy_of_weeks", "_GESTATION", GESTATION_ROUND_23),
]


test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)


# (the item, the lexicon file, the exact text replaced in a copy of it, what replaces it): with the entry gone
# the item must flip
LEXICON_ENTRIES = [
    (
        "dc24_not_to_attempt",
        "attributes.yaml",
        '"not to attempt (cpr|resuscitation|cardiopulmonary resuscitation)",',
        "",
    ),
    ("dc24_check_before", "attributes.yaml", r'"re:\\bbefore\\b(?<!', r'"before", "re:\\bzz\\b(?<!'),
    (
        "dc24_hcg_far",
        "attributes.yaml",
        r"(?:[^.;,\\d]|\\d{1,2}:\\d{2}){0,45}?",
        r"(?:[^.;,\\d]|\\d{1,2}:\\d{2}){0,30}?",
    ),
    (
        "dc24_because_changed_n1",
        "attributes.yaml",
        r'"re:\\bbecause\\b[^.;\\n]{0,60}?',
        r'"re:\\bzz\\b[^.;\\n]{0,60}?',
    ),
    (
        "dc24_corrected_last_n1",
        "attributes.yaml",
        r'"re:\\b(?:wrong\\s+(?:chart|patient',
        r'"re:\\bzz\\b(?:wrong\\s+(?:chart|patient',
    ),
    (
        "dc24_added_after_reaction_n1",
        "attributes.yaml",
        r'"re:\\b(?:added|recorded|documented)\\b[^.;',
        r'"re:zz[^.;',
    ),
    ("dc24_differ_as_to", "conflict.yaml", '      - "differ/differed (as to|on|about|over|regarding)"\n', ""),
    (
        "dc24_not_like_it_says",
        "conflict.yaml",
        r'"re:\\bnot\\b[^.;\\n]{1,40}\\b(?:like|as)\\s+',
        r'"re:\\bzz\\b[^.;\\n]{1,40}\\b(?:like|as)\\s+',
    ),
]


test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)


def test_not_to_attempt_cpr_is_no_full_code() -> None:
    """ "a recommendation not to attempt CPR" is a DNACPR decision: not also the POLST's "Attempt CPR"."""
    clause = "ReSPECT form records a recommendation not to attempt CPR"
    values = dict(default_lexicon().attributes.categorical)["code_status"]  # type: ignore[union-attr]
    assert [value for value, pattern in values if pattern.search(clause)] == ["dnr"]


@pytest.mark.parametrize(
    ("clause", "dose"),
    [("clinic record 800 mg/day", 800.0), ("enoxaparin 1 mg/kg", None), ("oral solution 5 mg/ml", None)],
)
def test_a_dose_per_day_is_a_dose_not_a_dose_per_kg_or_a_strength(clause: str, dose: float | None) -> None:
    match = detectors._IMPLIED_DOSE.search(clause)
    assert (float(match.group("amt")) if match else None) == dose


@pytest.mark.parametrize(
    ("text", "fired"),
    [
        ("Referral letter: penicillin anaphylaxis. GP record: NKDA.", True),
        ("Referral letter: anaphylaxis to penicillin. GP record: NKDA.", True),
        # a severe reaction beside another drug is not that drug's allergy
        (
            "Referral letter: anaphylaxis in 2019, penicillin given since without problems. GP record: NKDA.",
            False,
        ),
    ],
)
def test_a_severe_reaction_is_an_allergy_only_beside_its_allergen(text: str, fired: bool) -> None:
    assert detect(text).conflict is fired
