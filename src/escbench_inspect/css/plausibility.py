"""Plausibility checks: does a chart read like one patient's? Read as a clinician reads, from the text.

Each check recomputes a number from the others printed in the chart (eGFR from creatinine, age and
sex; the WBC from its differential; CHA2DS2-VASc from the problem list; pack-years from the smoking
history; ages of relatives from the patient's), or compares documents that must agree (a DXA report
and the T-score quoted in the problem list; a report and the procedure that produced it; the cadence
a note states and the next note of its kind). None of them looks at the structured case. Every
check has a planted-defect test in ``tests/escbench/css/test_css_plausibility.py``; ``escbench css audit``
prints their counts per chart length (issue 21's findings table, one row per check).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import defaultdict
from dataclasses import dataclass

from escbench_inspect.css.chart_check import dated_documents

_DATE = r"\d{4}-\d{2}-\d{2}"
_NUM = r"(\d+(?:\.\d+)?)"
_AGE_SEX_RE = re.compile(r"(\d+)-year-old (woman|man)")
_DIAGNOSIS_RE = re.compile(rf"Specimen A \(({_DATE})\)")
_CREATININE_RE = re.compile(rf"creatinine {_NUM} mg/dL \(eGFR (\d+)")
_CALCIUM_RE = re.compile(rf"calcium {_NUM} mg/dL")
_CBC_RE = re.compile(rf"^\[({_DATE})\] Complete blood count: WBC {_NUM} x10\^9/L,? \(?ANC {_NUM}(.*)$", re.M)
_DIFF_RE = re.compile(rf"lymphocytes {_NUM}, monocytes {_NUM}, eosinophils {_NUM}, basophils {_NUM}")
_A1C_RE = re.compile(rf"HbA1c {_NUM}%")
_CHA2DS2_RE = re.compile(r"CHA2DS2-VASc (\d)")
_COLONOSCOPY_RE = re.compile(rf"^\[({_DATE})\] Screening colonoscopy", re.M)
_STATIONS_RE = re.compile(r"stations? ((?:\d+[RL]?(?:,? (?:and )?)?)+)")
_DXA_STATED_RE = re.compile(rf"DXA T-score (-?{_NUM[1:-1]}) at the femoral neck")
_DXA_REPORT_RE = re.compile(rf"femoral neck T-score (-?{_NUM[1:-1]})")
_CHILDREN_RE = re.compile(r"children \(aged ([\d, and]+)\)")
_PARENT_ALIVE_RE = re.compile(r"(?:mother|father)[^;.]*?alive at (\d+)", re.I)
_SMOKING_RE = re.compile(
    r"(\d+) pack-years(?: \((\d+(?:\.\d+)?) packs? per day (?:from age (\d+) to (\d+)|since age (\d+))\))?"
    r"(?:,? quit (\d+) years ago)?"
)
_OPERATIVE_RE = re.compile(rf"^\[({_DATE})\] Operative note: (.+?) \(curative intent\)(.*)$", re.M)
_BLOOD_LOSS_RE = re.compile(r"[Ee]stimated blood loss (\d+) mL")
_STAY_RE = re.compile(r"discharged (?:on post-operative day (\d+)|the same day)")
_SURGICAL_AGE_RE = re.compile(r"\(age (\d+)\)")
_CYCLE1_RE = re.compile(rf"Cycle 1 \(({_DATE})\)|^\[({_DATE})\] Medical oncology - Cycle 1 day 1", re.M)
_STARTED_RE = re.compile(rf"first-line .+? started ({_DATE})")
_RESTAGING_RE = re.compile(rf"^\[({_DATE})\] [^\n]*\(restaging on [^)]*\): (.*)$", re.M)

SCREENING_COLONOSCOPY_AGES = (45, 85)  # USPSTF 2021: 45-75 routinely, 76-85 selectively
ANNUAL_DAYS, SEMIANNUAL_DAYS = (300, 430), (150, 220)


@dataclass(frozen=True)
class PlausibilityViolation:
    check: str
    section: str
    detail: str


def ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    """CKD-EPI 2021 (race-free) creatinine equation; a clinician's calculator, independent of the
    renderer's own implementation so that the check is not circular."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    value = 142 * min(creatinine / kappa, 1) ** alpha * max(creatinine / kappa, 1) ** -1.2 * 0.9938**age
    return value * (1.012 if female else 1)


def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


class PlausibilityChecker:
    def __init__(self, operations: list | None = None):
        self.operations = operations or []

    def check(self, sections: dict[str, str]) -> list[PlausibilityViolation]:
        text = "\n".join(sections.values())
        who = _AGE_SEX_RE.search(sections.get("presenting_problem", "") or text)
        dx = _DIAGNOSIS_RE.search(sections.get("pathology", ""))
        age = int(who.group(1)) if who else None
        female = bool(who and who.group(2) == "woman")
        diagnosis = _date(dx.group(1)) if dx else None
        history = sections.get("history", "")
        problems_list = history.split("Past surgical history:")[0]
        out: list[PlausibilityViolation] = []

        def flag(check: str, section: str, detail: str) -> None:
            out.append(PlausibilityViolation(check, section, detail))

        def age_on(date: dt.date) -> list[int]:
            if age is None or diagnosis is None or date >= diagnosis:
                return [age] if age is not None else []
            years = (diagnosis - date).days / 365.25
            return sorted({age - math.floor(years), age - math.ceil(years)})

        labs = sections.get("labs", "")
        docs = dated_documents(sections)
        # eGFR recomputed from the creatinine beside it
        for date, body in ((d, t) for s, d, t in docs if s == "labs"):
            for creatinine, egfr in _CREATININE_RE.findall(body):
                expected = [ckd_epi_2021(float(creatinine), a, female) for a in age_on(date)]
                if expected and min(abs(int(egfr) - e) for e in expected) > 1.5:
                    flag("egfr_inconsistent_with_creatinine", "labs", f"[{date}] Cr {creatinine} eGFR {egfr}")
        calcium = _CALCIUM_RE.findall(labs)
        if len(calcium) >= 3 and len(set(calcium)) == 1:
            flag("calcium_constant_across_panels", "labs", f"{len(calcium)} panels, all {calcium[0]}")
        # differential: ANC below the WBC, parts summing to it
        for date, wbc, anc, rest in _CBC_RE.findall(labs):
            if float(anc) > float(wbc):
                flag("anc_exceeds_wbc", "labs", f"[{date}] WBC {wbc}, ANC {anc}")
            diff = _DIFF_RE.search(rest)
            if diff and abs(float(anc) + sum(float(x) for x in diff.groups()) - float(wbc)) > 0.15:
                flag("differential_does_not_sum_to_wbc", "labs", f"[{date}] WBC {wbc}")
        # HbA1c: slow drift, diabetic range only with diabetes
        a1c = sorted({(d, float(v)) for _, d, t in docs for v in _A1C_RE.findall(t)})
        diabetic = "diabetes" in problems_list
        for i, (d1, v1) in enumerate(a1c):
            if v1 >= 6.5 and not diabetic:
                flag("hba1c_diabetic_without_diabetes", "labs", f"[{d1}] HbA1c {v1}%")
            for d2, v2 in a1c[i + 1 :]:
                if (d2 - d1).days <= 60 and abs(v2 - v1) >= 1.0:
                    flag("hba1c_changes_too_fast", "labs", f"{d1} {v1}% -> {d2} {v2}%")
        # visit cadence as the notes state it
        by_title: dict[str, list[tuple[dt.date, str]]] = defaultdict(list)
        for section, date, body in docs:
            if section == "history":
                by_title[body.splitlines()[0].split("] ", 1)[1]].append((date, body))
        for title, notes in by_title.items():
            notes.sort()
            for (d1, body), (d2, _) in zip(notes, notes[1:], strict=False):
                window = ANNUAL_DAYS if "Return in 12 months" in body else None
                window = SEMIANNUAL_DAYS if "Follow up in 6 months" in body else window
                if window and not window[0] <= (d2 - d1).days <= window[1]:
                    flag("visit_cadence_not_as_stated", "history", f"{title}: {d1} -> {d2}")
        # sequencing assay notes need a sequencing result
        molecular = sections.get("molecular", "")
        if "Assay notes" in molecular and not any(
            "Method:" in line and "sequencing" in line for line in molecular.splitlines()
        ):
            flag("assay_note_without_sequencing_result", "molecular", "assay notes, no sequencing result")
        # CHA2DS2-VASc from the chart's own facts
        for stated in _CHA2DS2_RE.findall(problems_list):
            if age is not None:
                score = (2 if age >= 75 else 1 if age >= 65 else 0) + int(female)
                score += int("hypertension" in problems_list) + int("diabetes" in problems_list)
                score += 2 * int("stroke" in problems_list) + int("heart failure" in problems_list)
                if int(stated) != score:
                    flag("cha2ds2_vasc_inconsistent", "history", f"stated {stated}, computed {score}")
                break
        # treatment start
        for section, date, body in docs:
            if "Cycle 1 day 1" in body.splitlines()[0] and "Tolerating treatment" in body:
                flag("tolerating_treatment_at_cycle_1", section, f"[{date}]")
        cycle1 = [_date(a or b) for a, b in _CYCLE1_RE.findall(text)] + [
            _date(d) for d in _STARTED_RE.findall(sections.get("treatment_history", ""))
        ]
        if cycle1:
            first = min(cycle1)
            counts = [d for d, *_ in _CBC_RE.findall(labs) if 0 <= (first - _date(d)).days <= 7]
            if not counts:
                flag("no_blood_count_before_cycle_1", "labs", f"cycle 1 on {first}")
        restaging = sorted((_date(d), "progressive disease" in r) for d, r in _RESTAGING_RE.findall(text))
        for (d1, p1), (d2, p2) in zip(restaging, restaging[1:], strict=False):
            if p2 and not p1 and (d2 - d1).days < 28:
                flag("progression_soon_after_stable_scan", "imaging", f"{d1} -> {d2}")
        # a report dated before the procedure that produced it (EUS)
        for line in sections.get("procedures", "").splitlines():
            m = re.match(rf"\[({_DATE})\] (.*)", line)
            if m and "endoscopic ultrasound" in m.group(2):
                for section, date, body in docs:
                    if section == "imaging" and "endoscopic ultrasound:" in body and date < _date(m.group(1)):
                        flag("report_before_procedure", "imaging", f"EUS {date}, endoscopy {m.group(1)}")
        for date in _COLONOSCOPY_RE.findall(sections.get("procedures", "")):
            ages = age_on(_date(date))
            low, high = SCREENING_COLONOSCOPY_AGES
            if ages and not any(low <= a <= high for a in ages):
                flag("screening_colonoscopy_outside_ages", "procedures", f"[{date}] age {ages}")
        for m in _STATIONS_RE.finditer(text):
            bare = [s for s in re.findall(r"\d+[RL]?", m.group(1)) if s in {"2", "4", "10", "11"}]
            if bare:
                flag("ebus_station_without_side", "pathology", f"station {', '.join(bare)}")
        reports = [float(v) for v in _DXA_REPORT_RE.findall(sections.get("imaging", ""))]
        for stated in {float(v) for v in _DXA_STATED_RE.findall(text)}:
            if any(abs(stated - r) > 0.3 for r in reports):
                flag("dxa_inconsistent_with_stated_t_score", "imaging", f"stated {stated}, reports {reports}")
        # family and social history against the patient's age
        social = next((line for line in history.splitlines() if line.startswith("Social history:")), "")
        family = next((line for line in history.splitlines() if line.startswith("Family history:")), "")
        if age is not None:
            for group in _CHILDREN_RE.findall(social):
                for child in re.findall(r"\d+", group):
                    if not 16 <= age - int(child) <= 55:
                        flag("child_age_impossible", "history", f"patient {age}, child {child}")
            if "teenage children" in social and not 29 <= age <= 74:
                flag("child_age_impossible", "history", f"patient {age} with teenage children")
            for parent in _PARENT_ALIVE_RE.findall(family):
                if not 15 <= int(parent) - age <= 50:
                    flag("parent_age_impossible", "history", f"patient {age}, parent alive at {parent}")
            for pack_years, ppd, start, stop, since, quit in _SMOKING_RE.findall(social):
                if ppd:
                    years = (int(stop) - int(start)) if start else age - int(since)
                    limit = float(ppd) * years + 0.5
                else:  # no detail: at most a pack a day from age 12, minus the years since quitting
                    limit = age - 12 - (int(quit) if quit else 0)
                if int(pack_years) > limit:
                    flag("pack_years_exceed_years_smoked", "history", f"age {age}: {pack_years} pack-years")
            surgical = history.split("Past surgical history:")[-1].split("Social history:")[0]
            for operated in _SURGICAL_AGE_RE.findall(surgical):
                if int(operated) > age:
                    flag(
                        "surgical_history_age_impossible", "history", f"patient {age}, operated at {operated}"
                    )
        # operation-specific length of stay and blood loss
        for _date_text, procedure, rest in _OPERATIVE_RE.findall(sections.get("procedures", "")):
            op = next((o for o in self.operations if o.match in procedure), None)
            loss, stay = _BLOOD_LOSS_RE.search(rest), _STAY_RE.search(rest)
            if op is None or loss is None or stay is None:
                continue
            days = int(stay.group(1) or 0)
            if not (
                op.stay_days[0] <= days <= op.stay_days[1]
                and op.blood_loss_ml[0] <= int(loss.group(1)) <= op.blood_loss_ml[1]
            ):
                flag(
                    "stay_or_blood_loss_implausible_for_operation",
                    "procedures",
                    f"{op.match}: day {days}, {loss.group(1)} mL",
                )
        return out


def plausibility_violations(
    sections: dict[str, str], operations: list | None = None
) -> list[PlausibilityViolation]:
    """Every plausibility problem in one rendered chart (empty = reads like one patient)."""
    if operations is None:
        from escbench_inspect.css.data import packaged_data

        operations = packaged_data().background.operations
    return PlausibilityChecker(operations).check(sections)


def plausibility_audit(plans: list, lengths: tuple[str, ...] | list[str]) -> dict:
    """Charts with each plausibility problem (both arms of every emitted tuple), per chart length."""
    from collections import Counter

    from escbench_inspect.css.catalog import interventions, mutate
    from escbench_inspect.css.data import packaged_data
    from escbench_inspect.css.generator import case_by_id
    from escbench_inspect.css.render import render_sections

    operations = packaged_data().background.operations
    ivs = interventions()
    found: dict[str, Counter] = {length: Counter() for length in lengths}
    for length in lengths:
        seen: set[str] = set()
        for plan in plans:
            arms = [(plan.case_id, None), (plan.case_id, plan.intervention_id)]
            for case_id, iv in arms:
                key = f"{case_id}:{iv}"
                if key in seen:
                    continue
                seen.add(key)
                case = case_by_id(case_id)
                case = mutate(ivs[iv], case) if iv else case
                problems = plausibility_violations(render_sections(case, length), operations)
                found[length].update({p.check for p in problems})
    return found
