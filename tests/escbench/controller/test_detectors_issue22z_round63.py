"""Issue 22z round 63 (all three detectors): the mechanisms blind half 72's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev61.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 63, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import (
    IMPLIED_DOSE_ROUND_63,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import LEXICON_DIR, load_lexicon

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV61_FILE).items}

# the patterns as they were before round 63 (without their additions)
CHANGE_DENIED_ROUND_62 = pattern_before(detectors._CHANGE_DENIED, r"(?:\s+(?:a|an|any|the))?")
IMPLIED_DOSE_ROUND_62 = pattern_before(detectors._IMPLIED_DOSE, IMPLIED_DOSE_ROUND_63)
LIMB_BRACKET_ROUND_62 = pattern_before(
    detectors._LIMB_BRACKET, r"(?:\s+(?:per|according\s+to)\s+(?:the\s+|her\s+|his\s+)?[\w-]+)?"
)
ALLERGEN_THEN_REACTION_ROUND_62 = pattern_before(
    pattern_before(
        detectors._ALLERGEN_THEN_REACTION,
        r"(?:\s+(?:antibiotics?|drugs?|medications?|medicines?|tablets?|tabs|injections?|class))?",
    ),
    "–—",
)
REACTION_YEAR_ROUND_62 = pattern_before(detectors._REACTION_YEAR, r"|\(\s*(?:in\s+)?(?:19|20)\d\d\s*\)")
ELLIPTIC_DENIAL_ROUND_62 = pattern_before(
    detectors._ELLIPTIC_DENIAL,
    r"|^\s*(?:but\s+)?(?:the\s+)?(?:patient|she|he)\s+(?:(?:flatly|firmly|strongly)\s+)?(?:denies|denied)"
    r"(?:\s+(?:this|it|that))?\s*$",
)
REPORTED_VALUE_ROUND_62 = pattern_before(
    detectors._REPORTED_VALUE,
    r"|(?:finger[\s-]?(?:prick|stick)|fingerprick|fingerstick|capillary|heel[\s-]?prick)(?:\s+(?:sample|test|check|reading))?"
    r"(?:\s+(?:today|yesterday|this\s+(?:am|morning|afternoon|evening)|last\s+night))?",
)
REPORTING_ROUND_62 = pattern_before(
    detectors._REPORTING, rf"|(?:has|have)(?=\s+(?:{detectors._DATE_STATED.pattern})))", ")"
)
SENTENCE_OPENS_IN_PAST_ROUND_62 = pattern_before(
    detectors._SENTENCE_OPENS_IN_PAST,
    r"|(?:back\s+)?when\s+(?:i|he|she|they|we)\s+(?:was|were)\s+(?:a\s+(?:child|baby|toddler|teenager|teen|kid)"
    r"|(?:very\s+)?(?:little|young|small)|\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|thirteen|fourteen|fifteen|sixteen|seventeen)\b(?!\s+(?:weeks?|days?)\b)",
)


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc63_nobody_informed_of_a_change", "_CHANGE_DENIED", CHANGE_DENIED_ROUND_62),
    ("dc63_insulin_u_spaced", "_IMPLIED_DOSE", IMPLIED_DOSE_ROUND_62),
    ("dc63_limb_reason_after_source", "_LIMB_BRACKET", LIMB_BRACKET_ROUND_62),
    ("dc63_date_in_words_entry", "_REPORTING", REPORTING_ROUND_62),
    ("dc63_class_noun_dash", "_ALLERGEN_THEN_REACTION", ALLERGEN_THEN_REACTION_ROUND_62),
    ("dc63_reaction_year_bracket", "_REACTION_YEAR", REACTION_YEAR_ROUND_62),
    ("dc63_patient_denies_it", "_ELLIPTIC_DENIAL", ELLIPTIC_DENIAL_ROUND_62),
    ("dc63_fingerprick_value", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_62),
    ("dh63_when_i_was_twelve", "_SENTENCE_OPENS_IN_PAST", SENTENCE_OPENS_IN_PAST_ROUND_62),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc63_surgery_possessive",
        "attributes.yaml",
        r'"re:\\bsurgery\\b(?!',
        r'"surgery", "re:\\bzzq\\b(?!',
    ),
    (
        "dc63_following_discussion",
        "attributes.yaml",
        r'"re:\\b(?:after|following)\\s+(?:a\\s+|further\\s+|(?:a\\s+)?(?:long',
        r'"re:\\bafter\\s+(?:a\\s+|further\\s+|(?:a\\s+)?(?:long',
    ),
    (
        "dc63_hcg_charted_positive",
        "attributes.yaml",
        r'"re:\\b(?:hcg|upt)\\b[^.;,]{0,40}?\\b(?:recorded|documented|resulted|logged|charted)\\s+(?:pos',
        r'"re:\\bzzq\\b[^.;,]{0,40}?\\b(?:recorded|documented|resulted|logged|charted)\\s+(?:pos',
    ),
    (
        "dc63_other_patients_blood",
        "attributes.yaml",
        r'"re:\\b(?:confirmed|established|found|showed|shown)\\b[^.;\\n]{0,50}?',
        r'"re:\\bzzq\\b[^.;\\n]{0,50}?',
    ),
    (
        "dh63_headache_after_fell",
        "high_risk.yaml",
        r'"re:\\bheadache\\b[^.;\\n]{0,30}?\\b(?:since|after)',
        r'"re:\\bzzq\\b[^.;\\n]{0,30}?\\b(?:since|after)',
    ),
    (
        "dh63_navel_then_shifted",
        "high_risk.yaml",
        r"(?:belly\\s+button|navel|umbilicus)\\s+(?:and\\s+)?(?:then\\s+)?(?:moved",
        r"(?:zzq)\\s+(?:and\\s+)?(?:then\\s+)?(?:moved",
    ),
    (
        "dh63_epistaxis_x_minutes",
        "high_risk.yaml",
        r"|(?<![a-z])[x×]\\s*)(?:[2-9]\\d",
        r")(?:[2-9]\\d",
    ),
    (
        "dh63_dressing_soaked_through",
        "high_risk.yaml",
        r'"re:\\b(?:dressings?|bandages?)\\s+(?:(?:has|have|had)',
        r'"re:\\bzzq\\s+(?:(?:has|have|had)',
    ),
    (
        "dh63_bp_with_proteinuria",
        "high_risk.yaml",
        r'"re:\\bprotein(?:uria)?\\b(?:(?<=',
        r'"re:\\bzzq\\b(?:(?<=',
    ),
    (
        "dh63_same_as_letters",
        "modifiers.yaml",
        r"|(?:(?:clinic|outpatient|neurology|specialist|annual)\\s+)?(?:letters|reviews|visits|appointments|clinics))\\b",
        r")\\b",
    ),
    (
        "dh63_chronic_ampersand",
        "modifiers.yaml",
        r'"re:(?<!\\bon\\s)\\bchronic(?:\\s+[a-z]+){1,3}\\s*[+&]\\s*$"',
        r'"re:\\bzzq\\b"',
    ),
    (
        "dm63_list_closes_on_issues",
        "missing.yaml",
        r"(?!\\s*,\\s*(?:[\\w-]+\\s*,\\s*)*[\\w-]+\\s+(?:or|and|nor)\\s+[\\w-]+\\s+(?:ambiguity|confusion|discrepanc(?:y|ies)"
        r"|issues?|concerns?|problems?|errors?|quer(?:y|ies))\\b)",
        "",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)


def test_a_patient_said_to_be_off_a_class_stops_each_member_named_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round 63: "he's been off insulin" stops the degludec another source lists. The pattern is compiled
    into the lexicon's class patterns, so it is taken out by rebuilding the lexicon without it."""
    assert detectors._class_absent("insulin").search("his wife says he's been off insulin since the summer")
    assert fires("dc63_hes_off_class")
    round_63 = detectors._class_absent

    def class_absent_round_62(names: str) -> regex.Pattern:
        pattern = round_63(names)
        added = (
            r"|(?<=\b(?:(?:he|she|they|i)['’]?(?:s|re|m)|hes|shes|(?:he|she)\s+is|they\s+are|i\s+am)"
            r"(?:\s+(?:now|been))?\s)off"
        )
        return pattern_before(pattern, added)

    monkeypatch.setattr(detectors, "_class_absent", class_absent_round_62)
    assert not fires("dc63_hes_off_class", load_lexicon(LEXICON_DIR))


def test_pre_eclampsia_needs_a_pregnancy_named_before() -> None:
    """Round 63's guard: the same pressure and proteinuria in a woman not pregnant is no obstetric sign."""
    assert fires("dh63_bp_with_proteinuria")
    assert not fires("dh63_proteinuria_not_pregnant")
