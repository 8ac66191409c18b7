"""Errors raised on bad benchmark data: each names the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError


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
