"""Issue 22z round 27 (all three detectors): the mechanisms blind half 36's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev25.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 27 or by a pattern that
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
DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV25_FILE).items}
# the patterns as they were before round 27
WELL_NOW_ROUND_26 = regex.compile(
    detectors._WELL_NOW.pattern.split(r"|\b(?:remained|remains", 1)[0], detectors._WELL_NOW.flags
)
REPEAT_VALUE_ROUND_26 = regex.compile(
    detectors._REPEAT_VALUE.pattern.replace(r"|-+>|→)", ")", 1).replace("{0,4}", "{0,3}", 1),
    detectors._REPEAT_VALUE.flags,
)


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_the_round_26_patterns_rebuilt_here_differ_from_round_27() -> None:
    """The "before" patterns above are what round 27 changed, not copies of the current ones."""
    assert WELL_NOW_ROUND_26.pattern != detectors._WELL_NOW.pattern
    assert REPEAT_VALUE_ROUND_26.pattern != detectors._REPEAT_VALUE.pattern


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh27_weeks_later_n1", "_WEEKS_LATER", NEVER),
    ("dh27_remained_well_n1", "_WELL_NOW", WELL_NOW_ROUND_26),
    ("dh27_arrow_n1", "_REPEAT_VALUE", REPEAT_VALUE_ROUND_26),
    ("dh27_not_suspected_n1", "_queried_then_denied", lambda found, _text: found),
    ("dm27_which_chemist_n1", "_object_immaterial", lambda *_: False),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dh27_haemolysed_n1",
        "modifiers.yaml",
        r'"re:(?<!\\bnot\\s)(?<!\\bnon',
        r'"re:zzq(?<!\\bnot\\s)(?<!\\bnon',
    ),
    (
        "dh27_not_haemolysed",
        "modifiers.yaml",
        r'"re:(?<!\\bnot\\s)(?<!\\bnon[-\\s])(?<!\\bno\\s)\\b(?:haemoly',
        r'"re:\\b(?:haemoly',
    ),
    ("dh27_not_suspected_n1", "modifiers.yaml", '"not suspected"', '"zzq"'),
    (
        "dm27_nothing_arrived",
        "missing.yaml",
        r'"re:\\bnothing\\s+(?:has\\s+)?(?:arrived',
        r'"re:zzq(?:arrived',
    ),
    ("dm27_in_our_system", "missing.yaml", r"\\s+(?:yet\\s+)?(?:in|on)\\s+our\\s+", r"\\s+zzq\\s+"),
    ("dm27_nobody_has", "missing.yaml", r'"re:\\bnobody\\s+has\\b(?=', r'"re:zzq\\b(?='),
    (
        "dm27_which_chemist_n1",
        "missing.yaml",
        r"nominated|regular)\\s+(?:pharmacy|chemist)",
        r"nominated|regular)\\s+pharmacy",
    ),
    ("dc27_corrected_now_n1", "attributes.yaml", r"(?:corrected|amended|fixed|updated)\\s+now\\b", "zzq"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
