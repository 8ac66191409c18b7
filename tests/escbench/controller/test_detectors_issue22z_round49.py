"""Issue 22z round 49 (all three detectors): the mechanisms blind half 58's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev47.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 49, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV47_FILE).items}

# the patterns as they were before round 49
WELL_NOW_WITHOUT_SINCE = pattern_before(
    detectors._WELL_NOW, r"|\bno\s+(?:\w+\s+){1,2}?since\b(?!\s+(?:yesterday|this|last|\d))"
)
WELL_NOW_WITHOUT_NORMALLY = pattern_before(
    detectors._WELL_NOW,
    r"|\b(?:today|now|currently)\b(?:[^.;\n]|\.\d){0,60}?\b(?:eating|drinking|feeding|behaving)\s+normally\b",
)
IN_PAST_BRACKET_ROUND_48 = pattern_before(
    detectors._IN_PAST_BRACKET,
    # (with round 52's year, which extends the same alternative)
    r"|\badmitted\s+(?:last\s+(?:month|year)|(?:\d+|a|one|two|three|four|five|six|several)\s+(?:weeks?|months?|years?)"
    r"\s+ago|(?:in\s+)?(?:19|20)\d\d)\s+with\s+[\w-]+(?:\s+[\w-]+){0,2}",
)


def now_stated_round_48(clause_text: list[str], active: int, stop: int) -> bool:
    """Round 30's reading: only the stop's own clause may state the present."""
    return detectors._NOW_STATED.search(clause_text[stop]) is not None


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh49_relative_aside", "_RELATIVE_ASIDE", NEVER),
    ("dh49_no_pain_since_n1", "_WELL_NOW", WELL_NOW_WITHOUT_SINCE),
    ("dh49_eating_normally_n1", "_WELL_NOW", WELL_NOW_WITHOUT_NORMALLY),
    ("dh49_which_presented_n1", "_PRESENTED_RELATIVE", NEVER),
    ("dh49_admitted_bracket_n1", "_IN_PAST_BRACKET", IN_PAST_BRACKET_ROUND_48),
    ("dc49_current_between_n1", "_now_stated", now_stated_round_48),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc49_broselow", "attributes.yaml", '"broselow", "yellow book"', '"yellow book"'),
    (
        "dc49_hcg_documented_neg",
        "attributes.yaml",
        # (round 55 added "charted" to the same entry)
        r"(?:recorded|documented|resulted|logged|charted)\\s+(?:neg",
        r"(?:zzq)\\s+(?:neg",
    ),
    (
        "dc49_preg_test_pos",
        "attributes.yaml",
        r'"re:\\bpreg\\.?\\s+test\\b[^.;,]{0,30}?(?:\\+',
        r'"re:\\bzzq\\.?\\s+test\\b[^.;,]{0,30}?(?:\\+',
    ),
    ("dc49_pregnancy_weeks", "attributes.yaml", r'"re:\\bpregnancy\\s*[,:(-]', r'"re:\\bzzq\\s*[,:(-]'),
    ("dc49_brand_allergen", "attributes.yaml", "diclofenac, nurofen, brufen, advil, motrin]", "diclofenac]"),
    ("dc49_turned_out_n1", "attributes.yaml", r'"re:\\bturn(?:s|ed)\\s+out', r'"re:\\bzzq\\s+out'),
    (
        "dh49_sepsis_bloods_n1",
        "modifiers.yaml",
        r'"re:^[\\s-]*bloods?\\s+(?:back',
        r'"re:^[\\s-]*zzq\\s+(?:back',
    ),
    (
        "dh49_no_protein_fm_n1",
        "high_risk.yaml",
        '"re:\\\\b(?:decreased|reduced|no)\\\\b(?:\\\\s+[\\\\w\'-]+){0,3}?\\\\s+fetal\\\\s+movements?\\\\b"',
        '"decreased/reduced/no .. fetal movement*"',
    ),
    ("dh49_relative_has_n1", "modifiers.yaml", r"(?:[\\w-]+\\s+){1,6}with)", r"(?:[\\w-]+\\s+){1,4}with)"),
    ("dm49_not_supplied", "missing.yaml", r'(?:been\\s+)?supplied\\b"', r'(?:been\\s+)?zzq\\b"'),
    (
        "dm49_so_terminator",
        "modifiers.yaml",
        r"(?<=,\\s{0,2})so\\b|\\bso\\s+(?=(?:there|theres|there",
        "zzq(?=(?:there|theres|there",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
