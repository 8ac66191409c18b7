"""Log classification, condition labels and de-duplication of the report's decision reader."""

from __future__ import annotations

import pandas as pd

from escbench_inspect.analysis.logs import (
    CSS_BENCHMARK,
    _drop_duplicates,
    benchmark_of,
    condition_label,
)


def test_benchmark_of_recognizes_escalation_css_and_other_logs() -> None:
    assert benchmark_of({"benchmark": "escbench-escalation"}) == "escbench-escalation"
    assert benchmark_of({"css_recommender": "prompt", "escbench_version": "0.1"}) == CSS_BENCHMARK
    assert benchmark_of({}) is None


def test_condition_label_names_non_default_solver_and_output() -> None:
    assert condition_label({"prompt": "uncertainty", "solver": "prompt", "structured": True}) == (
        "uncertainty"
    )
    assert condition_label({"prompt": "uncertainty", "solver": "agent"}) == "uncertainty+agent"
    assert condition_label({"prompt": "vanilla", "structured": False}) == "vanilla+unstructured"


def test_duplicates_keep_the_newest_log_and_say_so() -> None:
    rows = [
        {
            "model": "m",
            "prompt": "p",
            "controller": "model",
            "id": "e1",
            "epoch": 1,
            "created": "2026-01-02",
            "log": "/logs/new.eval",
            "correct": 1.0,
        },
        {
            "model": "m",
            "prompt": "p",
            "controller": "model",
            "id": "e1",
            "epoch": 1,
            "created": "2026-01-01",
            "log": "/logs/old.eval",
            "correct": 0.0,
        },
        {
            "model": "m",
            "prompt": "p",
            "controller": "model",
            "id": "e2",
            "epoch": 1,
            "created": "2026-01-01",
            "log": "/logs/old.eval",
            "correct": 0.0,
        },
    ]
    kept, notes = _drop_duplicates(pd.DataFrame(rows))
    assert sorted(zip(kept["id"], kept["log"], strict=True)) == [
        ("e1", "/logs/new.eval"),
        ("e2", "/logs/old.eval"),
    ]
    assert len(notes) == 1 and "old.eval" in notes[0] and "1 decisions" in notes[0]
