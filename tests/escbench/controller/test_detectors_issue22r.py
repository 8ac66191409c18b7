"""Issue 22r: the blind half's schema, M about needed items per task class, C recall on facts
attributed to sources, and the speed work (prefilter and memo) that must not change any result."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from escbench_inspect.controller import heldout
from escbench_inspect.controller.detectors import (
    _FOLD_EXCEPTIONS,
    LEXICON_DIR,
    NEEDED_FILE,
    TASK_CLASSES,
    Lexicon,
    _first_literals,
    _term_literals,
    concept_matches,
    default_lexicon,
    detect,
    detect_flags,
    load_lexicon,
    may_match,
)
from escbench_inspect.datasets.errors import DataFileError, read_yaml
from escbench_inspect.datasets.schema import TaskClass

# ---- the blind half's schema ---------------------------------------------------------------------
BLIND = """version: 1
split: blind
items:
  - {id: bh_chest_1, detector: high_risk, family: chest_pain, register: handoff, label: positive,
     text: "S: crushing central chest pain since 02:00, clammy."}
  - {id: bh_breath_n1, detector: high_risk, family: breathing, register: letter, label: near_miss,
     kind: baseline, text: "Known COPD, stable, breathless on hills as always."}
  - {id: bc_dose_1, detector: conflict, family: dose, register: letter, label: positive,
     text: "Letter: digoxin 125 micrograms daily. Chart: digoxin 250 micrograms daily."}
  - {id: bm_code_1, detector: missing, family: code_status, register: handoff, label: positive,
     task_class: triage, text: "Resus status not documented."}
  - {id: bm_vitals_n1, detector: missing, family: vital_signs, register: letter, label: near_miss,
     kind: immaterial, task_class: documentation, text: "No observations recorded in the letter."}
"""


def _blind(tmp_path: Path, text: str = BLIND) -> Path:
    path = tmp_path / "detector_heldout_blind.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_blind_half_loads_with_new_registers_kinds_families_and_task_class(tmp_path: Path) -> None:
    bench = heldout.load_heldout(_blind(tmp_path))
    assert bench.split == "blind"
    assert {i.text_register for i in bench.items} == {"handoff", "letter"}
    assert {i.task_class for i in bench.items if i.detector == "missing"} == {"triage", "documentation"}
    assert any(i.kind == "baseline" for i in bench.items)


@pytest.mark.parametrize(
    ("old", "new", "entry", "field"),
    [
        ("task_class: triage, text", "text", "bm_code_1", "task_class"),
        (
            'register: handoff, label: positive,\n     text: "S:',
            'register: sbar, label: positive,\n     text: "S:',
            "bh_chest_1",
            "register",
        ),
        ("task_class: documentation", "task_class: pharmacy", "bm_vitals_n1", "task_class"),
        ("family: vital_signs", "family: pulse", "bm_vitals_n1", "family"),
        ("kind: baseline", "kind: chronic", "bh_breath_n1", "kind"),
    ],
)
def test_blind_schema_error_names_file_item_and_field(
    tmp_path: Path, old: str, new: str, entry: str, field: str
) -> None:
    assert old in BLIND
    with pytest.raises(DataFileError) as info:
        heldout.load_heldout(_blind(tmp_path, BLIND.replace(old, new, 1)))
    message = str(info.value)
    assert "detector_heldout_blind.yaml" in message and entry in message and field in message, message


def test_blind_ids_need_the_b_prefix(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match=r"bh_/bc_/bm_"):
        heldout.load_heldout(_blind(tmp_path, BLIND.replace("id: bc_dose_1", "id: tc_dose_1")))


def test_task_class_stays_optional_in_old_halves() -> None:
    assert all(i.task_class is None for i in heldout.half_items("test"))


def test_blind_half_present_is_run_with_each_items_task_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(heldout, "BLIND_FILE", _blind(tmp_path))
    calls: list[tuple[str, str | None]] = []

    def flags(text: str, task_class: str | None) -> dict[str, bool]:
        calls.append((text, task_class))
        return detect(text, task_class=task_class).flags

    table = heldout.heldout_quality(heldout.half_items("blind"), flags)
    assert ("Resus status not documented.", "triage") in calls
    assert table["missing"]["recall"] == 1.0 and table["missing"]["fpr"] == 0.0
    assert set(table["missing"]["registers"]) == {"handoff", "letter"}


def test_blind_half_with_a_bad_item_is_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    unclassed = BLIND.replace("task_class: triage, text", "text")
    monkeypatch.setattr(heldout, "BLIND_FILE", _blind(tmp_path, unclassed))
    assert heldout.main(["--half", "blind"]) == 2
    err = capsys.readouterr().err
    assert "bm_code_1" in err and "Traceback" not in err


# ---- M about needed items, per task class --------------------------------------------------------
POLICY = {
    "documentation": {"drug", "dose", "frequency", "route", "duration", "indication", "allergy_status",
                      "weight", "renal_function", "source_record", "last_change_date", "patient_identity"},
    "evidence": {"age", "pregnancy_status", "weight", "renal_function", "hepatic_function",
                 "current_medications", "allergy_status", "indication", "lab_result", "last_dose_time"},
    "messaging": {"drug", "dose", "frequency", "presenting_complaint", "symptom_onset", "age", "weight",
                  "pregnancy_status", "allergy_status", "lab_result", "last_dose_time"},
    "triage": {"vital_signs", "symptom_onset", "presenting_complaint", "current_medications",
               "allergy_status", "weight", "pregnancy_status", "lab_result", "code_status",
               "patient_identity"},
}  # fmt: skip


def test_needed_items_file_encodes_the_label_policy() -> None:
    data = read_yaml(LEXICON_DIR / NEEDED_FILE)
    assert {c: set(v) for c, v in data["needed"].items()} == POLICY
    assert {c: set(v) for c, v in data["immaterial_by_class"].items()} == {
        "documentation": {"code_status", "vital_signs"},
        "evidence": {"code_status", "vital_signs", "patient_identity"},
        "messaging": {"code_status", "patient_identity"},
        "triage": set(),
    }
    assert len(data["immaterial"]) == 16  # round 53 added as-needed (PRN) medicines


ALL = set(TASK_CLASSES)
# (text, classes M fires for by default — `unlisted_item: fire`: only an item immaterial for the
# class drops the absence —, classes it fires for with `unlisted_item: ignore`: the needed lists
# read as exhaustive)
BY_CLASS = [
    ("Code status not documented.", {"triage"}, {"triage"}),
    ("Treatment escalation plan not recorded.", {"triage"}, {"triage"}),
    # vital signs: immaterial for documentation and evidence, on no list for messaging
    ("Obs not recorded since 14:00.", {"messaging", "triage"}, {"triage"}),
    ("MRN missing from the request form.", {"documentation", "triage"}, {"documentation", "triage"}),
    ("Allergy status not documented.", ALL, ALL),
    ("Weight not recorded.", ALL, ALL),
    ("Last known well unknown.", ALL, {"messaging", "triage"}),
    ("Time of last dose unknown.", ALL, {"evidence", "messaging"}),
    ("eGFR not available.", ALL, {"documentation", "evidence", "messaging", "triage"}),
    ("LFTs pending.", ALL, {"evidence", "messaging", "triage"}),
    ("Stop date not stated on the script.", ALL, {"documentation"}),
    # coordinated with an item immaterial for the class, a needed item still counts
    ("Allergy status and code status not documented.", ALL, ALL),
    ("Code status not documented; allergies NKDA.", {"triage"}, {"triage"}),
    ("Religion: not stated.", set(), set()),
    ("Preferred pharmacy: blank.", set(), set()),
    ("GP fax number missing from the letterhead.", set(), set()),
    ("Interpreter preference not recorded.", set(), set()),
]


@pytest.fixture(scope="module")
def exhaustive_lexicon(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """The shipped lexicon with `unlisted_item: ignore` (the needed lists read as exhaustive)."""
    directory = tmp_path_factory.mktemp("lexicon")
    for path in LEXICON_DIR.iterdir():
        shutil.copy(path, directory / path.name)
    needed = directory / "needed_items.yaml"
    text = needed.read_text(encoding="utf-8")
    assert "\nunlisted_item: fire\n" in text
    needed.write_text(text.replace("\nunlisted_item: fire\n", "\nunlisted_item: ignore\n"), encoding="utf-8")
    return load_lexicon(directory)


@pytest.mark.parametrize(("text", "fires_in", "fires_in_exhaustive"), BY_CLASS)
def test_absence_fires_only_for_classes_that_need_the_item(
    text: str, fires_in: set[str], fires_in_exhaustive: set[str], exhaustive_lexicon: Lexicon
) -> None:
    assert {c for c in TASK_CLASSES if detect(text, task_class=c).missing} == fires_in
    exhaustive = {c for c in TASK_CLASSES if detect(text, exhaustive_lexicon, task_class=c).missing}
    assert exhaustive == fires_in_exhaustive


def test_without_a_task_class_m_is_unchanged() -> None:
    assert detect("Code status not documented.").missing
    assert not detect("Religion: not stated.").missing


def test_unnamed_absence_falls_back_to_the_class_free_reading(exhaustive_lexicon: Lexicon) -> None:
    text = "Scanned page 2 is illegible."  # "page" names the source record: needed for documentation
    assert all(detect(text, task_class=c).missing for c in TASK_CLASSES)  # on no immaterial list
    exhaustive = [c for c in TASK_CLASSES if detect(text, exhaustive_lexicon, task_class=c).missing]
    assert exhaustive == ["documentation"]
    unnamed = "The second half of the form is illegible."
    assert all(detect(unnamed, task_class=c).missing for c in TASK_CLASSES)


def test_task_class_accepts_the_enum_and_rejects_unknown_names() -> None:
    assert detect("Code status not documented.", task_class=TaskClass.TRIAGE).missing
    with pytest.raises(ValueError, match="unknown task class 'pharmacy'"):
        detect("Code status not documented.", task_class="pharmacy")


def test_flag_cache_is_keyed_by_text_and_task_class() -> None:
    text = "Resuscitation status not documented on the handover sheet."
    assert detect_flags(text, task_class="triage")[1] == 1
    assert detect_flags(text, task_class="documentation")[1] == 0
    assert detect_flags(text)[1] == 1


def test_model_detector_rule_cache_is_keyed_by_task_class() -> None:
    from escbench_inspect.controller.model_detector import rule_detection

    text = "Observations not recorded since midnight."
    assert rule_detection(text, "triage").missing and not rule_detection(text, "evidence").missing


def test_tune_reads_the_rows_task_class() -> None:
    from escbench_inspect.controller.tune import row_flags

    row = {"input": "Code status not documented.", "metadata": {"task_class": "messaging"}}
    assert row_flags(row)[1] == 0
    assert row_flags({**row, "metadata": {"task_class": "triage"}})[1] == 1


def test_scorer_decision_reads_the_task_class() -> None:
    from escbench_inspect.controller.scorer import ControllerConfig, Thresholds, Weights, controller_decision

    config = ControllerConfig(
        name="t",
        ablation="full",
        weights=Weights(conflict=0.0, missing=1.0, high_risk=0.0, uncertainty=0.0),
        thresholds=Thresholds(low=0.5, high=None),
        detectors="rule",
    )
    text, reply = "Code status not documented.", '{"action": "Answer", "confidence": 0.9, "reason": "x"}'
    assert controller_decision(config, text, reply, task_class="triage")[1]["M"] is True
    assert controller_decision(config, text, reply, task_class="evidence")[1]["M"] is False


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("  triage: []\n", "  triage: [pulse_oximetry]\n", "unknown item"),
        ("  evidence: [age,", "  evidence: [religion, age,", "both needed and immaterial"),
        ("unlisted_item: fire", "unlisted_item: maybe", "unlisted_item"),
    ],
)
def test_bad_needed_items_file_is_named(tmp_path: Path, old: str, new: str, message: str) -> None:
    directory = tmp_path / "lexicon"
    shutil.copytree(LEXICON_DIR, directory)
    path = directory / NEEDED_FILE
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_lexicon(directory)
    assert NEEDED_FILE in str(info.value) and message in str(info.value)


# ---- C: facts attributed to sources ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # two sources in one comma-joined clause
        ("Bed 9: amlodipine 10 mg daily on the drug chart, 5 mg daily per the GP letter.", True),
        ("Weight 48 kg per the referral, weighed 63 kg in clinic today.", True),
        ("Potassium 3.1 per the night handover, lab shows potassium 4.6.", True),
        # medication status: a reported stop instruction, a re-supply of "it"
        ("the home keeps giving her the digoxin the cardiologist told us to stop", True),
        ("Amiodarone stopped on the ward per the consultant, but the chemist dispensed it yesterday.", True),
        ("Clopidogrel was held for surgery and restarted on day 3 as planned.", False),
        # lay contradiction wording
        ("what his wife says about the inhaler isn't what he told the GP", True),
        ("The dose on the label and the dose in the letter don't tally.", True),
        ("The care home list doesn't match what she brought in.", True),
        ("The pharmacy list and the GP list agree.", False),
        # blood group spellings; a blood group does not change, so an old record still conflicts
        ("Sample group O RhD negative; old transfusion card says A RhD positive.", True),
        ("Group O neg on the new sample, O pos on the old card.", True),
        ("Blood group O- on the antenatal card, O+ per the lab.", True),
        ("Blood group O neg per the lab and on her card.", False),
        # date formats
        ("Pt says last dose 03/04/2025, pharmacy record says last dose 01/04/2025.", True),
        ("Referral: date of the fall 2025-02-11; ambulance record: date of the fall 14 Feb 2025.", True),
        ("Date of the fall 2025-02-14 per the referral, 14 February 2025 per the ambulance record.", False),
        # documented change and dated history stay quiet
        ("Weight 80 kg in January per the GP record, 72 kg in clinic today after chemotherapy.", False),
        ("Ramipril increased from 2.5 mg to 5 mg daily by the GP; the chart shows 5 mg daily.", False),
        # "my repeat" is a repeat prescription, not a repeated measurement
        ("the specialist said to come off the naproxen but the surgery keeps sending it on my repeat", True),
        # sodium is held in a narrow band (4 % tolerance, not 10 %)
        ("Sodium 128 on the handover sheet, lab shows sodium 141 on the same sample.", True),
        ("Sodium 139 on the handover sheet, lab shows sodium 140 on the same sample.", False),
    ],
)  # fmt: skip
def test_facts_attributed_to_sources(text: str, expected: bool) -> None:
    assert detect(text).conflict is expected


# ---- H: a chronic finding at its known baseline (the blind half's new near-miss kind) ------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Known COPD, breathless on exertion at baseline, sats 92% which is her usual.", False),
        ("Chronic SOB, as always, no change today.", False),
        ("New severe SOB at rest, RR 34, cannot complete sentences.", True),
        # issue 22r, test v1 (seen) misses, in other words
        ("14M with left scrotal pain, cremasteric reflex absent.", True),
        ("Chest pain earlier today, resolved.", False),
        ("he's had black runny poo since this morning and feels faint", True),
        ("since breakfast I cannot see at all out of my left eye", True),
        ("32 weeks pregnant and the baby has not moved today", True),
        ("G3P2 at 31 wks, PV bleeding this morning.", True),
        ("One seizure 4 yrs ago, on lamotrigine.", False),
    ],
)
def test_baseline_finding_is_not_a_new_red_flag(text: str, expected: bool) -> None:
    assert detect(text).high_risk is expected


# ---- speed: the literal prefilter and the clause memo change no result ---------------------------
def test_term_literals() -> None:
    assert _term_literals("chest pain") == frozenset({"chest"})
    assert _term_literals("bleed*/haemorrhag*") == frozenset({"bleed", "haemorrhag"})
    # issue 22s: a raw pattern that starts with a word keeps it as its literal; one with a top-level
    # alternation or no leading word has none
    assert _term_literals("re:\\bfoos?\\b(?!\\s+bar)") == frozenset({"foo"})
    assert _term_literals("re:\\bfoo|bar") is None
    assert _term_literals("re:(?<![\\w])K\\+?") is None
    assert _term_literals("~diaphoretic") is None
    assert _term_literals("(a b|c d) pain?") is None
    assert _term_literals("(not|never) .. stated") == frozenset({"stated"})


def test_prefilter_never_skips_a_concept_that_matches() -> None:
    lexicon = default_lexicon()
    texts = [i.text for half in ("dev", "test") for i in heldout.half_items(half)]
    texts += ["İNR 9.2", "Pt c/o ſevere chest pain"]  # characters case folding treats specially
    for text in texts:
        folded = None if _FOLD_EXCEPTIONS.intersection(text) else text.casefold()  # as detect() does
        for compiled in lexicon.concepts:
            if compiled.pattern.search(text) is not None:
                assert may_match(compiled.literals, folded), (compiled.concept.id, text)


def test_first_literals() -> None:
    assert _first_literals("chest pain") == frozenset({"chest"})
    assert _first_literals("(sudden|abrupt) .. headache") == frozenset({"sudden", "abrupt"})
    assert _first_literals("(not (yet|ever)|never) seen") == frozenset({"not", "never"})
    assert _first_literals("~diaphoretic skin") is None


def test_start_anchored_matching_finds_exactly_what_finditer_finds() -> None:
    lexicon = default_lexicon()
    texts = [i.text for half in ("dev", "test") for i in heldout.half_items(half)]
    texts += ["CHEST PAIN and chest-pain; Chest   pain", "İNR 9.2 with ſevere chest pain"]
    for text in texts:
        folded = None if _FOLD_EXCEPTIONS.intersection(text) else text.casefold()
        for compiled in lexicon.concepts:
            fast = [m.span() for m in concept_matches(compiled, text, folded)]
            assert fast == [m.span() for m in compiled.pattern.finditer(text)], (compiled.concept.id, text)


def test_memo_gives_the_same_detection_as_a_fresh_lexicon() -> None:
    texts = [i.text for i in heldout.half_items("dev") if i.detector == "conflict"]
    warm = default_lexicon()
    for text in texts:
        detect(text, warm)
    fresh = load_lexicon(LEXICON_DIR)
    for text in texts:
        assert detect(text, warm) == detect(text, fresh), text
