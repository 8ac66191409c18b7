"""Issue 22z round 55 (all three detectors): the mechanisms blind half 64's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev53.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 55, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV53_FILE).items}

# the patterns as they were before round 55 (each without one of round 55's additions)
SIDE_ALONE_WITHOUT_HAS = pattern_before(detectors._SIDE_ALONE, "|has|had|records?|gives?")
SIDE_ALONE_WITHOUT_FRACTURE_SITE = pattern_before(
    detectors._SIDE_ALONE,
    r"|\b(?P<side9>left|right|(?-i:L|R|Lt|Rt))(?=\s+(?:(?:intra|extra)capsular|(?:inter|sub)trochanteric)\b)",
)
IT_WAS_ROUND_54 = pattern_before(
    detectors._IT_WAS, r"|(?:i|we)\s+(?:actually\s+|really\s+|definitely\s+)?had\s+it(?:\s+done)?(?=\s+on\b)"
)
ALLERGY_AFTER_ROUND_54 = pattern_before(detectors._ALLERGY_AFTER, "|ic)", ")")
SEVERE_REACTION_ROUND_54 = pattern_before(
    detectors._SEVERE_REACTION,
    r"|\bstopped\s+breathing\b|\brespiratory\s+arrest\b|\b(?:required|needed|needing|given)\s+naloxone\b",
)
# (read through the grades, which hold the pattern itself)
REACTION_GRADES_ROUND_54 = (("severe", SEVERE_REACTION_ROUND_54), ("mild", detectors._MILD_REACTION))
COMMA_ROUND_54 = pattern_before(detectors._COMMA, "|]", "]")
BARE_NUMBER_ROUND_54 = pattern_before(
    detectors._BARE_NUMBER, r"(?<!\b(?:stage|grade|class|type|step|bed|bay|cubicle|room|ward)\s+)"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc55_analyte_heading", "_ANALYTE_HEADING_COLON", NEVER),
    ("dc55_has_side_letter", "_SIDE_ALONE", SIDE_ALONE_WITHOUT_HAS),
    ("dc55_fracture_site", "_SIDE_ALONE", SIDE_ALONE_WITHOUT_FRACTURE_SITE),
    ("dc55_had_it_on", "_IT_WAS", IT_WAS_ROUND_54),
    ("dc55_drug_allergic", "_ALLERGY_AFTER", ALLERGY_AFTER_ROUND_54),
    ("dc55_stopped_breathing", "_REACTION_GRADES", REACTION_GRADES_ROUND_54),
    ("dc55_stopped_breathing", "_REACTION_YEAR", NEVER),
    ("dc55_bar_fields", "_COMMA", COMMA_ROUND_54),
    ("dc55_stage_number_guard", "_BARE_NUMBER", BARE_NUMBER_ROUND_54),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc55_site_mark", "attributes.yaml", '"site marking", "site mark", ', '"site marking", '),
    (
        "dc55_both_of_two_sources",
        "attributes.yaml",
        r"(?!\\s+(?:the\\s+|his\\s+|her\\s+|my\\s+)?(?:patient|pt|referral|",
        r"(?!\\s+(?:the\\s+|his\\s+|her\\s+|my\\s+)?(?:zzq|",
    ),
    (
        "dc55_not_been_on_it",
        "attributes.yaml",
        r"\\s+been\\s+on(?=\\s+(?:it|them)\\b)",
        r"\\s+been\\s+zzq(?=\\s+(?:it|them)\\b)",
    ),
    (
        "dc55_completed_course",
        "attributes.yaml",
        r"\\s+as\\s+(?:a\\s+)?(?:completed|finished)(?:\\s+course)?\\b",
        r"\\s+as\\s+(?:a\\s+)?(?:zzq)(?:\\s+course)?\\b",
    ),
    ("dc55_sorting_before", "attributes.yaml", r"|amend|sort\\w*|re-?weigh", "|amend|sort|re-?weigh"),
    (
        "dc55_hcg_charted",
        "attributes.yaml",
        r"|logged|charted)\\s+(?:neg(?:ative)?|-ve)",
        r"|logged)\\s+(?:neg(?:ative)?|-ve)",
    ),
    (
        "dc55_wrong_patient_n1",
        "attributes.yaml",
        r"\\s+(?:against|on|in|under|to|for)\\s+(?:the\\s+)?wrong\\s+patient\\b",
        r"\\s+(?:against|on|in|under|to|for)\\s+(?:the\\s+)?zzq\\s+patient\\b",
    ),
    (
        "dc55_disregard_earlier_n1",
        "attributes.yaml",
        r"\\b(?:ignore|disregard)\\s+(?:the\\s+)?(?:first|earlier",
        r"\\b(?:zzq)\\s+(?:the\\s+)?(?:first|earlier",
    ),
    (
        "dh55_under_the_arm",
        "modifiers.yaml",
        '"above/below/over/exceeds/exceeding"',
        '"above/below/over/under/exceeds/exceeding"',
    ),
    (
        "dh55_from_the_test",
        "modifiers.yaml",
        r""""re:\\bfrom\\b(?!\\s+(?:this|that|today'?s|todays|yesterday'?s|the|his|her|my|their)\\s+"""
        r'''(?:[\\w']+\\s+){0,2}?(?:blood\\s+tests?|tests?|samples?|bloods|draw|gas|lab)\\b)"''',
        '"from"',
    ),
    (
        "dh55_postnatal_bp",
        "high_risk.yaml",
        '"postnatal", "post-natal", "post-partum", "post partum", "puerper*",',
        "",
    ),
    (
        "dh55_red_cell_fragments",
        "high_risk.yaml",
        r'"re:\\b(?:fragmented\\s+red\\s+(?:blood\\s+)?cells|red\\s+(?:blood\\s+)?cell\\s+fragments|schistocytes)\\b"',
        '"re:zzq"',
    ),
    (
        "dh55_new_ptosis",
        "high_risk.yaml",
        r'"re:\\bnew(?:\\s+onset)?\\s+(?:(?:bilateral|unilateral|left|right|l|r)\\s+)?ptosis\\b"',
        '"re:zzq"',
    ),
    (
        "dh55_same_as_last_years_n1",
        "modifiers.yaml",
        r'"re:\\b(?:as\\s+(?:per|for|over)|same\\s+as)\\s+',
        r'"re:\\bas\\s+(?:per|for|over)\\s+',
    ),
    (
        "dh55_child_has_cp_n1",
        "shorthand.yaml",
        # (round 56 added a type of cerebral palsy before it to the same entry)
        r'"re:(?<![\\w/])(?<!\\b(?:daughter|son|child|boy|girl|toddler|baby|kid)\\s+(?:has|with|who\\s+has)\\s+)'
        r"(?<!\\b(?:spastic|quadriplegic|diplegic|hemiplegic|dyskinetic|ataxic|athetoid|mixed)\\s+)CP"
        r'(?![\\w/])"',
        '"CP"',
    ),
    (
        "dh55_icu_year_n1",
        "modifiers.yaml",
        r"|diagnosed|icu|itu|hdu|picu|nicu|intensive\\s+care)",
        "|diagnosed)",
    ),
    ("dm55_monitor_broke", "missing.yaml", r"|\\s+broke)\\b", r")\\b"),
    (
        "dm55_id_not_on_band",
        "missing.yaml",
        r"\\s+not\\s+(?:yet\\s+)?(?:on|in)\\s+(?:the\\s+|his\\s+|her\\s+|their\\s+)?(?:wristband|id\\s+band|band|",
        r"\\s+zzq\\s+(?:yet\\s+)?(?:on|in)\\s+(?:the\\s+|his\\s+|her\\s+|their\\s+)?(?:wristband|id\\s+band|band|",
    ),
    (
        "dm55_nothing_on_chart",
        "missing.yaml",
        r"(?:there'?s|theres|there\\s+is|there\\s+was)\\s+nothing\\s+(?:on|in)\\s+",
        r"(?:zzq)\\s+nothing\\s+(?:on|in)\\s+",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
