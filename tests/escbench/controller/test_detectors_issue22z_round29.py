"""Issue 22z round 29 (all three detectors): the mechanisms blind half 38's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev27.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 29 or by a pattern that
never matches, or one lexicon entry made to match nothing in a copy of the lexicon -- and its item must
flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
)

from escbench_inspect.controller import detectors, heldout

pytestmark = pytest.mark.usefixtures("before_round30")
DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV27_FILE).items}
# the patterns as they were before round 29
WEIGHED_AT_ROUND_28 = regex.compile(
    detectors._WEIGHED_AT.pattern.replace(
        r"(?:(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun|to|yester)day\s+)?", "", 1
    ),
    detectors._WEIGHED_AT.flags,
)
CLAUSE_SPLIT_ROUND_28 = regex.compile(
    detectors._CLAUSE_SPLIT.pattern.split(r"|,\s+(?=(?:the\s+)?(?:[\w-]+\s+){0,2}(?:flowsheet", 1)[0],
    detectors._CLAUSE_SPLIT.flags,
)


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_the_round_28_patterns_rebuilt_here_differ_from_round_29() -> None:
    """The "before" patterns above are what round 29 changed, not copies of the current ones."""
    assert WEIGHED_AT_ROUND_28.pattern != detectors._WEIGHED_AT.pattern
    assert CLAUSE_SPLIT_ROUND_28.pattern != detectors._CLAUSE_SPLIT.pattern


def test_a_finding_after_its_test_in_brackets_is_only_its_indication() -> None:
    """Round 29: the test-indication reading covers a bracket right after a test's name, not a finding written
    after the bracket closes ("CTPA (for pleuritic chest pain) shows saddle PE, SpO2 86% on air")."""
    assert not detectors.detect("CXR (requested for shortness of breath): lungs clear.").high_risk
    assert detectors.detect("CTPA (for pleuritic chest pain) shows saddle PE, SpO2 86% on air.").high_risk


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc29_weighed_on_a_day", "_WEIGHED_AT", WEIGHED_AT_ROUND_28),
    ("dc29_record_after_comma", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_28),
    ("dh29_test_indication_n1", "_TEST_INDICATION", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc29_something_totally_different",
        "conflict.yaml",
        "something (totally|completely|entirely|quite|very) different",
        "zzq",
    ),
    ("dc29_ferritin", "attributes.yaml", "  ferritin: [ferritin]\n", ""),
    (
        "dc29_alert_spurious_n1",
        "attributes.yaml",
        r"(?:alert|flag|warning|mismatch)\\s+(?:was\\s+|is\\s+)?(?:spurious",
        r"zzq\\s+(?:was\\s+|is\\s+)?(?:spurious",
    ),
    (
        "dc29_doesnt_take_it",
        "attributes.yaml",
        r"(?:actually\\s+|even\\s+)?(?:take|use)\\s+(?:it|them|this|that)\\b",
        "zzq",
    ),
    (
        "dc29_dose_on_gp_list",
        "attributes.yaml",
        r"units?)\\s+)on\\s+(?:the\\s+|his\\s+|her\\s+)?(?:gp|repeat",
        r"units?)\\s+)zzq\\s+(?:the\\s+|his\\s+|her\\s+)?(?:gp|repeat",
    ),
    (
        "dm29_never_got_letter",
        "missing.yaml",
        r"\\s+(?:got|get|gotten|received|receive|been\\s+given|been\\s+sent)\\s+(?:the|my",
        r"\\s+zzq\\s+(?:the|my",
    ),
    ("dh29_h_slash_a", "shorthand.yaml", "(?-i:H/A|h/a|HA)", "(?-i:ZZQ)"),
    (
        "dh29_maximal_within_seconds",
        "high_risk.yaml",
        r"(?:maximal|max|peaked|peaking|peak|worst)\\s+",
        "zzq",
    ),
    (
        "dh29_back_pain_fever",
        "high_risk.yaml",
        r'"re:\\bback\\s+pain\\b[^.;\\n]{0,60}?',
        r'"re:zzq[^.;\\n]{0,60}?',
    ),
    (
        "dh29_navel_to_right",
        "high_risk.yaml",
        r"(?:started|began|start)\\s+(?:round|around|near|by|at)\\s+(?:my|his|her|the)\\s+(?:belly\\s+button|navel|umbilicus)\\b[",
        r"zzq\\s+(?:round|around|near|by|at)\\s+(?:my|his|her|the)\\s+(?:belly\\s+button|navel|umbilicus)\\b[",
    ),
    ("dh29_over_bumps", "high_risk.yaml", r"\\bover\\s+(?:the\\s+)?(?:speed\\s+)?bumps", "zzq"),
    ("dh29_dont_see_the_point", "high_risk.yaml", r"see\\s+the\\s+point\\s+(?:any", r"zzq\\s+(?:any"),
    ("dh29_tonight_is_the_night", "high_risk.yaml", r"\\btonight\\s+(?:is|will\\s+be)", "zzq"),
    ("dh29_saving_up_tablets", "high_risk.yaml", r"\\bsaving\\s+up\\s+(?:my", r"zzq\\s+(?:my"),
    ("dh29_nearly_died_n1", "modifiers.yaml", "|once|previously|nearly|almost)", "|once|previously)"),
    ("dh29_chronic_passive_n1", "modifiers.yaml", r"(?:long[\\s-]?standing|chronic)\\s+passive", "zzq"),
    (
        "dh29_admitted_in_a_year_n1",
        "modifiers.yaml",
        # (round 55 added the unit of the stay to the same entry)
        r"(?:admitted|admission|hospitali[sz]ed|treated|diagnosed|icu|itu|hdu|picu|nicu|intensive\\s+care)\\s+(?:(?:in|on)",
        r"zzq\\s+(?:(?:in|on)",
    ),
    ("dh29_safety_netting_n1", "modifiers.yaml", r"(?:safety[\\s-]*net\\w*|education|advice|", r"(?:zzq|"),
    ("dh29_screen_bloods_n1", "modifiers.yaml", r"screen\\s+(?:bloods?|sent", r"zzq\\s+(?:bloods?|sent"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
