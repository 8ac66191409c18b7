"""Builders behind the ``escbench/*`` escalation tasks (the ``@task`` wrappers are in escbench)."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai import Task
from inspect_ai.scorer import Scorer

from escbench_inspect.datasets.escalation import SPLITS, dataset_fingerprint, escalation_dataset
from escbench_inspect.datasets.schema import SeedScenario, TaskClass, Variant
from escbench_inspect.integrity import content_hash, package_version
from escbench_inspect.params import TaskParameterError, boolean, choice, enum_list
from escbench_inspect.scorers.escalation import escalation_scorer
from escbench_inspect.solvers.decision import decision_solver
from escbench_inspect.solvers.prompts import PROMPT_CONDITIONS

SOLVERS: tuple[str, ...] = ("prompt", "agent")


def escalation_task(
    classes: str | Sequence[str] | None = None,
    split: str = "test",
    prompt: str = "vanilla",
    variants: str | Sequence[str] | None = None,
    solver: str = "prompt",
    structured: bool = True,
    controller: str | None = None,
    seeds: Sequence[SeedScenario] | None = None,
    recover_tool_calls: bool = False,
    detectors: str | None = None,
) -> Task:
    """Escalation episodes of the chosen classes, split and variants, scored by action set.

    ``seeds`` (Python API only) replaces the packaged corpus, e.g. with a reviewer's own scenarios.
    ``recover_tool_calls`` (agent mode only; see ``agents.recovery``) turns a tool call the model
    wrote as bare JSON text into a real one; with ``solver=prompt`` it is rejected.
    ``detectors`` (rule|model|both): the C/M/H source of the controller scorers (default: the one
    each controller was tuned with). When any source is model or both, the task also records the
    detector model's flags per sample (scorer ``model_detector``, model role ``detector``).
    """
    chosen_classes = enum_list("classes", classes, TaskClass)
    chosen_variants = enum_list("variants", variants, Variant)
    split = choice("split", split, SPLITS)
    prompt = choice("prompt", prompt, PROMPT_CONDITIONS)
    solver = choice("solver", solver, SOLVERS)
    structured = boolean("structured", structured)
    recover_tool_calls = boolean("recover_tool_calls", recover_tool_calls)
    from escbench_inspect.scorers.model_detector import DETECTOR_SOURCES

    if detectors is not None:
        detectors = choice("detectors", detectors, DETECTOR_SOURCES)
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
    scorers: list[Scorer] = [escalation_scorer()]
    sources = {detectors} if detectors else set()
    if controller is not None:
        from escbench_inspect.scorers.controller import controller_scorers, detector_sources

        scorers.extend(controller_scorers(controller, detectors))
        sources = sources or detector_sources(controller)
    if sources - {"rule"}:
        from escbench._scorers import model_detector

        scorers.append(model_detector())
    scorers.extend(agent_scorers)
    return Task(
        dataset=dataset,
        solver=task_solver,
        scorer=scorers,
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
        },
    )
