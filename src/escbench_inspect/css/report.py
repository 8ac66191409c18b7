"""CSS beside CMS per model (and per family), with both rankings and their Spearman ρ.

Used by ``escbench css report`` and, as a section hook, by ``escbench report`` when CSS logs are
among its inputs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from escbench_inspect.css.agreement import CSS_SCORER, ranks, sample_scores, spearman_rho, summarize

FAMILIES = ("A", "B", "C", "D", "E")


def _family_means(log: Any) -> dict[str, float]:
    scores = sample_scores(log, CSS_SCORER, "css")
    by_family: dict[str, list[float]] = {}
    for sample in log.samples or []:
        if str(sample.id) in scores:
            by_family.setdefault(str(sample.metadata.get("family")), []).append(scores[str(sample.id)])
    return {family: sum(v) / len(v) for family, v in by_family.items()}


def css_table(paths: Sequence[str | Path]) -> tuple[pd.DataFrame, float | None]:
    """One row per log (model × setting): CSS, CMS, their ranks, per-family CSS; and ρ."""
    from inspect_ai.log import read_eval_log

    rows = []
    for path in paths:
        log = read_eval_log(str(path))
        summary = summarize(log)
        families = _family_means(log)
        rows.append(
            {
                "model": summary.model,
                "setting": str((log.eval.metadata or {}).get("css_recommender", "prompt")),
                "grader": summary.grader,
                "css": summary.css,
                "cms": summary.cms,
                "scored_tuples": summary.n_css,
                "unscored_tuples": summary.css_unscored,
                **{f"css_{family}": families.get(family, math.nan) for family in FAMILIES},
            }
        )
    table = pd.DataFrame(rows)
    if table.empty:
        return table, None
    for column in ("css", "cms"):  # object dtype: an unranked (None) row stays None, not NaN
        rank = pd.Series(ranks(list(table[column])), dtype=object, index=table.index)
        table.insert(table.columns.get_loc(column) + 1, f"{column}_rank", rank)
    finite = table.dropna(subset=["css", "cms"])
    rho = spearman_rho(list(finite["css"]), list(finite["cms"])) if len(finite) >= 2 else None
    return table, rho


def css_markdown(table: pd.DataFrame, rho: float | None) -> str:
    def cell(value: Any) -> str:
        return (
            f"{value:.3f}"
            if isinstance(value, float) and not math.isnan(value)
            else ("n/a" if isinstance(value, float) or value is None else str(value))
        )

    columns = list(table.columns)
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(row[c]) for c in columns) + " |" for _, row in table.iterrows()]
    verdict = f"{rho:+.3f}" if rho is not None else "n/a (fewer than two models)"
    return "\n".join(lines) + f"\n\nSpearman ρ between the CSS and CMS rankings: {verdict}\n"


def css_section(paths: list[str], out: Path) -> Any:
    """Section hook for ``escbench report`` (see ``analysis.results.register_section``)."""
    from escbench_inspect.analysis.results import ReportSection

    table, rho = css_table(paths)
    return ReportSection(
        title="Causal Sensitivity Score (CSS) vs coverage (CMS)",
        markdown=css_markdown(table, rho),
        tables={"css_vs_cms": table},
        numbers={"rows": table.to_dict(orient="records"), "spearman_rho": rho},
    )
