"""The latent patient state behind a chart's filler numbers: one physiology per patient and date.

Every lab value, vital sign and history detail the renderer prints comes from here, as a function
of the case (age, sex, comorbidities, the systemic therapy given by that date) and of the date
only, seeded by the case id and the date. So the same date always shows the same values (a cycle
log and the blood count drawn that morning agree), values drift slowly between dates, and a
mutation changes a value only where the fact it depends on changed (chemotherapy given before the
date, the metastatic status for tumor markers). Derived numbers are computed, not drawn: eGFR by
the CKD-EPI 2021 creatinine equation, the WBC as the sum of its differential, CHA2DS2-VASc from
the chart's own facts.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from functools import cache, cached_property

from escbench_inspect.css.data import CssData
from escbench_inspect.css.schema import Case, SocialTemplate

MYELOSUPPRESSIVE = ("chemotherapy", "cdk46_inhibitor")
# the visit calendar depends only on the case id, diagnosis date and count: computed once per process
_VISITS: dict[tuple[str, dt.date, int], list[tuple[dt.date, int]]] = {}


def ckd_epi_2021(creatinine_mg_dl: float, age: int, female: bool) -> float:
    """eGFR (mL/min/1.73 m2), CKD-EPI 2021 race-free creatinine equation (Inker et al., NEJM 2021)."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine_mg_dl / kappa
    egfr = 142 * min(ratio, 1.0) ** alpha * max(ratio, 1.0) ** -1.200 * 0.9938**age
    return egfr * (1.012 if female else 1.0)


def cha2ds2_vasc(age: int, female: bool, comorbidities: set[str]) -> int:
    """CHA2DS2-VASc from the facts a chart carries (no heart failure, stroke or vascular disease here)."""
    score = 2 if age >= 75 else 1 if age >= 65 else 0
    score += int(female) + int("hypertension" in comorbidities) + int("diabetes" in comorbidities)
    return score


@cache
def _birthday_offset(case_id: str) -> int:
    return random.Random(f"escbench-css-state:{case_id}:birthday").randint(0, 364)


def age_on(case: Case, date: dt.date) -> int:
    """Age on ``date``; ``case.age`` is the age at diagnosis (kept for the rest of the chart). The
    last birthday before the diagnosis is 0-364 days before it, seeded by the case id."""
    if date >= case.diagnosis_date:
        return case.age
    last_birthday = case.diagnosis_date - dt.timedelta(days=_birthday_offset(case.case_id))
    if date >= last_birthday:
        return case.age
    return case.age - math.ceil((last_birthday - date).days / 365.25)


_DRAWS_PER_DAY = 30
_DAY_DRAWS: dict[tuple[str, dt.date], list[float]] = {}


def _between(u: float, low: float, high: float) -> float:
    return low + (high - low) * u


def _integer(u: float, low: int, high: int) -> int:
    return low + int(u * (high - low + 1))


@dataclass(frozen=True)
class BloodCount:
    neutrophils: float
    lymphocytes: float
    monocytes: float
    eosinophils: float
    basophils: float
    hemoglobin: float
    platelets: int

    @property
    def wbc(self) -> float:
        """The total is the sum of the differential (rounded parts), so ANC < WBC always."""
        parts = (self.neutrophils, self.lymphocytes, self.monocytes, self.eosinophils, self.basophils)
        return round(sum(parts), 1)


class PatientState:
    """One patient's physiology, queried by date."""

    def __init__(self, case: Case, data: CssData):
        self.case, self.data = case, data
        base = self._rng("baseline")
        female = case.sex == "female"
        self.female = female
        self.creatinine_base = base.uniform(0.58, 0.98) if female else base.uniform(0.72, 1.18)
        self.hemoglobin_base = base.uniform(12.2, 14.2) if female else base.uniform(13.4, 15.6)
        self.anc_base = base.uniform(2.6, 5.2)
        self.lymph_base = base.uniform(1.2, 2.6)
        self.platelets_base = base.randint(190, 340)
        self.calcium_base = base.uniform(9.0, 9.7)
        diabetic = "diabetes" in case.comorbidities
        self.a1c_base = base.uniform(6.9, 7.9) if diabetic else base.uniform(5.1, 5.6)
        self.a1c_phase = base.uniform(0, 2 * math.pi)
        self.ldl_base = base.randint(70, 135)
        self.tsh_base = base.uniform(1.0, 3.2)
        self.systolic_base = base.randint(118, 138)
        osteopenia = "osteopenia" in case.comorbidities
        self.femoral_neck_t = -1.8 if osteopenia else round(base.uniform(-0.9, 0.6), 1)
        self.spine_t = round(base.uniform(-1.6, -1.1), 1) if osteopenia else round(base.uniform(-0.8, 0.9), 1)

    def _rng(self, purpose: str, date: dt.date | None = None) -> random.Random:
        suffix = f":{date.isoformat()}" if date else ""
        return random.Random(f"escbench-css-state:{self.case.case_id}:{purpose}{suffix}")

    def age_on(self, date: dt.date) -> int:
        return age_on(self.case, date)

    # ------------------------------------------------------------------ chemotherapy exposure
    def _chemo_cycles_before(self, date: dt.date) -> list[dt.date]:
        """Day-1 dates of myelosuppressive cycles given strictly before ``date``."""
        given = []
        for line in self.case.lines:
            regimen = self.data.regimens[line.regimen]
            if not set(MYELOSUPPRESSIVE) & set(regimen.classes):
                continue
            for c in range(line.cycles):
                day1 = line.start + dt.timedelta(days=c * regimen.cycle_days)
                if day1 < date and (line.end is None or day1 < line.end):
                    given.append(day1)
        return given

    def _marrow_effect(self, date: dt.date) -> tuple[float, float, float]:
        """(neutrophil, platelet, hemoglobin) multipliers: nadir 7-14 days after a cycle, recovery by
        day 21, and a slow cumulative anemia over the cycles given."""
        cycles = self._chemo_cycles_before(date)
        if not cycles:
            return 1.0, 1.0, 1.0
        since = (date - cycles[-1]).days
        nadir = math.exp(-(((since - 10) / 4.5) ** 2))  # 1 at day 10, ~0.1 by day 17
        neutrophils = 1.0 - 0.62 * nadir
        platelets = 1.0 - 0.35 * nadir
        hemoglobin = 1.0 - min(0.018 * len(cycles), 0.16)
        return neutrophils, platelets, hemoglobin

    # ------------------------------------------------------------------ labs
    def _day(self, date: dt.date) -> list[float]:
        """The day's random draws (uniform in [0, 1)), one seed per patient and date, shared by every
        quantity measured that day (computed once per process: they depend on nothing mutable)."""
        key = (self.case.case_id, date)
        if key not in _DAY_DRAWS:
            r = random.Random(f"escbench-css-state:{self.case.case_id}:{date.isoformat()}")
            _DAY_DRAWS[key] = [r.random() for _ in range(_DRAWS_PER_DAY)]
        return _DAY_DRAWS[key]

    def blood_count(self, date: dt.date) -> BloodCount:
        u = self._day(date)
        anc_f, plt_f, hb_f = self._marrow_effect(date)
        return BloodCount(
            neutrophils=round(max(self.anc_base * _between(u[0], 0.88, 1.12) * anc_f, 0.4), 1),
            lymphocytes=round(self.lymph_base * _between(u[1], 0.85, 1.15), 1),
            monocytes=round(_between(u[2], 0.3, 0.7), 1),
            eosinophils=round(_between(u[3], 0.05, 0.3), 1),
            basophils=round(_between(u[4], 0.0, 0.1), 1),
            hemoglobin=round(self.hemoglobin_base * _between(u[5], 0.97, 1.03) * hb_f, 1),
            platelets=max(int(self.platelets_base * _between(u[6], 0.9, 1.1) * plt_f), 60),
        )

    def tumor_marker(self, date: dt.date, low: float, high: float, metastatic: bool, index: int = 0) -> float:
        u = self._day(date)[27 + index % 3]
        return high * _between(u, 2.5, 9.0) if metastatic else _between(u, low, high * 0.9)

    def creatinine(self, date: dt.date) -> float:
        return round(self.creatinine_base * _between(self._day(date)[7], 0.93, 1.07), 2)

    def egfr(self, date: dt.date) -> int:
        return round(ckd_epi_2021(self.creatinine(date), self.age_on(date), self.female))

    def chemistry(self, date: dt.date) -> dict[str, float | int]:
        u = self._day(date)
        return {
            "sodium": _integer(u[8], 136, 144),
            "potassium": round(_between(u[9], 3.7, 4.9), 1),
            "creatinine": self.creatinine(date),
            "egfr": self.egfr(date),
            "ast": _integer(u[10], 14, 38),
            "alt": _integer(u[11], 11, 41),
            "alp": _integer(u[12], 55, 128),
            "bilirubin": round(_between(u[13], 0.3, 1.1), 1),
            "albumin": round(_between(u[14], 3.5, 4.6), 1),
            "calcium": round(self.calcium_base + _between(u[15], -0.35, 0.35), 1),
        }

    def hba1c(self, date: dt.date) -> float:
        """Slow drift: at most ~0.2 % per 60 days; diabetic range only with diabetes."""
        days = (date - dt.date(2000, 1, 1)).days
        return round(self.a1c_base + 0.3 * math.sin(2 * math.pi * days / 720 + self.a1c_phase), 1)

    def lipids(self, date: dt.date) -> dict[str, int]:
        u = self._day(date)
        return {
            "ldl": self.ldl_base + _integer(u[16], -8, 8),
            "hdl": _integer(u[17], 40, 70),
            "tg": _integer(u[18], 80, 190),
        }

    def vitals(self, date: dt.date) -> dict[str, float | int | str]:
        u = self._day(date)
        height_m = self.case.height_cm / 100
        weight = round(self.case.weight_kg + _between(u[19], -1.5, 1.5), 1)
        return {
            "bp": f"{self.systolic_base + _integer(u[20], -8, 8)}/{_integer(u[21], 68, 88)}",
            "hr": _integer(u[22], 60, 88),
            "spo2": _integer(u[23], 95, 99),
            "weight": weight,
            "bmi": round(weight / (height_m * height_m), 1),
            "a1c": self.hba1c(date),
            "ldl": self.lipids(date)["ldl"],
            "tsh": round(self.tsh_base * _between(u[24], 0.9, 1.1), 2),
        }

    # ------------------------------------------------------------------ history
    @cached_property
    def smoking(self) -> str:
        template: SocialTemplate = self.data.background.social[self.case.social]
        if template.smoking == "never":
            return "Never smoker."
        r = self._rng("smoking")
        age = self.case.age
        start = r.randint(15, 21)
        ppd = r.choice([0.5, 1.0, 1.0, 1.5])
        packs = "pack" if ppd <= 1 else "packs"
        if template.smoking == "current":
            years = age - start
            return (
                f"Current smoker, {round(ppd * years)} pack-years ({ppd:g} {packs} per day since age "
                f"{start})."
            )
        stop = r.randint(start + 5, max(start + 5, age - 2))
        years = stop - start
        return (
            f"Former smoker, {round(ppd * years)} pack-years ({ppd:g} {packs} per day from age {start} "
            f"to {stop}), quit {age - stop} years ago."
        )

    @cached_property
    def children(self) -> str:
        template: SocialTemplate = self.data.background.social[self.case.social]
        if not template.children:
            return ""
        r = self._rng("children")
        ages = sorted((self.case.age - r.randint(24, 38) for _ in range(template.children)), reverse=True)
        words = {1: "one child", 2: "two children", 3: "three children"}[template.children]
        listed = ", ".join(str(a) for a in ages[:-1]) + (" and " if len(ages) > 1 else "") + str(ages[-1])
        return f"{words} (aged {listed})"

    def social_history(self) -> str:
        template = self.data.background.social[self.case.social]
        return template.text.format(smoking=self.smoking, children=self.children)

    @property
    def cha2ds2_vasc(self) -> int:
        return cha2ds2_vasc(self.case.age, self.female, set(self.case.comorbidities))

    def primary_care_visits(self, count: int) -> list[tuple[dt.date, int]]:
        """The ``count`` most recent pre-diagnosis visits as (date, note kind index), on each kind's
        stated cadence: annual visits ~12 months apart, chronic follow-up ~6 months, acute visits
        in between. Anchored on the diagnosis date only, so no mutation moves them."""
        if count <= 0:
            return []
        kinds = self.data.background.note_kinds
        latest = self.case.diagnosis_date - dt.timedelta(days=45)
        horizon = 365 * 14
        key = (self.case.case_id, self.case.diagnosis_date, id(self.data.background))
        if key in _VISITS:
            return sorted(_VISITS[key][:count])
        taken: dict[dt.date, int] = {}

        def free(date: dt.date) -> bool:
            return not any(date + dt.timedelta(days=k) in taken for k in range(-6, 7))

        # scheduled kinds first (a collision moves the visit 10 days earlier: still on cadence)
        order = sorted(range(len(kinds)), key=lambda i: kinds[i].interval_days is None)
        for index in order:
            kind, r = kinds[index], self._rng(f"visits:{index}")
            if kind.interval_days is None:  # sporadic (acute) visits, where the calendar is free
                day = r.randint(20, 200)
                while day < horizon:
                    if free(latest - dt.timedelta(days=day)):
                        taken[latest - dt.timedelta(days=day)] = index
                    day += r.randint(150, 420)
                continue
            day = r.randint(0, kind.interval_days - 1)
            while day < horizon:
                while not free(latest - dt.timedelta(days=day)):
                    day += 10
                taken[latest - dt.timedelta(days=day)] = index
                day += kind.interval_days + r.randint(-8, 8)
        _VISITS[key] = sorted(taken.items(), reverse=True)
        return sorted(_VISITS[key][:count])
