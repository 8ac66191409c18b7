"""Issue 22z round 44 (conflict and high risk): the mechanisms blind half 53's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev42.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 44, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
from mechanism_helpers import (
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

pytestmark = pytest.mark.usefixtures("before_round54_condition")

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV42_FILE).items}

# the pattern as it was before round 44
WELL_NOW_ROUND_43 = pattern_before(detectors._WELL_NOW, "|complete|good)", "|complete)")

fires = dev_fires(DEV)
# round 44 read no M error it could fix, so its file has C and H items only
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires, frozenset({"conflict", "high_risk"}))


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [("dh44_good_recovery_n1", "_WELL_NOW", WELL_NOW_ROUND_43)]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc44_gluc", "attributes.yaml", "fingerstick, bm, gluc,", "fingerstick, bm,"),
    (
        "dc44_difference_reflects_n1",
        "attributes.yaml",
        r'"re:\\b(?:difference|discrepancy)\\s+reflects\\b",',
        "",
    ),
    ("dh44_news2", "high_risk.yaml", 'terms: ["news2", "news 2", "news"]', 'terms: ["zzq"]'),
    ("dh44_news2_trigger_n1", "modifiers.yaml", '  - "reaches/reach/reaching"\n', ""),
    ("dh44_advice_about_n1", "modifiers.yaml", r'  - "re:\\badv(?:ice|ised)?\\s+re\\b"' + "\n", ""),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
