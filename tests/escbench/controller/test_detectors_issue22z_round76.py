"""Issue 22z round 76 (all three detectors): the mechanisms blind half 85's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev74.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 76, or one
lexicon entry made to match nothing in a copy of the lexicon -- and its item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV74_FILE).items}

# the patterns as they were before round 76 (without their additions)
FREQUENCY_WITHOUT_OD = pattern_before(detectors._FREQUENCY, r"|\bod\b")
SAME_OCCASION_WITHOUT_THAT_SAMPLE = pattern_before(
    detectors._SAME_OCCASION, r"|\b(?:for|from|on)\s+that\s+(?:sample|specimen|draw|tube)\b"
)
SELF_CHECK_QUESTION_WITHOUT_WANT = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\b(?:want|wanted)\s+(?:to\s+(?:get|have)\s+)?(?:my|me|myself)\b[^.?!\n]{0,30}?\s+"
    r"(?:checked|tested|screened)\b",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc76_od", "_FREQUENCY", FREQUENCY_WITHOUT_OD),
    ("dc76_that_sample", "_SAME_OCCASION", SAME_OCCASION_WITHOUT_THAT_SAMPLE),
    ("dc76_reference_bracket_n1", "_REFERENCE_LIMIT_BEFORE", NEVER),
    ("dc76_op_note_dated_year", "_DATED_YEAR", NEVER),
    ("dh76_want_checked_n1", "_SELF_CHECK_QUESTION", SELF_CHECK_QUESTION_WITHOUT_WANT),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc76_prescriber", "attributes.yaml", '"prescriber/prescribers"', '"zzq"'),
    (
        "dc76_cephalic",
        "attributes.yaml",
        "arm: [arm, humerus, basilic, cephalic]",
        "arm: [arm, humerus, basilic]",
    ),
    (
        "dc76_everything_incl",
        "attributes.yaml",
        r'"re:\\beverything\\s+(?:incl\\.?|inc\\.?)\\s+(?:intubation',
        r'"re:\\bzzq\\s+(?:incl\\.?|inc\\.?)\\s+(?:intubation',
    ),
    (
        "dc76_reduced_by_team_n1",
        "attributes.yaml",
        r"(?:↓|↑|reduced|increased|decreased|lowered|raised|halved|doubled)\\s+by\\s+",
        r"(?:zzq)\\s+by\\s+",
    ),
    (
        "dc76_different_from_the_one",
        "conflict.yaml",
        '"different from the one (recorded|',
        '"zzq from the one (recorded|',
    ),
    ("dc76_confirm_diagnosis_n1", "conflict.yaml", r"(?!\\s+diagnosis\\b)", ""),
    (
        "dh76_words_up",
        "high_risk.yaml",
        '"(mixing|mixes|mixed|muddling|muddles|muddled) (his|her|my|their) words up"',
        '"zzq (his|her|my|their) words up"',
    ),
    (
        "dh76_phototherapy",
        "high_risk.yaml",
        r'"re:\\bphototherapy\\s+(?:threshold|line)\\b(?<=',
        r'"re:\\bzzq\\b(?<=',
    ),
    (
        "dh76_temp_no_unit",
        "high_risk.yaml",
        r"\\s+(?=3[89]\\.\\d\\b(?!",
        r"\\s+(?=zzq\\b(?!",
    ),
    (
        "dh76_screen_time_n1",
        "modifiers.yaml",
        r'"re:^(?:\\s|-)*screen\\s+(?:at\\s+)?(?:[01]?\\d|2[0-3])',
        r'"re:^(?:\\s|-)*zzq\\s+(?:at\\s+)?(?:[01]?\\d|2[0-3])',
    ),
    (
        "dm76_high_dose_n1",
        "missing.yaml",
        r"|\\s+(?:if|whether)\\s+(?:that'?s|thats|that\\s+is|it'?s|its|it\\s+is)\\s+(?:a\\s+)?(?:high|low|big|strong"
        r"|normal|usual|safe)\\s+dose\\b",
        "",
    ),
    (
        "dm76_dose_not_known",
        "missing.yaml",
        "\"(dose|doses|regimen) (isn't|isnt|is not|wasn't|wasnt|was not) (yet)? known\"",
        "\"(dose|doses|regimen) (isn't|isnt|is not|wasn't|wasnt|was not) (yet)? zzq\"",
    ),
    (
        "dm76_sent_not_got",
        "missing.yaml",
        r'"re:\\bsent\\b[^.;!?\\n]{1,120}?\\b(?:haven',
        r'"re:\\bzzq\\b[^.;!?\\n]{1,120}?\\b(?:haven',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
