"""Issue 22z round 36 (all three detectors): the mechanisms blind half 45's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev34.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 36 or by a pattern that
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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV34_FILE).items}
pytestmark = pytest.mark.usefixtures("before_round37")


# the patterns as they were before round 36
BLOOD_GROUP_ROUND_35 = pattern_before(detectors._BLOOD_GROUP, "A[12]?B|A[12]?", "AB|A")
WEIGHT_CONTEXT_ROUND_35 = pattern_before(
    detectors._WEIGHT_CONTEXT,
    r"|\bBSA\b|\b(?:calculated|dosed|based|worked\s+out)\s+on\s+\d{1,3}(?:\.\d+)?\s*kg\b",
)
REPORTED_VALUE_ROUND_35 = pattern_before(detectors._REPORTED_VALUE, r"|read\s+(?:out|back|over)")
SIDE_ALONE_ROUND_35 = pattern_before(
    detectors._SIDE_ALONE, r"|(?<=[=:]\s{0,3})(?P<side7>left|right|(?-i:L|R|Lt|Rt))\b(?=\s*(?:[.;,)!?]|$))"
)

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_class_is_denied_with_never_been_on() -> None:
    """Round 36: "never been on" denies a drug class as "never on" did; the pattern as it was before does not
    read it (the class patterns are built when the lexicon loads, so the pattern is checked directly)."""
    assert fires("dc36_never_been_on")
    pattern = detectors._class_absent("anticoagulants?")
    before = pattern_before(pattern, r"never\s+(?:been\s+)?on", r"never\s+on")
    phrase = "shes never been on an anticoagulant in her life"
    assert pattern.search(phrase)
    assert not before.search(phrase)


def test_an_a_subgroup_reads_as_its_group() -> None:
    """Round 36: A1 and A2 are group A, so "A2 neg" agrees with "A neg" and differs from "O neg"."""
    assert not detectors.detect("Lab: A2 RhD negative. Antenatal record: A RhD negative.").conflict
    assert detectors.detect("Lab: A1 RhD negative. Antenatal record: O RhD negative.").conflict


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh36_rose_from", "_MOVED_FROM", NEVER),
    ("dh36_rose_from", "_REACHED", NEVER),
    ("dh36_fell_from_to", "_MOVED_FROM", NEVER),
    ("dh36_treated_repeat_n1", "_TREATED", NEVER),
    ("dh36_treated_bare_n1", "_TREATED_THEN_VALUE", NEVER),
    ("dc36_a2_subgroup", "_BLOOD_GROUP", BLOOD_GROUP_ROUND_35),
    ("dc36_test_in_clause", "_PREGNANCY_TEST", NEVER),
    ("dc36_delivered_n1", "_DELIVERED", NEVER),
    ("dc36_bsa_weight", "_WEIGHT_CONTEXT", WEIGHT_CONTEXT_ROUND_35),
    ("dc36_read_out", "_REPORTED_VALUE", REPORTED_VALUE_ROUND_35),
    ("dc36_side_value", "_SIDE_ALONE", SIDE_ALONE_ROUND_35),
    ("dc36_except_aspirin_n1", "_EXCEPT_MEMBER", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc36_lay_blood_thinner",
        "attributes.yaml",
        '    names: ["blood thinner/thinners"]\n',
        '    names: ["zzq"]\n',
    ),
    (
        "dc36_status_no",
        "attributes.yaml",
        r'"re:\\bpreg(?:nan(?:t|cy)|\\.)?\\s+status\\s+(?:no|',
        r'"re:\\bzzq(?:nan(?:t|cy)|\\.)?\\s+status\\s+(?:no|',
    ),
    (
        "dc36_current_pregnancy",
        "attributes.yaml",
        r"\\bcurrent\\s+(?:intrauterine",
        r"\\bzzq\\s+(?:intrauterine",
    ),
    (
        "dc36_doesnt_take_at_all",
        "attributes.yaml",
        r"[a-z]+\\s+(?:at\\s+all|anymore|any\\s+more)\\b",
        r"[a-z]+\\s+(?:zzq)\\b",
    ),
    (
        "dc36_list_name_n1",
        "attributes.yaml",
        r"(?!\\s+(?:list|lists|record|records|chart|profile|summary|rec|reconciliation)\\b)",
        "",
    ),
    (
        "dc36_corrected_now_both_n1",
        "conflict.yaml",
        r"(?![^.\\n]{0,80}?\\bnow\\s+(?:both|all|match|matching|agree|agreeing|consistent|the\\s+same|identical)\\b)",
        "",
    ),
    ("dh36_bm_value", "high_risk.yaml", r'"re:\\bBM(?:s)?\\b(?<=', r'"re:\\bzzq(?:s)?\\b(?<='),
    (
        "dh36_value_resolved_n1",
        "modifiers.yaml",
        r'  - "re:(?<!\\bnot\\s)(?<!\\bnot\\syet\\s)(?<!\\byet\\sto\\sbe\\s)\\bresolved\\b"' + "\n",
        "",
    ),
    ("dh36_sjs", "high_risk.yaml", r'"re:(?-i:\\bSJS\\b)"', '"zzq"'),
    ("dh36_blistered_rash", "high_risk.yaml", '"(blistering|blistered|peeling) .. rash"', '"zzq"'),
    ("dh36_red_eyes", "high_risk.yaml", '"(painful|sore) red .. eye/eyes"', '"(painful|sore) red .. eye"'),
    (
        "dh36_sudden_blurring",
        "high_risk.yaml",
        '"(sudden|suddenly) (blurred|blurry|blurring of) vision"',
        '"zzq"',
    ),
    ("dh36_intent_to_die", "high_risk.yaml", '"(intent|intention|intending) to (die|kill)"', '"zzq"'),
    (
        "dh36_tablet_count",
        "high_risk.yaml",
        r"\\b\\d+\\s*[x×]\\s*[a-z]+\\s+\\d+",
        r"\\bzzq\\s*[x×]\\s*[a-z]+\\s+\\d+",
    ),
    (
        "dh36_asked_about_n1",
        "modifiers.yaml",
        r'"re:\\b(?:asked|questioned|enquired|inquired)\\s+',
        r'"re:\\b(?:zzq)\\s+',
    ),
    (
        "dh36_same_as_always_n1",
        "modifiers.yaml",
        r'"re:\\bsame\\s+as\\s+(?:it\\s+has',
        r'"re:\\bzzq\\s+as\\s+(?:it\\s+has',
    ),
    ("dm36_weight_ehr", "missing.yaml", r"(?:epr|ehr|emr|request|referral", r"(?:zzq|request|referral"),
    (
        "dm36_nothing_charted",
        "missing.yaml",
        r'"re:\\bnothing\\s+(?:has\\s+been\\s+|been\\s+)?(?:charted',
        r'"re:\\bzzq\\s+(?:has\\s+been\\s+|been\\s+)?(?:charted',
    ),
    (
        "dm36_dont_know_dnr",
        "missing.yaml",
        r'"re:\\b(?:if|whether)\\s+(?:she|he|they|mum|dad',
        r'"re:\\b(?:zzq)\\s+(?:she|he|they|mum|dad',
    ),
    ("dm36_accompanies", "missing.yaml", "|accompanied|accompanies|accompany|", "|accompanied|"),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
