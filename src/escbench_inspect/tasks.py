"""Builders behind the ``escbench/*`` escalation tasks (the ``@task`` wrappers are in escbench)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from inspect_ai import Task
from inspect_ai.scorer import Scorer

from escbench_inspect.datasets.escalation import SPLITS, dataset_fingerprint, escalation_dataset
from escbench_inspect.datasets.schema import SeedScenario, TaskClass, Variant
from escbench_inspect.integrity import content_hash, package_version
from escbench_inspect.listing import task_version
from escbench_inspect.params import TaskParameterError, boolean, choice, enum_list
from escbench_inspect.scorers.escalation import HEADLINE, escalation_scorer
from escbench_inspect.solvers.decision import decision_solver
from escbench_inspect.solvers.prompts import PROMPT_CONDITIONS

SOLVERS: tuple[str, ...] = ("prompt", "agent")


def escalation_task(
    *,
    classes: str | Sequence[str] | None = None,
    split: Literal["test", "dev", "all"] = "test",
    prompt: Literal["vanilla", "uncertainty"] = "vanilla",
    variants: str | Sequence[str] | None = None,
    solver: Literal["prompt", "agent"] = "prompt",
    structured: bool = True,
    controller: str | None = None,
    recover_tool_calls: bool = False,
    detectors: Literal["rule", "model", "both"] | None = None,
    labels: str | None = None,
    seeds: Sequence[SeedScenario] | None = None,
) -> Task:
    """Escalation episodes of the chosen classes, split and variants, scored by action set.

    The single definition of the escalation tasks' parameters: the ``escbench/*`` wrappers take
    this signature (less ``seeds``, and less ``classes`` for the per-class tasks).

    Args:
        classes: task classes, comma-separated or a list (default all four): documentation,
            evidence, messaging, triage.
        split: test | dev | all (the seed-level split; the controller is tuned on dev).
        prompt: vanilla | uncertainty (the uncertainty prompt offers Ask_Clarification first).
        variants: episode variants, comma-separated or a list (default all five): clean,
            missing, stale, conflict, late_risk.
        solver: prompt (one structured reply) | agent (ReAct over ``read_chart_section``).
        structured: ask for JSON through the provider's structured-output schema.
        controller: an ``escbench tune`` file; adds the controller and ablation scorers.
        recover_tool_calls: agent only: turn a tool call written as bare JSON text into a
            real one (for weak local models; not comparable to native tool use).
        detectors: rule | model | both: the C/M/H source of the controller scorers (default: the
            one each controller was tuned with); model and both need the ``detector`` role.
        labels: an ``escbench review export --labels`` file: score against the clinicians'
            adjudicated acceptable sets instead of the authored ones (its sha256 is recorded).
        seeds: Python API only: replaces the packaged corpus, e.g. with a reviewer's scenarios.
    """
    chosen_classes = enum_list("classes", classes, TaskClass)
    chosen_variants = enum_list("variants", variants, Variant)
    split = choice("split", split, SPLITS)
    prompt = choice("prompt", prompt, PROMPT_CONDITIONS)
    solver = choice("solver", solver, SOLVERS)
    structured = boolean("structured", structured)
    recover_tool_calls = boolean("recover_tool_calls", recover_tool_calls)
    from escbench_inspect.controller.model_detector import DETECTOR_SOURCES

    if detectors is not None:
        detectors = choice("detectors", detectors, DETECTOR_SOURCES)
    if controller is not None and not isinstance(controller, str):
        raise TaskParameterError("controller", controller, "a path to a controller file from `escbench tune`")
    if recover_tool_calls and solver != "agent":
        raise TaskParameterError(
            "recover_tool_calls",
            recover_tool_calls,
            ["False (it applies only with solver=agent; solver=prompt makes no tool calls)"],
        )

    if solver == "agent":
        from escbench_inspect.agents.escalation import agent_escalation_task_parts

        dataset, task_solver, agent_scorers = agent_escalation_task_parts(
            split,
            chosen_classes,
            chosen_variants,
            seeds,
            prompt=prompt,
            structured=structured,
            recover_tool_calls=recover_tool_calls,
        )
    else:
        dataset = escalation_dataset(split, chosen_classes, chosen_variants, seeds)
        task_solver, agent_scorers = decision_solver(prompt=prompt, structured=structured), []
    labels_record = _apply_labels(dataset, labels, seeds)
    scorers: list[Scorer] = [escalation_scorer()]
    sources = {detectors} if detectors else set()
    if controller is not None:
        from escbench.scorers import controller_scorers
        from escbench_inspect.controller.scorer import detector_sources

        scorers.extend(controller_scorers(controller, detectors))
        sources = sources or detector_sources(controller)
    if sources - {"rule"}:
        from escbench.scorers import model_detector

        scorers.append(model_detector())
    scorers.extend(agent_scorers)
    return Task(
        version=task_version(),
        dataset=dataset,
        solver=task_solver,
        scorer=scorers,
        headline_metric=HEADLINE,
        metadata={
            "benchmark": "escbench-escalation",
            "escbench_version": package_version(),
            "dataset_hash": content_hash(dataset_fingerprint(dataset)),
            "prompt": prompt,
            "split": split,
            "classes": [c.value for c in chosen_classes],
            "variants": [v.value for v in chosen_variants],
            "solver": solver,
            "structured": structured,
            "recover_tool_calls": recover_tool_calls,
            "detectors": sorted(sources) or ["rule"],
            "labels": labels_record,
        },
    )


def _apply_labels(dataset, labels: object, seeds: Sequence[SeedScenario] | None) -> dict | None:
    """Relabel the dataset from an adjudicated labels file; the record kept in the task metadata."""
    if labels is None:
        return None
    from pathlib import Path

    if not isinstance(labels, str) or not Path(labels).is_file():
        raise TaskParameterError("labels", labels, "the path of an `escbench review export --labels` file")
    from escbench_inspect.datasets.assembly import default_seeds, iter_episodes
    from escbench_inspect.review.labels import load_labels, relabel_samples

    loaded = load_labels(labels)
    known = {e.episode_id for e in iter_episodes(default_seeds() if seeds is None else seeds)}
    changed = relabel_samples(dataset, loaded, known)
    return {
        "file": loaded.path,
        "sha256": loaded.sha256,
        "labelled": len(loaded.episodes),
        "changed": changed,
    }
