"""Issue 22z round 40 (all three detectors): the mechanisms blind half 49's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev38.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 40 or by a pattern that
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

pytestmark = pytest.mark.usefixtures("before_round54_limb", "before_round61")

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV38_FILE).items}

# the patterns as they were before round 40
BLOOD_GROUP_ROUND_39 = pattern_before(detectors._BLOOD_GROUP, r"(?:\(\s*D\s*\)|D)?", "D?")
MILD_ROUND_39 = pattern_before(
    detectors._MILD_REACTION, r"|\binfusion[\s-]+(?:related|rate)\b|\bred[\s-]+(?:man|person)\b|\bflushing\b"
)
GRADES_ROUND_39 = (("severe", detectors._SEVERE_REACTION), ("mild", MILD_ROUND_39))
SIDE_ALONE_ROUND_39 = pattern_before(
    detectors._SIDE_ALONE,
    r"|\b(?P<side8>(?-i:L|R|Lt|Rt|LT|RT))\b"
    # (round 55 added "has", "had", "records" and "gives" to its verbs)
    r"(?<=\b(?:marked|marks|says?|states?|reads?|shows?|lists?|documents?|has|had|records?|gives?)\s+(?:as\s+)?"
    r"(?-i:L|R|Lt|Rt|LT|RT))"
    r"(?=\s*(?:[.;,)!?]|$))",
)
DOCUMENT_DATE_ROUND_39 = pattern_before(
    detectors._DOCUMENT_DATE, r"written(?<!\b(?:it'?s|its|it\s+is|it\s+was|is|was)\s+written)", "written"
)
REPORTING_ROUND_39 = pattern_before(detectors._REPORTING, r"|written(?!\s+up\b)")
TEST_INDICATION_ROUND_39 = pattern_before(
    detectors._TEST_INDICATION,
    r"|\b(?:samples?|bloods?|specimens?|abg|vbg|gas|swabs?|cultures?|x-?ray|cxr|ct|scan)\b[^()\n.;?]{0,30}?"
    r"\b(?:sent|requested|ordered|done|taken|booked)\s+for\s+\?\s*$",
)
SELF_CHECK_ROUND_39 = pattern_before(
    detectors._SELF_CHECK_QUESTION, r"|\bworried\s+about\s+(?:mine|my\s+own)\b"
)
YEAR_AFTER_ROUND_39 = pattern_before(detectors._YEAR_AFTER, "|in|as)", "|in)")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_thoughts_reported_at_an_earlier_visit_are_current_when_the_sentence_says_so() -> None:
    """Round 40: "reported last week" dates the thoughts, unless the same sentence says they are still
    there."""
    assert not detectors.detect("Suicidal thoughts reported last week. Today denies any.").high_risk
    assert detectors.detect("Suicidal thoughts reported last week and still present today.").high_risk


def test_jaundice_is_a_red_flag_within_the_first_24_hours_only() -> None:
    """Round 40 (NICE CG98): visible jaundice in the first 24 hours of life is pathological; at 30 hours it is
    not this red flag."""
    assert detectors.detect("Baby jaundiced at 20 hours old, SBR sent.").high_risk
    assert not detectors.detect("Baby jaundiced at 30 hours old, SBR sent.").high_risk
    assert not detectors.detect("Jaundice noted on day 3, feeding well.").high_risk


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc40_rh_d_brackets", "_BLOOD_GROUP", BLOOD_GROUP_ROUND_39),
    ("dc40_infusion_flushing", "_REACTION_GRADES", GRADES_ROUND_39),
    ("dc40_bracketed_reason", "_REASON_IN_BRACKETS", NEVER),
    ("dc40_marked_l", "_SIDE_ALONE", SIDE_ALONE_ROUND_39),
    ("dc40_diary_written", "_DOCUMENT_DATE", DOCUMENT_DATE_ROUND_39),
    ("dc40_diary_written", "_REPORTING", REPORTING_ROUND_39),
    ("dc40_scope_as_year", "_YEAR_AFTER", YEAR_AFTER_ROUND_39),
    ("dh40_lithium_on_date_n1", "_DAY_MONTH_AFTER", NEVER),
    ("dh40_sample_sent_for_query_n1", "_TEST_INDICATION", TEST_INDICATION_ROUND_39),
    ("dh40_worried_about_mine_n1", "_SELF_CHECK_QUESTION", SELF_CHECK_ROUND_39),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc40_bgl", "attributes.yaml", "bgl, bsl, ", ""),
    (
        "dc40_hcg_as_positive",
        "attributes.yaml",
        r"(?:shows?|showed|lists?|listed|has|had)\\s+(?:the\\s+)?(?:urine",
        r"(?:zzq)\\s+(?:the\\s+)?(?:urine",
    ),
    ("dc40_comma_no_drug", "attributes.yaml", r"(?<=[,;]\\s{0,3}no)", r"(?<=[,;]\\s{0,3}zzq)"),
    (
        "dc40_relisted_n1",
        "attributes.yaml",
        '"relisted/re-listed/reconsented/re-consented", "new consent",',
        "",
    ),
    (
        "dc40_name_matches",
        "attributes.yaml",
        r"(?<!\\b(?:name|surname|mrn|address|postcode|nhs\\s+(?:no|number)|hospital\\s+(?:no|number))\\s+"
        r"(?:matches|agrees|tallies))",
        "",
    ),
    (
        "dc40_results_page",
        "attributes.yaml",
        r'"re:\\b(?:discharge|hospital|clinic|gp|results?|lab|blood\\s+test)\\s+(?:paper|pages?|sheets?)\\b",',
        "",
    ),
    ("dc40_diary_written", "attributes.yaml", '"diary/diaries",', ""),
    (
        "dc40_last_supply",
        "attributes.yaml",
        r'last_supply: ["re:\\blast\\s+',
        r'last_supply: ["re:\\bzzq\\s+',
    ),
    ("dc40_scope_as_year", "attributes.yaml", r'"re:\\b[a-z]+oscopy\\b", ', ""),
    ("dc40_insists", "attributes.yaml", '"insists/insisted/insisting/adamant",', ""),
    (
        "dc40_second_sample",
        "attributes.yaml",
        r'"re:\\b(?:1st|first|2nd|second|3rd|third|repeat|confirmatory|check)\\s+(?:sample|specimen|g&s'
        r'|group\\s+and\\s+save)\\b",',
        "",
    ),
    (
        "dh40_pet_bloods_n1",
        "high_risk.yaml",
        r"(?!\\s+(?:bloods|work-?up|panel|proforma)\\b)",
        "",
    ),
    (
        "dh40_empty_uterus_free_fluid",
        "high_risk.yaml",
        r"\\bempty\\s+(?:uterus|uterine",
        r"\\bzzq\\s+(?:uterus|uterine",
    ),
    ("dh40_jaundice_first_day", "high_risk.yaml", r"(?:first|1st)\\s+24\\s*", r"(?:zzq)\\s+24\\s*"),
    (
        "dh40_jaundice_hours_old",
        "high_risk.yaml",
        r"(?:[1-9]|1\\d|2[0-3])\\s*(?:h|hrs?",
        r"(?:zzq)\\s*(?:h|hrs?",
    ),
    (
        "dh40_admitted_as_infant_n1",
        "modifiers.yaml",
        r"(?:admitted|treated|diagnosed|hospitali[sz]ed|ventilated)\\s+at\\s+",
        r"(?:zzq)\\s+at\\s+",
    ),
    (
        "dh40_reported_last_week_n1",
        "modifiers.yaml",
        r"(?:reported|noted|documented|disclosed|expressed|described)\\s+(?:at",
        r"(?:zzq)\\s+(?:at",
    ),
    (
        "dh40_back_pain_temp",
        "high_risk.yaml",
        r"\\btemp(?:erature)?\\b[^.;\\n]{0,25}?(?<![\\d.])(?:3[89]",
        r"\\bzzq\\b[^.;\\n]{0,25}?(?<![\\d.])(?:3[89]",
    ),
    (
        "dh40_rigid_abdo",
        "high_risk.yaml",
        r"\\babdo\\w*\\s+(?:is\\s+|was\\s+)?(?:rigid",
        r"\\bzzq\\s+(?:is\\s+|was\\s+)?(?:rigid",
    ),
    (
        "dh40_pph_volume",
        "high_risk.yaml",
        # (round 47 added "vaginal loss" to the entry)
        r"\\b(?:ebl|blood\\s+loss|vaginal\\s+loss)\\b[^;\\n]{0,12}?",
        r"\\bzzq\\b[^;\\n]{0,12}?",
    ),
    ("dh40_pph_volume", "high_risk.yaml", r'"re:\\bpost[\\s-]partum\\b", ', ""),
    (
        "dh40_two_relatives_n1",
        "modifiers.yaml",
        r"\\s+(?:and|&)\\s+(?:(?:his|her|their|my)\\s+)?",
        r"\\s+(?:zzq)\\s+(?:(?:his|her|their|my)\\s+)?",
    ),
    ("dm40_no_wt_this_visit", "missing.yaml", r"(?:visit|attendance|episode|encounter", r"(?:zzq"),
    ("dm40_level_not_taken", "missing.yaml", r"(?:levels?|tests?|specimens?|swabs?", r"(?:zzq"),
    (
        "dm40_results_outstanding",
        "missing.yaml",
        r"(?:function|functions|bloods?|results?|levels?|u&es?|lfts?|tfts?|fbc|inr|serology|cultures?|swabs?"
        r"|hb|haemoglobin|hemoglobin|creatinine|potassium|sodium|egfr|crp|troponin|lactate|tsh)\\s+(?:(?:are",
        r"(?:zzq)\\s+(?:(?:are",
    ),
    ("dm40_without_pages", "missing.yaml", r"(?:arrived|came|received|faxed|sent|scanned)", r"(?:zzq)"),
    ("dm40_without_indication", "missing.yaml", r"(?:documented\\s+|stated\\s+)?(?:indication", r"(?:zzq"),
    (
        "dm40_no_obs_since",
        "missing.yaml",
        r"|news2?)\\s+(?:(?:recorded|documented|done|taken|charted)\\s+)?since",
        r")\\s+zzq",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
