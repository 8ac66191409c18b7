"""Rendering of an ``escbench report`` (``analysis.results.Report``): Markdown and JSON numbers."""

from __future__ import annotations

import math
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np
import pandas as pd

from escbench_inspect.analysis.results import ACTIONS, GROUP, TABLE1_METRICS, VARIANTS, Report, ReportSection
from escbench_inspect.analysis.shortcuts import best_content_free, default_audit
from escbench_inspect.scorers.escalation import C_FN_PRIMARY, C_FN_ROBUSTNESS

# --------------------------------------------------------------------------- rendering


def _num(value: float, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    return f"{value:.{digits}f}"


def _p(value: float) -> str:
    if not math.isfinite(value):
        return "n/a"
    return f"{value:.1e}" if value < 1e-3 else f"{value:.4f}"


def _ci(row: pd.Series, name: str) -> str:
    value, low, high = row[name], row[f"{name}_ci_low"], row[f"{name}_ci_high"]
    if not math.isfinite(value):
        return "–"
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{_num(value)} [n/a]"
    return f"{_num(value)} [{_num(low)}, {_num(high)}]"


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _label(row: pd.Series) -> list[str]:
    return [str(row["model"]), str(row["prompt"]), str(row["controller"])]


def render_table1(report: Report) -> str:
    counts = report.counts.set_index(GROUP)
    rows = []
    for _, row in report.table1.iterrows():
        c = counts.loc[tuple(_label(row))]
        rows.append(
            _label(row)
            + [f"{row['episodes']} / {row['seeds']}", str(c["invalid"]), str(c["errored"])]
            + [_ci(row, name) for name, _ in TABLE1_METRICS]
        )
    if report.options.split == "test":
        rows.append(_content_free_row())
    header = ["Model", "Prompt", "Controller", "Episodes / seeds", "Invalid", "Errored"]
    return markdown_table(header + [title for _, title in TABLE1_METRICS], rows)


def _content_free_row() -> list[str]:
    """Reference row: the best policy that never reads the clinical content (shortcut audit of
    the packaged corpus, fitted on dev, scored on all test episodes) — the floor to beat."""
    best = best_content_free(default_audit())
    figures = {
        "sensitivity": best.sensitivity,
        "missed_rate": 1 - best.sensitivity,
        "specificity": best.specificity,
        "accuracy": best.accuracy,
        "utility_5": best.utility_5,
        "utility_10": best.utility_10,
    }
    return ["*content-free floor*", "—", f"*{best.policy}*", f"{best.episodes} / {best.seeds}", "—", "—"] + [
        _num(figures[name]) if name in figures else "–" for name, _ in TABLE1_METRICS
    ]


def render_table2(report: Report) -> str:
    rows = [_label(r) + [_num(r[v]) for v in VARIANTS] for _, r in report.table2.iterrows()]
    return markdown_table(["Model", "Prompt", "Controller", *VARIANTS], rows)


def render_table3(report: Report) -> str:
    rows = [
        _label(r) + [str(r["required_episodes"])] + [_num(r[a]) for a in ACTIONS]
        for _, r in report.table3.iterrows()
    ]
    return markdown_table(["Model", "Prompt", "Controller", "n", *ACTIONS], rows)


def render_calibration(report: Report) -> str:
    rows = [
        _label(r)
        + [
            f"{r['with_confidence']} / {r['without_confidence']}",
            _num(r["mean_conf_correct"]),
            _num(r["mean_conf_incorrect"]),
            _num(r["ece"], 3),
            _num(r["auroc"], 3),
            _num(r["aurc"], 3),
            str(r["epochs"]),
            _num(r["consistency_ece"], 3),
            _num(r["consistency_auroc"], 3),
            _num(r["mean_action_entropy"], 2),
        ]
        for _, r in report.calibration.iterrows()
    ]
    header = [
        "Model",
        "Prompt",
        "Controller",
        "With / without conf.",
        "Conf. correct",
        "Conf. incorrect",
        "ECE",
        "AUROC",
        "AURC",
        "Epochs",
        "Consist. ECE",
        "Consist. AUROC",
        "Entropy",
    ]
    return markdown_table(header, rows)


def render_significance(report: Report) -> str:
    table = report.significance
    if table.empty:
        return "_No paired tests could be run (no model with clean and perturbed episodes)._"
    rows = [
        [
            str(r["model"]),
            str(r["prompt"]),
            str(r["perturbation"]),
            str(r["seeds"]),
            _num(r["clean_accuracy"]),
            _num(r["perturbed_accuracy"]),
            _num(r["mean_difference"]),
            _num(r["statistic"], 1) if math.isfinite(r["statistic"]) else "n/a",
            _p(r["p_value"]),
            _p(r["p_holm"]),
            ("yes" if r["significant"] else "no") if math.isfinite(r["p_holm"]) else "n/a",
        ]
        for _, r in table.iterrows()
    ]
    header = [
        "Model",
        "Prompt",
        "Perturbation",
        "Seeds",
        "Clean acc.",
        "Perturbed acc.",
        "Mean diff.",
        "W",
        "p",
        "p (Holm)",
        f"p_Holm < {report.options.alpha}",
    ]
    return markdown_table(header, rows)


def render_markdown(report: Report, sections: list[ReportSection]) -> str:
    o = report.options
    sig = report.significance
    n_sig = int(sig["significant"].sum()) if len(sig) else 0
    skipped = report.loaded.skipped
    used = report.loaded.logs
    errored = (
        "counted as wrong, non-escalating decisions" if o.errored == "invalid" else "left out of the metrics"
    )
    lines = [
        "# escbench escalation report",
        "",
        f"Split **{o.split}**; 95% CIs from {o.n_boot} bootstrap resamples of *seeds* "
        f"(seed {o.seed}); errored samples: **{o.errored}** "
        f"({errored}). "
        f"Utility per episode with u_TP = u_TN = 1, c_FP = 1 and c_FN = {C_FN_PRIMARY:g} (5:1) "
        f"or {C_FN_ROBUSTNESS:g} (10:1). Controller `model` is the model's own action.",
        "",
        f"Inputs: {len(used)} escalation log(s), {len(report.groups)} model × prompt × controller "
        f"group(s), {sum(len(p) for p in report.hooked.values())} log(s) in other sections; "
        f"{len(skipped)} input(s) not used (listed under *What was skipped and why*).",
        "",
    ]
    if report.groups:
        lines += coverage_lines(report) + _result_lines(report, n_sig)
    elif report.hooked:
        lines += [
            f"No {o.split}-split escalation decisions were found in the inputs; this report holds "
            f"only the section(s) of the other benchmark log(s): {', '.join(sorted(report.hooked))}.",
            "",
        ]
    else:
        lines += [f"**No {o.split}-split escalation decisions were found in the inputs.**", ""]
    for section in sections:
        lines += [f"## {section.title}", "", section.markdown, ""]
    lines += ["## What was skipped and why", ""]
    if skipped:
        lines += [f"{len(skipped)} input(s) not used:", ""]
        lines += [f"- `{Path(s['path']).name}`: {s['reason']}" for s in skipped]
    else:
        lines.append("Every input was used.")
    if report.notes:
        lines += ["", "Notes on what was read:", ""] + [f"- {note}" for note in report.notes]
    lines += ["", "## Logs used", ""]
    lines += [
        f"- `{Path(info['path']).name}`: {info['model']}, prompt {info['prompt']}, task "
        f"{info['task']}, status {info['status']}, {info.get('samples_read', 0)} samples"
        for info in used
    ]
    return "\n".join(lines) + "\n"


def coverage_lines(report: Report) -> list[str]:
    """One coverage line per model × prompt, with a warning when the split is partly covered."""
    split = report.options.split
    lines = ["## Coverage", ""]
    for _, c in report.coverage.iterrows():
        classes = c["classes"].split(",") if c["classes"] else []
        lines.append(
            f"- {c['model']} / {c['prompt']}: {c['episodes']} of {c['split_episodes']} {split} "
            f"episodes, {c['seeds']} of {c['split_seeds']} seeds, classes present: "
            f"{', '.join(classes) or 'none'} ({len(classes)} of {len(c['split_classes'].split(','))}), "
            f"variants present: {c['variants'].replace(',', ', ')}"
        )
    partial = report.coverage[report.coverage["partial"]]
    if len(partial):
        few = int(report.coverage["seeds"].min())
        lines += [
            "",
            f"> **Warning: partial coverage.** {len(partial)} of {len(report.coverage)} model × "
            f"prompt run(s) cover only part of the {split} split; their numbers describe the "
            "episodes run, not the benchmark, and are not comparable with full runs."
            + (
                " With fewer than 2 seeds, intervals and tests are n/a (a seed resample can only "
                "repeat the point estimate)."
                if few < 2
                else ""
            ),
        ]
    return lines + [""]


def _result_lines(report: Report, n_sig: int) -> list[str]:
    o, sig = report.options, report.significance
    tested = int(sig["p_value"].notna().sum()) if len(sig) else 0
    used = sorted(set(sig["prompt"])) if len(sig) else []
    conditions = f"{o.condition!r} condition"
    if any(p.split("+")[0] != o.condition for p in used):
        conditions += (
            f" (models without it are tested in the conditions they have: {', '.join(used)}; "
            "see the notes below)"
        )
    lines = [
        "## Leaderboard",
        "",
        "Every model × prompt × controller ordered by utility 5:1 (95% seed-bootstrap CI); "
        "P(first) = share of bootstrap resamples of seeds in which the model has the highest "
        "utility 5:1 among the models of its prompt × controller (all resampled on the same seeds).",
        "",
        render_leaderboard(report),
        "",
        "## Table I — escalation outcomes",
        "",
        render_table1(report),
        "",
        "The *content-free floor* row is the best policy that never reads the clinical content "
        "(layout features, bag of words or a constant action, fitted on dev; `escbench audit`): "
        "a model must beat it to show it reads the chart.",
        "",
        "## Table II — decision accuracy by variant",
        "",
        render_table2(report),
        "",
        "## Table III — actions on escalation-required episodes",
        "",
        "Share of escalation-required episodes per action; `invalid` = unparseable output, "
        "`error` = the sample errored (no output scored).",
        "",
        render_table3(report),
        "",
        "## Calibration",
        "",
        "Stated confidence vs correctness, over decisions that state a confidence. ECE: 10 "
        "equal-width bins; AUROC of (1 − confidence) for predicting a wrong decision (0.5 = "
        "chance); AURC: area under the risk–coverage curve (lower is better). With Inspect epochs "
        "(k > 1), consistency confidence = share of an episode's k actions that equal its majority "
        "action, calibrated against the majority action's correctness (one point per episode); "
        "entropy: mean action entropy in bits. Both are n/a with one epoch.",
        "",
        render_calibration(report),
        "",
        "## Significance — clean vs perturbed accuracy",
        "",
        "Paired Wilcoxon signed-rank tests over seeds (per-seed accuracy on each variant; "
        "scipy's defaults, zero differences dropped), model's own action, "
        f"{conditions}; Holm-corrected across all {tested} tested comparisons: "
        f"**{n_sig} of {tested} remain significant at {o.alpha}**"
        + (
            f"; {len(sig) - tested} not tested (n/a: fewer than 2 paired seeds)."
            if tested < len(sig)
            else "."
        ),
        "",
        render_significance(report),
        "",
        "## Model vs model — paired by seed",
        "",
        render_model_comparisons(report),
        "",
        "## Figures",
        "",
    ]
    captions = {
        "fig1": "Fig. 1 — late-risk sensitivity per model (95% seed-bootstrap CI)",
        "fig2": "Fig. 2 — decision accuracy by variant and model (model's own action)",
        "fig3": "Fig. 3 — reliability diagrams (model's own action)",
        "fig4": "Fig. 4 — risk–coverage curves",
    }
    for key, path in report.figures.items():
        lines += [f"![{captions.get(key, key)}]({path})", "", f"*{captions.get(key, key)}*", ""]
    if not report.figures:
        lines += ["_Figures were not drawn (--no-figures)._", ""]
    return lines


def _clean(value: Any) -> Any:
    """JSON-safe: NaN/inf -> null, numpy scalars -> Python, tuples -> lists."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def report_numbers(report: Report, sections: list[ReportSection]) -> dict[str, Any]:
    def records(frame: pd.DataFrame) -> list[dict]:
        return frame.to_dict("records")

    def keyed(mapping: dict) -> list[dict]:
        return [{**dict(zip(GROUP, k, strict=True)), **asdict(v)} for k, v in mapping.items()]

    return _clean(
        {
            "options": asdict(report.options),
            "logs": report.loaded.logs,
            "skipped": report.loaded.skipped,
            "notes": report.notes,
            "coverage": records(report.coverage),
            "counts": records(report.counts),
            "table1": records(report.table1),
            "table2": records(report.table2),
            "table3": records(report.table3),
            "calibration": records(report.calibration),
            "reliability_bins": keyed(report.reliability),
            "risk_coverage": keyed(report.curves),
            "late_risk_sensitivity": records(report.late_risk),
            "significance": records(report.significance),
            "model_comparisons": _comparison_numbers(report),
            "figures": report.figures,
            "sections": {s.title: s.numbers for s in sections},
        }
    )


# --------------------------------------------------------------------------- model vs model


INSPECT_VIEW = "http://127.0.0.1:7575/#/logs/{log}/samples/sample/{id}/{epoch}/"


def log_root(report: Report) -> str:
    """The folder to start ``inspect view --log-dir`` in so that every used log is under it."""
    folders = [str(Path(info["path"]).parent) for info in report.loaded.logs]
    return os.path.commonpath(folders) if folders else "."


def sample_link(report: Report, log: str, sample_id: str, epoch: int, text: str = "") -> str:
    """Markdown link to one sample in Inspect View (``inspect view --log-dir <log_root>``)."""
    relative = os.path.relpath(log, log_root(report)).replace(os.sep, "/")
    url = INSPECT_VIEW.format(log=quote(relative), id=quote(str(sample_id), safe=""), epoch=epoch)
    return f"[{text or f'{sample_id} #{epoch}'}]({url})"


def _diff_ci(value: float, low: float, high: float) -> str:
    if not math.isfinite(value):
        return "–"
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{value:+.3f} [n/a]"
    return f"{value:+.3f} [{low:+.3f}, {high:+.3f}]"


def render_leaderboard(report: Report) -> str:
    """Table I's groups ordered by utility 5:1, with P(first) and the content-free floor as a row."""
    table = report.table1.copy()
    ranking = report.comparisons.ranking if report.comparisons is not None else pd.DataFrame()
    if len(ranking):
        table = table.merge(ranking, on=GROUP, how="left")
    else:
        table["p_first"] = math.nan
    entries = [
        (
            row["utility_5"] if math.isfinite(row["utility_5"]) else -math.inf,
            _label(row)
            + [
                _ci(row, "utility_5"),
                _num(row["p_first"]),
                _ci(row, "sensitivity"),
                _ci(row, "accuracy"),
                f"{row['episodes']} / {row['seeds']}",
            ],
        )
        for _, row in table.iterrows()
    ]
    if report.options.split == "test":
        best = best_content_free(default_audit())
        floor = ["*content-free floor*", "—", f"*{best.policy}*", _num(best.utility_5), "—"]
        floor += [_num(best.sensitivity), _num(best.accuracy), f"{best.episodes} / {best.seeds}"]
        entries.append((best.utility_5, floor))
    entries.sort(key=lambda entry: -entry[0])
    rows = [[str(i)] + cells for i, (_, cells) in enumerate(entries, start=1)]
    header = ["#", "Model", "Prompt", "Controller", "Utility 5:1", "P(first)", "Sensitivity", "Accuracy"]
    return markdown_table(header + ["Episodes / seeds"], rows)


def _side(model: str, controller: str) -> str:
    return model if controller == "model" else f"{model} [{controller}]"


def _pair(row: pd.Series) -> str:
    return f"{_side(row['model_a'], row['controller_a'])} vs {_side(row['model_b'], row['controller_b'])}"


def render_model_comparisons(report: Report) -> str:
    """Pairwise differences with CIs and exact tests, McNemar, refusals, strata, disagreements."""
    from escbench_inspect.analysis.compare import COMPARED_METRICS, MIN_COMMON_SEEDS, TOP_SEEDS

    c, o = report.comparisons, report.options
    if c is None or (c.pairs.empty and c.refused.empty):
        return "_No two models (or model and controller) share a prompt condition: nothing to compare._"
    titles = dict(COMPARED_METRICS)
    lines = []
    if len(c.pairs):
        tested = int(c.pairs["p_value"].notna().sum())
        n_sig = int(c.pairs["significant"].sum())
        lines += [
            "Difference = second − first, on the episodes both ran; 95% CI from a paired bootstrap "
            f"of seeds ({o.n_boot} resamples: both recomputed on each draw); exact two-sided "
            "sign-flip test of the Wilcoxon signed-rank statistic W+ over per-seed differences "
            "(zeros dropped, ties mid-ranked); Holm over all "
            f"{tested} pair × metric tests: **{n_sig} of {tested} significant at {o.alpha}**.",
            "",
        ]
        rows = [
            [
                str(r["prompt"]),
                _pair(r),
                titles[r["metric"]],
                f"{r['common_episodes']} / {r['common_seeds']}",
                _num(r["value_a"], 3),
                _num(r["value_b"], 3),
                _diff_ci(r["difference"], r["ci_low"], r["ci_high"]),
                f"{r['seeds_b_higher']} / {r['seeds_b_lower']}",
                _num(r["statistic"], 1) if math.isfinite(r["statistic"]) else "n/a",
                _p(r["p_value"]),
                _p(r["p_holm"]),
                ("yes" if r["significant"] else "no") if math.isfinite(r["p_holm"]) else "n/a",
            ]
            for _, r in c.pairs.iterrows()
        ]
        header = ["Prompt", "Pair (first vs second)", "Metric", "Episodes / seeds", "First", "Second"]
        header += ["Difference [95% CI]", "Seeds second higher / lower", "W+", "p", "p (Holm)"]
        lines += [markdown_table(header + [f"p_Holm < {o.alpha}"], rows), ""]
    if len(c.mcnemar):
        lines += [
            "McNemar's exact test on the paired episode decisions (right/wrong; binomial on the "
            "discordant pairs; episodes treated as independent, so it complements the seed-level "
            "test), Holm over pairs:",
            "",
        ]
        rows = [
            [
                str(r["prompt"]),
                _pair(r),
                str(r["common_episodes"]),
                str(r["both_right"]),
                str(r["a_right_b_wrong"]),
                str(r["a_wrong_b_right"]),
                str(r["both_wrong"]),
                _p(r["p_value"]),
                _p(r["p_holm"]),
            ]
            for _, r in c.mcnemar.iterrows()
        ]
        header = ["Prompt", "Pair", "Episodes", "Both right", "Only first right", "Only second right"]
        lines += [markdown_table(header + ["Both wrong", "p", "p (Holm)"], rows), ""]
    if len(c.refused):
        lines += [f"Not compared (a pair needs the same dataset and at least {MIN_COMMON_SEEDS} seeds):", ""]
        lines += [f"- {r['prompt']}: {_pair(r)}: {r['reason']}" for _, r in c.refused.iterrows()]
        lines.append("")
    if len(c.strata):
        lines += ["### Where they differ — by variant and by class", ""]
        lines += ["Difference (second − first) with its paired seed-bootstrap 95% CI.", ""]
        wide = c.strata.assign(
            cell=[_diff_ci(r.difference, r.ci_low, r.ci_high) for r in c.strata.itertuples()]
        )
        keys = ["prompt", "model_a", "controller_a", "model_b", "controller_b", "stratum", "value"]
        rows = []
        for key, part in wide.groupby(keys, sort=False):
            cells = dict(zip(part["metric"], part["cell"], strict=True))
            label = dict(zip(keys, key, strict=True))
            rows.append(
                [label["prompt"], _pair(pd.Series(label)), f"{label['stratum']}: {label['value']}"]
                + [str(part["episodes"].iloc[0])]
                + [cells.get(metric, "–") for metric, _ in COMPARED_METRICS]
            )
        header = ["Prompt", "Pair", "Stratum", "Episodes"] + [f"Δ {t}" for _, t in COMPARED_METRICS]
        lines += [markdown_table(header, rows), ""]
    if len(c.disagreements):
        lines += [
            f"### Seeds where two models disagree most (top {TOP_SEEDS} per pair)",
            "",
            "Seeds ranked by |Δ utility 5:1| over their episodes; every episode whose action "
            "differs, linked to its sample in Inspect View (start it with "
            f"`inspect view --log-dir {log_root(report)}`).",
            "",
        ]
        keys = ["prompt", "model_a", "controller_a", "model_b", "controller_b", "seed_rank", "seed_id"]
        rows = []
        for key, part in c.disagreements.groupby(keys, sort=False):
            label = dict(zip(keys, key, strict=True))
            episodes = "<br>".join(  # markdown-it keeps <br> escaped; the HTML report splits on it
                f"`{str(e['id']).removeprefix(str(label['seed_id']) + '__')}` #{e['epoch']}"
                f"{' (esc. required)' if e['escalation_required'] else ''}: "
                f"{sample_link(report, e['log_a'], e['id'], e['epoch'], e['action_a'])} → "
                f"{sample_link(report, e['log_b'], e['id'], e['epoch'], e['action_b'])}"
                for _, e in part.iterrows()
            )
            rows.append(
                [
                    str(label["prompt"]),
                    _pair(pd.Series(label)),
                    f"{label['seed_rank']}. {label['seed_id']}",
                    f"{part['seed_utility_5_difference'].iloc[0]:+.2f}",
                    f"{len(part)}",
                    episodes,
                ]
            )
        header = ["Prompt", "Pair", "Seed", "Δ utility 5:1 (seed)", "Differing episodes"]
        header.append("Episode: first's action → second's action (each links to its sample)")
        lines += [markdown_table(header, rows), ""]
    return "\n".join(lines)


def _comparison_numbers(report: Report) -> dict[str, Any]:
    c = report.comparisons
    if c is None:
        return {}
    return {
        name: getattr(c, name).to_dict("records")
        for name in ("pairs", "mcnemar", "strata", "disagreements", "refused", "ranking")
    }
