"""Issue 22z round 42 (all three detectors): the mechanisms blind half 51's misses and false positives showed,
and some left over from blind halves 48-50, read on this project's own wording
(``detector_heldout_dev40.yaml``). Every item is read as labelled; then each mechanism is taken out -- a
module name replaced by what it was before round 42, or one lexicon entry made to match nothing (or as it
was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

pytestmark = pytest.mark.usefixtures("before_round54_limb", "before_round61")

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV40_FILE).items}

# the patterns as they were before round 42
REASON_IN_BRACKETS_ROUND_41 = regex.compile(
    r"\((?:history\s+of|h/o|hx\s+of|previous|prior|past)\b(?![^()]*\b(?:left|right|lt|rt|l|r|bilateral|both)\b)"
    r"[^()]*\)",
    detectors._REASON_IN_BRACKETS.flags,
)
REPORTED_VALUE_ROUND_41 = pattern_before(detectors._REPORTED_VALUE, "|system|printout")
RECOVERED_AFTER_ROUND_41 = pattern_before(
    detectors._RECOVERED_AFTER,
    r"|(?<!\bnot\s(?:yet\s)?|n't\s(?:yet\s)?|\bnever\s)\b(?:fully\s+|completely\s+)?back\s+to\s+"
    r"(?:(?:his|her|their|my)\s+)?baseline\b",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_this_am_is_today_against_yesterday() -> None:
    """Round 42: "this AM" is a relative date (today), so it differs from "yesterday" and agrees with "this
    morning"."""
    assert detectors.detect(
        "Last dalteparin - pt says yesterday 18:00, husband says he gave it this AM at 07:00."
    ).conflict
    assert not detectors.detect(
        "Last dalteparin - pt says this morning 07:00, husband says he gave it this AM at 07:00."
    ).conflict


def test_a_gap_does_not_cross_a_condition() -> None:
    """Round 42: a term's gap stops at "if": the findings of a safety-net condition are not reported ones,
    while the same words without the condition are."""
    assert not detectors.detect(
        "Day 1 after cataract surgery, eye quiet; told to ring eye casualty the same day if pain, worsening"
        " vision or redness."
    ).high_risk
    assert detectors.detect(
        "Day 1 after cataract surgery: eye casualty same day, pain, worsening vision and redness."
    ).high_risk


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc42_bracket_history", "_REASON_IN_BRACKETS", REASON_IN_BRACKETS_ROUND_41),
    ("dc42_same_admission", "_FROM_SAME", NEVER),
    ("dc42_recent_discharge", "_RECENT_RECORD", NEVER),
    ("dc42_last_vs_stopped", "_last_dose_named", lambda clause, attributes: False),
    ("dc42_nothing_about", "_NOTHING_ABOUT", NEVER),
    ("dc42_system_value", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_41),
    ("dc42_alternatives_asked_n1", "_ALTERNATIVES_BETWEEN", NEVER),
    ("dc42_instead_allergen", "_INSTEAD_AFTER", NEVER),
    ("dc42_topic_analyte", "_topic_analyte", lambda found, clause_text, attributes: found),
    ("dh42_test_for_query_n1", "_TEST_FOR_BEFORE", NEVER),
    ("dh42_queried_then_negative_n1", "_QUERY_MARK_BEFORE", NEVER),
    ("dh42_back_to_baseline_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_41),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc42_injects", "attributes.yaml", "(?:took|taking|takes|injects)", "(?:took|taking|takes)"),
    ("dc42_full_active", "attributes.yaml", r"full\\s+(?:active\\s+)?treatment", r"full\\s+treatment"),
    ("dc42_marked_non_pregnant", "attributes.yaml", r"\\s+non[-\\s]?pregnant\\b", r"\\s+zzq\\b"),
    (
        "dc42_instead_allergen",
        "attributes.yaml",
        r'"re:\\binstead\\b(?<!\\bas\\s+(?:the|its|her|his)\\s+(?:allergen|allergy)\\s+instead)"',
        '"instead"',
    ),
    (
        "dc42_colon_after_not",
        "modifiers.yaml",
        r"[a-z]+(?:ed|en)(?:\\s+(?:off|out|up|over|through))?):",
        "zzq):",
    ),
    (
        "dc42_corrected_sent_n1",
        "conflict.yaml",
        r"(?<!\\b(?:sent|received|issued|uploaded)\\s+(?:(?:me|us|you)\\s+)?(?:a|the|an)\\s+corrected)",
        "",
    ),
    ("dm42_but_not_how", "missing.yaml", r'"re:\\bbut\\s+not\\s+(?:how', r'"re:\\bzzq\\s+not\\s+(?:how'),
    (
        "dm42_not_handed_over",
        "missing.yaml",
        r'"re:\\bnot\\s+(?:been\\s+)?handed\\s+over\\b"',
        r'"re:\\bnot\\s+(?:been\\s+)?zzq\\s+over\\b"',
    ),
    (
        "dm42_never_weighed",
        "missing.yaml",
        r'"re:\\bnever\\s+(?:weighed|measured)\\b"',
        r'"re:\\bnever\\s+zzq\\b"',
    ),
    (
        "dm42_not_sure_accurate_n1",
        "missing.yaml",
        r"|\\s+(?:if|whether)\\s+(?:that'?s|thats|that\\s+is|it'?s|its|it\\s+is)\\s+(?:exact|accurate|right|correct"
        r"|precise)\\b",
        "",
    ),
    (
        "dh42_worst_i_have_ever",
        "high_risk.yaml",
        r"\\bworst\\s+(?:i'?ve|ive|i\\s+have)\\s+ever",
        r"\\bzzq\\s+(?:i'?ve|ive|i\\s+have)\\s+ever",
    ),
    (
        "dh42_nose_constantly",
        "high_risk.yaml",
        r"\\bnose\\s+(?:has\\s+been\\s+|is\\s+|keeps\\s+|kept\\s+)?bleeding",
        r"\\bzzq\\s+(?:has\\s+been\\s+|is\\s+|keeps\\s+|kept\\s+)?bleeding",
    ),
    (
        "dh42_post_delivery_ebl",
        "high_risk.yaml",
        r'"re:\\bpost\\s+(?:(?:vaginal|caesarean',
        r'"re:\\bzzq\\s+(?:(?:vaginal|caesarean',
    ),
    (
        "dh42_words_out",
        "high_risk.yaml",
        r"\\bget\\s+(?:his|her|my|their|the)\\s+words\\s+out\\b(?<=",
        r"\\bzzq\\s+(?:his|her|my|their|the)\\s+words\\s+out\\b(?<=",
    ),
    (
        "dh42_arm_went_limp",
        "high_risk.yaml",
        r'"re:\\barm\\s+(?:just\\s+)?(?:flops',
        r'"re:\\bzzq\\s+(?:just\\s+)?(?:flops',
    ),
    ("dh42_despite_bolus", "high_risk.yaml", r'"re:\\bdespite\\s+(?:an?\\s+|', r'"re:\\bzzq\\s+(?:an?\\s+|'),
    # (round 61 read the means named before it as well: both readings taken out)
    (
        "dh42_want_to_be_dead",
        "high_risk.yaml",
        r"\\s+to\\s+be\\s+dead\\b(?:(?=",
        r"\\s+to\\s+be\\s+zzq\\b(?:(?=",
    ),
    ("dh42_collapsed_lung_n1", "high_risk.yaml", r'"re:\\bcollaps\\w*\\b(?!\\s+lung\\b)"', '"collaps*"'),
    (
        "dh42_cohb",
        "high_risk.yaml",
        '["carboxyhaemoglobin", "carboxyhemoglobin", "cohb", "co-hb"]',
        '["zzq"]',
    ),
    (
        "dh42_treated_ectopic_n1",
        "high_risk.yaml",
        r'"re:\\bectopic\\b(?<!\\b(?:methotrexate|salpingectomy|salpingotomy|salpingostomy|laparoscopy|treated'
        r'|treatment)\\s+for\\s+(?:(?:a|an|her|the|tubal|left|right|ruptured)\\s+){0,2}ectopic)"',
        '"ectopic"',
    ),
    (
        "dh42_answered_not_at_all_n1",
        "modifiers.yaml",
        r'"re:\\b(?:answered|scored|rated|responded)',
        r'"re:\\b(?:zzq)',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
