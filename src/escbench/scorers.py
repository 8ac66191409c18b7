"""Scorers users apply to existing logs: ``escbench score LOG --controller …`` or
``inspect score LOG --model none/none --scorer escbench/<name> -S path=…``.

Registered in the ``escbench`` package so the names resolve from both editable and regular
installs (Inspect namespaces a registry object by its top-level package and finds it through the
``escbench`` entry point); the implementations live in ``escbench_inspect.scorers.controller``.
"""

from __future__ import annotations

from inspect_ai.scorer import Scorer, scorer

from escbench_inspect.scorers.controller import controller_metrics, load_controller, score_with_controller
from escbench_inspect.scorers.model_detector import MODEL_DETECTOR_METRICS, model_detector_score

# ``detectors`` (-S detectors=rule|model|both) overrides the detector source the file was tuned
# with; model and both need ``--model-role detector=…``.


@scorer(metrics=controller_metrics())
def controller_full(path: str, detectors: str | None = None) -> Scorer:
    """The tuned full controller (all four weights) from an ``escbench tune`` file."""
    return score_with_controller(load_controller(path, "full"), detectors)


@scorer(metrics=controller_metrics())
def controller_workflow_only(path: str, detectors: str | None = None) -> Scorer:
    """The workflow-only ablation (w_U = 0) from an ``escbench tune`` file."""
    return score_with_controller(load_controller(path, "workflow_only"), detectors)


@scorer(metrics=controller_metrics())
def controller_confidence_only(path: str, detectors: str | None = None) -> Scorer:
    """The confidence-only ablation (w_C = w_M = w_H = 0) from an ``escbench tune`` file."""
    return score_with_controller(load_controller(path, "confidence_only"), detectors)


@scorer(metrics=MODEL_DETECTOR_METRICS)
def model_detector() -> Scorer:
    """C/M/H and evidence from the ``detector`` model role, per sample (read by ``escbench tune``)."""
    return model_detector_score()


VARIANT_SCORERS = {
    "full": controller_full,
    "workflow_only": controller_workflow_only,
    "confidence_only": controller_confidence_only,
}
