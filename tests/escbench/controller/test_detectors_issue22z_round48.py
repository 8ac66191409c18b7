"""Issue 22z round 48 (all three detectors): the mechanisms blind half 57's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev46.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 48, or one
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

pytestmark = pytest.mark.usefixtures("before_round55_broke", "before_round58")

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV46_FILE).items}

# the pattern as it was before round 48
DOCUMENT_MADE_ROUND_47 = pattern_before(detectors._DOCUMENT_MADE, r"|(?:decision|form|order)\s+dated")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [("dc48_decision_dated", "_DOCUMENT_MADE", DOCUMENT_MADE_ROUND_47)]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc48_weaned_off", "attributes.yaml", r"\\bweaned\\s+", r"\\bzzq\\s+"),
    (
        "dc48_nor_breastfeeding",
        "attributes.yaml",
        "neither .. nor (breastfeeding",
        "zzq .. nor (breastfeeding",
    ),
    ("dc48_denies_current", "attributes.yaml", "(denies|denied|denying) (current|present) pregnancy", "zzq"),
    ("dc48_egg_allergen", "attributes.yaml", "  egg: [egg, eggs]", "  egg: [zzq]"),
    ("dc48_outgrown_n1", "attributes.yaml", '"outgrown/outgrew", "grew out of",', '"zzq",'),
    (
        "dc48_thyroid_class",
        "attributes.yaml",
        'names: ["thyroid (hormone|hormones)? replacement", "thyroid hormone/hormones", "thyroxine '
        'replacement"]',
        'names: ["zzq"]',
    ),
    (
        "dc48_different_dob",
        "conflict.yaml",
        "give/gives/gave/show/shows/showed/have/has a different (date of birth",
        "zzq a different (date of birth",
    ),
    ("dh48_side_letter_weakness", "high_risk.yaml", r"re:\\b(?:l|r|lt|rt)(?:-|\\s)?sided", r"re:\\bzzq"),
    ("dh48_dysphasia", "high_risk.yaml", '{t: "dysphasi*", origin:', '{t: "zzq", origin:'),
    ("dh48_seizing", "high_risk.yaml", r'{t: "re:\\bseizing\\b"', '{t: "zzq"'),
    ("dh48_gas_ph", "high_risk.yaml", r'"re:\\bph\\b(?=', r'"re:\\bzzq\\b(?='),
    (
        "dh48_bracket_negation",
        "modifiers.yaml",
        r'"re:\\)(?<=\\((?:no|not|nil|nkda|never|denies|without)\\b[^()]{0,60}\\))"',
        '"zzq"',
    ),
    (
        "dh48_spouse_died_n1",
        "modifiers.yaml",
        r"(?:(?:his|her|their|pt'?s|patient'?s)\\s+)?(?:late",
        r"(?:his|her|their|pt'?s|patient'?s)\\s+(?:late",
    ),
    ("dm48_not_communicated", "missing.yaml", r"(?:communicated|passed\\s+on|relayed)", "(?:zzq)"),
    (
        "dm48_nothing_illegible_n1",
        "missing.yaml",
        r'"re:\\billegib\\w*(?<!\\b(?:nothing|none)\\s+illegib\\w*)"',
        '"illegib*"',
    ),
    (
        "dm48_nobody_can_find",
        "missing.yaml",
        r"(?:nobody|no\\s+one|noone)\\s+(?:\\w+\\s+){0,2}?(?:can|could)\\s+find",
        "zzq",
    ),
    ("dm48_mrn_absent", "missing.yaml", r'"re:\\babsent\\b(?<=', r'"re:\\bzzq\\b(?<='),
    (
        "dm48_never_sent",
        "missing.yaml",
        r"(?:sent|forwarded|faxed|received|passed\\s+on)\\b(?=",
        r"(?:zzq)\\b(?=",
    ),
    ("dm48_unable_to_take_temp", "missing.yaml", r"been\\s+able\\s+to\\s+(?:take", r"zzq\\s+(?:take"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
