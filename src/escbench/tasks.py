"""The Inspect tasks of escbench: ``inspect eval escbench/<name>`` or ``from escbench import <name>``.

Each task is a thin ``@task`` over one builder in ``escbench_inspect``, whose keyword-only
signature is the single definition of the task's parameters (names, defaults, ``Literal`` types,
``Args`` docs): ``parameters_of`` gives it to the wrapper, so the registry, ``-T`` matching and
``help(escbench.triage)`` all see it. ``accepts_misspelled_keys`` makes a misspelled ``-T`` key an
error naming the intended parameter (Inspect alone only warns and runs with the default).
``with_offline_tokenizer`` lets ``--model mockllm/model`` smoke runs work with no network.

The tasks live in the ``escbench`` package so that Inspect names them ``escbench/<name>`` (the
prefix is the top-level package of the module defining the ``@task``).
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task

from escbench import scorers  # noqa: F401  (the entry point loads this module: register the scorers)
from escbench_inspect.agents.css import css_agent_task
from escbench_inspect.css.task import css_task
from escbench_inspect.offline import with_offline_tokenizer
from escbench_inspect.params import accepts_misspelled_keys, parameters_of
from escbench_inspect.tasks import escalation_task

__all__ = ["css", "css_agent", "documentation", "escalation", "evidence", "messaging", "triage"]

PYTHON_ONLY = ("seeds",)
ONE_CLASS = ("classes", *PYTHON_ONLY)


@accepts_misspelled_keys
@task
@with_offline_tokenizer
@parameters_of(escalation_task, omit=PYTHON_ONLY)
def escalation(**parameters: Any) -> Task:
    """All four task classes of the escalation benchmark (320 test episodes)."""
    return escalation_task(**parameters)


@accepts_misspelled_keys
@task
@with_offline_tokenizer
@parameters_of(escalation_task, omit=ONE_CLASS)
def documentation(**parameters: Any) -> Task:
    """The documentation class of the escalation benchmark (80 test episodes)."""
    return escalation_task(classes="documentation", **parameters)


@accepts_misspelled_keys
@task
@with_offline_tokenizer
@parameters_of(escalation_task, omit=ONE_CLASS)
def evidence(**parameters: Any) -> Task:
    """The evidence class of the escalation benchmark (80 test episodes)."""
    return escalation_task(classes="evidence", **parameters)


@accepts_misspelled_keys
@task
@with_offline_tokenizer
@parameters_of(escalation_task, omit=ONE_CLASS)
def messaging(**parameters: Any) -> Task:
    """The messaging class of the escalation benchmark (80 test episodes)."""
    return escalation_task(classes="messaging", **parameters)


@accepts_misspelled_keys
@task
@with_offline_tokenizer
@parameters_of(escalation_task, omit=ONE_CLASS)
def triage(**parameters: Any) -> Task:
    """The triage class of the escalation benchmark (80 test episodes)."""
    return escalation_task(classes="triage", **parameters)


@accepts_misspelled_keys
@task
@with_offline_tokenizer
@parameters_of(css_task, omit=("recommend", "recommender"))
def css(**parameters: Any) -> Task:
    """Causal Sensitivity Score: paired tumor-board recommendations judged by the ``grader`` role."""
    return css_task(**parameters)


@accepts_misspelled_keys
@task
@with_offline_tokenizer
@parameters_of(css_agent_task)
def css_agent(**parameters: Any) -> Task:
    """CSS answered by ReAct agents that read the chart via ``read_chart_section`` (``grader`` role)."""
    return css_agent_task(**parameters)
