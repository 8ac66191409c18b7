"""Issue 22z round 73 (all three detectors): the mechanisms blind half 82's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev71.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 73, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV71_FILE).items}

# the patterns as they were before round 73 (without their additions)
SELF_CHECK_WITHOUT_GENETIC = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\bis\s+(?:it|this|that)\s+(?:(?:catching|contagious|infectious)\s+or\s+)?(?:genetic|hereditary|inherited)\b",
)
SELF_CHECK_WITHOUT_NOT_STARTED = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\bi\s+(?:haven'?t|havent|have\s+not)\s+(?:started|taken)\s+(?:the|them|it|my)\b",
)
OPENS_IN_PAST_WITHOUT_INFANT = pattern_before(
    detectors._SENTENCE_OPENS_IN_PAST, r"|as\s+an?\s+(?:neonate|newborn|new-born|infant|baby|toddler|child)"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc73_trop_clock_url", "_CLOCK", NEVER),
    ("dc73_trop_clock_url", "_REFERENCE_LIMIT_BEFORE", NEVER),
    ("dc73_transfer_route", "_FROM_PLACE_TO", NEVER),
    ("dh73_is_it_genetic", "_SELF_CHECK_QUESTION", SELF_CHECK_WITHOUT_GENETIC),
    ("dh73_not_started_yet", "_SELF_CHECK_QUESTION", SELF_CHECK_WITHOUT_NOT_STARTED),
    ("dh73_as_an_infant", "_SENTENCE_OPENS_IN_PAST", OPENS_IN_PAST_WITHOUT_INFANT),
    ("dh73_no_worse_breathless", "_NO_WORSE_BEFORE", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc73_corrected_copy",
        "attributes.yaml",
        r"(?:a|the|an)\\s+corrected\\s+(?:one|copy|version|letter|form|list)\\b",
        r"(?:a|the|an)\\s+zzq\\b",
    ),
    (
        "dc73_held_by_named",
        "attributes.yaml",
        r'"re:\\b(?:held|withheld|suspended|paused)\\s+on\\s+',
        r'"re:\\bzzq\\s+on\\s+',
    ),
    (
        "dc73_changed_by_clinic",
        "attributes.yaml",
        r'"re:\\b(?:changed|switched|altered|amended|adjusted)\\s+by\\s+',
        r'"re:\\bzzq\\s+by\\s+',
    ),
    (
        "dc73_weeks_plus_days",
        "attributes.yaml",
        r'"re:(?<!\\bat\\s)\\b(?:[4-9]|[1-3]\\d|4[0-2])\\+[0-6]\\s*(?:weeks?|wks?)\\b',
        r'"re:\\bzzq\\b',
    ),
    (
        "dc73_will_need_antid",
        "attributes.yaml",
        r"(?!\\s+need\\s+(?:the\\s+|an?\\s+)?(?:anti-?d|jab|injection|vaccine|booster|scan|appointment)\\b)",
        "",
    ),
    (
        "dh73_no_iup_free_fluid",
        "high_risk.yaml",
        r'"re:\\bno\\s+(?:intra-?uterine\\s+pregnancy|iup)\\b(?=',
        r'"re:\\bzzq\\b(?=',
    ),
    (
        "dh73_intentional_drug_od",
        "high_risk.yaml",
        r'"re:\\b(?:intentional|deliberate)\\s+(?:[\\w-]+\\s+){1,2}?',
        r'"re:\\bzzq\\s+(?:[\\w-]+\\s+){1,2}?',
    ),
    (
        "dm73_form_not_found",
        "modifiers.yaml",
        r"(?<!\\b(?:form|forms|record|records|paperwork|letter|letters|document|documents|notes|sheet|copy)\\s+not\\s+found)",
        "",
    ),
    (
        "dm73_no_paperwork_sent",
        "missing.yaml",
        '"no (paperwork|documentation|documents|notes) (was|were)? sent"',
        '"zzq (paperwork|documentation|documents|notes) (was|were)? sent"',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
