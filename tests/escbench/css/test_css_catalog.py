"""Catalog: applicability matches hand-written rules, mutations propagate to every section,
the validator rejects incoherent cases, exclusions are counted."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import pytest

from escbench_inspect.css.catalog import applies, catalog_sha256, interventions, mutate
from escbench_inspect.css.coherence import coherence_problems
from escbench_inspect.css.data import packaged_data
from escbench_inspect.css.dataset import (
    _all_plans,
    css_tuples,
    plan_tuples,
    validate_params,
)
from escbench_inspect.css.generator import corpus, make_first_line, make_surgery
from escbench_inspect.css.render import ChartRenderer, fact_values
from escbench_inspect.css.schema import Case, TreatmentLine


def _known(value: str | None) -> bool:
    return value is not None


def expected_admitted(iv_id: str, c: Case) -> bool:
    """The catalog's applicability rules, written out by hand (independently of the YAML)."""
    b, met, naive = c.biomarkers, c.m == "M1", c.status == "naive"
    resected = c.surgery is not None
    squamous = c.histology_group == "squamous"
    driver_negative = b.get("egfr") == "wild_type" and b.get("alk") == "negative"
    tnbc = b.get("er") == "negative" and b.get("her2") == "negative"
    rules = {
        "A1_her2_flip": (c.cancer == "breast" and _known(b.get("her2")))
        or (c.cancer == "gastroesophageal" and met and _known(b.get("her2"))),
        "A2_hormone_receptor_flip": c.cancer == "breast" and _known(b.get("er")),
        "A3_pdl1_flip": met
        and naive
        and _known(b.get("pdl1"))
        and (
            (c.cancer == "nsclc" and driver_negative)
            or c.cancer == "gastroesophageal"
            or (c.cancer == "breast" and tnbc)
        ),
        "A4_driver_flip": (
            c.cancer == "nsclc"
            and (b.get("egfr") in ("exon19_del", "l858r") or (b.get("egfr") == "wild_type" and not squamous))
        )
        or (c.cancer == "colorectal" and met and b.get("msi") == "mss" and _known(b.get("ras")))
        or (c.cancer == "melanoma" and _known(b.get("braf"))),
        "B1_first_line_failure": met and naive,
        "B2_progression_on_current_line": met and c.status == "on_treatment",
        "C1_driver_deletion": met
        and naive
        and (
            (c.cancer == "nsclc" and _known(b.get("egfr")))
            or (c.cancer == "colorectal" and b.get("msi") == "mss" and _known(b.get("ras")))
            or (c.cancer == "melanoma" and _known(b.get("braf")))
        ),
        "C2_immunotherapy_biomarker_deletion": met
        and naive
        and (
            (c.cancer == "nsclc" and driver_negative and _known(b.get("pdl1")))
            or (c.cancer == "gastroesophageal" and b.get("her2") == "negative" and _known(b.get("pdl1")))
            or (c.cancer == "breast" and tnbc and _known(b.get("pdl1")))
            or (c.cancer == "colorectal" and _known(b.get("msi")))
        ),
        "D1_surgery_removed": not met and resected,
        "D2_surgery_added": not met and not resected,
        "E1_metastatic_upstaging": not met,
        "E2_metastatic_downstaging": met,
    }
    return rules[iv_id]


def test_catalog_shape_and_hash() -> None:
    ivs = interventions()
    assert len(ivs) == 12
    assert sorted({iv.family for iv in ivs.values()}) == ["A", "B", "C", "D", "E"]
    assert len(catalog_sha256()) == 64


@pytest.mark.parametrize("iv_id", sorted(interventions()))
def test_intervention_applies_exactly_where_its_rule_admits(iv_id: str) -> None:
    iv = interventions()[iv_id]
    admitted = {c.case_id for c in corpus() if expected_admitted(iv_id, c)}
    assert admitted, f"{iv_id} admits no case in the corpus"
    assert {c.case_id for c in corpus() if applies(iv, c)} == admitted
    plans, excluded = _all_plans()
    emitted = {p.case_id for p in plans if p.intervention_id == iv_id}
    dropped = {case_id for case_id, other, _ in excluded if other == iv_id}
    assert emitted, f"{iv_id} emits no tuple"
    assert emitted | dropped == admitted and not emitted & dropped


def _old_value_phrases(iv_id: str, base: Case, mutated: Case) -> list[str]:
    """Hand-picked wording of the original value that must vanish from every section."""
    spec = packaged_data().cancers[base.cancer]
    phrases: list[str] = []
    explained = set(mutated.rebiopsy.diagnostic) if mutated.rebiopsy else set()
    for name, old in base.biomarkers.items():
        # a receptor conversion keeps the diagnostic result in the chart, on purpose (see catalog.yaml)
        if old != mutated.biomarkers.get(name) and old is not None and name not in explained:
            state = spec.biomarkers[name].states[old]
            phrases += [state.label, state.detail]
    family = iv_id[0]
    if family == "B":
        phrases += (
            ["no prior systemic therapy", "No prior systemic anticancer therapy"]
            if iv_id.startswith("B1")
            else ["(active anticancer therapy)", "no progression"]
        )
    if iv_id.startswith("D1"):
        assert base.surgery is not None
        phrases += [
            f"{base.surgery.procedure} on {base.surgery.date.isoformat()}",
            "pathologic stage",
            "post-surgical changes",
        ]
    if iv_id.startswith("D2"):
        # notes dated before the inserted operation rightly keep the clinical stage
        phrases += [spec.unresected_status, spec.no_surgery_note]
    if iv_id.startswith("E1"):
        phrases += ["cM0", "no evidence of distant metastatic disease", "no distant metastases"]
    if iv_id.startswith("E2"):
        phrases += ["cM1", "stage IV", "distant metastatic disease in the"]
    return phrases


def test_no_section_keeps_the_original_value() -> None:
    data = packaged_data()
    checked = defaultdict(int)
    for tup in css_tuples(chart_length="medium"):
        base = next(c for c in corpus() if c.case_id == tup.case_id)
        mutated = mutate(interventions()[tup.intervention_id], base, data)
        base_text = "\n".join(tup.baseline_sections.values())
        mut_sections = tup.mutated_sections
        # 1) hand-picked wording of the old value
        for phrase in _old_value_phrases(tup.intervention_id, base, mutated):
            assert phrase in base_text, (tup.case_id, tup.intervention_id, phrase)
            for name, text in mut_sections.items():
                assert phrase not in text, (tup.case_id, tup.intervention_id, name, phrase)
        # 2) every rendered sentence that carried a changed fact (the renderer's own record)
        before = ChartRenderer(base, "medium", data)
        before.render()
        after = ChartRenderer(mutated, "medium", data)
        after.render()
        old_values, new_values = fact_values(base), fact_values(mutated)
        changed = [k for k in old_values if old_values[k] != new_values.get(k)]
        assert changed, (tup.case_id, tup.intervention_id)
        still_valid = set().union(*after.facts.values())
        for key in changed:
            for fragment in before.facts.get(key, set()) - still_valid:
                if any(fragment in valid for valid in still_valid):
                    continue  # part of a sentence the mutated chart rightly states (e.g. a dated note)
                assert fragment in base_text
                assert all(fragment not in text for text in mut_sections.values()), (
                    tup.case_id,
                    tup.intervention_id,
                    key,
                    fragment,
                )
        checked[tup.intervention_id] += 1
    assert set(checked) == set(interventions())


def _case(**update) -> Case:
    base = next(
        c
        for c in corpus()
        if c.cancer == "nsclc" and c.m == "M0" and c.surgery is None and c.biomarkers["egfr"] == "exon19_del"
    )
    return Case.model_validate({**base.model_dump(), **update})


def test_validator_rejects_planted_incoherent_cases() -> None:
    data = packaged_data()
    coherent = _case()
    assert coherence_problems(coherent) == []
    metastatic = {"m": "M1", "metastatic_sites": ("liver",)}
    resected_metastatic = _case(**metastatic, surgery=make_surgery(coherent, data))
    assert "curative_resection_in_metastatic_case" in coherence_problems(resected_metastatic)
    line = make_first_line(_case(**metastatic), data, "ongoing")
    assert isinstance(line, TreatmentLine) and line.regimen == "osimertinib"
    assert "palliative_line_in_nonmetastatic_case" in coherence_problems(_case(lines=(line,)))
    wild = {**coherent.biomarkers, "egfr": "wild_type"}
    assert "therapy_contradicts_biomarker" in coherence_problems(
        _case(**metastatic, lines=(line,), biomarkers=wild)
    )
    deleted = {**coherent.biomarkers, "egfr": None}
    assert "targeted_therapy_without_documented_biomarker" in coherence_problems(
        _case(**metastatic, lines=(line,), biomarkers=deleted)
    )
    both = {**coherent.biomarkers, "alk": "positive"}
    assert "mutually_exclusive_drivers_co_occur" in coherence_problems(_case(biomarkers=both))
    adjuvant = line.model_copy(update={"setting": "adjuvant"})
    assert "adjuvant_therapy_without_resection" in coherence_problems(_case(lines=(adjuvant,)))
    assert "m1_without_metastatic_sites" in coherence_problems(_case(m="M1"))
    early = line.model_copy(update={"start": coherent.diagnosis_date - dt.timedelta(days=5)})
    assert "therapy_before_diagnosis" in coherence_problems(_case(**metastatic, lines=(early,)))


def test_incoherent_tuples_are_excluded_and_counted() -> None:
    plans, reasons = plan_tuples(validate_params())
    assert reasons["curative_resection_in_metastatic_case"] > 0  # E1 on resected cases
    assert reasons["palliative_line_in_nonmetastatic_case"] > 0  # E2 on treated cases
    emitted = {(p.case_id, p.intervention_id) for p in plans}
    for case_id, iv_id, reason in _all_plans()[1]:
        assert (case_id, iv_id) not in emitted
        assert reason
    for plan in plans:
        base = next(c for c in corpus() if c.case_id == plan.case_id)
        assert coherence_problems(mutate(interventions()[plan.intervention_id], base)) == []
        assert plan.consensus_added or plan.consensus_removed  # no semantic no-ops emitted
