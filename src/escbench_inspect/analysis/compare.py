"""Model-vs-model comparisons of the escalation report, paired by seed (no rendering).

For every pair of models in the same prompt condition (own action), and every model against each of
its controller variants, on the episodes both ran:

- the difference (second − first) in utility 5:1, sensitivity and accuracy, with a paired seed
  bootstrap CI (both ratios recomputed on the same seed draw);
- an exact paired signed-rank test over seeds on the per-seed metric (``stats.exact_signed_rank``),
  Holm-corrected over every pair × metric of the report;
- McNemar's exact test on the paired episode decisions (right/wrong), Holm over pairs;
- the same differences per variant and per task class, and the seeds where the two disagree most,
  with the samples behind them.

Pairs run on different dataset contents (``dataset_hash``) or sharing fewer than
:data:`MIN_COMMON_SEEDS` seeds are refused with a note. The ranking gives, per prompt × controller,
the share of seed-bootstrap resamples in which each model has the highest utility 5:1.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from escbench_inspect.analysis.logs import MODEL_ACTION
from escbench_inspect.analysis.stats import (
    Ratio,
    difference_from_sums,
    exact_signed_rank,
    holm,
    mcnemar_exact,
    multinomial_weights,
)

COMPARED_METRICS = (("utility_5", "Utility 5:1"), ("sensitivity", "Sensitivity"), ("accuracy", "Accuracy"))
MIN_COMMON_SEEDS = 6  # below 6 paired seeds the exact two-sided test cannot reach p < 0.05 (2/2^5)
TOP_SEEDS = 3  # seeds listed per pair under "where they differ"
Group = tuple[str, str, str]  # model, prompt, controller


@dataclass
class Comparisons:
    """Every model-vs-model table; each frame has full-precision numbers."""

    pairs: pd.DataFrame  # one row per pair × metric
    mcnemar: pd.DataFrame  # one row per pair
    strata: pd.DataFrame  # pair × (variant | class) × metric
    disagreements: pd.DataFrame  # pair × seed × differing episode, with log and sample id
    refused: pd.DataFrame  # pairs not compared, with the reason
    ranking: pd.DataFrame  # per group: P(first) within prompt × controller
    notes: list[str] = field(default_factory=list)


def comparison_pairs(groups: list[Group]) -> list[tuple[Group, Group, str]]:
    """Model pairs per prompt (own action, alphabetical) and each model vs its controller variants."""
    pairs: list[tuple[Group, Group, str]] = []
    prompts = list(dict.fromkeys(p for _, p, _ in groups))
    for prompt in prompts:
        own = sorted(g for g in groups if g[1] == prompt and g[2] == MODEL_ACTION)
        pairs += [(a, b, "models") for a, b in combinations(own, 2)]
        for g in groups:
            if g[1] == prompt and g[2] != MODEL_ACTION and (g[0], prompt, MODEL_ACTION) in groups:
                pairs.append(((g[0], prompt, MODEL_ACTION), g, "controller"))
    return pairs


def _rng(seed: int, *key: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32("\x1f".join(("compare", *key)).encode())])


def episode_ratios(frame: pd.DataFrame, side: str) -> dict[str, Ratio]:
    """The compared metrics of one side (``_a``/``_b`` columns) as per-episode numerator/denominator."""
    req = frame["escalation_required"].to_numpy(dtype=float)
    esc = frame[f"escalated{side}"].to_numpy(dtype=float)
    one = np.ones(len(frame))
    return {
        "utility_5": Ratio(frame[f"utility_5{side}"].to_numpy(dtype=float), one),
        "sensitivity": Ratio(esc * req, req),
        "accuracy": Ratio(frame[f"correct{side}"].to_numpy(dtype=float), one),
    }


@dataclass
class PairedSeeds:
    """A pair's common episodes with their seed index, and one draw of seed resamples shared by
    every metric and stratum of the pair (as Table I's metrics share theirs)."""

    index: np.ndarray  # per episode: position of its seed in ``seeds``
    seeds: np.ndarray
    weights: np.ndarray | None  # (n_boot, seeds)

    def sums(self, ratio: Ratio, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        keep = np.ones(self.index.size, bool) if mask is None else mask
        n = self.seeds.size
        return (
            np.bincount(self.index[keep], weights=ratio.numerator[keep], minlength=n),
            np.bincount(self.index[keep], weights=ratio.denominator[keep], minlength=n),
        )


def paired_episodes(by_group: dict[Group, pd.DataFrame], a: Group, b: Group) -> pd.DataFrame:
    """The episodes (id, epoch) both groups ran, side by side (``_a``/``_b`` columns)."""
    keep = ["id", "epoch", "log", "action", "correct", "escalated", "utility_5"]
    meta = ["seed_id", "variant", "task_class", "escalation_required"]
    return by_group[a][keep + meta].merge(by_group[b][keep], on=["id", "epoch"], suffixes=("_a", "_b"))


def _label(a: Group, b: Group, kind: str) -> dict[str, Any]:
    return {
        "prompt": a[1],
        "kind": kind,
        "model_a": a[0],
        "controller_a": a[2],
        "model_b": b[0],
        "controller_b": b[2],
    }


def pair_name(row: pd.Series | dict) -> str:
    """``A vs B`` (controllers named when not the model's own action)."""

    def side(model: str, controller: str) -> str:
        return model if controller == MODEL_ACTION else f"{model} [{controller}]"

    return f"{side(row['model_a'], row['controller_a'])} vs {side(row['model_b'], row['controller_b'])}"


def _refusal(merged: pd.DataFrame, datasets: dict[str, tuple[tuple, str | None]]) -> str | None:
    """Why a pair cannot be compared, or None. ``datasets``: log -> (selection, dataset_hash); two
    logs of the same selection (split, classes, variants, dataset size) with different hashes ran on
    different episode contents. Logs of different selections are paired by episode id."""
    if merged.empty:
        return "no episode in common"
    la, lb = merged["log_a"].map(datasets), merged["log_b"].map(datasets)
    differ = [
        (x[1], y[1])
        for x, y in set(zip(la, lb, strict=True))
        if isinstance(x, tuple) and isinstance(y, tuple) and x[0] == y[0] and x[1] and y[1] and x[1] != y[1]
    ]
    if differ:
        found = sorted({f"{x[:12]} vs {y[:12]}" for x, y in differ})
        return f"run on different dataset versions (dataset_hash {'; '.join(found)}); not paired"
    seeds = merged["seed_id"].nunique()
    if seeds < MIN_COMMON_SEEDS:
        return (
            f"{seeds} seed(s) in common; a paired comparison needs at least {MIN_COMMON_SEEDS} "
            "(below that the exact test cannot reach p < 0.05)"
        )
    return None


def compare_models(
    scored: pd.DataFrame,
    groups: list[Group],
    datasets: dict[str, tuple[tuple, str | None]],
    n_boot: int,
    seed: int,
    alpha: float,
) -> Comparisons:
    """All pairwise comparisons, refusals, strata, disagreements and the ranking."""
    rows, mcnemar_rows, strata_rows, disagreement_rows, refused = [], [], [], [], []
    by_group = {key: part for key, part in scored.groupby(["model", "prompt", "controller"], sort=False)}
    for a, b, kind in comparison_pairs(groups):
        label = _label(a, b, kind)
        merged = paired_episodes(by_group, a, b)
        reason = _refusal(merged, datasets)
        if reason:
            refused.append({**label, "common_episodes": len(merged), "reason": reason})
            continue
        seeds, index = np.unique(merged["seed_id"].astype(str).to_numpy(), return_inverse=True)
        weights = multinomial_weights(seeds.size, n_boot, _rng(seed, *a, *b)) if n_boot > 0 else None
        paired = PairedSeeds(index, seeds, weights)
        ra, rb = episode_ratios(merged, "_a"), episode_ratios(merged, "_b")
        for metric, _ in COMPARED_METRICS:
            (num_a, den), (num_b, _) = paired.sums(ra[metric]), paired.sums(rb[metric])
            estimate = difference_from_sums((num_a, den), (num_b, den), weights)
            present = (
                den > 0
            )  # per-seed metric: seeds with a denominator (e.g. an escalation-required episode)
            test = exact_signed_rank((num_b[present] - num_a[present]) / den[present])
            rows.append(
                {
                    **label,
                    "metric": metric,
                    "common_episodes": len(merged),
                    "common_seeds": seeds.size,
                    "value_a": ra[metric].value(),
                    "value_b": rb[metric].value(),
                    "difference": estimate.value,
                    "ci_low": estimate.low,
                    "ci_high": estimate.high,
                    "tested_seeds": test.n_pairs,
                    "seeds_b_higher": test.n_positive,
                    "seeds_b_lower": test.n_negative,
                    "mean_seed_difference": test.mean_difference,
                    "statistic": test.statistic,
                    "p_value": test.pvalue,
                    "note": test.note,
                }
            )
        ca = merged["correct_a"].to_numpy(dtype=float) == 1
        cb = merged["correct_b"].to_numpy(dtype=float) == 1
        a_only, b_only = int((ca & ~cb).sum()), int((~ca & cb).sum())
        mcnemar_rows.append(
            {
                **label,
                "common_episodes": len(merged),
                "both_right": int((ca & cb).sum()),
                "a_right_b_wrong": a_only,
                "a_wrong_b_right": b_only,
                "both_wrong": int((~ca & ~cb).sum()),
                "p_value": mcnemar_exact(a_only, b_only),
            }
        )
        strata_rows += _strata(merged, paired, ra, rb, label)
        disagreement_rows += _disagreements(merged, paired, label)

    pairs = pd.DataFrame(rows)
    if len(pairs):
        pairs["p_holm"] = holm(pairs["p_value"].tolist())
        pairs["significant"] = pairs["p_holm"] < alpha
    mcnemar = pd.DataFrame(mcnemar_rows)
    if len(mcnemar):
        mcnemar["p_holm"] = holm(mcnemar["p_value"].tolist())
        mcnemar["significant"] = mcnemar["p_holm"] < alpha
    notes = [f"{pair_name(r)} ({r['prompt']}): not compared: {r['reason']}" for r in refused]
    return Comparisons(
        pairs=pairs,
        mcnemar=mcnemar,
        strata=pd.DataFrame(strata_rows),
        disagreements=pd.DataFrame(disagreement_rows),
        refused=pd.DataFrame(refused),
        ranking=rank_first(scored, groups, n_boot, seed),
        notes=notes,
    )


def _strata(
    merged: pd.DataFrame, paired: PairedSeeds, ra: dict[str, Ratio], rb: dict[str, Ratio], label: dict
) -> list[dict[str, Any]]:
    """The differences per variant and per task class, each with its paired seed-bootstrap CI: the
    pair's seed resamples, the stratum's episodes within each drawn seed (as Table I's late-risk
    sensitivity is computed within the group's resamples)."""
    out = []
    for by, name in (("variant", "variant"), ("task_class", "class")):
        values = merged[by].astype(str).to_numpy()
        for value in sorted(set(values)):
            mask = values == value
            for metric, _ in COMPARED_METRICS:
                (num_a, den), (num_b, _) = paired.sums(ra[metric], mask), paired.sums(rb[metric], mask)
                if den.sum() == 0:
                    continue
                est = difference_from_sums((num_a, den), (num_b, den), paired.weights)
                out.append(
                    {
                        **label,
                        "stratum": name,
                        "value": value,
                        "metric": metric,
                        "episodes": int(mask.sum()),
                        "seeds": int(np.count_nonzero(np.bincount(paired.index[mask]))),
                        "value_a": float(num_a.sum() / den.sum()),
                        "value_b": float(num_b.sum() / den.sum()),
                        "difference": est.value,
                        "ci_low": est.low,
                        "ci_high": est.high,
                    }
                )
    return out


def _disagreements(merged: pd.DataFrame, paired: PairedSeeds, label: dict) -> list[dict[str, Any]]:
    """The :data:`TOP_SEEDS` seeds with the largest |utility 5:1 difference| (then most differing
    actions), one row per episode whose action differs, with both logs and the sample id."""
    differs = (merged["action_a"].astype(str) != merged["action_b"].astype(str)).to_numpy()
    delta = merged["utility_5_b"].to_numpy(dtype=float) - merged["utility_5_a"].to_numpy(dtype=float)
    n = paired.seeds.size
    count = np.bincount(paired.index, minlength=n)
    seed_delta = np.bincount(paired.index, weights=delta, minlength=n) / np.maximum(count, 1)
    differing = np.bincount(paired.index, weights=differs.astype(float), minlength=n)
    candidates = [i for i in range(n) if differing[i] > 0]
    candidates.sort(key=lambda i: (-abs(seed_delta[i]), -differing[i], paired.seeds[i]))
    out = []
    for rank, i in enumerate(candidates[:TOP_SEEDS], start=1):
        part = merged[(paired.index == i) & differs].sort_values(["id", "epoch"])
        for e in part.to_dict("records"):
            out.append(
                {
                    **label,
                    "seed_rank": rank,
                    "seed_id": paired.seeds[i],
                    "seed_utility_5_difference": float(seed_delta[i]),
                    "seed_differing_episodes": int(differing[i]),
                    "id": e["id"],
                    "epoch": int(e["epoch"]),
                    "variant": e["variant"],
                    "escalation_required": bool(e["escalation_required"]),
                    "action_a": e["action_a"],
                    "action_b": e["action_b"],
                    "log_a": e["log_a"],
                    "log_b": e["log_b"],
                }
            )
    return out


def rank_first(scored: pd.DataFrame, groups: list[Group], n_boot: int, seed: int) -> pd.DataFrame:
    """Per prompt × controller: the share of seed-bootstrap resamples in which each model has the
    highest utility 5:1 (ties share the win), all models resampled on the same seed draw."""
    rows = []
    for prompt, controller in dict.fromkeys((p, c) for _, p, c in groups):
        models = sorted(m for m, p, c in groups if (p, c) == (prompt, controller))
        part = scored[(scored["prompt"] == prompt) & (scored["controller"] == controller)]
        part = part[part["model"].isin(models)]
        seeds = sorted(part["seed_id"].astype(str).unique())
        sums = part.pivot_table(index="model", columns="seed_id", values="utility_5", aggfunc="sum")
        counts = part.pivot_table(index="model", columns="seed_id", values="utility_5", aggfunc="count")
        sums = sums.reindex(index=models, columns=seeds).fillna(0.0).to_numpy()
        counts = counts.reindex(index=models, columns=seeds).fillna(0.0).to_numpy()
        share = np.full(len(models), math.nan)
        if len(models) >= 2 and n_boot > 0 and len(seeds) >= 2:
            weights = multinomial_weights(len(seeds), n_boot, _rng(seed, "rank", prompt, controller))
            with np.errstate(invalid="ignore", divide="ignore"):
                utility = (weights @ sums.T) / (weights @ counts.T)  # (n_boot, models)
            best = np.nanmax(np.where(np.isnan(utility), -np.inf, utility), axis=1, keepdims=True)
            first = (utility == best).astype(float)
            share = (first / first.sum(axis=1, keepdims=True)).mean(axis=0)
        for i, model in enumerate(models):
            rows.append({"model": model, "prompt": prompt, "controller": controller, "p_first": share[i]})
    return pd.DataFrame(rows)
