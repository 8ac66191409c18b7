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
from escbench_inspect.css.generator import restaging_grid, rng_for
from escbench_inspect.css.patient import PatientState
from escbench_inspect.css.schema import Case, TreatmentLine
from escbench_inspect.css.staging import Tnm, case_tnm, depth_text, main_n


@dataclass(frozen=True)
class LengthSpec:
    """How many documents of each kind a chart carries."""

    primary_care_notes: int
    oncology_notes: int  # 0: none; else consultation, pre-board review and cycles 1..N (+ peri-operative)
    lab_panels: int
    prior_lab_panels: int
    serial_imaging: int
    administration_log: bool
    med_reconciliations: int


CHART_LENGTHS: dict[str, LengthSpec] = {
    "short": LengthSpec(0, 0, 1, 0, 0, False, 0),
    "medium": LengthSpec(4, 1, 3, 2, 2, False, 2),
    "long": LengthSpec(22, 6, 10, 8, 6, True, 8),
    "xlong": LengthSpec(48, 99, 22, 16, 12, True, 16),
}


IUPD_DAYS_BEFORE_CONFIRMATION = 35
PC_ROLES = (
    "pc_wellbeing",
    "pc_ros",
    "pc_adherence",
    "pc_exam",
    "pc_prevention",
    "pc_interval",
    "pc_labs_next",
    "pc_exercise",
    "pc_acute",
)


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
        self.state = PatientState(case, self.data)

    # ------------------------------------------------------------------ helpers
    def fact(self, text: str, *keys: str) -> str:
        for key in keys:
            self.facts[key].add(text)
        return text

    def rng(self, purpose: str) -> random.Random:
        return rng_for(self.case.case_id, purpose)

    def phrase(self, role: str, rng: random.Random | None = None, **fields: Any) -> str:
        """One of a sentence role's phrasings (``background.yaml``): chosen per case by the seed, or
        per document with ``rng`` (a date-seeded stream, so both arms of a tuple share it)."""
        variants = self.data.background.phrasings[role]
        chooser = rng or self.rng(f"phrase:{role}")
        return variants[chooser.randrange(len(variants))].format(**fields)

    def date_rng(self, purpose: str, date: dt.date) -> random.Random:
        """A stream seeded by the case, the purpose and a date: documents keyed by their own date."""
        return rng_for(self.case.case_id, f"{purpose}:{date.isoformat()}")

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
        """Scheduled restaging scans (every 9 weeks) before the progression scan (or the board)."""
        if line.progression_scan is not None:
            first_progression = self.unconfirmed_progression(line) or line.progression_scan
            return [d for d in restaging_grid(line.start, line.progression_scan) if d < first_progression]
        return restaging_grid(line.start, self.board_date() - dt.timedelta(days=3))

    def unconfirmed_progression(self, line: TreatmentLine) -> dt.date | None:
        """For an immune checkpoint inhibitor, the scan that first showed progression (iUPD), 5 weeks
        before the confirming scan (iCPD): iRECIST asks for confirmation 4-8 weeks later."""
        if line.progression_scan is None or "pd1_inhibitor" not in self.data.regimens[line.regimen].classes:
            return None
        return line.progression_scan - dt.timedelta(days=IUPD_DAYS_BEFORE_CONFIRMATION)

    def line_as_of(self, line: TreatmentLine, as_of: dt.date) -> str:
        """What a note dated ``as_of`` knows about a line that had started by then."""
        if line.end is not None and line.end <= as_of:
            return self.line_phrase(line)
        regimen = self.data.regimens[line.regimen]
        given = sum(1 for d in self.cycle_dates(line) if d <= as_of)
        text = f"on {regimen.name} since {_d(line.start)}, cycle {given} given by this visit"
        unconfirmed = self.unconfirmed_progression(line)
        if line.progression_scan is not None and line.progression_scan <= as_of:
            text += f"; restaging on {_d(line.progression_scan)} shows progression, regimen to be stopped"
        elif unconfirmed is not None and unconfirmed <= as_of:
            text += (
                f"; restaging on {_d(unconfirmed)} shows unconfirmed progression (iUPD), treatment continued "
                "pending confirmatory imaging"
            )
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
        out = ["Past medical history:"]
        out += [f"- {name}" for name in self.comorbidity_names()]
        out.append(f"- Oncologic: {self.summary()}")
        out.append("Past surgical history:")
        r = self.rng("psh")
        if r.random() < 0.5 or case.age < 40:
            out.append(f"- laparoscopic appendectomy (age {r.randint(12, 28)})")
        else:
            out.append(f"- right inguinal hernia repair with mesh (age {r.randint(35, case.age - 3)})")
        if case.surgery is not None:
            out.append("- " + self.fact(f"{case.surgery.procedure} on {_d(case.surgery.date)}", "surgery"))
        out.append(f"Social history: {self.state.social_history()}")
        out.append(f"Family history: {bg.family_history[case.family_history].text}")
        out.append(f"Allergies: {bg.allergies[case.allergy]}")
        notes = self.primary_care_notes()
        if notes:
            out.append("")
            out.append("Prior clinic notes (before the cancer diagnosis):")
            out.extend(notes)
        return "\n".join(out)

    def comorbidity_names(self) -> list[str]:
        bg = self.data.background
        score = self.state.cha2ds2_vasc
        return [
            c.name.format(cha2ds2_vasc=score) for c in bg.comorbidities if c.id in self.case.comorbidities
        ]

    def primary_care_notes(self) -> list[str]:
        """Pre-diagnosis visits on each kind's stated cadence (``PatientState.primary_care_visits``)."""
        case, bg = self.case, self.data.background
        comorbid = [c for c in bg.comorbidities if c.id in case.comorbidities]
        problem_names = "; ".join(self.comorbidity_names())
        meds = ", ".join(med.split(" ")[0] for c in comorbid for med in c.meds)
        notes = []
        for date, index in self.state.primary_care_visits(self.length.primary_care_notes):
            kind = bg.note_kinds[index]
            values = self.state.vitals(date)
            plans = " ".join(c.plan.format(**values) for c in comorbid)
            rng = self.date_rng("pcnote", date)  # pc_* sentence roles, chosen per note date
            for role in PC_ROLES:
                if "{" + role + "}" in kind.template:
                    values[role] = self.phrase(role, rng, **values)
            body = kind.template.format(
                meds=meds,
                age=self.state.age_on(date),
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
        """Dated oncology visits (and the fact keys they depend on) that this chart length documents.

        Whether a visit is documented depends only on the visit itself (its kind and cycle number),
        never on how many other visits there are, so a mutation adds or removes only the visits of
        the facts it changes."""
        case, count = self.case, self.length.oncology_notes
        if count == 0:
            return []
        events: list[tuple[dt.date, str, tuple[str, ...]]] = [
            (case.diagnosis_date + dt.timedelta(days=12), "New patient consultation", ())
        ]
        if case.surgery is not None and count > 1:
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
            for c in range(min(line.cycles, count)):
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
        notes = []
        for date, reason, keys in self._visit_events():
            rng = self.date_rng("oncnote", date)
            vitals = self.state.vitals(date)
            symptom = self.phrase("onc_symptoms", rng)
            interval = self.interval_history(reason)
            heading = (
                self.fact(f"[{_d(date)}] Medical oncology - {reason}", *keys)
                if keys
                else f"[{_d(date)}] Medical oncology - {reason}"
            )
            plan = self.phrase("onc_plan_treatment" if reason.startswith("Cycle") else "onc_plan", rng)
            notes.append(
                f"{heading}\n"
                f"Interval history: {interval} {symptom}\n"
                f"Vitals: BP {vitals['bp']} mmHg, HR {vitals['hr']}/min, SpO2 "
                f"{vitals['spo2']}% on room air, weight {vitals['weight']} kg.\n"
                f"Examination: ECOG {self.case.ecog}. {self.phrase('onc_exam')}\n"
                f"Assessment: {self.summary(date)}.\n"
                f"Plan: {plan}"
            )
        return notes

    def interval_history(self, reason: str) -> str:
        if reason.startswith("Cycle 1 "):
            return self.fact(self.phrase("interval_cycle1"), "lines")
        if reason.startswith("Cycle"):
            return self.fact(self.phrase("interval_cycle"), "lines")
        if reason.startswith("Post-operative"):
            return self.fact(self.phrase("interval_postop"), "surgery")
        if reason.startswith("Pre-operative"):
            return self.fact(self.phrase("interval_preop"), "surgery")
        return self.phrase("interval_review")

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
            ipsi = "L" if case.side == "left" else "R"
            nodal_biopsy = nodal_biopsy.format(ipsi=ipsi, contra="R" if ipsi == "L" else "L")
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
        sequenced = [
            name
            for name in case.biomarkers
            if "sequencing" in spec.biomarkers[name].method and case.biomarker_on(name, self.biopsy_date())
        ]
        if self.length.lab_panels > 1 and sequenced:  # assay notes only beside a sequencing result
            r = self.rng("assay")
            out.append(
                self.fact(
                    f"Assay notes: DNA input {r.randint(30, 80)} ng, mean unique coverage "
                    f"{r.randint(450, 900)}x; "
                    f"tumor content estimated at {r.choice([30, 40, 50, 60])}% by the reviewing pathologist. "
                    "Germline variants are not reported by this somatic assay.",
                    *(f"biomarker:{name}" for name in sequenced),
                )
            )
        return "\n".join(out)

    def imaging(self) -> str:
        case, spec = self.case, self.spec
        local_date = case.diagnosis_date - dt.timedelta(days=spec.local_imaging_days_before_biopsy)
        local = f"[{_d(local_date)}] {spec.local_imaging}: "
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
            unconfirmed = self.unconfirmed_progression(line)
            if unconfirmed is not None:
                text = (
                    f"[{_d(unconfirmed)}] {spec.staging_imaging} (restaging on {regimen.name}): new "
                    "sub-centimetre lesions and enlargement of known metastases (sum of diameters +22% from "
                    "nadir); impression: unconfirmed progression (iUPD per iRECIST); clinically stable, "
                    "treatment continued with confirmatory imaging in 4-6 weeks."
                )
                out.append(self.fact(text, "line_status", "lines"))
            if line.progression_scan is not None:
                confirmed = (
                    f"; further growth since the scan of {_d(unconfirmed)}: confirmed progression (iCPD per "
                    "iRECIST)"
                    if unconfirmed is not None
                    else ""
                )
                text = (
                    f"[{_d(line.progression_scan)}] {spec.staging_imaging} (restaging on {regimen.name}): "
                    "new lesions and enlargement of known metastases (sum of diameters +28% from "
                    f"nadir){confirmed}; impression: progressive disease by RECIST 1.1."
                )
                out.append(self.fact(text, "line_status", "lines"))
        for k in range(self.length.serial_imaging):
            r = self.rng(f"oldimaging:{k}")
            date = case.diagnosis_date - dt.timedelta(days=200 + 170 * k + r.randint(0, 40))
            state = self.state
            out.append(
                r.choice(
                    [
                        f"[{_d(date)}] Chest radiograph, PA and lateral: no focal consolidation, effusion "
                        "or pneumothorax; normal cardiomediastinal silhouette; mild degenerative changes "
                        "of the thoracic spine.",
                        f"[{_d(date)}] Transthoracic echocardiogram: normal left ventricular size and "
                        f"function, LVEF {r.randint(57, 66)}%; no significant valvular disease; estimated "
                        "RV systolic pressure 28 mmHg.",
                        f"[{_d(date)}] DXA scan: lumbar spine T-score {state.spine_t}, femoral neck "
                        f"T-score {state.femoral_neck_t}.",
                        f"[{_d(date)}] Ultrasound abdomen (right upper quadrant): mild hepatic steatosis; "
                        "gallbladder without stones; common bile duct 4 mm; no focal hepatic lesion.",
                    ]
                )
            )
        return "\n".join(out)

    def procedures(self) -> str:
        case, spec = self.case, self.spec
        surgery = case.surgery
        out = [] if surgery is not None else [self.fact(self.spec.no_surgery_note, "surgery")]
        out.append(
            f"[{_d(self.biopsy_date())}] {spec.biopsy}; moderate sedation, no complications; "
            "estimated blood loss minimal."
        )
        if surgery is not None:
            operation = self.data.background.operation(surgery.procedure)
            r = self.rng("operation")
            stay = r.randint(*operation.stay_days) if operation else 3
            blood_loss = 10 * (r.randint(*operation.blood_loss_ml) // 10) if operation else 150
            discharge = "discharged the same day" if stay == 0 else f"discharged on post-operative day {stay}"
            out.append(
                self.fact(
                    f"[{_d(surgery.date)}] Operative note: {surgery.procedure} (curative intent). "
                    f"Findings: tumor resected en bloc with grossly negative margins; "
                    f"{surgery.nodes_examined} lymph nodes harvested. Estimated blood loss {blood_loss} mL. "
                    f"No intraoperative complications; {discharge}.",
                    "surgery",
                )
            )
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
        rebiopsy = case.rebiopsy
        if rebiopsy is not None:
            out.append(
                self.fact(
                    f"[{_d(rebiopsy.date)}] Image-guided core needle biopsy of the {rebiopsy.site} "
                    "metastasis (18-gauge, four cores) for receptor re-testing at progression; "
                    "local anesthesia, no complications.",
                    *self.biomarker_keys(),
                )
            )
        if self.length.primary_care_notes > 2 and case.cancer != "colorectal":
            r = self.rng("screening_procedure")
            date = case.diagnosis_date - dt.timedelta(days=900 + r.randint(0, 300))
            if 45 <= self.state.age_on(date) <= 75:  # USPSTF average-risk screening ages
                out.append(
                    f"[{_d(date)}] Screening colonoscopy: two 4 mm tubular adenomas removed "
                    "with cold snare; good bowel preparation; repeat in 7 years."
                )
        return "\n".join(out)

    def treatment_history(self) -> str:
        case = self.case
        if not case.lines:
            return self.fact("No prior systemic anticancer therapy.", "lines", "line_status") + (
                "\nNo prior radiotherapy."
            )
        out = []
        for line in case.lines:
            regimen = self.data.regimens[line.regimen]
            out.append(self.line_phrase(line) + ".")
            out.append(self.fact("  Components: " + "; ".join(regimen.components) + ".", "lines"))
            if self.length.administration_log:
                for c, date in enumerate(self.cycle_dates(line)):
                    r = self.date_rng("admin", date)
                    cbc = self.state.blood_count(date)
                    out.append(
                        self.fact(
                            f"  Cycle {c + 1} ({_d(date)}): administered at 100% dose; pre-treatment "
                            f"ANC {cbc.neutrophils} x10^9/L, platelets {cbc.platelets} x10^9/L; adverse "
                            "events: "
                            + r.choice(
                                [
                                    "none",
                                    "grade 1 fatigue",
                                    "grade 1 nausea",
                                    "grade 1 diarrhea",
                                    "grade 2 fatigue",
                                ]
                                if c
                                else ["none (first cycle)"]
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

    def lab_dates(self) -> list[tuple[dt.date, str]]:
        """(date, kind) of every panel: routine panels before the diagnosis (anchored on it), the
        consultation, the first post-operative day, each cycle's day 1 (cycle 1 at every length, every
        cycle with an administration log) and two days before the board. Each panel exists because of
        its own event, so a mutation adds or removes only the panels of the events it changes."""
        case, length = self.case, self.length
        dates: dict[dt.date, str] = {}
        for k in range(length.prior_lab_panels):
            dates[case.diagnosis_date - dt.timedelta(days=180 * (k + 1))] = "routine"
        if length.lab_panels >= 2:
            dates[case.diagnosis_date + dt.timedelta(days=12)] = "markers"
        if case.surgery is not None and length.lab_panels >= 3:
            dates[case.surgery.date + dt.timedelta(days=1)] = "postop"
        for line in case.lines:
            cycles = self.cycle_dates(line) if length.administration_log else self.cycle_dates(line)[:1]
            for day1 in cycles:
                dates.setdefault(day1, "cycle")
        dates[self.board_date() - dt.timedelta(days=2)] = "markers"
        return sorted(dates.items(), reverse=True)

    def blood_count_text(self, date: dt.date) -> str:
        cbc = self.state.blood_count(date)
        return (
            f"[{_d(date)}] Complete blood count: WBC {cbc.wbc} x10^9/L (ANC {cbc.neutrophils}, lymphocytes "
            f"{cbc.lymphocytes}, monocytes {cbc.monocytes}, eosinophils {cbc.eosinophils}, basophils "
            f"{cbc.basophils}), hemoglobin {cbc.hemoglobin} g/dL, platelets {cbc.platelets} x10^9/L."
        )

    def labs(self) -> str:
        out = []
        for date, kind in self.lab_dates():
            chem = self.state.chemistry(date)
            lines = [
                self.blood_count_text(date),
                f"[{_d(date)}] Comprehensive metabolic panel: sodium {chem['sodium']} mmol/L, "
                f"potassium {chem['potassium']} mmol/L, creatinine {chem['creatinine']} mg/dL (eGFR "
                f"{chem['egfr']} mL/min/1.73m2, CKD-EPI 2021), AST {chem['ast']} U/L, ALT {chem['alt']} U/L, "
                f"alkaline phosphatase {chem['alp']} U/L, total bilirubin {chem['bilirubin']} mg/dL, "
                f"albumin {chem['albumin']} g/dL, calcium {chem['calcium']} mg/dL.",
            ]
            if kind == "markers":
                markers = []
                for index, marker in enumerate(self.spec.tumor_markers):
                    low, high = marker.normal
                    value = self.state.tumor_marker(date, low, high, self.case.m == "M1", index)
                    markers.append(
                        f"{marker.name} {round(value, 1)} {marker.unit} (reference {low:g}-{high:g})"
                    )
                lines.append(
                    self.fact(
                        f"[{_d(date)}] Tumor markers: " + "; ".join(markers) + ".",
                        "stage",
                        "metastatic_sites",
                    )
                )
            elif kind == "routine":
                lipids = self.state.lipids(date)
                lines.append(
                    f"[{_d(date)}] Lipid panel: LDL {lipids['ldl']} mg/dL, HDL {lipids['hdl']} mg/dL, "
                    f"triglycerides {lipids['tg']} mg/dL. HbA1c {self.state.hba1c(date)}%."
                )
            out.extend(lines)
        return "\n".join(out)

    def tumor_board_question(self) -> str:
        case = self.case
        # the board date follows the last event (operation, cycles, discontinuation)
        return (
            self.fact(
                f"Multidisciplinary tumor board, {_d(self.board_date())}.", "surgery", "lines", "line_status"
            )
            + "\n"
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
