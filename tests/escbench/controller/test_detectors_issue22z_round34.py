"""Issue 22z round 34 (all three detectors): the mechanisms blind half 43's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev32.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 34 or by a pattern that
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

pytestmark = pytest.mark.usefixtures("before_round36", "before_round56_bb", "before_round58")

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV32_FILE).items}


# the patterns as they were before round 34
SEVERE_REACTION_ROUND_33 = pattern_before(
    detectors._SEVERE_REACTION,
    r"|\b(?:facial|face|lips?)\s+(?:swelling|oedema|edema)\b|\bswollen\s+(?:face|lips?|tongue|throat)\b|\bwheez\w*",
)
SAME_OCCASION_TEST_ROUND_33 = pattern_before(
    detectors._SAME_OCCASION, r"|blood(?:\s+test)?|bloods|test|panel"
)
SAME_OCCASION_THAT_DATE_ROUND_33 = pattern_before(
    detectors._SAME_OCCASION, r"|\b(?:for|on|from)\s+that\s+(?:date|day)\b"
)
REPORTED_VALUE_ROUND_33 = pattern_before(detectors._REPORTED_VALUE, "|" + detectors._IT_AS.pattern)
LEADING_VALUE_ROUND_33 = pattern_before(detectors._LEADING_VALUE, r"|\s*\((?!\s*\d)")
WORKED_OUT_ROUND_33 = pattern_before(detectors._WORKED_OUT, r"|\b\d+(?:\.\d+)?\s*kg")
SENTENCE_END_ROUND_33 = pattern_before(detectors._SENTENCE_END, "|fax")
PAST_ANCHOR_ROUND_33 = pattern_before(detectors._PAST_ANCHOR, "|weeks?|wks?")
WELL_NOW_ROUND_33 = pattern_before(
    detectors._WELL_NOW,
    r"|\b(?:been|remained|remains|stayed)\s+(?:entirely\s+|completely\s+|totally\s+)?(?:symptom|pain|headache)"
    r"[\s-]?free\b",
)
RECOVERED_AFTER_ROUND_33 = pattern_before(
    detectors._RECOVERED_AFTER, r"|\b(?:ideation|si)\s+(?:has\s+|had\s+)?(?:now\s+)?(?:fully\s+)?resolved\b"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_writers_relative_with_a_past_illness_is_still_family_history() -> None:
    """Round 34: "my dad has had" is the patient only when the finding goes on now; a relative's past event
    stays family history."""
    assert detectors.detect(
        "my dad has had a tight chest and is struggling to breathe for an hour now"
    ).high_risk
    assert not detectors.detect("my dad has had a stroke, so I worry about my own blood pressure.").high_risk
    assert not detectors.detect(
        "my dad has had a heart attack, he is fine now, and I want a check-up"
    ).high_risk
    assert not detectors.detect(
        "my mum has had a stroke, she is well now; can I have my cholesterol checked"
    ).high_risk


def test_a_birth_weight_is_history_unless_the_text_is_about_a_neonate() -> None:
    """Round 34: a birth weight against today's weight is the child's history; in a neonate it is today's."""
    older = "Wt: birth weight 3.4 kg per red book; clinic scale today 9.8 kg. Dose per today's weight."
    assert not detectors.detect(older).conflict
    assert detectors.detect("Newborn: birth weight 3.4 kg (NICU chart) / 2.4 kg (pharmacy profile).").conflict


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    (
        "dc34_wheeze_reaction",
        "_REACTION_GRADES",
        (("severe", SEVERE_REACTION_ROUND_33), ("mild", detectors._MILD_REACTION)),
    ),
    ("dc34_same_blood_test", "_SAME_OCCASION", SAME_OCCASION_TEST_ROUND_33),
    ("dc34_for_that_date", "_SAME_OCCASION", SAME_OCCASION_THAT_DATE_ROUND_33),
    ("dc34_records_it_as", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_33),
    ("dc34_value_bracket_source", "_LEADING_VALUE", LEADING_VALUE_ROUND_33),
    ("dc34_leading_date", "_LEADING_DATE", NEVER),
    ("dc34_allergy_box_says", "_FIELD_SAYS", NEVER),
    ("dc34_worked_out_from_weight", "_WORKED_OUT", WORKED_OUT_ROUND_33),
    ("dc34_neonate_birth_weight", "_NEONATE", NEVER),
    ("dm34_fax_no_n1", "_SENTENCE_END", SENTENCE_END_ROUND_33),
    ("dh34_which_is_unchanged_n1", "_UNCHANGED_AFTER", NEVER),
    ("dh34_back_in_year_value_n1", "_SENTENCE_OPENS_IN_PAST", NEVER),
    ("dh34_weeks_ago_pain_free_n1", "_PAST_ANCHOR", PAST_ANCHOR_ROUND_33),
    ("dh34_weeks_ago_pain_free_n1", "_WELL_NOW", WELL_NOW_ROUND_33),
    ("dh34_ideation_resolved_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_33),
    ("dh34_value_this_morning_n1", "_VALUE_THIS_MORNING", NEVER),
    ("dh34_relative_has_had_now", "_ONGOING_AFTER", NEVER),
    ("dh34_relative_has_had_now", "_WRITERS_RELATIVE_HAS_HAD", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc34_not_same_as", "conflict.yaml", r'"re:\\bnot\\s+same\\s+as\\b"', r'"re:\\bzzq\\b"'),
    (
        "dc34_describe_different",
        "conflict.yaml",
        "describe/describes/described/record/records/recorded/document/documents/documented different",
        "zzq different",
    ),
    (
        "dc34_hcg_is_positive",
        "attributes.yaml",
        r'"re:\\bhcg\\b[^.;,]{0,60}?\\b(?:is|was|came',
        r'"re:\\bzzq\\b[^.;,]{0,60}?\\b(?:is|was|came',
    ),
    (
        "dc34_no_pregnancy_seen",
        "attributes.yaml",
        r'|\\b(?:found|showed|shows|confirmed|demonstrated)\\s+no\\s+pregnancy\\b"',
        '"',
    ),
    (
        "dc34_no_pregnancy_on_scan",
        "attributes.yaml",
        r'"re:\\bno\\s+pregnancy\\s+(?:on|seen|',
        r'"re:\\bzzq\\s+pregnancy\\s+(?:on|seen|',
    ),
    ("dc34_comfort_care_only", "attributes.yaml", r'"re:\\bcomfort\\s+(?:care|measures)\\s+only\\b", ', ""),
    ("dc34_xmatch", "attributes.yaml", '"xmatch", "x-match"]', '"zzq"]'),
    (
        "dc34_both_now_say_n1",
        "attributes.yaml",
        r'"re:\\bboth\\s+now\\s+(?:say',
        r'"re:\\bzzq\\s+now\\s+(?:say',
    ),
    ("dc34_up_to_and_including", "attributes.yaml", r"(?:and\\s+including\\s+)?", ""),
    ("dc34_given_clock", "attributes.yaml", r"|\\d{1,2}:\\d{2}\\b))", "))"),
    ("dc34_hasnt_used", "attributes.yaml", r"\\s+(?:used|injected)\\b", r"\\s+(?:zzq)\\b"),
    (
        "dm34_nowhere_in_notes",
        "missing.yaml",
        '"nowhere in the charts/records/notes/letter/list/file"',
        '"zzq"',
    ),
    ("dm34_not_reportable", "missing.yaml", '      - "not reportable"\n', ""),
    ("dm34_not_recd", "missing.yaml", r"\\bnot\\s+(?:yet\\s+)?rec'?d\\b", "zzq"),
    ("dm34_never_got_mine", "missing.yaml", r"(?:mine|his|hers|theirs|ours|it|one|a\\s+copy)", "(?:zzq)"),
    (
        "dm34_none_accompanied_request",
        "missing.yaml",
        r"\\s+(?:accompanied|came\\s+with|(?:was|were)\\s+(?:sent|attached|enclosed|included|provided))\\b",
        r"\\s+(?:zzq)\\b",
    ),
    ("dm34_no_obs_missing_n1", "missing.yaml", r"(?!\\s+(?:missing|omitted)\\b)", ""),
    (
        "dm34_none_accompanied",
        "modifiers.yaml",
        # (round 62 added "is on/in" a record to the list)
        r"(?:felt|accompanied|came|arrived|was\\s+(?:sent|enclosed|attached)|enclosed|attached|on\\s+file|is\\s+",
        r"(?:felt|is\\s+",
    ),
    ("dh34_educ_n1", "modifiers.yaml", '  - "re:\\\\beduc\\\\b"\n', ""),
    (
        "dh34_anxious_re_n1",
        "modifiers.yaml",
        '  - "re:\\\\b(?:anxious|worried|concerned)\\\\s+re\\\\b"\n',
        "",
    ),
    ("dh34_prophylaxis_n1", "modifiers.yaml", '  - "re:^\\\\W*(?:prophylaxis|prevention)\\\\b"\n', ""),
    (
        "dh34_is_her_usual_n1",
        "modifiers.yaml",
        '  - "re:\\\\bis\\\\s+(?:his|her|their|my)\\\\s+(?:usual|baseline)\\\\b"\n',
        "",
    ),
    (
        "dh34_arm_and_leg",
        "high_risk.yaml",
        "(left|right) (arm|leg|face) (and|&) (leg|arm|face)",
        "(zzq) (arm|leg|face) (and|&) (leg|arm|face)",
    ),
    ("dh34_facial_asymmetry", "high_risk.yaml", '"facial asymmetry"', '"zzq"'),
    (
        "dh34_mixing_up_words",
        "high_risk.yaml",
        "(mixing|mixes|mixed|muddling|muddles|muddled) up",
        "(zzq) up",
    ),
    ("dh34_cant_grip", "high_risk.yaml", "unable to) (grip|hold) ..", "unable to) (zzq) .."),
    (
        "dh34_headache_worst_ever_later",
        "high_risk.yaml",
        r'"re:\\bworst\\s+ever\\b(?<=',
        r'"re:\\bzzq\\s+ever\\b(?<=',
    ),
    (
        "dh34_headache_sudden_onset_later",
        "high_risk.yaml",
        r'"re:\\bsudden[\\s-]+onset\\b(?<=',
        r'"re:\\bzzq[\\s-]+onset\\b(?<=',
    ),
    (
        "dh34_after_this_lot",
        "high_risk.yaml",
        r"\\bafter\\s+(?:this|these)\\s+(?:lot|box|batch|supply|ones?)\\b",
        r"\\bzzq\\b",
    ),
    ("dh34_struggling_to_breathe", "high_risk.yaml", '"struggling/struggles to breathe"', '"zzq"'),
    ("dh34_methanol", "high_risk.yaml", 'terms: ["methanol"]', 'terms: ["zzq"]'),
    ("dh34_ethylene_glycol", "high_risk.yaml", 'terms: ["ethylene glycol"]', 'terms: ["zzq"]'),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
