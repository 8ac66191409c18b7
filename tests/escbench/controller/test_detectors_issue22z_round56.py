"""Issue 22z round 56 (all three detectors): the mechanisms blind half 65's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev54.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 56, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV54_FILE).items}

# the patterns as they were before round 56 (each without one of round 56's additions)
PROCEDURE_RECORD_ROUND_55 = pattern_before(
    detectors._PROCEDURE_RECORD,
    r"|colonoscopy|endoscopy|gastroscopy|ogd|sigmoidoscopy|cystoscopy|bronchoscopy",
)
FIELD_NO_ROUND_55 = pattern_before(detectors._FIELD_NO, r"(?:[:=?]|\s[-–—])", "[:=?]")
ONLY_BEFORE_ROUND_55 = pattern_before(
    detectors._ONLY_BEFORE, r"|\bonly\s+(?:lists|shows|records|documents|says|reads|mentions)\s+$"
)
DELIVERY_ASIDE_ROUND_55 = pattern_before(
    detectors._DELIVERY_ASIDE,
    r"|,\s*(?:which|that)\s+(?:i|we)\s+(?:have|hold|am\s+holding|am\s+looking\s+at)"
    r"(?:\s+(?:in\s+front\s+of\s+(?:me|us)|here|to\s+hand|with\s+me|now))?\s*,",
)
WEEKS_AGO_ROUND_55 = pattern_before(
    detectors._WEEKS_AGO_THEN_RESOLVED, r"|(?:consistently\s+|repeatedly\s+|firmly\s+)?denies"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc56_endoscopy_report", "_PROCEDURE_RECORD", PROCEDURE_RECORD_ROUND_55),
    ("dc56_field_dash_no", "_FIELD_NO", FIELD_NO_ROUND_55),
    ("dc56_only_mentions", "_ONLY_BEFORE", ONLY_BEFORE_ROUND_55),
    ("dc56_aside_here", "_DELIVERY_ASIDE", DELIVERY_ASIDE_ROUND_55),
    ("dc56_accession_between", "_ACCESSION", NEVER),
    ("dh56_mths_ago_denies_n1", "_WEEKS_AGO_THEN_RESOLVED", WEEKS_AGO_ROUND_55),
    ("dh56_later_reading", "_LATER_READING", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc56_event_named_as",
        "attributes.yaml",
        r'"re:\\b(?:gallbladder|gall\\s+bladder|appendix|tonsils|womb|uterus|thyroid|spleen|kidney)\\s+',
        r'"re:\\b(?:zzq)\\s+',
    ),
    (
        "dc56_both_say_now_n1",
        "conflict.yaml",
        r"(?![^.\\n]{0,80}?\\bnow\\b[^.\\n]{0,40}?\\bboth\\s+(?:say|show|read|match|agree)\\b)",
        "",
    ),
    ("dc56_bb_capitals", "attributes.yaml", r'"re:(?-i:\\bBB\\b)(?=', r'"re:(?-i:\\bzzq\\b)(?='),
    (
        "dc56_stopped_at_visit_n1",
        "attributes.yaml",
        r"\\b(?:on|at\\s+(?:the|her|his|their))\\s+",
        r"\\bon\\s+",
    ),
    (
        "dh56_adult_age_n1",
        "modifiers.yaml",
        r"(?:aged\\s+)?(?:1[89]|[2-9]\\d|1[01]\\d)\\b",
        r"(?:aged\\s+)?(?:zzq)\\b",
    ),
    # the guard: any age (as first written) reads a child's episode that comes again as history
    (
        "dh56_child_age_guard",
        "modifiers.yaml",
        r"(?:aged\\s+)?(?:1[89]|[2-9]\\d|1[01]\\d)\\b",
        r"(?:aged\\s+)?\\d{1,3}\\b",
    ),
    (
        "dh56_year_presenting_n1",
        "modifiers.yaml",
        r'"re:\\b(?:19|20)\\d\\d\\s+(?:presenting|presented|presentation)\\s+with\\b"',
        '"re:zzq"',
    ),
    (
        "dh56_cp_type_n1",
        "shorthand.yaml",
        r"(?<!\\b(?:spastic|quadriplegic|diplegic|hemiplegic|dyskinetic|ataxic|athetoid|mixed)\\s+)",
        "",
    ),
    (
        "dm56_but_not_the",
        "missing.yaml",
        r'"re:\\bbut\\s+not\\s+(?:the|his|her|their|its)\\s+',
        r'"re:\\bzzq\\s+not\\s+(?:the|his|her|their|its)\\s+',
    ),
    (
        "dm56_none_of_the",
        "missing.yaml",
        r'"re:\\bnone\\s+of\\s+the\\s+',
        r'"re:\\bzzq\\s+of\\s+the\\s+',
    ),
    (
        "dm56_nobodys_told",
        "missing.yaml",
        "(nobody|nobodys|nobody's|no one|noone) ..",
        "(nobody|no one|noone) ..",
    ),
    (
        "dm56_no_attachment",
        "missing.yaml",
        r'"re:\\bno\\s+(?:enclosure|enclosures|attachment|attachments)\\s+',
        r'"re:\\bno\\s+(?:zzq)\\s+',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
