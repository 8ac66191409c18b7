"""Issue 22z round 71 (all three detectors): the mechanisms blind half 80's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev69.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 71, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV69_FILE).items}

# the patterns as they were before round 71 (without their additions)
SELF_CHECK_WITHOUT_SCAN = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\b(?:can|could|should)\s+i\s+(?:also\s+)?(?:get|be|have)\s+(?:a\s+)?scann?(?:ed)?\b"
    r"|\bdo\s+i\s+need\s+(?:any\s+)?(?:extra|more|special|further)\s+(?:checks|tests|monitoring|scans)\b"
    r"|\bworried\s+(?:that\s+)?it\s+(?:will|might|could)\s+happen\s+to\s+me\b",
)
UNCHANGED_WITHOUT_YEARS = pattern_before(
    detectors._UNCHANGED_AFTER, r"|[^.;\n]{0,20}?,\s*unchanged\s+for\s+(?:many\s+|several\s+)?(?:years|yrs)\b"
)


def never_apart(mentions: object, first: int, second: int) -> bool:
    """``_drugs_apart`` taken out: no two clauses name two different drugs."""
    return False


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc71_earlier_pregnancy", "_EARLIER_PREGNANCY", NEVER),
    ("dc71_two_drugs_supplies", "_drugs_apart", never_apart),
    ("dh71_scanned_for_one", "_SELF_CHECK_QUESTION", SELF_CHECK_WITHOUT_SCAN),
    ("dh71_extra_checks", "_SELF_CHECK_QUESTION", SELF_CHECK_WITHOUT_SCAN),
    ("dh71_unchanged_for_yrs", "_UNCHANGED_AFTER", UNCHANGED_WITHOUT_YEARS),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc71_fine_to_keep_taking",
        "conflict.yaml",
        r"(?!\\s+to\\s+(?:carry\\s+on|continue|keep|take|use|stay)\\b)",
        "",
    ),
    (
        "dc71_resolved_then_corrected",
        "conflict.yaml",
        r"(?<!\\b(?:mismatch|discrepancy|difference)\\s+",
        r"(?<!\\bzzq(?:mismatch|discrepancy|difference)\\s+",
    ),
    (
        "dc71_previous_medications",
        "attributes.yaml",
        r'"re:\\bunder\\s+(?:the\\s+)?(?:previous|past',
        r'"re:\\bzzq\\s+(?:the\\s+)?(?:previous|past',
    ),
    (
        "dc71_never_had_transplant",
        "attributes.yaml",
        r"transplant\\w*(?<!\\b(?:never|not)\\s+",
        r"transplant\\w*(?<!\\bzzq(?:never|not)\\s+",
    ),
    ("dc71_denies_insists", "conflict.yaml", r"\\bdenies\\b[^.;\\n]{0,80}?\\binsists?\\b", r"\\bzzq\\b"),
    (
        "dc71_hcg_on_this_sample",
        "attributes.yaml",
        r"hcg\\s+(?:on|in|from)\\s+(?:this|the|that|today'?s)",
        r"zzq\\s+(?:on|in|from)\\s+(?:this|the|that|today'?s)",
    ),
    (
        "dh71_drain_frank_blood",
        "high_risk.yaml",
        r"\\s*ml\\s+(?:of\\s+)?frank\\s+blood\\s+(?:in|into|from)",
        r"\\s*zzq\\s+(?:in|into|from)",
    ),
    (
        "dh71_sentence_without_breath",
        "high_risk.yaml",
        "unable to) get through a (whole",
        "unable to) zzq a (whole",
    ),
    (
        "dm71_never_got_result",
        "missing.yaml",
        r'"re:\\bnever\\s+(?:got|received|was\\s+given|was\\s+told)',
        r'"re:\\bzzq\\s+(?:got|received|was\\s+given|was\\s+told)',
    ),
    (
        "dm71_score_cannot_be_scored",
        "missing.yaml",
        r'"re:\\b(?:q?sofa|pews|mews)\\s+',
        r'"re:\\b(?:zzq)\\s+',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
