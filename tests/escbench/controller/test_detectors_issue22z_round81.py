"""Issue 22z round 81 (all three detectors): the mechanisms blind half 90's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev79.yaml``). Every item is read as
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV79_FILE).items}

# the patterns as they were before round 81 (without its additions)
ONLY_BEFORE_WITHOUT_DRUG_ALLERGY_AS = pattern_before(
    detectors._ONLY_BEFORE,
    r"|\b(?:records|recorded|lists|listed|documents|documented|gives|gave|codes|coded)\s+(?:her|his|their|the)\s+"
    r"drug\s+allergy\s+as\s+$",
)
LIST_HEADING_WITHOUT_TIME_LABEL = pattern_before(
    detectors._LIST_HEADING, r"(?:(?:overnight|o/n|handover|update|addendum)\s*:\s*)?"
)
RECOVERED_AFTER_WITHOUT_NONE_SINCE = pattern_before(
    detectors._RECOVERED_AFTER,
    r"|\b(?:have|has|had)(?:n'?t|\s+not)\s+had\s+(?:any|another)\s+(?:more\s+|further\s+)?(?:[a-z-]+\s+){0,2}?"
    r"[a-z-]+\s+(?:ever\s+)?since\b",
)
OWN_VERB_RESOLVED_WITHOUT_COMMA_NOW = pattern_before(
    detectors._OWN_VERB_RESOLVED, r"|(?:\s+[a-z]+)?\s*,\s*now\s+(?:fully\s+|completely\s+)?resolved\b"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc81_since_weekday", "_SINCE_BEFORE", NEVER),
    ("dc81_stop_vs_last_tablet", "_STOP_AS_LAST_DOSE", frozenset()),
    ("dc81_drug_allergy_as", "_ONLY_BEFORE", ONLY_BEFORE_WITHOUT_DRUG_ALLERGY_AS),
    ("dc81_overnight_heading", "_LIST_HEADING", LIST_HEADING_WITHOUT_TIME_LABEL),
    ("dh81_none_since_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_WITHOUT_NONE_SINCE),
    ("dh81_comma_now_resolved_n1", "_OWN_VERB_RESOLVED", OWN_VERB_RESOLVED_WITHOUT_COMMA_NOW),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc81_for_removal_plan",
        "attributes.yaml",
        r'"re:(?<!\\bfor\\s+(?:the\\s+|an?\\s+)?(?:[\\w-]+\\s+){1,2})(?<!',
        r'"re:(?<!',
    ),
    ("dc81_enox", "attributes.yaml", "  enox]", "  zzqx]"),
    (
        "dc81_resus_status_full",
        "attributes.yaml",
        r'"re:\\bresus(?:citation)?\\s+status',
        r'"re:\\bzzq(?:citation)?\\s+status',
    ),
    (
        "dc81_still_shows_when_n1",
        "conflict.yaml",
        r"(?!\\s+when\\s+(?:i|he|she|they|we)\\s+(?:was|were)\\b)",
        "",
    ),
    (
        "dh81_relative_transfusion_n1",
        "modifiers.yaml",
        r'transfusions?\\s+(?:after|for|following)\\b"',
        r'zzq\\s+(?:after|for|following)\\b"',
    ),
    (
        "dh81_approx_tablets",
        "high_risk.yaml",
        r'"re:\\b(?:swallowed|ingested|taken|took)\\s+(?:est|approx|appx)\\.',
        r'"re:\\bzzq\\s+(?:est|approx|appx)\\.',
    ),
    (
        "dm81_pages_have_no_name",
        "missing.yaml",
        "printouts|letters|scripts) .. have no",
        "printouts|letters|scripts) .. zzq no",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
