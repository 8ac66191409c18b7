"""Errors raised on bad benchmark data: each names the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError


class DataFileError(ValueError):
    """A data file failed validation. The message names file, entry and field."""

    def __init__(self, path: Path | str, problems: list[str], entry: str | None = None):
        self.path = Path(path)
        self.entry = entry
        self.problems = problems
        where = f"{self.path}" + (f" (entry '{entry}')" if entry else "")
        super().__init__(f"{where}: " + "; ".join(problems))

    @classmethod
    def from_validation(
        cls, path: Path | str, error: ValidationError, entry: str | None = None
    ) -> DataFileError:
        problems = []
        for item in error.errors():
            field = ".".join(str(part) for part in item["loc"]) or "<root>"
            problems.append(f"field '{field}': {item['msg']}")
        return cls(path, problems, entry)


class _UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML loader that rejects a mapping with two equal keys (PyYAML keeps the last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                line = key_node.start_mark.line + 1
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (line {line})", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_yaml(path: Path) -> object:
    """Parse a data file strictly: UTF-8, valid YAML, no duplicate keys; else DataFileError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise DataFileError(path, ["file not found"]) from error
    except UnicodeDecodeError as error:
        raise DataFileError(path, [f"not UTF-8 text: {error}"]) from error
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as error:
        raise DataFileError(path, [f"not valid YAML: {error}"]) from error


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], data: object, path: Path, entry: str | None = None) -> M:
    """``model.model_validate(data)``, a failure raised as DataFileError naming file and entry."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise DataFileError.from_validation(path, error, entry=entry) from error
