"""Tuning: known optimum on synthetic records, brute-force agreement, dev-only assertion."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from escbench_inspect.controller import tune as tune_mod
from escbench_inspect.controller.tune import (
    ACTIONS,
    Records,
    SplitLeakError,
    final_actions,
    grid_search,
    metrics,
    weight_grid,
)
from escbench_inspect.datasets.schema import Action


def _records(rows: list[tuple], split: str = "dev") -> Records:
    """rows: (C, M, H, confidence, model action or None, acceptable actions)."""
    n = len(rows)
    acceptable = np.array([[a in ok for a in ACTIONS] for *_, ok in rows], dtype=bool)
    return Records(
        ids=np.array([f"s{i}" for i in range(n)]),
        seed=np.array([f"seed{i % 4}" for i in range(n)]),
        task_class=np.array(
            ["documentation", "evidence", "messaging", "triage"] * (n // 4) + ["triage"] * (n % 4)
        ),
        variant=np.array(["clean"] * n),
        split=np.array([split] * n),
        features=np.array([r[:3] for r in rows], dtype=np.int8),
        confidence=np.array([np.nan if r[3] is None else r[3] for r in rows], dtype=float),
        action=np.array([-1 if r[4] is None else ACTIONS.index(r[4]) for r in rows]),
        acceptable=acceptable,
        required=acceptable[:, ACTIONS.index(Action.ESCALATE)],
        consistency=np.ones(n),
        entropy=np.zeros(n),
    )


A, Q, E = Action.ANSWER, Action.ASK_CLARIFICATION, Action.ESCALATE


def test_known_optimum() -> None:
    # H marks escalation-required episodes, M marks ask episodes; the model always answers.
    rows = (
        [(0, 0, 1, 0.9, A, {E})] * 6
        + [(0, 1, 0, 0.9, A, {Q})] * 6
        + [(0, 0, 0, 0.9, A, {A})] * 8
        + [(1, 1, 1, 0.9, A, {E})] * 2
    )
    result = grid_search(_records(rows))
    assert result.utility_5 == pytest.approx(1.0)
    assert result.accuracy == pytest.approx(1.0)
    # Smallest weight sum that separates H (escalate) from M (ask): w_M = .25, w_H = .5.
    assert result.weights == (0.0, 0.25, 0.5, 0.0)
    assert (result.low, result.high) == (0.25, 0.5)


def _brute_force(records: Records, ablation: str) -> tuple[float, float]:
    best = (-np.inf, -np.inf)
    for w in weight_grid(ablation):
        r = np.round(records.design @ w, 9)
        values = sorted(set(r.tolist())) + [np.inf]
        for low, high in itertools.product(values, values):
            if low > high:
                continue
            m = metrics(records, final_actions(records, w, low, high))
            best = max(best, (round(m["utility_5"], 9), round(m["accuracy"], 9)))
    return best


@pytest.mark.parametrize("ablation", ["workflow_only", "confidence_only"])
def test_vectorized_search_matches_brute_force(ablation: str) -> None:
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(24):
        ok = {list(Action)[rng.integers(4)]}
        action = None if rng.random() < 0.1 else list(Action)[rng.integers(4)]
        conf = None if rng.random() < 0.1 else round(float(rng.random()), 2)
        rows.append((*(int(v) for v in rng.integers(0, 2, 3)), conf, action, ok))
    records = _records(rows)
    result = grid_search(records, ablation)
    achieved = metrics(records, final_actions(records, result.weights, result.low, result.high))
    assert (round(achieved["utility_5"], 9), round(achieved["accuracy"], 9)) == _brute_force(
        records, ablation
    )
    assert achieved["utility_5"] == pytest.approx(result.utility_5)


def test_tuning_never_reads_test_split() -> None:
    rows = [(0, 0, 1, 0.9, A, {E}), (0, 0, 0, 0.9, A, {A})] * 2
    with pytest.raises(SplitLeakError):
        grid_search(_records(rows, split="test"))
    mixed = Records.concat([_records(rows), _records(rows, split="test")])
    with pytest.raises(SplitLeakError):
        grid_search(mixed)


def test_tune_passes_only_dev_records_to_the_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = []
    for split in ("dev", "test"):
        for i, cls in enumerate(["documentation", "evidence", "messaging", "triage"] * 2):
            rows.append(
                {
                    "id": f"{split}{i}",
                    "input": "Chest pain since noon." if i % 2 else "Routine.",
                    "completion": '{"action": "Answer", "confidence": 0.9}',
                    "metadata": {
                        "seed_id": f"{cls}{split}",
                        "task_class": cls,
                        "variant": "clean",
                        "split": split,
                        "escalation_required": bool(i % 2),
                        "acceptable_actions": ["Escalate"] if i % 2 else ["Answer"],
                    },
                }
            )
    monkeypatch.setattr(
        tune_mod,
        "read_log_rows",
        lambda paths, splits, model=None: (
            [r for r in rows if r["metadata"]["split"] in splits],
            {"logs": [], "models": ["m"]},
        ),
    )
    seen: list[set[str]] = []
    real = tune_mod.grid_search

    def spy(records: Records, ablation: str = "full", **kw: object):
        seen.append(set(records.split.tolist()))
        return real(records, ablation)

    monkeypatch.setattr(tune_mod, "grid_search", spy)
    file, _ = tune_mod.tune(["unused.eval"])
    assert seen and all(s == {"dev"} for s in seen)
    assert file.controllers["full"].dev_metrics["controller"]["utility_5"] == pytest.approx(1.0)
    assert file.evaluation["split"] == "test" and len(file.transfer) == 4
    assert file.controllers["workflow_only"].weights.uncertainty == 0
    confidence_only = file.controllers["confidence_only"].weights
    assert confidence_only.conflict == confidence_only.missing == confidence_only.high_risk == 0
