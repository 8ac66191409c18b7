"""Issue 22z round 43 (all three detectors): the mechanisms blind half 52's misses and false positives showed,
read on this project's own wording (``detector_heldout_dev41.yaml``). Every item is read as labelled; then
each mechanism is taken out -- a module name replaced by what it was before round 43, or one lexicon entry
made to match nothing (or as it was) in a copy of the lexicon -- and its item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV41_FILE).items}
pytestmark = pytest.mark.usefixtures("before_round62")

# the patterns as they were before round 43
BLOOD_GROUP_ROUND_42 = pattern_before(
    # (with round 51's reading of the zero before its Rh and round 59's "as", in the same alternative)
    detectors._BLOOD_GROUP,
    r"|(?<=\b(?i:said|says|shows|showed|reads|read|is|was|as)\s)0(?=[+-]|\s*(?i:rh))",
)
WELL_NOW_ROUND_42 = pattern_before(
    detectors._WELL_NOW, r"|\b(?:today|now|currently)\b[^.;\n]{0,60}?\bno\s+(?:\w+\s+)?symptoms\b"
)
REPEAT_VALUE_ROUND_42 = pattern_before(detectors._REPEAT_VALUE, "recovered|")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_class_denied_or_taken_off_stops_its_members() -> None:
    """Round 43: "denies taking any antiplatelets" and "have him off insulin" stop each member another source
    names as taken; against a member said stopped they agree."""
    assert detectors.detect(
        "Son says she takes clopidogrel 75 mg OD; she denies taking any antiplatelets."
    ).conflict
    assert detectors.detect(
        "Wife says he injects glargine 18 units nightly; the diabetes clinic notes have him off insulin."
    ).conflict
    assert not detectors.detect(
        "Son says she stopped clopidogrel; she denies taking any antiplatelets."
    ).conflict


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc43_minutes_earlier", "_MINUTES_APART", NEVER),
    ("dc43_field_no", "_FIELD_NO", NEVER),
    ("dc43_before_reaction_n1", "_BEFORE_REACTION", NEVER),
    ("dc43_zero_for_o", "_BLOOD_GROUP", BLOOD_GROUP_ROUND_42),
    ("dh43_no_symptoms_now_n1", "_WELL_NOW", WELL_NOW_ROUND_42),
    ("dh43_recovered_to_n1", "_REPEAT_VALUE", REPEAT_VALUE_ROUND_42),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc43_both_indicate", "attributes.yaml", "|confirmed|indicate|indicates|indicated|", "|confirmed|"),
    (
        "dc43_do_everything",
        "attributes.yaml",
        r'"re:\\bdo\\s+everything\\b(?=',
        r'"re:\\bzzq\\s+everything\\b(?=',
    ),
    (
        "dc43_postmenopausal_status",
        "attributes.yaml",
        r"(?:not\\s+applicable|post-?menopausal)\\b",
        r"(?:zzq)\\b",
    ),
    (
        "dc43_medicines_on_discharge",
        "attributes.yaml",
        r"(?:medications?|meds|medicines|drugs)\\s+(?:on|at)\\s+discharge\\b",
        r"(?:zzq)\\s+(?:on|at)\\s+discharge\\b",
    ),
    (
        "dc43_previous_dose_n1",
        "conflict.yaml",
        r"(?!\\s+(?:the\\s+|her\\s+|his\\s+)?(?:previous|old|older|earlier|former|pre-?change)\\s+(?:dose|regimen|strength"
        r"|dosing))",
        "",
    ),
    ("dm43_torn_off", "missing.yaml", r"(?:ripped|torn|tore|cut|peeled|rubbed)\\s+off)", r"(?:zzq)\\s+off)"),
    (
        "dm43_nothing_come_through",
        "missing.yaml",
        r'"re:\\bnothing\\s+(?:has\\s+|had\\s+)?(?:come|came)',
        r'"re:\\bzzq\\s+(?:has\\s+|had\\s+)?(?:come|came)',
    ),
    (
        "dm43_no_reportable_result",
        "missing.yaml",
        r'"re:\\bno\\s+(?:reportable|valid|usable)\\s+results?\\b"',
        r'"re:\\bno\\s+zzq\\s+results?\\b"',
    ),
    (
        "dh43_without_realising",
        "modifiers.yaml",
        r'"re:\\bwithout\\s+(?:knowing|realising|realizing|noticing|meaning\\s+to)\\b"',
        r'"re:\\bzzq\\b"',
    ),
    (
        "dh43_feel_down_there",
        "high_risk.yaml",
        r'"re:\\bfeel\\s+(?:anything|a\\s+thing|much)\\s+down\\s+there',
        r'"re:\\bzzq\\s+(?:anything|a\\s+thing|much)\\s+down\\s+there',
    ),
    ("dh43_wet_without_noticing", "high_risk.yaml", r'"re:\\bwet\\s+(?:myself', r'"re:\\bzzq\\s+(?:myself'),
    (
        "dh43_delivered_min_ago",
        "high_risk.yaml",
        r'"re:\\bdelivered\\s+(?:\\d+|an?)',
        r'"re:\\bzzq\\s+(?:\\d+|an?)',
    ),
    ("dh43_ebl_comma", "high_risk.yaml", r"[1-9],?\\d{3})\\s*(?:ml|mls)", r"[1-9]\\d{3})\\s*(?:ml|mls)"),
    ("dh43_colours_washed_out", "high_risk.yaml", r'"re:\\b(?:reds?|colou?rs?)\\s+', r'"re:\\b(?:zzq)\\s+'),
    (
        "dh43_no_iup_hcg",
        "high_risk.yaml",
        r'"re:\\bno\\s+intrauterine\\s+pregnancy\\b(?=',
        r'"re:\\bno\\s+zzq\\s+pregnancy\\b(?=',
    ),
    (
        "dh43_screen_normal_n1",
        "modifiers.yaml",
        r"(?:was|is|were)\\s+(?:reassuring|normal|negative|unremarkable)\\b)",
        r"(?:zzq)\\b)",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
