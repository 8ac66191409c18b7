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
from escbench_inspect.css.staging import Tnm, case_tnm, depth_text, main_n


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


def fact_values(case: Case) -> dict[str, Any]:
    """The values of the mutable fact keys (used to find which keys a mutation changed)."""
    values: dict[str, Any] = {
        "stage": (case.primary, case.nodes, case.m),
        "metastatic_sites": case.metastatic_sites,
        "surgery": case.surgery.model_dump() if case.surgery else None,
        "lines": tuple((x.setting, x.line, x.regimen, x.start, x.cycles) for x in case.lines),
        "line_status": tuple((x.status, x.best_response, x.end, x.progression_scan) for x in case.lines),
        "rebiopsy": case.rebiopsy.model_dump() if case.rebiopsy else None,
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

    def tnm(self, as_of: dt.date | None = None) -> Tnm:
        """The stage as known on ``as_of`` (clinical until the resection, pathologic after)."""
        case = self.case
        if case.surgery is not None and as_of is not None and as_of < case.surgery.date:
            case = case.model_copy(update={"surgery": None})
        return case_tnm(case, self.data)

    def resected_by(self, as_of: dt.date | None) -> bool:
        surgery = self.case.surgery
        return surgery is not None and (as_of is None or surgery.date <= as_of)

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

    def stage_text(self, as_of: dt.date | None = None) -> str:
        case, tnm = self.case, self.tnm(as_of)
        prefix = "p" if tnm.basis == "pathologic" else "c"
        t_prefix = self.data.staging[case.cancer].clinical_t_prefix if prefix == "c" else "p"
        if case.m == "M1":
            text = (
                f"{t_prefix}{tnm.t} c{tnm.n} cM1, stage {tnm.group} with distant metastases to "
                f"{_join(list(case.metastatic_sites))}"
            )
            return self.fact(text, "stage", "metastatic_sites", "surgery")
        if prefix == "p":
            text = f"p{tnm.t} p{tnm.n} cM0 (pathologic stage {tnm.group})"
        else:
            text = f"{t_prefix}{tnm.t} c{tnm.n} cM0 (clinical stage {tnm.group}), no distant metastases"
        return self.fact(text, "stage", "metastatic_sites", "surgery")

    def state_label(self, name: str) -> str:
        state = self.case.biomarkers[name]
        return self.spec.biomarkers[name].states[state].label if state else "no result"

    def biomarker_summary(self, as_of: dt.date | None = None) -> str:
        case, rebiopsy = self.case, self.case.rebiopsy
        parts = []
        for name in case.biomarkers:
            marker = self.spec.biomarkers[name]
            state = case.biomarker_on(name, as_of) if as_of is not None else case.biomarkers[name]
            if state is None:
                parts.append(f"{marker.display} result not available")
                continue
            label = marker.states[state].label
            if rebiopsy is not None and name in rebiopsy.diagnostic and state != rebiopsy.diagnostic[name]:
                old = marker.states[rebiopsy.diagnostic[name]].label
                where = f"{rebiopsy.site} metastasis ({_d(rebiopsy.date)}"
                label += f" on re-biopsy of the {where}; {old} at diagnosis)"
            parts.append(label)
        return self.fact(", ".join(parts), *self.biomarker_keys())

    def surgery_status(self, as_of: dt.date | None = None) -> str:
        surgery = self.case.surgery
        if surgery is None:
            text = self.spec.unresected_status
        elif not self.resected_by(as_of):
            text = "curative resection planned, not yet performed"
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

    def cycle_dates(self, line: TreatmentLine) -> list[dt.date]:
        days = self.data.regimens[line.regimen].cycle_days
        return [line.start + dt.timedelta(days=c * days) for c in range(line.cycles)]

    def restaging_dates(self, line: TreatmentLine) -> list[dt.date]:
        """Interim restaging scans every 9 weeks, before the progression scan (or the board)."""
        limit = (
            line.progression_scan - dt.timedelta(days=14)
            if line.progression_scan is not None
            else self.board_date() - dt.timedelta(days=3)
        )
        dates = []
        k = 1
        while line.start + dt.timedelta(days=63 * k - 3) <= limit:
            dates.append(line.start + dt.timedelta(days=63 * k - 3))
            k += 1
        if not dates:  # a response needs at least one restaging scan
            dates.append(line.start + (limit - line.start) // 2 + dt.timedelta(days=1))
        return dates

    def line_as_of(self, line: TreatmentLine, as_of: dt.date) -> str:
        """What a note dated ``as_of`` knows about a line that had started by then."""
        if line.end is not None and line.end <= as_of:
            return self.line_phrase(line)
        regimen = self.data.regimens[line.regimen]
        given = sum(1 for d in self.cycle_dates(line) if d <= as_of)
        text = f"on {regimen.name} since {_d(line.start)}, cycle {given} given by this visit"
        if line.progression_scan is not None and line.progression_scan <= as_of:
            text += f"; restaging on {_d(line.progression_scan)} shows progression, regimen to be stopped"
        elif any(d <= as_of for d in self.restaging_dates(line)):
            text += f"; restaging shows {line.best_response}"
        return self.fact(text, "lines", "line_status")

    def treatment_status(self, as_of: dt.date | None = None) -> str:
        met = [line for line in self.case.lines if line.setting == "metastatic"]
        if as_of is not None:
            started = [line for line in met if line.start <= as_of]
            if not started:
                return self.fact("systemic therapy not yet started", "lines", "line_status")
            return "; ".join(self.line_as_of(line, as_of) for line in started)
        if not met:
            return self.fact("no prior systemic therapy", "lines", "line_status")
        return "; ".join(self.line_phrase(line) for line in met)

    def summary(self, as_of: dt.date | None = None) -> str:
        """One-line oncologic summary, repeated (as in real charts) across notes; a dated note's
        summary states only what was known on its date (``as_of``)."""
        case = self.case
        return (
            f"{case.histology} (primary site: {case.site}), {self.stage_text(as_of)}; "
            f"{self.biomarker_summary(as_of)}; {self.surgery_status(as_of)}; "
            f"{self.treatment_status(as_of)}"
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
                f"Assessment: {self.summary(date)}.\n"
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

    def nodal_imaging(self) -> str:
        """Work-up finding on the regional nodes (the clinical N is computed from it)."""
        nodes, text = self.case.nodes, self.spec.nodal_text
        if nodes.involved == 0:
            return self.fact(f"regional lymph nodes: none involved - {text.imaging_none}", "stage")
        station = f" ({nodes.station})" if nodes.station else ""
        words = "lymph node" if nodes.involved == 1 else "lymph nodes"
        detail = text.imaging_involved.format(nodes=words, station=nodes.station or "")
        return self.fact(f"regional lymph nodes: {nodes.involved} involved{station} - {detail}", "stage")

    def primary_measurement(self) -> str:
        """Breslow thickness and ulceration (melanoma) or depth of invasion (colon, stomach)."""
        primary, table = self.case.primary, self.data.staging[self.case.cancer]
        if table.t.basis == "breslow":
            ulceration = "present" if primary.ulceration else "absent"
            return self.fact(f"Breslow thickness {primary.breslow_mm} mm, ulceration {ulceration}", "stage")
        if table.t.basis == "depth" and primary.depth is not None:
            return self.fact(f"tumor {depth_text(table, primary.depth)}", "stage")
        return ""

    def pathology(self) -> str:
        case, spec = self.case, self.spec
        table = self.data.staging[case.cancer]
        diagnosis = f"Diagnosis: {case.histology}"
        if table.t.basis == "breslow":  # the excisional biopsy gives the microstaging
            diagnosis += f"; {self.primary_measurement()} (microstaging of the excisional biopsy)"
        out = [
            f"Specimen A ({_d(self.biopsy_date())}): {spec.biopsy}.",
            diagnosis + ".",
            "Microscopic: " + spec.microscopic,
        ]
        nodal_biopsy = spec.nodal_text.biopsy.get(main_n(self.tnm(self.biopsy_date()).n))
        if nodal_biopsy:
            out.append(self.fact(nodal_biopsy, "stage"))
        receptors = [name for name in ("er", "pr", "her2") if name in case.biomarkers]
        for name in receptors:
            marker = spec.biomarkers[name]
            state = case.biomarker_on(name, self.biopsy_date())
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
        rebiopsy = case.rebiopsy
        if rebiopsy is not None:
            results = "; ".join(
                f"{spec.biomarkers[name].display}: {self.state_label(name)}" for name in rebiopsy.diagnostic
            )
            out.append(
                self.fact(
                    f"Specimen C ({_d(rebiopsy.date)}): core biopsy of the {rebiopsy.site} metastasis: "
                    f"metastatic carcinoma consistent with the known primary; {results} (receptor conversion "
                    "from the diagnostic biopsy).",
                    *self.biomarker_keys(),
                )
            )
        surgery = case.surgery
        if surgery is not None:
            rng = self.rng("surgical_pathology")
            tnm = self.tnm()
            if table.t.basis == "breslow":
                primary = (
                    "No residual melanoma at the wide excision site (scar only); primary "
                    + self.primary_measurement()
                    + " on the excisional biopsy"
                )
            else:
                primary = f"Invasive tumor size {case.primary.size_cm} cm"
                if table.t.basis == "depth":
                    primary += f", {self.primary_measurement()}"
            station = f" (highest involved station: {case.nodes.station})" if case.nodes.station else ""
            out.append("")
            out.append(
                self.fact(
                    f"Specimen B ({_d(surgery.date)}): {surgery.procedure}. {primary}; margins negative "
                    f"({surgery.margin}), closest margin {rng.randint(3, 14)} mm; lymph nodes "
                    f"{surgery.nodes_positive}/{surgery.nodes_examined} positive{station}; pathologic "
                    f"stage p{tnm.t} p{tnm.n} (AJCC 8th edition).",
                    "surgery",
                    "stage",
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
        for name in case.biomarkers:
            marker = spec.biomarkers[name]
            state = case.biomarker_on(name, self.biopsy_date())
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
        rebiopsy = case.rebiopsy
        if rebiopsy is not None:
            out.append(
                self.fact(
                    f"Specimen: core biopsy of the {rebiopsy.site} metastasis ({_d(rebiopsy.date)}), after "
                    "progression on first-line therapy; reports received the same week.",
                    *self.biomarker_keys(),
                )
            )
            for name in rebiopsy.diagnostic:
                marker, st = spec.biomarkers[name], spec.biomarkers[name].states[case.biomarkers[name] or ""]
                out.append(
                    self.fact(
                        f"- {marker.display} (re-biopsy): {st.label} ({st.detail}). Method: {marker.method}.",
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
        local = f"[{_d(case.diagnosis_date - dt.timedelta(days=6))}] {spec.local_imaging}: "
        if spec.imaging_shows_primary:
            measurement = self.primary_measurement()
            local += self.fact(
                f"primary lesion at the {case.site}, {case.primary.size_cm} cm in greatest dimension"
                + (f", {measurement}" if measurement else "")
                + "; ",
                "stage",
            )
        out = [
            local + self.nodal_imaging() + ".",
            f"[{_d(case.diagnosis_date + dt.timedelta(days=9))}] {spec.staging_imaging}: "
            + self.staging_finding(),
        ]
        if case.surgery is not None:
            date = case.surgery.date + dt.timedelta(days=21)
            out.append(
                self.fact(
                    f"[{_d(date)}] {spec.postoperative_imaging or spec.local_imaging} (post-operative): "
                    "expected post-surgical changes at the resection site, no residual mass.",
                    "surgery",
                )
            )
        for line in case.lines:
            regimen = self.data.regimens[line.regimen]
            for date in self.restaging_dates(line):
                text = (
                    f"[{_d(date)}] {spec.staging_imaging} (restaging on {regimen.name}): "
                    f"{line.best_response} by RECIST 1.1, no new lesions."
                )
                out.append(self.fact(text, "lines", "line_status"))
            if line.progression_scan is not None:
                text = (
                    f"[{_d(line.progression_scan)}] {spec.staging_imaging} (restaging on {regimen.name}): "
                    "new lesions and enlargement of known metastases (sum of diameters +28% from "
                    "nadir); impression: progressive disease by RECIST 1.1."
                )
                out.append(self.fact(text, "line_status", "lines"))
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
            out.append(self.fact(self.spec.no_surgery_note, "surgery"))
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
            prior = date < case.diagnosis_date - dt.timedelta(days=6)  # before the work-up: routine labs
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
