"""Running a task with a scripted agent model, for the agent tests."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import eval
from inspect_ai.log import EvalLog

from escbench_inspect.testing.agents import fixed_script, scripted_agent_model


def run_scripted(task, steps: list, tmp_path: Path, limit: int) -> EvalLog:
    """Evaluate ``task`` on ``limit`` samples with an agent that follows ``steps``; must succeed."""
    log = eval(
        task,
        model=scripted_agent_model(fixed_script(steps)),
        limit=limit,
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success", log.error
    return log
