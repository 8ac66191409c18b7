"""Issue 22z round 51 (all three detectors): the mechanisms blind half 60's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev49.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 51, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV49_FILE).items}

# the patterns as they were before round 51
BLOOD_GROUP_ROUND_50 = pattern_before(detectors._BLOOD_GROUP, r"|\s*(?i:rh)")
CHANGE_DENIED_ROUND_50 = pattern_before(
    detectors._CHANGE_DENIED,
    r"(?:(?:\s+|\s*/\s*)[\w-]+){0,3}(?:\s+(?:a|an|any|the))?(?:\s*/)?\s*$",
    r"(?:\s+[\w-]+){0,3}(?:\s+(?:a|an|any|the))?\s*$",
)
REPORTING_ROUND_50 = pattern_before(detectors._REPORTING, r"|count(?:s|ed|ing)?\s+from")
SENTENCE_END_ROUND_50 = pattern_before(
    detectors._SENTENCE_END,
    r"(?<!\b(?i:father|mother|dad|mum|mom|brother|sister|grandfather|grandmother|uncle|aunt|sibling|parent)"
    r"\s+(?i:d)\.)",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc51_zero_rh", "_BLOOD_GROUP", BLOOD_GROUP_ROUND_50),
    ("dc51_no_illness_slash", "_CHANGE_DENIED", CHANGE_DENIED_ROUND_50),
    ("dc51_unitless_dose", "_UNITLESS_DOSE_TAIL", NEVER),
    ("dc51_counting_from", "_REPORTING", REPORTING_ROUND_50),
    ("dc51_old_current_date_n1", "_OLD_RECORD", NEVER),
    ("dh51_since_the_stroke_n1", "_SINCE_THE_EVENT", NEVER),
    ("dh51_chemo_days_ago", "_DAYS_AGO_AFTER", NEVER),
    ("dh51_died_abbrev_n1", "_SENTENCE_END", SENTENCE_END_ROUND_50),
    ("dh51_si_resolved_n1", "_OWN_VERB_RESOLVED", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# the two temperature readings share one pattern: each is named with the end of the comment line above it
INFANT_READING = '38.4 on the thermometer")\n      - {t: "re:\\\\b(?:is|was'
CHEMO_READING = '(``infant_fever``)\n      - {t: "re:\\\\b(?:is|was'
NO_ORDER_ELEMENT = (
    r"no\\s+(?:duration|stop\\s+date|end\\s+date|course\\s+length|weight|wt|route|frequency|indication)"
    r"(?:\\s*(?:/|or"
)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc51_preg_test_neg",
        "attributes.yaml",
        r"test\\b[^.;,]{0,30}?(?:,\\s*)?(?:-\\s*ve\\b|\\bneg(?:ative)?\\b)",
        r"test\\b[^.;,]{0,30}?(?:,\\s*)?(?:zzq)",
    ),
    ("dc51_not_expecting", "attributes.yaml", r"(?:not|n't)\\s+expecting\\b", r"(?:not|n't)\\s+zzq\\b"),
    (
        "dc51_plan_for_side",
        "attributes.yaml",
        r"\\bplan\\b(?!\\s+(?:is\\s+)?for\\s+(?:an?\\s+|the\\s+)?(?:left|right|l|r|bilateral)\\b)",
        r"\\bplan\\b",
    ),
    ("dc51_then_at_that_time", "attributes.yaml", r'(?!\\s*(?:[,.;:!?)]|$))", "new dose"', '", "new dose"'),
    (
        "dc51_different_groups",
        "conflict.yaml",
        r"(?:two\\s+)?different\\s+(?:blood\\s+|abo\\s+)?groups",
        r"(?:two\\s+)?zzq\\s+(?:blood\\s+|abo\\s+)?groups",
    ),
    (
        "dc51_old_list_still_n1",
        "conflict.yaml",
        r"(?!(?<=\\b(?:old|outdated)\\b[^.;\\n]{0,40}?\\bstill\\s+\\w+)[^\\n]{0,150}?\\bcurrent\\s+"
        r"(?:[\\w-]+\\s+){0,2}?(?:list|record|chart|summary|letter|sheet)\\b)(?![^\\n]{0,200}?",
        r"(?![^\\n]{0,200}?",
    ),
    (
        "dc51_differs_from_today_n1",
        "attributes.yaml",
        r"|the\\s+(?:one|list|copy|record|letter)\\b[^.;\\n]{0,30}?\\btoday)",
        ")",
    ),
    (
        "dh51_relative_has_known_n1",
        "modifiers.yaml",
        r"(?:has|had)\\s+(?:an?\\s+)?known\\b",
        r"(?:has|had)\\s+(?:an?\\s+)?zzq\\b",
    ),
    (
        "dh51_stay_year_n1",
        "modifiers.yaml",
        r"(?:stay|admission)\\s+(?:in\\s+)?(?:(?:jan",
        r"(?:zzq)\\s+(?:in\\s+)?(?:(?:jan",
    ),
    (
        "dh51_infant_thermometer",
        "high_risk.yaml",
        INFANT_READING,
        INFANT_READING.replace("(?:is|was", "zzq(?:is|was"),
    ),
    (
        "dh51_chemo_reading_unit",
        "high_risk.yaml",
        CHEMO_READING,
        CHEMO_READING.replace("(?:is|was", "zzq(?:is|was"),
    ),
    (
        "dh51_not_wake_up",
        "high_risk.yaml",
        r"\\bso\\s+(?:that\\s+)?i\\s+(?:don'?t|dont|do\\s+not|won'?t|wont|will\\s+not|never)\\s+wake",
        r"\\bso\\s+(?:that\\s+)?i\\s+(?:zzq)\\s+wake",
    ),
    (
        "dh51_when_little_n1",
        "modifiers.yaml",
        r"(?:kid|child|little|baby|toddler|teenager|small|young)\\b",
        r"(?:zzq)\\b",
    ),
    (
        "dh51_as_per_years_n1",
        "modifiers.yaml",
        # (round 55 added "same as" to the same entry)
        r"\\b(?:as\\s+(?:per|for|over)|same\\s+as)\\s+(?:the\\s+)?(?:last|past)",
        r"\\b(?:as\\s+(?:zzq)|same\\s+as)\\s+(?:the\\s+)?(?:last|past)",
    ),
    ("dm51_no_duration_written", "missing.yaml", NO_ORDER_ELEMENT, r"no\\s+(?:zzq)(?:\\s*(?:/|or"),
    ("dm51_crew_no_weight", "missing.yaml", NO_ORDER_ELEMENT, r"no\\s+(?:zzq)(?:\\s*(?:/|or"),
    (
        "dm51_lifelong_n1",
        "missing.yaml",
        r"(?![^.;\\n]{0,16}?\\b(?:continue|continuing|lifelong|life-long|indefinite\\w*|long[\\s-]term|ongoing)\\b)",
        "",
    ),
    (
        "dm51_thermometer_broken",
        "missing.yaml",
        r"(?:broken|not\\s+working|dead|out\\s+of\\s+battery)",
        r"(?:zzq)",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
