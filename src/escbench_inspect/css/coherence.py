"""Clinical-coherence validator for (mutated) cases.

A counterfactual is only useful if it describes a patient who could exist. Each check returns a
machine-readable reason; :func:`coherence_problems` lists every failed check. Tuples whose mutated
case fails are excluded from the dataset and counted by reason (never emitted).
"""

from __future__ import annotations

from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.schema import Case, TreatmentLine
from escbench_inspect.css.staging import StagingError, case_tnm

# Tumor-board practice: a regimen is stopped within 4 weeks of the scan that shows progression.
MAX_DAYS_PROGRESSION_TO_DISCONTINUATION = 28

# Mutually exclusive oncogenic drivers (co-occurrence is rare enough to call a chart incoherent).
EXCLUSIVE_DRIVERS: dict[str, tuple[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]]] = {
    "nsclc": (("egfr", ("exon19_del", "l858r")), ("alk", ("positive",))),
    "colorectal": (("ras", ("mutant",)), ("braf", ("v600e",))),
}


def regimen_conflicts(case: Case, line: TreatmentLine, data: CssData) -> list[str]:
    """A regimen against the biomarker results known when it started (``requires``/``contraindicated``)."""
    regimen = data.regimens[line.regimen]
    problems = []
    for marker, states in regimen.requires.items():
        state = case.biomarker_on(marker, line.start)
        if state is None:
            problems.append("targeted_therapy_without_documented_biomarker")
        elif state not in states:
            problems.append("therapy_contradicts_biomarker")
    for marker, states in regimen.contraindicated.items():
        if case.biomarker_on(marker, line.start) in states:
            problems.append("therapy_contradicts_biomarker")
    return problems


def coherence_problems(case: Case, data: CssData | None = None) -> list[str]:
    """Reasons why ``case`` is clinically incoherent (empty list = coherent)."""
    data = data or packaged_data()
    problems: list[str] = []
    metastatic = case.m == "M1"
    if case.surgery is not None and metastatic and case.surgery.intent == "curative":
        problems.append("curative_resection_in_metastatic_case")
    if metastatic and not case.metastatic_sites:
        problems.append("m1_without_metastatic_sites")
    if not metastatic and case.metastatic_sites:
        problems.append("metastatic_sites_in_m0_case")
    for line in case.lines:
        if line.setting == "adjuvant" and case.surgery is None:
            problems.append("adjuvant_therapy_without_resection")
        if line.setting == "metastatic" and not metastatic:
            problems.append("palliative_line_in_nonmetastatic_case")
        if line.start < case.diagnosis_date:
            problems.append("therapy_before_diagnosis")
        regimen = data.regimens.get(line.regimen)
        if regimen is None:
            problems.append("unknown_regimen")
            continue
        problems.extend(regimen_conflicts(case, line, data))
        if line.status == "progressed":
            scan, end = line.progression_scan, line.end
            if scan is None or end is None or not line.start < scan <= end:
                problems.append("progression_scan_not_before_discontinuation")
            elif (end - scan).days > MAX_DAYS_PROGRESSION_TO_DISCONTINUATION:
                problems.append("therapy_continued_after_progression")
    if case.rebiopsy is not None:
        scans = [line.progression_scan for line in case.lines if line.progression_scan is not None]
        if not scans or case.rebiopsy.date <= max(scans):
            problems.append("rebiopsy_without_prior_progression")
    if case.surgery is not None and case.surgery.date < case.diagnosis_date:
        problems.append("surgery_before_diagnosis")
    if case.surgery is not None and case.surgery.nodes_positive > case.surgery.nodes_examined:
        problems.append("more_positive_than_examined_nodes")
    if case.surgery is not None and case.surgery.nodes_positive != case.nodes.involved:
        problems.append("resected_nodes_differ_from_work_up")
    pair = EXCLUSIVE_DRIVERS.get(case.cancer)
    if pair and all(case.biomarkers.get(name) in states for name, states in pair):
        problems.append("mutually_exclusive_drivers_co_occur")
    spec = data.cancers[case.cancer]
    for name, state in case.biomarkers.items():
        if name not in spec.biomarkers or (state is not None and state not in spec.biomarkers[name].states):
            problems.append("unknown_biomarker_state")
    for marker, states in spec.histology_incompatible.get(case.histology_group, {}).items():
        if case.biomarkers.get(marker) in states:
            problems.append("driver_incompatible_with_histology")
    try:
        case_tnm(case, data)
    except StagingError:
        problems.append("unknown_stage_combination")
    return sorted(set(problems))
