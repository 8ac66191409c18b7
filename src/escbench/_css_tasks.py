"""``escbench/css``: the Causal Sensitivity Score task (builder in ``escbench_inspect.css``)."""

from __future__ import annotations

from inspect_ai import Task, task

from escbench_inspect.css.task import css_task
from escbench_inspect.params import reject_unknown, task_parameters


@task
def css(
    families: str | list[str] | None = None,
    interventions: str | list[str] | None = None,
    cases: int | str | list[str] | None = None,
    chart_length: str = "short",
    allow_self_judge: bool = False,
    **unknown: object,
) -> Task:
    """Counterfactual tumor-board tuples: paired recommendations judged by the ``grader`` role.

    Args:
        families: subset of A-E (default all).
        interventions: catalog ids or short forms like ``A1`` (default all in the families).
        cases: a count (first N of the balanced corpus) or a list of case ids (default all 240).
        chart_length: short | medium | long | xlong.
        allow_self_judge: let the grader be the evaluated model (recorded in the log).
    """
    reject_unknown("css", unknown, task_parameters(css))
    return css_task(
        families=families,
        interventions=interventions,
        cases=cases,
        chart_length=chart_length,
        allow_self_judge=allow_self_judge,
    )
