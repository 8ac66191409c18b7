"""Issue 22z round 72 (all three detectors): the mechanisms blind half 81's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev70.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 72, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV70_FILE).items}

# the patterns as they were before round 72 (without their additions)
SENTENCE_END_WITHOUT_FORM_ANSWER = pattern_before(detectors._SENTENCE_END, detectors._FORM_ANSWER_AFTER)
SPLIT_WITHOUT_SOURCES_SAY = pattern_before(detectors._CLAUSE_SPLIT, detectors._AND_SOURCES_SAY)
SPLIT_WITHOUT_THIS_READING = pattern_before(detectors._CLAUSE_SPLIT, detectors._AND_THIS_READING)
SPLIT_WITHOUT_THE_ONES_ARE = pattern_before(detectors._CLAUSE_SPLIT, detectors._AND_THE_ONES_ARE)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc72_form_query_answer", "_SENTENCE_END", SENTENCE_END_WITHOUT_FORM_ANSWER),
    ("dc72_so_reads", "_CONSEQUENCE_OPENING", NEVER),
    ("dc72_sources_say", "_CLAUSE_SPLIT", SPLIT_WITHOUT_SOURCES_SAY),
    ("dc72_this_visit_weight", "_CLAUSE_SPLIT", SPLIT_WITHOUT_THIS_READING),
    ("dc72_the_pills_are", "_CLAUSE_SPLIT", SPLIT_WITHOUT_THE_ONES_ARE),
    ("dh72_as_for_years", "_LONGSTANDING_AFTER", NEVER),
    ("dh72_taught_parents", "_TAUGHT_BEFORE", NEVER),
    ("dh72_taught_parents", "_NEEDS_CARE_CLOSE", NEVER),
    ("dh72_value_years_ago", "_PAST_PERIOD_AFTER", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc72_been_receiving", "attributes.yaml", r'"re:\\bbeen\\s+(?:getting|receiving)\\b', r'"re:\\bzzq\\b'),
    (
        "dc72_decided_not_to_start",
        "attributes.yaml",
        r'"re:\\b(?:decided|agreed|chose|opted|elected)\\s+not\\s+to',
        r'"re:\\bzzq\\s+not\\s+to',
    ),
    (
        "dc72_record_has_pregnancy_no",
        "attributes.yaml",
        r'"re:\\b(?:has|had|records?|recorded|shows?|showed|lists?|listed|reads?|says?|ticked|marked)\\s+'
        r"(?:the\\s+)?pregnan",
        r'"re:\\bzzq\\s+(?:the\\s+)?pregnan',
    ),
    (
        "dc72_second_group",
        "attributes.yaml",
        r'"re:\\b(?:1st|2nd|3rd)\\b(?=\\s+(?:grp|group)',
        r'"re:\\bzzq\\b(?=\\s+(?:grp|group)',
    ),
    (
        "dc72_no_drug_or_contrast",
        "attributes.yaml",
        '"no (known)? (drug|drugs|contrast|medication|medicine) (or|and)',
        '"zzq (known)? (drug|drugs|contrast|medication|medicine) (or|and)',
    ),
    (
        "dh72_midback_fever",
        "high_risk.yaml",
        r'"re:\\bmid-?back\\s+pain\\b',
        r'"re:\\bzzq\\s+pain\\b',
    ),
    ("dh72_clozapine_no_bowels", "high_risk.yaml", r'"re:\\bclozapine\\b(?=', r'"re:\\bzzq\\b(?='),
    (
        "dh72_new_sluggish_pupil",
        "high_risk.yaml",
        r'"re:\\bnew(?:ly)?\\s+(?:sluggish',
        r'"re:\\bzzq(?:ly)?\\s+(?:sluggish',
    ),
    (
        "dh72_jaundice_under_24h",
        "high_risk.yaml",
        r'"re:\\bjaundic\\w*\\s*(?:<|under|before)',
        r'"re:\\bzzq\\w*\\s*(?:<|under|before)',
    ),
    (
        "dm72_neither_knows_time",
        "missing.yaml",
        "none of them) (knows|know|knew) (what|which)",
        "none of them) (zzq) (what|which)",
    ),
    ("dm72_sample_lost", "missing.yaml", "had been) lost", "had been) zzq"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
