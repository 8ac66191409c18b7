"""Issue 22z round 79 (all three detectors): the mechanisms blind half 88's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev77.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name made to match nothing, or one lexicon entry made
to match nothing in a copy of the lexicon -- and its item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV77_FILE).items}

# the patterns as they were before round 79 (without their additions)
LEADING_DATE_WITHOUT_WRITTEN = pattern_before(
    detectors._LEADING_DATE,
    r"|\s*\d{1,2}(?:st|nd|rd|th)?\s+"
    + detectors._MONTH
    + r"(?:\s+(?:19|20)\d\d)?"
    + detectors._SOURCE_FOLLOWS,
)
SIDE_ALONE_WITHOUT_BRACKETED_SOURCE = pattern_before(
    detectors._SIDE_ALONE,
    r"|(?<![\w./-])(?<!\d\s)(?-i:(?P<side11>L|R|Lt|Rt))(?=\s*\([^()\d]{1,40}\)\s*(?:[/.;,!?]|$))",
)
CLAUSE_SPLIT_WITHOUT_WROTE = pattern_before(detectors._CLAUSE_SPLIT, r"|wrote|writes")
RECOVERED_AFTER_WITHOUT_TODAY = pattern_before(
    detectors._RECOVERED_AFTER,
    r"|\bbeen\s+(?:completely\s+|totally\s+|entirely\s+)(?:himself|herself|themselves|myself)\s+(?:today|all\s+day)\b",
)
LIST_HEADING_WITHOUT_DATE = pattern_before(detectors._LIST_HEADING, r"(?:\s+\d{1,2}/\d{1,2}(?:/\d{2,4})?)?")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc79_year_after_source", "_SOURCE_THEN_YEAR", NEVER),
    ("dc79_clock_opening", "_OPENING_CLOCK", NEVER),
    ("dc79_written_date_opening", "_LEADING_DATE", LEADING_DATE_WITHOUT_WRITTEN),
    ("dc79_side_bracket", "_SIDE_ALONE", SIDE_ALONE_WITHOUT_BRACKETED_SOURCE),
    ("dc79_wrote", "_CLAUSE_SPLIT", CLAUSE_SPLIT_WITHOUT_WROTE),
    ("dc79_vs_entries", "_VS_BEFORE_NUMBER", NEVER),
    ("dc79_dated_heading", "_LIST_HEADING", LIST_HEADING_WITHOUT_DATE),
    ("dh79_herself_today_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_WITHOUT_TODAY),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc79_event_heading", "attributes.yaml", r'(?=\\s*:\\s*\\d)"', r'(?=zzq)"'),
    ("dc79_not_being_given", "attributes.yaml", r'"re:\\bnot\\s+being\\s+', r'"re:\\bzzq\\s+being\\s+'),
    ("dc79_history_and_physical", "attributes.yaml", r"(?!\\s+(?:and|&)\\s+physical\\b)", ""),
    ("dc79_template_default_n1", "attributes.yaml", r"(?:template|system|form)\\s+default", "zzq"),
    ("dc79_hemocue", "attributes.yaml", "cbc, hemocue, haemocue]", "cbc]"),
    ("dc79_record_wrong", "conflict.yaml", '|wristband) (is|are|was|were) wrong"', '|wristband) zzq"'),
    (
        "dc79_pregnancy_prevention",
        "attributes.yaml",
        r'"re:\\bpregnancy[\\s-]+prevention\\b',
        r'"re:\\bzzq[\\s-]+prevention\\b',
    ),
    ("dh79_rigid_febrile", "high_risk.yaml", r'{t: "re:\\brigid\\b(?!', r'{t: "re:\\bzzq\\b(?!'),
    (
        "dh79_as_for_years_n1",
        "modifiers.yaml",
        r'"re:\\bas\\s+for\\s+(?:many',
        r'"re:\\bzzq\\s+for\\s+(?:many',
    ),
    ("dm79_not_one_in_notes", "missing.yaml", r'"re:\\bthere(?:\\s+isn', r'"re:\\bzzq(?:\\s+isn'),
    (
        "dm79_lost_from_record",
        "missing.yaml",
        r'"re:\\blost\\s+(?:off|from)\\s+',
        r'"re:\\bzzq\\s+(?:off|from)\\s+',
    ),
    (
        "dm79_nothing_on_portal",
        "missing.yaml",
        r"nothing\\s+(?:on|in)\\s+(?:the\\s+|his\\s+|her\\s+|their\\s+|my\\s+)?"
        r"(?:chart|notes|record|records|system|file|epr|ehr|portal)",
        r"nothing\\s+(?:on|in)\\s+(?:the\\s+|his\\s+|her\\s+|their\\s+|my\\s+)?"
        r"(?:chart|notes|record|records|system|file|epr|ehr)",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
