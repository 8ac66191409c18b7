"""Issue 22z rounds 19-20 (conflict): the mechanisms the twenty-first and twenty-second blind halves' misses
and false positives showed, read on this project's own wording (``detector_heldout_dev17.yaml``, round 19, and
``detector_heldout_dev18.yaml``, round 20, whose items are also read one by one with the other C development
items in ``test_detectors_issue22u_conflict.py``). Each mechanism is then taken out -- a module pattern
replaced by the one before it or by one that never matches, or one lexicon entry deleted from a copy of the
lexicon -- and its item must flip."""

from __future__ import annotations

from pathlib import Path

import pytest
import regex
from mechanism_helpers import NEVER, lexicon_entry_test, module_mechanism_test

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import LEXICON_DIR, Lexicon, default_lexicon, detect, load_lexicon

# round 19's items (dc19_*) and round 20's (dc20_*), and the near-miss kinds each file must hold
DEV_FILES = {
    heldout.DEV17_FILE: {"agreement", "resolved"},
    heldout.DEV18_FILE: {"agreement", "resolved", "documented_change", "dated_history"},
}
DEV = {i.id: i for path in DEV_FILES for i in heldout.load_heldout(path).items}
DEV14 = {i.id: i for i in heldout.load_heldout(heldout.DEV14_FILE).items}
FLAGS = regex.IGNORECASE | regex.VERSION1
# the patterns as they were before round 19
CLAUSE_SPLIT_ROUND_18 = regex.compile(
    r",\s+(?:and|while|whereas|but)\s+|\s+(?:but|whereas|while|vs\.?|versus|↔|<->|<>)\s+"
    r"|\s+and\s+(?=as\s+\d)"
    r"|\s+and\s+(?=(?:the|her|his|my|our|their|your)\s+(?:(?!both\b|and\b|also\b|too\b)[\w'-]+\s+){1,5}?"
    r"(?:says|said|states|stated|shows|showed|reads)\b)",
    FLAGS,
)
LIST_SEPARATOR_ROUND_18 = regex.compile(r"\s*(?:/|,|\|)\s*", FLAGS)
ALLERGY_ENTRY_SEPARATOR_ROUND_18 = r"\s*(?:\(|->|→|[-–—:]|,?\s+with\b)\s*"
ANY_SIDE_ROUND_18 = regex.compile(
    detectors._ANY_SIDE.pattern.replace(r"(?<!/)\b(?P<abbr>", r"\b(?P<abbr>", 1)
)

# the patterns as they were before round 20
TODAYS_READING = (
    r"|,\s+(?=today'?s\s+(?:\w+\s+)?(?:group|sample|result|reading|weight|level|value|bloods?|test|scan)\b)"
)
CLAUSE_SPLIT_ROUND_19 = regex.compile(detectors._CLAUSE_SPLIT.pattern.replace(TODAYS_READING, "", 1), FLAGS)
HEADING_COLON_ROUND_19 = regex.compile(r"\s*(?::|\s[-–—]\s)")
RECORD_BEFORE_ROUND_19 = regex.compile(
    r"\b(?:list|record|chart|mar|summary|letter|profile|notes?|repeats?|slip|epr|ehr|kardex)\s*[:\-–—]\s*$",
    FLAGS,
)
WEIGHT_CONTEXT_ROUND_19 = regex.compile(r"\b(?:weigh\w*|weight|wt|scales?)\b", FLAGS)
ABO_ALONE_ROUND_19 = regex.compile(detectors._ABO_ALONE.pattern.replace(detectors._NOT_A_PRODUCT, "", 1))


# these mechanisms are tested as the detectors read before round 23's general status readings
pytestmark = pytest.mark.usefixtures(
    "before_round23_status", "before_round25_lab", "before_round30", "before_round31", "before_round34"
)


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (the attribute pairs and the contradiction phrases)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV[item_id].text, lexicon).conflict


@pytest.mark.parametrize("path", sorted(DEV_FILES), ids=lambda p: p.name)
def test_dev_files_are_conflict_in_the_dev_half_with_paired_near_misses(path: Path) -> None:
    items = {i.id: i for i in heldout.load_heldout(path).items}
    assert set(items) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in items.values())
    assert DEV_FILES[path] <= {i.kind for i in items.values() if i.kind}
    for item in items.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive":
            assert f"{item.id}_n1" in items, item.id


def test_the_round_19_patterns_are_what_round_20_extended() -> None:
    """The stand-ins below are the round-19 patterns only if round 20's additions were found and cut."""
    assert CLAUSE_SPLIT_ROUND_19.pattern != detectors._CLAUSE_SPLIT.pattern
    assert ABO_ALONE_ROUND_19.pattern != detectors._ABO_ALONE.pattern


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc19_and_grouped", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_18),
    ("dc19_semicolon_list", "_LIST_SEPARATOR", LIST_SEPARATOR_ROUND_18),
    ("dc20_typo_asked", "_ASKED_BEFORE", NEVER),
    ("dc20_other_drug_verdict", "_states_another", lambda *_: False),
    ("dc20_heading_with_dose", "_HEADING_COLON", HEADING_COLON_ROUND_19),
    ("dc20_organiser_equals", "_RECORD_BEFORE", RECORD_BEFORE_ROUND_19),
    ("dc20_todays_reading", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_19),
    ("dc20_feed_weight", "_WEIGHT_CONTEXT", WEIGHT_CONTEXT_ROUND_19),
    ("dc20_product_group_n1", "_ABO_ALONE", ABO_ALONE_ROUND_19),
]


test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)


# (the positive item, the module pattern compiled into the lexicon, its earlier form)
COMPILED_MECHANISMS = [
    ("dc19_side_in_brackets", "_SIDE_AFTER_PART", r"(?!)"),
    ("dc19_drug_gave_reaction", "_ALLERGY_ENTRY_SEPARATOR", ALLERGY_ENTRY_SEPARATOR_ROUND_18),
    ("dc20_class_held", "_CLASS_HELD", r"(?!)"),  # "all LMWH held" stops each member another clause names
]


@pytest.mark.parametrize(
    ("item_id", "name", "replacement"), COMPILED_MECHANISMS, ids=[i for i, *_ in COMPILED_MECHANISMS]
)
def test_each_compiled_mechanism_carries_its_item(
    item_id: str, name: str, replacement: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert fires(item_id)
    monkeypatch.setattr(detectors, name, replacement)
    assert not fires(item_id, load_lexicon(LEXICON_DIR))  # compiled afresh, not the cached lexicon


# (the item, the lexicon file, the exact text deleted from a copy of it, what it is replaced by): with the
# entry gone the item must flip
LEXICON_ENTRIES = [
    ("dc19_reweigh_not_done", "attributes.yaml", r"needing|not|never|yet|(?:not|n't)\\s+been)", "needing)"),
    (
        "dc19_not_real_n1",
        "attributes.yaml",
        r"(?:discrepancy|mismatch|difference|query|queried)\\b[^.;\\n]{0,40}?\\bnot\\s+(?:a\\s+)?real",
        r"zz\\b[^.;\\n]{0,40}?\\bnot\\s+(?:a\\s+)?real",
    ),
    ("dc19_allergy_dash_none", "attributes.yaml", r"(?:[:\\-–—]|(?:(?:recorded", r"(?:[:-]|(?:(?:recorded"),
    ("dc19_day_unit", "attributes.yaml", '"day unit", ', ""),
    ("dc19_postnatal_anti_d", "attributes.yaml", "|team|anti-?d)", "|team)"),
    (
        "dc19_icu_appropriate",
        "attributes.yaml",
        r"\\s+escalation\\s+(?:is\\s+)?(?:as\\s+)?appropriate",
        r"\\s+zz\\s+(?:is\\s+)?(?:as\\s+)?appropriate",
    ),
    ("dc19_last_drug_heading", "attributes.yaml", r"[a-z][a-z0-9.-]+(?=\\s*(?::|", r"zz(?=\\s*(?::|"),
    ("dc19_semicolon_list", "attributes.yaml", '"fixation", ', ""),
    ("dc20_hemocue", "attributes.yaml", '"hemocue", "haemocue"', '"zz"'),
    ("dc20_chart_signed", "attributes.yaml", r"signed(?:\\s+for)?\\b(?=", r"zz(?="),
    ("dc20_still_have", "attributes.yaml", "contains|has|have|on|includes", "contains|has|on|includes"),
    ("dc20_issued_lately", "attributes.yaml", r'"re:\\bissued\\s+(?:(?:', r'"re:\\bzz\\s+(?:(?:'),
    ("dc20_class_held", "attributes.yaml", 'names: ["lmwh/lmwhs", ', 'names: ["zz", '),
    (
        "dc20_active_problem_n1",
        "attributes.yaml",
        r'"re:\\bactive\\b(?!\\s+(?:problems?|diagnos[ie]s|issues?)\\b)"',
        '"active"',
    ),
    ("dc20_hcg_here", "attributes.yaml", "|this|today|here)", "|this|today)"),
    ("dc20_preg_tests", "attributes.yaml", r"(?:pregnancy\\s+|preg\\s+)?tests?", r"(?:pregnancy\\s+)?tests?"),
    (
        "dc20_trimester",
        "attributes.yaml",
        r"(?:1st|2nd|3rd|first|second|third)\\s+trimester",
        r"zz\\s+trimester",
    ),
    (
        "dc20_transplant_abbrev_n1",
        "attributes.yaml",
        r"\\ballo(?:geneic)?[\\s-]*(?:sct",
        r"\\bzz(?:geneic)?[\\s-]*(?:sct",
    ),
    ("dc20_miscarriage_dated_n1", "attributes.yaml", r"(?:miscarriage|miscarried)\\s+(?:on", r"zz\\s+(?:on"),
    (
        "dc20_weight_at_check_n1",
        "attributes.yaml",
        r"(?:check|review|visit|appointment|assessment)\\b",
        r"zz\\b",
    ),
    (
        "dc20_both_now_n1",
        "attributes.yaml",
        r"(?:they|both)\\s+(?:both\\s+)?(?:say",
        r"zz\\s+(?:both\\s+)?(?:say",
    ),
]


test_each_lexicon_entry_carries_its_item = lexicon_entry_test(
    DEV, fires, LEXICON_ENTRIES, ids=[i for i, *_ in LEXICON_ENTRIES]
)


def test_a_unit_litre_is_no_side(monkeypatch: pytest.MonkeyPatch) -> None:
    """The "L" of mmol/L is no left side: a clause with a result in mmol/L and no side states none."""
    attributes = default_lexicon().attributes
    assert attributes is not None
    clause = " lab Na 134 mmol/L on the one sample"
    assert not [m for m in detectors._generic_mentions(clause, attributes) if m.attribute == "typed_side"]
    monkeypatch.setattr(detectors, "_ANY_SIDE", ANY_SIDE_ROUND_18)
    assert [
        m.value for m in detectors._generic_mentions(clause, attributes) if m.attribute == "typed_side"
    ] == ["left"]


def test_and_before_a_passive_record_verb_does_not_split(fresh_memo: None) -> None:
    """ " and the left eye is listed for August" is one plan, not a second source's statement."""
    assert not detect(
        "Bilateral cataracts; the right eye was done in May and the left eye is listed for August."
    ).conflict
    assert detect(DEV["dc19_and_grouped"].text).conflict


def test_a_reaction_a_drug_caused_is_read_by_its_grade_or_beside_the_drug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round 14 reads "naproxen caused angioedema" from a graded reaction and a causing verb anywhere in the
    clause (``_CAUSED``); round 19 reads the reaction right after the drug and its verb, graded or not ("gave
    him hives"); round 24 a severe reaction beside its allergen (``_reaction_of``). Any alone carries the
    round-14 item; with all three taken out it flips."""
    text = DEV14["dc14_reaction_caused"].text
    assert detect(text, load_lexicon(LEXICON_DIR)).conflict
    monkeypatch.setattr(detectors, "_CAUSED", NEVER)
    assert detect(text, load_lexicon(LEXICON_DIR)).conflict
    monkeypatch.undo()
    monkeypatch.setattr(detectors, "_ALLERGY_ENTRY_SEPARATOR", ALLERGY_ENTRY_SEPARATOR_ROUND_18)
    assert detect(text, load_lexicon(LEXICON_DIR)).conflict
    monkeypatch.setattr(detectors, "_CAUSED", NEVER)
    assert detect(text, load_lexicon(LEXICON_DIR)).conflict
    monkeypatch.setattr(detectors, "_reaction_of", lambda *_: False)
    assert not detect(text, load_lexicon(LEXICON_DIR)).conflict


def test_a_blood_product_is_not_the_patients_group() -> None:
    """A unit's group ("2 units O neg emergency blood", "give group O red cells") is not read as hers."""
    assert not detectors._BLOOD_GROUP.search("2 units O neg emergency blood given in resus")
    assert not detectors._ABO_ALONE.search("per haem give group O red cells")
    assert detectors._BLOOD_GROUP.search("her group is O neg on today's sample")
