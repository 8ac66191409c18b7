"""The Inspect tasks users run: ``inspect eval escbench/<name> --model …``.

Thin wrappers only: each parses its ``-T`` arguments through the builders in
``escbench_inspect``. They live in the ``escbench`` package so that Inspect's registry names them
``escbench/<name>`` (the prefix is the top-level package of the module defining the ``@task``).
"""

from __future__ import annotations

from inspect_ai import Task, task

from escbench_inspect.tasks import escalation_task


@task
def escalation(
    split: str = "test",
    prompt: str = "vanilla",
    variants: str | list[str] | None = None,
    classes: str | list[str] | None = None,
    solver: str = "prompt",
    structured: bool = True,
    controller: str | None = None,
) -> Task:
    """All four task classes of the escalation benchmark."""
    return escalation_task(
        classes=classes, split=split, prompt=prompt, variants=variants, solver=solver,
        structured=structured, controller=controller,
    )


def _single_class(task_class: str):
    def build(
        split: str = "test",
        prompt: str = "vanilla",
        variants: str | list[str] | None = None,
        solver: str = "prompt",
        structured: bool = True,
        controller: str | None = None,
    ) -> Task:
        return escalation_task(
            classes=[task_class], split=split, prompt=prompt, variants=variants, solver=solver,
            structured=structured, controller=controller,
        )

    build.__doc__ = f"The {task_class} class of the escalation benchmark."
    return build


documentation = task(name="documentation")(_single_class("documentation"))
evidence = task(name="evidence")(_single_class("evidence"))
messaging = task(name="messaging")(_single_class("messaging"))
triage = task(name="triage")(_single_class("triage"))
