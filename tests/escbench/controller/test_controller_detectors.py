"""Detectors C/M/H: negation, resolution, critical values, header stripping, data-file errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from escbench_inspect.controller.detectors import LEXICON_DIR, detect, load_lexicon, term_pattern
from escbench_inspect.controller.quality import (
    corpus_quality,
    corpus_samples,
    load_paraphrase_set,
    load_stress_set,
    paraphrase_quality,
    stress_quality,
)
from escbench_inspect.datasets.errors import DataFileError


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


def test_absence_of_an_administrative_item_is_not_missing_information() -> None:
    assert not detect("Preferred pharmacy: [not recorded].").missing
    assert not detect("Emergency contact: [left blank on the intake form].").missing
    assert detect("Weight: [not recorded].").missing
    full = load_lexicon()
    assert detect("Preferred pharmacy: [not recorded].", full.restrict(["concept"])).missing


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


@pytest.mark.parametrize(
    ("file", "old", "new", "named"),
    [
        ("missing.yaml", '"left blank"', '"(left blank"', ("missing.yaml", "blank_field", "terms")),
        # a high-risk concept must name one of the file's body systems
        ("high_risk.yaml", "system: cardiovascular", "system: cardiac", ("high_risk.yaml", "cardiac")),
    ],
)
def test_bad_lexicon_names_file_entry_and_field(
    tmp_path: Path, file: str, old: str, new: str, named: tuple[str, ...]
) -> None:
    lexicon = _copy_lexicon(tmp_path)
    path = lexicon / file
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_lexicon(lexicon)
    assert all(word in str(info.value) for word in named), str(info.value)


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
# Issue 15: M counts only absences about a needed (clinical) item — administrative blanks such as
# "Preferred pharmacy: [not recorded]" are immaterial — which lifted M precision to 0.48.
# Issue 20 made material and immaterial blanks alike in form (only *which* item is absent differs), so
# M fires on more immaterial blanks: M precision 0.48 -> 0.46 on the rewritten corpus (C 0.38/0.60,
# H 0.72/0.93 unchanged; benchmarks/detector_quality.py).
# Issue 22r: C reads facts attributed to two sources in one comma-joined clause, reported stop
# instructions and "refilled it" (C 0.375/0.60 -> 0.385/0.625). M now reads each episode's task class
# (lexicon/needed_items.yaml, the blind half's label policy): its needed lists are narrower than what
# the corpus authors marked material (a pending troponin in a documentation task, a blank
# temperature in a messaging one), so read as exhaustive (`unlisted_item: ignore`) M by class
# measures 0.43/0.80; as shipped (`fire`: only an item listed immaterial for the class drops an
# absence) 0.48/1.00, against 0.46/1.00 class-free. Both readings the controller can take are guarded;
# the class-free figure is the issue-20 one, unchanged.
# Issue 22s: a negated fill ("no simvastatin dispensed since June") against a drug still taken is a
# stopped-vs-active conflict: C 0.385/0.625 -> 0.394/0.65 (52/132, 52/80), both readings; floor moved
# to the measured value. M and H unchanged.
# Issue 22y: an allergy record's field with a value ("allergies: erythromycin") meets "no known drug
# allergies" in two conflict variants: C 52/128 -> 54/130 (0.41/0.65 -> 0.415/0.675), both readings; the
# first-run false positives of this round's cues on the corpus (a document's date read as a vaccine's, a
# guideline's "patients taking metformin") were read and guarded before the round was committed.
IN_BENCHMARK_FLOOR = {
    True: {"conflict": (0.41, 0.67), "missing": (0.48, 1.00), "high_risk": (0.72, 0.92)},
    False: {"conflict": (0.41, 0.67), "missing": (0.45, 1.00), "high_risk": (0.72, 0.92)},
}


@pytest.mark.parametrize("by_task_class", [True, False])
def test_in_benchmark_quality_floor(by_task_class: bool) -> None:
    samples = corpus_samples()
    if len({m["seed_id"] for _, m in samples}) < 40:
        pytest.skip("corpus incomplete")
    quality = corpus_quality(samples, by_task_class=by_task_class)
    for name, q in quality.items():
        floor = IN_BENCHMARK_FLOOR[by_task_class][name]
        assert q.precision >= floor[0] and q.recall >= floor[1], (name, q)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the same attribute, two values, two sources (no contradiction word anywhere)
        (
            "The discharge list says metoprolol 25 mg twice daily."
            " The label reads metoprolol 50 mg twice daily.",
            True,
        ),
        (
            "The prescription reads methotrexate 15 mg once weekly."
            " She says she takes methotrexate 15 mg daily.",
            True,
        ),
        (
            "The consent form says left knee arthroscopy. The MRI report shows a tear in the right knee.",
            True,
        ),
        (
            "The patient says his last dose was on 14 March. The MAR shows his last dose on 16 March.",
            True,
        ),
        (
            "The chart lists a penicillin allergy. The pharmacy profile says no known drug allergies.",
            True,
        ),
        (
            "The patient is allergic to sulfa drugs."
            " Her daughter says she took co-trimoxazole without any problem.",
            True,
        ),
        (
            "The cardiologist stopped amiodarone in January."
            " The pharmacy has refilled amiodarone every month.",
            True,
        ),
        (
            "Triage recorded a weight of 58 kg. The pharmacy profile has her weight as 85 kg.",
            True,
        ),
        ("The parent said he weighs 40 lb. The nurse weighed him at 32 kg.", True),
        # agreement, documented change, history, dated snapshots, different drugs: no conflict
        ("The discharge list and the label both say metoprolol 25 mg twice daily.", False),
        ("Metoprolol was increased from 25 mg to 50 mg twice daily at today's visit.", False),
        ("Right knee replaced in 2019; now the left knee is painful.", False),
        (
            "Lisinopril was stopped and losartan started; the pharmacy filled losartan on Monday.",
            False,
        ),
        ("Amiodarone was stopped in January and has not been refilled since.", False),
        (
            "Weight 12.4 kg measured today. Well-child summary generated 2025-02-19: weight 9.6 kg.",
            False,
        ),
        ("The parent said he weighs 40 lb. The nurse weighed him at 18 kg.", False),
        ("Allergy list: no known drug allergies. Record the reaction on the allergy list.", False),
    ],
)
def test_structural_conflict(text: str, expected: bool) -> None:
    result = detect(text)
    assert result.conflict is expected, result.evidence
    for e in result.evidence:
        assert text[e.start : e.end] == e.text


def test_structural_conflict_is_a_clinical_review_addition() -> None:
    text = "Triage recorded a weight of 58 kg. The pharmacy profile has her weight as 85 kg."
    lexicon = load_lexicon()
    assert detect(text, lexicon).conflict
    assert not detect(text, lexicon.restrict(["concept", "corpus_review"])).conflict


def test_every_high_risk_term_has_a_body_system_source() -> None:
    rows = [r for r in load_lexicon().term_sources() if r["detector"] == "high_risk"]
    assert rows and all(r["system"] and r["system_source"] and r["source"] for r in rows)
    systems = {r["system"] for r in rows}
    assert {"cardiovascular", "headache", "back", "abdominal", "bleeding", "respiratory"} <= systems
    assert {"ophthalmic", "neurology", "obstetric", "pediatric", "drug_reaction", "sepsis"} <= systems


def test_paraphrase_benchmark_floor() -> None:
    """Regression floor on the frozen paraphrase set (an upper bound: same author; see docs)."""
    table = paraphrase_quality(load_paraphrase_set())
    for name, row in table.items():
        assert row["trigger"]["recall"] >= 0.95, name
        assert row["paraphrase"]["recall"] >= 0.9, name
        assert row["firing_controls"] == [], name
