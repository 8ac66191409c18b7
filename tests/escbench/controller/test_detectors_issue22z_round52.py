"""Issue 22z round 52 (all three detectors): the mechanisms blind half 61's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev50.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 52, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import regex
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV50_FILE).items}

# the patterns as they were before round 52
EMPTY_FIELD_ROUND_51 = pattern_before(
    detectors._EMPTY_FIELD,
    r"|\b(?:says|reads|shows|states|lists|records)\s+(?P<value>nil|none|nkda|nka)\s*(?=[-–—,;])",
)
IN_PAST_BRACKET_ROUND_51 = pattern_before(detectors._IN_PAST_BRACKET, r"|(?:in\s+)?(?:19|20)\d\d")
NAMES_A_THRESHOLD_ROUND_51 = pattern_before(
    detectors._NAMES_A_THRESHOLD, r"|^\s*(?:flag|trigger|alert|concern)\s*(?:if\s+|at\s+)?(?:[<>≥≤]|>=|<=)"
)
OWN_VERB_RESOLVED_ROUND_51 = pattern_before(
    detectors._OWN_VERB_RESOLVED, r"|now\s+(?:fully\s+|completely\s+)?"
)
RECOVERED_AFTER_ROUND_51 = pattern_before(
    detectors._RECOVERED_AFTER,
    r"|\bsince\s+then\b[^.;\n]{0,60}?\bno\s+(?:further|more|new|other)\s+(?:episodes?|seizures?|fits?|convulsions?"
    r"|attacks?|events?)\b",
)
# the booster rule without its limit: any booster, also one a patient says they had
ANY_BOOSTER = regex.compile(r"\bboosters?\b", regex.IGNORECASE)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc52_says_none_allergy", "_EMPTY_FIELD", EMPTY_FIELD_ROUND_51),
    ("dc52_heading_negation", "_NEGATION_BREAK", NEVER),
    ("dc52_booster_given_n1", "_BOOSTER", NEVER),
    ("dc52_booster_claimed", "_BOOSTER", ANY_BOOSTER),
    ("dc52_two_occasions_n1", "_DATED_DAY", NEVER),
    ("dh52_past_bracket_year_n1", "_IN_PAST_BRACKET", IN_PAST_BRACKET_ROUND_51),
    ("dh52_flag_threshold_n1", "_NAMES_A_THRESHOLD", NAMES_A_THRESHOLD_ROUND_51),
    ("dh52_now_resolved_n1", "_OWN_VERB_RESOLVED", OWN_VERB_RESOLVED_ROUND_51),
    ("dh52_no_further_episodes_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_51),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc52_arrow_change_n1", "attributes.yaml", r'"re:[↑↓]\\s*(?:to\\s+)?(?=\\d)",', '"re:zzq",'),
    ("dc52_anaesthetic_plan", "attributes.yaml", "|theatre|anaesthetic|anesthetic|chemo|", "|theatre|chemo|"),
    (
        "dc52_beta_blocker_class",
        "attributes.yaml",
        'names: ["beta-blocker/beta-blockers", "beta blocker/blockers", "b-blocker/b-blockers"]',
        'names: ["zzq"]',
    ),
    # (round 55 made "sort" any of its forms)
    ("dc52_reweigh_before", "attributes.yaml", r"|sort\\w*|re-?weigh\\w*|weigh)\\b", r"|sort\\w*)\\b"),
    (
        "dc52_told_something_different",
        "conflict.yaml",
        "(told|tells|tell) (us|me|him|her|them) something",
        "(zzq) (us|me|him|her|them) something",
    ),
    (
        "dc52_not_on_gp_list",
        "conflict.yaml",
        r'"re:\\bnot\\s+on\\s+(?:his\\s+|her\\s+|their\\s+)?(?:gp|hospital',
        r'"re:\\bzzq\\s+on\\s+(?:his\\s+|her\\s+|their\\s+)?(?:gp|hospital',
    ),
    ("dc52_biometry_side", "attributes.yaml", '"biometry", "iol calc/calcs/calculation",', '"zzq",'),
    ("dh52_saving_up", "high_risk.yaml", "(?:saving|stockpiling|hoarding|storing)", "(?:zzq)"),
    (
        "dh52_all_be_over",
        "high_risk.yaml",
        r"\\s+(?:can|will|would)\\s+(?:all\\s+)?be\\s+over",
        r"\\s+(?:zzq)\\s+(?:all\\s+)?be\\s+over",
    ),
    (
        "dh52_no_guarding_n1",
        "high_risk.yaml",
        r"(?:(?!\\b(?:no|not|without|nil|nor)\\b)[^.;\\n]){0,40}?",
        r"[^.;\\n]{0,40}?",
    ),
    ("dh52_unchanged_colon_n1", "modifiers.yaml", r'"re:\\bunchanged\\s*:"', r'"re:\\bzzq\\s*:"'),
    (
        "dh52_relative_diagnosed_n1",
        "modifiers.yaml",
        r'|suffered|was\\s+diagnosed)\\b(?!\\s+(?:this|these)\\b)"',
        r'|suffered)\\b(?!\\s+(?:this|these)\\b)"',
    ),
    (
        "dm52_but_no_weight",
        "missing.yaml",
        r"(?:have|has|had|with|but)\\s+)no",
        r"(?:have|has|had|with)\\s+)no",
    ),
    (
        "dm52_lost_paper",
        "missing.yaml",
        r"(?:lost|mislaid|misplaced|thrown\\s+away|threw\\s+away)\\s+(?:the|my",
        r"(?:zzq)\\s+(?:the|my",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
