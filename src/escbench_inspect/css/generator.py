"""Deterministic, seeded generator of the tumor-board case corpus (no LLM involved).

The corpus is stratified: for each cancer, a fixed mix of clinical situations (early disease before
or after curative resection; metastatic disease untreated, responding on first-line therapy, or
progressed on it). Biomarker profiles, histology, stage, demographics and comorbidities are drawn
from ``data/cancers.yaml`` and ``data/background.yaml`` with ``random.Random`` seeded by strings,
so the same seed always yields the same cases. The helpers that synthesise a resection, metastases
or a first-line course are shared with the mutation operators, so an inserted fact looks exactly
like a generated one.
"""

from __future__ import annotations

import datetime as dt
import random
from functools import lru_cache

from escbench_inspect.css.consensus import standard_first_line
from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.schema import (
    CANCERS,
    Case,
    PrimaryTumor,
    RegionalNodes,
    StagePreset,
    Surgery,
    TreatmentLine,
)
from escbench_inspect.css.staging import main_n, n_category, t_of

CORPUS_SEED = 20240601
CASES_PER_CANCER = 48
# (situation, count) per cancer; sums to CASES_PER_CANCER.
SITUATIONS: tuple[tuple[str, int], ...] = (
    ("early_unresected", 12),
    ("early_resected", 12),
    ("metastatic_naive", 10),
    ("metastatic_on_treatment", 7),
    ("metastatic_progressed", 7),
)
_BASE_DATE = dt.date(2023, 1, 9)


def rng_for(case_id: str, purpose: str, seed: int = CORPUS_SEED) -> random.Random:
    """A private, reproducible random stream for one purpose of one case."""
    return random.Random(f"escbench-css:{seed}:{case_id}:{purpose}")


def make_surgery(case: Case, data: CssData) -> Surgery:
    """The curative R0 resection of ``case`` (same result for the generator and intervention D2)."""
    spec = data.cancers[case.cancer]
    rng = rng_for(case.case_id, "surgery")
    site = next((s for s in spec.sites if s.name == case.site), None)
    procedure = (site.procedure if site and site.procedure else None) or spec.surgery.procedure
    low, high = spec.surgery.nodes
    examined = rng.randint(low, high)
    positive = case.nodes.involved  # the resection confirms the involved nodes the work-up found
    return Surgery(
        procedure=procedure,
        date=case.diagnosis_date + dt.timedelta(days=rng.randint(30, 44)),
        nodes_examined=max(examined, positive),
        nodes_positive=positive,
    )


def _open_upper(above: float, up_to: float | None, span: float) -> float:
    return up_to if up_to is not None else above + span


def make_measurements(
    cancer: str, preset: StagePreset, rng: random.Random, data: CssData
) -> tuple[PrimaryTumor, RegionalNodes]:
    """Primary-tumor and nodal measurements that give exactly the preset's T and main N category."""
    spec, table = data.cancers[cancer], data.staging[cancer]
    category = next(c for c in table.t.categories if c.t == preset.t)
    size = round(rng.uniform(*spec.size_cm), 1)
    depth = breslow = ulceration = None
    if table.t.basis == "size_cm":
        above = category.above or 0.0
        size = round(rng.uniform(above + 0.1, _open_upper(above, category.up_to, 2.0)), 1)
    elif table.t.basis == "depth":
        depth = category.depth
    else:
        above = category.above or 0.0
        breslow = round(rng.uniform(above + 0.1, _open_upper(above, category.up_to, 3.0)), 1)
        ulceration = category.ulceration
    rules = [r for r in table.n.pathologic if main_n(r.n) == preset.n]
    rule = rng.choice(rules)
    involved = rng.randint(rule.min, rule.max if rule.max is not None else rule.min + 4)
    primary = PrimaryTumor(size_cm=size, depth=depth, breslow_mm=breslow, ulceration=ulceration)
    nodes = RegionalNodes(involved=involved, station=rule.station if involved else None)
    derived = (t_of(table, primary), main_n(n_category(table, "clinical", involved, nodes.station)))
    if derived != (preset.t, preset.n):  # pragma: no cover - guarded by tests on the data files
        raise ValueError(f"{cancer}: measurements give {derived}, preset is {(preset.t, preset.n)}")
    return primary, nodes


def make_metastatic_sites(case: Case, data: CssData) -> tuple[str, ...]:
    """Distant metastatic sites for ``case`` (generator and intervention E1)."""
    options = data.cancers[case.cancer].metastatic_sites
    rng = rng_for(case.case_id, "metastases")
    chosen = set(rng.sample(options, rng.choice([1, 1, 2])))
    return tuple(site for site in options if site in chosen)


RESTAGING_INTERVAL_DAYS = 63  # restaging every 9 weeks on a metastatic line (scan 3 days before the visit)


def restaging_grid(start: dt.date, until: dt.date) -> list[dt.date]:
    """Scheduled restaging scans of a line started on ``start``, up to ``until`` (inclusive)."""
    dates, k = [], 1
    while start + dt.timedelta(days=RESTAGING_INTERVAL_DAYS * k - 3) <= until:
        dates.append(start + dt.timedelta(days=RESTAGING_INTERVAL_DAYS * k - 3))
        k += 1
    return dates


def cycles_before(start: dt.date, cycle_days: int, scan: dt.date) -> int:
    """Cycles given before a progression scan (no cycle is given on or after it)."""
    return -(-(scan - start).days // cycle_days)


def progression_dates(case_id: str, scan: dt.date) -> tuple[dt.date, dt.date]:
    """(progression scan, discontinuation): the regimen is stopped 3-10 days after the scan.

    Progression is found on a *scheduled* restaging scan, so a progression never follows a stable
    scan by a few days: the previous restaging is one interval (9 weeks) earlier.
    """
    return scan, scan + dt.timedelta(days=rng_for(case_id, "progression_scan").randint(3, 10))


def progress_ongoing(case_id: str, line: TreatmentLine, cycle_days: int) -> TreatmentLine:
    """The same line, progressing on its last scheduled restaging scan before the board."""
    board = line.start + dt.timedelta(days=line.cycles * cycle_days - 2)
    scan, end = progression_dates(case_id, restaging_grid(line.start, board - dt.timedelta(days=3))[-1])
    return line.model_copy(
        update={
            "status": "progressed",
            "end": end,
            "progression_scan": scan,
            "cycles": cycles_before(line.start, cycle_days, scan),
        }
    )


def make_first_line(case: Case, data: CssData, status: str) -> TreatmentLine | None:
    """First metastatic line with the case's standard regimen, ``ongoing`` or ``progressed``.

    An ongoing line has run at least 130 days (two restaging scans, so a progression injected on it
    still follows a documented response); a progressed line progressed on its 3rd-5th restaging scan.
    """
    regimen_id = standard_first_line(case, data)
    if regimen_id is None:
        return None
    regimen = data.regimens[regimen_id]
    rng = rng_for(case.case_id, "first_line")
    start = case.diagnosis_date + dt.timedelta(days=rng.randint(24, 35))
    days = regimen.cycle_days
    best_response = rng.choice(["partial response", "stable disease"])
    if status == "ongoing":
        cycles = -(-rng.randint(130, 210) // days)
        return TreatmentLine(
            setting="metastatic",
            line=1,
            regimen=regimen_id,
            start=start,
            cycles=cycles,
            status="ongoing",
            best_response=best_response,  # type: ignore[arg-type]
        )
    k = rng.randint(3, 5)
    scan, end = progression_dates(case.case_id, start + dt.timedelta(days=RESTAGING_INTERVAL_DAYS * k - 3))
    return TreatmentLine(
        setting="metastatic",
        line=1,
        regimen=regimen_id,
        start=start,
        cycles=cycles_before(start, days, scan),
        status="progressed",
        best_response=best_response,  # type: ignore[arg-type]
        end=end,
        progression_scan=scan,
    )


def _fitting(templates: list, age: int) -> list[int]:
    """Indices of the history templates whose ``ages`` admit a patient of ``age``."""
    return [i for i, t in enumerate(templates) if t.ages[0] <= age <= t.ages[1]]


def _make_case(cancer: str, index: int, situation: str, data: CssData, seed: int) -> Case:
    spec = data.cancers[cancer]
    case_id = f"{cancer}-{index + 1:03d}"
    rng = rng_for(case_id, "base", seed)
    profile = rng.choices(spec.profiles, weights=[p.weight for p in spec.profiles])[0]
    histologies = [h for h in spec.histologies if profile.histology_group in (None, h.group)]
    histology = rng.choice(histologies)
    site = rng.choice(spec.sites)
    stage = rng.choice(spec.stages)
    sex = spec.sex if spec.sex != "any" else rng.choice(["female", "male"])
    background = data.background
    primary, nodes = make_measurements(cancer, stage, rng_for(case_id, "measurements", seed), data)
    age = rng.randint(*spec.age)
    n_comorbid = rng.randint(1, 4)
    comorbidities = tuple(sorted(rng.sample([c.id for c in background.comorbidities], n_comorbid)))
    case = Case(
        case_id=case_id,
        cancer=cancer,  # type: ignore[arg-type]
        histology=histology.name,
        histology_group=histology.group,
        site=site.name,
        side=site.side,
        age=age,
        sex=sex,  # type: ignore[arg-type]
        diagnosis_date=_BASE_DATE + dt.timedelta(days=rng.randint(0, 640)),
        primary=primary,
        nodes=nodes,
        m="M0",
        biomarkers=dict(profile.biomarkers),
        ecog=rng.choice([0, 0, 1]),
        comorbidities=comorbidities,
        allergy=rng.randrange(len(background.allergies)),
        social=rng.choice(_fitting(background.social, age)),
        family_history=rng.choice(_fitting(background.family_history, age)),
        presentation=rng.randrange(len(spec.presentations)),
        weight_kg=round(rng.uniform(52, 98) if sex == "female" else rng.uniform(62, 112), 1),
        height_cm=round(rng.uniform(152, 176) if sex == "female" else rng.uniform(164, 192), 1),
    )
    if situation == "early_resected":
        return case.model_copy(update={"surgery": make_surgery(case, data)})
    if situation.startswith("metastatic"):
        case = case.model_copy(update={"m": "M1", "metastatic_sites": make_metastatic_sites(case, data)})
        status = {"metastatic_on_treatment": "ongoing", "metastatic_progressed": "progressed"}
        if situation in status:
            line = make_first_line(case, data, status[situation])
            if line is not None:
                case = case.model_copy(update={"lines": (line,)})
    return case


def generate_cases(seed: int = CORPUS_SEED, data: CssData | None = None) -> tuple[Case, ...]:
    """The full corpus: ``CASES_PER_CANCER`` cases for each of the five cancers, in a fixed order."""
    data = data or packaged_data()
    by_cancer: dict[str, list[Case]] = {}
    for cancer in CANCERS:
        cases = by_cancer.setdefault(cancer, [])
        situations = [name for name, count in SITUATIONS for _ in range(count)]
        random.Random(f"escbench-css:{seed}:{cancer}:situations").shuffle(situations)
        for index, situation in enumerate(situations):
            cases.append(Case.model_validate(_make_case(cancer, index, situation, data, seed).model_dump()))
    # interleave cancers so that "the first N cases" is a balanced subset
    return tuple(by_cancer[c][i] for i in range(CASES_PER_CANCER) for c in CANCERS)


@lru_cache(maxsize=4)
def corpus(seed: int = CORPUS_SEED) -> tuple[Case, ...]:
    """The packaged corpus, generated once per process."""
    return generate_cases(seed)


def case_by_id(case_id: str, seed: int = CORPUS_SEED) -> Case:
    for case in corpus(seed):
        if case.case_id == case_id:
            return case
    raise KeyError(f"unknown case_id '{case_id}'")
