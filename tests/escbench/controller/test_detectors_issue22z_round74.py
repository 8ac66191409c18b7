"""Issue 22z round 74 (all three detectors): the mechanisms blind half 83's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev72.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 74, or one
lexicon entry made to match nothing in a copy of the lexicon -- and its item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV72_FILE).items}

# the patterns as they were before round 74 (without their additions)
ONLY_BEFORE_WITHOUT_AS = pattern_before(
    detectors._ONLY_BEFORE,
    r"|\b(?:her|his|their|the)\s+only\s+(?:known\s+)?(?:drug\s+)?allerg(?:y|ies)\s+(?:as|is|was|being)\s+$",
)
REPEAT_VALUE_WITHOUT_RECHECKS = pattern_before(detectors._REPEAT_VALUE, "|rechecks|rechecking")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc74_nobody_rechecked", "_EXPLANATION_NOT_MADE_BEFORE", NEVER),
    ("dc74_until_when", "_UNTIL_YEAR", NEVER),
    ("dc74_until_when", "_WHEN_OPENING", NEVER),
    ("dc74_only_allergy_as", "_ONLY_BEFORE", ONLY_BEFORE_WITHOUT_AS),
    ("dh74_rechecks", "_REPEAT_VALUE", REPEAT_VALUE_WITHOUT_RECHECKS),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc74_allergy_banner",
        "attributes.yaml",
        r'"re:\\ballerg(?:y|ies)\\s+(?:banner|alert|flag|band|field|box|tab|label|section)\\s*=',
        r'"re:\\bzzq\\s*=',
    ),
    (
        "dc74_after_diuresis",
        "attributes.yaml",
        r'"re:\\bafter\\s+(?:a\\s+)?(?:documented\\s+|recorded\\s+|measured\\s+)?',
        r'"re:\\bzzq\\s+(?:a\\s+)?(?:documented\\s+|recorded\\s+|measured\\s+)?',
    ),
    (
        "dc74_dont_say_same_thing",
        "conflict.yaml",
        r"say\\s+the\\s+same\\s+thing\\b(?!\\s+as\\b)",
        r"zzq\\b(?!\\s+as\\b)",
    ),
    (
        "dc74_neither_matches",
        "conflict.yaml",
        '"neither (matches|agrees with|corresponds to)"',
        '"zzq (matches|agrees with|corresponds to)"',
    ),
    (
        "dh74_havent_passed_wind",
        "high_risk.yaml",
        '"(haven\'t|havent|hasnt|have not) .. passed (wind|gas|flatus)"',
        '"(haven\'t|havent|hasnt|have not) .. zzq (wind|gas|flatus)"',
    ),
    ("dh74_anastomotic_leak", "high_risk.yaml", '"anastomotic leak/leakage"', '"anastomotic zzq"'),
    (
        "dh74_chronic_finding",
        "modifiers.yaml",
        r'"re:(?<!\\bon\\s)\\bchronic\\s+(?:mild|moderate|stable|low[\\s-]grade)\\s+[a-z]+\\s*$"',
        r'"re:\\bzzq\\b"',
    ),
    (
        "dm74_no_creat_or_egfr",
        "missing.yaml",
        r"\\s+(?:or|and|nor)\\s+(?:egfr|u&es?|renal\\s+function|creat(?:inine)?|potassium|sodium|inr)\\s+(?:resulted",
        r"\\s+(?:or|and|nor)\\s+(?:egfr|u&es?|renal\\s+function|creat(?:inine)?|potassium|sodium|inr)\\s+(?:zzq",
    ),
    (
        "dm74_do_not_have",
        "missing.yaml",
        "(do not|don't|dont|did not) (yet)? have (the|any)",
        "(do not|don't|dont|did not) (yet)? zzq (the|any)",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
