"""Issue 22z round 54 (all three detectors): the mechanisms blind half 63's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev52.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 54, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV52_FILE).items}

# the patterns as they were before round 54 (each without one of round 54's additions)
NOT_HAD_WITHOUT_DENIES = pattern_before(
    detectors._NOT_HAD_BEFORE, r"|\b(?:denies|denied|denying)\s+(?:taking\s+|using\s+|having\s+)?(?:any\s+)?$"
)
NOT_HAD_WITHOUT_WITH_NO = pattern_before(detectors._NOT_HAD_BEFORE, r"|\b(?:with|and)\s+no\s+$")
CLAUSE_SPLIT_ROUND_53 = pattern_before(detectors._CLAUSE_SPLIT, r"|read\s+out")
RECOVERED_AFTER_ROUND_53 = pattern_before(
    detectors._RECOVERED_AFTER, r"|\bresolved\s+(?:completely|fully|entirely)\b"
)
NAMES_A_THRESHOLD_ROUND_53 = pattern_before(detectors._NAMES_A_THRESHOLD, "|concern")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc54_limb_bracket", "_LIMB_BRACKET", NEVER),
    ("dc54_both_last", "_LAST_ONE", NEVER),
    ("dc54_denies_any", "_NOT_HAD_BEFORE", NOT_HAD_WITHOUT_DENIES),
    ("dc54_with_no_drug", "_NOT_HAD_BEFORE", NOT_HAD_WITHOUT_WITH_NO),
    ("dc54_nurse_read_out", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_53),
    ("dh54_resolved_completely_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_53),
    ("dh54_counselled_if_n1", "_value_in_condition", lambda *_: False),
    ("dh54_concern_threshold_n1", "_NAMES_A_THRESHOLD", NAMES_A_THRESHOLD_ROUND_53),
    ("dh54_last_month_resolved_n1", "_WEEKS_AGO_THEN_RESOLVED", NEVER),
    ("dm54_long_term_n1", "_OPEN_ENDED_BEFORE", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc54_no_injection_given",
        "attributes.yaml",
        r'"re:\\bno\\s+(?:injection|dose|tablet|infusion)\\s+(?:was',
        r'"re:\\bzzq\\s+(?:injection|dose|tablet|infusion)\\s+(?:was',
    ),
    (
        "dc54_comfort_order_set",
        "attributes.yaml",
        r'"re:\\bcomfort[\\s-]+care\\s+(?:order\\s+set|orders?)\\b",',
        '"re:zzq",',
    ),
    (
        "dc54_hcg_drawn_at",
        "attributes.yaml",
        r"|(?:drawn|taken|sent|collected)\\s+at\\s+\\d{1,2}:?\\d{2}\\s+)?",
        ")?",
    ),
    (
        "dc54_home_tests",
        "attributes.yaml",
        r'"re:\\bhome\\s+(?:pregnancy\\s+)?tests?\\b',
        r'"re:\\bzzq\\s+(?:pregnancy\\s+)?tests?\\b',
    ),
    (
        "dc54_never_pregnant",
        "attributes.yaml",
        r'"re:\\bnever\\s+been\\s+pregnant\\b", "re:(?-i:\\bG0\\b)",',
        '"re:zzq",',
    ),
    (
        "dc54_our_result",
        "attributes.yaml",
        r'"re:\\bour\\s+(?:result|results|lab|laboratory|record|records|chart|system|notes)\\b",',
        '"re:zzq",',
    ),
    (
        "dh54_gcs_arrow",
        "high_risk.yaml",
        r'"re:\\bgcs\\s*(?:of\\s+)?1[0-5]\\s*(?:-+>',
        r'"re:\\bzzq\\s*(?:of\\s+)?1[0-5]\\s*(?:-+>',
    ),
    (
        "dh54_tia_clinic_n1",
        "high_risk.yaml",
        r'"re:\\btia\\b(?!(?<=\\b(?:seen|reviewed|attended|assessed|followed\\s+up)\\s+(?:in|at|by)\\s+'
        r'(?:the\\s+|a\\s+)?tia)\\s+(?:clinic|service))"',
        '"tia"',
    ),
    (
        "dh54_as_a_toddler_n1",
        "modifiers.yaml",
        '"as a child/teenager/baby/toddler"',
        '"as a child/teenager/baby"',
    ),
    (
        "dh54_kept_fills",
        "high_risk.yaml",
        r"(?:keeping|kept|keeps|saving|saved|hoarding|hoarded|stockpiling|stockpiled)\\s+(?:(?:his",
        r"(?:zzq)\\s+(?:(?:his",
    ),
    (
        "dh54_all_to_stop",
        "high_risk.yaml",
        r"(?:want|wants|wanted|wanting)\\s+(?:it\\s+)?all\\s+to\\s+(?:stop|end)",
        r"(?:zzq)\\s+(?:it\\s+)?all\\s+to\\s+(?:stop|end)",
    ),
    ("dm54_no_taper", "missing.yaml", r"|indication|taper|tapering\\s+plan))?", "|indication))?"),
    (
        "dm54_states_neither",
        "missing.yaml",
        r'"re:\\b(?:states|gives|says|records|mentions|lists|documents)\\s+neither\\b',
        r'"re:\\bzzq\\s+neither\\b',
    ),
    (
        "dm54_neither_says_whether",
        "missing.yaml",
        r'"re:\\bneither\\b[^.;\\n]{0,80}?\\bnor\\b',
        r'"re:\\bzzq\\b[^.;\\n]{0,80}?\\bnor\\b',
    ),
    (
        "dm54_never_actually_said",
        "missing.yaml",
        "(actually|really|even|ever)? (said|say|told",
        "(said|say|told",
    ),
    (
        "dm54_pharmacy_name_n1",
        "needed_items.yaml",
        ', "name of (my|the|his|her|their|our) (pharmacy|chemist)"]',
        "]",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
