"""Issue 22z round 46 (all three detectors): the mechanisms blind half 55's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev44.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module name replaced by what it was before round 46, or one
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

pytestmark = pytest.mark.usefixtures("before_round63")

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV44_FILE).items}

# the patterns as they were before round 46
CHANGE_DENIED_ROUND_45 = pattern_before(detectors._CHANGE_DENIED, "|denies|denied|deny|denying")
RECOVERED_AFTER_ROUND_45 = pattern_before(
    # round 50's reading without the auxiliary carries the same item, so it goes too
    pattern_before(detectors._RECOVERED_AFTER, r"|\b(?:fully|completely)\s+worn\s+off\b"),
    r"|\b(?:has|have|had)\s+(?:now\s+)?(?:fully|completely)\s+(?:worn\s+off|resolved)\b",
)
REPEAT_VALUE_ROUND_45 = pattern_before(detectors._REPEAT_VALUE, r"|days?|:|\+))", r"|days?|:))")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc46_denies_change", "_CHANGE_DENIED", CHANGE_DENIED_ROUND_45),
    ("dh46_worn_off_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_45),
    ("dh46_repeat_grade", "_REPEAT_VALUE", REPEAT_VALUE_ROUND_45),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc46_who_believe",
        "conflict.yaml",
        '      - {t: "who (do|should|shall) (i|we) (believe|trust)", origin: dev_review}\n',
        "",
    ),
    (
        "dc46_nothing_in_n1",
        "modifiers.yaml",
        r'''  - "re:\\bnothing\\s+(?:in|on|between)(?:\\s+[\\w'-]+){1,4}\\s*$"''' + "\n",
        "",
    ),
    (
        "dc46_miscarriage_n1",
        "attributes.yaml",
        r"|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\b|",
        "|",
    ),
    (
        "dc46_asked_update_n1",
        "attributes.yaml",
        r"(?:asked|requested|notified)\\s+to\\s+(?:update|amend|correct)",
        "zzq",
    ),
    (
        "dh46_counselling_note",
        "modifiers.yaml",
        r'"re:\\bcounsel(?:l)?ing\\b(?!\\s+(?:note|notes|record|entry)\\b)"',
        '"counselling/counseling"',
    ),
    (
        "dh46_heading_relative_n1",
        "modifiers.yaml",
        r"[:;]\\s*(?:(?:late|maternal|paternal)\\s+)?(?:father|",
        r"zzq(?:(?:late|maternal|paternal)\\s+)?(?:father|",
    ),
    ("dh46_not_raised_n1", "modifiers.yaml", '  - "not raised/elevated"\n', ""),
    (
        "dh46_gestation_plus",
        "high_risk.yaml",
        r'"re:\\b\\d{1,2}\\s*\\+\\s*[0-6]\\s*(?:weeks?|wks?)\\b"]',
        '"zzq"]',
    ),
    (
        "dh46_responded_n1",
        "modifiers.yaml",
        r"\\bresponded\\s+(?:well\\s+|quickly\\s+)?to\\b",
        "zzq",
    ),
    (
        "dh46_finish_once",
        "high_risk.yaml",
        r"(?:once|when|as\\s+soon\\s+as|tonight|this\\s+weekend)",
        "zzq",
    ),
    ("dh46_end_it", "high_risk.yaml", r"(?:want|wants|wanted|going|plans?|planning)\\s+to\\s+", "zzq"),
    (
        "dm46_code_or_ceiling",
        "missing.yaml",
        r"|dnacpr|dnar|respect|code\\s+status|ceilings?|tep)",
        "|dnacpr|dnar|respect)",
    ),
    (
        "dm46_dnacpr_or_tep",
        "missing.yaml",
        r"|\\s+(?:or|nor|and)\\s+(?:a\\s+)?(?:dnacpr|dnar|dnr|tep|respect|polst|molst))?",
        ")?",
    ),
    ("dm46_profile", "missing.yaml", "|red book|profile))", "|red book))"),
    (
        "dm46_still_not_arrived",
        "missing.yaml",
        r"(?:still\\s+not|not\\s+yet)\\s+(?:arrived",
        r"zzq\\s+(?:arrived",
    ),
    (
        "dm46_without_dob",
        "missing.yaml",
        r"(?:dob|date\\s+of\\s+birth|mrn|nhs\\s+(?:no|number)|hospital",
        "(?:zzq",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
