"""Issue 22z round 68 (all three detectors): the mechanisms blind half 77's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev66.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 68, or one
lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV66_FILE).items}

# the patterns as they were before round 68 (without their additions)
DATE_EVENT_WITHOUT_LIKE = pattern_before(detectors._DATE_EVENT, "|instead|like)", "|instead)")
# the middle of a month is read by both date patterns (``_MONTH_ALONE``), so both are taken back together
DATE_EVENT_WITHOUT_MID = pattern_before(detectors._DATE_EVENT, "|mid-)", ")")
DATE_STATED_WITHOUT_MID = pattern_before(detectors._DATE_STATED, "|mid-)", ")")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc68_stop_days_like", "_DATED_BY_ITS_CUE", frozenset()),
    ("dc68_stop_days_like", "_DATE_EVENT", DATE_EVENT_WITHOUT_LIKE),
    ("dc68_med_rec_topic", "_RECONCILED_ITEM", NEVER),
    ("dh68_year_after_since", "_YEAR_AFTER_PREPOSITION", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc68_original_still_shows", "conflict.yaml", r"(?<!\\boriginal\\s+(?:[\\w-]+\\s+){0,2}still)", ""),
    (
        "dc68_original_still_shows",
        "attributes.yaml",
        r'"re:\\boriginal\\s+(?:[\\w-]+\\s+){0,2}?(?:form',
        r'"re:\\bzzq\\s+(?:[\\w-]+\\s+){0,2}?(?:form',
    ),
    (
        "dc68_mismatch_none_found",
        "conflict.yaml",
        r"(?![^.;\\n]{0,80}?\\b(?:none|nothing)\\s+(?:found|identified|seen)\\b)",
        "",
    ),
    ("dc68_stop_days_like", "attributes.yaml", 'drug_stopped: ["re:', 'drug_stopped: ["re:zzq'),
    ("dc68_repeat_still_active", "attributes.yaml", r"|\\s*:|\\s+(?:still\\s+)?active\\b)", r"|\\s*:)"),
    ("dc68_ours_before_value", "attributes.yaml", r'"re:\\bours\\b(?=\\s+[a-z]+\\s+\\d)",', ""),
    ("dc68_lap_chole_mid_month", "attributes.yaml", r'"re:\\blap(?:aroscopic)?\\s+chole\\b",', ""),
    (
        "dh68_sepsis_screen_sample",
        "modifiers.yaml",
        "|sent|sample|specimen|tubes?|done",
        "|sent|done",
    ),
    ("dm68_neither_remembers", "missing.yaml", "|neither of (us|them)", ""),
    (
        "dm68_no_creatinine_available",
        "missing.yaml",
        r"(?:egfr|u&es?|renal\\s+function|creatinine|bloods|blood\\s+results|potassium|inr|lfts?|tsh)\\b[^.;\\n]{0,40}?",
        r"zzq\\b[^.;\\n]{0,40}?",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)


def test_the_middle_of_a_month_carries_its_item(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    """round 68: "mid-February" is a month; without it in both date patterns the pair has one date only."""
    assert fires("dc68_lap_chole_mid_month") is True
    monkeypatch.setattr(detectors, "_DATE_EVENT", DATE_EVENT_WITHOUT_MID)
    monkeypatch.setattr(detectors, "_DATE_STATED", DATE_STATED_WITHOUT_MID)
    assert fires("dc68_lap_chole_mid_month") is False
