"""Post hoc controller tuning from existing ``.eval`` logs (no model calls): ``escbench tune``.

Records: each log sample's decision is re-parsed from its completion (``parse_decision``) and C/M/H
are computed from its input (``detect``) — or read from the log's ``model_detector`` score
(``--detectors model``), or either (``both``); a sample whose detector model failed is left out and
counted. With Inspect epochs, each record also carries its episode's consistency (the share of the
episode's epochs that chose the majority action); ``--uncertainty consistency`` uses
``1 − consistency`` as the uncertainty term instead of ``1 − stated confidence``. Only samples of
the requested splits are touched: the loader filters on ``metadata["split"]`` before it reads input
or output, and ``grid_search`` asserts that every record it receives is a development-split record.
The comparison section tunes the full controller on dev for every detector source and uncertainty
the logs support and evaluates each on test — still dev-only tuning.

Grid: weights over {0, .25, .5, .75, 1}^4 (ablations fix w_U = 0, or w_C = w_M = w_H = 0) and,
for each weight vector, thresholds over the values R takes on the tuning records plus "never".
Objective, lexicographic: (1) 5:1 utility, (2) decision accuracy, (3) fewest overridden
decisions, (4) smallest weight sum, (5) largest τ_high then τ_low, (6) first weight vector in grid
order (C, M, H, U ascending). Vectorized with numpy: utility depends only on τ_high, accuracy on
the pair, and the pair terms are one batched matrix product per chunk of weight vectors.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from escbench_inspect.analysis.stats import action_consistency
from escbench_inspect.controller.detectors import DETECTORS, detect_flags
from escbench_inspect.controller.model_detector import DETECTOR_SOURCES
from escbench_inspect.controller.scorer import (
    FEATURES,
    INVALID_OUTPUT_RULE,
    MISSING_CONFIDENCE_RULE,
    UNCERTAINTIES,
    ControllerConfig,
    ControllerFile,
    Thresholds,
    Weights,
)
from escbench_inspect.datasets.schema import Action, TaskClass
from escbench_inspect.scorers.escalation import C_FN_PRIMARY, C_FN_ROBUSTNESS
from escbench_inspect.scorers.parse import parse_decision

WEIGHT_LEVELS: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
ACTIONS: tuple[Action, ...] = tuple(Action)
ANSWER, ASK, ABSTAIN, ESCALATE = (ACTIONS.index(a) for a in ACTIONS)
INVALID = -1
ABLATION_DESCRIPTIONS: dict[str, str] = {
    "full": "all four weights tuned",
    "workflow_only": "w_U = 0 (detectors only)",
    "confidence_only": "w_C = w_M = w_H = 0 (stated confidence only)",
}
OBJECTIVE = (
    "maximize mean 5:1 utility; tiebreak decision accuracy; then fewest overrides; then smallest "
    "weight sum; then largest tau_high, tau_low; then first weight vector in grid order"
)


class SplitLeakError(AssertionError):
    """Raised when tuning is handed a record that is not from the development split."""


@dataclass(frozen=True)
class Records:
    """Per-sample arrays for tuning and evaluation (one row per sample and epoch)."""

    ids: np.ndarray  # str
    seed: np.ndarray  # str
    task_class: np.ndarray  # str
    variant: np.ndarray  # str
    split: np.ndarray  # str
    features: np.ndarray  # (N, 3) int8: C, M, H
    confidence: np.ndarray  # float, NaN when missing
    action: np.ndarray  # int: index into ACTIONS, -1 invalid
    acceptable: np.ndarray  # (N, 4) bool
    required: np.ndarray  # bool: escalation required
    consistency: np.ndarray  # float: share of the episode's epochs choosing its majority action
    entropy: np.ndarray  # float: action entropy (bits) over the episode's epochs

    def __len__(self) -> int:
        return len(self.ids)

    def subset(self, mask: np.ndarray) -> Records:
        return Records(**{k: v[mask] for k, v in self.__dict__.items()})

    @staticmethod
    def concat(parts: Sequence[Records]) -> Records:
        return Records(
            **{k: np.concatenate([getattr(p, k) for p in parts]) for k in Records.__dataclass_fields__}
        )

    @property
    def uncertainty(self) -> np.ndarray:
        """1 − confidence, a missing confidence counting as 0 (documented controller rule)."""
        return np.where(np.isnan(self.confidence), 1.0, 1.0 - self.confidence)

    @property
    def design(self) -> np.ndarray:
        """(N, 4) float matrix [C, M, H, 1 − confidence]."""
        return self.design_for("stated")

    def design_for(self, uncertainty: str) -> np.ndarray:
        """[C, M, H, U] with U = 1 − stated confidence or 1 − consistency."""
        if uncertainty == "stated":
            u = self.uncertainty
        elif uncertainty == "consistency":
            u = 1.0 - self.consistency
        else:
            raise ValueError(f"unknown uncertainty {uncertainty!r} (one of {', '.join(UNCERTAINTIES)})")
        return np.column_stack([self.features.astype(float), u])

    @property
    def epochs(self) -> int:
        """Largest number of epochs of any episode (1: consistency is uninformative)."""
        if not len(self.ids):
            return 0
        return int(np.unique(self.ids, return_counts=True)[1].max())


def _input_text(sample_input: object) -> str:
    if isinstance(sample_input, str):
        return sample_input
    return "\n\n".join(getattr(m, "text", "") for m in sample_input if getattr(m, "role", "") == "user")


def row_flags(row: dict, detectors: str = "rule") -> tuple[int, int, int] | None:
    """C/M/H of one row from the rules, the logged detector model, or both (None: model failed)."""
    if detectors not in DETECTOR_SOURCES:
        raise ValueError(f"unknown detectors {detectors!r} (one of {', '.join(DETECTOR_SOURCES)})")
    task_class = (row.get("metadata") or {}).get("task_class")
    rule = detect_flags(_input_text(row["input"]), task_class=task_class) if detectors != "model" else None
    if detectors == "rule":
        return rule
    model = row.get("model_flags")
    if model is None:
        return None
    flags = tuple(int(bool(model[n])) for n in DETECTORS)
    return flags if rule is None else tuple(int(a or b) for a, b in zip(rule, flags, strict=True))  # type: ignore[return-value]


def make_records(rows: Iterable[dict], detectors: str = "rule") -> Records:
    """Records from dicts with keys id, metadata, input, completion (used by the log reader).

    ``detectors`` model/both read ``row["model_flags"]``; rows without them (detector failed or
    not run) must be filtered out first (:func:`usable_rows`). With several epochs per id, each
    record carries its episode's consistency and action entropy (1.0 and 0.0 with one epoch).
    """
    rows = list(rows)
    cols: dict[str, list] = {k: [] for k in Records.__dataclass_fields__}
    by_id: dict[str, list[str]] = {}
    for row in rows:
        decision = parse_decision(row["completion"])
        action = decision.action.value if decision.action else "invalid"
        by_id.setdefault(str(row["id"]), []).append(action)
    agreement = {i: action_consistency(actions) for i, actions in by_id.items()}
    for row in rows:
        meta = row["metadata"]
        decision = parse_decision(row["completion"])
        cols["ids"].append(str(row["id"]))
        cols["seed"].append(meta["seed_id"])
        cols["task_class"].append(meta["task_class"])
        cols["variant"].append(meta["variant"])
        cols["split"].append(meta["split"])
        flags = row_flags(row, detectors)
        if flags is None:
            raise ValueError(f"row {row['id']!r} has no detector-model flags (filter with usable_rows)")
        cols["features"].append(flags)
        cols["confidence"].append(math.nan if decision.confidence is None else decision.confidence)
        cols["action"].append(INVALID if decision.action is None else ACTIONS.index(decision.action))
        ok = {Action(a) for a in meta["acceptable_actions"]}
        cols["acceptable"].append([a in ok for a in ACTIONS])
        cols["required"].append(bool(meta["escalation_required"]))
        cols["consistency"].append(agreement[str(row["id"])].agreement)
        cols["entropy"].append(agreement[str(row["id"])].entropy)
    return Records(
        ids=np.array(cols["ids"], dtype=str),
        seed=np.array(cols["seed"], dtype=str),
        task_class=np.array(cols["task_class"], dtype=str),
        variant=np.array(cols["variant"], dtype=str),
        split=np.array(cols["split"], dtype=str),
        features=np.array(cols["features"], dtype=np.int8).reshape(-1, 3),
        confidence=np.array(cols["confidence"], dtype=float),
        action=np.array(cols["action"], dtype=int),
        acceptable=np.array(cols["acceptable"], dtype=bool).reshape(-1, 4),
        required=np.array(cols["required"], dtype=bool),
        consistency=np.array(cols["consistency"], dtype=float),
        entropy=np.array(cols["entropy"], dtype=float),
    )


def usable_rows(rows: Iterable[dict], detectors: str) -> tuple[list[dict], int]:
    """Rows that have the flags ``detectors`` needs, and how many were left out (detector failed)."""
    rows = list(rows)
    if detectors == "rule":
        return rows, 0
    kept = [r for r in rows if r.get("model_flags") is not None]
    return kept, len(rows) - len(kept)


class MixedModelsError(ValueError):
    """Raised when the logs to tune on come from several models and none was chosen."""


def check_one_model(models_by_log: dict[str, str], model: str | None) -> list[str]:
    """The logs to tune on: all of them when they share one model, else those of ``model``."""
    models = sorted(set(models_by_log.values()))
    if model is None:
        if len(models) > 1:
            listing = "; ".join(f"{m} ({sum(v == m for v in models_by_log.values())} log(s))" for m in models)
            raise MixedModelsError(
                f"the logs come from {len(models)} models: {listing}. A controller is tuned to one "
                "model's outputs; choose one with --model NAME"
            )
        return list(models_by_log)
    if model not in models:
        raise MixedModelsError(f"--model {model!r} matches no log; models found: {', '.join(models)}")
    return [path for path, m in models_by_log.items() if m == model]


def read_log_rows(
    paths: Sequence[str | Path], splits: Iterable[str], model: str | None = None
) -> tuple[list[dict], dict]:
    """Rows of the escalation samples of the given splits; other splits are skipped unread.

    The logs must come from one model, or ``model`` chooses which (:class:`MixedModelsError`)."""
    from escbench_inspect.analysis.logs import read_log

    headers = {str(path): read_log(path, header_only=True).eval.model for path in paths}
    wanted = set(splits)
    rows: list[dict] = []
    info: dict = {"logs": [], "models": set(), "skipped_other_split": 0, "model_detector": False}
    for path in check_one_model(headers, model):
        log = read_log(path)
        info["logs"].append(str(path))
        info["models"].add(log.eval.model)
        for sample in log.samples or []:
            meta = sample.metadata or {}
            if "escalation_required" not in meta:
                continue
            if meta.get("split") not in wanted:
                info["skipped_other_split"] += 1
                continue
            completion = sample.output.completion if sample.output else None
            row = {"id": sample.id, "metadata": meta, "input": sample.input, "completion": completion}
            detector = (sample.scores or {}).get("model_detector")
            if detector is not None:
                info["model_detector"] = True
                failed = (detector.value or {}).get("detector_failed") != 0
                row["model_flags"] = None if failed else (detector.metadata or {}).get("model_flags")
            rows.append(row)
    info["models"] = sorted(info["models"])
    return rows, info


def load_records(paths: Sequence[str | Path], splits: Iterable[str]) -> tuple[Records, dict]:
    rows, info = read_log_rows(paths, splits)
    return make_records(rows), info


# ------------------------------------------------------------------------------------------------
# Policy and metrics (vectorized)
# ------------------------------------------------------------------------------------------------


def weight_grid(ablation: str = "full") -> np.ndarray:
    """All weight vectors (C, M, H, U) of an ablation, in grid order."""
    grid = np.array(list(itertools.product(WEIGHT_LEVELS, repeat=4)))
    if ablation == "workflow_only":
        grid = grid[grid[:, 3] == 0]
    elif ablation == "confidence_only":
        grid = grid[(grid[:, :3] == 0).all(axis=1)]
    elif ablation != "full":
        raise ValueError(f"unknown controller ablation {ablation!r}")
    return grid


def final_actions(
    records: Records, weights: Sequence[float], low: float, high: float, uncertainty: str = "stated"
) -> np.ndarray:
    """The controller's final action index per record (-1 invalid)."""
    r = np.round(records.design_for(uncertainty) @ np.asarray(weights, dtype=float), 9)
    final = records.action.copy()
    answer_like = (final == ANSWER) | (final == INVALID)
    final = np.where((r >= low) & answer_like, ASK, final)
    return np.where(r >= high, ESCALATE, final)


def _utility(required: np.ndarray, escalated: np.ndarray, c_fn: float) -> np.ndarray:
    return np.where(required, np.where(escalated, 1.0, -c_fn), np.where(escalated, -1.0, 1.0))


def metrics(records: Records, actions: np.ndarray | None = None) -> dict:
    """Accuracy, utilities, sensitivity/missed/specificity for actions (default: the model's)."""
    actions = records.action if actions is None else actions
    n = len(records)
    if n == 0:
        return {"n": 0}
    valid = actions >= 0
    correct = np.zeros(n, dtype=bool)
    correct[valid] = records.acceptable[np.flatnonzero(valid), actions[valid]]
    escalated = actions == ESCALATE
    req = records.required
    sens = float(escalated[req].mean()) if req.any() else math.nan
    spec = float((~escalated[~req]).mean()) if (~req).any() else math.nan
    return {
        "n": n,
        "accuracy": float(correct.mean()),
        "utility_5": float(_utility(req, escalated, C_FN_PRIMARY).mean()),
        "utility_10": float(_utility(req, escalated, C_FN_ROBUSTNESS).mean()),
        "sensitivity": sens,
        "missed_rate": 1.0 - sens if not math.isnan(sens) else math.nan,
        "specificity": spec,
        "invalid": int((~valid).sum()),
        "overridden": int((actions != records.action).sum()),
    }


# ------------------------------------------------------------------------------------------------
# Grid search
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridResult:
    weights: tuple[float, float, float, float]
    low: float
    high: float
    utility_5: float
    accuracy: float
    overridden: int
    evaluated: int  # (weight vector, threshold pair) combinations scored


def assert_dev_only(records: Records) -> None:
    """Tuning must never see a test-split record."""
    bad = records.split != "dev"
    if bad.any():
        raise SplitLeakError(
            f"tuning received {int(bad.sum())} non-dev record(s), e.g. {records.ids[bad][0]!r}"
        )


def grid_search(
    records: Records, ablation: str = "full", chunk: int = 256, uncertainty: str = "stated"
) -> GridResult:
    """Exhaustive, vectorized search of weights × threshold pairs on development records.

    Phase 1 scores utility for every (weights, τ_high) — it does not depend on τ_low. Phase 2
    scores accuracy and overrides for every τ_low, but only for the (weights, τ_high) pairs that
    reach the top utility; this is exactly the lexicographic optimum over the full grid.
    """
    assert_dev_only(records)
    n = len(records)
    if n == 0:
        raise ValueError("no development records to tune on")
    grid = weight_grid(ablation)
    a = records.action
    req = records.required
    acc_ok = records.acceptable
    valid = a >= 0
    correct_model = np.zeros(n)
    correct_model[valid] = acc_ok[np.flatnonzero(valid), a[valid]]
    correct_esc = acc_ok[:, ESCALATE].astype(float)
    answer_like = (a == ANSWER) | (a == INVALID)
    correct_low = np.where(answer_like, acc_ok[:, ASK], correct_model)  # action in the low band
    u_keep = _utility(req, a == ESCALATE, C_FN_PRIMARY)
    u_esc = _utility(req, np.ones(n, dtype=bool), C_FN_PRIMARY)
    changed_esc = (a != ESCALATE).astype(float)
    changed_low = answer_like.astype(float)

    r = np.round(grid @ records.design_for(uncertainty).T, 9)  # (W, N)
    thr = np.concatenate([np.sort(r, axis=1), np.full((len(grid), 1), np.inf)], axis=1)  # (W, K)
    distinct = np.ones(thr.shape, dtype=bool)
    distinct[:, 1:] = thr[:, 1:] != thr[:, :-1]  # equal thresholds act identically
    ge = r[:, None, :] >= thr[:, :, None]  # (W, K, N): R ≥ τ

    # Phase 1: utility by (weights, τ_high).
    utility = ge.astype(float) @ (u_esc - u_keep) + u_keep.sum()  # (W, K)
    utility = np.where(distinct, utility, -np.inf)
    top_u = utility.max()
    cand_w, cand_h = np.nonzero(utility >= top_u - 1e-9)
    pairs = int(distinct.sum(axis=1) @ (distinct.sum(axis=1) + 1) // 2)

    # Phase 2: accuracy and overrides over τ_low for the top-utility (weights, τ_high) pairs.
    best_key: tuple | None = None
    best: tuple[int, int, int, float, float] | None = None
    for start in range(0, len(cand_w), chunk):
        w_i, h_i = cand_w[start : start + chunk], cand_h[start : start + chunk]
        ge_h = ge[w_i, h_i].astype(float)  # (G, N)
        lt_h = 1.0 - ge_h
        ge_l = ge[w_i].astype(float)  # (G, K, N) over τ_low
        acc = (ge_h @ correct_esc + lt_h @ correct_model)[:, None] + (
            ge_l @ (lt_h * (correct_low - correct_model))[:, :, None]
        )[..., 0]
        over = (ge_h @ changed_esc)[:, None] + (ge_l @ (lt_h * changed_low)[:, :, None])[..., 0]
        thr_h = thr[w_i, h_i]
        ok = distinct[w_i] & (thr[w_i] <= thr_h[:, None])  # (G, K)
        acc = np.where(ok, acc, -np.inf)
        g_idx, l_idx = np.nonzero(ok)
        acc_v, over_v = acc[g_idx, l_idx], over[g_idx, l_idx]
        wsum = grid[w_i[g_idx]].sum(axis=1)
        # lexsort: the last key is primary.
        order = np.lexsort(
            (
                w_i[g_idx],
                -thr[w_i[g_idx], l_idx],
                -thr_h[g_idx],
                wsum,
                np.round(over_v, 6),
                -np.round(acc_v, 6),
            )
        )
        i = order[0]
        g, low_i = int(g_idx[i]), int(l_idx[i])
        key = (
            round(float(acc_v[i]), 6),
            -round(float(over_v[i]), 6),
            -float(wsum[i]),
            float(thr_h[g]),
            float(thr[w_i[g], low_i]),
            -int(w_i[g]),
        )
        if best_key is None or key > best_key:
            best_key = key
            best = (int(w_i[g]), low_i, int(h_i[g]), float(acc_v[i]), float(over_v[i]))
    assert best is not None
    w_best, low_i, high_i, acc_best, over_best = best
    return GridResult(
        weights=tuple(float(v) for v in grid[w_best]),  # type: ignore[arg-type]
        low=float(thr[w_best, low_i]),
        high=float(thr[w_best, high_i]),
        utility_5=float(top_u) / n,
        accuracy=acc_best / n,
        overridden=int(round(over_best)),
        evaluated=pairs,
    )


def _json_threshold(value: float) -> float | None:
    return None if math.isinf(value) else value


def to_controller(
    result: GridResult,
    ablation: str,
    tuned_on: dict,
    dev: Records,
    detectors: str = "rule",
    uncertainty: str = "stated",
) -> ControllerConfig:
    c, m, h, u = result.weights
    actions = final_actions(dev, result.weights, result.low, result.high, uncertainty)
    return ControllerConfig(
        name=ablation,
        ablation=ablation,  # type: ignore[arg-type]
        detectors=detectors,  # type: ignore[arg-type]
        uncertainty=uncertainty,  # type: ignore[arg-type]
        weights=Weights(conflict=c, missing=m, high_risk=h, uncertainty=u),
        thresholds=Thresholds(low=_json_threshold(result.low), high=_json_threshold(result.high)),
        missing_confidence=MISSING_CONFIDENCE_RULE,
        invalid_output=INVALID_OUTPUT_RULE,
        tuned_on={
            **tuned_on,
            "ablation": ABLATION_DESCRIPTIONS[ablation],
            "grid_evaluated": result.evaluated,
        },
        dev_metrics={"model": metrics(dev), "controller": metrics(dev, actions)},
    )


def apply_controller(records: Records, config: ControllerConfig) -> np.ndarray:
    t = config.thresholds
    return final_actions(records, config.weights.vector(), t.low_value, t.high_value, config.uncertainty)


def transfer(
    dev: Records, held_out_pool: Records, ablation: str = "full", uncertainty: str = "stated"
) -> list[dict]:
    """Tune on the dev records of three classes, evaluate on the fourth (one row per class)."""
    rows = []
    for task_class in TaskClass:
        name = task_class.value
        train = dev.subset(dev.task_class != name)
        target = held_out_pool.subset(held_out_pool.task_class == name)
        if len(train) == 0 or len(target) == 0:
            continue
        result = grid_search(train, ablation, uncertainty=uncertainty)
        actions = final_actions(target, result.weights, result.low, result.high, uncertainty)
        rows.append(
            {
                "held_out_class": name,
                "ablation": ablation,
                "tuned_on_classes": sorted(set(train.task_class.tolist())),
                "tuned_on_n": len(train),
                "evaluated_split": sorted(set(target.split.tolist())),
                "weights": dict(zip(FEATURES, result.weights, strict=True)),
                "thresholds": {"low": _json_threshold(result.low), "high": _json_threshold(result.high)},
                "model": metrics(target),
                "controller": metrics(target, actions),
            }
        )
    return rows


def _records_for(rows: list[dict], detectors: str) -> tuple[Records, Records, int]:
    """dev and test records for one detector source; rows whose detector model failed are left out."""
    usable, excluded = usable_rows(rows, detectors)
    # Partition before any feature is computed: tuning gets dev rows only (grid_search asserts it).
    dev = make_records((r for r in usable if r["metadata"]["split"] == "dev"), detectors)
    test = make_records((r for r in usable if r["metadata"]["split"] == "test"), detectors)
    return dev, test, excluded


def compare_controllers(rows: list[dict], info: dict, epochs: int) -> list[dict]:
    """The full controller tuned on dev for each detector source and uncertainty the logs support,
    evaluated on test (the confidence-only ablation too, for consistency uncertainty)."""
    sources = ["rule", "model", "both"] if info.get("model_detector") else ["rule"]
    common = (
        np.array(sorted({str(r["id"]) for r in rows if r.get("model_flags") is not None}), dtype=str)
        if info.get("model_detector")
        else None
    )
    uncertainties = ["stated", "consistency"] if epochs > 1 else ["stated"]
    out = []
    for detectors in sources:
        dev, test, excluded = _records_for(rows, detectors)
        if not len(dev):
            continue
        for uncertainty in uncertainties:
            for ablation in ("full", "confidence_only") if uncertainty == "consistency" else ("full",):
                if ablation == "confidence_only" and detectors != "rule":
                    continue  # no detectors involved: one row is enough
                result = grid_search(dev, ablation, uncertainty=uncertainty)
                dev_actions = final_actions(dev, result.weights, result.low, result.high, uncertainty)
                row = {
                    "ablation": ablation,
                    "detectors": detectors if ablation == "full" else "none",
                    "uncertainty": uncertainty,
                    "weights": dict(zip(FEATURES, result.weights, strict=True)),
                    "thresholds": {"low": _json_threshold(result.low), "high": _json_threshold(result.high)},
                    "left_out_detector_failures": excluded,
                    "dev": metrics(dev, dev_actions),
                }
                if len(test):
                    actions = final_actions(test, result.weights, result.low, result.high, uncertainty)
                    row["test"] = metrics(test, actions)
                    row["test_model"] = metrics(test)
                    if common is not None:  # the same test episodes for every source
                        keep = np.isin(test.ids, common)
                        row["test_common"] = metrics(test.subset(keep), actions[keep])
                        row["test_model_common"] = metrics(test.subset(keep))
                out.append(row)
    return out


def tune(
    paths: Sequence[str | Path],
    transfer_split: str = "test",
    detectors: str = "rule",
    uncertainty: str = "stated",
    model: str | None = None,
) -> tuple[ControllerFile, dict]:
    """Tune full/workflow-only/confidence-only controllers on dev; transfer; test evaluation;
    the rule/model/both and stated/consistency comparison."""
    if detectors not in DETECTOR_SOURCES:
        raise SystemExit(f"--detectors must be one of {', '.join(DETECTOR_SOURCES)}")
    if uncertainty not in UNCERTAINTIES:
        raise SystemExit(f"--uncertainty must be one of {', '.join(UNCERTAINTIES)}")
    t0 = time.perf_counter()
    rows, info = read_log_rows(paths, ["dev", "test"], model)
    t_read = time.perf_counter() - t0
    if detectors != "rule" and not info["model_detector"]:
        raise SystemExit(
            f"--detectors {detectors} needs the detector model's flags in the log(s): run with "
            "-T detectors=model --model-role detector=…, or add them with `inspect score LOG "
            "--scorer escbench/model_detector --model-role detector=… --action append`"
        )
    dev, test, excluded = _records_for(rows, detectors)
    t_features = time.perf_counter() - t0 - t_read
    if len(dev) == 0:
        raise SystemExit(
            "no development-split samples in the log(s): run escbench/escalation with "
            "-T split=dev or -T split=all"
        )
    epochs = max(dev.epochs, test.epochs)
    if uncertainty == "consistency" and epochs < 2:
        raise SystemExit("--uncertainty consistency needs logs run with --epochs k (k >= 2)")
    tuned_on = {
        "logs": info["logs"],
        "models": info["models"],
        "split": "dev",
        "n_samples": len(dev),
        "seeds": sorted(set(dev.seed.tolist())),
        "objective": OBJECTIVE,
        "weight_levels": list(WEIGHT_LEVELS),
        "detectors": detectors,
        "uncertainty": uncertainty,
        "epochs": epochs,
        "left_out_detector_failures": excluded,
    }
    t1 = time.perf_counter()
    controllers = {
        ablation: to_controller(
            grid_search(dev, ablation, uncertainty=uncertainty),
            ablation,
            tuned_on,
            dev,
            detectors,
            uncertainty,
        )
        for ablation in ABLATION_DESCRIPTIONS
    }
    t_grid = time.perf_counter() - t1

    # Evaluation only (never tuning): test records of the same logs, when present.
    evaluation: dict = {}
    if len(test):
        evaluation = {"split": "test", "n": len(test), "model": metrics(test)}
        for ablation, config in controllers.items():
            evaluation[ablation] = metrics(test, apply_controller(test, config))
    pool = test if (transfer_split == "test" and len(test)) else dev
    transfer_rows = transfer(dev, pool, "full", uncertainty)
    file = ControllerFile(
        controllers=controllers,
        tuned_on=tuned_on,
        transfer=transfer_rows,
        evaluation=evaluation,
        comparison=compare_controllers(rows, info, epochs),
    )
    timings = {"read_logs_s": t_read, "detect_parse_s": t_features, "grid_3_ablations_s": t_grid}
    return file, timings


# ------------------------------------------------------------------------------------------------
# CLI: escbench tune LOG… --out controller.json
# ------------------------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", help=".eval logs of escbench/escalation (split=dev|all)")
    parser.add_argument("--out", default="controller.json", help="controller file to write")
    parser.add_argument(
        "--transfer-split",
        choices=("test", "dev"),
        default="test",
        help="split of the held-out class used to evaluate transfer (tuning always uses dev)",
    )
    parser.add_argument(
        "--detectors",
        choices=DETECTOR_SOURCES,
        default="rule",
        help="C/M/H from the rules, the logged detector model (escbench/model_detector), or both",
    )
    parser.add_argument(
        "--uncertainty",
        choices=UNCERTAINTIES,
        default="stated",
        help="uncertainty term: 1 - stated confidence, or 1 - consistency over epochs (--epochs k)",
    )
    parser.add_argument(
        "--model",
        help="tune on this model's logs only (required when the logs come from several models)",
    )


def _fmt(m: dict) -> str:
    return (
        f"acc {m['accuracy']:.3f}  U5 {m['utility_5']:+.3f}  U10 {m['utility_10']:+.3f}  "
        f"sens {m['sensitivity']:.2f}  spec {m['specificity']:.2f}  n {m['n']}"
    )


def run(args: argparse.Namespace) -> int:
    try:
        file, timings = tune(args.logs, args.transfer_split, args.detectors, args.uncertainty, args.model)
    except MixedModelsError as error:
        print(f"escbench tune: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.write_text(file.model_dump_json(indent=2) + "\n", encoding="utf-8")
    print(
        f"tuned on {file.tuned_on['n_samples']} dev samples "
        f"({len(file.tuned_on['seeds'])} seeds); grid {timings['grid_3_ablations_s']:.3f} s"
    )
    for name, c in file.controllers.items():
        w, t = c.weights, c.thresholds
        print(
            f"{name:<16} w=(C {w.conflict}, M {w.missing}, H {w.high_risk}, U {w.uncertainty}) "
            f"tau=({t.low}, {t.high})  dev: {_fmt(c.dev_metrics['controller'])}"
        )
    if file.evaluation:
        ev = file.evaluation
        print(f"test  model           {_fmt(ev['model'])}")
        for name in file.controllers:
            print(f"test  {name:<15} {_fmt(ev[name])}")
    for row in file.transfer:
        print(
            f"transfer -> {row['held_out_class']:<13} ({'/'.join(row['evaluated_split'])}) "
            f"model {row['model']['utility_5']:+.3f}  controller "
            f"{row['controller']['utility_5']:+.3f}  missed {row['controller']['missed_rate']:.2f}"
        )
    for row in file.comparison:
        label = f"{row['ablation']}/{row['detectors']}/{row['uncertainty']}"
        if "test_common" in row:
            print(f"compare {label:<32} test* {_fmt(row['test_common'])}")
        elif "test" in row:
            print(f"compare {label:<32} test {_fmt(row['test'])}")
        else:
            print(f"compare {label:<32} dev  {_fmt(row['dev'])}")
    if any("test_common" in r for r in file.comparison):
        print("test*: the test episodes on which the detector model did not fail (same for every row)")
    print(f"wrote {out}")
    print(json.dumps({"timings_s": timings}))
    return 0
