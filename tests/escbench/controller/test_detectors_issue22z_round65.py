"""Issue 22z round 65 (all three detectors): the mechanisms blind half 74's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev63.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 65, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    compiled_reading_test,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV63_FILE).items}

# the patterns as they were before round 65 (without their additions)
PREGNANCY_YEAR_ROUND_64 = pattern_before(
    detectors._PREGNANCY_YEAR, r"(?<!\b[a-z]+(?:ectomy|otomy|ostomy|plasty|pexy)\s)"
)
RECENT_ROUND_64 = pattern_before(
    detectors._RECENT,
    r"|(?:an?|one|two|three|four|five|six|[1-9]|1\d|2[0-4])\s+(?:hours?|hrs?|minutes?|mins?)\s+"
    r"(?:ago|earlier|before|later|prior)",
)
COMMA_ROUND_64 = pattern_before(detectors._COMMA, r"(?<!\([^()\n]{0,40},)")
JOKING_AFTER_ROUND_64 = pattern_before(
    detectors._JOKING_AFTER,
    r"|[^.\n]{0,80}?\b(?:it|this|that)\s+was\s+(?:only\s+|just\s+)?(?:a\s+joke|in\s+jest)",
)
SELF_CHECK_QUESTION_ROUND_64 = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\b(?:is|are)\s+(?:[\w-]+\s+){1,3}?(?:something|a\s+thing|a\s+condition|the\s+(?:sort|kind)\s+of\s+thing)"
    r"\s+(?:that\s+|which\s+)?runs?\s+in\s+(?:the\s+)?famil(?:y|ies)\b",
)


def never_gone_now(text: str, start: int, end: int) -> bool:
    """Round 64's reading: a finding at arrival stays, whatever is said of it later."""
    return False


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc65_said_the_same_thing", "_SAID_THE_SAME", NEVER),
    ("dc65_hour_earlier_weight", "_RECENT", RECENT_ROUND_64),
    ("dc65_comma_inside_bracket", "_COMMA", COMMA_ROUND_64),
    ("dc65_had_one_in_year", "_HAD_ONE_IN_YEAR", NEVER),
    ("dc65_operation_year_not_pregnancy", "_PREGNANCY_YEAR", PREGNANCY_YEAR_ROUND_64),
    ("dh65_runs_in_families_named", "_SELF_CHECK_QUESTION", SELF_CHECK_QUESTION_ROUND_64),
    ("dh65_weeks_ago_assessed", "_WEEKS_AGO_THEN_SEEN", NEVER),
    ("dh65_year_before_event", "_YEAR_NAMES_FINDING", NEVER),
    ("dh65_movements_felt_again", "_MOVEMENTS_FELT_AFTER", NEVER),
    ("dh65_triage_finding_gone", "_arrival_finding_gone_now", never_gone_now),
    ("dh65_it_was_a_joke", "_JOKING_AFTER", JOKING_AFTER_ROUND_64),
    ("dh65_onset_before_sampling", "_ONSET_BEFORE_SAMPLING_AFTER", NEVER),
    ("dm65_allergies_answered_after", "_ALLERGIES_ANSWERED", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)


test_each_lab_value_aside_carries_its_item = compiled_reading_test(
    DEV, fires, [("dc65_meter_in_brackets", "_LAB_BRACKET_ASIDE"), ("dc65_drawn_time_value", "_LAB_DRAWN_AT")]
)


# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc65_not_currently_taken",
        "attributes.yaml",
        r'"re:\\bnot\\s+(?:currently|presently)\\s+',
        r'"re:\\bzzq\\s+(?:currently|presently)\\s+',
    ),
    (
        "dc65_partial_d_to_test",
        "attributes.yaml",
        r"(?<!\\b(?:test|tests|testing|check|checking|screen|screening|look|looking|investigate)\\s+for\\s+"
        r"(?:(?:a\\s+)?weak\\s*(?:/|or)\\s*)?partial\\s+d)",
        "",
    ),
    (
        "dc65_gas_and_lab_bicarbonate",
        "attributes.yaml",
        'bicarbonate: [bicarbonate, bicarb, hco3, "hco3-", "hco3−"]',
        "bicarbonate: [bicarbonate]",
    ),
    (
        "dc65_bicarbonate_within_methods",
        "attributes.yaml",
        "sodium: 0.03, bicarbonate: 0.2}",
        "sodium: 0.03}",
    ),
    (
        "dc65_chest_drain_side",
        "attributes.yaml",
        ', "chest drain", "chest drains",\n    "intercostal drain", "chest tube", "pleural drain"]',
        "]",
    ),
    ("dc65_source_dates_event", "attributes.yaml", r"(?:date\\s+of|dates|dated)\\s+", r"date\\s+of\\s+"),
    (
        "dc65_which_dose_current",
        "conflict.yaml",
        r'"re:\\b(?:unclear|unsure|not\\s+(?:clear|sure|known)|uncertain|',
        r'"re:\\bzzq\\b(?:unclear|unsure|not\\s+(?:clear|sure|known)|uncertain|',
    ),
    (
        "dh65_tonsil_fossa_bleed",
        "high_risk.yaml",
        '"(bleed|bleeding|blood|haemorrhage|hemorrhage|oozing) from (the|her|his|their|both|one)? '
        "(left|right|l|r)? (tonsil|",
        '"zzq (left|right|l|r)? (tonsil|',
    ),
    (
        "dh65_head_injury_observations",
        "high_risk.yaml",
        "|instructions|proforma|obs|observations|chart)",
        "|instructions|proforma)",
    ),
    (
        "dh65_cut_off_rules_out",
        "modifiers.yaml",
        r"|[<≤]\\s*=?\\s*\\d+(?:\\.\\d+)?(?:\\s*[a-zµ%]+(?:/[a-z0-9.]+)*)?)",
        ")",
    ),
    (
        "dm65_no_baseline_on_file",
        "missing.yaml",
        '"no (recent|current|baseline)? (egfr',
        '"no (recent|current)? (egfr',
    ),
    (
        "dm65_no_baseline_pair",
        "missing.yaml",
        r'"re:\\bno\\s+(?:recent\\s+|current\\s+|baseline\\s+)?(?:creat',
        r'"re:\\bno\\s+(?:recent\\s+|current\\s+)?(?:creat',
    ),
    (
        "dm65_no_minimum_interval",
        "missing.yaml",
        r'"re:\\bno\\s+(?:min(?:imum)?|minimal)\\.?\\s+',
        r'"re:\\bzzq\\s+(?:min(?:imum)?|minimal)\\.?\\s+',
    ),
    (
        "dm65_no_minimum_interval",
        "needed_items.yaml",
        '    - "(minimum|min|minimal) (dosing|dose)? interval"\n',
        "",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
