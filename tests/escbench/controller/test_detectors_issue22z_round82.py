"""Issue 22z round 82 (all three detectors): the mechanisms blind half 91's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev80.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name made to match nothing, or one lexicon entry made
to match nothing in a copy of the lexicon -- and its item must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV80_FILE).items}

# the patterns as they were before round 82 (without its additions)
SAME_OCCASION_WITHOUT_CLOCK = pattern_before(detectors._SAME_OCCASION, r"(?:(?:[01]\d|2[0-3])[0-5]\d\s+)?")
REPORTED_VALUE_WITHOUT_RECORD_EQUALS = pattern_before(
    detectors._REPORTED_VALUE, r"|\b(?:book|record|chart|sheet|entry|diary)\b[^.;=\d]{0,30}=\s*$"
)
RH_SIGN_WITHOUT_TYPING = pattern_before(
    detectors._RH_SIGN, r"(?:\s+typ(?:ing|ed|e)(?:\s+(?:today|now|this\s+(?:am|morning|admission)))?)?"
)
MOVEMENTS_FELT_AFTER_WITHOUT_RETURNED = pattern_before(
    detectors._MOVEMENTS_FELT_AFTER,
    r"|(?<!\b(?:no|not|nil|reduced|less|fewer)\s)\bmovements\s+(?:have|has)\s+(?:since\s+|now\s+)?"
    r"(?:returned|resumed|normali[sz]ed)\b",
)
RECOVERED_AFTER_WITHOUT_GONE_SINCE = pattern_before(
    detectors._RECOVERED_AFTER, r"|\b(?:have|has)\s+(?:now\s+)?gone\s+(?:away\s+)?since\b"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc82_lkw_bare_clock", "_BARE_CLOCK_EVENTS", frozenset()),
    ("dc82_started_on_vs_start_date", "_DATED_BY_ITS_CUE", frozenset({"drug_stopped"})),
    ("dc82_old_record_last_n1", "_OLD_RECORDS_LAST", NEVER),
    ("dc82_clock_names_sample_n1", "_SAMPLE_AFTER_CLOCK", NEVER),
    ("dc82_same_clock_sample", "_SAME_OCCASION", SAME_OCCASION_WITHOUT_CLOCK),
    ("dc82_record_equals", "_REPORTED_VALUE", REPORTED_VALUE_WITHOUT_RECORD_EQUALS),
    ("dc82_rhd_typing_today", "_RH_SIGN", RH_SIGN_WITHOUT_TYPING),
    ("dh82_movements_returned_n1", "_MOVEMENTS_FELT_AFTER", MOVEMENTS_FELT_AFTER_WITHOUT_RETURNED),
    ("dh82_gone_since_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_WITHOUT_GONE_SINCE),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc82_not_supposed_to_be_on",
        "attributes.yaml",
        r'"re:\\bnot\\s+(?:supposed|meant)\\s+to',
        r'"re:\\bzzq\\s+(?:supposed|meant)\\s+to',
    ),
    (
        "dc82_doesnt_contain_it",
        "attributes.yaml",
        r"(?:contain|include)\\b(?=\\s+(?:it|them)\\b)",
        r"(?:zzq)\\b(?=\\s+(?:it|them)\\b)",
    ),
    (
        "dc82_historical_entry_n1",
        "attributes.yaml",
        r"(?:historical|historic)\\s+(?:entry|entries|record|records)",
        r"(?:zzq)\\s+(?:entry|entries|record|records)",
    ),
    (
        "dc82_wristband_red",
        "attributes.yaml",
        r'"re:\\bwrist\\s*band\\s+red\\s*[-–—:]"',
        r'"re:\\bzzq\\s*band\\s+red\\s*[-–—:]"',
    ),
    (
        "dc82_hcg_reported_neg",
        "attributes.yaml",
        r'\\breported\\s+(?:neg(?:ative)?|-ve)\\b"',
        r'\\bzzq\\s+(?:neg(?:ative)?|-ve)\\b"',
    ),
    (
        "dc82_what_told_completely_different",
        "conflict.yaml",
        r'"re:\\bwhat\\s+(?:the\\s+|my\\s+',
        r'"re:\\bzzq\\s+(?:the\\s+|my\\s+',
    ),
    ("dm82_isnt_back", "missing.yaml", "\"(isnt|isn't|arent|aren't|wasnt|wasn't) back\"", '"(zzq) back"'),
    (
        "dm82_could_not_provide",
        "missing.yaml",
        "(could not|couldn't|cannot|can't|unable to) provide/supply\"",
        "(could not|couldn't|cannot|can't|unable to) zzq\"",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
