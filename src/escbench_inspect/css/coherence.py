"""Clinical-coherence validator for (mutated) cases.

A counterfactual is only useful if it describes a patient who could exist. Each check returns a
machine-readable reason; :func:`coherence_problems` lists every failed check. Tuples whose mutated
case fails are excluded from the dataset and counted by reason (never emitted).
"""

from __future__ import annotations

from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.schema import Case

# Mutually exclusive oncogenic drivers (co-occurrence is rare enough to call a chart incoherent).
EXCLUSIVE_DRIVERS: dict[str, tuple[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]]] = {
    "nsclc": (("egfr", ("exon19_del", "l858r")), ("alk", ("positive",))),
    "colorectal": (("ras", ("mutant",)), ("braf", ("v600e",))),
}


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
        for marker, states in regimen.requires.items():
            state = case.biomarkers.get(marker)
            if state is None:
                problems.append("targeted_therapy_without_documented_biomarker")
            elif state not in states:
                problems.append("therapy_contradicts_biomarker")
    if case.surgery is not None and case.surgery.date < case.diagnosis_date:
        problems.append("surgery_before_diagnosis")
    if case.surgery is not None and case.surgery.nodes_positive > case.surgery.nodes_examined:
        problems.append("more_positive_than_examined_nodes")
    pair = EXCLUSIVE_DRIVERS.get(case.cancer)
    if pair and all(case.biomarkers.get(name) in states for name, states in pair):
        problems.append("mutually_exclusive_drivers_co_occur")
    spec = data.cancers[case.cancer]
    for name, state in case.biomarkers.items():
        if name not in spec.biomarkers or (state is not None and state not in spec.biomarkers[name].states):
            problems.append("unknown_biomarker_state")
    try:
        spec.stage_group(case.t, case.n, case.m)
    except KeyError:
        problems.append("unknown_stage_combination")
    return sorted(set(problems))
