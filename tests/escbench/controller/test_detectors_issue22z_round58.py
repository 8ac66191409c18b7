"""Issue 22z round 58 (all three detectors): the mechanisms blind half 67's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev56.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 58, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV56_FILE).items}

# the pattern as it was before round 58 (without its addition)
SELF_CHECK_ROUND_57 = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\b(?:does|do|will|would|could)\s+(?:that|this|it)\s+mean\s+(?:that\s+)?i(?:'ll|\s+will|\s+would|'d)?\s+"
    r"(?:get|have|develop|inherit)\b",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh58_mean_i_will_get", "_SELF_CHECK_QUESTION", SELF_CHECK_ROUND_57),
    ("dh58_normalised_before_next", "_NORMALISED_LEAD", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc58_neither_of_them",
        "attributes.yaml",
        r"|\\b(?:neither|none)\\s+of\\s+(?:them|these|those|us|the\\s+\\w+)\\s+)",
        ")",
    ),
    (
        "dc58_both_meant_same",
        "attributes.yaml",
        r"(?:say|said|read|show|meant|mean)\\s+(?:exactly",
        r"(?:say|said|read|show)\\s+(?:exactly",
    ),
    (
        "dc58_medicalert",
        "attributes.yaml",
        '"(medicalert|medic alert) (bracelet|band|card|necklace|tag)',
        '"(zzq)',
    ),
    (
        "dc58_took_him_off",
        "attributes.yaml",
        r"(?:took|taken|takes|take)\\s+(?:her|him|me|them|us)\\s+off\\b",
        r"zzq\\b",
    ),
    (
        "dc58_allergy_check_none",
        "attributes.yaml",
        r'"re:\\ballerg(?:y|ies)\\s+check\\b',
        r'"re:\\bzzq\\s+check\\b',
    ),
    ("dh58_wont_need_after_this", "high_risk.yaml", r"|this\\s+weekend|this)\\b", r"|this\\s+weekend)\\b"),
    ("dh58_rules_out", "modifiers.yaml", r'"re:(?:\\b(?:that|this|which|it)|[<≤]', r'"re:(?:\\b(?:zzq)|[<≤]'),
    (
        "dm58_no_recent_egfr",
        "missing.yaml",
        r'"re:\\bno\\s+recent\\s+(?:egfr',
        r'"re:\\bzzq\\s+recent\\s+(?:egfr',
    ),
    (
        "dm58_didnt_send",
        "missing.yaml",
        "(didn't|didnt|did not|haven't|havent|hasn't|hasnt|never) (send|sent)",
        "zzq (send|sent)",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
