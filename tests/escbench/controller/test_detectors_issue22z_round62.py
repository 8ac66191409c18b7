"""Issue 22z round 62 (all three detectors): the mechanisms blind half 71's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev60.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 62, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV60_FILE).items}

# the patterns as they were before round 62 (without their additions)
MILD_REACTION_ROUND_61 = pattern_before(
    detectors._MILD_REACTION,
    r"|\b(?:just\s+|only\s+)?makes?\s+(?:him|her|me|them)\s+(?:a\s+bit\s+|slightly\s+)?itch(?:y|ing)?\b",
)
REACTION_GRADES_ROUND_61 = (detectors._REACTION_GRADES[0], ("mild", MILD_REACTION_ROUND_61))
RECORD_DATE_ROUND_61 = pattern_before(detectors._RECORD_DATE, r"|\bdispensed\s+(?:on\s+)?")
SAME_OCCASION_ROUND_61 = pattern_before(
    detectors._SAME_OCCASION, r"|\bfrom\s+that\s+(?:admission|operation|procedure|episode|stay)\b"
)
DIED_OF_BEFORE_ROUND_61 = pattern_before(
    pattern_before(detectors._DIED_OF_BEFORE, r"(?:aged\s+\d{1,3}\s+)?"),
    r"(?:[\w-]+\s+){0,4}?(?:(?:after|following)\s+(?:an?\s+|the\s+)?)?",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc62_makes_her_itchy", "_REACTION_GRADES", REACTION_GRADES_ROUND_61),
    ("dc62_dispensed_date", "_RECORD_DATE", RECORD_DATE_ROUND_61),
    ("dc62_from_that_admission", "_SAME_OCCASION", SAME_OCCASION_ROUND_61),
    ("dh62_died_after_thunderclap", "_RELATIVE_NAMED", detectors._WRITERS_RELATIVE),
    ("dh62_died_after_thunderclap", "_DIED_OF_BEFORE", DIED_OF_BEFORE_ROUND_61),
    ("dh62_brother_died_of", "_RELATIVE_NAMED", detectors._WRITERS_RELATIVE),
    ("dh62_potassium_at_clock", "_AT_BEFORE", NEVER),
    ("dh62_bracketed_history", "_CLOSED_ASIDE", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc62_both_specify",
        "attributes.yaml",
        "|called|put|specify|specifies|specified|place|places)",
        "|called|put)",
    ),
    (
        "dc62_get_this_sorted",
        "attributes.yaml",
        r"(?:get|gets|getting|need|needs|needed|want|wants|wanted)\\s+(?:this|it|that|things)",
        r"(?:get|gets|getting)\\s+(?:this|it|that|things)",
    ),
    (
        "dc62_intubation_and_icu",
        "attributes.yaml",
        r'"re:(?<!\\bnot\\s)\\bfor\\s+(?:intubation|ventilation)\\s+(?:and|&)',
        r'"re:\\bzzq\\s+(?:and|&)',
    ),
    (
        "dc62_denies_pregnancy",
        "attributes.yaml",
        "(pregnancy|pregnant|preg|any chance",
        "(pregnancy|pregnant|any chance",
    ),
    (
        "dc62_stopped_by_team_dated",
        "attributes.yaml",
        r'"re:\\bstopped\\s+by\\s+(?:the\\s+)?[a-z]+(?:\\s+team)?',
        r'"re:\\bzzq\\s+(?:the\\s+)?[a-z]+(?:\\s+team)?',
    ),
    (
        "dh62_neck_so_stiff",
        "high_risk.yaml",
        r'"re:\\bneck\\s+(?:is|feels|was|has\\s+gone)',
        r'"re:\\bzzq\\s+(?:is|feels|was|has\\s+gone)',
    ),
    (
        "dh62_back_pain_fevers",
        "high_risk.yaml",
        r'"re:\\b(?:back|spinal|spine)\\s+pain\\b(?=[^.\\n]{0,40}?',
        r'"re:\\bzzq\\b(?=[^.\\n]{0,40}?',
    ),
    (
        "dh62_nosebleed_wont_stop",
        "high_risk.yaml",
        r'"re:\\b(?:nosebleed|nose\\s*bleed|epistaxis)\\b[^.;\\n]{0,60}?',
        r'"re:\\bzzq\\b[^.;\\n]{0,60}?',
    ),
    (
        "dh62_operation_year_for",
        "modifiers.yaml",
        r'"re:\\b[a-z]+(?:ectomy|otomy|ostomy|plasty|pexy|repair)\\s+',
        r'"re:\\bzzq\\s+',
    ),
    (
        "dm62_nothing_missing",
        "missing.yaml",
        '"re:\\\\bmissing\\\\b(?<!\\\\bnothing(?:\'s|s|\\\\s+is|\\\\s+was)\\\\smissing)"',
        '"missing"',
    ),
    (
        "dm62_not_included_none",
        "modifiers.yaml",
        r"|on\\s+file|is\\s+(?:on|in|available|held|recorded))\\b)",
        r"|on\\s+file)\\b)",
    ),
    (
        "dm62_no_transfer_letter",
        "missing.yaml",
        r"(?:w/o|without|with\\s+no)\\s+(?:a\\s+|any",
        r"(?:w/o|without)\\s+(?:a\\s+|any",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)


@pytest.mark.parametrize(
    ("before", "number", "clock"),
    [
        ("repeat K+ at ", "2200", True),
        ("repeat K+ at ", "6.9", False),  # a value, not a time
        ("K+ ", "2200", False),  # no "at": read as a value as before
    ],
)
def test_four_digits_after_at_are_a_clock_time(before: str, number: str, clock: bool) -> None:
    """Round 62: "K+ at 2200" names when, not a potassium of 2200."""
    assert (
        bool(detectors._AT_BEFORE.search(before)) and bool(detectors._FOUR_DIGIT_CLOCK.fullmatch(number))
    ) is clock
