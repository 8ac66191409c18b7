"""The README's parameter tables name exactly the tasks' parameters, with the code's defaults."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from inspect_ai._util.registry import registry_info

import escbench
from escbench_inspect.agents.css import css_agent_task
from escbench_inspect.css.task import css_task
from escbench_inspect.tasks import escalation_task

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _table_rows(heading: str) -> dict[str, list[str]]:
    """``{parameter: cells}`` of the first table after ``heading``."""
    section = README.split(heading, 1)[1]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines()[1:]:
        if rows and not line.startswith("|"):
            break
        match = re.match(r"\| `(\w+)`", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in line.strip("|").split("|")]
    return rows


def _yaml_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


TABLES = {
    "### Parameters of the escalation tasks": [("escalation", escalation_task)],
    "### Parameters of the CSS tasks": [("css", css_task), ("css_agent", css_agent_task)],
}


@pytest.mark.parametrize("heading", sorted(TABLES))
def test_readme_table_lists_every_parameter_with_its_default(heading: str) -> None:
    rows = _table_rows(heading)
    listed: set[str] = set()
    for task_name, builder in TABLES[heading]:
        names = registry_info(getattr(escbench, task_name)).metadata["params"]
        listed |= set(names)
        defaults = inspect.signature(builder).parameters
        for name in names:
            assert name in rows, f"README {heading!r} lacks `{name}` of escbench/{task_name}"
            default = defaults[name].default
            if default is not None:
                assert f"`{_yaml_text(default)}`" in rows[name][2], (task_name, name, rows[name])
    assert set(rows) == listed, f"README lists parameters no task has: {set(rows) - listed}"
