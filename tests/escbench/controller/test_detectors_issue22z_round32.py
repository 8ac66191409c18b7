"""Issue 22z round 32 (all three detectors): the mechanisms blind half 41's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev30.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 32 or by a pattern that
never matches, or one lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its
item must flip."""

from __future__ import annotations

import pytest
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV30_FILE).items}
# round 38's general readings also cover items here: tested as the detectors read before round 38
pytestmark = pytest.mark.usefixtures("before_round38")


# the patterns as they were before round 32
SENTENCE_END_ROUND_31 = pattern_before(detectors._SENTENCE_END, r"(?<!\b(?i:dr|mr|mrs|ms|prof)\.)")
REPORTED_VALUE_ROUND_31 = pattern_before(
    detectors._REPORTED_VALUE, r"|(?:phoned|called|rang|telephoned)\s+(?:through|in|back|us|me|the\s+ward)"
)
CLAUSE_SPLIT_SOURCE_WORDS_ROUND_31 = pattern_before(
    detectors._CLAUSE_SPLIT, r"[\w'-]+\s+){1,7}?", r"[\w'-]+\s+){1,5}?"
)
CLAUSE_SPLIT_DATES_ROUND_31 = pattern_before(detectors._CLAUSE_SPLIT, r"|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}")
ALLERGEN_THEN_REACTION_ROUND_31 = pattern_before(
    detectors._ALLERGEN_THEN_REACTION, r"[-–—:→>(,]+", r"[-–—:→>(]+"
)
EMPTY_FIELD_ROUND_31 = pattern_before(
    detectors._EMPTY_FIELD, r"(?:\s+(?:known|recorded|documented|listed|noted))?", r"(?:\s+known)?"
)
CHANGE_DENIED_ROUND_31 = pattern_before(detectors._CHANGE_DENIED, r"|\b(?:nobody|no\s+one|no-one|noone)\b")
CHANGE_SUPPOSED_ROUND_31 = pattern_before(
    detectors._CHANGE_SUPPOSED,
    r"|\b(?:before|until|unless)\s+(?:(?:the|his|her|their|a|any)\s+)?(?:[\w-]+\s+){0,2}?(?:is|are|gets?|being|be)\s+$",
)
TIME_STATED_ROUND_31 = pattern_before(
    detectors._TIME_STATED,
    r"|\b(?:it|dose|infusion|injection|bag|drip)\s+(?:was\s+)?(?:started|given|hung|administered|ran|went\s+up)"
    r"\s+at\s*$",
)
REPEAT_VALUE_ROUND_31 = pattern_before(
    detectors._REPEAT_VALUE, r"|latest|redrawn|redraw|re-drawn)", "|latest)"
)
RECOVERED_AFTER_ROUND_31 = pattern_before(
    detectors._RECOVERED_AFTER, r"|\b(?:with|made)\s+(?:a\s+)?(?:full|complete)\s+recovery\b"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_title_before_a_name_ends_no_clause() -> None:
    """Round 32: "Dr." before a name is no sentence end, so the source before it and the value after it stay
    in one clause; before round 32 the clause was cut at the title."""
    text = "Outside labs from Dr. Patel's office list a TSH of 0.02 mIU/L"
    assert detectors._clauses(text) == [(0, len(text))]
    assert len(SENTENCE_END_ROUND_31.findall(text)) == 1 and not detectors._SENTENCE_END.findall(text)


def test_a_class_not_taken_reads_does_not_take_any() -> None:
    """Round 32: a source saying the patient does not take any of a class ("doesnt take any steroids") is a
    stop of its members, as "not on" and "hasn't had any" were."""
    pattern = detectors._class_absent("steroids")
    for text in (
        "the home's sheet says she doesnt take any steroids",
        "he doesn't take steroids",
        "did not get any steroids",
    ):
        assert pattern.search(text), text
    assert not pattern.search("she takes her steroids every morning")


def test_a_stop_date_a_source_reports_explains_nothing() -> None:
    """Round 32: "stopped 03/09 by cardiology" documents the stop; "clinic note says stopped 15/06" reports
    the date one source gives, which the other may contradict; "stopped 5/7 ago" is a duration."""
    explained = detectors.default_lexicon().attributes.explained  # type: ignore[union-attr]
    assert explained.search("stopped 03/09 by cardiology for hyperkalaemia")
    assert not explained.search("clinic note says stopped 15/06")
    assert not explained.search("pt says stopped 5/7 ago")


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc32_phoned_through", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_31),
    ("dc32_source_from_where", "_CLAUSE_SPLIT", CLAUSE_SPLIT_SOURCE_WORDS_ROUND_31),
    ("dc32_two_dates_and", "_CLAUSE_SPLIT", CLAUSE_SPLIT_DATES_ROUND_31),
    ("dc32_lists_only", "_ONLY_BEFORE", NEVER),
    ("dc32_entry_comma", "_ALLERGEN_THEN_REACTION", ALLERGEN_THEN_REACTION_ROUND_31),
    ("dc32_entry_comma", "_EMPTY_FIELD", EMPTY_FIELD_ROUND_31),
    ("dc32_recorded_as", "_RECORDED_AS", NEVER),
    ("dc32_nobody_told", "_CHANGE_DENIED", CHANGE_DENIED_ROUND_31),
    ("dc32_tsh", "_CHANGE_SUPPOSED", CHANGE_SUPPOSED_ROUND_31),
    ("dc32_im_not", "_ELLIPTIC_DENIAL", NEVER),
    ("dc32_dose_started_at", "_TIME_STATED", TIME_STATED_ROUND_31),
    ("dh32_past_bracket_n1", "_IN_PAST_BRACKET", NEVER),
    ("dh32_clock_not_a_value_n1", "_CLOCK_NOT_A_VALUE", NEVER),
    ("dh32_redrawn_n1", "_REPEAT_VALUE", REPEAT_VALUE_ROUND_31),
    ("dh32_full_recovery_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_31),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc32_tsh", "attributes.yaml", "  tsh: [tsh,", "  tsh: [zzq,"),
    ("dc32_free_t4_n1", "attributes.yaml", "ng/dl: 12.87}", "ng/dl: 1.0}"),
    ("dc32_erythema_multiforme", "attributes.yaml", '"erythema multiforme", ', ""),
    ("dc32_neuromuscular_blocker", "attributes.yaml", "[rocuronium, atracurium,", "[rocuronium, zzq,"),
    (
        "dc32_reaction_to",
        "attributes.yaml",
        "(all over)? (with|from|after|to)",
        "(all over)? (with|from|after)",
    ),
    ("dc32_doesnt_take_any", "attributes.yaml", 'names: ["steroid/steroids",', 'names: ["zzq",'),
    ("dc32_no_basal_insulin", "attributes.yaml", '"long-acting insulin/insulins"]', '"zzq"]'),
    ("dc32_gave_the_dose", "attributes.yaml", '  "omitted",\n', ""),
    ("dc32_gave_the_dose", "attributes.yaml", r"\\b(?:gave|given|administered)\\s+", r"\\b(?:zzq)\\s+"),
    ("dc32_code_status_as_full", "attributes.yaml", r"|\\s+status\\s+(?:as|is|was|of))", ")"),
    ("dc32_anti_d", "attributes.yaml", '"anti d", "anti-d", ', ""),
    (
        "dc32_pregnancy_test_neg",
        "attributes.yaml",
        r'"re:\\bpregnancy\\s+test\\s*',
        r'"re:\\bzzq\\s+test\\s*',
    ),
    ("dc32_stop_dated_n1", "attributes.yaml", r"|restarted)\\s+\\d{1,2}[/.]", r"|restarted)\\s+zzq[/.]"),
    (
        "dc32_stop_date_reported",
        "attributes.yaml",
        r"(?:says?|said|states?|stated|reports?|reported|thinks?|thought|believes?)\\s+(?:(?:it|",
        r"(?:zzq)\\s+(?:(?:it|",
    ),
    ("dc32_last_period_started", "attributes.yaml", '"last (monthly)? period (started|began)",', '"zzq",'),
    ("dc32_not_yet_updated", "attributes.yaml", '["explained by",', '["explained by", "not yet updated",'),
    (
        "dc32_scan_said_fine_n1",
        "conflict.yaml",
        "(?:scan|ct|mri|x-?ray|ultrasound|echo|ecg|test|tests|",
        "(?:zzq|",
    ),
    ("dm32_not_for_completed_n1", "missing.yaml", r'"re:\\bnot\\b(?!\\s+for\\b)(?:', r'"re:\\bnot\\b(?:'),
    (
        "dm32_unable_to_establish",
        "missing.yaml",
        "confirm/verify/establish/ascertain/determine",
        "confirm/verify",
    ),
    ("dh32_withdrawn_n1", "modifiers.yaml", r"(?:withdrawn|retracted|cancelled|canceled)", "(?:zzq)"),
    (
        "dh32_edta_n1",
        "modifiers.yaml",
        r"(?:edta\\s+)?contaminat\\w*\\b(?<!\\bnot\\s+contaminat\\w*)|\\bedta\\b",
        "zzq",
    ),
    # (round 33: or a hyphen before "screen")
    (
        "dh32_sepsis_screen_neg_n1",
        "high_risk.yaml",
        r"(?![\\s-]+screen(?:ing)?",
        r"(?![\\s-]+zzq(?:ing)?",
    ),
    ("dh32_relative_needed_surgery_n1", "modifiers.yaml", "(?:needed|required|underwent|had)", "(?:zzq)"),
    ("dh32_fresh_blood_pr", "high_risk.yaml", r"(?:fresh|dark\\s+red|maroon)\\s+blood", "zzq"),
    ("dh32_chemical_bracket", "high_risk.yaml", "(?:splash\\\\w*|sprayed|squirted|went)", "(?:zzq)"),
    ("dh32_dress", "high_risk.yaml", r'"re:(?-i:\\bDRESS\\b)"', '"zzq"'),
    (
        "dh32_stable_exertional_angina_n1",
        "modifiers.yaml",
        "(?:exertional|effort|exercise[",
        "(?:zzq|exercise[",
    ),
    (
        "dh32_unchanged_years_words_n1",
        "modifiers.yaml",
        r"(?:x|for|over|in)\\s+(?:two|three|four|five|six|seven|eight|nine|ten|many|several)\\b" + '"',
        r"(?:x|for|over|in)\\s+(?:zzq)\\b" + '"',
    ),
    ("dh32_i_had_last_week_n1", "modifiers.yaml", r"\\s+(?:had|got)\\b(?=", r"\\s+(?:zzq)\\b(?="),
    ("dh32_colon_after_unchanged_n1", "modifiers.yaml", r"(?:years|yrs|months)\\s*[:;,-]\\s*$", "zzq"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
