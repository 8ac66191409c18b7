"""``escbench report``: the paper's tables, statistics and figures from escalation logs alone.

    escbench report LOG_DIR_OR_FILES… --out DIR [--split test|dev|all] [--seed N] [--bootstrap N]
                    [--benchmarks all|escalation]

States coverage first (episodes, seeds, classes run of those in the split; a warning when partial;
intervals and tests "n/a" below two seeds) and ends with every input not used and why.

Groups decisions by model, prompt condition and controller ablation (``model`` = the model's own
action, scored by ``escalation_scorer``; other names come from controller scorers) and writes
``report.md``, one CSV per table, the PNG figures and ``report.json`` with every number. Methods are
in ``docs/report.md`` and :mod:`escbench_inspect.analysis.stats`.

Other escbench benchmarks add their own section through :data:`SECTION_HOOKS` (see
:func:`register_section`); the CSS report is one such hook.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from escbench_inspect.analysis.logs import ERROR_ACTION, MODEL_ACTION, LoadedLogs, load_decisions
from escbench_inspect.analysis.shortcuts import best_content_free, default_audit
from escbench_inspect.analysis.stats import (
    Calibration,
    Ratio,
    RiskCoverage,
    action_consistency,
    expected_calibration_error,
    failure_auroc,
    holm,
    paired_wilcoxon,
    risk_coverage,
    seed_bootstrap,
)
from escbench_inspect.datasets.escalation import select_episodes
from escbench_inspect.datasets.schema import Action, Variant
from escbench_inspect.scorers.escalation import C_FN_PRIMARY, C_FN_ROBUSTNESS, utility

SPLIT_CHOICES = ("test", "dev", "all")
ERRORED_POLICIES = ("invalid", "exclude")
PROMPT_ORDER = ("vanilla", "uncertainty")
CONTROLLER_ORDER = (MODEL_ACTION, "full", "workflow_only", "confidence_only")
VARIANTS = tuple(v.value for v in Variant)
PERTURBATIONS = tuple(v for v in VARIANTS if v != Variant.CLEAN.value)
ACTIONS = (*(a.value for a in Action), "invalid", ERROR_ACTION)
GROUP = ["model", "prompt", "controller"]
TABLE1_METRICS = (
    ("sensitivity", "Sensitivity"),
    ("missed_rate", "Missed rate"),
    ("specificity", "Specificity"),
    ("accuracy", "Accuracy"),
    ("utility_5", "Utility 5:1"),
    ("utility_10", "Utility 10:1"),
)


# --------------------------------------------------------------------------- section hooks


@dataclass
class ReportSection:
    """A section another benchmark contributes (e.g. CSS): markdown, CSV tables and numbers."""

    title: str
    markdown: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    numbers: dict[str, Any] = field(default_factory=dict)


SectionHook = Callable[[list[str], Path], ReportSection]
"""Called with the log paths of its benchmark and the output directory (for its own figures)."""

SECTION_HOOKS: dict[str, str] = {"escbench-css": "escbench_inspect.css.report:css_section"}
"""Task-metadata ``benchmark`` value -> ``"module:function"`` of a :data:`SectionHook`."""

SKIP_REASONS: dict[str, str] = {
    "escbench-css": "CSS logs are reported by `escbench css report`",
}


def register_section(benchmark: str, hook: str) -> None:
    """Add a report section for logs whose task metadata has ``benchmark == benchmark``.

    ``hook`` is ``"package.module:function"``, imported only when such logs are present.
    """
    SECTION_HOOKS[benchmark] = hook


def _load_hook(spec: str) -> SectionHook:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


# --------------------------------------------------------------------------- options and data


@dataclass(frozen=True)
class ReportOptions:
    split: str = "test"
    seed: int = 0
    n_boot: int = 2000
    errored: str = "invalid"  # "invalid": a wrong, non-escalating decision; "exclude": left out
    alpha: float = 0.05
    condition: str = "uncertainty"  # prompt condition of the significance tests
    benchmarks: str = "all"  # "escalation": other benchmarks' logs are skipped, not given a section


@dataclass
class Report:
    """Everything the report shows; tables are DataFrames with full-precision numbers."""

    options: ReportOptions
    loaded: LoadedLogs
    notes: list[str]
    groups: list[tuple[str, str, str]]
    counts: pd.DataFrame
    table1: pd.DataFrame
    table2: pd.DataFrame
    table3: pd.DataFrame
    calibration: pd.DataFrame
    significance: pd.DataFrame
    late_risk: pd.DataFrame
    reliability: dict[tuple[str, str, str], Calibration]
    curves: dict[tuple[str, str, str], RiskCoverage]
    coverage: pd.DataFrame = field(default_factory=pd.DataFrame)  # per model × prompt
    hooked: dict[str, list[str]] = field(default_factory=dict)  # benchmark -> logs for its hook
    sections: list[ReportSection] = field(default_factory=list)  # filled by write_report
    figures: dict[str, str] = field(default_factory=dict)  # key -> path relative to the report


def _order(values: Iterable[str], preferred: tuple[str, ...]) -> list[str]:
    unique = sorted(set(values))
    return [v for v in preferred if v in unique] + [v for v in unique if v not in preferred]


def ordered_groups(frame: pd.DataFrame) -> list[tuple[str, str, str]]:
    """Groups in report order: model (alphabetical), prompt, then controller variant."""
    present = set(map(tuple, frame[GROUP].drop_duplicates().itertuples(index=False)))
    models = sorted(frame["model"].unique())
    prompts = _order(frame["prompt"], PROMPT_ORDER)
    controllers = _order(frame["controller"], CONTROLLER_ORDER)
    return [(m, p, c) for m in models for p in prompts for c in controllers if (m, p, c) in present]


def _group_rng(seed: int, key: tuple[str, ...]) -> np.random.Generator:
    """Per-group stream: reruns are identical; adding a model leaves the others' CIs unchanged."""
    return np.random.default_rng([seed, zlib.crc32("\x1f".join(key).encode())])


def apply_errored_policy(rows: pd.DataFrame, policy: str) -> pd.DataFrame:
    """Errored samples as wrong, non-escalating decisions without confidence, or left out."""
    if policy == "exclude":
        return rows[~rows["errored"].astype(bool)].copy()
    rows = rows.copy()
    errored = rows["errored"].astype(bool)
    required = rows["escalation_required"].astype(bool)
    rows.loc[errored, ["correct", "escalated", "invalid"]] = 0.0
    rows.loc[errored, "utility_5"] = [utility(r, False, C_FN_PRIMARY) for r in required[errored]]
    rows.loc[errored, "utility_10"] = [utility(r, False, C_FN_ROBUSTNESS) for r in required[errored]]
    return rows


def ratios(rows: pd.DataFrame) -> dict[str, Ratio]:
    """The Table I metrics (and late-risk sensitivity) as per-episode numerator/denominator."""
    req = rows["escalation_required"].to_numpy(dtype=float)
    esc = rows["escalated"].to_numpy(dtype=float)
    late = (rows["variant"] == Variant.LATE_RISK.value).to_numpy(dtype=float)
    one = np.ones(len(rows))
    return {
        "sensitivity": Ratio(esc * req, req),
        "missed_rate": Ratio((1 - esc) * req, req),
        "specificity": Ratio((1 - esc) * (1 - req), 1 - req),
        "accuracy": Ratio(rows["correct"].to_numpy(dtype=float), one),
        "utility_5": Ratio(rows["utility_5"].to_numpy(dtype=float), one),
        "utility_10": Ratio(rows["utility_10"].to_numpy(dtype=float), one),
        "late_risk_sensitivity": Ratio(esc * req * late, req * late),
    }


# --------------------------------------------------------------------------- the tables


def build_report(inputs: list[str], options: ReportOptions) -> Report:
    """Read the logs and compute every table, curve and test (no files written)."""
    loaded = load_decisions(inputs)
    notes = list(loaded.notes)
    decisions = loaded.decisions
    if options.split != "all" and len(decisions):
        outside = decisions[decisions["split"] != options.split]
        if len(outside):
            per_split = outside.drop_duplicates(["model", "prompt", "id", "epoch"])["split"]
            counts = per_split.fillna("none").value_counts().sort_index()
            notes.append(
                f"left out {', '.join(f'{n} {s}-split' for s, n in counts.items())} decisions "
                f"(per model and prompt; report split is {options.split!r}, --split all keeps them)"
            )
        decisions = decisions[decisions["split"] == options.split]
    decisions = decisions.reset_index(drop=True)
    scored = apply_errored_policy(decisions, options.errored)
    groups = ordered_groups(decisions) if len(decisions) else []

    count_rows, t1_rows, t2_rows, t3_rows, cal_rows, late_rows = [], [], [], [], [], []
    reliability: dict[tuple[str, str, str], Calibration] = {}
    curves: dict[tuple[str, str, str], RiskCoverage] = {}
    for key in groups:
        model, prompt, controller = key
        label = dict(zip(GROUP, key, strict=True))
        everything = decisions[(decisions[GROUP] == key).all(axis=1)]
        rows = scored[(scored[GROUP] == key).all(axis=1)]
        count_rows.append(
            {
                **label,
                "episodes": len(everything),
                "seeds": everything["seed_id"].nunique(),
                "escalation_required": int(everything["escalation_required"].sum()),
                "invalid": int((everything["invalid"] == 1).sum()),
                "errored": int(everything["errored"].astype(bool).sum()),
                "logs": len(everything["log"].unique()),
            }
        )
        estimates = seed_bootstrap(
            rows["seed_id"], ratios(rows), options.n_boot, _group_rng(options.seed, key)
        )
        t1 = {**label, "episodes": len(rows), "seeds": rows["seed_id"].nunique()}
        for name, _ in TABLE1_METRICS:
            est = estimates[name]
            t1 |= {name: est.value, f"{name}_ci_low": est.low, f"{name}_ci_high": est.high}
        t1_rows.append(t1)
        late = estimates["late_risk_sensitivity"]
        late_n = int(((rows["variant"] == Variant.LATE_RISK.value) & rows["escalation_required"]).sum())
        late_rows.append({**label, "late_risk_required": late_n, **late.as_dict()})

        t2 = dict(label)
        for variant in VARIANTS:
            part = rows[rows["variant"] == variant]
            t2[variant] = float(part["correct"].mean()) if len(part) else math.nan
            t2[f"{variant}_n"] = len(part)
        t2_rows.append(t2)

        required = rows[rows["escalation_required"].astype(bool)]
        counts = required["action"].value_counts()
        t3 = {**label, "required_episodes": len(required)}
        for action in ACTIONS:
            n = int(counts.get(action, 0))
            t3[action] = n / len(required) if len(required) else math.nan
            t3[f"{action}_n"] = n
        t3_rows.append(t3)

        confident = rows[np.isfinite(rows["confidence"].to_numpy(dtype=float))]
        conf = confident["confidence"].to_numpy(dtype=float)
        correct = confident["correct"].to_numpy(dtype=float) == 1
        reliability[key] = expected_calibration_error(conf, correct)
        curves[key] = risk_coverage(conf, correct)
        cal_rows.append(
            {
                **label,
                "with_confidence": len(confident),
                "without_confidence": len(rows) - len(confident),
                "mean_conf_correct": float(conf[correct].mean()) if correct.any() else math.nan,
                "mean_conf_incorrect": float(conf[~correct].mean()) if (~correct).any() else math.nan,
                "ece": reliability[key].ece,
                "auroc": failure_auroc(conf, correct),
                "aurc": curves[key].aurc,
                **consistency_calibration(rows),
            }
        )

    coverage = coverage_table(decisions, options.split)
    significance, sig_notes = significance_tests(scored, options)
    notes.extend(sig_notes)
    report = Report(
        options=options,
        loaded=loaded,
        notes=notes,
        groups=groups,
        counts=pd.DataFrame(count_rows),
        table1=pd.DataFrame(t1_rows),
        table2=pd.DataFrame(t2_rows),
        table3=pd.DataFrame(t3_rows),
        calibration=pd.DataFrame(cal_rows),
        significance=significance,
        late_risk=pd.DataFrame(late_rows),
        reliability=reliability,
        curves=curves,
        coverage=coverage,
    )
    report.hooked = _route_other_benchmarks(loaded, options)
    return report


def consistency_calibration(rows: pd.DataFrame) -> dict[str, float]:
    """Consistency confidence (share of an episode's epochs that chose its majority action) against
    the majority action's correctness, one point per episode; NaN with a single epoch."""
    epochs = int(rows.groupby("id")["epoch"].nunique().max()) if len(rows) else 0
    empty = {"epochs": epochs, "consistency_episodes": 0}
    nan = dict.fromkeys(("consistency_ece", "consistency_auroc", "mean_action_entropy"), math.nan)
    if epochs < 2:
        return {**empty, **nan}
    agreement, correct, entropy = [], [], []
    for _, episode in rows.groupby("id", sort=True):
        found = action_consistency(episode["action"].astype(str).tolist())
        agreement.append(found.agreement)
        entropy.append(found.entropy)
        chosen = episode[episode["action"].astype(str) == found.majority]
        correct.append(bool(chosen["correct"].fillna(0).iloc[0] == 1))
    conf, ok = np.asarray(agreement), np.asarray(correct)
    return {
        "epochs": epochs,
        "consistency_episodes": len(conf),
        "consistency_ece": expected_calibration_error(conf, ok).ece,
        "consistency_auroc": failure_auroc(conf, ok),
        "mean_action_entropy": float(np.mean(entropy)),
    }


def significance_tests(scored: pd.DataFrame, options: ReportOptions) -> tuple[pd.DataFrame, list[str]]:
    """Paired seed-level Wilcoxon tests, clean vs each perturbation, per model; Holm over all."""
    notes: list[str] = []
    own = scored[scored["controller"] == MODEL_ACTION]
    rows: list[dict[str, Any]] = []
    for model in sorted(own["model"].unique()):
        mine = own[own["model"] == model]
        prompts = _order(mine["prompt"], PROMPT_ORDER)
        matching = [p for p in prompts if p.split("+")[0] == options.condition]
        if matching:
            prompts = matching
        else:
            notes.append(
                f"{model}: no {options.condition!r}-condition logs; significance tests use the "
                f"condition(s) present: {', '.join(prompts)}"
            )
        for prompt in prompts:
            part = mine[mine["prompt"] == prompt]
            per_seed = part.pivot_table(index="seed_id", columns="variant", values="correct", aggfunc="mean")
            for variant in PERTURBATIONS:
                if Variant.CLEAN.value not in per_seed or variant not in per_seed:
                    notes.append(f"{model} / {prompt}: no clean or {variant} episodes; test skipped")
                    continue
                pairs = per_seed[[Variant.CLEAN.value, variant]].dropna()
                test = paired_wilcoxon(pairs[Variant.CLEAN.value], pairs[variant])
                rows.append(
                    {
                        "model": model,
                        "prompt": prompt,
                        "perturbation": variant,
                        "seeds": test.n_pairs,
                        "nonzero_differences": test.n_nonzero,
                        "clean_accuracy": float(pairs[Variant.CLEAN.value].mean()),
                        "perturbed_accuracy": float(pairs[variant].mean()),
                        "mean_difference": test.mean_difference,
                        "statistic": test.statistic,
                        "p_value": test.pvalue,
                        "method": test.method,
                        "note": test.note,
                    }
                )
    table = pd.DataFrame(rows)
    if len(table):
        table["p_holm"] = holm(table["p_value"].tolist())  # untested (NaN) rows stay out of the family
        table["significant"] = table["p_holm"] < options.alpha
        untested = table[table["p_value"].isna()]
        for (model, prompt), part in untested.groupby(["model", "prompt"]):
            notes.append(
                f"{model} / {prompt}: {len(part)} paired test(s) not run (n/a): "
                f"{part['seeds'].max()} paired seed(s), a test needs at least 2"
            )
    return table, notes


@cache
def split_corpus(split: str) -> tuple[int, int, tuple[str, ...]]:
    """Episodes, seeds and classes of ``split`` in the packaged corpus (the coverage denominators)."""
    episodes = select_episodes(split)
    classes = sorted({e.task_class.value for e in episodes})
    return len(episodes), len({e.seed_id for e in episodes}), tuple(classes)


def coverage_table(decisions: pd.DataFrame, split: str) -> pd.DataFrame:
    """Per model × prompt: episodes, seeds, classes and variants run, beside the split's totals."""
    total_episodes, total_seeds, all_classes = split_corpus(split)
    rows = []
    for (model, prompt), part in decisions.groupby(["model", "prompt"], sort=True):
        classes = sorted(set(part["task_class"].dropna()))
        variants = _order(part["variant"].dropna(), VARIANTS)
        episodes, seeds = part["id"].nunique(), part["seed_id"].nunique()
        rows.append(
            {
                "model": model,
                "prompt": prompt,
                "episodes": episodes,
                "split_episodes": total_episodes,
                "seeds": seeds,
                "split_seeds": total_seeds,
                "classes": ",".join(classes),
                "split_classes": ",".join(all_classes),
                "variants": ",".join(variants),
                "partial": episodes < total_episodes or seeds < total_seeds,
            }
        )
    return pd.DataFrame(rows)


def _route_other_benchmarks(loaded: LoadedLogs, options: ReportOptions) -> dict[str, list[str]]:
    """Logs of benchmarks with a section hook; the others are recorded as skipped."""
    hooked: dict[str, list[str]] = {}
    for benchmark, paths in sorted(loaded.other_benchmarks.items()):
        if options.benchmarks == "escalation":
            reason = f"{benchmark} log; --benchmarks escalation was asked"
            loaded.skipped.extend({"path": p, "reason": reason} for p in paths)
            continue
        if benchmark in SECTION_HOOKS:
            hooked[benchmark] = paths
            continue
        reason = SKIP_REASONS.get(
            benchmark, f"escbench benchmark {benchmark!r} has no section in this report"
        )
        loaded.skipped.extend({"path": p, "reason": reason} for p in paths)
    return hooked


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
            "figures": report.figures,
            "sections": {s.title: s.numbers for s in sections},
        }
    )


TABLE_FILES = {
    "table1_escalation.csv": "table1",
    "table2_accuracy_by_variant.csv": "table2",
    "table3_actions_escalation_required.csv": "table3",
    "calibration.csv": "calibration",
    "significance.csv": "significance",
    "figure1_late_risk_sensitivity.csv": "late_risk",
    "counts.csv": "counts",
    "coverage.csv": "coverage",
}


def write_report(report: Report, out_dir: Path, figures: bool = True) -> list[Path]:
    """Write report.md, the CSVs, the PNGs and report.json; returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if figures and report.groups:
        from escbench_inspect.analysis.figures import write_figures

        report.figures = write_figures(report, out_dir)
        written += [out_dir / p for p in report.figures.values()]
    report.sections = sections = [
        _load_hook(SECTION_HOOKS[benchmark])(paths, out_dir) for benchmark, paths in report.hooked.items()
    ]
    for filename, attribute in TABLE_FILES.items():
        path = out_dir / filename
        getattr(report, attribute).to_csv(path, index=False)
        written.append(path)
    for section in sections:
        for name, table in section.tables.items():
            path = out_dir / f"{name}.csv"
            table.to_csv(path, index=False)
            written.append(path)
    (out_dir / "report.md").write_text(render_markdown(report, sections), encoding="utf-8")
    (out_dir / "report.json").write_text(
        json.dumps(report_numbers(report, sections), indent=2, allow_nan=False) + "\n",
        encoding="utf-8",
    )
    return [out_dir / "report.md", out_dir / "report.json", *written]


def generate_report(
    inputs: list[str], out_dir: Path, options: ReportOptions | None = None, figures: bool = True
) -> Report:
    """Read the logs and write the full report into ``out_dir``."""
    report = build_report(inputs, options or ReportOptions())
    write_report(report, out_dir, figures=figures)
    return report


# --------------------------------------------------------------------------- CLI


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="LOG_DIR_OR_FILE", help="Inspect logs or directories")
    parser.add_argument("--out", required=True, type=Path, help="output directory")
    parser.add_argument(
        "--split", choices=SPLIT_CHOICES, default="test", help="episodes to report (default: test)"
    )
    parser.add_argument("--seed", type=int, default=0, help="bootstrap random seed (default: 0)")
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=2000,
        help="bootstrap resamples of seeds (default: 2000; 0 = no CIs)",
    )
    parser.add_argument(
        "--errored",
        choices=ERRORED_POLICIES,
        default="invalid",
        help="errored samples count as wrong non-escalations (default) or are excluded",
    )
    parser.add_argument(
        "--condition",
        default="uncertainty",
        help="prompt condition of the significance tests (default: uncertainty)",
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (default: 0.05)")
    parser.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    parser.add_argument(
        "--benchmarks",
        choices=("all", "escalation"),
        default="all",
        help="all: other escbench benchmarks' logs (CSS) get their section (default); "
        "escalation: they are listed as skipped",
    )


def run(args: argparse.Namespace) -> int:
    if args.bootstrap < 0:
        print("escbench report: --bootstrap must be >= 0")
        return 2
    options = ReportOptions(
        split=args.split,
        seed=args.seed,
        n_boot=args.bootstrap,
        errored=args.errored,
        alpha=args.alpha,
        condition=args.condition,
        benchmarks=args.benchmarks,
    )
    start = time.perf_counter()
    report = generate_report(args.logs, args.out, options, figures=not args.no_figures)
    elapsed = time.perf_counter() - start
    for skipped in report.loaded.skipped:
        print(f"skipped {skipped['path']}: {skipped['reason']}")
    for note in report.notes:
        print(f"note: {note}")
    for _, c in report.coverage[report.coverage["partial"]].iterrows() if len(report.coverage) else []:
        print(
            f"warning: partial coverage: {c['model']} / {c['prompt']}: {c['episodes']} of "
            f"{c['split_episodes']} {options.split} episodes, {c['seeds']} of {c['split_seeds']} seeds"
        )
    sections = ", ".join(s.title for s in report.sections)
    if not report.groups:
        if report.sections:
            print(
                f"escbench report: no {options.split}-split escalation decisions in the inputs; "
                f"wrote {args.out / 'report.md'} with the section(s): {sections}"
            )
            return 0
        print(
            f"escbench report: no {options.split}-split escalation decisions found in the inputs; "
            f"wrote an empty report to {args.out}"
        )
        return 1
    decisions = int(report.counts["episodes"].sum())
    print(
        f"wrote {args.out / 'report.md'}: {len(report.groups)} group(s), {decisions} decisions"
        + (f", section(s): {sections}" if sections else "")
        + f", in {elapsed:.1f} s"
    )
    return 0
