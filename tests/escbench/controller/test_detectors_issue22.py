"""Issue 22: the six reproductions, clinical shorthand, facts with units, facts attributed to sources."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from escbench_inspect.controller.detectors import (
    LEXICON_DIR,
    SHORTHAND_FILE,
    ShorthandFile,
    default_lexicon,
    detect,
    expand_shorthand,
    load_lexicon,
)
from escbench_inspect.datasets.errors import DataFileError, read_yaml


# ---- the six reproductions of issue 22 ----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "detector", "expected"),
    [
        ("Pt c/o chest pain x 2h, diaphoretic.", "high_risk", True),
        ("Pt complains of chest pain x 2h, diaphoretic.", "high_risk", True),
        ("FHx: father had a stroke at 62.", "high_risk", False),
        ("Fasting glucose 6.2 mmol/L, no action needed.", "high_risk", False),
        ("Discharge summary lists apixaban 5 mg BD but the GP letter says 2.5 mg BD.", "conflict", True),
        ("Religion: not stated.", "missing", False),
        ("13M L scrotal pain x3h, absent cremasteric reflex on L.", "high_risk", True),
    ],
)
def test_issue_reproductions(text: str, detector: str, expected: bool) -> None:
    assert detect(text).flags[detector] is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Troponin I 0.9 ng/mL.", True),
        ("ECG: 3 mm ST elevation in V2-V4.", True),
        ("Blood ketones 4.1 mmol/L.", True),
        ("30/40, BP 164/104.", True),
    ],
)
def test_issue_missing_numeric_rules(text: str, expected: bool) -> None:
    assert detect(text).high_risk is expected


# ---- clinical shorthand -------------------------------------------------------------------------
def test_every_abbreviation_has_a_meaning_and_expands() -> None:
    spec = ShorthandFile.model_validate(read_yaml(LEXICON_DIR / SHORTHAND_FILE))
    shorthand = default_lexicon().shorthand
    for entry in spec.entries:
        assert entry.meaning.strip()
        if entry.abbr.startswith("re:"):
            continue
        expanded = expand_shorthand(f"Note: {entry.abbr} today.", shorthand).text
        assert entry.expansion in expanded, entry.abbr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("c/o CP since 0600.", True),  # complains of chest pain
        ("h/o CP, none today.", False),  # history of
        ("s/p CABG, chest pain free.", False),  # status post: past procedure
        ("r/o stroke, CT pending.", False),  # rule out: hypothetical
        ("SOB at rest, cannot finish sentences.", True),  # shortness of breath
        ("SI/HI denied.", False),  # suicidal / homicidal ideation, negated
        ("+SI with plan.", True),
        ("FHx: brother had an MI at 50.", False),  # family history
        ("PMH: stroke 2015, no new symptoms.", False),  # past medical history
        ("O/E: chest clear, no distress.", False),  # on examination
        ("The cremasteric reflex is absent, R testicular pain.", True),
    ],
)
def test_shorthand_meaning(text: str, expected: bool) -> None:
    assert detect(text).high_risk is expected


def test_h_o_is_history_of_not_h_or_o() -> None:
    # Before issue 22 the modifier "h/o" compiled as "h" or "o", so the "o" of "c/o" read as history.
    assert detect("Pt c/o CP.").high_risk
    assert not detect("Pt h/o CP.").high_risk


def test_lmp_is_a_date_attribute() -> None:
    assert detect("Pt gives LMP as 2 Jan; the booking form says LMP 20 Jan.").conflict
    assert not detect("Pt gives LMP as 2 Jan; the booking form says LMP 2 Jan.").conflict


def test_evidence_offsets_index_the_callers_text() -> None:
    text = "Pt c/o CP x2h, radiating to L arm."
    for e in detect(text).evidence:
        assert text[e.start : e.end] == e.text
    assert "CP" in detect(text).spans("high_risk")


# ---- facts with units ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Glucose 2.1 mmol/L.", True),
        ("Glucose 38 mg/dL.", True),
        ("Glucose 6.2 mmol/L.", False),
        ("Glucose 110 mg/dL.", False),
        ("Glucose 612 mg/dL.", True),
        ("BG 32 mmol/L.", True),
        ("BG 8.2.", False),  # a bare small glucose is mmol/L
        ("K+ 6.8 mmol/L.", True),
        ("K+ 4.1.", False),
        ("Lactate 4.6 mmol/L.", True),
        ("Lactate 1.6 mmol/L.", False),
        ("Troponin I 0.52 ng/mL (assay 99th percentile URL 0.04 ng/mL).", True),
        ("hs-TnT 8 ng/L (URL 14 ng/L).", False),
        ("hs-TnI 30 ng/L (99th centile 16 ng/L).", True),  # above the stated cut-off
        ("hs-TnI 30 ng/L.", False),  # no cut-off stated: ESC rule-in 52 ng/L
        ("SpO2 88% RA.", True),
        ("SpO2 97% RA.", False),
        ("32/40, BP 162/104.", True),  # pregnancy: >= 160 systolic
        ("BP 162/104, not pregnant.", False),  # outside pregnancy the trigger is >= 180/110
        ("HR 36, dizzy.", True),
        ("HR 76.", False),
        ("Temp 40.3 °C.", True),
        ("Temp 104.5 °F.", True),
        ("Temp 98.9 °F.", False),
        ("Ketones 0.4 mmol/L.", False),
        ("Capillary ketones 3.8 mmol/L.", True),
        ("ECG: sinus rhythm, no ST elevation.", False),
    ],
)
def test_values_with_units(text: str, expected: bool) -> None:
    assert detect(text).high_risk is expected


# ---- C: facts attributed to sources -------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The prescription says amlodipine 10 mg. The patient says the pills are 5 mg.", True),
        ("Rx and label both read sertraline 50 mg daily.", False),
        ("Metformin increased from 500 mg BD to 1 g BD at clinic; pack reflects the new dose.", False),
        ("Allergy band: NKDA. Pt tells me she swells up with penicillin.", True),
        ("Drug chart: no known allergies. His daughter says he had a bad reaction to penicillin.", True),
        ("NKDA per pt and per chart.", False),
        ("Chart says full code; wife has the signed DNACPR form from the GP.", True),
        ("Full code per chart and per pt.", False),
        ("Previously full code; changed to DNAR after family meeting 14 Feb.", False),
        ("Pre-op checklist: pregnancy test negative. Pt tells me she is 8 weeks pregnant.", True),
        ("Not pregnant; urine hCG negative today.", False),
        ("Consent form: R knee arthroscopy. Theatre list: L knee arthroscopy.", True),
        ("Clinic scale 62 kg today; referral lists weight 81 kg.", True),
        ("Weight 70 kg in March, 66 kg today after a diarrhoeal illness.", False),
        ("Pt says last dose of rivaroxaban was 12 Mar; MAR shows last given 10 Mar.", True),
        ("Handover says Hb 112; lab system shows Hb 72 for the same sample.", True),
        ("Creatinine 145 on 2 Jan, 98 today after IV fluids.", False),
        ("Transfusion record: B positive. Today's group: O positive.", True),
        ("Blood group O pos, confirmed on two samples.", False),
    ],
)
def test_fact_conflicts(text: str, expected: bool) -> None:
    assert detect(text).conflict is expected


def test_fact_conflict_evidence_names_the_attribute() -> None:
    concepts = {e.concept for e in detect("Handover: DNACPR in place. EHR banner: full code.").evidence}
    assert "attribute_code_status" in concepts


# ---- M: only needed items -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Religion: not stated.", False),
        ("Preferred pharmacy: blank.", False),
        ("Emergency contact not provided.", False),
        ("Occupation: not recorded.", False),
        ("Allergy status not documented.", True),
        ("Rx for gabapentin, indication not given.", True),
        ("Vancomycin level not resulted.", True),
    ],
)
def test_missing_needed_items_only(text: str, expected: bool) -> None:
    assert detect(text).missing is expected


# ---- data files and the optional ConText layer --------------------------------------------------
def test_bad_shorthand_entry_is_named(tmp_path: Path) -> None:
    directory = tmp_path / "lexicon"
    shutil.copytree(LEXICON_DIR, directory)
    path = directory / SHORTHAND_FILE
    path.write_text(path.read_text(encoding="utf-8").replace('meaning: "chest pain"', "meanin: x", 1))
    with pytest.raises(DataFileError) as info:
        load_lexicon(directory)
    assert "shorthand.yaml" in str(info.value) and "meaning" in str(info.value)


def test_restricted_lexicon_drops_issue22_entries() -> None:
    lexicon = default_lexicon().restrict(["concept", "corpus_review", "clinical_review"])
    assert lexicon.shorthand is None
    assert not detect("Pt c/o CP.", lexicon).high_risk  # "CP" alone is not a first-draft term


@pytest.mark.skipif(importlib.util.find_spec("medspacy") is not None, reason="medspaCy installed")
def test_context_assertion_without_medspacy_says_how_to_install() -> None:
    from escbench_inspect.controller.assertion import AssertionUnavailable

    with pytest.raises(AssertionUnavailable, match=r"escbench\[nlp\]"):
        detect("He denies chest pain.", assertion="context")


@pytest.mark.skipif(importlib.util.find_spec("medspacy") is None, reason="needs the nlp extra")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He denies chest pain.", False),
        ("History of stroke in 2019.", False),
        ("Return if chest pain develops.", False),
        ("He has crushing chest pain.", True),
    ],
)
def test_context_assertion_with_medspacy(text: str, expected: bool) -> None:
    assert detect(text, assertion="context").high_risk is expected
