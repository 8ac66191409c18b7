"""Issue 22z round 53 (all three detectors): the mechanisms blind half 62's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev51.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 53, or one
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV51_FILE).items}
pytestmark = pytest.mark.usefixtures("before_round62")

# the patterns as they were before round 53
SAME_OCCASION_ROUND_52 = pattern_before(
    detectors._SAME_OCCASION, r"(?:\d{1,2}[/.-]\d{1,2}(?:[/.-](?:\d{4}|\d{2}))?\s+)?"
)
TEST_INDICATION_ROUND_52 = pattern_before(
    detectors._TEST_INDICATION, r"|(?:^|[.;]\s+)(?:requested|sent|ordered|done|taken|booked)\s+for\s+\?\s*$"
)
RECOVERED_AFTER_ROUND_52 = pattern_before(
    detectors._RECOVERED_AFTER,
    r"|\b(?:been|is|was)\s+(?:completely\s+|totally\s+|entirely\s+|just\s+)?(?:himself|herself|themselves|myself)"
    r"\s+(?:ever\s+)?since\b",
)
WELL_NOW_ROUND_52 = pattern_before(
    detectors._WELL_NOW, r"|\babdo(?:men|minal)?\s+(?:is\s+)?(?:soft\s+(?:and\s+)?)?benign\b"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc53_infusion_rate", "_INFUSION_RATE", NEVER),
    ("dc53_same_dated_sample", "_SAME_OCCASION", SAME_OCCASION_ROUND_52),
    ("dc53_delivery_aside", "_DELIVERY_ASIDE", NEVER),
    ("dc53_never_revoked", "_NEVER_REVOKED", NEVER),
    ("dc53_not_had_drug", "_NOT_HAD_BEFORE", NEVER),
    ("dc53_added_dated_n1", "_MONTH_YEAR", NEVER),
    ("dc53_verdict_change_n1", "_VERDICT_OPENING", NEVER),
    ("dh53_sentence_request_n1", "_TEST_INDICATION", TEST_INDICATION_ROUND_52),
    ("dh53_herself_since_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_52),
    ("dh53_benign_abdo_n1", "_WELL_NOW", WELL_NOW_ROUND_52),
    ("dh53_admission_bracket_n1", "_ADMISSION_BRACKET", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc53_not_been_given",
        "attributes.yaml",
        r"|have\\s+not)\\s+been\\s+(?:given|administered|prescribed|issued)\\b",  # round 61: "prescribed"
        r"|have\\s+not)\\s+been\\s+(?:zzq)\\b",
    ),
    (
        "dc53_pregnant_flag_dash",
        "attributes.yaml",
        r"\\bpregnant\\s*[,(\\u2013\\u2014-]?",
        r"\\bpregnant\\s*[,(]?",
    ),
    ("dc53_pregnant_flag_dash", "attributes.yaml", '"questionnaire/questionnaires",', '"zzq",'),
    (
        "dc53_plan_weight",
        "attributes.yaml",
        r'"re:\\b(?:chemo|chemotherapy|sact|dosing|treatment)\\s+(?:plan|protocol)\\b",',
        '"re:zzq",',
    ),
    (
        "dc53_stale_concluded_n1",
        "conflict.yaml",
        r"(?![^\\n]{0,200}?\\b(?:so|therefore|hence)\\s+(?:she|he|they|the\\s+patient|pt)\\s+(?:is|are)"
        r"\\s+(?:not|no\\s+longer)\\b)",
        "",
    ),
    ("dh53_clock_time_fall", "modifiers.yaml", r"(?:19[2-9]\\d|20\\d\\d)\\b", r"(?:19|20)\\d\\d\\b"),
    ("dh53_at_clock_time", "modifiers.yaml", r"{0,2}(?<!\\bat\\s)(?:19|20)", r"{0,2}(?:19|20)"),
    ("dh53_algorithm_n1", "modifiers.yaml", "|proforma|algorithm)", "|proforma)"),
    (
        "dh53_safety_net_n1",
        "modifiers.yaml",
        r"\\bsafety[\\s-]*net(?:ted|ting)?\\s+(?:to",
        r"\\bzzq\\s+(?:to",
    ),
    (
        "dh53_scored_zero_n1",
        "modifiers.yaml",
        r"(?:scored|answered|put|rated|ticked|marked)\\s+(?:a\\s+)?",
        r"(?:zzq)\\s+(?:a\\s+)?",
    ),
    ("dh53_headache_workup_n1", "modifiers.yaml", r'"re:^\\s*(?:headache|pain)\\s+', r'"re:^\\s*(?:zzq)\\s+'),
    (
        "dm53_status_not_confirmed",
        "missing.yaml",
        r"(?:allerg\\w*|weight|code|resus\\w*|pregnancy)\\s+status\\s+(?:is",
        r"(?:zzq)\\s+status\\s+(?:is",
    ),
    (
        "dm53_none_documented_since",
        "missing.yaml",
        r"\\bnone\\s+(?:(?:recorded|documented|charted|done|taken)\\s+)?since",
        r"\\bnone\\s+since",
    ),
    (
        "dm53_full_set_none_since",
        "missing.yaml",
        r"last\\s+(?:full\\s+)?(?:obs|observations|vitals|set\\s+of\\s+(?:obs|observations|vitals))\\b",
        r"last\\s+(?:obs|observations|vitals|set\\s+of\\s+obs)\\b",
    ),
    (
        "dm53_never_received_anything",
        "missing.yaml",
        r'"re:\\bnever\\s+(?:got|received)\\s+anything\\b"',
        '"re:zzq"',
    ),
    (
        "dm53_prescribed_for",
        "needed_items.yaml",
        '"what .. (was|were|is|are) (prescribed|given|started|meant) for"',
        '"zzq"',
    ),
    (
        "dm53_prn_immaterial_n1",
        "needed_items.yaml",
        'as_needed_medicines: ["prn/prns",',
        'as_needed_medicines: ["zzq",',
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
