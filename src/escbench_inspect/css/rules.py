"""The small condition grammar shared by consensus rules and catalog applicability rules.

A condition is a mapping ``fact -> expected`` (all must hold), where ``expected`` is a scalar
(equality), a list (membership) or ``{"not": x}``; the keys ``any`` / ``all`` take lists of
conditions. Facts are a flat dict computed from a case by :func:`case_facts`.
"""

from __future__ import annotations

from typing import Any

from escbench_inspect.css.schema import Case

BASE_FACTS: frozenset[str] = frozenset(
    {
        "cancer",
        "setting",
        "resected",
        "status",
        "histology_group",
        "side",
        "t",
        "n",
        "group",
        "bone_mets",
        "liver_only",
        # line of therapy: whether a prior line already gave a drug class (consensus.facts_of)
        "her2_pretreated",
        "endocrine_pretreated",
    }
)


def case_facts(case: Case, t: str, n: str, stage_group: str) -> dict[str, Any]:
    """Flat facts of a case (``t``/``n``/``stage_group`` computed by the staging tables; ``n`` is the
    main category N0-N3); a biomarker without a result in the chart is ``"unknown"``."""
    facts: dict[str, Any] = {
        "cancer": case.cancer,
        "setting": case.setting,
        "resected": case.surgery is not None,
        "status": case.status,
        "histology_group": case.histology_group,
        "side": case.side,
        "t": t,
        "n": n,
        "group": stage_group,
        "bone_mets": "bone" in case.metastatic_sites,
        "liver_only": case.metastatic_sites == ("liver",),
    }
    for name, state in case.biomarkers.items():
        facts[name] = state if state is not None else "unknown"
    return facts


def _value_matches(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict):
        if set(expected) == {"not"}:
            return not _value_matches(actual, expected["not"])
        raise ValueError(f"unknown value operator {sorted(expected)}")
    if isinstance(expected, list):
        return actual in expected
    return actual == expected


def matches(facts: dict[str, Any], condition: dict[str, Any]) -> bool:
    """Whether ``facts`` satisfy ``condition``; a fact the case lacks never matches."""
    for key, expected in condition.items():
        if key == "any":
            if not any(matches(facts, sub) for sub in expected):
                return False
        elif key == "all":
            if not all(matches(facts, sub) for sub in expected):
                return False
        elif key not in facts or not _value_matches(facts[key], expected):
            return False
    return True


def condition_problems(condition: Any, known: set[str], where: str = "") -> list[str]:
    """Static check of a condition: unknown fact names or malformed operators."""
    problems: list[str] = []
    if not isinstance(condition, dict):
        return [f"{where or 'condition'} must be a mapping"]
    for key, expected in condition.items():
        path = f"{where}.{key}" if where else key
        if key in ("any", "all"):
            if not isinstance(expected, list) or not expected:
                problems.append(f"'{path}' must be a non-empty list of conditions")
                continue
            for i, sub in enumerate(expected):
                problems.extend(condition_problems(sub, known, f"{path}[{i}]"))
        elif key not in known:
            problems.append(f"'{path}': unknown fact (known: {', '.join(sorted(known))})")
        elif isinstance(expected, dict) and set(expected) != {"not"}:
            problems.append(f"'{path}': only {{not: value}} is allowed as an operator")
    return problems
