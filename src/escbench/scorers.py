"""Scorers users apply to existing logs: ``escbench score LOG --controller …`` or
``inspect score LOG --model none/none --scorer escbench/<name> -S path=…``.

Registered in the ``escbench`` package so the names resolve from both editable and regular
installs (Inspect namespaces a registry object by its top-level package and finds it through the
``escbench`` entry point); the implementations live in ``escbench_inspect.controller``.
"""

from __future__ import annotations

import json
from pathlib import Path

from inspect_ai.scorer import Scorer, scorer

from escbench_inspect.controller.model_detector import MODEL_DETECTOR_METRICS, model_detector_score
from escbench_inspect.controller.scorer import (
    ABLATIONS,
    controller_metrics,
    controller_scorer,
    load_controller,
    score_with_controller,
)

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


ABLATION_SCORERS = {
    "full": controller_full,
    "workflow_only": controller_workflow_only,
    "confidence_only": controller_confidence_only,
}


def controller_scorers(path: str, detectors: str | None = None) -> list[Scorer]:
    """One distinctly named scorer per ablation present in the file (for a task's scorer list)."""
    load_controller(path)  # validates the file first: DataFileError names it on any problem
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    names = list(data.get("controllers", {})) if isinstance(data, dict) else []
    if not names:
        return [controller_scorer(path, detectors=detectors)]
    return [ABLATION_SCORERS[n](path, detectors=detectors) for n in ABLATIONS if n in names]
