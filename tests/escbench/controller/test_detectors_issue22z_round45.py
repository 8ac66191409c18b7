"""Issue 22z round 45 (all three detectors): the mechanisms blind half 54's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev43.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 45, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV43_FILE).items}

pytestmark = pytest.mark.usefixtures("before_round59")

# the patterns as they were before round 45
PRONOUN_BEFORE_ROUND_44 = pattern_before(detectors._PRONOUN_BEFORE, "|marked|flagged|listed|recorded")
SELF_CHECK_ROUND_44 = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\bi'?d\s+like\s+(?:to\s+(?:get|have)\s+)?(?:my|me|myself)\b[^.?!\n]{0,30}?\s+(?:checked|tested|screened)\b",
)
WORKUP_NEGATIVE_ROUND_44 = pattern_before(detectors._WORKUP_NEGATIVE, r"|\bchest\s+(?:is\s+|was\s+)?clear\b")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc45_it_marked", "_PRONOUN_BEFORE", PRONOUN_BEFORE_ROUND_44),
    ("dh45_own_check_n1", "_SELF_CHECK_QUESTION", SELF_CHECK_ROUND_44),
    ("dh45_chest_clear_n1", "_WORKUP_NEGATIVE", WORKUP_NEGATIVE_ROUND_44),
    ("dh45_post_event_n1", "_VISIT_AFTER", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    # (round 52 added a re-weigh to the same list, round 55 any form of "sort")
    (
        "dc45_fix_before",
        "attributes.yaml",
        r"|review|discuss|fix|correct|amend|sort\\w*|re-?weigh\\w*|weigh)",
        "|review|discuss)",
    ),
    (
        "dc45_no_longer_take",
        "attributes.yaml",
        '"no longer (take|takes|taking|taken|use|uses|using|used|on|given|prescribed)"',
        '"zzq"',
    ),
    (
        "dc45_diuresis_n1",
        "attributes.yaml",
        r'"re:\\bafter\\s+(?:(?:iv|i\\.v\\.|oral|po)\\s+)?[\\w-]+\\s+(?:diuresis|offloading)\\b",',
        "",
    ),
    ("dc45_which_is_right_n1", "conflict.yaml", r"(?:(?:(?<=(?:^|[^\\w%)\\s])\\s{0,3}which)|", r"(?:(?:|"),
    (
        "dc45_no_contradiction_n1",
        "attributes.yaml",
        '"no (discrepancy|discrepancies|conflict|contradiction|contradictions)"',
        '"no (discrepancy|discrepancies|conflict)"',
    ),
    (
        "dh45_born_nicu_n1",
        "modifiers.yaml",
        r"(?:nicu|scbu|neonatal(?:\\s+unit)?|special\\s+care(?:\\s+baby\\s+unit)?)\\s+(?:admission|stay)\\s+for",
        "zzq",
    ),
    ("dh45_workup_n1", "modifiers.yaml", r'  - "re:^\\s*(?:work[\\s-]?up|w/u)\\b"' + "\n", ""),
    (
        "dh45_has_stopped_n1",
        "modifiers.yaml",
        r"(?:has|have|had)\\s+(?:now\\s+|completely\\s+|all\\s+)?stopped",
        "zzq",
    ),
    (
        "dm45_nothing_unclear_n1",
        "missing.yaml",
        r"(?<!\\bnothing\\s+(?:unsure|uncertain|unclear))",
        "",
    ),
    (
        "dm45_none_in_months",
        "missing.yaml",
        r"(?:recent\\s+)?(?:egfr|u&es?|renal\\s+function|",
        r"(?:recent\\s+)?(?:zzq|",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
