"""A regular (non-editable) install resolves the tasks by name and ships the data files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import inspect_eval_cli
from inspect_ai.log import list_eval_logs, read_eval_log

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())


@pytest.mark.slow
def test_regular_install_runs_triage_by_name(tmp_path: Path) -> None:
    # A folder named site-packages: Inspect namespaces registry objects of packages found there.
    site = tmp_path / "site-packages"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [sys.executable, "-c", "import escbench_inspect; print(escbench_inspect.__file__)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert where.startswith(str(site))
    logs = tmp_path / "logs"
    result = inspect_eval_cli("--limit", "2", log_dir=logs, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    log = read_eval_log(list_eval_logs(str(logs))[0].name)
    assert log.status == "success" and len(log.samples) == 2
    assert log.eval.task == "escbench/triage"
    # Metrics are registered in the escbench package: the same names as in an editable install
    # (tests/escbench/escalation/test_tasks.py::test_metric_names_are_escbench_namespaced_and_short).
    names = {name for score in log.results.scores for name in score.metrics if "/" in name}
    assert {"escbench/sensitivity", "escbench/specificity", "escbench/miss_rate"} <= names
    assert all(name.startswith("escbench/") for name in names), names
