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

from escbench_inspect.css.agreement import (
    CMS_SCORER,
    CSS_SCORER,
    latest_judge,
    ranks,
    sample_scores,
    spearman_rho,
    summarize,
)

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


CssRun = tuple[str, str, pd.DataFrame, dict[str, float]]  # model, setting, scored tuples, CMS per case
MIN_COMMON_CASES = 6  # as for seeds: below 6 paired cases the exact test cannot reach p < 0.05


def _per_case(log: Any) -> CssRun:
    """(model, setting, one row per scored CSS tuple with its case, CMS per case) of one log."""
    css = sample_scores(log, CSS_SCORER, "css")
    cms_scorer = latest_judge(log, CMS_SCORER)
    rows, cms = [], {}
    for sample in log.samples or []:
        if sample.epoch != 1:
            continue
        case = str((sample.metadata or {}).get("case_id"))
        if str(sample.id) in css:
            rows.append({"id": str(sample.id), "case": case, "css": css[str(sample.id)]})
        score = (sample.scores or {}).get(cms_scorer)
        if score is not None and isinstance(score.value, dict):
            value = score.value.get("cms")
            if isinstance(value, (int, float)) and math.isfinite(value):
                cms.setdefault(case, float(value))
    setting = str((log.eval.metadata or {}).get("css_recommender", "prompt"))
    return str(log.eval.model), setting, pd.DataFrame(rows, columns=["id", "case", "css"]), cms


def css_pair_comparisons(paths: Sequence[str | Path], n_boot: int = 2000, seed: int = 0) -> pd.DataFrame:
    """CSS and CMS differences (second − first) between every two models of the same setting,
    paired by case: CSS on the tuples both scored, CMS on the cases both have; 95% CI from a
    bootstrap of cases; exact signed-rank test over per-case differences (as for escalation seeds)."""
    from inspect_ai.log import read_eval_log

    return compare_css_runs([_per_case(read_eval_log(str(path))) for path in paths], n_boot, seed)


def compare_css_runs(runs: list[CssRun], n_boot: int = 2000, seed: int = 0) -> pd.DataFrame:
    """The comparisons of :func:`css_pair_comparisons` from each log's scored tuples and CMS."""
    import numpy as np

    from escbench_inspect.analysis.stats import Ratio, exact_signed_rank, holm, paired_ratio_difference

    rows = []
    for i, (model_a, setting, css_a, cms_a) in enumerate(runs):
        for model_b, setting_b, css_b, cms_b in runs[i + 1 :]:
            if setting_b != setting or model_b == model_a:
                continue
            first, second = sorted([(model_a, css_a, cms_a), (model_b, css_b, cms_b)], key=lambda r: r[0])
            both = first[1].merge(second[1][["id", "css"]], on="id", suffixes=("_a", "_b"))
            cases = sorted(set(first[2]) & set(second[2]))
            measures = {
                "css": (
                    both["case"].to_numpy(),
                    both["css_a"].to_numpy(float),
                    both["css_b"].to_numpy(float),
                ),
                "cms": (
                    np.asarray(cases),
                    np.asarray([first[2][c] for c in cases]),
                    np.asarray([second[2][c] for c in cases]),
                ),
            }
            for measure, (case_of, a, b) in measures.items():
                n_cases = len(set(case_of))
                row = {"setting": setting, "model_a": first[0], "model_b": second[0], "measure": measure}
                row |= {"units": len(a), "cases": n_cases}
                if n_cases < MIN_COMMON_CASES:
                    rows.append({**row, "note": f"{n_cases} case(s) in common; needs {MIN_COMMON_CASES}"})
                    continue
                one = np.ones(len(a))
                rng = np.random.default_rng([seed, len(rows)])
                est = paired_ratio_difference(case_of, Ratio(a, one), Ratio(b, one), n_boot, rng)
                per_case = pd.DataFrame({"case": case_of, "d": b - a}).groupby("case")["d"].mean()
                test = exact_signed_rank(per_case.to_numpy())
                rows.append(
                    {
                        **row,
                        "value_a": float(a.mean()),
                        "value_b": float(b.mean()),
                        "difference": est.value,
                        "ci_low": est.low,
                        "ci_high": est.high,
                        "p_value": test.pvalue,
                        "note": test.note,
                    }
                )
    table = pd.DataFrame(rows)
    if len(table) and "p_value" in table:
        table["p_holm"] = holm(table["p_value"].astype(float).tolist())
    return table


def css_pairs_markdown(pairs: pd.DataFrame) -> str:
    if pairs.empty:
        return "No two models of the same setting to compare."
    lines = [
        "Model vs model, paired by case (second − first): CSS on the tuples both scored, CMS on the "
        "cases both have; 95% CI from a bootstrap of cases; exact signed-rank test over per-case "
        "differences, Holm over the table.",
        "",
        "| Setting | Pair | Measure | Units / cases | First | Second | Difference [95% CI] | p | p (Holm) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def num(value: Any, fmt: str = "{:.3f}") -> str:
        return fmt.format(value) if isinstance(value, float) and math.isfinite(value) else "n/a"

    for _, r in pairs.iterrows():
        diff = r.get("difference", math.nan)
        cell = (
            f"{num(diff, '{:+.3f}')} [{num(r['ci_low'], '{:+.3f}')}, {num(r['ci_high'], '{:+.3f}')}]"
            if isinstance(diff, float) and math.isfinite(diff)
            else str(r.get("note") or "n/a")
        )
        lines.append(
            f"| {r['setting']} | {r['model_a']} vs {r['model_b']} | {r['measure'].upper()} | "
            f"{r['units']} / {r['cases']} | {num(r.get('value_a', math.nan))} | "
            f"{num(r.get('value_b', math.nan))} | {cell} | {num(r.get('p_value', math.nan), '{:.4f}')} | "
            f"{num(r.get('p_holm', math.nan), '{:.4f}')} |"
        )
    return "\n".join(lines) + "\n"


def css_section(paths: list[str], out: Path) -> Any:
    """Section hook for ``escbench report`` (see ``analysis.results.register_section``)."""
    from escbench_inspect.analysis.results import ReportSection

    table, rho = css_table(paths)
    pairs = css_pair_comparisons(paths)
    return ReportSection(
        title="Causal Sensitivity Score (CSS) vs coverage (CMS)",
        markdown=css_markdown(table, rho) + "\n" + css_pairs_markdown(pairs),
        tables={"css_vs_cms": table, "css_model_comparisons": pairs},
        numbers={
            "rows": table.to_dict(orient="records"),
            "spearman_rho": rho,
            "model_comparisons": pairs.to_dict(orient="records"),
        },
    )
