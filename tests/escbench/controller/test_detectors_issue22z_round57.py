"""Issue 22z round 57 (all three detectors): the mechanisms blind half 66's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev55.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 57, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV55_FILE).items}

# the patterns as they were before round 57 (each without one of round 57's additions)
SETTLED_WITHIN = (
    r"|\bsettled(?<!\bnot\s+settled|n't\s+settled|\bnever\s+settled)\s+(?:within|in|after)\s+(?:about\s+|around\s+)?"
    r"(?:an?|one|two|three|\d+|a\s+few)\s+(?:minutes?|mins?|hours?|hrs?|h)\b"
)
OWN_VERB_RESOLVED_ROUND_56 = pattern_before(detectors._OWN_VERB_RESOLVED, SETTLED_WITHIN)
# the guard: a settling read whatever comes before it ("has not settled within two hours")
OWN_VERB_RESOLVED_ANY_SETTLED = pattern_before(
    detectors._OWN_VERB_RESOLVED, r"(?<!\bnot\s+settled|n't\s+settled|\bnever\s+settled)"
)
NEVER_HAD_SINCE = (
    r"|\b(?:has|have|had)\s+never\s+had\s+(?:(?:another|one|any)(?:\s+(?:more\s+)?(?:episodes?|seizures?|fits?"
    r"|convulsions?|attacks?))?|an?\s+(?:episode|seizure|fit|convulsion|attack))\s+(?:ever\s+)?since\b"
)
RECOVERED_WITHOUT_NEVER_SINCE = pattern_before(detectors._RECOVERED_AFTER, NEVER_HAD_SINCE)
RECOVERED_WITHOUT_A_FIT = pattern_before(
    detectors._RECOVERED_AFTER, r"|an?\s+(?:episode|seizure|fit|convulsion|attack))", ")"
)
RECOVERED_WITHOUT_BREATHING = pattern_before(
    detectors._RECOVERED_AFTER,
    r"|\b(?:been|is|was|are|were)\s+breathing\s+(?:normally|fine|ok|okay|well|easily)\s+(?:all\s+day|ever\s+since"
    r"|since|now)\b",
)
PROMPTS_AFTER_ROUND_56 = pattern_before(
    detectors._PROMPTS_AFTER,
    r"|would\s+(?:need|require|warrant|mean)\s+(?:an?\s+)?(?:same[\s-]day|urgent|immediate|emergency|prompt)\s+"
    r"(?:review|assessment|attendance|attention|admission|care|referral)\b",
)
# the guard: "died" after any subject ("and her brother died") read as the writer's relative's death
DIED_AFTER_ANY_SUBJECT = pattern_before(
    detectors._AND_DIED_AFTER, r"\band\s+(?:later\s+|then\s+|sadly\s+)?(?:died", r"\b(?:died"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh57_settled_within", "_OWN_VERB_RESOLVED", OWN_VERB_RESOLVED_ROUND_56),
    ("dh57_not_settled_guard", "_OWN_VERB_RESOLVED", OWN_VERB_RESOLVED_ANY_SETTLED),
    ("dh57_never_another", "_RECOVERED_AFTER", RECOVERED_WITHOUT_NEVER_SINCE),
    ("dh57_never_a_fit", "_RECOVERED_AFTER", RECOVERED_WITHOUT_A_FIT),
    ("dh57_breathing_fine", "_RECOVERED_AFTER", RECOVERED_WITHOUT_BREATHING),
    ("dh57_would_need", "_PROMPTS_AFTER", PROMPTS_AFTER_ROUND_56),
    ("dh57_relative_died", "_AND_DIED_AFTER", NEVER),
    ("dh57_relative_died", "_DIED_OF_BEFORE", NEVER),
    ("dh57_relative_died_guard", "_AND_DIED_AFTER", DIED_AFTER_ANY_SUBJECT),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc57_isnt_consistent",
        "conflict.yaml",
        "(not|isn't|isnt|aren't|arent|wasn't|wasnt|weren't) consistent",
        "not consistent",
    ),
    (
        "dc57_neither_reconciled",
        "attributes.yaml",
        r"(?<!\\b(?:neither|none)\\b[^.;\\n]{0,40}\\b(?:has|have|was|were)\\s+(?:now\\s+)?been\\s+(?:clarified|reconciled))",
        "",
    ),
    (
        "dc57_neither_reconciled",
        "attributes.yaml",
        r"(?<!\\b(?:neither|none)\\s+(?:[\\w-]+\\s+){0,4}\\w+\\s+reconciled)",
        "",
    ),
    (
        "dc57_no_current_pregnancy",
        "attributes.yaml",
        r"|\\bno\\s+(?:current|ongoing|present)\\s+pregnancy\\b",
        "",
    ),
    ("dc57_at_discharge", "attributes.yaml", r"(?:on|at)\\s+discharge", r"on\\s+discharge"),
    (
        "dc57_denies_any",
        "attributes.yaml",
        r"(?:(?:pt|patient|he|she|they)\\s+)?(?:denies|denied|deny)(?:\\s+any)?\\b",
        "zzq",
    ),
    ("dc57_whos_right", "conflict.yaml", r"\\bwho(?:'s|’s|s|\\s+is)\\s+", r"\\bzzq\\s+"),
    (
        "dh57_systolic_pressure",
        "high_risk.yaml",
        '"bp", "blood pressure", "systolic (blood)? pressure", "systolic", "sbp"',
        '"bp", "blood pressure"',
    ),
    ("dh57_rigoring", "high_risk.yaml", '"rigors/rigoring/rigouring"', '"rigors"'),
    (
        "dh57_csf_plasma_glucose",
        "high_risk.yaml",
        r"(?<!\\bcsf\\s*[:/]\\s*(?:serum|plasma|blood)\\s+glucose)",
        "",
    ),
    (
        "dh57_weakness_of",
        "high_risk.yaml",
        "(weakness|paralysis) (of|in) (the|his|her|my|their)? (left|right) (arm|leg|hand|side)",
        "zzq",
    ),
    (
        "dh57_fever_then_back_pain",
        "high_risk.yaml",
        r'"re:\\b(?:back|spinal|spine)\\s+pain\\b(?<=',
        r'"re:\\bzzq\\b(?<=',
    ),
    ("dh57_found_ligature", "high_risk.yaml", "found (him|her|them|pt|patient)? with (a)? ligature", "zzq"),
    ("dm57_couldnt_say", "missing.yaml", "|did not|can't|cannot|couldn't|could not) (say", "|did not) (say"),
    (
        "dm57_phoned_with_result",
        "missing.yaml",
        "(has|have)? (called|phoned|rang|rung|contacted) (me|us|him|her|them)? with",
        "zzq",
    ),
    ("dm57_nobody_has_it", "missing.yaml", "|has a|has any|has them|has it)", "|has a|has any)"),
    ("dm57_member_number", "missing.yaml", '"member id/number"', '"member id"'),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
