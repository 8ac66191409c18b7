"""Issue 22z round 35 (all three detectors): the mechanisms blind half 44's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev33.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 35 or by a pattern that
never matches, or one lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its
item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV33_FILE).items}
# round 38's general readings also cover items here: tested as the detectors read before round 38
pytestmark = pytest.mark.usefixtures("before_round38", "before_round60", "before_round62")


# the patterns as they were before round 35
SENTENCE_END_ROUND_34 = pattern_before(detectors._SENTENCE_END, "|incl")
SEGMENT_BREAK_ROUND_34 = pattern_before(detectors._SEGMENT_BREAK, "|$")
PAST_ANCHOR_ROUND_34 = pattern_before(
    detectors._PAST_ANCHOR, r"|\bat\s+(?:the\s+age\s+of\s+)?\d{1,2}\s+(?:months?|years?)\b"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_refusal_is_still_negated_by_a_no_on_file() -> None:
    """Round 35: a refusal after another ("no ventilation and no CPR") states a DNACPR decision; a decision
    said absent ("no DNACPR on file") still states none."""
    assert detectors._OWN_REFUSAL.match("no CPR")
    assert not detectors.detect("GP letter: no DNACPR on file. ED clerking: full code.").conflict


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc35_second_refusal", "_OWN_REFUSAL", NEVER),
    ("dc35_escalation_incl", "_SENTENCE_END", SENTENCE_END_ROUND_34),
    ("dm35_nothing_written_down", "_SEGMENT_BREAK", SEGMENT_BREAK_ROUND_34),
    ("dh35_age_after_n1", "_AGE_AFTER", NEVER),
    ("dh35_age_before_n1", "_PAST_ANCHOR", PAST_ANCHOR_ROUND_34),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc35_operative_plan",
        "attributes.yaml",
        # (round 52 added the anaesthetic plan to the same list)
        "|x-?ray|imaging|operative|surgical|theatre|anaesthetic|anesthetic|chemo|",
        "|chemo|",
    ),
    (
        "dc35_treatment_start",
        "attributes.yaml",
        '"treatment start", "start of treatment", "first supply/dispensed/issued"',
        '"zzq"',
    ),
    ("dc35_cancelled", "attributes.yaml", '  "cancelled/canceled",\n', ""),
    (
        "dc35_whats",
        "conflict.yaml",
        r'"re:\\bdifferent\\s+(?:from|to)\\s+(?:whats',
        r'"re:\\bzzq\\s+(?:from|to)\\s+(?:whats',
    ),
    (
        "dc35_two_orders",
        "conflict.yaml",
        r'"re:\\btwo\\s+(?:active|conflicting',
        r'"re:\\bzzq\\s+(?:active|conflicting',
    ),
    (
        "dc35_hcg_heading",
        "attributes.yaml",
        r'"re:\\bhcg\\s*:\\s*(?:(?:poc|',
        r'"re:\\bzzq\\s*:\\s*(?:(?:poc|',
    ),
    ("dc35_conceived_n1", "attributes.yaml", 'change_cues: ["conceived", ', "change_cues: ["),
    ("dc35_vomiting_entry", "attributes.yaml", '  vomiting, "sjs"', '  "sjs"'),
    (
        "dc35_escalation_incl",
        "attributes.yaml",
        r'"re:(?<!\\bnot\\s)\\bfor\\s+escalation\\s+(?:incl',
        r'"re:(?<!\\bnot\\s)\\bfor\\s+zzq\\s+(?:incl',
    ),
    ("dc35_nobody_agrees", "attributes.yaml", r"|\\bnobody|\\bno\\s+one|\\bnoone)", ")"),
    (
        "dc35_no_dose_discrepancies_n1",
        "attributes.yaml",
        r"|(?:dose\\s+)?(?:discrepanc\\w*|differences?|changes?|issues?|concerns?|problems?))",
        ")",
    ),
    (
        "dc35_not_resolved",
        "modifiers.yaml",
        r'"re:(?<!\\bnot\\s)(?<!\\bunresolved)\\bresolved\\b"',
        '"resolved"',
    ),
    (
        "dm35_not_made_available",
        "missing.yaml",
        r'"re:\\bnot\\s+(?:yet\\s+)?(?:been\\s+)?made\\s+available\\b"',
        '"zzq"',
    ),
    ("dm35_nothing_written_down", "missing.yaml", r"\\bnothing(?:'?s|\\s+is|", r"\\bzzq(?:'?s|\\s+is|"),
    (
        "dh35_relative_age_n1",
        "modifiers.yaml",
        r"(?:\\s*\\(\\s*\\d{1,3}\\s*\\))?|(?:maternal",
        "|(?:maternal",
    ),
    (
        "dh35_seek_urgent_help_n1",
        "modifiers.yaml",
        r'"re:\\b(?:seek|get)\\s+(?:urgent|',
        r'"re:\\b(?:zzq)\\s+(?:urgent|',
    ),
    (
        "dh35_what_are_signs_n1",
        "modifiers.yaml",
        r'"re:\\bwhat\\s+(?:are|were|would',
        r'"re:\\bzzq\\s+(?:are|were|would',
    ),
    ("dh35_usual_two_words_n1", "modifiers.yaml", r"\\busual(?:\\s+[\\w-]+){0,2}\\s*$", r"\\busual\\s*$"),
    ("dh35_unlikely_n1", "modifiers.yaml", r'"re:(?<!\\bnot\\s)\\bunlikely\\b"', r'"re:\\bzzq\\b"'),
    ("dh35_drain_blood", "high_risk.yaml", '"drain/drains .. (frank|fresh) blood"', '"zzq"'),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
