"""escbench: the Inspect tasks (``escbench/<task>``) and scorers; the library is ``escbench_inspect``.

``from escbench import triage`` gives the task function (``escbench.tasks``); ``escbench.scorers``
holds the scorers ``inspect score --scorer escbench/<name>`` applies to existing logs, and
``escbench.metrics`` the metrics (registered here so their names are ``escbench/<metric>`` in
editable and regular installs alike). The tasks load on first use, so importing
``escbench.metrics`` from the library does not import the tasks.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["css", "css_agent", "documentation", "escalation", "evidence", "messaging", "samples_df", "triage"]


def __getattr__(name: str) -> Any:
    if name == "samples_df":
        return import_module("escbench_inspect.analysis.frames").samples_df
    if name in __all__:
        return getattr(import_module("escbench.tasks"), name)
    raise AttributeError(f"module 'escbench' has no attribute {name!r}")
