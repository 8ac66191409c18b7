"""Issue 22z round 39 (all three detectors): the mechanisms blind half 48's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev37.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 39 or by a pattern that
never matches, or one lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its
item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV37_FILE).items}

# tested as the detectors read before round 65's reading of fetal movements felt again
pytestmark = pytest.mark.usefixtures("before_round65")

# the pattern as it was before round 39, less one of the two readings the round added
THOUGHTS_SETTLED = r"|\b(?:thoughts|urges|ideation)\s+(?:have\s+|had\s+)?(?:now\s+)?settled\b"
MOVEMENTS_FELT = r"|\b(?:good|normal)\s+(?:fetal\s+)?movements\s+(?:now\s+)?(?:felt|returned|since|resumed)\b"
RECOVERED_AFTER_WITHOUT_THOUGHTS = pattern_before(detectors._RECOVERED_AFTER, THOUGHTS_SETTLED)
RECOVERED_AFTER_WITHOUT_MOVEMENTS = pattern_before(detectors._RECOVERED_AFTER, MOVEMENTS_FELT)
BLOOD_GROUP_ROUND_38 = pattern_before(
    detectors._BLOOD_GROUP, r"pos(?:itive|itivo)?|neg(?:ative|ativo)?", r"pos(?:itive)?|neg(?:ative)?"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_suspected_cause_explains_nothing_a_stated_one_does() -> None:
    """Round 39: "we suspect a typing error" leaves two weights in conflict; "it was a typing error" explains
    them."""
    pair = "The referral letter gives his weight as 62 kg, whereas the ward scales today read 26 kg."
    assert detectors.detect(f"{pair} I suspect a transcription error.").conflict
    assert detectors.detect(f"{pair} We wonder if it is a typo.").conflict
    assert not detectors.detect(f"{pair} It was a transcription error, confirmed with the GP.").conflict


def test_a_supply_since_a_month_is_current_and_a_range_that_ended_is_history() -> None:
    """Round 39: "since 10/2023" dates the current supply, not an old record; the range before it, ended in
    09/2023, is history. Without the earlier range the two current doses still conflict."""
    assert not detectors.detect(
        "Dispensing record: ramipril 2.5 mg issued 03/2023-09/2023; "
        "ramipril 5 mg issued monthly since 10/2023."
    ).conflict
    assert detectors.detect(
        "Dispensing record: ramipril 2.5 mg issued monthly since 10/2023; inpatient chart ramipril 5 mg OD."
    ).conflict


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc39_suspected_typo", "_SUSPECTED_BEFORE", NEVER),
    ("dh39_thoughts_settled_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_WITHOUT_THOUGHTS),
    ("dh39_movements_felt_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_WITHOUT_MOVEMENTS),
    ("dc39_rh_negativo", "_BLOOD_GROUP", BLOOD_GROUP_ROUND_38),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    ("dc39_since_month_year_n1", "attributes.yaml", r"(?<!\\bsince\\s\\d{1,2}/)", ""),
    ("dc39_transfused_units_n1", "attributes.yaml", r'"re:\\btransfused\\s+\\d+\\s*(?:u|units?)\\b", ', ""),
    ("dc39_post_transfusion_n1", "attributes.yaml", r', "re:\\bpost[\\s-]?transfusion\\b"', ""),
    (
        "dc39_everything_now_says_n1",
        "conflict.yaml",
        r"(?![^.\\n]{0,80}?\\b(?:everything|all|both)\\s+now\\s+(?:says?|reads?|shows?|match(?:es)?|agrees?)\\b)",
        "",
    ),
    (
        "dc39_allergy_per_source",
        "attributes.yaml",
        r'"re:\\ballerg(?:y|ies)\\s+(?:per|on|from)\\s+',
        r'"re:\\bzzq\\s+(?:per|on|from)\\s+',
    ),
    (
        "dc39_still_issuing",
        "attributes.yaml",
        '"still (issuing|issues|issued|prescribing|prescribes|dispensing|dispenses|supplying|supplies)",',
        "",
    ),
    ("dc39_cbg_source", "attributes.yaml", '"cbg/cbgs"', '"zzq"'),
    ("dc39_dnacpr_spelled_out", "attributes.yaml", '|cpr|cardiopulmonary resuscitation)"', '|cpr)"'),
    ("dh39_malaena_spelling", "high_risk.yaml", '"melena/melaena/malaena"', '"melena/melaena"'),
    ("dh39_seizure_diary_n1", "high_risk.yaml", "(?:chart|diary|log|record|care", "(?:chart|log|record|care"),
    ("dh39_stroke_warning_signs_n1", "high_risk.yaml", r"|awareness|education|warning\\s+signs?))", "))"),
    (
        "dh39_seizure_recorded_year_n1",
        "modifiers.yaml",
        r"(?:(?:documented|recorded|noted)\\s+(?:in\\s+)?)?",
        "",
    ),
    (
        "dh39_pregnancy_year_n1",
        "modifiers.yaml",
        r'"re:\\bin\\s+(?:her|my|the|a)\\s+(?:19|20)\\d\\d\\s+pregnancy\\b"',
        '"zzq"',
    ),
    ("dh39_at_the_time_n1", "modifiers.yaml", r'"re:\\bat\\s+the\\s+time\\b(?!\\s+of\\b)"', '"zzq"'),
    ("dm39_not_yet_established", "missing.yaml", r"been\\s+(?:established|ascertained", r"been\\s+(?:zzq"),
    (
        "dm39_frequency_not_known",
        "missing.yaml",
        r"know)\\s+(?:if|whether)\\s+(?:it'?s",
        r"know)\\s+(?:zzq)\\s+(?:it'?s",
    ),
    ("dm39_no_readings_since", "missing.yaml", r"\\bhad\\b(?<=n'?t\\s+had)", r"\\bzzq\\b(?<=n'?t\\s+had)"),
    (
        "dm39_not_in_the_notes",
        "missing.yaml",
        r"not\\s+in\\s+(?:the\\s+|his\\s+|her\\s+)?(?:notes|red",
        r"zzq\\s+in\\s+(?:the\\s+|his\\s+|her\\s+)?(?:notes|red",
    ),
    (
        "dm39_weighed_after_all_n1",
        "missing.yaml",
        r"(?![^.;\\n]{0,40}?\\bbut\\b[^.;\\n]{0,30}?\\b(?:weighed|measured|checked|recorded|documented|taken|done"
        r"|obtained|confirmed)\\b)",
        "",
    ),
    (
        "dm39_no_bp_obs_chart",
        "missing.yaml",
        r"(?:obs|observations?|nursing|news2?|vitals?)\\s+chart\\b",
        r"(?:zzq)\\s+chart\\b",
    ),
    ("dm39_did_not_travel", "missing.yaml", r'"re:\\bdid\\s+not\\s+travel(?:led)?\\s+with\\b"', '"zzq"'),
    ("dm39_no_list_in_envelope", "missing.yaml", "(?:envelope|pack|bag|folder|post|parcel)", "(?:zzq)"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
