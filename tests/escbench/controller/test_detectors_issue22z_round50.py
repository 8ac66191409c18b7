"""Issue 22z round 50 (all three detectors): the mechanisms blind half 59's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev48.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 50, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV48_FILE).items}

# the patterns as they were before round 50
RECOVERED_AFTER_ROUND_49 = pattern_before(
    detectors._RECOVERED_AFTER, r"|\b(?:fully|completely)\s+worn\s+off\b"
)
SELF_CHECK_QUESTION_ROUND_49 = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\bis\s+there\s+(?:a|any)\s+(?:scan|test|check|screening|blood\s+test)\s+(?:that\s+)?i\s+"
    r"(?:should|need\s+to|ought\s+to)\b",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh50_worn_off_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_49),
    ("dh50_scan_should_have_n1", "_SELF_CHECK_QUESTION", SELF_CHECK_QUESTION_ROUND_49),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc50_not_to_be_resuscitated",
        "attributes.yaml",
        'dnr: ["not to be resuscitated", "dnacpr",',
        'dnr: ["dnacpr",',
    ),
    ("dc50_reassigned_n1", "attributes.yaml", r'"re:\\bbelong(?:s|ed)\\s+to', r'"re:\\bzzq\\s+to'),
    (
        "dh50_rule_out_met_n1",
        "modifiers.yaml",
        r"(?:algorithm|pathway|protocol)\\s+)?(?:rule[\\s-]?out|r/o)",
        r"(?:algorithm|pathway|protocol)\\s+)?(?:zzq)",
    ),
    ("dh50_not_pursued_n1", "modifiers.yaml", r"(?:was|were)\\s+not\\s+(?:pursued|suspected)", "zzq"),
    (
        "dh50_wont_need_after_tonight",
        "high_risk.yaml",
        r"\\s+(?:need|be\\s+needing)\\s+(?:anything",
        r"\\s+(?:zzq)\\s+(?:anything",
    ),
    (
        "dm50_not_received_yet",
        "missing.yaml",
        r"\\s+(?:got|received|had)\\s+(?:it|them)\\s+yet",
        r"\\s+(?:zzq)\\s+yet",
    ),
    (
        "dm50_no_addressograph",
        "missing.yaml",
        '"no (addressograph|addressographs|patient label|patient labels|patient sticker|patient stickers)"',
        '"zzq"',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
