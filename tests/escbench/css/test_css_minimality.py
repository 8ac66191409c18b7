"""Minimality of the counterfactual pairs: every difference between the arms is traced to the
intervention, nothing dated before the divergence moves; planted defects show each rule firing."""

from __future__ import annotations

import datetime as dt

import pytest

from escbench_inspect.css.catalog import interventions, mutate
from escbench_inspect.css.chart_check import chart_violations
from escbench_inspect.css.dataset import _all_plans
from escbench_inspect.css.generator import case_by_id
from escbench_inspect.css.minimality import divergence_date, minimality_audit, minimality_violations
from escbench_inspect.css.render import CHART_LENGTHS, ChartRenderer, render_sections


def _pair(intervention_id: str):
    plan = next(p for p in _all_plans()[0] if p.intervention_id == intervention_id)
    baseline = case_by_id(plan.case_id)
    return baseline, mutate(interventions()[intervention_id], baseline)


# The default length (short) in the default suite; the longer renderings in the slow step.
EVERY_LENGTH = [
    pytest.param(length, marks=() if length == "short" else pytest.mark.slow) for length in CHART_LENGTHS
]


@pytest.mark.parametrize("length", EVERY_LENGTH)
def test_every_emitted_tuple_is_minimal_at_every_length(length: str) -> None:
    plans, _ = _all_plans()
    found = minimality_audit(list(plans), (length,))
    assert {key: sum(c.values()) for key, c in found.items()} == {length: 0}


def test_divergence_dates_are_the_structural_events() -> None:
    baseline, mutated = _pair("D1_surgery_removed")
    assert divergence_date(baseline, mutated) == baseline.diagnosis_date + dt.timedelta(days=12)
    baseline, mutated = _pair("B2_progression_on_current_line")
    assert divergence_date(baseline, mutated) == mutated.lines[-1].progression_scan
    baseline, mutated = _pair("A1_her2_flip")
    assert divergence_date(baseline, mutated) == baseline.diagnosis_date


def test_planted_redating_of_lab_panels_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pre-issue-21 bug: panels dated back from the board date move when the board date moves."""

    def board_anchored(self: ChartRenderer) -> list[tuple[dt.date, str]]:
        return [(self.board_date() - dt.timedelta(days=2 + 21 * k), "markers") for k in range(10)]

    baseline, mutated = _pair("D1_surgery_removed")
    assert minimality_violations(baseline, mutated, "long") == []
    monkeypatch.setattr(ChartRenderer, "lab_dates", board_anchored)
    reasons = {v.reason for v in minimality_violations(baseline, mutated, "long")}
    assert reasons == {"pre_divergence_document_changed", "untraced_change"}


def test_planted_untraced_sentence_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sentence that depends on the surgery but is not declared as such (no fact key)."""
    original = ChartRenderer.history

    def undeclared(self: ChartRenderer) -> str:
        extra = "Operated." if self.case.surgery is not None else "Not operated."
        return original(self) + "\n" + extra

    baseline, mutated = _pair("D2_surgery_added")
    monkeypatch.setattr(ChartRenderer, "history", undeclared)
    found = minimality_violations(baseline, mutated, "short")
    assert {(v.reason, v.section, v.detail) for v in found} == {
        ("untraced_change", "history", "Operated."),
        ("untraced_change", "history", "Not operated."),
    }


# ------------------------------------------------------------------ text-validator canaries


def _rebiopsy_chart() -> tuple[str, dict[str, str]]:
    for plan in _all_plans()[0]:
        if plan.intervention_id in ("A1_her2_flip", "A2_hormone_receptor_flip"):
            baseline = case_by_id(plan.case_id)
            mutated = mutate(interventions()[plan.intervention_id], baseline)
            if mutated.rebiopsy is not None:
                return mutated.cancer, render_sections(mutated, "long")
    raise AssertionError("no receptor-conversion tuple emitted")


def test_rebiopsy_is_in_the_procedures_section_and_its_removal_is_caught() -> None:
    cancer, sections = _rebiopsy_chart()
    assert chart_violations(sections, cancer) == []
    assert "metastasis (18-gauge" in sections["procedures"]
    planted = dict(sections)
    planted["procedures"] = "\n".join(
        line for line in sections["procedures"].splitlines() if "metastasis" not in line
    )
    assert {v.reason for v in chart_violations(planted, cancer)} == {"specimen_without_procedure"}


def test_cycle_log_agrees_with_the_same_day_blood_count_and_a_mismatch_is_caught() -> None:
    cancer, sections = _rebiopsy_chart()
    assert "pre-treatment ANC" in sections["treatment_history"]
    planted = dict(sections)
    planted["treatment_history"] = sections["treatment_history"].replace("platelets ", "platelets 1", 1)
    assert {v.reason for v in chart_violations(planted, cancer)} == {"cycle_log_disagrees_with_blood_count"}
