"""Issue 22s: the mechanisms the first blind half's misses showed (units, date formats, implied
attributes, explained discrepancies, lay spellings, record wording, time-point series, a relative who
is the patient) and the second blind split. Examples are this project's own wording, not the blind
half's."""

from __future__ import annotations

import hashlib

import pytest

from escbench_inspect.controller import heldout
from escbench_inspect.controller.detectors import (
    attribute_conflicts,
    concept_literals,
    default_lexicon,
    detect,
    term_pattern,
)

# The first blind half, frozen when the coordinator added it (commit bbeb7ac); read for issue 22s
# ("blind v1, seen") but never edited.
BLIND_V1_SHA256 = "b5cf7e1c274fb004d04c955d97ac9a0c9a731c9c25b4ed84e684a462a742c154"


def test_blind_v1_is_byte_identical() -> None:
    assert hashlib.sha256(heldout.BLIND_FILE.read_bytes()).hexdigest() == BLIND_V1_SHA256


def _attributes(text: str) -> set[str]:
    return {m.attribute for pair in attribute_conflicts(text, default_lexicon()) for m in pair}


# ---- C: values with units --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Admission weight 88 kg. Son says she is 140 lb.", "weight"),  # 63.5 kg
        ("weight on the ward sheet 60 kg, our scales at home say 11 stone 2 lb", "weight"),  # 70.8 kg
        ("Weight per the clinic record 50 kg; the drug chart has 66 kg.", "weight"),  # bare amount
        ("Glucose 6.1 mmol/L on the meter; the lab report says glucose 250 mg/dL.", "lab_value"),
        ("The GP letter gives creatinine 1.0 mg/dL; our lab reports creatinine 240 umol/L.", "lab_value"),
        ("Potassium 6.9 mmol/L on the analyser; the blood gas reads 4.0 mmol/L.", "lab_value"),  # implied
    ],
)
def test_values_in_two_units_conflict(text: str, attribute: str) -> None:
    assert attribute in _attributes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Admission weight 70 kg. Son says she is 154 lb.",
        "weight on the ward sheet 76 kg, our scales at home say 12 stone",
        "Glucose 7.0 mmol/L on the meter; the lab report says glucose 126 mg/dL.",
        "Hb 10.1 g/dL in the GP letter; our lab reports Hb 101 g/L.",
        "Hb 10.1 per the GP letter; our lab reports Hb 101 g/L.",  # no unit: read in each unit
        "Digoxin 0.125 mg daily per the discharge list; digoxin 125 micrograms daily on the label.",
        "Warfarin 5 mg daily per the clinic letter; she says she takes half a 10 mg tablet daily.",
    ],
)
def test_equal_values_in_two_units_agree(text: str) -> None:
    assert not _attributes(text)


def test_tablet_counts_change_the_dose() -> None:
    text = "Discharge list: bisoprolol 5 mg daily. She says she takes half a 5 mg tablet daily."
    assert "dose" in _attributes(text)
    assert "dose" in _attributes(
        "Clinic letter: prednisolone 10 mg daily; the label says two 10 mg tablets daily."
    )


def test_an_age_is_not_an_old_record() -> None:
    assert "weight" in _attributes("B: 5 years old, ED weight 16 kg; dad says he is 21 kg on their scales.")
    assert not _attributes("The old record says weight 16 kg; dad says he is 21 kg on their scales.")


# ---- C: dates, sides, allergies, status, hCG, code status ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The referral gives her knee replacement as 04/10/2021; the operation note is dated 4 November 2021.",
        "my wife says her stent went in 2016 but the cardiology letter says april 2019",
    ],
)
def test_dates_in_two_formats_or_precisions_conflict(text: str) -> None:
    assert "date" in _attributes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Date of surgery 2023-08-02 on the theatre record; the discharge letter says 02/08/2023.",
        "her appendicectomy was in march 2020, the GP record says 9 March 2020",
    ],
)
def test_the_same_date_in_two_formats_agrees(text: str) -> None:
    assert "date" not in _attributes(text)


def test_a_documents_own_date_is_not_an_event_date() -> None:
    assert not _attributes("The referral letter is dated 12/03/2024; surgery is booked for 20/04/2024.")
    assert "date" in _attributes(
        "The referral letter says 12/03/2024; the operation note gives surgery 20/04/2024."
    )


def test_an_unknown_analyte_is_not_an_implied_value() -> None:
    assert not _attributes("Potassium 4.1 mmol/L per the lab report; urea 6.2 mmol/L on the gas.")


def test_a_bare_number_is_a_year_only_after_a_preposition() -> None:
    assert "date" in _attributes(
        "His son says the stent went in 2014; the cardiology letter says March 2017."
    )
    assert not _attributes("Last dose given at 2030 per the MAR; the patient says last dose 2 March 2024.")


def test_a_birth_weight_is_history() -> None:
    assert not _attributes("Born 3.2 kg at term; the health visitor weighed her at 4.4 kg today.")


def test_a_side_without_its_part_takes_the_neighbouring_part() -> None:
    assert "side" in _attributes("Consent: left inguinal hernia repair; the referral says right-sided.")
    assert "side" in _attributes(
        "The letter describes a right ICA stenosis; the duplex report says left carotid."
    )
    assert not _attributes("The CT report says right-sided; nothing else in the notes.")  # no part nearby


@pytest.mark.parametrize(
    "text",
    [
        "Hospital profile: amoxicillin (rash). GP record shows NKDA.",
        "Our allergy list records codeine; the patient denies any drug allergies.",
    ],
)
def test_allergy_list_notation_and_denial(text: str) -> None:
    assert "allergy" in _attributes(text)


def test_allergy_notation_needs_the_reaction() -> None:
    text = "Prescribed amoxicillin 500 mg TDS (course of 5 days). Allergy list: no known drug allergies."
    assert "allergy" not in _attributes(text)


@pytest.mark.parametrize(
    "text",
    [
        "The discharge letter lists lisinopril as stopped, but the GP list shows lisinopril 10 mg "
        "as an active repeat.",
        "Pharmacy: no ticagrelor dispensed since May. Clinic list has ticagrelor 90 mg BD "
        "as a current medication.",
        "Wife says he still takes apixaban; the GP summary shows it discontinued.",
    ],
)
def test_medication_status_wording(text: str) -> None:
    assert "medication_status" in _attributes(text)


def test_hcg_results_are_pregnancy_status() -> None:
    assert "pregnancy_status" in _attributes(
        "Serum hCG 2,100 IU/L this morning; the pre-op form records not pregnant."
    )
    assert "pregnancy_status" in _attributes("Urine hCG POS per lab; the consent form says not pregnant.")
    assert not _attributes("Serum hCG 3 IU/L; the pre-op form records not pregnant.")


def test_code_status_is_excused_by_history_not_by_a_date() -> None:
    assert not _attributes("Full code at his previous admission; DNACPR signed by the consultant on 03/02.")
    assert "code_status" in _attributes(
        "Whiteboard says full code; the DNACPR form dated 03/02 is in the notes."
    )


@pytest.mark.parametrize(
    "text",
    [
        "The GP list still shows warfarin; it was stopped on 11/05/2024 by the haematology clinic.",
        "The transfer MAR differs from our chart on insulin, explained by the diabetes team's change, "
        "MAR not yet updated.",
    ],
)
def test_a_discrepancy_the_text_explains_is_not_a_conflict(text: str) -> None:
    assert not detect(text).conflict


def test_the_same_contradiction_unexplained_fires() -> None:
    assert detect("The GP list still shows warfarin; our discharge letter lists it as stopped.").conflict


# ---- lay spellings -----------------------------------------------------------------------------------


def test_a_dropped_apostrophe_matches_and_is_not_prefiltered_away() -> None:
    pattern = term_pattern("(doesn't|does not) match")
    import regex

    assert regex.search(pattern, "it doesnt match", regex.IGNORECASE)
    assert "doesn" in (concept_literals(["doesn't match"]) or ())
    assert detect("what the pharmacy gave her doesnt match what the hospital said").conflict


# ---- M -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "task_class"),
    [
        ("Vancomycin 15 mg/kg ordered; no weight documented this admission.", "documentation"),
        ("The transfer letter does not record her allergy status.", "evidence"),
        ("Sample labelled with a surname only, no DOB or MRN.", "documentation"),
        ("Confused since the afternoon; no current obs on the chart.", "triage"),
        ("Frail 90M, resus status TBC.", "triage"),
        ("we haven't got a thermometer so no idea of her temperature", "triage"),
    ],
)
def test_record_and_device_absences_fire(text: str, task_class: str) -> None:
    assert detect(text, task_class=task_class).missing


@pytest.mark.parametrize(
    ("text", "task_class"),
    [
        ("Indication previously not documented, now confirmed as AF by cardiology.", "documentation"),
        ("Initially unidentified, now identified by his son and matched to the MRN.", "triage"),
        ("Fax: 5 of 5 pages received, none missing.", "documentation"),
        (
            "she is 3, weighed at the GP yesterday 14 kg, not sure how much ibuprofen she can have",
            "messaging",
        ),
        ("Her DNACPR status is not documented in the discharge summary.", "documentation"),
    ],
)
def test_resolved_negated_or_immaterial_absences_do_not_fire(text: str, task_class: str) -> None:
    assert not detect(text, task_class=task_class).missing


def test_the_place_of_an_absence_is_not_its_item() -> None:
    # code status is immaterial for documentation, the discharge summary (a needed source record) is
    # only where it is missing; with the place counted as the item this fired
    text = "Resus status is not documented in the discharge summary."
    assert not detect(text, task_class="documentation").missing
    assert detect("The discharge summary is not documented.", task_class="documentation").missing


# ---- H -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Post-op bed 4: BP 82/50 HR 120, cold peripheries.",  # HR after a BP is no time unit
        "Post-op bed 4: BP 84/52 on the last set.",  # a BP over 52 is no gestation in weeks
        "hs-cTnT 0 h 12 ng/L, 1 h 70 ng/L, ED informed.",  # serial values at time points
        "my dad is 80 and since breakfast his speech is all jumbled",  # a relative who is the patient
        "my daughter is 5 weeks old and her temp is 100.9F",
        "Discussed with the vascular team: ?ruptured AAA.",
        "Known prostate cancer, new back pain and weak legs: ?cord compression.",
        "Paracetamol level 180 mg/L at 4 h, above the treatment line.",
        "Admitted after an intentional overdose of amitriptyline.",
        "my son's pain started at his belly button and has moved to the bottom right",
    ],
)
def test_high_risk_mechanisms_fire(text: str) -> None:
    assert detect(text).high_risk, detect(text).suppressed


@pytest.mark.parametrize(
    "text",
    [
        "Her father had a stroke at 70.",  # family history with a past illness verb
        "She was admitted in 2016 with a thunderclap headache; none since.",
        "CT angiography excluded subarachnoid haemorrhage.",
        "A febrile convulsion at 14 months of age; now 6 and well.",
        "K+ 6.5 this morning, now 4.8 mmol/L after treatment.",
        "the leaflet says call 999 for face drooping or arm weakness, none of that so far",
        "the stroke nurse rang to book his follow-up, he is fine",
        "Migraine with aura: zigzag lines, then her usual headache.",
    ],
)
def test_high_risk_near_misses_stay_quiet(text: str) -> None:
    assert not detect(text).high_risk, detect(text).evidence


def test_visual_disturbance_fires_in_pregnancy() -> None:
    assert detect("34 weeks pregnant, seeing zigzag lines and a headache since this morning.").high_risk
