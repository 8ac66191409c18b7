"""CSS tuples: (case, intervention) pairs, exclusions, the audit API and the Inspect dataset.

``css_tuples(**params)`` is the audit API: it takes the task's dataset parameters and yields every
emitted tuple with its baseline and mutated chart sections, so counterfactuals can be inspected
without running a model. Samples carry only identifiers and judge references in their metadata;
the charts are regenerated on demand by :func:`chart_sections` (deterministic), which is also the
hook for tool-using variants (``read_chart_section``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from escbench_inspect.css.catalog import (
    MutationError,
    applies,
    direction_in_reference,
    expected_direction,
    interventions,
    mutate,
)
from escbench_inspect.css.chart_check import chart_violations
from escbench_inspect.css.coherence import coherence_problems
from escbench_inspect.css.consensus import consensus_items
from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.generator import corpus
from escbench_inspect.css.render import CHART_LENGTHS, ChartRenderer, render_sections
from escbench_inspect.css.schema import Case
from escbench_inspect.integrity import content_hash
from escbench_inspect.params import TaskParameterError

if TYPE_CHECKING:
    from inspect_ai.dataset import MemoryDataset

FAMILIES: tuple[str, ...] = ("A", "B", "C", "D", "E")


@dataclass(frozen=True)
class CssTuple:
    """One emitted counterfactual tuple (what the audit API yields)."""

    case_id: str
    cancer: str
    family: str
    intervention_id: str
    expected_direction: str
    change_summary: str
    chart_length: str
    consensus_baseline: tuple[dict[str, Any], ...]
    consensus_added: tuple[str, ...]
    consensus_removed: tuple[str, ...]
    baseline_sections: dict[str, str] = field(repr=False)
    mutated_sections: dict[str, str] = field(repr=False)


@dataclass(frozen=True)
class TuplePlan:
    """A tuple without its chart text (what the dataset builder and the solver need)."""

    case_id: str
    cancer: str
    family: str
    intervention_id: str
    intervention_title: str
    expected_direction: str
    change_summary: str
    consensus_baseline: tuple[dict[str, Any], ...]
    consensus_added: tuple[str, ...]
    consensus_removed: tuple[str, ...]


@dataclass(frozen=True)
class Selection:
    """Validated dataset parameters."""

    families: tuple[str, ...]
    interventions: tuple[str, ...]
    case_ids: tuple[str, ...]
    chart_length: str


def _as_list(value: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, (list, tuple)):
        return [str(part).strip() for part in value]
    return [str(value)]  # a number, boolean or mapping from -T: rejected by the caller, by name


def validate_params(
    families: str | Sequence[str] | None = None,
    interventions: str | Sequence[str] | None = None,
    cases: int | str | Sequence[str] | None = None,
    chart_length: str = "short",
) -> Selection:
    """Check the task's dataset parameters; errors list the accepted values."""
    catalog = _interventions()
    fam = _as_list(families)
    if fam is None:
        fam = list(FAMILIES)
    fam = [f.upper() for f in fam]
    bad = [f for f in fam if f not in FAMILIES]
    if bad or not fam:
        raise TaskParameterError("families", families, FAMILIES)
    ivs = _as_list(interventions)
    if ivs is None:
        chosen = [iv_id for iv_id, iv in catalog.items() if iv.family in fam]
    else:
        short = {iv_id.split("_", 1)[0]: iv_id for iv_id in catalog}
        chosen, bad = [], []
        for item in ivs:
            resolved = item if item in catalog else short.get(item.upper())
            (chosen if resolved else bad).append(resolved or item)
        if bad or not chosen:
            raise TaskParameterError(
                "interventions",
                bad or ivs,
                f"{', '.join(catalog)} (or their short forms {', '.join(short)})",
            )
        chosen = [iv_id for iv_id in catalog if iv_id in chosen and catalog[iv_id].family in fam]
        if not chosen:
            raise TaskParameterError("interventions", ivs, f"interventions of the selected families {fam}")
    all_ids = [case.case_id for case in corpus()]
    if cases is None:
        case_ids = all_ids
    elif isinstance(cases, int) or (isinstance(cases, str) and cases.strip().isdigit()):
        count = int(cases)
        if not 1 <= count <= len(all_ids):
            raise TaskParameterError("cases", cases, f"a count between 1 and {len(all_ids)}")
        case_ids = all_ids[:count]
    else:
        wanted = _as_list(cases) or []
        bad = [c for c in wanted if c not in all_ids]
        if bad or not wanted:
            raise TaskParameterError(
                "cases",
                bad or wanted,
                f"a count 1-{len(all_ids)} or ids like {all_ids[0]}, {all_ids[1]} (format <cancer>-NNN)",
            )
        case_ids = [c for c in all_ids if c in wanted]
    if not isinstance(chart_length, str) or chart_length not in CHART_LENGTHS:
        raise TaskParameterError("chart_length", chart_length, CHART_LENGTHS)
    return Selection(tuple(fam), tuple(chosen), tuple(case_ids), chart_length)


def _interventions() -> dict:
    return interventions(packaged_data())


def _case(case_id: str) -> Case:
    return _cases_by_id()[case_id]


@lru_cache(maxsize=1)
def _cases_by_id() -> dict[str, Case]:
    return {case.case_id: case for case in corpus()}


def change_summary(baseline: Case, mutated: Case) -> str:
    """Human-readable description of what the intervention changed (for the judge)."""
    before, after = ChartRenderer(baseline), ChartRenderer(mutated)
    parts = []
    for name, old in baseline.biomarkers.items():
        new = mutated.biomarkers.get(name)
        if old != new:
            spec = before.spec.biomarkers[name]
            old_label = spec.states[old].label if old else "no result in the chart"
            new_label = spec.states[new].label if new else "no result in the chart"
            change = f"{spec.display}: {old_label} -> {new_label}"
            if mutated.rebiopsy is not None and name in mutated.rebiopsy.diagnostic:
                change += (
                    f" (on a re-biopsy of the {mutated.rebiopsy.site} metastasis after progression; "
                    "the diagnostic biopsy result stays in the chart)"
                )
            parts.append(change)
    if before.stage_text() != after.stage_text():
        parts.append(f"stage: {before.stage_text()} -> {after.stage_text()}")
    if baseline.surgery != mutated.surgery:
        parts.append(f"surgery: {before.surgery_status()} -> {after.surgery_status()}")
    if baseline.lines != mutated.lines:
        parts.append(f"systemic therapy: {before.treatment_status()} -> {after.treatment_status()}")
    return "; ".join(parts)


def chart_text_problem(case: Case, data: CssData) -> str | None:
    """First text-level violation of ``case``'s chart at any chart length, as ``chart:<reason>``."""
    for length in CHART_LENGTHS:
        violations = chart_violations(render_sections(case, length, data), case.cancer, data)
        if violations:
            return f"chart:{violations[0].reason}"
    return None


def build_plans(
    cases: Sequence[Case], data: CssData
) -> tuple[tuple[TuplePlan, ...], tuple[tuple[str, str, str], ...]]:
    """Every (case, intervention) outcome: emitted plans and (case_id, intervention_id, reason).

    A tuple is emitted only if the mutation applies, the mutated case is coherent, the consensus
    changes, the change reflects the pre-registered direction, and both arms' charts pass the
    text-level validator at every chart length.
    """
    plans: list[TuplePlan] = []
    excluded: list[tuple[str, str, str]] = []
    for case in cases:
        base_items = consensus_items(case, data)
        base_text_problem = chart_text_problem(case, data)
        for iv in data.catalog.interventions:
            if not applies(iv, case, data):
                continue
            try:
                mutated = mutate(iv, case, data)
            except MutationError as error:
                excluded.append((case.case_id, iv.id, error.reason))
                continue
            problems = coherence_problems(mutated, data)
            if problems:
                excluded.append((case.case_id, iv.id, problems[0]))
                continue
            new_items = consensus_items(mutated, data)
            base_ids = {item.id for item in base_items}
            new_ids = {item.id for item in new_items}
            if base_ids == new_ids:
                excluded.append((case.case_id, iv.id, "semantic_no_op"))
                continue
            added = tuple(i for i in new_items if i.id not in base_ids)
            removed = tuple(i for i in base_items if i.id not in new_ids)
            if not direction_in_reference(iv, case, mutated, added, removed):
                excluded.append((case.case_id, iv.id, "direction_not_in_reference"))
                continue
            text_problem = base_text_problem or chart_text_problem(mutated, data)
            if text_problem:
                excluded.append((case.case_id, iv.id, text_problem))
                continue
            plans.append(
                TuplePlan(
                    case_id=case.case_id,
                    cancer=case.cancer,
                    family=iv.family,
                    intervention_id=iv.id,
                    intervention_title=iv.title,
                    expected_direction=expected_direction(iv, case, mutated),
                    change_summary=change_summary(case, mutated),
                    consensus_baseline=tuple(item.model_dump() for item in base_items),
                    consensus_added=tuple(i.text for i in added),
                    consensus_removed=tuple(i.text for i in removed),
                )
            )
    return tuple(plans), tuple(excluded)


@lru_cache(maxsize=1)
def _all_plans() -> tuple[tuple[TuplePlan, ...], tuple[tuple[str, str, str], ...]]:
    """Every (case, intervention) outcome over the packaged corpus (built once per process)."""
    return build_plans(corpus(), packaged_data())


def plan_tuples(selection: Selection) -> tuple[list[TuplePlan], Counter]:
    """Emitted plans and exclusion counts (by reason) for a validated selection."""
    plans, excluded = _all_plans()
    ivs, case_ids = set(selection.interventions), set(selection.case_ids)
    chosen = [p for p in plans if p.intervention_id in ivs and p.case_id in case_ids]
    reasons = Counter(reason for case_id, iv_id, reason in excluded if iv_id in ivs and case_id in case_ids)
    return chosen, reasons


def exclusions(selection: Selection | None = None) -> list[tuple[str, str, str]]:
    """(case_id, intervention_id, reason) for every excluded tuple of the selection."""
    selection = selection or validate_params()
    _, excluded = _all_plans()
    return [e for e in excluded if e[1] in selection.interventions and e[0] in selection.case_ids]


@lru_cache(maxsize=64)
def _sections_cached(
    case_id: str, intervention_id: str | None, chart_length: str
) -> tuple[tuple[str, str], ...]:
    case = _case(case_id)
    if intervention_id is not None:
        case = mutate(_interventions()[intervention_id], case)
    return tuple(render_sections(case, chart_length).items())


def chart_sections(
    case_id: str, intervention_id: str | None = None, chart_length: str = "short"
) -> dict[str, str]:
    """The ten sections of a case's chart: baseline (``intervention_id=None``) or mutated.

    Deterministic; this is how solvers (and the ReAct ``read_chart_section`` tool) get chart text.
    """
    if chart_length not in CHART_LENGTHS:
        raise ValueError(f"chart_length must be one of {', '.join(CHART_LENGTHS)}")
    return dict(_sections_cached(case_id, intervention_id, chart_length))


def css_tuples(
    families: str | Sequence[str] | None = None,
    interventions: str | Sequence[str] | None = None,
    cases: int | str | Sequence[str] | None = None,
    chart_length: str = "short",
    **_: Any,
) -> Iterator[CssTuple]:
    """Audit API: yield every emitted tuple for the task's dataset parameters.

    Extra keyword arguments (non-dataset task parameters such as ``allow_self_judge``) are
    accepted and ignored, so a task's full ``-T`` dict can be passed through.
    """
    selection = validate_params(families, interventions, cases, chart_length)
    plans, _ = plan_tuples(selection)
    for plan in plans:
        yield CssTuple(
            case_id=plan.case_id,
            cancer=plan.cancer,
            family=plan.family,
            intervention_id=plan.intervention_id,
            expected_direction=plan.expected_direction,
            change_summary=plan.change_summary,
            chart_length=chart_length,
            consensus_baseline=plan.consensus_baseline,
            consensus_added=plan.consensus_added,
            consensus_removed=plan.consensus_removed,
            baseline_sections=chart_sections(plan.case_id, None, chart_length),
            mutated_sections=chart_sections(plan.case_id, plan.intervention_id, chart_length),
        )


def text_audit(selection: Selection, lengths: Sequence[str] = tuple(CHART_LENGTHS)) -> dict[str, Counter]:
    """Text-level violations (by reason) in the emitted tuples' charts, both arms, per chart length.

    Emitted tuples passed the validator when the dataset was built, so every count is expected to be
    zero; ``escbench css audit`` prints this as the evidence.
    """
    plans, _ = plan_tuples(selection)
    found: dict[str, Counter] = {}
    for length in lengths:
        counts: Counter = Counter()
        for plan in plans:
            for arm in (None, plan.intervention_id):
                sections = dict(_sections_cached(plan.case_id, arm, length))
                counts.update({v.reason for v in chart_violations(sections, plan.cancer)})
        found[length] = counts
    return found


def sample_metadata(plan: TuplePlan, chart_length: str) -> dict[str, Any]:
    return {
        "case_id": plan.case_id,
        "cancer": plan.cancer,
        "family": plan.family,
        "intervention_id": plan.intervention_id,
        "intervention_title": plan.intervention_title,
        "expected_direction": plan.expected_direction,
        "change_summary": plan.change_summary,
        "chart_length": chart_length,
        "consensus_items": list(plan.consensus_baseline),
        "consensus_added": list(plan.consensus_added),
        "consensus_removed": list(plan.consensus_removed),
    }


QUESTION_SECTION = "tumor_board_question"


def sample_input(plan: TuplePlan, chart_length: str) -> str:
    """What Inspect View shows as the sample's input: the case, the changed fact, and the tumor-board
    question section of both charts (the model sees each full chart in its own conversation)."""
    original = chart_sections(plan.case_id, None, chart_length)[QUESTION_SECTION]
    changed = chart_sections(plan.case_id, plan.intervention_id, chart_length)[QUESTION_SECTION]
    return (
        f"Tumor-board case {plan.case_id} ({plan.cancer}), counterfactual {plan.intervention_id}: "
        f"{plan.intervention_title}.\n\n"
        f"Changed fact: {plan.change_summary}.\n\n"
        "The model recommends the next management step twice, in independent conversations, each "
        f'over a full ten-section {chart_length} chart: the original chart (span "baseline") and '
        'the chart with this one fact changed (span "mutated"). Their tumor-board question '
        f"sections:\n\nOriginal chart:\n\n{original}\n\nChanged chart:\n\n{changed}"
    )


def dataset_sha256(selection: Selection) -> str:
    """sha256 of what the selection shows models and judges (independent of Inspect)."""
    plans, _ = plan_tuples(selection)
    cases = _cases_by_id()
    ivs = _interventions()
    hashed = [
        {
            "meta": sample_metadata(p, selection.chart_length),
            "baseline": cases[p.case_id].model_dump(mode="json"),
            "mutated": mutate(ivs[p.intervention_id], cases[p.case_id]).model_dump(mode="json"),
        }
        for p in plans
    ]
    return content_hash({"chart_length": selection.chart_length, "tuples": hashed})


def css_dataset(selection: Selection) -> tuple[MemoryDataset, dict[str, Any]]:
    """The Inspect dataset (one sample per emitted tuple) and its provenance record."""
    from inspect_ai.dataset import MemoryDataset, Sample

    plans, reasons = plan_tuples(selection)
    samples = [
        Sample(
            id=f"{plan.case_id}__{plan.intervention_id}",
            input=sample_input(plan, selection.chart_length),
            target=plan.expected_direction,
            metadata=sample_metadata(plan, selection.chart_length),
        )
        for plan in plans
    ]
    # The hash covers the structured cases of both arms, the rendering length and what the judge
    # scores against; rendering is deterministic, so this pins the chart text too.
    provenance = {
        "css_dataset_sha256": dataset_sha256(selection),
        "css_tuples": len(samples),
        "css_cases": len({p.case_id for p in plans}),
        "css_excluded": dict(sorted(reasons.items())),
        "css_families": list(selection.families),
        "css_interventions": list(selection.interventions),
        "css_chart_length": selection.chart_length,
    }
    return MemoryDataset(samples, name="escbench_css"), provenance
