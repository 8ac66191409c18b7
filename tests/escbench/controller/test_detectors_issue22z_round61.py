"""Issue 22z round 61 (all three detectors): the mechanisms blind half 70's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev59.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 61, or one
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
from escbench_inspect.controller.detectors import LEXICON_DIR, load_lexicon

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV59_FILE).items}

# the patterns as they were before round 61 (without their additions)
ALLERGEN_THEN_REACTION_ROUND_60 = pattern_before(
    detectors._ALLERGEN_THEN_REACTION, r"[-–—:→>(,]+\s*(?:[a-z]+/)?", r"[-–—:→>(,]+\s*"
)
STATUS_PASSIVE_GAP_ROUND_60 = pattern_before(
    detectors._STATUS_PASSIVE_GAP,
    r"(?:\s+(?:listed|recorded|documented|charted|marked|shown|flagged|coded))?",
)
SEVERE_REACTION_ROUND_60 = pattern_before(
    detectors._SEVERE_REACTION, r"\bstevens[\s\-–]+johnson(?:\s+syndrome)?\b", r"\bstevens[\s-]+johnson\b"
)
REACTION_GRADES_ROUND_60 = (("severe", SEVERE_REACTION_ROUND_60), *detectors._REACTION_GRADES[1:])
UNCHANGED_AFTER_ROUND_60 = pattern_before(
    detectors._UNCHANGED_AFTER,
    r"|[^.;\n]{0,20}?,\s*unchanged\s+(?:over|for|in)\s+(?:the\s+)?(?:last|past)\s+(?:(?:few|two|three|\d+)\s+)?"
    r"(?:years?|months)\b",
)
OWN_VERB_RESOLVED_ROUND_60 = pattern_before(
    detectors._OWN_VERB_RESOLVED, r"|\bwent\s+away\b(?![^.;\n]{0,40}?\b(?:but|then|until|again)\b)"
)
FULL_CODE_ROUND_60 = pattern_before(detectors._FULL_CODE, r"(?:active\s+treatment|escalation)", "escalation")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc61_arrow_slash_reaction", "_ALLERGEN_THEN_REACTION", ALLERGEN_THEN_REACTION_ROUND_60),
    ("dc61_listed_active", "_STATUS_PASSIVE_GAP", STATUS_PASSIVE_GAP_ROUND_60),
    ("dc61_numbered_samples", "_NUMBERED_SAMPLE", NEVER),
    ("dc61_clock_in_gap", "_CLOCK", NEVER),
    ("dc61_says_otherwise", "_SEGMENTED_NEGATION", frozenset({"missing"})),
    ("dc61_contradict_each_other", "_SEGMENTED_NEGATION", frozenset({"missing"})),
    ("dc61_sjs_en_dash", "_REACTION_GRADES", REACTION_GRADES_ROUND_60),
    ("dh61_retention_resolved", "_named_again_resolved", lambda *args: False),
    ("dh61_breathless_unchanged_year", "_UNCHANGED_AFTER", UNCHANGED_AFTER_ROUND_60),
    ("dh61_rash_went_away", "_OWN_VERB_RESOLVED", OWN_VERB_RESOLVED_ROUND_60),
    ("dm61_no_dnacpr_decision", "_FULL_CODE", FULL_CODE_ROUND_60),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc61_husband_agrees",
        "attributes.yaml",
        r"(?<!\\b(?:wife|husband|partner|son|daughter|dtr|mum|mother|dad|father|carer|pt|patient)\\s+agrees)",
        "",
    ),
    (
        "dc61_day_fills",
        "attributes.yaml",
        r'"re:\\b(?:\\d+[\\s-]*days?|monthly|weekly)\\s+fills\\b"',
        '"zzq"',
    ),
    ("dc61_not_been_prescribed", "attributes.yaml", "|administered|prescribed|issued)", "|administered)"),
    (
        "dc61_confirmed_on_scan",
        "attributes.yaml",
        r'"re:(?<!\\b(?:non-?viable|failed|molar|no)\\s)\\bpregnancy',
        r'"re:\\bzzq',
    ),
    ("dc61_gestation_listed", "attributes.yaml", r"(?:g\\d{1,2}\\s*p\\d{1,2}(?:\\+\\d{1,2})?\\s+)?", ""),
    ("dc61_home_inr_device", "attributes.yaml", 'inr: [inr, coaguchek, "coagu-chek", inratio]', "inr: [inr]"),
    (
        "dc61_dont_contradict",
        "conflict.yaml",
        "\"re:(?<!\\\\b(?:don'?t|dont|doesn'?t|doesnt|didn'?t|didnt)\\\\s+)\\\\bcontradict\\\\w*\"",
        '"contradict*"',
    ),
    (
        "dh61_seizure_at_age",
        "modifiers.yaml",
        r'"re:\\b(?:aged|at\\s+the\\s+age\\s+of)\\s+',
        r'"re:\\baged\\s+',
    ),
    (
        "dh61_same_passive_thoughts",
        "modifiers.yaml",
        r'"re:\\b(?:at|in)\\s+every\\s+(?:review|',
        r'"re:\\bzzq\\s+(?:review|',
    ),
    (
        "dh61_wants_to_be_dead",
        "high_risk.yaml",
        r"|(?<=\\b(?:packs|boxes|tablets|pills|rope)\\b[^\\n]{0,80}?\\bto\\s+be\\s+dead)",
        "",
    ),
    (
        "dh61_mscc_both_legs",
        "high_risk.yaml",
        r'"re:\\b(?:tingling|numbness|pins\\s+and\\s+needles)\\s+in\\s+both\\s+legs',
        r'"re:\\bzzq',
    ),
    (
        "dm61_weight_months_old",
        "missing.yaml",
        r"couldn'?t|couldnt|could\\s+not|can'?t|cannot)\\s+weigh\\b",
        r"couldn'?t|couldnt|could\\s+not|can'?t|cannot)\\s+zzq\\b",
    ),
    (
        "dm61_no_pulse_taken",
        "missing.yaml",
        r'"re:\\bno\\s+(?:temp(?:erature)?|pulse|',
        r'"re:\\bzzq\\s+(?:temp(?:erature)?|pulse|',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)


def test_a_class_no_longer_taken_stops_each_member_named_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 61: "no longer on insulin" stops the degludec another clause lists as current; built into the
    lexicon's class patterns, so it is taken out by rebuilding the lexicon without it."""
    assert detectors._class_absent("insulin").search("Wife says he is no longer on insulin")
    assert fires("dc61_no_longer_on_class")
    added = r"|no\s+longer\s+(?:on|taking|using))"
    round_60 = detectors._class_absent

    def class_absent_round_60(names: str) -> regex.Pattern:
        pattern = round_60(names)
        assert pattern.pattern.count(added) == 1
        return regex.compile(pattern.pattern.replace(added, ")"), pattern.flags)

    monkeypatch.setattr(detectors, "_class_absent", class_absent_round_60)
    assert not fires("dc61_no_longer_on_class", load_lexicon(LEXICON_DIR))


@pytest.mark.parametrize(
    ("text", "sources"),
    [
        ("sample 1 grouped O pos", {"sample", "sample 1"}),
        ("second sample grouped A pos", {"second sample", "sample second"}),
        ("sample 12/03 grouped A pos", {"sample"}),  # a date, not a number
    ],
)
def test_a_numbered_sample_is_a_source_of_its_own(text: str, sources: set[str]) -> None:
    """Round 61: "sample 1" and "sample 2" are two sources, though both name a sample."""
    found, _ = detectors._clause_facts(text, detectors.default_lexicon().attributes)
    assert found == sources
