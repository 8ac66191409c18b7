"""Issue 22z round 37 (all three detectors): the mechanisms blind half 46's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev35.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 37 or by a pattern that
never matches, or one lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its
item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV35_FILE).items}


# the patterns as they were before round 37
REPEAT_VALUE_ROUND_36 = pattern_before(
    detectors._REPEAT_VALUE,
    r"(?:[A-Za-z+\-]+|(?:\d{1,2}:\d{2}|[01]\d[0-5]\dh?|2[0-3][0-5]\dh?)(?=\s)))",
    r"[A-Za-z+\-]+)",
)
PROMPTS_AFTER_ROUND_36 = pattern_before(
    detectors._PROMPTS_AFTER,
    r"|means?\s+(?:(?:you|i|we|she|he|they)\s+(?:should|must|need\s+to|have\s+to)\s+)?"
    r"(?:go|call|ring|dial|come|attend|seek)\b(?!\s+(?:back|home)\b)",
)
COMMA_RECOVERY_ROUND_36 = pattern_before(
    detectors._RECOVERED_AFTER, r"|[,;]\s*(?:full|complete)\s+recovery\b"
)
NOW_SETTLED_ROUND_36 = pattern_before(
    detectors._RECOVERED_AFTER, r"|\bnow\s+(?:fully\s+|completely\s+)?settled\b"
)
PAST_ANCHOR_ROUND_36 = pattern_before(
    detectors._PAST_ANCHOR, r"|\b(?:[2-9]|1\d|two|three|four|five|six|several)\s+days\s+ago\b"
)
WELL_NOW_ROUND_36 = pattern_before(
    detectors._WELL_NOW,
    # (with round 59's "no" beside the denial, which extends the same alternative)
    r"|\b(?:today|now|currently)\b[^.;\n]{0,20}?\b(?:den(?:ies|ying)\s+(?:any\s+)?|no\s+(?:further\s+|more\s+)?)"
    r"(?:si\b|suicidal|thoughts)",
)
MILD_REACTION_ROUND_36 = pattern_before(detectors._MILD_REACTION, r"|(?<=[-–:]\s{0,2})itch(?:ing|y)?\b")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_second_account_with_more_words_is_not_elliptical() -> None:
    """Round 37: a second clause that names its own event beside the date ("the referral records the scan on
    …") dates another thing; only one that says nothing but its source and the date restates the first's."""
    assert detectors.detect("When the swelling started: pt says Tue 09/04, husband says Fri 05/04.").conflict
    assert not detectors.detect(
        "The clinic letter says the follow-up is on 12/05/2026; the referral records the scan on 03/04/2026."
    ).conflict


def test_a_converted_value_in_brackets_is_not_a_second_value() -> None:
    """Round 37: the bracketed value in another unit is the first one converted, so the analyte has one value
    in its clause: it differs from another source's value, and agrees with an equal one."""
    first = "Creatinine on the referral 1.4 mg/dL (124 umol/L); the lab report of that sample reads"
    assert detectors.detect(f"{first} 2.6 mg/dL.").conflict
    assert not detectors.detect(f"{first} 1.4 mg/dL.").conflict


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh37_repeat_clock_n1", "_REPEAT_VALUE", REPEAT_VALUE_ROUND_36),
    ("dh37_means_go_n1", "_PROMPTS_AFTER", PROMPTS_AFTER_ROUND_36),
    ("dh37_comma_full_recovery_n1", "_RECOVERED_AFTER", COMMA_RECOVERY_ROUND_36),
    ("dh37_now_settled_n1", "_RECOVERED_AFTER", NOW_SETTLED_ROUND_36),
    ("dh37_days_ago_denies_n1", "_PAST_ANCHOR", PAST_ANCHOR_ROUND_36),
    ("dh37_days_ago_denies_n1", "_WELL_NOW", WELL_NOW_ROUND_36),
    ("dh37_joking_n1", "_JOKING_AFTER", NEVER),
    ("dm37_full_code_no_dnr_n1", "_NO_DNR", NEVER),
    ("dm37_full_code_no_dnr_n1", "_FULL_CODE", NEVER),
    ("dc37_elliptic_date", "_states_a_date", lambda clause: False),
    ("dc37_dash_reaction", "_REACTION_AT", NEVER),
    (
        "dc37_itch_entry",
        "_REACTION_GRADES",
        (("severe", detectors._SEVERE_REACTION), ("mild", MILD_REACTION_ROUND_36)),
    ),
    ("dc37_bracket_conversion", "_CONVERSION_BRACKET", NEVER),
    ("dc37_date_colon", "_SAMPLE_DATE", detectors._DATE_COARSE),
    ("dc37_tabs_after_n1", "_COUNT_AFTER", NEVER),
    ("dc37_earlier_one_n1", "_EARLIER_ONE", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dh37_calcium_mmol_n1",
        "high_risk.yaml",
        ', units: [{unit: "mmol/?l", low: 1.62, high: 3.24, bare_below: 5}]',
        "",
    ),
    ("dh37_resp_failure", "high_risk.yaml", r"respiratory\\s+failure\\b", r"zzq\\b"),
    (
        "dh37_lower_right_tummy",
        "high_risk.yaml",
        r"(?:right\\s+lower|lower\\s+right|bottom\\s+right)\\s+(?:side",
        r"(?:zzq)\\s+(?:side",
    ),
    ("dh37_region_guarding", "high_risk.yaml", "|epigastric|rif|ruq|luq|lif|suprapubic|periumbilical)", ")"),
    ("dh37_wish_worked", "high_risk.yaml", r"it\\s+(?:had|would\\s+have|'d)\\s+worked\\b", r"it\\s+zzq\\b"),
    ("dh37_over_soon", "high_risk.yaml", r"\\s+all\\s+be\\s+over\\s+soon\\b", r"\\s+zzq\\b"),
    ("dh37_nearly_enough", "high_risk.yaml", r"(?:got|have|saved|collected)\\s+enough\\b", r"zzq\\b"),
    ("dh37_took_twenty", "high_risk.yaml", r'"re:\\btook\\s+', r'"re:\\bzzq\\s+'),
    (
        "dh37_month_year_n1",
        "modifiers.yaml",
        r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?\\s+|(?:syndrome|disease|bleed"
        r"|episode|attack|event)[\\s,:(-]+)?",
        "",
    ),
    (
        "dh37_condition_year_n1",
        "modifiers.yaml",
        r"|(?:syndrome|disease|bleed|episode|attack|event)[\\s,:(-]+)?(?:19[2-9]",
        r")?(?:19[2-9]",
    ),
    ("dc37_one_thing", "conflict.yaml", r"\\s+one\\s+thing\\b", r"\\s+zzq\\b"),
    ("dc37_inpatient_allergy_list", "attributes.yaml", r"|allergy\\s+|allergies\\s+|medication\\s+", ""),
    (
        "dc37_chemo_plan_weight",
        "attributes.yaml",
        "|chemo|chemotherapy|sact|dosing|radiotherapy|infusion",
        "",
    ),
    (
        "dc37_her_at_weeks",
        "attributes.yaml",
        # (round 61 read her gravidity and parity between)
        r"(?:\\+\\d{1,2})?\\s+)?(?:at|about|~)\\s*\\d{1,2}(?:\\+\\d)?\\s*(?:weeks?",
        r"(?:\\+\\d{1,2})?\\s+)?(?:zzq)\\s*\\d{1,2}(?:\\+\\d)?\\s*(?:weeks?",
    ),
    (
        "dc37_recalc_weight_n1",
        "attributes.yaml",
        r"(?:new|current|updated|latest)\\s+weight\\b",
        r"zzq\\s+weight\\b",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
