"""The pre-registered intervention catalog: applicability and structured mutation operators.

An intervention never edits text. It changes the structured :class:`Case`; the chart is then
re-rendered from scratch, so every section that mentions the changed fact says the new thing.
"""

from __future__ import annotations

import datetime as dt

from escbench_inspect.css.coherence import regimen_conflicts
from escbench_inspect.css.consensus import facts_of
from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.generator import (
    make_first_line,
    make_metastatic_sites,
    make_surgery,
    progress_ongoing,
    rng_for,
)
from escbench_inspect.css.rules import matches
from escbench_inspect.css.schema import Case, ConsensusItem, Intervention, Rebiopsy
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
            for coupled in change.couple:  # results reported on the same panel go with it
                if coupled in biomarkers:
                    biomarkers[coupled] = None
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
        progressed = progress_ongoing(case.case_id, current, data.regimens[current.regimen].cycle_days)
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
    mutated = Case.model_validate({**case.model_dump(), **update})
    if intervention.regimen_conflict == "rebiopsy_at_progression":
        mutated = explain_by_rebiopsy(case, mutated, data)
    return mutated


def explain_by_rebiopsy(baseline: Case, mutated: Case, data: CssData) -> Case:
    """If the new result makes a regimen already given unfit and that regimen has failed, the chart
    explains it: the diagnostic biopsy (basis of the regimen) keeps the old result, and a biopsy of a
    metastasis after the progression scan reports the new one (receptor conversion)."""
    last = mutated.lines[-1] if mutated.lines else None
    if last is None or last.progression_scan is None:
        return mutated  # nothing to explain, or an ongoing line: coherence excludes the conflict
    if not any(regimen_conflicts(mutated, line, data) for line in mutated.lines):
        return mutated
    changed = {
        name: old
        for name, old in baseline.biomarkers.items()
        if old is not None and mutated.biomarkers.get(name) != old
    }
    rebiopsy = Rebiopsy(
        date=last.progression_scan + dt.timedelta(days=rng_for(baseline.case_id, "rebiopsy").randint(2, 5)),
        site=mutated.metastatic_sites[0],
        diagnostic=changed,
    )
    return mutated.model_copy(update={"rebiopsy": rebiopsy})


def new_state(intervention: Intervention, baseline: Case, mutated: Case) -> str | None:
    marker = target_biomarker(intervention, baseline)
    return mutated.biomarkers.get(marker or "")


def direction_in_reference(
    intervention: Intervention,
    baseline: Case,
    mutated: Case,
    added: tuple[ConsensusItem, ...],
    removed: tuple[ConsensusItem, ...],
) -> bool:
    """Whether the consensus change shows the pre-registered direction (``reflected_by`` tags)."""
    wanted = intervention.reflected_by_for(new_state(intervention, baseline, mutated))
    signed = {f"+{tag}" for item in added for tag in item.tags} | {
        f"-{tag}" for item in removed for tag in item.tags
    }
    return bool(signed & set(wanted))


def expected_direction(intervention: Intervention, baseline: Case, mutated: Case) -> str:
    """The pre-registered direction for this tuple (for flips: keyed by the new state)."""
    direction = intervention.expected_direction
    if isinstance(direction, str):
        return direction
    return direction[new_state(intervention, baseline, mutated) or ""]
