"""Issue 22z round 19 (conflict): the mechanisms the twenty-first blind half's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev17.yaml``, whose items are also read one by
one with the other C development items in ``test_detectors_issue22u_conflict.py``). Each mechanism is then
taken out -- a module pattern replaced by the one before it or by one that never matches, or one lexicon
entry deleted from a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import regex

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import LEXICON_DIR, Lexicon, default_lexicon, detect, load_lexicon

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV17_FILE).items}
DEV14 = {i.id: i for i in heldout.load_heldout(heldout.DEV14_FILE).items}
NEVER = regex.compile(r"(?!)")
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


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (the attribute pairs and the contradiction phrases)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV[item_id].text, lexicon).conflict


def test_dev17_is_conflict_in_the_dev_half_with_paired_near_misses() -> None:
    assert set(DEV) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in DEV.values())
    assert {"agreement", "resolved"} <= {i.kind for i in DEV.values() if i.kind}
    for item in DEV.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive":
            assert f"{item.id}_n1" in DEV, item.id


# (the positive item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc19_and_grouped", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_18),
    ("dc19_semicolon_list", "_LIST_SEPARATOR", LIST_SEPARATOR_ROUND_18),
]


@pytest.mark.parametrize(
    ("item_id", "name", "replacement"), MODULE_MECHANISMS, ids=[f"{i}-{n}" for i, n, _ in MODULE_MECHANISMS]
)
def test_each_module_mechanism_carries_its_item(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    assert DEV[item_id].label == "positive"
    assert fires(item_id)
    monkeypatch.setattr(detectors, name, replacement)
    assert not fires(item_id)


# (the positive item, the module pattern compiled into the lexicon, its round-18 form)
COMPILED_MECHANISMS = [
    ("dc19_side_in_brackets", "_SIDE_AFTER_PART", r"(?!)"),
    ("dc19_drug_gave_reaction", "_ALLERGY_ENTRY_SEPARATOR", ALLERGY_ENTRY_SEPARATOR_ROUND_18),
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
]


@pytest.mark.parametrize(
    ("item_id", "file", "old", "new"), LEXICON_ENTRIES, ids=[i for i, *_ in LEXICON_ENTRIES]
)
def test_each_lexicon_entry_carries_its_item(
    lexicon_without: Callable[[str, str, str], Lexicon], item_id: str, file: str, old: str, new: str
) -> None:
    positive = DEV[item_id].label == "positive"
    assert fires(item_id) is positive
    assert fires(item_id, lexicon_without(file, old, new)) is not positive


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
    him hives"). Either alone carries the round-14 item; with both taken out it flips."""
    text = DEV14["dc14_reaction_caused"].text
    assert detect(text, load_lexicon(LEXICON_DIR)).conflict
    monkeypatch.setattr(detectors, "_CAUSED", NEVER)
    assert detect(text, load_lexicon(LEXICON_DIR)).conflict
    monkeypatch.undo()
    monkeypatch.setattr(detectors, "_ALLERGY_ENTRY_SEPARATOR", ALLERGY_ENTRY_SEPARATOR_ROUND_18)
    assert detect(text, load_lexicon(LEXICON_DIR)).conflict
    monkeypatch.setattr(detectors, "_CAUSED", NEVER)
    assert not detect(text, load_lexicon(LEXICON_DIR)).conflict
