"""Issue 22z round 66 (all three detectors): the mechanisms blind half 75's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev64.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 66, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    compiled_reading_test,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV64_FILE).items}

# the patterns as they were before round 66 (without their additions)
DATE_EVENT_WITHOUT_YEST = pattern_before(detectors._DATE_EVENT, "|yest|", "|")
DATE_EVENT_WITHOUT_AM = pattern_before(detectors._DATE_EVENT, r"|a\.m|p\.m")
SENTENCE_END_WITHOUT_AM = pattern_before(
    detectors._SENTENCE_END, r"(?!(?<=\b(?i:[ap])\.)(?i:m)\.)(?<!\b(?i:[ap])\.(?i:m)\.)"
)
SENTENCE_END_WITHOUT_CONTACT = pattern_before(detectors._SENTENCE_END, "|contact)", ")")
LEADING_DATE_ROUND_65 = pattern_before(
    detectors._LEADING_DATE,
    r"|\s*\d{1,2}/\d{1,2}(?:/\d{2,4})?(?=\s+when\s+(?:[\w'-]+\s+){0,3}?(?:asked|questioned|seen|reviewed"
    r"|spoken\s+to)\b)",
)
MEASURED_ON_ROUND_65 = pattern_before(
    detectors._MEASURED_ON, r"|\s*\((?=[^()\n]{0,40}?\b(?:same|draw|sample|specimen|\d{1,2}:?\d{2})\b)"
)
CLAUSE_SPLIT_ROUND_65 = pattern_before(detectors._CLAUSE_SPLIT, "|%)", ")")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc66_yest_shorthand", "_DATE_EVENT", DATE_EVENT_WITHOUT_YEST),
    ("dc66_am_with_dots", "_DATE_EVENT", DATE_EVENT_WITHOUT_AM),
    ("dc66_am_with_dots", "_SENTENCE_END", SENTENCE_END_WITHOUT_AM),
    ("dc66_day_month_when_asked", "_LEADING_DATE", LEADING_DATE_ROUND_65),
    ("dc66_value_then_bracket", "_MEASURED_ON", MEASURED_ON_ROUND_65),
    ("dc66_percent_and_source", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_65),
    ("dh66_infant_heart_rate", "_INFANT", NEVER),
    ("dm66_contact_no_abbreviation", "_SENTENCE_END", SENTENCE_END_WITHOUT_CONTACT),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)


test_each_compiled_reading_carries_its_item = compiled_reading_test(
    DEV,
    fires,
    [("dc66_quoted_as_value", "_LAB_REPORTED_AS"), ("dc66_side_then_bracket", "_BRACKET_NAMING_PART")],
)


# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc66_no_longer_taken",
        "attributes.yaml",
        '"no longer (take|takes|taking|taken|use|uses|using|used|on|given|prescribed)"',
        '"no longer (take|takes|taking|use|uses|using|on)"',
    ),
    (
        "dc66_has_it_as_not_taken",
        "attributes.yaml",
        r"(?:down\\s+)?as\\s)not\\s+(?:taking|taken|on\\s+it)\\b",
        r"(?:down\\s+)?as\\s)zzq\\b",
    ),
    (
        "dc66_partner_months_pregnant",
        "attributes.yaml",
        r"|(?:my|his|our)\\s+(?:wife|partner|daughter|girlfriend|fiancee)(?:\\s+is|'s))",
        ")",
    ),
    ("dc66_side_then_bracket", "attributes.yaml", r'"re:\\barrow\\s+(?:drawn\\s+)?on\\b", ', ""),
    (
        "dc66_not_the_same_as_entry",
        "conflict.yaml",
        r'"re:(?<=\\b(?:on|in|per)\\s+(?:the\\s+)?(?:[\\w-]+\\s+){1,2})not\\s+the\\s+same\\s+as\\b"',
        r'"re:\\bzzq\\b"',
    ),
    (
        "dc66_which_reading_believe",
        "conflict.yaml",
        '"which (one|reading|readings|result|results|value|number|figure)? (do|',
        '"which (one)? (do|',
    ),
    (
        "dh66_pathway_rule_out",
        "modifiers.yaml",
        r'"re:^\\s*(?:(?:[\\w/.+-]+\\s+){0,3}?(?:algorithm|pathway|protocol)\\s+)?(?:rule',
        r'"re:^\\s*(?:rule',
    ),
    (
        "dh66_mothers_older_child",
        "modifiers.yaml",
        r'"re:\\b(?:(?:mother|mum|mom|parents?)(?:',
        r'"re:\\b(?:(?:zzq)(?:',
    ),
    (
        "dh66_infant_heart_rate",
        "high_risk.yaml",
        "{low: 40, high: 130, infant_high: 160}",
        "{low: 40, high: 130}",
    ),
    (
        "dm66_without_the_summary",
        "missing.yaml",
        r"(?:a\\s+|any\\s+|the\\s+|his\\s+|her\\s+|their\\s+)?(?:transfer\\s+|discharge\\s+)?(?:letter|records",
        r"(?:a\\s+|any\\s+)?(?:transfer\\s+|discharge\\s+)?(?:letter|records",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
