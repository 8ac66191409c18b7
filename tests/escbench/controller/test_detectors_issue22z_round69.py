"""Issue 22z round 69 (all three detectors): the mechanisms blind half 78's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev67.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 69, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
from mechanism_helpers import (
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV67_FILE).items}

# the patterns as they were before round 69 (without their additions)
REACTION_YEAR_WITHOUT_SETTING = pattern_before(
    detectors._REACTION_YEAR, r"|\(\s*(?:icu|itu|hdu|ed|a&e|resus|theatres?|hospital)\s+(?:19|20)\d\d\s*\)"
)
DELIVERED_WITH_WEEKS_AGO = pattern_before(
    detectors._DELIVERED, r"(?!\s+\d{1,2}\s*(?:days?|d|wks?|weeks?)\s+ago\b)"
)
SELF_CHECK_WITHOUT_MINE = pattern_before(
    detectors._SELF_CHECK_QUESTION,
    r"|\b(?:mine|my\s+own)\s+(?:was|were|got|has\s+been|have\s+been)\s+(?:also\s+)?"
    r"(?:checked|tested|done|measured)\b",
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc69_reaction_setting_year", "_REACTION_YEAR", REACTION_YEAR_WITHOUT_SETTING),
    ("dc69_delivered_weeks_ago", "_DELIVERED", DELIVERED_WITH_WEEKS_AGO),
    ("dh69_mine_checked", "_SELF_CHECK_QUESTION", SELF_CHECK_WITHOUT_MINE),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
DELIVERY_AGO = r"(?:days?|d|wks?|weeks?)\\s+ago\\b"
LEXICON_ENTRIES = [
    (
        "dc69_last_injection_bracket",
        "attributes.yaml",
        r"(?:\\([^()]{1,60}\\)\\s+)?(?:injection",
        "(?:injection",
    ),
    ("dc69_living_will", "attributes.yaml", r"(?<!\\bliving\\s+will)", ""),
    ("dc69_home_upt", "attributes.yaml", r"home\\s+upts?\\b", r"home\\s+zzq\\b"),
    (
        "dc69_delivered_days_ago",
        "attributes.yaml",
        r'"re:\\b(?:delivered|gave\\s+birth|had\\s+(?:the|her|my)\\s+baby)\\s+\\d{1,2}\\s*',
        r'"re:\\bzzq\\s+\\d{1,2}\\s*',
    ),
    (
        "dc69_delivered_days_ago",
        "attributes.yaml",
        rf"gave\\s+birth(?!\\s+\\d{{1,2}}\\s*{DELIVERY_AGO})",
        r"gave\\s+birth",
    ),
    (
        "dc69_delivered_weeks_ago",
        "attributes.yaml",
        r'"re:\\b(?:delivered|gave\\s+birth|had\\s+(?:the|her|my)\\s+baby)\\s+\\d{1,2}\\s*',
        r'"re:\\bzzq\\s+\\d{1,2}\\s*',
    ),
    (
        "dc69_preg_test_field",
        "attributes.yaml",
        r"test\\s*(?::\\s*|(?:is|was)\\s+)?(?:neg(?:ative)?\\b|-ve\\b)",
        r"test\\s*(?:(?:is|was)\\s+)?(?:neg\\b|-ve\\b)",
    ),
    (
        "dc69_lead_level",
        "attributes.yaml",
        'lead_level: ["lead level", "blood lead", "blood lead level", "venous lead"]',
        'lead_level: ["zzq"]',
    ),
    ("dh69_erythema_spreading", "high_risk.yaml", r'"re:\\berythema\\b[^.;', r'"re:\\bzzq\\b[^.;'),
    ("dm69_transfer_sheet", "missing.yaml", "|referral|chart|paperwork|sheet)", "|referral|chart|paperwork)"),
    ("dm69_with_neither_nor", "missing.yaml", r"(?<=\\bwith\\s+neither)", r"(?<=\\bzzq)"),
    ("dm69_no_result_newer", "missing.yaml", r"\\s+(?:more\\s+recent|newer|later)\\s+than\\b", r"\\s+zzq\\b"),
    ("dm69_nobody_wrote_down", "missing.yaml", "(wrote|noted|jotted|logged) (it)? down", "zzq"),
    ("dm69_no_pews_since", "missing.yaml", "|pews|news2?)", "|news2?)"),
    ("dm69_cannot_find_plan", "missing.yaml", "|prescription|card|plan)", "|prescription|card)"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)


def test_a_relatives_value_when_the_writers_own_was_checked(
    monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    """round 69: the relative's critical value is read as family history by ``_relatives_finding`` in the
    value hits, as a finding's words were since round 38; without it there the value counts."""
    assert fires("dh69_mine_checked") is False
    monkeypatch.setattr(detectors, "_relatives_finding", lambda text, start: False)
    assert fires("dh69_mine_checked") is True
