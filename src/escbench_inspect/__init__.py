"""escbench_inspect: datasets, solvers and scorers behind the ``escbench/*`` Inspect tasks.

Public API: ``parse_decision`` (decision parser) and ``css_tuples`` (counterfactual audit).
"""

from __future__ import annotations

from typing import Any

__all__ = ["parse_decision", "css_tuples"]


def __getattr__(name: str) -> Any:
    # Lazy, so that importing the package does not pull in Inspect or the CSS generator.
    if name == "parse_decision":
        from escbench_inspect.scorers.parse import parse_decision

        return parse_decision
    if name == "css_tuples":
        from escbench_inspect.css.dataset import css_tuples

        return css_tuples
    raise AttributeError(name)
