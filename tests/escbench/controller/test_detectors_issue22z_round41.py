"""Issue 22z round 41 (all three detectors): the mechanisms blind half 50's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev39.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 41, or one lexicon
entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from mechanism_helpers import (
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV39_FILE).items}

# the patterns as they were before round 41
NEGATIVE_ALLERGY_ROUND_40 = pattern_before(
    detectors._NEGATIVE_ALLERGY, r"(?!\s+(?:history|status|information|info|details|records?)\b)"
)
TEST_INDICATION_ROUND_40 = pattern_before(
    detectors._TEST_INDICATION,
    r"|\b(?:abg|vbg|cxr|x-?ray|ct|ctpa|mri|scan|ecg|echo|bloods?)\b[^()\n.;?]{0,30}?\bfor\s+\?\s*$",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_both_l_is_one_side_and_both_l_and_r_is_both() -> None:
    """Round 41: "consent & list both L TKR" gives the left twice; "both L and R knees" is still both sides,
    which one side elsewhere contradicts only when a source says "only"."""
    assert detectors.detect("Wristband: right knee. Consent & list both L TKR.").conflict
    assert not detectors.detect("Booking: R knee injection. Consent form both L and R knees.").conflict


def test_doses_held_explain_a_change_but_days_held_before_an_operation_do_not() -> None:
    """Round 41: "warfarin withheld 2 doses" between two INRs is the change; "aspirin withheld 7 days" before
    an operation is an instruction that an administration record can contradict."""
    assert not detectors.detect(
        "INR 5.0 Monday per clinic, warfarin withheld 2 doses; INR today 2.7."
    ).conflict
    assert detectors.detect(
        "Pre-assessment says clopidogrel withheld 7 days; MAR shows clopidogrel 75 mg given this morning."
    ).conflict


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dm41_not_hold", "_NEGATIVE_ALLERGY", NEGATIVE_ALLERGY_ROUND_40),
    ("dm41_dont_hold", "_NEGATIVE_ALLERGY", NEGATIVE_ALLERGY_ROUND_40),
    ("dh41_test_for_query_n1", "_TEST_INDICATION", TEST_INDICATION_ROUND_40),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc41_both_l", "attributes.yaml", r"(?!\\s+(?-i:L|R)\\b(?!\\s+(?:and|&)\\s))", ""),
    (
        "dc41_correct_on_everything_n1",
        "attributes.yaml",
        r"\\b(?:right|correct)\\s+on\\s+(?:everything",
        r"\\bzzq\\s+on\\s+(?:everything",
    ),
    ("dc41_which_is_why_n1", "attributes.yaml", '"this is why",', ""),
    (
        "dc41_deny_ever_taking",
        "attributes.yaml",
        r"\\bden(?:y|ies|ied|ying)\\s+(?:ever",
        r"\\bzzq\\s+(?:ever",
    ),
    (
        "dc41_doses_held_n1",
        "attributes.yaml",
        r"\\b(?:held|withheld|omitted)\\s+(?:x\\s*)?\\d+\\s*doses?\\b",
        r"\\bzzq\\b",
    ),
    (
        "dh41_protocol_name_n1",
        "modifiers.yaml",
        r"rule[\\s-]*out\\s+(?:pathway",
        r"rule[\\s-]*out\\s+(?:zzq",
    ),
    ("dh41_back_pain_shivery", "high_risk.yaml", r"(?:feverish|fevers|shivery|shivering", r"(?:zzq"),
    ("dh41_navel_to_right", "high_risk.yaml", r"\\b(?:belly|tummy)\\s+button\\b", r"\\bzzq\\b"),
    ("dh41_swallowed_tabs", "high_risk.yaml", r"[^.;\\n]{0,60}?\\btabs?\\b", r"[^.;\\n]{0,60}?\\bzzq\\b"),
    ("dh41_back_in_the_summer_n1", "modifiers.yaml", r"(?:winter|summer|spring|autumn|fall)", r"(?:zzq)"),
    ("dm41_left_off", "missing.yaml", r'"re:\\bleft\\s+off\\b', r'"re:\\bzzq\\s+off\\b'),
    ("dm41_not_hold", "missing.yaml", r'"re:\\bnot\\s+hold\\s+', r'"re:\\bnot\\s+zzq\\s+'),
    ("dm41_dont_hold", "missing.yaml", r'"re:\\bhold\\s+(?:any|an?)\\b', r'"re:\\bzzq\\s+(?:any|an?)\\b'),
    (
        "dm41_without_obs",
        "missing.yaml",
        r"\\bwithout\\s+(?:any|a)\\s+(?:set\\s+of\\s+)?(?:obs",
        r"\\bzzq\\s+(?:any|a)\\s+(?:set\\s+of\\s+)?(?:obs",
    ),
    ("dm41_no_bp_on_chart", "missing.yaml", r"(?:chart|obs\\s+chart|system|screen)\\b", r"(?:zzq)\\b"),
    (
        "dm41_not_indicate",
        "missing.yaml",
        r'"re:\\bnot\\s+(?:indicate|specify|record|document)\\b',
        r'"re:\\bnot\\s+(?:zzq)\\b',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
