"""Issue 22z round 67 (all three detectors): the mechanisms blind half 76's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev65.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 67, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV65_FILE).items}

# the patterns as they were before round 67 (without their additions)
SAME_OCCASION_ROUND_66 = pattern_before(detectors._SAME_OCCASION, r"|\bboth\s+(?:on|dated)\s+\d{1,2}\b")
SIDE_ALONE_ROUND_66 = pattern_before(
    detectors._SIDE_ALONE, r"|\b(?:is|was|are|were)\s+on\s+(?-i:(?P<side10>[LR]))\b(?=\s*(?:[.;,)!?]|$))"
)
REPORTING_ROUND_66 = pattern_before(
    detectors._REPORTING, r"|places?(?=\s+(?:it|(?:the|his|her|their)\s+\w+)\s+(?:on|in)\b)"
)
DOCUMENT_MADE_ROUND_66 = pattern_before(
    detectors._DOCUMENT_MADE,
    r"|\(\s*(?:polst|molst|respect|dnacpr|dnar|advance\s+directive)\s+(?:19|20)\d\d\s*\)",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc67_both_on_one_date", "_SAME_OCCASION", SAME_OCCASION_ROUND_66),
    ("dc67_side_is_on_r", "_SIDE_ALONE", SIDE_ALONE_ROUND_66),
    ("dc67_sources_place_event", "_REPORTING", REPORTING_ROUND_66),
    ("dc67_form_year_in_brackets", "_DOCUMENT_MADE", DOCUMENT_MADE_ROUND_66),
    ("dc67_another_booster", "_FURTHER_DOSE", NEVER),
    ("dh67_analyte_own_clause", "_CLAUSE_BEFORE", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc67_entered_by_person", "attributes.yaml", r'"re:\\b[a-z]+-entered\\b",', ""),
    (
        "dc67_updated_this_week",
        "attributes.yaml",
        r'"re:\\bupdated\\b(?!\\s+(?:this|last)\\s+(?:week|month|year)\\b)",',
        '"updated",',
    ),
    ("dc67_clarifying_before", "attributes.yaml", "clarif(?:y|ying|ied|ication)", "clarify"),
    ("dc67_both_place_device", "attributes.yaml", "|specified|place|places)", "|specified)"),
    (
        "dc67_totally_different_dose",
        "conflict.yaml",
        "(says|say|said|shows|has|gives|gave) a (totally|completely|entirely|quite|very) different",
        "zzq different",
    ),
    (
        "dc67_aromatase_against_class",
        "attributes.yaml",
        "members: [tamoxifen, anastrozole, letrozole]",
        "members: [zzq]",
    ),
    (
        "dc67_therefore_still_shows",
        "conflict.yaml",
        r"(?<!\\b(?:therefore|thus|hence|consequently)\\s+still)",
        "",
    ),
    ("dc67_after_units", "attributes.yaml", r'"re:\\bafter\\s+\\d+\\s*(?:units?|u)\\b",', ""),
    ("dh67_clock_after_from", "modifiers.yaml", r"(?!19[0-5]\\d\\s*(?:[;,)]|$|hrs?\\b|h\\b))", ""),
    (
        "dh67_heavy_legs",
        "high_risk.yaml",
        r"\\bheavy\\s+legs\\b(?<=\\b(?:back|spinal|spine)\\s+pain",
        r"\\bzzq\\b(?<=\\b(?:back|spinal|spine)\\s+pain",
    ),
    ("dh67_rigid_tender_abdomen", "high_risk.yaml", r"(?:(?:and\\s+)?tender\\s+)?", ""),
    (
        "dh67_right_then_navel",
        "high_risk.yaml",
        r"(?<=\\bpain\\s+(?:low\\s+down\\s+)?(?:on|in)\\s+the\\s+right\\b",
        r"(?<=\\bzzq\\b",
    ),
    (
        "dh67_charcot_triad",
        "high_risk.yaml",
        r"\\b(?:ruq|right\\s+upper\\s+quadrant)\\s+pain\\b(?=",
        r"\\bzzq\\b(?=",
    ),
    (
        "dh67_year_then_admission_for",
        "modifiers.yaml",
        r"(?:admission|attendance|stay|episode)\\s+(?:for|with)\\b",
        r"zzq\\b",
    ),
    (
        "dm67_analytes_outstanding",
        "missing.yaml",
        "|hb|haemoglobin|hemoglobin|creatinine|potassium|sodium|egfr|crp|troponin|lactate|tsh)",
        ")",
    ),
    ("dm67_neither_nor_available", "missing.yaml", "|written|available)", "|written)"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)


def test_a_troponin_named_by_its_subunit_is_no_temperature() -> None:
    """round 67: the shorthand "T" for a temperature is not read after "troponin" ("troponin T 52 ng/L"),
    and still is on its own ("T 38.4")."""
    shorthand = detectors.default_lexicon().shorthand
    assert detectors.expand_shorthand("ED notes record troponin T 52 ng/L", shorthand).text == (
        "ED notes record troponin T 52 ng/L"
    )
    assert "temperature 38.4" in detectors.expand_shorthand("Obs: T 38.4, HR 96", shorthand).text
