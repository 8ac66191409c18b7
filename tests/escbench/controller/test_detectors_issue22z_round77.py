"""Issue 22z round 77 (all three detectors): the mechanisms blind half 86's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev75.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name made to match nothing, or one lexicon entry made
to match nothing in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
)

from escbench_inspect.controller import heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV75_FILE).items}

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc77_relative_per", "_RELATIVE_DATE_SOURCE", NEVER),
    ("dc77_seconds_at_end", "_SECONDS_AT_END", NEVER),
    ("dc77_seconds_clause", "_SECONDS_AT_END", NEVER),
    ("dc77_heading_sample", "_DATED_HEADING", NEVER),
    ("dc77_stop_denied", "_STOP_DENIED_BEFORE", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc77_last_dose_brand",
        "attributes.yaml",
        r"\\s+(?:recorded|documented|charted|given|administered)(?=",
        r"\\s+(?:zzq)(?=",
    ),
    ("dc77_pod_from", "attributes.yaml", r'"re:\\bpod\\s+(?:counted\\s+)?(?:from|since)\\b"', '"zzq"'),
    (
        "dc77_pregnancy_na",
        "attributes.yaml",
        r'"re:\\bpregnancy\\s*(?:status\\s*)?[:=-]?\\s*n/a\\b"',
        '"zzq"',
    ),
    (
        "dc77_agree_too_n1",
        "conflict.yaml",
        r"(?<!\\b(?:too|as\\s+well|also)\\s+so\\s+(?:that'?s|thats|that\\s+is|all)\\s+(?:fine|okay|ok))",
        "",
    ),
    (
        "dc77_older_still_n1",
        "conflict.yaml",
        r"(?<!\\bolder\\s+(?:[\\w-]+\\s+){0,2}(?:enclosed|attached|included)\\s+still)",
        "",
    ),
    (
        "dh77_bleeding_not_stopped",
        "high_risk.yaml",
        r'"re:\\bbleeding\\b[^.;\\n]{0,30}?\\b(?:hasn',
        r'"re:\\bzzq\\b[^.;\\n]{0,30}?\\b(?:hasn',
    ),
    (
        "dm77_neither_nor",
        "missing.yaml",
        r"(?:recorded|documented|stated|given|listed|mentioned)\\s+neither\\s+(?:in|on|by)",
        r"(?:zzq)\\s+neither\\s+(?:in|on|by)",
    ),
    (
        "dm77_not_accompany",
        "missing.yaml",
        "(accompany|accompanied) (the|his|her|their|this) (referral|request|patient|transfer|admission)",
        "(zzq) (the|his|her|their|this) (referral|request|patient|transfer|admission)",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
