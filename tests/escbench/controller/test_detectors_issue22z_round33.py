"""Issue 22z round 33 (all three detectors): the mechanisms blind half 42's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev31.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 33 or by a pattern that
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV31_FILE).items}
# round 38's general readings also cover items here: tested as the detectors read before round 38
pytestmark = pytest.mark.usefixtures("before_round38")


# the patterns as they were before round 33
REPORTING_ROUND_32 = pattern_before(detectors._REPORTING, "|holds?|held")
CLAUSE_SPLIT_YET_ROUND_32 = pattern_before(
    detectors._CLAUSE_SPLIT, r"|(?<!\bnot|\bnor)\s+yet\s+(?!(?:to|again|another|more|be|been|still)\b)"
)
CLAUSE_SPLIT_AND_THEN_ROUND_32 = pattern_before(
    detectors._CLAUSE_SPLIT, r"|\s+and\s+then\s+(?=(?:the|her|his|my|our|their|your)\s+)"
)
CLAUSE_SPLIT_HAS_ROUND_32 = pattern_before(
    detectors._CLAUSE_SPLIT, r"|has(?!\s+(?:(?:that|it|this|them|been|had|no)\b|an?\s))|holds|shows|gives"
)
REPORTED_VALUE_ROUND_32 = pattern_before(
    detectors._REPORTED_VALUE, r"|(?:and\s+)?got|came\s+back(?:\s+(?:as|at))?"
)
ELLIPTIC_DENIAL_ROUND_32 = pattern_before(
    detectors._ELLIPTIC_DENIAL,
    r"|\b(?:i|she|he|they)\s+(?:(?:definitely|really|certainly|honestly|absolutely|categorically)\s+)?"
    r"(?:isn'?t|isnt|is\s+not|'s\s+not|am\s+not|'m\s+not|aren'?t|are\s+not)\s*$",
)
ONLY_AFTER_ROUND_32 = pattern_before(
    detectors._ONLY_AFTER, r"|\s+as\s+(?:her|his|their|the|its)\s+only\s+(?:known\s+)?(?:drug\s+)?allerg"
)
STATED_TARGET_ROUND_32 = pattern_before(detectors._STATED_TARGET, r"\b(?:target|baseline)", r"\btarget")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_value_split_from_its_source_by_sentences_stays_apart() -> None:
    """Round 33: up to three empty clauses may stand between a value and the analyte it takes, but only inside
    one sentence: a frequency in one section and another in the next are no pair."""
    occupied = frozenset({0, 4})
    assert detectors._neighbours(0, 4, occupied)
    assert not detectors._neighbours(0, 4, occupied, breaks=frozenset({2}))
    assert detectors._neighbours(0, 4, occupied, breaks=frozenset({0}))  # the value's own clause may end one
    assert not detectors._neighbours(0, 5, frozenset({0, 5}))


def test_a_query_mark_against_a_word_is_no_sentence_question() -> None:
    """Round 33: "?typo" opening a clause poses its reason; a question mark that ends a sentence does not."""
    text = "EPR shows 142. ?typo. Which is right? Typo confirmed."
    assert detectors._posed_as_query(text, text.index("typo."))
    assert not detectors._posed_as_query(text, text.index(" Typo confirmed"))


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc33_system_holds", "_REPORTING", REPORTING_ROUND_32),
    ("dc33_yet", "_CLAUSE_SPLIT", CLAUSE_SPLIT_YET_ROUND_32),
    ("dc33_and_then", "_CLAUSE_SPLIT", CLAUSE_SPLIT_AND_THEN_ROUND_32),
    ("dc33_and_then", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_32),
    ("dc33_second_source_has", "_CLAUSE_SPLIT", CLAUSE_SPLIT_HAS_ROUND_32),
    ("dc33_closing_denial", "_ELLIPTIC_DENIAL", ELLIPTIC_DENIAL_ROUND_32),
    (
        "dc33_closing_denial",
        "_DENIED_VALUE",
        {("allergy", True): False, ("medication_status", "active"): "stopped"},
    ),
    ("dc33_reason_queried", "_posed_as_query", lambda *_: False),
    ("dc33_source_split_by_commas", "_NEIGHBOUR_REACH", 2),
    ("dc33_last_dose_of_event", "_last_dose_of_event", lambda found: found),
    ("dc33_it_was", "_IT_WAS", NEVER),
    ("dc33_only_allergy", "_ONLY_AFTER", ONLY_AFTER_ROUND_32),
    ("dc33_weight_said", "_WEIGHT_SAID", NEVER),
    ("dc33_queried_phrase_n1", "_QUERIED_BEFORE", NEVER),
    ("dh33_years_ago_value_n1", "_OPENS_LONG_AGO", NEVER),
    ("dh33_baseline_before_n1", "_STATED_TARGET", STATED_TARGET_ROUND_32),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc33_queried_phrase_n1", "modifiers.yaml", r'  - "re:\\bnil\\b(?!', r'  - "re:\\bzzq\\b(?!'),
    ("dc33_went_up_to_bed", "attributes.yaml", r"|the\\s+end|bed|the\\s+ward|", r"|the\\s+end|"),
    (
        "dc33_went_up_to_bed",
        "attributes.yaml",
        r'"re:\\b(?:was|were)\\s+last\\s+',
        r'"re:\\b(?:zzq)\\s+last\\s+',
    ),
    (
        "dc33_need_it_rechecked",
        "attributes.yaml",
        r"(?<!\\b(?:needs?|needing|wants?|want\\s+to\\s+have|get)\\s+(?:it|them|this|that)\\s)",
        "",
    ),
    ("dc33_depot_last_dose", "attributes.yaml", r"(?:\\s+(?:deep\\s+)?(?:im|iv|sc|po|sl))?", ""),
    (
        "dc33_been_off",
        "attributes.yaml",
        r"\\b(?:been|is|he'?s|she'?s|hes|shes|i'?m|im)\\s+(?:completely",
        "zzq(?:",
    ),
    ("dc33_allergy_dash", "attributes.yaml", r"\\s*(?:[=:]|\\s[-–—])(?!", r"\\s*(?:[=:])(?!"),
    ("dc33_iodine", "attributes.yaml", "  iodine: [iodine, povidone-iodine,", "  iodine: [zzq, zzq2,"),
    (
        "dc33_concordant_priors",
        "attributes.yaml",
        r"|concordant(?!\\s+(?:(?:prior|previous|historical|historic|earlier)\\s+)?(?:groups?|groupings?|results?"
        r"|samples?|readings?|values?)\\b)|",
        "|concordant|",
    ),
    ("dc33_sugar", "attributes.yaml", '    sugar, sugars, "sugar meter"]', '    "zzq"]'),
    ("dc33_pregnancy_field", "attributes.yaml", r"(?:status|flag|field|box)?", r"(?:status|flag)?"),
    (
        "dc33_pregnant_gestation",
        "attributes.yaml",
        r'"re:\\bpregnant\\s*[,(\\u2013\\u2014-]?\\s*(?:~',
        r'"re:\\bzzq\\s*[,(\\u2013\\u2014-]?\\s*(?:~',
    ),
    (
        "dc33_till_sorted",
        "attributes.yaml",
        r"pending)\\s+(?:[\\w'’-]+\\s+){1,2})\\bsorted",
        r"pending)\\s+(?:[\\w-]+\\s+){1,2})\\bsorted",
    ),
    (
        "dm33_no_idea_if_it_matters_n1",
        "missing.yaml",
        r"\\b(?!\\s+(?:it|this|that)\\s+(?:matters",
        r"\\b(?!\\s+(?:zzq)\\s+(?:matters",
    ),
    (
        "dm33_no_creat_egfr",
        "missing.yaml",
        r'"re:\\bno\\s+(?:recent\\s+|current\\s+|baseline\\s+)?(?:creat|',
        r'"re:\\bzzq\\s+(?:recent\\s+|current\\s+|baseline\\s+)?(?:creat|',
    ),
    (
        "dm33_result_not_come_up",
        "missing.yaml",
        r'"re:\\b(?:result|results|reading|level)\\s+(?:still',
        r'"re:\\b(?:zzq)\\s+(?:still',
    ),
    (
        "dm33_no_indication_given",
        "missing.yaml",
        r'"re:\\bno\\s+(?:indication|reason|diagnosis)\\s+(?:given',
        r'"re:\\bzzq\\s+(?:indication|reason|diagnosis)\\s+(?:given',
    ),
    (
        "dm33_cannot_find_diagnosis",
        "missing.yaml",
        r"\\s+find\\s+(?:the|his|her|their|any|an?)\\s+(?:original",
        r"\\s+zzq\\s+(?:the|his|her|their|any|an?)\\s+(?:original",
    ),
    (
        "dm33_not_addressed",
        "missing.yaml",
        r"\\s+(?:yet\\s+|been\\s+)?addressed\\b",
        r"\\s+(?:yet\\s+|been\\s+)?zzq\\b",
    ),
    (
        "dh33_usual_finding_n1",
        "modifiers.yaml",
        r"(?<!\\bthan\\s)(?<!\\bthan\\s(?:his|her|their|my)\\s)\\busual(?:\\s+[\\w-]+){0,2}\\s*$",
        "zzq",
    ),
    ("dh33_nil_n1", "modifiers.yaml", r'  - "re:\\bnil\\b(?!', r'  - "re:\\bzzq\\b(?!'),
    ("dh33_screening_n1", "modifiers.yaml", r'"re:^[\\s-]*screening\\b', r'"re:^[\\s-]*zzq\\b'),
    (
        "dh33_sepsis_screen_hyphen_n1",
        "modifiers.yaml",
        r'"re:^[\\s-]*screen\\s+(?:bloods?',
        r'"re:^\\s*screen\\s+(?:bloods?',
    ),
    (
        "dh33_relative_developed_n1",
        "modifiers.yaml",
        # (round 52 added "was diagnosed" to the same entry)
        r"(?:had|died|with|lost|developed|suffered|was\\s+diagnosed)\\b(?!\\s+(?:this",
        r"(?:had|died|with|lost)\\b(?!\\s+(?:this",
    ),
    ("dh33_minor_head_injury_n1", "high_risk.yaml", r'"re:(?<!\\bminor\\s)\\bhead', r'"re:\\bhead'),
    (
        "dh33_minor_head_injury_n1",
        "high_risk.yaml",
        r"(?!\\s+(?:sheet|advice|leaflet|card|instructions|proforma|obs|observations|chart)\\b)",
        "",
    ),
    (
        "dh33_child_drank_medicine",
        "high_risk.yaml",
        r'"re:\\b(?:drank|drunk|swallowed|gulped)\\b',
        r'"re:\\b(?:zzq)\\b',
    ),
    (
        "dh33_weakness_rising",
        "high_risk.yaml",
        "(rising|spreading up|creeping up|moving up|climbing)",
        "(zzq)",
    ),
    (
        "dh33_chemical_verb_first",
        "high_risk.yaml",
        r"(?:splash\\w*|sprayed|squirted|got)\\s+(?:some",
        r"(?:zzq)\\s+(?:some",
    ),
    (
        "dh33_will_jump",
        "high_risk.yaml",
        "(will|would|going to|gonna|intends to|wants to) (jump|",
        "(zzq) (jump|",
    ),
    (
        "dh33_jump_car_park",
        "high_risk.yaml",
        "(car park|multistorey|multi-storey|tower|",
        "(zzq|tower|",
    ),
    (
        "dc33_and_then",
        "attributes.yaml",
        r"(?!\\s+(?:breakfast|lunch|dinner|tea|supper|meals?|food|eating|bed|bedtime)\\b)",
        "",
    ),
    (
        "dh33_whole_lot",
        "high_risk.yaml",
        "(the whole lot|the lot|all of them|all my tablets|all her tablets|all his tablets|the whole box"
        "|the whole packet|the whole bottle)",
        "(zzq)",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
