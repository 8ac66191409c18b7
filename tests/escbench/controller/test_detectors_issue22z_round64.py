"""Issue 22z round 64 (all three detectors): the mechanisms blind half 73's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev62.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 64, or one
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
from escbench_inspect.controller.detectors import Mention

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV62_FILE).items}

# the patterns as they were before round 64 (without their additions)
RH_SIGN_ROUND_63 = pattern_before(detectors._RH_SIGN, r"|(?-i:D)")
PREGNANCY_YEAR_ROUND_63 = pattern_before(detectors._PREGNANCY_YEAR, r"(?<!\bsince\s)")
PAST_ANCHOR_ROUND_63 = pattern_before(detectors._PAST_ANCHOR, r"|\b(?:[2-6]/7|\d{1,2}/52)\s+ago\b")


def clause_order_round_63(m: Mention, n: Mention) -> tuple[int, int]:
    """Round 63's order: the clauses as the mentions were found."""
    return m.clause, n.clause


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc64_d_antigen_alone", "_RH_SIGN", RH_SIGN_ROUND_63),
    ("dc64_but_as_value", "_ELLIPTIC_AS", NEVER),
    ("dc64_since_year_not_pregnancy", "_PREGNANCY_YEAR", PREGNANCY_YEAR_ROUND_63),
    ("dc64_listed_then_matches", "_clause_order", clause_order_round_63),
    ("dh64_days_shorthand_ago", "_PAST_ANCHOR", PAST_ANCHOR_ROUND_63),
    ("dh64_score_aside_unchanged", "_SCORE_ASIDE", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc64_clerked_as_source", "attributes.yaml", '"clerking", "clerked", ', '"clerking", '),
    ("dc64_he_denies_after_comma", "attributes.yaml", r'"re:\\b(?:she|he)\\s+denies\\b", ', ""),
    (
        "dc64_both_the_side",
        "attributes.yaml",
        r"\\bboth\\b(?!\\s+(?:the\\s+)?(?:left|right|lt|rt)",
        r"\\bboth\\b(?!\\s+(?:left|right|lt|rt)",
    ),
    (
        "dc64_his_op_shortened",
        "attributes.yaml",
        r'"re:\\b(?:my|his|her|their|your|the)\\s+op\\b',
        r'"re:\\bzzq\\b',
    ),
    (
        "dc64_last_depot_on_date",
        "attributes.yaml",
        r"(?=\\s+(?:on\\s+)?\\d{1,2}[/.]\\d{1,2}\\b)",
        r"(?=\\s+\\d{1,2}[/.]\\d{1,2}\\b)",
    ),
    (
        "dc64_onset_first_appeared",
        "attributes.yaml",
        r'"re:\\bfirst\\s+(?:appeared|noticed)\\b"',
        r'"re:\\bzzq\\b"',
    ),
    (
        "dc64_skin_went_yellow",
        "attributes.yaml",
        r'"re:\\b(?:turned|went|gone|became)\\s+(?:yellow|jaundiced)\\b"',
        r'"re:\\bzzq\\b"',
    ),
    (
        "dc64_never_supplied",
        "attributes.yaml",
        r'"re:(?<=\\bno\\s+record\\s+of\\s+(?:it|them)\\s)',
        r'"re:(?<=\\bzzq\\s+(?:it|them)\\s)',
    ),
    (
        "dc64_test_followed",
        "attributes.yaml",
        r'"re:\\b(?:test|result|hcg|scan)\\s+(?:then\\s+|later\\s+|soon\\s+)?followed\\b"',
        r'"re:\\bzzq\\b"',
    ),
    (
        "dc64_agrees_with_neither",
        "attributes.yaml",
        r"agrees(?!\\s+with\\s+(?:neither|none|either)\\b)",
        "agrees",
    ),
    ("dc64_agrees_with_neither", "conflict.yaml", '      - "(agrees|agree) with neither"\n', ""),
    ("dc64_nothing_else_only", "conflict.yaml", r"(?:nothing(?!\\s+else\\b))", "(?:nothing)"),
    (
        "dh64_vomited_volume_blood",
        "high_risk.yaml",
        r'"re:\\bvomit(?:ed|ing|s)?\\s+(?:up\\s+)?',
        r'"re:\\bzzq\\s+(?:up\\s+)?',
    ),
    (
        "dh64_spreading_cellulitis",
        "high_risk.yaml",
        r'"re:(?<!\\bnon-)\\bspreading\\s+(?:cellulitis',
        r'"re:\\bzzq\\s+(?:cellulitis',
    ),
    (
        "dh64_wasnt_contracted",
        "modifiers.yaml",
        r"(?:wasn'?t|isn'?t|wasnt|isnt)\\b(?=",
        r"(?:zzq)\\b(?=",
    ),
    (
        "dm64_none_resulted_admission",
        "missing.yaml",
        r"\\s+(?:resulted|reported|back)\\s+(?:this|since|during|on)\\s+(?:this\\s+)?admission\\b",
        r"\\s+zzq\\b",
    ),
    (
        "dm64_element_not_on_letter",
        "missing.yaml",
        r"(?<=\\b(?:strength|dose|frequency|route|duration|indication)\\s+",
        r"(?<=\\b(?:zzq)\\s+",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
