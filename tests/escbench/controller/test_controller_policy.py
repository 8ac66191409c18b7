"""Controller truth table, risk score and controller-file loading."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from escbench_inspect.controller.scorer import (
    ControllerConfig,
    Thresholds,
    Weights,
    apply_policy,
    load_controller,
    risk,
)
from escbench_inspect.datasets.errors import DataFileError
from escbench_inspect.datasets.schema import Action

A, Q, B, E = Action.ANSWER, Action.ASK_CLARIFICATION, Action.ABSTAIN, Action.ESCALATE
T = Thresholds(low=0.5, high=1.0)


@pytest.mark.parametrize(
    ("action", "r", "expected"),
    [
        # R ≥ τ_high → Escalate, whatever the model chose (or if its output was invalid)
        (A, 1.0, E),
        (Q, 1.2, E),
        (B, 1.0, E),
        (E, 1.0, E),
        (None, 1.0, E),
        # τ_low ≤ R < τ_high: only Answer (and invalid) become Ask_Clarification
        (A, 0.5, Q),
        (A, 0.99, Q),
        (None, 0.5, Q),
        (Q, 0.7, Q),
        (B, 0.7, B),
        (E, 0.7, E),
        # R < τ_low: keep
        (A, 0.49, A),
        (Q, 0.0, Q),
        (B, 0.2, B),
        (E, 0.0, E),
        (None, 0.1, None),
    ],
)
def test_truth_table(action: Action | None, r: float, expected: Action | None) -> None:
    assert apply_policy(action, r, T) is expected


def test_never_thresholds() -> None:
    never = Thresholds(low=None, high=None)
    assert apply_policy(A, 1e9, never) is A
    assert apply_policy(A, 0.3, Thresholds(low=0.25, high=None)) is Q


def test_risk_and_missing_confidence_rule() -> None:
    w = Weights(conflict=0.25, missing=0.5, high_risk=1.0, uncertainty=0.5)
    assert risk(w, True, False, True, 0.8) == pytest.approx(0.25 + 1.0 + 0.5 * 0.2)
    assert risk(w, False, False, False, None) == pytest.approx(0.5)  # missing → uncertainty 1
    assert risk(w, False, False, False, 1.0) == 0.0


def _config(ablation: str = "full") -> ControllerConfig:
    return ControllerConfig(
        name=ablation,
        ablation=ablation,  # type: ignore[arg-type]
        weights=Weights(conflict=0.5, missing=0.25, high_risk=0.5, uncertainty=0.0),
        thresholds=Thresholds(low=0.25, high=0.5),
    )


def test_load_controller_file_and_ablations(tmp_path: Path) -> None:
    path = tmp_path / "controller.json"
    path.write_text(
        json.dumps(
            {
                "controllers": {v: _config(v).model_dump() for v in ("full", "workflow_only")},
            }
        )
    )
    assert load_controller(path).ablation == "full"
    assert load_controller(path, "workflow_only").ablation == "workflow_only"
    with pytest.raises(DataFileError, match="confidence_only"):
        load_controller(path, "confidence_only")
    single = tmp_path / "single.json"
    single.write_text(_config().model_dump_json())
    assert load_controller(single).thresholds.high_value == 0.5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "x", "weights": {"conflict": -1}}))
    with pytest.raises(DataFileError, match="bad.json"):
        load_controller(bad)
    assert math.isinf(Thresholds(low=None, high=None).high_value)
