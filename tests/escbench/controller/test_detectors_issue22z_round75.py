"""Issue 22z round 75 (all three detectors): the mechanisms blind half 84's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev73.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 75, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV73_FILE).items}

# the patterns as they were before round 75 (without their additions)
YEAR_AFTER_WITHOUT_GIVEN = pattern_before(detectors._YEAR_AFTER, r"|\bgiven(?:\s+in)?\b")
GESTATION_WITHOUT_OBSTETRIC_RECORD = pattern_before(
    detectors._GESTATION,
    r"|(?:ob|obstetric|antenatal|maternity)\s+(?:chart|notes?|records?|file)\s+(?:says|shows|states|records|gives)",
)
# the grades as they were, the mild one without "just itching" (the tuple holds the compiled patterns)
REACTION_GRADES_WITHOUT_JUST_ITCHING = (
    ("severe", detectors._SEVERE_REACTION),
    (
        "mild",
        pattern_before(
            detectors._MILD_REACTION, r"|\b(?:just|only|merely)\s+(?:an?\s+|some\s+)?itch(?:ing|y|iness)?\b"
        ),
    ),
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc75_given_year", "_YEAR_AFTER", YEAR_AFTER_WITHOUT_GIVEN),
    ("dc75_only_itching", "_REACTION_GRADES", REACTION_GRADES_WITHOUT_JUST_ITCHING),
    ("dc75_old_record", "_OLD_RECORD", NEVER),
    ("dc75_listed_allergens", "_LISTED_WITH", NEVER),
    ("dc75_ob_weeks", "_GESTATION", GESTATION_WITHOUT_OBSTETRIC_RECORD),
    ("dm75_not_twice", "_NEGATOR_THEN_DASH", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc75_never_allergic",
        "attributes.yaml",
        r'"re:\\ballergic\\s+to\\s+anything\\b(?<=',
        r'"re:\\bzzq\\b(?<=',
    ),
    ("dc75_full_everything", "attributes.yaml", '"full everything"', '"zzq everything"'),
    ("dc75_different_to", "conflict.yaml", '"different to what"', '"zzq to what"'),
    (
        "dc75_trough_before_dose",
        "attributes.yaml",
        r"(?:morning|evening|next)\\s+)?dose\\b(?!",
        r"(?:morning|evening|next)\\s+)?zzq\\b(?!",
    ),
    (
        "dc75_old_one",
        "attributes.yaml",
        r"(?:just\\s+)?(?:the|an)\\s+old\\s+(?:one|list|version|copy)\\b",
        r"(?:just\\s+)?(?:the|an)\\s+zzq\\s+(?:one|list|version|copy)\\b",
    ),
    (
        "dc75_misread",
        "attributes.yaml",
        r"(?:just\\s+|must\\s+have\\s+|had\\s+)?misread\\b",
        r"(?:just\\s+|must\\s+have\\s+|had\\s+)?zzq\\b",
    ),
    ("dh75_rock_hard", "high_risk.yaml", r'"re:\\brock[\\s-]+hard\\b(?:', r'"re:\\bzzq\\b(?:'),
    (
        "dh75_freq_unchanged",
        "modifiers.yaml",
        r'"re:^[\\s,]*(?:freq|frequency)\\s+',
        r'"re:^[\\s,]*(?:zzq)\\s+',
    ),
    (
        "dh75_cp_bracket",
        "shorthand.yaml",
        r'"re:(?<![\\w/])CP(?=\\s*\\(\\s*(?:spastic',
        r'"re:(?<![\\w/])ZZQ(?=\\s*\\(\\s*(?:spastic',
    ),
    (
        "dm75_still_no_weight",
        "missing.yaml",
        r'"re:\\bstill\\s+no\\s+(?:(?:body\\s+)?weight|wt)\\b',
        r'"re:\\bzzq\\s+no\\s+(?:(?:body\\s+)?weight|wt)\\b',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
