"""Issue 22z round 78 (all three detectors): the mechanisms blind half 87's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev76.yaml``). Every item is read as
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV76_FILE).items}

# the patterns as they were before round 78 (without their additions)
CHANGE_DENIED_WITHOUT_HAS_TOLD = pattern_before(
    detectors._CHANGE_DENIED,
    r"|\b(?:nobody|no\s+one|no-one|noone)\s+(?:has|had|have)\s+(?:ever\s+)?(?:told|informed|warned)\s+"
    r"(?:us|me|him|her|them|the\s+family)\s+(?:about|of)\s+(?:a|an|any|the)?\s*$",
)
REACTION_THEN_ALLERGEN_WITHOUT_ATTRIBUTED = pattern_before(
    detectors._REACTION_THEN_ALLERGEN,
    r"|\s+(?:[a-z]+\s+)?(?:attributed|attributable|ascribed|secondary|due)\s+to\s+",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc78_nobody_told", "_CHANGE_DENIED", CHANGE_DENIED_WITHOUT_HAS_TOLD),
    ("dc78_records_time", "_RECORDS_TIME_BEFORE", NEVER),
    ("dc78_attributed_to", "_REACTION_THEN_ALLERGEN", REACTION_THEN_ALLERGEN_WITHOUT_ATTRIBUTED),
    ("dh78_relative_ruptured_n1", "_RELATIVES_OWN_BEFORE", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc78_rle",
        "shorthand.yaml",
        '{abbr: "RLE", expansion: "right leg"',
        '{abbr: "ZZQ", expansion: "right leg"',
    ),
    (
        "dc78_marks_stop",
        "attributes.yaml",
        r'"re:\\b(?:marks|marked|flags|flagged)\\b(?=',
        r'"re:\\b(?:zzq)\\b(?=',
    ),
    (
        "dc78_pregnancy_at_weeks",
        "attributes.yaml",
        r'"re:\\b(?:confirms|confirmed|shows|showed)\\s+(?:an?\\s+)?',
        r'"re:\\b(?:zzq)\\s+(?:an?\\s+)?',
    ),
    ("dc78_opposite_of_what", "conflict.yaml", '"the opposite of what"', '"zzq"'),
    ("dh78_complete_sentences", "high_risk.yaml", ') complete .. sentence*"', ') zzq .. sentence*"'),
    (
        "dm78_frequency_omitted",
        "missing.yaml",
        '"(frequency|dose|route|duration|strength|units) (omitted|left off)"',
        '"zzq"',
    ),
    (
        "dm78_never_got_letter",
        "missing.yaml",
        r'"re:\\bnever\\s+(?:got|received)\\s+(?:my|his|her|their)',
        r'"re:\\bzzq\\s+(?:got|received)\\s+(?:my|his|her|their)',
    ),
    ("dm78_on_file", "missing.yaml", r'){1,6}?on\\s+file\\b"', r'){1,6}?zzq\\b"'),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
