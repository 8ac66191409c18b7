"""Scorers users apply to existing logs: ``escbench score LOG --controller …`` or
``inspect score LOG --model none/none --scorer escbench/<name> -S path=…``.

Registered in the ``escbench`` package so the names resolve from both editable and regular
installs (Inspect namespaces a registry object by its top-level package and finds it through the
``escbench`` entry point); the implementations live in ``escbench_inspect.scorers.controller``.
"""

from __future__ import annotations

from inspect_ai.scorer import Scorer, scorer

from escbench_inspect.scorers.controller import load_controller, score_with_controller
from escbench_inspect.scorers.escalation import escalation_metrics


@scorer(metrics=escalation_metrics())
def controller_full(path: str) -> Scorer:
    """The tuned full controller (all four weights) from an ``escbench tune`` file."""
    return score_with_controller(load_controller(path, "full"))


@scorer(metrics=escalation_metrics())
def controller_workflow_only(path: str) -> Scorer:
    """The workflow-only ablation (w_U = 0) from an ``escbench tune`` file."""
    return score_with_controller(load_controller(path, "workflow_only"))


@scorer(metrics=escalation_metrics())
def controller_confidence_only(path: str) -> Scorer:
    """The confidence-only ablation (w_C = w_M = w_H = 0) from an ``escbench tune`` file."""
    return score_with_controller(load_controller(path, "confidence_only"))


VARIANT_SCORERS = {
    "full": controller_full,
    "workflow_only": controller_workflow_only,
    "confidence_only": controller_confidence_only,
}
