"""Issue 22z round 12 (conflict): the mechanisms the twelfth blind half's misses showed, read on this
project's own wording (``detector_heldout_dev12.yaml``, whose items are read one by one with the other C
development items in ``test_detectors_issue22u_conflict.py``). Each mechanism is then taken out -- a module
pattern replaced, or one lexicon entry deleted from a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import regex

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import (
    LEXICON_DIR,
    Lexicon,
    attribute_conflicts,
    default_lexicon,
    detect,
    load_lexicon,
)

DEV12 = {i.id: i for i in heldout.load_heldout(heldout.DEV12_FILE).items}
NEVER = regex.compile(r"(?!)")
# the change denial as it was before round 12: no negative auxiliary ("hasn't gained")
WITHOUT_AUXILIARY = regex.compile(r"\b(?:no|not|without|never)\b(?:\s+[\w-]+){0,3}\s*$")


@pytest.fixture
def fresh_memo() -> Iterator[None]:
    """The lexicon memoises each clause's mentions: a mechanism taken out must not be read from it."""
    default_lexicon().memo.clear()
    yield
    default_lexicon().memo.clear()


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (the attribute pairs and the contradiction phrases)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV12[item_id].text, lexicon).conflict


def fires_keyed(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """A pair of one attribute's mentions, not only of the generic typed values (the fallback that
    would hide a lost mechanism)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    pairs = attribute_conflicts(DEV12[item_id].text, lexicon)
    return any(not m.attribute.startswith("typed_") for pair in pairs for m in pair)


def test_dev12_is_conflict_in_the_dev_half_with_every_kind() -> None:
    assert set(DEV12) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in DEV12.values())
    assert {"agreement", "resolved", "dated_history"} <= {i.kind for i in DEV12.values() if i.kind}
    for item in DEV12.values():  # every positive has its near miss in the same words but the fact
        if item.label == "positive" and item.id != "dc12_plan_continue":
            assert f"{item.id}_n1" in DEV12, item.id


# (the positive item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc12_days_shorthand", "_RECENT", NEVER),
    ("dc12_weighed_at", "_WEIGHED_AT", NEVER),
    ("dc12_weighed_at", "_CHANGE_DENIED", WITHOUT_AUXILIARY),
    ("dc12_year_after_event", "_YEAR_AFTER", NEVER),
    ("dc12_source_date_entry", "_ENTRY_WORDS", 0),
    ("dc12_severity", "_SEVERE_REACTION", NEVER),
    ("dc12_severity", "_MILD_REACTION", NEVER),
    ("dc12_instead", "_INSTEAD_BEFORE", NEVER),
    ("dc12_continue_dose", "_CONTINUED_OBJECT", NEVER),
    ("dc12_plan_continue", "_CONTINUE_WORD", NEVER),
    ("dc12_signed_last_year", "_DOCUMENT_MADE", NEVER),
    ("dc12_dvt_vein", "_neighbours", lambda i, j, occupied: abs(i - j) == 1),
]


@pytest.mark.parametrize(
    ("item_id", "name", "replacement"), MODULE_MECHANISMS, ids=[f"{i}-{n}" for i, n, _ in MODULE_MECHANISMS]
)
def test_each_module_mechanism_carries_its_item(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    assert DEV12[item_id].label == "positive"
    assert fires(item_id)
    monkeypatch.setattr(detectors, name, replacement)
    assert not fires(item_id)


# (the near miss, the module name that keeps it quiet, what replaces it)
QUIETING = [
    ("dc12_lmp_next_cycle_n1", "_one_cycle_apart", lambda a, b: False),
    ("dc12_severity_dated_n1", "_two_reactions", lambda first, second: False),
]


@pytest.mark.parametrize(("item_id", "name", "replacement"), QUIETING, ids=[i for i, _, _ in QUIETING])
def test_each_quieting_mechanism_keeps_its_near_miss(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    assert DEV12[item_id].label == "near_miss"
    assert not fires(item_id)
    monkeypatch.setattr(detectors, name, replacement)
    assert fires(item_id)


# (the item, the exact lexicon text deleted from a copy of attributes.yaml, what it is replaced by):
# with the entry gone the item must flip
LEXICON_ENTRIES = [
    ("dc12_not_reconciled", r"(?<!\\b(?:not|never|yet)\\s)", ""),
    ("dc12_both_report", "|describe|describes|described", ""),
    ("dc12_declines_cpr", r'"re:\\b(?:declines?|declined|refuses?|refused|', '"re:\\\\bzz(?:'),
    ("dc12_bisphosphonate", '"ibandronic acid", ibandronate,', ""),
    ("dc12_states_stopped", '"dispensed", "supplied",', '"dispensed",'),
    ("dc12_em_dash_allergy", '"none known", "nil known",', ""),
    ("dc12_sorted_n1", r"\\bsorted\\b(?!", r"\\bzzsorted\\b(?!"),
    ("dc12_error_corrected_n1", r'"re:\\bin\\s+error\\b[^.;\\n]{0,30}?', r'"re:\\bzz\\b[^.;\\n]{0,30}?'),
    ("dc12_predates_n1", r'"re:\\bpre-?dat(?:es|ed|e)\\b"', r'"re:\\bzz\\b"'),
]


def _lexicon_without(tmp_path: Path, old: str, new: str) -> Lexicon:
    copy = tmp_path / "lexicon"
    shutil.copytree(LEXICON_DIR, copy)
    path = copy / "attributes.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_lexicon(copy)


@pytest.mark.parametrize(("item_id", "old", "new"), LEXICON_ENTRIES, ids=[i for i, _, _ in LEXICON_ENTRIES])
def test_each_lexicon_entry_carries_its_item(tmp_path: Path, item_id: str, old: str, new: str) -> None:
    positive = DEV12[item_id].label == "positive"
    assert fires(item_id) is positive
    assert fires(item_id, _lexicon_without(tmp_path, old, new)) is not positive


def test_a_drug_level_in_its_unit(tmp_path: Path) -> None:
    """A gentamicin level in mg/L is an analyte's value (a keyed pair); without the unit entry only the
    generic typed-value reading is left to find it."""
    assert fires_keyed("dc12_level_entered")
    old = "  gentamicin_level: {mg/l: 1.0, µg/ml: 1.0, ug/ml: 1.0, mcg/ml: 1.0}\n"
    assert not fires_keyed("dc12_level_entered", _lexicon_without(tmp_path, old, ""))
    assert not fires("dc12_level_entered_n1")


def test_em_dash_allergy_entry(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    """The em dash is one separator of an allergy-list entry ("amoxicillin — urticaria")."""
    text = DEV12["dc12_em_dash_allergy"].text
    assert fires("dc12_em_dash_allergy")
    default_lexicon().memo.clear()
    assert not attribute_conflicts(text.replace("—", "and then"), default_lexicon())


def test_full_code_includes_intubation() -> None:
    """ "Full code" meets a DNI elsewhere; two full codes do not conflict."""
    pairs = attribute_conflicts(DEV12["dc12_full_code_dni"].text, default_lexicon())
    assert {m.attribute for pair in pairs for m in pair} == {"intubation_status"}
    assert not fires("dc12_full_code_dni_n1")


@pytest.mark.parametrize(
    ("text", "fired"),
    [
        ("Pt tells triage she is pregnant; ED urine hCG 0915 NEG.", True),
        ("Pt tells triage she is not pregnant; ED urine hCG 0915 NEG.", False),
        ("K+ on the gas 4.0 mmol/L; our K+ at 0640 is 6.1 mmol/L on the lab sample.", True),
    ],
)
def test_a_clock_time_between_test_and_result(text: str, fired: bool) -> None:
    default_lexicon().memo.clear()
    assert bool(attribute_conflicts(text, default_lexicon())) is fired


@pytest.mark.parametrize(
    "text",
    [
        "pain 10/10 per pt",  # a score, not a date
        "Pt says 1/2 tab at night, label says 1/4 tab.",  # fractions
        "baby is 10/12 old per mum",  # an age in months
        "GCS 14/15 on arrival",  # a score of fifteen
        "BP 120/80, repeat 118/76",  # a blood pressure
    ],
)
def test_a_day_and_month_is_not_a_score_a_fraction_an_age_or_a_pressure(text: str) -> None:
    assert not any(m.group("dd") for m in detectors._DATE_COARSE.finditer(text))
