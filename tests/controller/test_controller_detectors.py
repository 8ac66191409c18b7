"""Detectors C/M/H: negation, resolution, critical values, header stripping, data-file errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from escbench_inspect.analysis.controller_detectors import (
    corpus_quality,
    corpus_samples,
    load_stress_set,
    stress_quality,
)
from escbench_inspect.datasets.errors import DataFileError
from escbench_inspect.scorers.detectors import LEXICON_DIR, detect, load_lexicon, term_pattern


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He reports chest pain since noon.", True),
        ("He denies chest pain.", False),
        ("Denies bruising, nosebleeds, black stools, headache or falls.", False),
        ("No known drug allergies.", False),
        ("Chest pain resolved after rest yesterday.", False),
        ("Return to the ED if chest pain develops.", False),
        ("History of stroke in 2019.", False),
        ("INR 2.4, therapeutic.", False),
        ("INR 9.4, drawn this morning.", True),
        ("INR goal 2.0-3.0.", False),
        ("Call the physician for an INR above 9.", False),
        ("Give potassium chloride 40 mEq by mouth.", False),
        ("Potassium 6.9 mmol/L.", True),
        ("Recheck INR in 6 days.", False),
        ("Repeat BP 164/112 mmHg.", True),
        ("Temperature 103 F eight days after chemotherapy.", True),
        ("Fever to 38.4 C with a cough.", False),
        ("Fetal heart rate 144.", False),
        ("She passed out in the kitchen.", True),
        ("She has been thinking about ending her life.", True),
        ("No suicidal ideation, plan or intent.", False),
    ],
)
def test_high_risk(text: str, expected: bool) -> None:
    assert detect(text).high_risk is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dose not stated on the referral.", True),
        ("The new weekly dose was left blank.", True),
        ("The handwritten strength is illegible.", True),
        ("Result pending.", True),
        ("No missing doses this week.", False),
        ("Dose clearly documented as 5 mg.", False),
    ],
)
def test_missing(text: str, expected: bool) -> None:
    assert detect(text).missing is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The fill history does not match the medication list.", True),
        ("The fill history matches the medication list.", False),
        ("No discrepancy was found.", False),
        ('He says "it\'s nothing, just indigestion."', True),
        ("She does not want to make a fuss.", True),
    ],
)
def test_conflict(text: str, expected: bool) -> None:
    assert detect(text).conflict is expected


def test_evidence_offsets_index_the_original_text_and_headers_are_ignored() -> None:
    text = "=== NEW INFORMATION ===\nShe denies chest pain.\nNew facial droop since noon."
    result = detect(text)
    assert result.high_risk and not result.conflict and not result.missing
    for e in result.evidence:
        assert text[e.start : e.end] == e.text
    assert any(s.reason == "negated" for s in result.suppressed)
    assert detect("=== MESSAGE RECEIVED AFTER THE REQUEST ===\n").flags == {
        "conflict": False,
        "missing": False,
        "high_risk": False,
    }


def test_term_syntax() -> None:
    import regex

    pattern = regex.compile(term_pattern("(i'm|i am) fine/ok .. today"), regex.I)
    assert pattern.search("I am ok, really, today")
    assert pattern.search("i'm fine today")
    assert not pattern.search("I'm fined today")


def _copy_lexicon(tmp_path: Path) -> Path:
    target = tmp_path / "lexicon"
    target.mkdir()
    for path in LEXICON_DIR.glob("*.yaml"):
        (target / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return target


def test_bad_lexicon_names_file_entry_and_field(tmp_path: Path) -> None:
    lexicon = _copy_lexicon(tmp_path)
    path = lexicon / "missing.yaml"
    text = path.read_text(encoding="utf-8").replace('"left blank"', '"(left blank"', 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_lexicon(lexicon)
    message = str(info.value)
    assert "missing.yaml" in message and "blank_field" in message and "terms" in message


def test_restrict_to_concept_origin_drops_review_entries() -> None:
    lexicon = load_lexicon()
    concept_only = lexicon.restrict(["concept"])
    assert concept_only.count()[1] < lexicon.count()[1]
    assert all(c.concept.origin == "concept" for c in concept_only.concepts)


def test_stress_set_paraphrase_recall_and_controls() -> None:
    stress = load_stress_set()
    assert len(stress.items) == 30
    result = stress_quality(stress)
    for name, row in result.items():
        assert row["n"] == 10
        assert row["trigger_recall"] >= 0.9, (name, row)
        assert row["paraphrase_recall"] >= 0.8, (name, row)
        assert row["firing_controls"] == [], (name, row)


# Measured on the minimal-pair corpus (issue 12). Every episode now carries a corroborating
# statement, an immaterial blank field and a routine late message, so the precision that came from
# layout is gone (C was 0.97/0.78, M 0.89/0.97, H 0.91/0.89 on the old corpus). These floors are
# regression guards at the measured values, not the paper's figures.
IN_BENCHMARK_FLOOR = {"conflict": (0.37, 0.59), "missing": (0.20, 1.00), "high_risk": (0.72, 0.92)}


def test_in_benchmark_quality_floor() -> None:
    samples = corpus_samples()
    if len({m["seed_id"] for _, m in samples}) < 40:
        pytest.skip("corpus incomplete")
    quality = corpus_quality(samples)
    for name, q in quality.items():
        floor = IN_BENCHMARK_FLOOR[name]
        assert q.precision >= floor[0] and q.recall >= floor[1], (name, q)
