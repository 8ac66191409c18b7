"""Text-level chart validator: AJCC tables, planted defects (one per check), zero violations emitted."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from escbench_inspect.css.catalog import direction_in_reference, interventions, mutate
from escbench_inspect.css.chart_check import ChartChecker, chart_violations
from escbench_inspect.css.coherence import coherence_problems
from escbench_inspect.css.consensus import consensus_items
from escbench_inspect.css.data import DATA_DIR, load_data, packaged_data
from escbench_inspect.css.dataset import _all_plans, build_plans, chart_sections
from escbench_inspect.css.generator import corpus
from escbench_inspect.css.render import CHART_LENGTHS, render_sections
from escbench_inspect.css.schema import Case
from escbench_inspect.css.staging import case_tnm, n_category, stage_group, t_from_breslow, t_from_size
from escbench_inspect.datasets.errors import DataFileError

Sections = dict[str, str]


def _case(predicate: Callable[[Case], bool]) -> Case:
    return next(c for c in corpus() if predicate(c))


# ---------------------------------------------------------------------------- AJCC 8 tables


def test_staging_tables_give_the_ajcc_categories_the_audit_cited() -> None:
    st = packaged_data().staging
    assert t_from_size(st["breast"], 3.4) == "T2" and t_from_size(st["breast"], 2.0) == "T1c"
    assert t_from_size(st["nsclc"], 3.4) == "T2a" and t_from_size(st["nsclc"], 3.3) != "T3"
    assert n_category(st["gastroesophageal"], "pathologic", 3) == "N2"  # "3/40 positive" is N2
    assert n_category(st["gastroesophageal"], "pathologic", 2) == "N1"
    assert n_category(st["melanoma"], "pathologic", 2) == "N2b"  # 2-3 detected nodes: not N1
    assert n_category(st["colorectal"], "pathologic", 5) == "N2a"
    assert n_category(st["nsclc"], "clinical", 2, "mediastinal") == "N2"
    # gastric: clinical and pathologic stage groups differ (AJCC 8 keeps them apart)
    assert stage_group(st["gastroesophageal"], "clinical", "T3", "N1", "M0") == "III"
    assert stage_group(st["gastroesophageal"], "pathologic", "T3", "N1", "M0") == "IIB"
    assert stage_group(st["melanoma"], "clinical", "T3b", "N1b", "M0") == "III"
    assert stage_group(st["melanoma"], "pathologic", "T3b", "N1b", "M0") == "IIIC"
    assert stage_group(st["melanoma"], "pathologic", "T4b", "N3b", "M0") == "IIID"
    assert stage_group(st["colorectal"], "pathologic", "T4a", "N2a", "M0") == "IIIC"
    assert stage_group(st["breast"], "pathologic", "T3", "N1a", "M0") == "IIIA"
    assert t_from_breslow(st["melanoma"], 1.6, True) == "T2b"
    assert stage_group(st["nsclc"], "clinical", "T2a", "N1", "M1") == "IV"


def test_every_case_is_staged_from_its_measurements_and_matches_its_preset() -> None:
    data = packaged_data()
    for case in corpus():
        tnm = case_tnm(case, data)
        assert tnm.basis == ("pathologic" if case.surgery else "clinical"), case.case_id
        if case.surgery is not None:
            assert case.surgery.nodes_positive == case.nodes.involved
        presets = {(p.t, p.n) for p in data.cancers[case.cancer].stages}
        assert (tnm.t, tnm.n[:2]) in presets, case.case_id


def test_overlapping_stage_group_rows_are_rejected_naming_the_file(tmp_path: Path) -> None:
    copy = tmp_path / "css"
    shutil.copytree(DATA_DIR, copy)
    path = copy / "staging.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["gastroesophageal"]["groups"]["pathologic"].append({"group": "III", "t": ["T3"], "n": ["N1"]})
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        load_data(copy)
    assert "staging.yaml" in str(caught.value) and "listed twice" in str(caught.value)


# ---------------------------------------------------------------------------- planted defects


def _chart(
    predicate: Callable[[Case], bool], iv_id: str | None = None, length: str = "medium"
) -> tuple[Case, Sections]:
    case = _case(predicate)
    if iv_id is not None:
        case = mutate(interventions()[iv_id], case)
    sections = render_sections(case, length)
    assert chart_violations(sections, case.cancer) == [], case.case_id  # the clean chart passes
    return case, sections


def _edit(sections: Sections, section: str, old: str, new: str) -> Sections:
    assert old in sections[section], (section, old)
    return {**sections, section: sections[section].replace(old, new)}


def _reasons(case: Case, sections: Sections) -> set[str]:
    return {v.reason for v in chart_violations(sections, case.cancer)}


def _shift(date: dt.date, days: int) -> str:
    return (date + dt.timedelta(days=days)).isoformat()


def plant_size_vs_t() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.cancer == "breast" and c.m == "M0" and c.surgery is None)
    size = f"{case.primary.size_cm} cm in greatest dimension"
    wrong = 6.4 if case.primary.size_cm <= 5 else 1.5
    return case, _edit(sections, "imaging", size, f"{wrong} cm in greatest dimension")


def plant_nodes_vs_n() -> tuple[Case, Sections]:
    case, sections = _chart(
        lambda c: c.cancer == "gastroesophageal" and c.surgery is not None and c.nodes.involved
    )
    count = f"lymph nodes {case.surgery.nodes_positive}/"  # type: ignore[union-attr]
    return case, _edit(sections, "pathology", count, "lymph nodes 17/")


def plant_stage_group() -> tuple[Case, Sections]:
    # the audit's example: a gastric pathologic stage taken from the clinical table
    case, sections = _chart(
        lambda c: (
            c.cancer == "gastroesophageal"
            and c.surgery is not None
            and case_tnm(c, packaged_data()).t == "T3"
        )
    )
    group = case_tnm(case, packaged_data()).group
    return case, _edit(
        sections, "tumor_board_question", f"(pathologic stage {group})", "(pathologic stage III)"
    )


def plant_cross_section_n() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.cancer == "nsclc" and c.nodes.involved == 0 and c.m == "M0")
    return case, _edit(
        sections, "pathology", "benign lymphoid tissue, no malignant cells", "aspirate: metastatic carcinoma"
    )


def plant_future_event_in_note() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.m == "M0" and c.surgery is None, "D2_surgery_added")
    surgery = case.surgery
    assert surgery is not None
    status_post = f"status post {surgery.procedure} on {surgery.date.isoformat()} (R0 resection)"
    # the pre-fix renderer repeated the current summary in every note, also before the operation
    return case, _edit(
        sections, "presenting_problem", "curative resection planned, not yet performed", status_post
    )


def plant_scan_after_discontinuation() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.status == "progressed")
    line = case.lines[-1]
    scan, end = line.progression_scan, line.end
    assert scan is not None and end is not None
    return case, _edit(sections, "imaging", f"[{scan.isoformat()}]", f"[{_shift(end, 3)}]")


def plant_therapy_continued_after_progression() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.status == "progressed")
    scan = case.lines[-1].progression_scan
    assert scan is not None
    return case, _edit(sections, "imaging", f"[{scan.isoformat()}]", f"[{_shift(scan, -45)}]")


def plant_event_after_board() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.status == "on_treatment")
    board = re.search(r"tumor board, (\d{4}-\d{2}-\d{2})", sections["tumor_board_question"])
    assert board
    date = dt.date.fromisoformat(board.group(1))
    extra = f"\n[{_shift(date, 6)}] CT chest: restaging scan, stable disease."
    return case, {**sections, "imaging": sections["imaging"] + extra}


def plant_egfr_in_squamous() -> tuple[Case, Sections]:
    data = packaged_data()
    case, sections = _chart(lambda c: c.cancer == "nsclc" and c.histology_group == "squamous")
    egfr = data.cancers["nsclc"].biomarkers["egfr"].states
    return case, _edit(sections, "molecular", egfr["wild_type"].detail, egfr["exon19_del"].detail)


def plant_ras_deleted_braf_kept() -> tuple[Case, Sections]:
    data = packaged_data()
    case, sections = _chart(
        lambda c: c.cancer == "colorectal" and c.m == "M1" and c.biomarkers["ras"] == "wild_type"
    )
    ras = data.cancers["colorectal"].biomarkers["ras"]
    line = next(x for x in sections["molecular"].splitlines() if x.startswith(f"- {ras.display}:"))
    return case, _edit(sections, "molecular", line, f"- {ras.display}: no result in the available record.")


def plant_regimen_contradicts_biomarker() -> tuple[Case, Sections]:
    data = packaged_data()
    case, sections = _chart(
        lambda c: c.cancer == "breast" and c.status == "on_treatment" and c.biomarkers["her2"] == "negative"
    )
    her2 = data.cancers["breast"].biomarkers["her2"].states
    edited = _edit(sections, "molecular", her2["negative"].detail, her2["positive"].detail)
    return case, _edit(edited, "pathology", her2["negative"].detail, her2["positive"].detail)


def plant_placeholder() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.cancer == "melanoma")
    return case, _edit(sections, "pathology", "Breslow thickness", "Breslow thickness per T category,")


def plant_melanoma_primary_in_situ() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.cancer == "melanoma" and c.surgery is None and c.m == "M0")
    status = packaged_data().cancers["melanoma"].unresected_status
    return case, _edit(
        sections, "tumor_board_question", status, "primary tumor in situ (no resection performed)"
    )


def plant_metastatic_contradiction() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.m == "M1")
    return case, {**sections, "imaging": sections["imaging"] + "\nno evidence of distant metastatic disease"}


def plant_t_disagrees_across_sections() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.cancer == "breast" and c.surgery is not None)
    t = case_tnm(case, packaged_data()).t
    other = "T3" if t != "T3" else "T2"
    return case, _edit(sections, "history", f"p{t} p", f"p{other} p")


def plant_cycle_after_discontinuation() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.status == "progressed", length="long")
    end = case.lines[-1].end
    assert end is not None
    extra = f"\n  Cycle 13 ({_shift(end, 7)}): administered at 100% dose."
    return case, {**sections, "treatment_history": sections["treatment_history"] + extra}


def plant_treatment_before_biopsy() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.status == "on_treatment")
    start = case.lines[0].start.isoformat()
    early = _shift(case.diagnosis_date, -30)
    return case, {
        **sections,
        "treatment_history": sections["treatment_history"].replace(f"started {start}", f"started {early}"),
    }


def plant_exclusive_drivers() -> tuple[Case, Sections]:
    braf = packaged_data().cancers["colorectal"].biomarkers["braf"].states
    case, sections = _chart(lambda c: c.cancer == "colorectal" and c.biomarkers["ras"] == "mutant")
    return case, _edit(sections, "molecular", braf["wild_type"].detail, braf["v600e"].detail)


def _receptor_conversion_chart() -> tuple[Case, Sections]:
    for case in corpus():
        if case.cancer == "breast" and case.status == "progressed":
            try:
                mutated = mutate(interventions()["A1_her2_flip"], case)
            except Exception:  # noqa: BLE001 - a flip that does not apply to this case
                continue
            if mutated.rebiopsy is not None:
                sections = render_sections(mutated, "long")
                assert chart_violations(sections, mutated.cancer) == []
                return mutated, sections
    raise AssertionError("no HER2 conversion at progression")


def plant_missing_rebiopsy_procedure() -> tuple[Case, Sections]:
    case, sections = _receptor_conversion_chart()
    kept = [line for line in sections["procedures"].splitlines() if "metastasis" not in line]
    return case, {**sections, "procedures": "\n".join(kept)}


def plant_cycle_log_mismatch() -> tuple[Case, Sections]:
    case, sections = _chart(lambda c: c.status == "progressed", length="long")
    return case, _edit(sections, "treatment_history", "pre-treatment ANC ", "pre-treatment ANC 1")


PLANTED: dict[str, tuple[Callable[[], tuple[Case, Sections]], str]] = {
    "missing_rebiopsy_procedure": (plant_missing_rebiopsy_procedure, "specimen_without_procedure"),
    "cycle_log_mismatch": (plant_cycle_log_mismatch, "cycle_log_disagrees_with_blood_count"),
    "size_vs_t": (plant_size_vs_t, "t_contradicts_measurement"),
    "nodes_vs_n": (plant_nodes_vs_n, "n_contradicts_node_count"),
    "stage_group": (plant_stage_group, "stage_group_contradicts_ajcc"),
    "cross_section_n": (plant_cross_section_n, "nodal_status_contradiction"),
    "future_event_in_note": (plant_future_event_in_note, "note_cites_future_event"),
    "scan_after_discontinuation": (
        plant_scan_after_discontinuation,
        "progression_scan_after_discontinuation",
    ),
    "therapy_after_progression": (
        plant_therapy_continued_after_progression,
        "therapy_continued_after_progression",
    ),
    "event_after_board": (plant_event_after_board, "event_after_tumor_board"),
    "egfr_in_squamous": (plant_egfr_in_squamous, "driver_incompatible_with_histology"),
    "ras_deleted_braf_kept": (plant_ras_deleted_braf_kept, "panel_partially_reported"),
    "regimen_vs_biomarker": (plant_regimen_contradicts_biomarker, "regimen_contradicts_biomarker"),
    "placeholder": (plant_placeholder, "placeholder_text"),
    "melanoma_primary": (plant_melanoma_primary_in_situ, "primary_status_contradiction"),
    "metastatic_status": (plant_metastatic_contradiction, "metastatic_status_contradiction"),
    "t_across_sections": (plant_t_disagrees_across_sections, "tnm_disagrees_across_sections"),
    "cycle_after_discontinuation": (plant_cycle_after_discontinuation, "treatment_after_discontinuation"),
    "treatment_before_biopsy": (plant_treatment_before_biopsy, "timeline_out_of_order"),
    "exclusive_drivers": (plant_exclusive_drivers, "exclusive_drivers_reported"),
}


def test_every_check_has_a_planted_defect() -> None:
    import inspect

    from escbench_inspect.css import chart_check

    reasons = set(re.findall(r'ChartViolation\(\s*"([a-z_]+)"', inspect.getsource(chart_check)))
    assert reasons == {reason for _, reason in PLANTED.values()}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_validator_catches_each_planted_defect(name: str) -> None:
    plant, reason = PLANTED[name]
    case, sections = plant()
    assert reason in _reasons(case, sections), name


def test_direction_missing_from_the_consensus_change_is_excluded(tmp_path: Path) -> None:
    iv = interventions()["A1_her2_flip"]
    case = _case(lambda c: c.cancer == "breast" and c.m == "M0" and c.biomarkers["her2"] == "negative")
    mutated = mutate(iv, case)
    base_items, new_items = consensus_items(case), consensus_items(mutated)
    added = tuple(i for i in new_items if i.id not in {b.id for b in base_items})
    removed = tuple(i for i in base_items if i.id not in {n.id for n in new_items})
    assert direction_in_reference(iv, case, mutated, added, removed)
    # the same change without the HER2-directed item does not show "add HER2-directed therapy"
    without = tuple(i for i in added if "her2_directed" not in i.tags)
    assert not direction_in_reference(iv, case, mutated, without, removed)
    # through the builder: a catalog whose B1 direction names a tag B1 never adds
    copy = tmp_path / "css"
    shutil.copytree(DATA_DIR, copy)
    path = copy / "catalog.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    b1 = next(x for x in raw["interventions"] if x["id"] == "B1_first_line_failure")
    b1["reflected_by"] = ["+postoperative"]
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    data = load_data(copy)
    cases = [c for c in corpus() if c.m == "M1" and c.status == "naive"][:6]
    plans, excluded = build_plans(cases, data)
    assert not [p for p in plans if p.intervention_id == "B1_first_line_failure"]
    assert Counter(r for _, iv_id, r in excluded if iv_id == "B1_first_line_failure") == {
        "direction_not_in_reference": len(cases)
    }


# ---------------------------------------------------------------------------- the validator reads the chart


def test_validator_reads_the_facts_it_checks() -> None:
    """Not vacuous: on real charts it finds stated stages, measurements, nodes, biomarkers, dates."""
    for cancer in ("breast", "nsclc", "colorectal", "gastroesophageal", "melanoma"):
        case = _case(lambda c, cancer=cancer: c.cancer == cancer and c.surgery is not None)
        sections = render_sections(case, "long")
        checker = ChartChecker(cancer)
        stated = checker.stated_stages(sections)
        assert len(stated) >= 3 and "p" in {s.basis for s in stated}, cancer  # "c" in pre-op notes
        assert checker._measured_t(sections), cancer
        assert any(basis == "pathologic" for _, basis, *_ in checker._measured_nodes(sections)), cancer
        assert set(checker.biomarker_states(sections)) == set(case.biomarkers), cancer
        assert checker.histology_group(sections) == case.histology_group, cancer


def test_excluded_tuples_are_counted_and_never_emitted() -> None:
    plans, excluded = _all_plans()
    emitted = {(p.case_id, p.intervention_id) for p in plans}
    assert not emitted & {(c, i) for c, i, _ in excluded}
    reasons = Counter(r for _, _, r in excluded)
    assert reasons["therapy_contradicts_biomarker"] > 0  # unfit regimens after a flip
    assert all(reason for reason in reasons)
    # no histology-incompatible driver, no partial NGS panel, no unfit regimen among emitted tuples
    ivs = {iv.id: iv for iv in packaged_data().catalog.interventions}
    by_id = {c.case_id: c for c in corpus()}
    for plan in plans:
        mutated = mutate(ivs[plan.intervention_id], by_id[plan.case_id])
        assert coherence_problems(mutated) == []
        if mutated.cancer == "nsclc" and mutated.histology_group == "squamous":
            assert mutated.biomarkers["egfr"] in ("wild_type", None)
        if mutated.cancer == "colorectal":
            assert (mutated.biomarkers["ras"] is None) == (mutated.biomarkers["braf"] is None)


def test_building_the_tuples_twice_is_identical() -> None:
    cases = corpus()[:15]
    assert build_plans(cases, packaged_data()) == build_plans(cases, packaged_data())


def test_keeps_coverage() -> None:
    plans, _ = _all_plans()
    assert len({p.case_id for p in plans}) >= 224
    assert {p.intervention_id for p in plans} == set(interventions())
    assert sum(p.family == "D" for p in plans) >= 100


def test_receptor_flip_after_progression_is_explained_by_a_rebiopsy() -> None:
    plans, _ = _all_plans()
    explained = [
        p
        for p in plans
        if p.intervention_id in ("A1_her2_flip", "A2_hormone_receptor_flip")
        and mutate(interventions()[p.intervention_id], _case(lambda c, p=p: c.case_id == p.case_id)).rebiopsy
    ]
    assert explained
    for plan in explained[:5]:
        sections = chart_sections(plan.case_id, plan.intervention_id, "short")
        assert "(re-biopsy)" in sections["molecular"] and "Specimen C" in sections["pathology"]
        assert "receptor conversion" in sections["pathology"]


def _violations_of_emitted(lengths: tuple[str, ...], every: int = 1) -> Counter:
    plans, _ = _all_plans()
    found: Counter = Counter()
    for k, plan in enumerate(plans):
        if k % every:
            continue
        for length in lengths:
            for arm in (None, plan.intervention_id):
                for v in chart_violations(chart_sections(plan.case_id, arm, length), plan.cancer):
                    found[(length, v.reason)] += 1
    return found


def test_no_emitted_tuple_has_a_violation_short_and_a_sample_of_the_other_lengths() -> None:
    assert _violations_of_emitted(("short",)) == Counter()
    assert _violations_of_emitted(("medium", "long", "xlong"), every=17) == Counter()


@pytest.mark.slow
def test_no_emitted_tuple_has_a_violation_at_any_length() -> None:
    assert _violations_of_emitted(tuple(CHART_LENGTHS)) == Counter()
