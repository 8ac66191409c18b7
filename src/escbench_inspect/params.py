"""Task parameters: one definition per task family, validated values, one-line errors.

The builders (``escalation_task``, ``css_task``, ``css_agent_task``) are the single definition of
their parameters: keyword-only, ``Literal``-typed where the set is closed, with an ``Args``
docstring. The public ``@task`` functions in :mod:`escbench.tasks` take that signature with
:func:`parameters_of` instead of repeating it, so adding a parameter touches the builder only.

Inspect parses ``-T key=value`` as YAML and matches keys to the task's parameters by name; a key
that matches none only logs a warning and the task runs with the default. Inspect passes such keys
into a ``**kwargs`` parameter when the registered function declares one, so
:func:`accepts_misspelled_keys` declares one on the registered object only (the registry's list of
parameters, read when ``@task`` runs, stays the named ones) and :func:`parameters_of` turns any key
that is not a parameter into :class:`UnknownTaskParameterError`, with a suggestion.

Errors derive from Inspect's ``PrerequisiteError``: ``inspect eval`` prints them as one line
(no traceback) and exits non-zero.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, TypeVar

from inspect_ai._util.error import PrerequisiteError

E = TypeVar("E", bound=Enum)
F = TypeVar("F", bound=Callable[..., Any])


class EscbenchPrerequisiteError(PrerequisiteError, ValueError):
    """A run cannot start as configured; Inspect's CLI prints the message as one line and exits 1."""

    def __init__(self, message: str):
        ValueError.__init__(self, message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class TaskParameterError(EscbenchPrerequisiteError):
    """A task parameter's value is outside its accepted set; the message lists the accepted ones."""

    def __init__(self, name: str, value: object, accepted: Iterable[object] | str):
        accepted_text = accepted if isinstance(accepted, str) else ", ".join(str(a) for a in accepted)
        super().__init__(f"invalid value {value!r} for task parameter '{name}'; accepted: {accepted_text}")


class UnknownTaskParameterError(TaskParameterError):
    """A task was given a parameter it does not declare (most often a misspelling)."""

    def __init__(self, task: str, unknown: Iterable[str], accepted: Iterable[str]):
        accepted = sorted(accepted)
        parts = []
        for key in sorted(unknown):
            close = difflib.get_close_matches(key, accepted, n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            parts.append(f"'{key}'{hint}")
        EscbenchPrerequisiteError.__init__(
            self,
            f"unknown task parameter {', '.join(parts)} for task '{task}'; "
            f"accepted parameters: {', '.join(accepted)}",
        )


class ModelRoleError(EscbenchPrerequisiteError):
    """A model role the task needs (e.g. ``grader``) is not bound."""


def require_model_role(role: str, task: str) -> None:
    """Raise :class:`ModelRoleError` when Inspect creates the task for a run that binds no ``role``.

    Inspect binds a run's ``--model-role``s just before it creates the run's tasks (in
    ``eval_resolve_tasks``), so a task created there can check them and stop the run before any
    sample. A task built in Python before ``eval(task, model_roles=…)`` cannot know its roles yet;
    it is checked when its first sample runs (``get_model(role=…, required=True)``).
    """
    from inspect_ai.model._model import model_roles

    if _inside_task_resolution() and role not in model_roles():
        raise ModelRoleError(
            f"task '{task}' needs a '{role}' model role: add --model-role {role}=<provider/model> "
            f"(Python: model_roles={{'{role}': ...}})"
        )


def _inside_task_resolution() -> bool:
    """Whether the caller runs inside Inspect's resolution of a run's tasks (roles are bound)."""
    from inspect_ai._eval.eval import eval_resolve_tasks

    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is eval_resolve_tasks.__code__:
            return True
        frame = frame.f_back
    return False


def reject_unknown(task: str, unknown: Mapping[str, object], accepted: Iterable[str]) -> None:
    """Raise :class:`UnknownTaskParameterError` if ``unknown`` is non-empty."""
    if unknown:
        raise UnknownTaskParameterError(task, unknown, accepted)


def task_parameters(fn: Callable[..., object]) -> list[str]:
    """Names of the named (non-variadic) parameters of a function, in declaration order."""
    variadic = (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    return [p.name for p in inspect.signature(fn).parameters.values() if p.kind not in variadic]


_ARGS_ENTRY = re.compile(r"^ {4}(\w+):")


def _args_section(doc: str, names: Sequence[str]) -> str:
    """The ``Args:`` entries of ``doc`` for ``names`` (continuation lines kept), in doc order."""
    lines = inspect.cleandoc(doc).splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "Args:"), None)
    if start is None:
        return ""
    kept, keep = [], False
    for line in lines[start + 1 :]:
        if line and not line.startswith(" "):
            break  # the next section
        entry = _ARGS_ENTRY.match(line)
        if entry:
            keep = entry.group(1) in names
        if keep:
            kept.append(line)
    return "Args:\n" + "\n".join(kept) if kept else ""


def parameters_of(builder: Callable[..., Any], *, omit: Sequence[str] = ()) -> Callable[[F], F]:
    """Give a ``@task`` function the keyword-only parameters of ``builder`` (less ``omit``).

    The decorated function takes ``**parameters`` and passes them on; Inspect's registry, its
    ``-T`` matching and ``help()`` see the builder's names, defaults, types and ``Args`` docs.
    Keys that are not parameters raise :class:`UnknownTaskParameterError`. Parameters without a
    default in the builder, or typed as Python objects (``seeds``, ``recommend``), go in ``omit``.
    """
    builder_signature = inspect.signature(builder)
    kept = [
        p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
        for p in builder_signature.parameters.values()
        if p.name not in omit
    ]
    names = [p.name for p in kept]

    def decorate(body: F) -> F:
        @functools.wraps(body)
        def checked(**arguments: Any) -> Any:
            reject_unknown(body.__name__, {k: v for k, v in arguments.items() if k not in names}, names)
            return body(**arguments)

        checked.__signature__ = inspect.Signature(kept, return_annotation=builder_signature.return_annotation)  # type: ignore[attr-defined]
        summary = inspect.cleandoc(body.__doc__ or "")
        checked.__doc__ = "\n\n".join(
            part for part in (summary, _args_section(builder.__doc__ or "", names)) if part
        )
        return checked  # type: ignore[return-value]

    return decorate


def accepts_misspelled_keys(registered: F) -> F:
    """Let Inspect pass unknown ``-T`` keys to a ``@task`` built with :func:`parameters_of`.

    Apply above ``@task``: Inspect reads the parameter list for its registry when ``@task`` runs
    (the named parameters only) and, when it creates the task, whether the registered object takes
    ``**kwargs`` (then it passes unknown keys on, and :func:`parameters_of` rejects them).
    """
    signature = inspect.signature(registered)
    variadic = inspect.Parameter("misspelled", inspect.Parameter.VAR_KEYWORD)
    registered.__signature__ = signature.replace(parameters=[*signature.parameters.values(), variadic])  # type: ignore[attr-defined]
    return registered


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
