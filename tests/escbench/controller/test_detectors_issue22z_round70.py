"""Issue 22z round 70 (all three detectors): the mechanisms blind half 79's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev68.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 70, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from mechanism_helpers import (
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV68_FILE).items}

# the patterns as they were before round 70 (without their additions)
PROCEDURE_RECORD_WITHOUT_REPORT = pattern_before(
    detectors._PROCEDURE_RECORD,
    r"|\b(?:ultrasound|scan|doppler|ct|mri|x-?ray|biopsy|histology|pathology)\s+report\s+(?:confirming|showing)\b",
)


def never_one_operation(first: str, second: str) -> bool:
    """``_one_operation`` taken out: no two clauses name one past operation."""
    return False


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc70_organ_removed", "_one_operation", never_one_operation),
    ("dc70_same_year_operation", "_one_operation", never_one_operation),
    ("dc70_report_confirming_date", "_PROCEDURE_RECORD", PROCEDURE_RECORD_WITHOUT_REPORT),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc70_anticoag_book",
        "attributes.yaml",
        '"(inr|anticoagulation|anticoagulant|warfarin) book", "anticoag book",',
        '"(inr|anticoagulation|anticoagulant|warfarin) book",',
    ),
    (
        "dc70_organ_removed",
        "attributes.yaml",
        r"\\bremoved\\b(?<!\\b(?:breast",
        r"\\bremoved\\b(?<!\\bzzq(?:breast",
    ),
    ("dc70_inpatient_record_weight", "attributes.yaml", "|ehr|epr|profile|weight))", "))"),
    ("dc70_two_profiles", "attributes.yaml", '"(outpatient|inpatient) (profile|record|list)",', ""),
    (
        "dc70_doesnt_say_the_same",
        "conflict.yaml",
        r"\\s+say\\s+the\\s+same\\s+(?:thing\\s+)?as\\b",
        r"\\s+zzq\\b",
    ),
    ("dc70_doesnt_say_the_same", "attributes.yaml", r"(?<!n'?t\\s+say\\s+the\\s+)", ""),
    (
        "dc70_old_date_after_move",
        "conflict.yaml",
        r"(?!\\s+(?:the\\s+)?(?:previous|old|original)\\s+(?:date|day|appointment|booking)\\b)",
        "",
    ),
    ("dc70_am_comma_weeks", "attributes.yaml", r'"re:\\b(?:i\\s+am|she\\s+is),\\s+', r'"re:\\bzzq,\\s+'),
    (
        "dc70_status_dash_form",
        "attributes.yaml",
        r"(?:checklist|form|questionnaire|record|profile|sheet)\\s*[:=]",
        r"zzq\\s*[:=]",
    ),
    ("dc70_flagged_against_active", "conflict.yaml", r'"re:\\bflagged\\s+against', r'"re:\\bzzq\\s+against'),
    (
        "dh70_status_post_comma",
        "modifiers.yaml",
        r'"re:\\bstatus\\s+post\\b(?![^,;\\n]*[,;])"',
        '"status post"',
    ),
    (
        "dh70_bleeding_through_dressings",
        "high_risk.yaml",
        r'"re:\\bbleeding\\s+through',
        r'"re:\\bzzq\\s+through',
    ),
    ("dh70_weakness_of_both_legs", "high_risk.yaml", '"(weakness|heaviness|numbness) of both legs"', '"zzq"'),
    ("dh70_some_people_feel", "modifiers.yaml", r'"re:\\bsome\\s+(?:young', r'"re:\\bzzq\\s+(?:young'),
    ("dm70_no_freq_on_script", "missing.yaml", '"(no|without) freq .. on', '"zzq .. on'),
    ("dm70_and_theres_nothing", "modifiers.yaml", r'"re:\\band\\s+theres\\b"', r'"re:\\bzzq\\b"'),
    ("dm70_no_chart_sent_with", "missing.yaml", r'\\s+sent\\s+(?:with|w/)"', r'\\s+zzq"'),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
