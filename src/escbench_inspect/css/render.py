"""Render a structured case into the ten chart sections, at a configurable length.

Every sentence that depends on a clinical fact the catalog can change is produced through
:meth:`ChartRenderer.fact`, which records it under the fact keys it depends on (``stage``,
``surgery``, ``metastatic_sites``, ``lines``, ``line_status``, ``biomarker:<name>``). The tests use
that record to check, across all ten sections, that no sentence carrying a changed fact's old value
survives a mutation. Filler that does not depend on those facts (pre-diagnosis notes, vitals,
routine labs) comes from random streams seeded by the case id and purpose only, so it is identical
in a case's baseline and mutated charts. Length comes from *more of the same kinds of documents*
(visit notes, serial labs, imaging reports, administration logs), never from padding text.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from escbench_inspect.css import SECTION_NAMES, SECTION_TITLES
from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.generator import rng_for
from escbench_inspect.css.schema import Case, TreatmentLine


@dataclass(frozen=True)
class LengthSpec:
    """How many documents of each kind a chart carries."""

    primary_care_notes: int
    oncology_notes: int
    lab_panels: int
    prior_lab_panels: int
    serial_imaging: int
    administration_log: bool
    med_reconciliations: int


CHART_LENGTHS: dict[str, LengthSpec] = {
    "short": LengthSpec(0, 0, 1, 0, 0, False, 0),
    "medium": LengthSpec(4, 3, 3, 2, 2, False, 2),
    "long": LengthSpec(22, 10, 10, 8, 6, True, 8),
    "xlong": LengthSpec(48, 20, 22, 16, 12, True, 16),
}


_MICROSCOPIC = {
    "breast": "infiltrating nests and cords of malignant ductal/lobular epithelial cells in a "
    "desmoplastic stroma; no lymphovascular invasion identified in the cores.",
    "nsclc": "sheets and glands of malignant epithelial cells with nuclear atypia and necrosis; "
    "nodal aspirates contain metastatic carcinoma where sampled.",
    "colorectal": "invasive malignant glands with dirty necrosis arising from a tubulovillous "
    "adenoma; tumor budding low.",
    "gastroesophageal": "malignant glands and single cells infiltrating the lamina propria and "
    "muscularis mucosae; Helicobacter pylori immunostain negative.",
    "melanoma": "atypical epithelioid melanocytes in nests and pagetoid spread, SOX10 and "
    "PRAME positive; regional nodal core with metastatic melanoma.",
}


def fact_values(case: Case) -> dict[str, Any]:
    """The values of the mutable fact keys (used to find which keys a mutation changed)."""
    values: dict[str, Any] = {
        "stage": (case.t, case.n, case.m),
        "metastatic_sites": case.metastatic_sites,
        "surgery": case.surgery.model_dump() if case.surgery else None,
        "lines": tuple((x.setting, x.line, x.regimen, x.start, x.cycles) for x in case.lines),
        "line_status": tuple((x.status, x.best_response, x.end) for x in case.lines),
    }
    for name, state in case.biomarkers.items():
        values[f"biomarker:{name}"] = state
    return values


def _d(date: dt.date) -> str:
    return date.isoformat()


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class ChartRenderer:
    """Renders one case. Use :func:`render_sections` unless you need the fact record."""

    def __init__(self, case: Case, chart_length: str = "short", data: CssData | None = None):
        if chart_length not in CHART_LENGTHS:
            raise ValueError(f"chart_length must be one of {sorted(CHART_LENGTHS)}, got '{chart_length}'")
        self.case = case
        self.data = data or packaged_data()
        self.spec = self.data.cancers[case.cancer]
        self.length = CHART_LENGTHS[chart_length]
        self.facts: dict[str, set[str]] = defaultdict(set)

    # ------------------------------------------------------------------ helpers
    def fact(self, text: str, *keys: str) -> str:
        for key in keys:
            self.facts[key].add(text)
        return text

    def rng(self, purpose: str) -> random.Random:
        return rng_for(self.case.case_id, purpose)

    @property
    def woman(self) -> bool:
        return self.case.sex == "female"

    @property
    def person(self) -> str:
        return "woman" if self.woman else "man"

    @property
    def pronoun(self) -> str:
        return "She" if self.woman else "He"

    @property
    def stage_group(self) -> str:
        return self.spec.stage_group(self.case.t, self.case.n, self.case.m)

    def biopsy_date(self) -> dt.date:
        return self.case.diagnosis_date

    def board_date(self) -> dt.date:
        case = self.case
        if case.lines:
            last = case.lines[-1]
            if last.end is not None:
                return last.end + dt.timedelta(days=9)
            days = self.data.regimens[last.regimen].cycle_days
            return last.start + dt.timedelta(days=last.cycles * days - 2)
        if case.surgery is not None:
            return case.surgery.date + dt.timedelta(days=27)
        return case.diagnosis_date + dt.timedelta(days=19)

    def biomarker_keys(self) -> list[str]:
        return [f"biomarker:{name}" for name in self.case.biomarkers]

    def stage_text(self) -> str:
        case = self.case
        if case.m == "M1":
            text = (
                f"c{case.t} c{case.n} cM1, stage IV with distant metastases to "
                f"{_join(list(case.metastatic_sites))}"
            )
            return self.fact(text, "stage", "metastatic_sites", "surgery")
        if case.surgery is not None:
            text = f"p{case.t} p{case.n} cM0 (pathologic stage {self.stage_group})"
        else:
            text = f"c{case.t} c{case.n} cM0 (clinical stage {self.stage_group}), no distant metastases"
        return self.fact(text, "stage", "metastatic_sites", "surgery")

    def biomarker_summary(self) -> str:
        parts = []
        for name, state in self.case.biomarkers.items():
            marker = self.spec.biomarkers[name]
            if state is None:
                parts.append(f"{marker.display} result not available")
            else:
                parts.append(marker.states[state].label)
        return self.fact(", ".join(parts), *self.biomarker_keys())

    def surgery_status(self) -> str:
        surgery = self.case.surgery
        if surgery is None:
            text = "primary tumor in situ (no resection performed)"
        else:
            text = f"status post {surgery.procedure} on {_d(surgery.date)} ({surgery.margin} resection)"
        return self.fact(text, "surgery")

    def line_phrase(self, line: TreatmentLine) -> str:
        regimen = self.data.regimens[line.regimen]
        ordinal = {1: "first", 2: "second", 3: "third"}.get(line.line, f"{line.line}th")
        base = self.fact(f"{ordinal}-line {regimen.name} started {_d(line.start)}", "lines")
        if line.status == "ongoing":
            status = (
                f"ongoing, {line.cycles} cycles given so far, best response "
                f"{line.best_response} and no progression"
            )
        elif line.status == "progressed":
            status = (
                f"discontinued {_d(line.end or line.start)} for radiographic disease "
                f"progression after {line.cycles} cycles (best response {line.best_response})"
            )
        else:
            status = f"completed after {line.cycles} cycles"
        return base + " (" + self.fact(status, "line_status", "lines") + ")"

    def treatment_status(self) -> str:
        met = [line for line in self.case.lines if line.setting == "metastatic"]
        if not met:
            return self.fact("no prior systemic therapy", "lines", "line_status")
        return "; ".join(self.line_phrase(line) for line in met)

    def summary(self) -> str:
        """One-line oncologic summary, repeated (as in real charts) across notes."""
        case = self.case
        return (
            f"{case.histology} of the {case.site}, {self.stage_text()}; "
            f"{self.biomarker_summary()}; {self.surgery_status()}; "
            f"{self.treatment_status()}"
        )

    # ------------------------------------------------------------------ sections
    def history(self) -> str:
        case, bg = self.case, self.data.background
        comorbid = [c for c in bg.comorbidities if c.id in case.comorbidities]
        out = ["Past medical history:"]
        out += [f"- {c.name}" for c in comorbid]
        out.append(f"- Oncologic: {self.summary()}")
        out.append("Past surgical history:")
        out.append(
            "- laparoscopic appendectomy (age 19)"
            if self.rng("psh").random() < 0.5
            else "- right inguinal hernia repair with mesh (age 44)"
        )
        if case.surgery is not None:
            out.append("- " + self.fact(f"{case.surgery.procedure} on {_d(case.surgery.date)}", "surgery"))
        out.append(f"Social history: {bg.social[case.social]}")
        out.append(f"Family history: {bg.family_history[case.family_history]}")
        out.append(f"Allergies: {bg.allergies[case.allergy]}")
        notes = self.primary_care_notes()
        if notes:
            out.append("")
            out.append("Prior clinic notes (before the cancer diagnosis):")
            out.extend(notes)
        return "\n".join(out)

    def _vitals(self, rng: random.Random) -> dict[str, Any]:
        height_m = self.case.height_cm / 100
        weight = round(self.case.weight_kg + rng.uniform(-2.5, 2.5), 1)
        return {
            "bp": f"{rng.randint(112, 148)}/{rng.randint(68, 92)}",
            "hr": rng.randint(58, 92),
            "weight": weight,
            "bmi": round(weight / (height_m * height_m), 1),
            "a1c": round(rng.uniform(5.6, 7.8), 1),
            "ldl": rng.randint(62, 148),
            "tsh": round(rng.uniform(0.8, 3.9), 2),
        }

    def primary_care_notes(self) -> list[str]:
        case, bg = self.case, self.data.background
        comorbid = [c for c in bg.comorbidities if c.id in case.comorbidities]
        notes = []
        count = self.length.primary_care_notes
        for i in range(count):
            rng = self.rng(f"pcnote:{i}")
            date = case.diagnosis_date - dt.timedelta(days=75 + 61 * (count - i) + rng.randint(0, 20))
            kind = bg.note_kinds[rng.randrange(len(bg.note_kinds))]
            values = self._vitals(rng)
            problem_names = "; ".join(c.name for c in comorbid)
            plans = " ".join(c.plan.format(**values) for c in comorbid)
            body = kind.template.format(
                age=case.age - (case.diagnosis_date - date).days // 365,
                sex_word=self.person,
                pronoun=self.pronoun,
                problem=problem_names,
                plan=plans,
                date=_d(date),
                **values,
            )
            notes.append(f"[{_d(date)}] {kind.title}\n{body.strip()}")
        return notes

    def presenting_problem(self) -> str:
        case, spec = self.case, self.spec
        side = case.side if case.side in ("left", "right") else "upper"
        presentation = spec.presentations[case.presentation].format(side=side)
        out = [
            f"{case.age}-year-old {self.person} (ECOG performance status {case.ecog}) who "
            f"presented with {presentation}.",
            f"Diagnosis: {spec.biopsy} on {_d(self.biopsy_date())} showed {case.histology}.",
            f"Staging: {spec.staging_imaging} completed "
            f"{_d(case.diagnosis_date + dt.timedelta(days=9))}: " + self.staging_finding(),
            f"Current oncologic summary: {self.summary()}.",
        ]
        notes = self.oncology_notes()
        if notes:
            out.append("")
            out.append("Oncology clinic notes:")
            out.extend(notes)
        return "\n".join(out)

    def staging_finding(self) -> str:
        case = self.case
        if case.m == "M1":
            text = (
                "distant metastatic disease in the "
                + _join(list(case.metastatic_sites))
                + " (largest lesion 2.4 cm)"
            )
        else:
            text = "no evidence of distant metastatic disease"
        return self.fact(text, "stage", "metastatic_sites") + "."

    def _visit_events(self) -> list[tuple[dt.date, str, tuple[str, ...]]]:
        """Dated reasons for oncology visits (and the fact keys they depend on)."""
        case = self.case
        events: list[tuple[dt.date, str, tuple[str, ...]]] = [
            (case.diagnosis_date + dt.timedelta(days=12), "New patient consultation", ())
        ]
        if case.surgery is not None:
            events.append(
                (
                    case.surgery.date - dt.timedelta(days=6),
                    "Pre-operative surgical oncology visit",
                    ("surgery",),
                )
            )
            events.append((case.surgery.date + dt.timedelta(days=14), "Post-operative visit", ("surgery",)))
        for line in case.lines:
            regimen = self.data.regimens[line.regimen]
            for c in range(line.cycles):
                events.append(
                    (
                        line.start + dt.timedelta(days=c * regimen.cycle_days),
                        f"Cycle {c + 1} day 1, {regimen.name}",
                        ("lines",),
                    )
                )
        events.append((self.board_date() - dt.timedelta(days=3), "Pre-tumor-board review", ()))
        events.sort(key=lambda e: e[0])
        return events

    def oncology_notes(self) -> list[str]:
        events = self._visit_events()
        count = self.length.oncology_notes
        if count == 0:
            return []
        # keep the first and the last visits, and evenly spaced ones in between
        if len(events) > count:
            step = (len(events) - 1) / max(count - 1, 1)
            events = [events[round(i * step)] for i in range(count)] if count > 1 else events[-1:]
        notes = []
        for i, (date, reason, keys) in enumerate(events):
            rng = self.rng(f"oncnote:{i}")
            vitals = self._vitals(rng)
            symptom = rng.choice(
                [
                    "Energy is fair; walking daily. Appetite preserved. No fevers or night sweats.",
                    "Mild fatigue in the afternoons. No new pain. Bowel and bladder habits normal.",
                    "Sleeping poorly because of anxiety about the diagnosis; declines counseling for now.",
                    "No nausea, no neuropathy, no rash. Weight stable. Family support is good.",
                ]
            )
            interval = self.interval_history(reason)
            heading = (
                self.fact(f"[{_d(date)}] Medical oncology - {reason}", *keys)
                if keys
                else f"[{_d(date)}] Medical oncology - {reason}"
            )
            notes.append(
                f"{heading}\n"
                f"Interval history: {interval} {symptom}\n"
                f"Vitals: BP {vitals['bp']} mmHg, HR {vitals['hr']}/min, SpO2 "
                f"{rng.randint(94, 99)}% on room air, weight {vitals['weight']} kg.\n"
                f"Examination: ECOG {self.case.ecog}. No scleral icterus. No palpable "
                f"supraclavicular adenopathy. Lungs clear. Abdomen soft.\n"
                f"Assessment: {self.summary()}.\n"
                f"Plan: results reviewed with the patient; case to be presented at the "
                f"multidisciplinary tumor board."
            )
        return notes

    def interval_history(self, reason: str) -> str:
        if reason.startswith("Cycle"):
            return self.fact("Tolerating treatment; labs adequate to proceed with this cycle.", "lines")
        if reason.startswith("Post-operative"):
            return self.fact(
                "Recovering from surgery; incision healing well, no wound complications.", "surgery"
            )
        if reason.startswith("Pre-operative"):
            return self.fact("Seen before planned resection; consent reviewed.", "surgery")
        return "Seen to review results to date."

    def pathology(self) -> str:
        case, spec = self.case, self.spec
        out = [
            f"Specimen A ({_d(self.biopsy_date())}): {spec.biopsy}.",
            f"Diagnosis: {case.histology}.",
            "Microscopic: " + _MICROSCOPIC[case.cancer],
        ]
        receptors = [name for name in ("er", "pr", "her2") if name in case.biomarkers]
        for name in receptors:
            marker = spec.biomarkers[name]
            state = case.biomarkers[name]
            if state is None:
                out.append(
                    self.fact(
                        f"{marker.display} ({marker.method}): not reported on this specimen.",
                        f"biomarker:{name}",
                    )
                )
            else:
                st = marker.states[state]
                out.append(
                    self.fact(
                        f"{marker.display} ({marker.method}): {st.label}; {st.detail}.", f"biomarker:{name}"
                    )
                )
        if self.length.administration_log:
            out.append(
                "Gross description: received in formalin labeled with the patient's name "
                "and medical record number are multiple tan-white cores/fragments, "
                "aggregate 1.6 x 0.4 x 0.2 cm, entirely submitted in cassettes A1-A3. "
                "Cold ischemia time <1 hour; fixation time 18 hours (within 6-72 hours)."
            )
            out.append(
                "Quality: tumor cellularity approximately 40%; adequate for ancillary and molecular studies."
            )
        surgery = case.surgery
        if surgery is not None:
            rng = self.rng("surgical_pathology")
            size = round(rng.uniform(1.6, 5.5), 1)
            out.append("")
            out.append(
                self.fact(
                    f"Specimen B ({_d(surgery.date)}): {surgery.procedure}. Invasive tumor size "
                    f"{size} cm; margins negative ({surgery.margin}), closest margin "
                    f"{rng.randint(3, 14)} mm; lymph nodes {surgery.nodes_positive}/"
                    f"{surgery.nodes_examined} positive; pathologic stage p{case.t} p{case.n} "
                    f"(AJCC 8th edition).",
                    "surgery",
                )
            )
            if self.length.administration_log:
                out.append(
                    self.fact(
                        "Synoptic report (surgical specimen): procedure as above; tumor focality "
                        "unifocal; lymphovascular invasion present (focal); perineural invasion not "
                        f"identified; treatment effect not applicable; {surgery.nodes_examined} "
                        "lymph nodes examined.",
                        "surgery",
                    )
                )
        else:
            out.append(self.fact("No surgical resection specimen (primary tumor not resected).", "surgery"))
        return "\n".join(out)

    def molecular(self) -> str:
        case, spec = self.case, self.spec
        report_date = case.diagnosis_date + dt.timedelta(days=11)
        out = [
            f"Specimen: biopsy of {case.site} ({_d(self.biopsy_date())}); reports received {_d(report_date)}."
        ]
        for name, state in case.biomarkers.items():
            marker = spec.biomarkers[name]
            if state is None:
                out.append(
                    self.fact(
                        f"- {marker.display}: no result in the available record (not tested, or "
                        "report not received).",
                        f"biomarker:{name}",
                    )
                )
            else:
                st = marker.states[state]
                out.append(
                    self.fact(
                        f"- {marker.display}: {st.label} ({st.detail}). Method: {marker.method}.",
                        f"biomarker:{name}",
                    )
                )
        if self.length.lab_panels > 1:
            out.append(
                "Assay notes: DNA input 50 ng, mean unique coverage 612x; tumor content "
                "estimated at 40% by the reviewing pathologist. Germline variants are "
                "not reported by this somatic assay."
            )
        return "\n".join(out)

    def imaging(self) -> str:
        case, spec = self.case, self.spec
        rng = self.rng("imaging")
        size = round(rng.uniform(1.8, 5.2), 1)
        out = [
            f"[{_d(case.diagnosis_date - dt.timedelta(days=6))}] {spec.local_imaging}: primary "
            f"lesion at the {case.site}, {size} cm in greatest dimension; regional findings "
            f"consistent with {case.n}.",
            f"[{_d(case.diagnosis_date + dt.timedelta(days=9))}] {spec.staging_imaging}: "
            + self.staging_finding(),
        ]
        if case.surgery is not None:
            date = case.surgery.date + dt.timedelta(days=21)
            out.append(
                self.fact(
                    f"[{_d(date)}] {spec.local_imaging} (post-operative): expected "
                    "post-surgical changes at the resection site, no residual mass.",
                    "surgery",
                )
            )
        for line in case.lines:
            regimen = self.data.regimens[line.regimen]
            n_scans = max(1, (line.cycles * regimen.cycle_days) // 63)
            for k in range(n_scans):
                date = line.start + dt.timedelta(days=63 * (k + 1) - 3)
                last = k == n_scans - 1
                if last and line.status == "progressed":
                    text = (
                        f"[{_d(date)}] {spec.staging_imaging} (restaging): new lesions and "
                        "enlargement of known metastases (sum of diameters +28% from "
                        "nadir); impression: progressive disease by RECIST 1.1."
                    )
                    out.append(self.fact(text, "line_status", "lines"))
                else:
                    text = (
                        f"[{_d(date)}] {spec.staging_imaging} (restaging on {regimen.name}): "
                        f"{line.best_response} by RECIST 1.1, no new lesions."
                    )
                    out.append(self.fact(text, "lines"))
        for k in range(self.length.serial_imaging):
            r = self.rng(f"oldimaging:{k}")
            date = case.diagnosis_date - dt.timedelta(days=200 + 170 * k + r.randint(0, 40))
            out.append(
                r.choice(
                    [
                        f"[{_d(date)}] Chest radiograph, PA and lateral: no focal consolidation, effusion "
                        "or pneumothorax; normal cardiomediastinal silhouette; mild degenerative changes "
                        "of the thoracic spine.",
                        f"[{_d(date)}] Transthoracic echocardiogram: normal left ventricular size and "
                        f"function, LVEF {r.randint(57, 66)}%; no significant valvular disease; estimated "
                        "RV systolic pressure 28 mmHg.",
                        f"[{_d(date)}] DXA scan: lumbar spine T-score {round(r.uniform(-1.9, 0.4), 1)}, "
                        f"femoral neck T-score {round(r.uniform(-2.0, 0.2), 1)}.",
                        f"[{_d(date)}] Ultrasound abdomen (right upper quadrant): mild hepatic steatosis; "
                        "gallbladder without stones; common bile duct 4 mm; no focal hepatic lesion.",
                    ]
                )
            )
        return "\n".join(out)

    def procedures(self) -> str:
        case, spec = self.case, self.spec
        out = [
            f"[{_d(self.biopsy_date())}] {spec.biopsy}; moderate sedation, no complications; "
            "estimated blood loss minimal."
        ]
        surgery = case.surgery
        if surgery is not None:
            out.append(
                self.fact(
                    f"[{_d(surgery.date)}] Operative note: {surgery.procedure} (curative intent). "
                    f"Findings: tumor resected en bloc with grossly negative margins; "
                    f"{surgery.nodes_examined} lymph nodes harvested. Estimated blood loss 150 mL. "
                    "No intraoperative complications; discharged on post-operative day 3.",
                    "surgery",
                )
            )
        else:
            out.append(self.fact("No cancer-directed surgery has been performed.", "surgery"))
        if case.lines and any("chemotherapy" in self.data.regimens[x.regimen].classes for x in case.lines):
            start = case.lines[0].start - dt.timedelta(days=4)
            out.append(
                self.fact(
                    f"[{_d(start)}] Right internal jugular single-lumen implanted "
                    "port placed under ultrasound and fluoroscopic guidance; tip at "
                    "the cavoatrial junction.",
                    "lines",
                )
            )
        if self.length.primary_care_notes > 2:
            r = self.rng("screening_procedure")
            date = case.diagnosis_date - dt.timedelta(days=900 + r.randint(0, 300))
            out.append(
                f"[{_d(date)}] Screening colonoscopy: two 4 mm tubular adenomas removed "
                "with cold snare; good bowel preparation; repeat in 7 years."
            )
        return "\n".join(out)

    def treatment_history(self) -> str:
        case = self.case
        if not case.lines:
            return self.fact(
                "No prior systemic anticancer therapy. No prior radiotherapy.", "lines", "line_status"
            )
        out = []
        for line in case.lines:
            regimen = self.data.regimens[line.regimen]
            out.append(self.line_phrase(line) + ".")
            out.append("  Components: " + "; ".join(regimen.components) + ".")
            if self.length.administration_log:
                for c in range(line.cycles):
                    r = self.rng(f"admin:{line.line}:{c}")
                    date = line.start + dt.timedelta(days=c * regimen.cycle_days)
                    out.append(
                        self.fact(
                            f"  Cycle {c + 1} ({_d(date)}): administered at 100% dose; pre-treatment "
                            f"ANC {round(r.uniform(1.8, 5.9), 1)} x10^9/L, platelets "
                            f"{r.randint(150, 390)} x10^9/L; adverse events: "
                            + r.choice(
                                [
                                    "none",
                                    "grade 1 fatigue",
                                    "grade 1 nausea",
                                    "grade 1 diarrhea",
                                    "grade 2 fatigue",
                                ]
                            )
                            + ".",
                            "lines",
                        )
                    )
        out.append("No prior radiotherapy.")
        return "\n".join(out)

    def medications(self) -> str:
        case, bg = self.case, self.data.background
        out = ["Current medications:"]
        for c in bg.comorbidities:
            if c.id in case.comorbidities:
                out += [f"- {med}" for med in c.meds]
        active = [line for line in case.lines if line.status == "ongoing"]
        if active:
            regimen = self.data.regimens[active[-1].regimen]
            for component in regimen.components:
                out.append(
                    "- " + self.fact(f"{component} (active anticancer therapy)", "lines", "line_status")
                )
            if "chemotherapy" in regimen.classes:
                out.append(
                    "- "
                    + self.fact(
                        "ondansetron 8 mg PO every 8 hours as needed for "
                        "nausea (supportive, with current chemotherapy)",
                        "lines",
                        "line_status",
                    )
                )
        else:
            out.append("- " + self.fact("no active anticancer therapy", "lines", "line_status"))
        out.append(f"Allergies: {bg.allergies[case.allergy]}")
        for k in range(self.length.med_reconciliations):
            r = self.rng(f"medrec:{k}")
            date = case.diagnosis_date - dt.timedelta(days=120 + 90 * k + r.randint(0, 30))
            out.append(
                f"[{_d(date)}] Medication reconciliation (pharmacy): list reviewed with "
                "the patient and the dispensing history; no discrepancies; "
                + r.choice(
                    [
                        "adherence confirmed by refill history.",
                        "pill organizer in use; adherence good.",
                        "patient brought all bottles to the visit.",
                        "over-the-counter ibuprofen use discouraged.",
                    ]
                )
            )
        return "\n".join(out)

    def labs(self) -> str:
        case = self.case
        out = []
        dates = [self.board_date() - dt.timedelta(days=2 + 21 * k) for k in range(self.length.lab_panels)]
        dates += [
            case.diagnosis_date - dt.timedelta(days=180 + 180 * k)
            for k in range(self.length.prior_lab_panels)
        ]
        markers_elevated = case.m == "M1"
        for k, date in enumerate(sorted(dates, reverse=True)):
            r = self.rng(f"labs:{k}")
            prior = date < case.diagnosis_date
            lines = [
                f"[{_d(date)}] Complete blood count: WBC {round(r.uniform(4.1, 9.8), 1)} x10^9/L, "
                f"ANC {round(r.uniform(2.0, 6.5), 1)} x10^9/L, hemoglobin "
                f"{round(r.uniform(10.9, 14.6), 1)} g/dL, platelets {r.randint(165, 410)} x10^9/L.",
                f"[{_d(date)}] Comprehensive metabolic panel: sodium {r.randint(136, 144)} mmol/L, "
                f"potassium {round(r.uniform(3.7, 4.9), 1)} mmol/L, creatinine "
                f"{round(r.uniform(0.6, 1.15), 2)} mg/dL (eGFR {r.randint(68, 104)} "
                f"mL/min/1.73m2), AST {r.randint(14, 38)} U/L, ALT {r.randint(11, 41)} U/L, "
                f"alkaline phosphatase {r.randint(55, 128)} U/L, total bilirubin "
                f"{round(r.uniform(0.3, 1.1), 1)} mg/dL, albumin {round(r.uniform(3.5, 4.6), 1)} "
                "g/dL, calcium 9.4 mg/dL.",
            ]
            if not prior:
                markers = []
                for marker in self.spec.tumor_markers:
                    low, high = marker.normal
                    value = r.uniform(low, high * 0.9)
                    if markers_elevated:
                        value = high * r.uniform(2.5, 9.0)
                    markers.append(
                        f"{marker.name} {round(value, 1)} {marker.unit} (reference {low:g}-{high:g})"
                    )
                lines.append(f"[{_d(date)}] Tumor markers: " + "; ".join(markers) + ".")
            else:
                lines.append(
                    f"[{_d(date)}] Lipid panel: LDL {r.randint(70, 150)} mg/dL, HDL "
                    f"{r.randint(38, 72)} mg/dL, triglycerides {r.randint(80, 210)} mg/dL. "
                    f"HbA1c {round(r.uniform(5.4, 7.6), 1)}%."
                )
            out.extend(lines)
        return "\n".join(out)

    def tumor_board_question(self) -> str:
        case = self.case
        return (
            f"Multidisciplinary tumor board, {_d(self.board_date())}.\n"
            f"Patient: {case.age}-year-old {self.person}, ECOG {case.ecog}, weight "
            f"{case.weight_kg} kg.\n"
            f"Diagnosis: {self.summary()}.\n"
            "Question: what is the recommended next management step for this patient? Please "
            "give the specific treatment (regimen, sequencing and any further testing or "
            "referrals needed before treatment)."
        )

    def render(self) -> dict[str, str]:
        sections = {name: getattr(self, name)() for name in SECTION_NAMES}
        return sections


def render_sections(case: Case, chart_length: str = "short", data: CssData | None = None) -> dict[str, str]:
    """The ten sections (name -> text) of ``case``'s chart."""
    return ChartRenderer(case, chart_length, data).render()


def render_chart(sections: dict[str, str]) -> str:
    """All sections as one document with titled headers (the prompt form of a chart)."""
    parts = []
    for name in SECTION_NAMES:
        parts.append(f"## {SECTION_TITLES[name]}\n{sections[name]}")
    return "\n\n".join(parts)
