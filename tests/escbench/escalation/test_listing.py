"""Task discovery: ``inspect list tasks`` finds all seven; ``eval.yaml`` agrees with the code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import escbench
from escbench_inspect.listing import eval_listing, task_version

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
TASKS = ["css", "css_agent", "documentation", "escalation", "evidence", "messaging", "triage"]


def test_inspect_list_tasks_finds_all_seven_tasks() -> None:
    """Inspect's scanner reads source files statically (``_``-prefixed files are skipped)."""
    result = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "list", "tasks", "src/escbench"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=True,
    )
    assert result.stdout.split() == [f"src/escbench/tasks.py@{name}" for name in TASKS]


def test_public_api_exports_every_task() -> None:
    assert sorted(set(escbench.__all__) - {"samples_df"}) == TASKS
    for name in TASKS:
        assert callable(getattr(escbench, name))


def test_listing_names_every_task_once() -> None:
    assert sorted(task.name for task in eval_listing().tasks) == TASKS


@pytest.mark.parametrize(
    "name", ["escalation", "documentation", "evidence", "messaging", "triage", "css_agent"]
)
def test_listing_sample_counts_and_task_version(name: str) -> None:
    task = getattr(escbench, name)()
    listed = {t.name: t.dataset_samples for t in eval_listing().tasks}
    assert len(task.dataset) == listed[name]
    assert task.version == task_version()


def test_css_listing_sample_count() -> None:
    from escbench_inspect.css.task import css_task

    listed = {t.name: t.dataset_samples for t in eval_listing().tasks}
    task = css_task()
    assert len(task.dataset) == listed["css"] and task.version == task_version()
