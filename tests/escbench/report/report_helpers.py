"""Scripted models with known per-seed behaviour, shared by the comparison and HTML report tests.

On the clean and late-risk episodes of twelve test seeds (three per class) of the packaged corpus:

- ``late2``: right on every episode except late-risk ones, where it answers instead of escalating —
  except in the first two seeds, where it escalates;
- ``late10``: the same, but it escalates late-risk in eight more seeds (ten in all);
- ``late2_copy``: the same policy as ``late2``.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai import eval

from escbench_inspect.datasets.assembly import default_seeds
from escbench_inspect.datasets.escalation import select_episodes
from escbench_inspect.datasets.render import render_blocks
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import decision_json, last_user_text, scripted_model


def twelve_seeds() -> list:
    seeds = sorted((s for s in default_seeds() if s.split == "test"), key=lambda s: s.id)
    classes = sorted({s.task_class.value for s in seeds})
    return [s for c in classes for s in [s for s in seeds if s.task_class.value == c][:3]]


SEEDS = twelve_seeds()
ESCALATING = {2: {s.id for s in SEEDS[:2]}, 10: {s.id for s in SEEDS[:10]}}
VARIANTS = "clean,late_risk"  # four episodes per seed keep the logs small
EPISODES = [e for e in select_episodes("test", seeds=SEEDS) if e.variant.value in VARIANTS.split(",")]
BY_TEXT = {render_blocks(e): e for e in EPISODES}


def late_risk_policy(escalating: set[str]):
    def policy(messages) -> str:
        e = BY_TEXT[last_user_text(messages)]
        if e.variant.value == "late_risk" and e.seed_id not in escalating:
            return decision_json("Answer", 0.8)
        return decision_json(e.acceptable_actions[0].value, 0.9)

    return policy


def write_paired_logs(directory: Path) -> dict[str, str]:
    """One log per scripted model (``late2``, ``late10``, ``late2_copy``) -> its path."""
    models = [
        scripted_model(late_risk_policy(ESCALATING[2]), name="late2"),
        scripted_model(late_risk_policy(ESCALATING[10]), name="late10"),
        scripted_model(late_risk_policy(ESCALATING[2]), name="late2_copy"),
    ]
    task = escalation_task(split="test", prompt="uncertainty", seeds=SEEDS, variants=VARIANTS)
    results = eval(task, model=models, log_dir=str(directory), display="none")
    return {log.eval.model.split("/")[-1]: log.location.removeprefix("file://") for log in results}
