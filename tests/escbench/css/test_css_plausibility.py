"""Plausibility of the charts (issue 21): one planted defect per check, and none in any emitted chart."""

from __future__ import annotations

import datetime as dt
import inspect
import re
from collections.abc import Callable

import pytest

from escbench_inspect.css import plausibility
from escbench_inspect.css.catalog import interventions, mutate
from escbench_inspect.css.dataset import _all_plans
from escbench_inspect.css.generator import case_by_id, corpus
from escbench_inspect.css.patient import ckd_epi_2021
from escbench_inspect.css.plausibility import plausibility_audit, plausibility_violations
from escbench_inspect.css.render import CHART_LENGTHS, render_sections
from escbench_inspect.css.schema import Case

Sections = dict[str, str]


def _chart(predicate: Callable[[Case], bool], length: str = "long") -> tuple[Case, Sections]:
    case = next(c for c in corpus() if predicate(c))
    sections = render_sections(case, length)
    assert plausibility_violations(sections) == [], case.case_id  # the clean chart passes
    return case, sections


def _sub(sections: Sections, section: str, pattern: str, repl: Callable[[re.Match], str] | str) -> Sections:
    new, n = re.subn(pattern, repl, sections[section], count=1, flags=re.M)
    assert n == 1, (section, pattern)
    return {**sections, section: new}


def _shift(text: str, days: int) -> str:
    return (dt.date.fromisoformat(text) + dt.timedelta(days=days)).isoformat()


def plant_egfr() -> Sections:
    _, s = _chart(lambda c: True)
    return _sub(s, "labs", r"\(eGFR (\d+)", lambda m: f"(eGFR {int(m.group(1)) + 20}")


def plant_calcium() -> Sections:
    _, s = _chart(lambda c: True)
    return {**s, "labs": re.sub(r"calcium \d+\.\d mg/dL", "calcium 9.4 mg/dL", s["labs"])}


def plant_anc() -> Sections:
    _, s = _chart(lambda c: True)
    return _sub(s, "labs", r"\(ANC \d+\.\d,", "(ANC 99.0,")


def plant_differential() -> Sections:
    _, s = _chart(lambda c: True)
    return _sub(s, "labs", r"lymphocytes \d+\.\d", "lymphocytes 9.9")


def plant_a1c_without_diabetes() -> Sections:
    _, s = _chart(lambda c: "diabetes" not in c.comorbidities)
    return _sub(s, "labs", r"HbA1c \d\.\d%", "HbA1c 7.4%")


def plant_a1c_jump() -> Sections:
    _, s = _chart(lambda c: True)
    date, value = re.search(r"^\[(\S+)\] Lipid panel: .*HbA1c (\d\.\d)%", s["labs"], re.M).groups()
    line = f"[{_shift(date, 30)}] Lipid panel: LDL 90 mg/dL. HbA1c {float(value) + 1.4:.1f}%."
    return {**s, "labs": s["labs"] + "\n" + line}


def plant_cadence() -> Sections:
    _, s = _chart(lambda c: True)
    dates = re.findall(r"^\[(\S+)\] Primary care - annual wellness visit", s["history"], re.M)
    return _sub(
        s,
        "history",
        rf"^\[{dates[-1]}\] Primary care - annual",
        f"[{_shift(dates[-2], 200)}] Primary care - annual",
    )


def plant_assay_note() -> Sections:
    _, s = _chart(lambda c: c.cancer == "breast")
    return {**s, "molecular": s["molecular"] + "\nAssay notes: DNA input 50 ng, mean unique coverage 612x."}


def plant_cha2ds2_vasc() -> Sections:
    _, s = _chart(lambda c: "atrial_fibrillation" in c.comorbidities)
    return _sub(s, "history", r"CHA2DS2-VASc (\d)", lambda m: f"CHA2DS2-VASc {(int(m.group(1)) + 1) % 10}")


def plant_tolerating_at_cycle_1() -> Sections:
    _, s = _chart(lambda c: bool(c.lines))
    return _sub(
        s, "presenting_problem", r"(Cycle 1 day 1, [^\n]*\nInterval history: )", r"\1Tolerating treatment. "
    )


def plant_no_count_before_cycle_1() -> Sections:
    case, s = _chart(lambda c: bool(c.lines))
    start = case.lines[0].start.isoformat()
    return _sub(s, "labs", rf"^\[{start}\] Complete blood count: .*\n", "")


def plant_progression_after_stable() -> Sections:
    case, s = _chart(lambda c: c.status == "progressed")
    scan = case.lines[-1].progression_scan.isoformat()
    line = (
        f"[{_shift(scan, -10)}] CT (restaging on the regimen): stable disease by RECIST 1.1, no new lesions."
    )
    return {**s, "imaging": s["imaging"] + "\n" + line}


def plant_eus_before_endoscopy() -> Sections:
    case, s = _chart(lambda c: c.cancer == "gastroesophageal")
    dx = case.diagnosis_date.isoformat()
    return _sub(
        s, "imaging", rf"^\[{dx}\] endoscopic ultrasound:", f"[{_shift(dx, -6)}] endoscopic ultrasound:"
    )


def plant_colonoscopy_age() -> Sections:
    _, s = _chart(lambda c: c.cancer != "colorectal" and c.age < 70)
    return _sub(
        s,
        "procedures",
        r"^\[(\S+)\] Screening colonoscopy",
        lambda m: f"[{_shift(m.group(1), -365 * 30)}] Screening colonoscopy",
    )


def plant_ebus_side() -> Sections:
    _, s = _chart(lambda c: c.cancer == "nsclc")
    return _sub(s, "pathology", r"(stations? )(\d+)[RL]", r"\1\2")


def plant_dxa() -> Sections:
    _, s = _chart(lambda c: "osteopenia" in c.comorbidities, "xlong")
    assert "DXA scan" in s["imaging"]
    return _sub(
        s, "history", r"DXA T-score -1\.8 at the femoral neck", "DXA T-score -2.4 at the femoral neck"
    )


def plant_child_age() -> Sections:
    case, s = _chart(lambda c: "(aged" in render_sections(c, "short")["history"])
    return _sub(s, "history", r"\(aged \d+", f"(aged {case.age - 5}")


def plant_parent_age() -> Sections:
    case, s = _chart(lambda c: True)
    return _sub(s, "history", r"^Family history: .*$", f"Family history: Mother alive at {case.age + 3}.")


def plant_pack_years() -> Sections:
    _, s = _chart(lambda c: c.age < 60)
    return _sub(
        s,
        "history",
        r"(Social history: [^\n]*?)(Never|Former|Current) smoker[^.]*\.(?: \([^)]*\)[^.]*\.)?",
        r"\1Current smoker, 45 pack-years (1 pack per day since age 30).",
    )


def plant_surgical_age() -> Sections:
    case, s = _chart(lambda c: True)
    return _sub(s, "history", r"\(age \d+\)", f"(age {case.age + 5})")


def plant_operation() -> Sections:
    _, s = _chart(lambda c: c.cancer == "breast" and c.surgery is not None)
    return _sub(s, "procedures", r"Estimated blood loss \d+ mL", "Estimated blood loss 150 mL")


PLANTED: dict[str, tuple[Callable[[], Sections], str]] = {
    "egfr": (plant_egfr, "egfr_inconsistent_with_creatinine"),
    "calcium": (plant_calcium, "calcium_constant_across_panels"),
    "anc": (plant_anc, "anc_exceeds_wbc"),
    "differential": (plant_differential, "differential_does_not_sum_to_wbc"),
    "a1c_without_diabetes": (plant_a1c_without_diabetes, "hba1c_diabetic_without_diabetes"),
    "a1c_jump": (plant_a1c_jump, "hba1c_changes_too_fast"),
    "cadence": (plant_cadence, "visit_cadence_not_as_stated"),
    "assay_note": (plant_assay_note, "assay_note_without_sequencing_result"),
    "cha2ds2_vasc": (plant_cha2ds2_vasc, "cha2ds2_vasc_inconsistent"),
    "tolerating": (plant_tolerating_at_cycle_1, "tolerating_treatment_at_cycle_1"),
    "no_count": (plant_no_count_before_cycle_1, "no_blood_count_before_cycle_1"),
    "progression_after_stable": (plant_progression_after_stable, "progression_soon_after_stable_scan"),
    "eus": (plant_eus_before_endoscopy, "report_before_procedure"),
    "colonoscopy": (plant_colonoscopy_age, "screening_colonoscopy_outside_ages"),
    "ebus": (plant_ebus_side, "ebus_station_without_side"),
    "dxa": (plant_dxa, "dxa_inconsistent_with_stated_t_score"),
    "child": (plant_child_age, "child_age_impossible"),
    "parent": (plant_parent_age, "parent_age_impossible"),
    "pack_years": (plant_pack_years, "pack_years_exceed_years_smoked"),
    "surgical_age": (plant_surgical_age, "surgical_history_age_impossible"),
    "operation": (plant_operation, "stay_or_blood_loss_implausible_for_operation"),
}


def test_every_check_has_a_planted_defect() -> None:
    checks = set(re.findall(r'flag\(\s*"([a-z0-9_]+)"', inspect.getsource(plausibility)))
    assert checks == {check for _, check in PLANTED.values()}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_each_planted_defect_is_caught(name: str) -> None:
    plant, check = PLANTED[name]
    assert check in {v.check for v in plausibility_violations(plant())}, name


def test_ckd_epi_2021_reference_values() -> None:
    # hand-computed from Inker et al. 2021: woman, 50 y, creatinine 1.0 mg/dL -> 142 x (1/0.7)^-1.2 x
    # 0.9938^50 x 1.012 = 68.6; man, 40 y, creatinine 0.9 (= kappa) -> 142 x 0.9938^40 = 110.7
    assert round(ckd_epi_2021(1.0, 50, True)) == round(plausibility.ckd_epi_2021(1.0, 50, True)) == 69
    assert round(ckd_epi_2021(0.9, 40, False)) == 111


@pytest.mark.parametrize(
    "length",
    # the default length (short) in the default suite; the longer renderings in the slow step
    [pytest.param(length, marks=() if length == "short" else pytest.mark.slow) for length in CHART_LENGTHS],
)
def test_no_emitted_chart_has_a_plausibility_violation_at_any_length(length: str) -> None:
    plans, _ = _all_plans()
    found = plausibility_audit(list(plans), (length,))
    assert {key: sum(c.values()) for key, c in found.items()} == {length: 0}


def test_one_patient_behind_the_numbers() -> None:
    """Same-day values agree across documents; a cycle's counts respond to chemotherapy."""
    case = next(c for c in corpus() if c.status == "progressed" and c.cancer == "colorectal")
    mutated = mutate(interventions()["B1_first_line_failure"], case) if case.status == "naive" else case
    sections = render_sections(mutated, "long")
    logs = re.findall(r"Cycle \d+ \((\S+)\): administered.*?ANC (\S+) x10", sections["treatment_history"])
    cbc = dict(re.findall(r"^\[(\S+)\] Complete blood count: .*?ANC (\S+),", sections["labs"], re.M))
    assert logs and all(cbc[date] == anc for date, anc in logs)
    assert case_by_id(case.case_id) == case
