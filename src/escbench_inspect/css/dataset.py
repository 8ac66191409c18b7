"""CSS tuples: (case, intervention) pairs, exclusions, the audit API and the Inspect dataset.

``css_tuples(**params)`` is the audit API: it takes the task's dataset parameters and yields every
emitted tuple with its baseline and mutated chart sections, so counterfactuals can be inspected
without running a model. Samples carry only identifiers and judge references in their metadata;
the charts are regenerated on demand by :func:`chart_sections` (deterministic), which is also the
hook for tool-using variants (``read_chart_section``).

Building the tuples validates every chart at every length (tens of seconds); that happens once per
version of the ``css`` package's code and data, in :func:`build_corpus`, and the result is cached on
disk (:mod:`escbench_inspect.css.cache`, keyed by :func:`corpus_key`). Loading a task reads the
cache: plans, exclusions, the tumor-board question of each chart (the sample input) and each arm's
canonical case JSON (the dataset hash), so no chart is rendered or checked until a sample runs.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pydantic

from escbench_inspect import progress
from escbench_inspect.css import cache
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
from escbench_inspect.integrity import canonical_json

if TYPE_CHECKING:
    from inspect_ai.dataset import MemoryDataset

FAMILIES: tuple[str, ...] = ("A", "B", "C", "D", "E")
QUESTION_SECTION = "tumor_board_question"


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
    # imported here: ``params`` pulls in Inspect, which the corpus build workers do not need
    from escbench_inspect.params import TaskParameterError

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
    all_ids = list(_corpus().case_ids)
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


def chart_text_problem(
    case: Case, data: CssData, rendered: dict[str, dict[str, str]] | None = None
) -> str | None:
    """First text-level violation of ``case``'s chart at any chart length, as ``chart:<reason>``.

    ``rendered`` (if given) receives the sections of every length checked, keyed by length.
    """
    for length in CHART_LENGTHS:
        sections = render_sections(case, length, data)
        if rendered is not None:
            rendered[length] = sections
        violations = chart_violations(sections, case.cancer, data)
        if violations:
            return f"chart:{violations[0].reason}"
    return None


def arm_key(case_id: str, intervention_id: str | None) -> str:
    """``case_id`` for a baseline chart, ``case_id__intervention_id`` for a mutated one."""
    return case_id if intervention_id is None else f"{case_id}__{intervention_id}"


@dataclass
class ArmRecord:
    """What :func:`build_plans` keeps of each checked chart for the cache (optional collector)."""

    questions: dict[str, dict[str, str]] = field(default_factory=dict)  # arm -> length -> question
    case_json: dict[str, str] = field(default_factory=dict)  # arm -> canonical JSON of the case

    def add(self, case: Case, intervention_id: str | None, rendered: dict[str, dict[str, str]]) -> None:
        key = arm_key(case.case_id, intervention_id)
        self.questions[key] = {length: s[QUESTION_SECTION] for length, s in rendered.items()}
        self.case_json[key] = canonical_json(case.model_dump(mode="json"))


def build_plans(
    cases: Iterable[Case], data: CssData, arms: ArmRecord | None = None
) -> tuple[tuple[TuplePlan, ...], tuple[tuple[str, str, str], ...]]:
    """Every (case, intervention) outcome: emitted plans and (case_id, intervention_id, reason).

    A tuple is emitted only if the mutation applies, the mutated case is coherent, the consensus
    changes, the change reflects the pre-registered direction, and both arms' charts pass the
    text-level validator at every chart length. ``arms`` (if given) collects both arms' question
    sections and case JSON of every emitted tuple, from the charts rendered for the check.
    """
    plans: list[TuplePlan] = []
    excluded: list[tuple[str, str, str]] = []
    for case in cases:
        base_items = consensus_items(case, data)
        base_rendered: dict[str, dict[str, str]] = {}
        base_text_problem = chart_text_problem(case, data, base_rendered)
        base_recorded = False
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
            rendered: dict[str, dict[str, str]] = {}
            text_problem = base_text_problem or chart_text_problem(mutated, data, rendered)
            if text_problem:
                excluded.append((case.case_id, iv.id, text_problem))
                continue
            if arms is not None:
                arms.add(mutated, iv.id, rendered)
                if not base_recorded:
                    arms.add(case, None, base_rendered)
                    base_recorded = True
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


@dataclass(frozen=True)
class BuiltCorpus:
    """The packaged corpus as built and validated: what loading a task needs, without rendering."""

    case_ids: tuple[str, ...]
    plans: tuple[TuplePlan, ...]
    excluded: tuple[tuple[str, str, str], ...]
    questions: dict[str, dict[str, str]]  # arm_key -> chart length -> tumor-board question section
    case_json: dict[str, str]  # arm_key -> canonical JSON of that arm's case

    def to_json(self) -> dict[str, Any]:
        return {
            "case_ids": list(self.case_ids),
            "plans": [asdict(p) for p in self.plans],
            "excluded": [list(e) for e in self.excluded],
            "questions": self.questions,
            "case_json": self.case_json,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BuiltCorpus:
        plans = tuple(
            TuplePlan(
                **{
                    **p,
                    "consensus_baseline": tuple(p["consensus_baseline"]),
                    "consensus_added": tuple(p["consensus_added"]),
                    "consensus_removed": tuple(p["consensus_removed"]),
                }
            )
            for p in data["plans"]
        )
        return cls(
            case_ids=tuple(data["case_ids"]),
            plans=plans,
            excluded=tuple(tuple(e) for e in data["excluded"]),  # type: ignore[misc]
            questions=data["questions"],
            case_json=data["case_json"],
        )


def build_corpus(cases: Sequence[Case], data: CssData, show_progress: bool = True) -> BuiltCorpus:
    """Build and validate every tuple of ``cases`` (the slow step the cache saves)."""
    arms = ArmRecord()
    checked = progress.steps(cases, BUILD_STEP, total=len(cases)) if show_progress else cases
    plans, excluded = build_plans(checked, data, arms)
    return BuiltCorpus(tuple(c.case_id for c in cases), plans, excluded, arms.questions, arms.case_json)


BUILD_STEP = "building the CSS corpus (cached afterwards)"
CASES_PER_CHUNK = 10
MAX_BUILD_WORKERS = 8


def _build_packaged_chunk(case_ids: list[str]) -> dict[str, Any]:
    """One worker's share of :func:`build_packaged_corpus`: these cases of the packaged corpus."""
    return build_corpus([_case(i) for i in case_ids], packaged_data(), show_progress=False).to_json()


def build_packaged_corpus(workers: int | None = None) -> dict[str, Any]:
    """The packaged corpus built in ``workers`` processes (default: one per core, at most 8).

    Cases are independent, so chunks of cases are built apart and joined in corpus order: the result
    is the serial :func:`build_corpus` (a test checks it). A machine where processes cannot be started
    (a daemonic worker, a sandbox) gets the serial build.
    """
    ids = [case.case_id for case in corpus()]
    workers = min(MAX_BUILD_WORKERS, os.cpu_count() or 1) if workers is None else workers
    if workers > 1 and not multiprocessing.current_process().daemon:
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        chunks = [ids[i : i + CASES_PER_CHUNK] for i in range(0, len(ids), CASES_PER_CHUNK)]
        # spawn, not fork: the caller may be an eval with threads running
        context = multiprocessing.get_context("spawn")
        try:
            with ProcessPoolExecutor(min(workers, len(chunks)), mp_context=context) as pool:
                parts = list(progress.steps(pool.map(_build_packaged_chunk, chunks), BUILD_STEP, len(chunks)))
        except (OSError, BrokenProcessPool):
            pass
        else:
            return {
                "case_ids": ids,
                "plans": [plan for part in parts for plan in part["plans"]],
                "excluded": [item for part in parts for item in part["excluded"]],
                "questions": {k: v for part in parts for k, v in part["questions"].items()},
                "case_json": {k: v for part in parts for k, v in part["case_json"].items()},
            }
    return build_corpus(corpus(), packaged_data()).to_json()


@lru_cache(maxsize=1)
def corpus_key() -> str:
    """Content hash of everything that shapes the built corpus: the ``css`` package's code and data
    files (generator, renderer, checks, catalog, YAML), and the Python and pydantic versions.
    Recorded in each CSS log's task metadata as ``css_source_sha256``."""
    versions = {"python": list(sys.version_info[:2]), "pydantic": pydantic.VERSION}
    return cache.source_sha256(Path(__file__).parent, versions)


@lru_cache(maxsize=1)
def _corpus() -> BuiltCorpus:
    """The packaged corpus: from the on-disk cache, or built (and cached) on a miss."""

    def build() -> dict[str, Any]:
        progress.note(f"CSS corpus: not built for this code version; building it in {cache.cache_folder()}")
        return build_packaged_corpus()

    return BuiltCorpus.from_json(cache.load_or_build("css-corpus", corpus_key(), build))


def _all_plans() -> tuple[tuple[TuplePlan, ...], tuple[tuple[str, str, str], ...]]:
    """Every (case, intervention) outcome over the packaged corpus (built once per code version)."""
    built = _corpus()
    return built.plans, built.excluded


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
        for plan in progress.steps(plans, f"checking the {length} charts"):
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


def sample_input(plan: TuplePlan, chart_length: str) -> str:
    """What Inspect View shows as the sample's input: the case, the changed fact, and the tumor-board
    question section of both charts (the model sees each full chart in its own conversation)."""
    questions = _corpus().questions
    original = questions[arm_key(plan.case_id, None)][chart_length]
    changed = questions[arm_key(plan.case_id, plan.intervention_id)][chart_length]
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
    """sha256 of what the selection shows models and judges (independent of Inspect).

    The content hash of ``{"chart_length": …, "tuples": [{"baseline": case, "meta": sample
    metadata, "mutated": case}, …]}``, fed to sha256 piece by piece from the cached canonical JSON
    of each arm (canonical JSON nests: the pieces concatenate to the canonical JSON of the whole).
    """
    plans, _ = plan_tuples(selection)
    case_json = _corpus().case_json
    digest = hashlib.sha256(f'{{"chart_length":{canonical_json(selection.chart_length)},"tuples":['.encode())
    for index, plan in enumerate(plans):
        piece = (
            f'{"," if index else ""}{{"baseline":{case_json[arm_key(plan.case_id, None)]},'
            f'"meta":{canonical_json(sample_metadata(plan, selection.chart_length))},'
            f'"mutated":{case_json[arm_key(plan.case_id, plan.intervention_id)]}}}'
        )
        digest.update(piece.encode("utf-8"))
    digest.update(b"]}")
    return digest.hexdigest()


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
        "css_source_sha256": corpus_key(),
        "css_tuples": len(samples),
        "css_cases": len({p.case_id for p in plans}),
        "css_excluded": dict(sorted(reasons.items())),
        "css_families": list(selection.families),
        "css_interventions": list(selection.interventions),
        "css_chart_length": selection.chart_length,
    }
    return MemoryDataset(samples, name="escbench_css"), provenance
