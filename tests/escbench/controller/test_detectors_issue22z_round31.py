"""Issue 22z round 31 (all three detectors): the mechanisms blind half 40's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev29.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 31 or by a pattern that
never matches, or one lexicon entry made to match nothing in a copy of the lexicon -- and its item must
flip."""

from __future__ import annotations

import pytest
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    implied_dose_round_30,
    lexicon_entry_test,
    module_mechanism_test,
)

from escbench_inspect.controller import detectors, heldout

pytestmark = pytest.mark.usefixtures("before_round54_condition")

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV29_FILE).items}
# the pattern as it was before round 31
IMPLIED_DOSE_ROUND_30 = implied_dose_round_30(detectors._IMPLIED_DOSE)


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_the_round_30_pattern_rebuilt_here_differs_from_round_31() -> None:
    """The "before" pattern above is what round 31 changed, not a copy of the current one."""
    assert IMPLIED_DOSE_ROUND_30.pattern != detectors._IMPLIED_DOSE.pattern
    assert not IMPLIED_DOSE_ROUND_30.search("he only does 6u")
    assert detectors._IMPLIED_DOSE.search("he only does 6u")


def test_a_reporting_verb_ends_a_history_but_not_a_drug_report() -> None:
    """Round 31: "reports" starts what the patient has now, after a history cue; a drug label's "spontaneous
    reports of serotonin syndrome" stays a report about other patients."""
    assert detectors.detect("h/o asthma, reports chest pain radiating to the jaw since 10:00").high_risk
    assert not detectors.detect("Label: spontaneous reports of serotonin syndrome with linezolid.").high_risk


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh31_ring_111_n1", "_PHONED", NEVER),
    ("dc31_until_year_n1", "_UNTIL_YEAR", NEVER),
    ("dc31_units_against_number", "_IMPLIED_DOSE", IMPLIED_DOSE_ROUND_30),
    ("dc31_change_between_n1", "_CHANGED_BETWEEN", 0),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc31_thats_not_what",
        "conflict.yaml",
        r"|are\\s+not|that'?s\\s+not|thats\\s+not)\\s+what",
        r"|are\\s+not)\\s+what",
    ),
    ("dc31_digits_transposed_n1", "attributes.yaml", r"\\b(?:digits?\\s+transposed|", r"\\b(?:zzq|"),
    ("dc31_expected_fall_n1", "attributes.yaml", r"\\bexpected\\s+(?:fall|drop", r"\\bzzq\\s+(?:fall|drop"),
    ("dc31_repeat_record", "attributes.yaml", "|requested|due|records?|items?)", "|requested|due)"),
    (
        "dm31_dont_know_strength",
        "missing.yaml",
        r"\\s+know\\s+(?:if|whether)\\s+(?:it'?s",
        r"\\s+zzq\\s+(?:if|whether)\\s+(?:it'?s",
    ),
    (
        "dm31_not_in_the_notes",
        "missing.yaml",
        r"\\s+(?:[\\w-]+\\s+)?(?:notes|letter|summary|records?|referral",
        r"\\s+(?:zzq",
    ),
    (
        "dm31_no_measured_weight",
        "missing.yaml",
        r"\\bno\\s+(?:measured|recorded|actual",
        r"\\bzzq\\s+(?:measured|recorded|actual",
    ),
    (
        "dh31_not_the_usual",
        "modifiers.yaml",
        r"\\bnot\\s+(?:like\\s+)?(?:her|his|my|their|the|your)\\s+usual",
        r"\\bzzq",
    ),
    ("dh31_reports_after_history", "modifiers.yaml", r"\\b(?:reports|reporting)\\b(?!", r"\\b(?:zzq)\\b(?!"),
    (
        "dh31_requesting_after_history",
        "modifiers.yaml",
        r"\\b(?:requesting|complains",
        r"\\b(?:zzq|complains",
    ),
    ("dh31_screen_for_n1", "modifiers.yaml", "|requested|for)", "|requested)"),
    (
        "dh31_relative_has_had_this",
        "modifiers.yaml",
        r"|developed|suffered|was\\s+diagnosed|presented)\\b(?!\\s+(?:this|these)\\b)",
        r"|developed|suffered|was\\s+diagnosed|presented)\\b",
    ),
    (
        "dh31_relative_has_had_this",
        "modifiers.yaml",
        # (round 33 added lost, developed and suffered to the entry, round 52 "was diagnosed")
        r"(?:had|died|with|lost|developed|suffered|was\\s+diagnosed)\\b(?!\\s+(?:this|these)\\b)",
        r"(?:had|died|with|lost|developed|suffered|was\\s+diagnosed)\\b",
    ),
    (
        "dh31_spouse_died_of_n1",
        "modifiers.yaml",
        r"(?:husband|wife|partner|spouse)\\s+(?:died",
        r"(?:zzq)\\s+(?:died",
    ),
    ("dh31_aneurysm_coiled_n1", "modifiers.yaml", r"(?:coiled|clipped|repaired)", "(?:zzq)"),
    ("dh31_year_then_bracket_n1", "modifiers.yaml", r'"re:\\b(?:19|20)\\d\\d\\s*\\(\\s*$"', '"zzq"'),
    ("dh31_face_puffed_up", "high_risk.yaml", r"|puffy|puffed\\s+(?:right\\s+)?up|", "|puffy|"),
    ("dh31_really_bad_headache", "high_risk.yaml", r"(?:really|very|so)\\s+bad\\s+headache", "zzq"),
    ("dh31_vision_sparkly", "high_risk.yaml", r"\\bsparkl\\w*", r"\\bzzq"),
    ("dh31_wish_to_die", "high_risk.yaml", r"(?:wish|wishes|wishing|wanting)\\s+to\\s+die", "zzq"),
    ("dh31_splint_fitting_n1", "high_risk.yaml", r"(?<!\\b(?:splint|afo|", r"(?<!\\b(?:zzq|"),
    (
        "dh31_worsening_pain_fever",
        "high_risk.yaml",
        r"\\b(?:worsening|increasing)\\s+(?:(?:generali",
        r"\\bzzq\\s+(?:(?:generali",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
