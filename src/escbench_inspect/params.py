"""Validation of task parameters (Inspect only warns on unknown ``-T`` keys; values are ours)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import TypeVar

E = TypeVar("E", bound=Enum)


class TaskParameterError(ValueError):
    """A task parameter has a value outside its accepted set; the message lists the accepted ones."""

    def __init__(self, name: str, value: object, accepted: Iterable[object]):
        accepted_text = ", ".join(str(a) for a in accepted)
        super().__init__(f"invalid value {value!r} for task parameter '{name}'; accepted: {accepted_text}")


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
