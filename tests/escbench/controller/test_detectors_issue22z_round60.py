"""Issue 22z round 60 (all three detectors): the mechanisms blind half 69's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev58.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 60, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV58_FILE).items}

# the patterns as they were before round 60 (without their additions)
SELF_CHECK_ROUND_59 = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\b(?:does|do|can|could|would|will)\s+(?:that|it|this|these|they)\s+run\s+in\s+(?:the\s+)?famil(?:y|ies)\b",
)
# a patient "now back" (the round's look-ahead after "back", in each of the pattern's three supplied verbs)
PATIENT_BACK = (
    r"(?!(?<=\bback)\s+(?:c/o|complain\w*|from|to\s+(?:the\s+)?"
    r"(?:ward|bay|department|ed|a&e|triage|clinic|reception)))"
)
assert detectors._LATER_SUPPLIED.pattern.count(PATIENT_BACK) == 3
LATER_SUPPLIED_ROUND_59 = regex.compile(
    detectors._LATER_SUPPLIED.pattern.replace(PATIENT_BACK, ""), detectors._LATER_SUPPLIED.flags
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc60_weights_days_apart", "_implausible_weight_change", lambda *args: False),
    ("dh60_counselled_list", "_ADVICE_LIST_BEFORE", NEVER),
    ("dh60_runs_in_families", "_SELF_CHECK_QUESTION", SELF_CHECK_ROUND_59),
    ("dm60_patient_now_back", "_LATER_SUPPLIED", LATER_SUPPLIED_ROUND_59),
    ("dm60_says_nothing_about", "_ABOUT_TOPIC_END", NEVER),
    ("dm60_no_route_confusion", "_NO_ITEM_PROBLEM", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc60_first_drug_supply",
        "attributes.yaml",
        r'"re:\\bfirst\\s+[a-z][\\w-]*\\s+(?:supply',
        r'"re:\\bzzq\\s+(?:supply',
    ),
    (
        "dc60_totally_different",
        "conflict.yaml",
        r"(?:completely|totally|entirely|very|quite)\\s+different",
        "zzq",
    ),
    (
        "dc60_because_adjusted",
        "attributes.yaml",
        "|doubled|altered|adjusted|amended|modified|titrated)",
        "|doubled)",
    ),
    (
        "dh60_headache_in_month",
        "modifiers.yaml",
        r"|in\\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\\b)",
        r")\\b)",
    ),
    (
        "dh60_normal_level",
        "modifiers.yaml",
        r"\\s+(?:his|her|their|my)\\s+normal\\s+(?:level|baseline)",
        "zzq",
    ),
    ("dh60_should_return", "modifiers.yaml", r'"re:\\bshould\\s*$"', '"re:zzq"'),
    ("dh60_seeing_double", "high_risk.yaml", '"(seeing|see|sees|saw) double"', '"zzq"'),
    ("dm60_cutoff_named", "missing.yaml", r"(?<!\\b(?:reduction|threshold|", r"(?<!\\b(?:zzq|"),
    (
        "dm60_still_nothing_portal",
        "missing.yaml",
        r'"re:\\bstill\\s+nothing\\s+(?:on|in)',
        r'"re:\\bzzq\\s+(?:on|in)',
    ),
    (
        "dm60_says_nothing_about",
        "missing.yaml",
        r'"re:\\b(?:says|said|mentions|mentioned|states|stated)\\s+nothing',
        r'"re:\\bzzq\\s+nothing',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)


@pytest.mark.parametrize(
    ("first", "second", "clause", "other", "implausible"),
    [
        (71.2, 58.4, "71.2 kg (10 March)", "58.4 kg (12 March)", True),
        (71.2, 70.6, "71.2 kg (10 March)", "70.6 kg (12 March)", False),  # within a tenth
        (71.2, 62.4, "71.2 kg (10 January)", "62.4 kg (12 June)", False),  # months apart
        (71.2, 58.4, "71.2 kg at the GP", "58.4 kg on the ward", False),  # no dates
    ],
)
def test_a_weight_change_is_implausible_only_within_a_fortnight_and_beyond_a_tenth(
    first: float, second: float, clause: str, other: str, implausible: bool
) -> None:
    """Round 60: two weights dated within 14 days that differ by more than 10 % are no change."""
    assert detectors._implausible_weight_change(first, second, clause, other) is implausible
