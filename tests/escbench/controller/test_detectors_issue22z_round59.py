"""Issue 22z round 59 (all three detectors): the mechanisms blind half 68's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev57.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 59, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV57_FILE).items}

# the patterns as they were before round 59 (without their additions)
BLOOD_GROUP_WITHOUT_AS = pattern_before(detectors._BLOOD_GROUP, "|was|as)\\s)0", "|was)\\s)0")
BLOOD_GROUP_WITHOUT_BRACKETS = pattern_before(detectors._BLOOD_GROUP, r"(?:\((?=[+-]\)))?")
TEST_INDICATION_ROUND_58 = pattern_before(
    detectors._TEST_INDICATION,
    r"|(?:^|[.;]\s+)(?:request|referral|clinical)\s+(?:reason|details|indication|question)\s*[:\-–—]\s*\?\s*$",
)
WELL_NOW_ROUND_58 = pattern_before(
    detectors._WELL_NOW,
    r"(?:den(?:ies|ying)\s+(?:any\s+)?|no\s+(?:further\s+|more\s+)?)",
    r"den(?:ies|ying)\s+(?:any\s+)?",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc59_zero_rh_brackets", "_BLOOD_GROUP", BLOOD_GROUP_WITHOUT_AS),
    ("dc59_zero_rh_brackets", "_BLOOD_GROUP", BLOOD_GROUP_WITHOUT_BRACKETS),
    ("dc59_dose_route_weight", "_REGIMEN_AFTER", NEVER),
    ("dh59_clinical_details_query", "_TEST_INDICATION", TEST_INDICATION_ROUND_58),
    ("dh59_currently_no_si", "_WELL_NOW", WELL_NOW_ROUND_58),
    ("dh59_value_when_admitted", "_WHEN_PRESENTED_AFTER", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc59_reduced_flexion", "attributes.yaml", r"|abduction|adduction|flexion|", "|"),
    (
        "dc59_period_started_on",
        "attributes.yaml",
        r"(?<!\\b(?:period|periods|menses|menstruation|lmp|bleed|bleeding)\\s+started)",
        "",
    ),
    ("dc59_established_on", "attributes.yaml", r'"re:\\b(?:established|stabilised|', r'"re:\\b(?:zzq|'),
    (
        "dc59_no_differences_found",
        "attributes.yaml",
        '"no (difference|differences) (found|',
        '"no (zzq) (found|',
    ),
    (
        "dc59_dated_letters_code",
        "attributes.yaml",
        r"(?<!\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?,?\\s+\\d{4})",
        "",
    ),
    (
        "dc59_written_out_date",
        "attributes.yaml",
        r'"re:\\b(?:date\\s+of|dates|dated)\\s+(?:(?:his|',
        r'"re:\\b(?:zzq)\\s+(?:(?:his|',
    ),
    ("dc59_weekday_onset", "attributes.yaml", r'"re:\\b(?:onset|(?:it|this|they|', r'"re:\\b(?:zzq|(?:zzq|'),
    (
        "dh59_hitting_head",
        "high_risk.yaml",
        r"(?:hit|hitting|struck|striking|bumped|bumping|banged|banging)",
        r"(?:hit|struck|bumped|banged)",
    ),
    ("dh59_curtain_has_come", "high_risk.yaml", r"(?:(?:has|had|is|was)\\s+)?(?:coming", r"(?:coming"),
    (
        "dh59_legs_keep_weaker",
        "high_risk.yaml",
        r'"re:\\b(?:keep|keeps|kept)\\s+(?:on\\s+)?getting',
        r'"re:\\bzzq\\s+(?:on\\s+)?getting',
    ),
    ("dh59_quadrant_pain_fever", "high_risk.yaml", r"|right\\s+upper\\s+quadrant|ruq|epigastric|", "|"),
    ("dh59_sepsis_card", "high_risk.yaml", r"(?![\\s-]+(?:alert\\s+)?card\\b)", ""),
    (
        "dh59_med_history_heading",
        "modifiers.yaml",
        r'"re:\\b(?:med|medical|medication|drug)\\s+(?:history|hx)',
        '"re:zzq',
    ),
    ("dh59_preterm_history", "modifiers.yaml", r'"re:\\bborn\\s+(?:at\\s+)?(?:2[2-9]|3[0-6])', '"re:zzq'),
    ("dh59_faded_scars", "modifiers.yaml", r'"re:^\\s*scar(?:s|ring)?\\b"', '"re:zzq"'),
    (
        "dm59_no_body_weight",
        "missing.yaml",
        r"|(?:body\\s+)?weight|potassium|sodium|",
        "|weight|potassium|sodium|",
    ),
    (
        "dm59_no_sodium_lft",
        "missing.yaml",
        r"(?:\\s+(?:results?|levels?|values?))?\\s+(?:accompanied",
        r"\\s+(?:accompanied",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
