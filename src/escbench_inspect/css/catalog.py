"""The pre-registered intervention catalog: applicability and structured mutation operators.

An intervention never edits text. It changes the structured :class:`Case`; the chart is then
re-rendered from scratch, so every section that mentions the changed fact says the new thing.
"""

from __future__ import annotations

import datetime as dt

from escbench_inspect.css.consensus import facts_of
from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.generator import make_first_line, make_metastatic_sites, make_surgery
from escbench_inspect.css.rules import matches
from escbench_inspect.css.schema import Case, Intervention
from escbench_inspect.integrity import content_hash


class MutationError(ValueError):
    """The operator cannot produce a mutated case; ``reason`` is the exclusion reason."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


def catalog_sha256(data: CssData | None = None) -> str:
    """sha256 of the catalog's canonical JSON (recorded in every log's task metadata)."""
    return content_hash((data or packaged_data()).catalog_raw)


def interventions(data: CssData | None = None) -> dict[str, Intervention]:
    return {iv.id: iv for iv in (data or packaged_data()).catalog.interventions}


def applies(intervention: Intervention, case: Case, data: CssData | None = None) -> bool:
    """Whether the intervention's pre-registered rule admits ``case``."""
    return matches(facts_of(case, data), intervention.applies_if)


def target_biomarker(intervention: Intervention, case: Case) -> str | None:
    return intervention.change.targets.get(case.cancer)


def mutate(intervention: Intervention, case: Case, data: CssData | None = None) -> Case:
    """Apply the structured change; raises :class:`MutationError` if it cannot be applied."""
    data = data or packaged_data()
    change = intervention.change
    op = change.op
    update: dict = {}
    if op in ("set_biomarker", "delete_biomarker"):
        marker = change.targets.get(case.cancer)
        if marker is None or marker not in case.biomarkers:
            raise MutationError("biomarker_not_in_case")
        old = case.biomarkers[marker]
        biomarkers = dict(case.biomarkers)
        if op == "delete_biomarker":
            if old is None:
                raise MutationError("biomarker_already_absent")
            biomarkers[marker] = None
        else:
            new = change.map.get(marker, {}).get(old or "")
            if new is None:
                raise MutationError("no_flip_for_state")
            biomarkers[marker] = new
            for coupled in change.couple:
                if coupled in biomarkers:
                    biomarkers[coupled] = new
        update["biomarkers"] = biomarkers
    elif op == "add_progressed_first_line":
        line = make_first_line(case, data, "progressed")
        if line is None:
            raise MutationError("no_standard_first_line")
        update["lines"] = (*case.lines, line)
    elif op == "progress_current_line":
        if not case.lines or case.lines[-1].status != "ongoing":
            raise MutationError("no_ongoing_line")
        current = case.lines[-1]
        cycle_days = data.regimens[current.regimen].cycle_days
        progressed = current.model_copy(
            update={
                "status": "progressed",
                "end": current.start + dt.timedelta(days=current.cycles * cycle_days),
            }
        )
        update["lines"] = (*case.lines[:-1], progressed)
    elif op == "remove_surgery":
        if case.surgery is None:
            raise MutationError("no_surgery_to_remove")
        update["surgery"] = None
    elif op == "add_surgery":
        if case.surgery is not None:
            raise MutationError("already_resected")
        update["surgery"] = make_surgery(case, data)
    elif op == "add_metastases":
        if case.m == "M1":
            raise MutationError("already_metastatic")
        update.update(m="M1", metastatic_sites=make_metastatic_sites(case, data))
    elif op == "remove_metastases":
        if case.m == "M0":
            raise MutationError("not_metastatic")
        update.update(m="M0", metastatic_sites=())
    else:  # pragma: no cover - the schema restricts op
        raise MutationError(f"unknown_op_{op}")
    return Case.model_validate({**case.model_dump(), **update})


def expected_direction(intervention: Intervention, baseline: Case, mutated: Case) -> str:
    """The pre-registered direction for this tuple (for flips: keyed by the new state)."""
    direction = intervention.expected_direction
    if isinstance(direction, str):
        return direction
    marker = target_biomarker(intervention, baseline)
    new_state = mutated.biomarkers.get(marker or "")
    return direction[new_state or ""]
