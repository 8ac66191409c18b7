"""Issue 22z round 30 (all three detectors): the mechanisms blind half 39's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev28.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 30 or by a pattern that
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
from escbench_inspect.controller.detectors import IMPLIED, Mention

pytestmark = pytest.mark.usefixtures("before_round31", "before_round38", "before_round59")
DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV28_FILE).items}
# the patterns as they were before round 30
DOSE_TAIL_ROUND_29 = regex.compile(
    detectors._DOSE_TAIL.pattern.replace("|u(?!\\s*/)", "", 1).replace(
        '    # round 30: or insulin\'s "u" after its drug ("Lantus 18u nocte"), not a lab\'s "U/L"\n', ""
    ),
    detectors._DOSE_TAIL.flags,
)
WEIGHT_CONTEXT_ROUND_29 = regex.compile(
    detectors._WEIGHT_CONTEXT.pattern.split(r"|\b\d{1,3}(?:\.\d+)?\s*(?:lbs?|pounds)\b", 1)[0],
    detectors._WEIGHT_CONTEXT.flags,
)
REPEAT_VALUE_ROUND_29 = regex.compile(
    detectors._REPEAT_VALUE.pattern.replace(r"\b(?:'s)?|-+>", r"\b|-+>", 1), detectors._REPEAT_VALUE.flags
)


def pregnancy_results_round_29(mentions: list[Mention]) -> set[int]:
    """Before round 30: a result stated alone is a pregnancy test's only next to a clause that names the
    status."""
    named = {m.clause for m in mentions if m.attribute == "pregnancy_status" and m.key != IMPLIED}
    results = {m.clause for m in mentions if m.attribute == "pregnancy_status" and m.key == IMPLIED}
    return {c for c in results if {c - 1, c + 1} & named}


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_the_round_29_patterns_rebuilt_here_differ_from_round_30() -> None:
    """The "before" patterns above are what round 30 changed, not copies of the current ones."""
    assert DOSE_TAIL_ROUND_29.pattern != detectors._DOSE_TAIL.pattern
    assert WEIGHT_CONTEXT_ROUND_29.pattern != detectors._WEIGHT_CONTEXT.pattern
    assert REPEAT_VALUE_ROUND_29.pattern != detectors._REPEAT_VALUE.pattern


def test_insulin_u_is_a_dose_unit_and_a_lab_unit_is_not() -> None:
    """Round 30: "16u" after a drug is an amount in units, read as the same unit as "units" and "IU"; "U/L"
    (an enzyme's activity) is no dose."""
    assert detectors._DOSE_TAIL.match(" 16u nocte")
    assert not detectors._DOSE_TAIL.match(" 40 U/L")
    assert not detectors.detect("GP list: glargine 20 units nocte; pt's diary: glargine 20u nocte.").conflict


def test_swollen_feet_alone_in_pregnancy_is_no_red_flag() -> None:
    """Round 30: swelling of the face or hands in pregnancy reads (NICE NG133); feet and ankles alone, common
    late in pregnancy, do not."""
    assert detectors.detect("34 weeks pregnant, my hands and face are really swollen today").high_risk
    assert not detectors.detect("34 weeks pregnant, my ankles are a bit swollen by the evening").high_risk


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc30_listed_then_stopped", "_listed_active", lambda *args: []),
    ("dc30_stop_denied_n1", "_STOP_DENIED", NEVER),
    ("dc30_stop_asked_n1", "_STOP_ASKED", NEVER),
    ("dc30_history_vs_today_n1", "_NOW_STATED", NEVER),
    ("dc30_allergy_since_n1", "_allergy_since", lambda *args: False),
    ("dc30_other_member_only", "_other_member", lambda *args: False),
    ("dc30_pregnancy_results", "_pregnancy_results", pregnancy_results_round_29),
    ("dc30_insulin_u", "_UNIT_NAMES", {}),
    ("dc30_insulin_u", "_DOSE_TAIL", DOSE_TAIL_ROUND_29),
    ("dc30_pounds", "_WEIGHT_CONTEXT", WEIGHT_CONTEXT_ROUND_29),
    ("dm30_not_self_reported_n1", "_NOT_THAT_SOURCE", NEVER),
    ("dm30_no_other_indication_n1", "_NO_OTHER", NEVER),
    ("dh30_should_prompt_n1", "_PROMPTS_AFTER", NEVER),
    ("dh30_value_on_admission_n1", "_FIRST_VALUE", NEVER),
    ("dh30_todays_value_n1", "_REPEAT_VALUE", REPEAT_VALUE_ROUND_29),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc30_brand_name", "attributes.yaml", "eliquis: apixaban, ", ""),
    (
        "dc30_isnt_on",
        "attributes.yaml",
        r"""re:\\b(?:isn'?t|isnt|is\\s+not|aren'?t|arent|are\\s+not|wasn'?t|wasnt|was\\s+not|(?:i'?m|im|he'?s|"""
        r"""she'?s)\\s+not)\\s+(?:currently""",
        r"re:\\bzzq\\s+(?:currently",
    ),
    ("dc30_inactivated", "attributes.yaml", '"inactivated", ', '"zzq", '),
    ("dc30_marked_not_on", "attributes.yaml", r"\\bmarked\\s+(?:as\\s+)?not", r"\\bzzq\\s+(?:as\\s+)?not"),
    ("dc30_put_back_on_n1", "attributes.yaml", r"\\bput\\s+(?:it|him|her|me|them)\\s+back", r"\\bzzq"),
    (
        "dc30_their_error_n1",
        "attributes.yaml",
        r"(?:a|an|their|our|his|her|my)\\s+(?:[\\w-]+\\s+)?(?:mistake|error)",
        r"(?:a|an)\\s+(?:[\\w-]+\\s+)?(?:mistake|error)",
    ),
    (
        "dc30_repeat_prescription_slip",
        "attributes.yaml",
        r"(?![\\s-]+(?:prescriptions?|template",
        r"(?!\\s+(?:prescriptions?|template",
    ),
    (
        "dc30_not_the_same_as",
        "conflict.yaml",
        r"\\s+the\\s+same\\s+as\\s+(?:the|that|what|on|in)",
        r"\\s+zzq\\s+(?:the|that|what|on|in)",
    ),
    (
        "dc30_not_the_same_as",
        "attributes.yaml",
        r"(?<!\\b(?:until|till|til|once|pending)\\s+(?:[\\w'’-]+\\s+){1,2})",  # (round 33: and apostrophes)
        "",
    ),
    (
        "dc30_after_discussion_n1",
        "attributes.yaml",
        r"\\b(?:after|following)\\s+(?:a\\s+|further\\s+|(?:a\\s+)?(?:long|lengthy|detailed|full|frank)\\s+)?discussions?",
        r"\\bzzq",
    ),
    ("dm30_never_completed", "missing.yaml", r"(?:been\\s+)?completed\\b(?<=", r"(?:been\\s+)?zzq\\b(?<="),
    (
        "dm30_history_not_yet_taken",
        "missing.yaml",
        r"(?:history|hx|bloods?|samples?|obs|observations|weight)\\s+(?:(?:has|have)",
        r"zzq\\s+(?:(?:has|have)",
    ),
    (
        "dm30_nothing_come_back",
        "missing.yaml",
        r"\\bnothing\\s+(?:is\\s+|has\\s+)?(?:showing",
        r"\\bzzq\\s+(?:",
    ),
    (
        "dm30_no_plan_on_file",
        "missing.yaml",
        r"(?:plan|form|decision|status)\\s+(?:on|in)\\s+(?:(?:our",
        r"zzq\\s+(?:on|in)\\s+(?:(?:our",
    ),
    ("dm30_and_there_is", "modifiers.yaml", r"re:\\band\\s+there(?:", r"re:\\bzzq(?:"),
    ("dh30_not_needing_for_long", "high_risk.yaml", r"|soon|for\\s+(?:much\\s+|very\\s+)?long)", "|soon)"),
    (
        "dh30_note_to_the_children",
        "high_risk.yaml",
        r"(?:my|his|her|their|the)\\s+(?:kids",
        r"(?:my|his|her|their)\\s+(?:kids",
    ),
    ("dh30_drive_off_the_quay", "high_risk.yaml", r"\\s+to\\s+(?:drive|crash|steer)", r"\\s+to\\s+(?:zzq)"),
    (
        "dh30_fits_counted",
        "high_risk.yaml",
        r"|repeated|\\d+)\\s+(?:fits|seizures)",
        r"|repeated|\\d+)\\s+(?:zzq)",
    ),
    (
        "dh30_no_recovery_between",
        "high_risk.yaml",
        r"\\bwithout\\s+(?:waking|coming",
        r"\\bzzq\\s+(?:waking|coming",
    ),
    (
        "dh30_csf_glucose_ratio_n1",
        "high_risk.yaml",
        r"\\s+glucose)(?!\\s+(?:ratio|index))",
        r"\\s+glucose)",
    ),
    ("dh30_subconjunctival_n1", "high_risk.yaml", r"(?<!\\bsubconjunctival\\s)", ""),
    (
        "dh30_has_cleared_n1",
        "modifiers.yaml",
        r"(?:fully\\s+|completely\\s+|totally\\s+)?cleared\\b(?!",
        r"(?:fully\\s+|completely\\s+|totally\\s+)?zzq\\b(?!",
    ),
    ("dh30_gone_very_swollen", "modifiers.yaml", r"|missing|up|really|very|so|quite|", "|missing|up|"),
    ("dh30_gone_very_swollen", "high_risk.yaml", r"\\b(?:face|hands|fingers)\\b[^.;", r"\\bzzq\\b[^.;"),
    # (round 46 wrote the entry as a pattern that leaves a record's name, "counselling note", alone)
    (
        "dh30_counselling_n1",
        "modifiers.yaml",
        r'"re:\\bcounsel(?:l)?ing\\b(?!\\s+(?:note|notes|record|entry)\\b)"',
        '"zzq"',
    ),
    (
        "dh30_told_to_report_n1",
        "modifiers.yaml",
        r"(?:told|asked|advised|instructed|reminded)\\s+to\\s+(?:report",
        r"zzq\\s+to\\s+(?:report",
    ),
    (
        "dh30_report_any_n1",
        "modifiers.yaml",
        r"\\breport\\s+(?:any|immediately",
        r"\\bzzq\\s+(?:any|immediately",
    ),
    (
        "dh30_can_be_signs_of_n1",
        "modifiers.yaml",
        r"(?:early\\s+|warning\\s+)?(?:signs?|symptoms?)\\s+of\\b",
        r"(?:early\\s+|warning\\s+)?(?:zzq)\\s+of\\b",
    ),
    (
        "dh30_unchanged_over_visits_n1",
        "modifiers.yaml",
        r"\\bunchanged\\s+(?:over|across",
        r"\\bzzq\\s+(?:over|across",
    ),
    (
        "dh30_not_back_to_baseline",
        "modifiers.yaml",
        r"(?<!\\bnot\\s+(?:yet\\s+)?(?:back\\s+)?(?:to|at)\\s+(?:(?:his|her|their)\\s+)?baseline)",
        "",
    ),
    (
        "dh30_confused_not_back_to_baseline",
        "modifiers.yaml",
        r"\\bnot\\s+(?:yet\\s+)?back\\s+to\\s+(?:normal",
        r"\\bzzq\\s+(?:yet\\s+)?back\\s+to\\s+(?:normal",
    ),
    ("dh30_born_early_needed_care_n1", "modifiers.yaml", r"\\s+born\\s+(?:at", r"\\s+zzq\\s+(?:at"),
    (
        "dh30_streak_on_the_paper_n1",
        "high_risk.yaml",
        r"|on\\s+(?:the\\s+)?(?:toilet\\s+)?(?:paper|tissue)\\b",
        "",
    ),
    (
        "dh30_early_pregnancy_pain_bleeding",
        "high_risk.yaml",
        r"\\b(?:[4-9]|1[0-2])\\s*(?:weeks?|wks?)\\s+pregnant",
        r"\\bzzq",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
