"""The computation behind ``escbench report``: decisions → tables, statistics, coverage (no rendering).

:func:`build_report` reads escalation logs (``analysis.logs``) and returns a :class:`Report` of
data frames and notes; :mod:`escbench_inspect.analysis.markdown` renders it and
:mod:`escbench_inspect.analysis.report` is the command. Methods are in ``docs/report.md`` and
:mod:`escbench_inspect.analysis.stats`. Other escbench benchmarks add their own section through
:data:`SECTION_HOOKS` (see :func:`register_section`); the CSS report is one such hook.
"""

from __future__ import annotations

import importlib
import math
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from escbench_inspect import progress
from escbench_inspect.analysis.compare import Comparisons, compare_models
from escbench_inspect.analysis.logs import ERROR_ACTION, MODEL_ACTION, LoadedLogs, load_decisions
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
    labels: str | None = None  # an adjudicated labels file (escbench review export --labels)


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
    comparisons: Comparisons | None = None  # model-vs-model, paired by seed (analysis.compare)


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
    progress.note(f"reading the decisions in {len(inputs)} input(s)")
    loaded = load_decisions(inputs)
    notes = list(loaded.notes)
    decisions = loaded.decisions
    if options.labels:
        from escbench_inspect.review.labels import load_labels, relabel_decisions

        labels = load_labels(options.labels)
        decisions = relabel_decisions(decisions, labels)
        notes.append(f"labels: {labels.path} (sha256 {labels.sha256}): {len(labels.episodes)} episodes")
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
    for key in progress.steps(groups, "statistics per model, prompt and controller"):
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
    datasets = {info["path"]: (dataset_selection(info), info.get("dataset_hash")) for info in loaded.logs}
    report.comparisons = compare_models(scored, groups, datasets, options.n_boot, options.seed, options.alpha)
    notes.extend(report.comparisons.notes)
    return report


def dataset_selection(info: dict[str, Any]) -> tuple:
    """What a log's ``dataset_hash`` covers: split, classes, variants and dataset size."""
    return (
        str(info.get("split")),
        ",".join(info.get("classes") or []),
        ",".join(info.get("variants") or []),
        info.get("dataset_episodes"),
    )


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
