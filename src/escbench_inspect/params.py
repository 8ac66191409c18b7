"""Validation of task parameters (Inspect only warns on unknown ``-T`` keys; values are ours)."""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from typing import TypeVar

E = TypeVar("E", bound=Enum)


class TaskParameterError(ValueError):
    """A task parameter's value is outside its accepted set; the message lists the accepted ones."""

    def __init__(self, name: str, value: object, accepted: Iterable[object]):
        accepted_text = ", ".join(str(a) for a in accepted)
        super().__init__(
            f"invalid value {value!r} for task parameter '{name}'; accepted: {accepted_text}"
        )


class UnknownTaskParameterError(TaskParameterError):
    """A task was given a parameter it does not declare (most often a misspelling).

    Inspect only logs a warning for an unknown ``-T`` key and runs with the default, which would
    silently produce the wrong experiment; tasks that accept ``**unknown`` raise this instead.
    """

    def __init__(self, task: str, unknown: Iterable[str], accepted: Iterable[str]):
        accepted = sorted(accepted)
        parts = []
        for key in sorted(unknown):
            close = difflib.get_close_matches(key, accepted, n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            parts.append(f"'{key}'{hint}")
        ValueError.__init__(
            self,
            f"unknown task parameter {', '.join(parts)} for task '{task}'; "
            f"accepted parameters: {', '.join(accepted)}",
        )


def reject_unknown(task: str, unknown: Mapping[str, object], accepted: Iterable[str]) -> None:
    """Raise :class:`UnknownTaskParameterError` if ``unknown`` (a task's ``**kwargs``) is non-empty.

    Usage in a ``@task`` wrapper::

        @task
        def my_task(split: str = "test", **unknown: object) -> Task:
            reject_unknown("my_task", unknown, task_parameters(my_task))

    Inspect passes ``-T`` keys that match no named parameter into ``**kwargs`` when the task
    declares one (``inspect_ai._eval.registry.task_create``), so the misspelling reaches us.
    """
    if unknown:
        raise UnknownTaskParameterError(task, unknown, accepted)


def task_parameters(fn: Callable[..., object]) -> list[str]:
    """Names of the named (non-variadic) parameters of a task function, in declaration order."""
    variadic = (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    return [p.name for p in inspect.signature(fn).parameters.values() if p.kind not in variadic]


def choice(name: str, value: object, accepted: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in accepted:
        raise TaskParameterError(name, value, accepted)
    return value


def enum_list(name: str, value: str | Sequence[str] | None, enum: type[E]) -> tuple[E, ...]:
    """Parse ``None`` (all), ``"a,b"`` or ``["a", "b"]`` into enum members, in enum order."""
    accepted = [member.value for member in enum]
    if value is None:
        return tuple(enum)
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not items:
        raise TaskParameterError(name, value, accepted)
    chosen = set()
    for item in items:
        item = str(item).strip()
        if item not in accepted:
            raise TaskParameterError(name, item, accepted)
        chosen.add(enum(item))
    return tuple(member for member in enum if member in chosen)


def boolean(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise TaskParameterError(name, value, [True, False])
