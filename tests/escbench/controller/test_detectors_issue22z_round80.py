"""Issue 22z round 80 (all three detectors): the mechanisms blind half 89's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev78.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name made to match nothing, or one lexicon entry made
to match nothing in a copy of the lexicon -- and its item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV78_FILE).items}

# the pattern as it was before round 80 (without its addition)
LONGSTANDING_AFTER_WITHOUT_SAME_AS = pattern_before(
    detectors._LONGSTANDING_AFTER,
    r"|[^.;\n]{0,40}?,\s*same\s+as\s+the\s+(?:last|past)\s+(?:many|several|few|two|three|four|five|ten|\d+)\s+"
    r"(?:years|yrs|months)\b",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc80_says_month", "_SAYS_MONTH", NEVER),
    ("dh80_same_as_years_n1", "_LONGSTANDING_AFTER", LONGSTANDING_AFTER_WITHOUT_SAME_AS),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc80_first_convulsion",
        "attributes.yaml",
        r'"re:\\bfirst\\s+(?:seizure|fit|convulsion)\\b"',
        r'"re:\\bzzq\\s+(?:seizure|fit|convulsion)\\b"',
    ),
    (
        "dc80_allergy_on_app",
        "attributes.yaml",
        '"(allergy|allergies) on (the|my|his|her|their)? (app|',
        '"(allergy|allergies) zzq (the|my|his|her|their)? (app|',
    ),
    (
        "dc80_still_receives",
        "attributes.yaml",
        "|lists|shows|gets|getting|receives|receiving)",
        "|lists|shows)",
    ),
    ("dc80_still_on_repeat", "attributes.yaml", r'"re:(?<!\\bstill\\s+on\\s)(?<!', r'"re:(?<!'),
    (
        "dc80_micromol",
        "attributes.yaml",
        "umol/l: 1.0, micromol/l: 1.0, mg/dl: 88.42}",
        "umol/l: 1.0, mg/dl: 88.42}",
    ),
    ("dc80_amended_bracket_n1", "attributes.yaml", r"{1,3}?(?:\\([^()]{1,40}\\)\\s+)?to\\b", r"{1,3}?to\\b"),
    (
        "dm80_onset_not_in_notes",
        "missing.yaml",
        r'"re:\\bonset\\s+(?:time\\s+)?not\\s+',
        r'"re:\\bzzq\\s+(?:time\\s+)?not\\s+',
    ),
    (
        "dm80_never_got_through",
        "missing.yaml",
        r'"re:\\bnever\\s+got\\s+through\\b',
        r'"re:\\bzzq\\s+got\\s+through\\b',
    ),
    (
        "dm80_only_weight_from_year",
        "missing.yaml",
        r'"re:\\bonly\\s+(?:recorded\\s+)?weight\\s+',
        r'"re:\\bzzq\\s+(?:recorded\\s+)?weight\\s+',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
