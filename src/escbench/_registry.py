"""The Inspect tasks users run: ``inspect eval escbench/<name> --model …``.

Thin wrappers only: each parses its ``-T`` arguments through the builders in
``escbench_inspect``. They live in the ``escbench`` package so that Inspect's registry names them
``escbench/<name>`` (the prefix is the top-level package of the module defining the ``@task``).
"""

from __future__ import annotations

from inspect_ai import Task, task

from escbench_inspect.params import reject_unknown, task_parameters
from escbench_inspect.tasks import escalation_task

# Each wrapper takes ``**unknown``: Inspect passes -T keys that match no named parameter into it
# (it would otherwise only warn and run with the default), and ``reject_unknown`` turns a
# misspelling such as ``-T varaints=clean`` into an error that suggests the intended name.


@task
def escalation(
    split: str = "test",
    prompt: str = "vanilla",
    variants: str | list[str] | None = None,
    classes: str | list[str] | None = None,
    solver: str = "prompt",
    structured: bool = True,
    controller: str | None = None,
    recover_tool_calls: bool = False,
    detectors: str | None = None,
    **unknown: object,
) -> Task:
    """All four task classes of the escalation benchmark."""
    reject_unknown("escalation", unknown, task_parameters(escalation))
    return escalation_task(
        classes=classes,
        split=split,
        prompt=prompt,
        variants=variants,
        solver=solver,
        structured=structured,
        controller=controller,
        recover_tool_calls=recover_tool_calls,
        detectors=detectors,
    )


def _single_class(task_class: str):
    def build(
        split: str = "test",
        prompt: str = "vanilla",
        variants: str | list[str] | None = None,
        solver: str = "prompt",
        structured: bool = True,
        controller: str | None = None,
        recover_tool_calls: bool = False,
        detectors: str | None = None,
        **unknown: object,
    ) -> Task:
        reject_unknown(task_class, unknown, task_parameters(build))
        return escalation_task(
            classes=[task_class],
            split=split,
            prompt=prompt,
            variants=variants,
            solver=solver,
            structured=structured,
            controller=controller,
            recover_tool_calls=recover_tool_calls,
            detectors=detectors,
        )

    build.__doc__ = f"The {task_class} class of the escalation benchmark."
    return build


documentation = task(name="documentation")(_single_class("documentation"))
evidence = task(name="evidence")(_single_class("evidence"))
messaging = task(name="messaging")(_single_class("messaging"))
triage = task(name="triage")(_single_class("triage"))

# Tasks and scorers defined in sibling modules (scorers: inspect score --scorer escbench/<name>).
from escbench import _scorers  # noqa: E402,F401
from escbench._agent_tasks import css_agent  # noqa: E402,F401
from escbench._css_tasks import css  # noqa: E402,F401
