"""Read escalation decisions from Inspect logs: one row per (log, sample, epoch, decision scorer).

Logs are classified by the ``benchmark`` key of their task metadata. Escalation logs become rows;
logs of other escbench benchmarks (CSS, …) are handed to report section hooks; everything else is
skipped with a reason. Nothing is dropped silently: errored samples stay as rows (``errored``),
duplicates and unreadable files are listed.

A *decision scorer* is any scorer whose value dict has the keys of ``escalation_scorer``
(:data:`DECISION_KEYS`). ``escalation_scorer`` is the model's own action (controller ``"model"``);
a controller scorer names its variant in ``Score.metadata["controller"]["name"]``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.analysis import SampleColumn, evals_df, samples_df
from inspect_ai.log import list_eval_logs, read_eval_log

BENCHMARK = "escbench-escalation"
MODEL_ACTION = "model"
MODEL_SCORER = "escalation_scorer"
DECISION_KEYS = frozenset({"correct", "escalated", "invalid", "utility_5", "utility_10", "confidence"})
VALUE_KEYS = ("correct", "escalated", "invalid", "utility_5", "utility_10", "confidence")
ERROR_ACTION = "error"
THINNED = "Key removed from summary"
CSS_BENCHMARK = "escbench-css"


@dataclass
class LoadedLogs:
    """Decision rows plus an account of every input that was not used and why."""

    decisions: pd.DataFrame
    logs: list[dict[str, Any]] = field(default_factory=list)  # escalation logs used
    skipped: list[dict[str, str]] = field(default_factory=list)  # {path, reason}
    notes: list[str] = field(default_factory=list)
    other_benchmarks: dict[str, list[str]] = field(default_factory=dict)  # benchmark -> paths


def _scores_json(sample: Any) -> str:
    scores = sample.scores or {}
    return json.dumps(
        {name: {"value": s.value, "answer": s.answer, "metadata": s.metadata} for name, s in scores.items()}
    )


SAMPLE_COLUMNS = [
    SampleColumn("id", path="id", required=True, type=str),
    SampleColumn("epoch", path="epoch", required=True),
    SampleColumn("metadata_*", path="metadata"),
    SampleColumn("error", path="error", default=""),
    SampleColumn("scores_json", path=_scores_json),
]


def resolve_paths(inputs: list[str]) -> tuple[list[str], list[dict[str, str]]]:
    """Log files named directly or found (recursively) under directories."""
    found: list[str] = []
    missing: list[dict[str, str]] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            logs = [info.name for info in list_eval_logs(str(path))]
            if not logs:
                missing.append({"path": item, "reason": "directory holds no Inspect logs"})
            found.extend(logs)
        elif path.is_file():
            found.append(str(path.resolve()))
        else:
            missing.append({"path": item, "reason": "no such file or directory"})
    unique = sorted({p.removeprefix("file://") for p in found})
    return unique, missing


def _read_headers(paths: list[str]) -> tuple[pd.DataFrame, list[dict[str, str]]]:
    """evals_df of all paths; on failure, file by file so one bad file skips only itself."""
    if not paths:
        return pd.DataFrame(), []
    try:
        return evals_df(paths, quiet=True), []
    except Exception:  # noqa: BLE001 — isolate the unreadable file below
        frames, bad = [], []
        for path in paths:
            try:
                frames.append(evals_df(path, quiet=True))
            except Exception as error:  # noqa: BLE001
                bad.append({"path": path, "reason": f"not a readable Inspect log ({error})"})
        return (pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()), bad


def _task_metadata(raw: object) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str) and raw:
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            return {}
        return value if isinstance(value, dict) else {}
    return {}


def benchmark_of(metadata: dict[str, Any]) -> str | None:
    """The escbench benchmark a log belongs to (CSS logs carry ``css_*`` keys, not ``benchmark``)."""
    if isinstance(metadata.get("benchmark"), str) and metadata["benchmark"]:
        return metadata["benchmark"]
    if any(str(key).startswith("css_") for key in metadata):
        return CSS_BENCHMARK
    return None


def condition_label(metadata: dict[str, Any]) -> str:
    """Prompt condition, with the solver, unstructured output and tool-call recovery named when not
    the defaults (``uncertainty``, ``uncertainty+agent``, ``vanilla+unstructured``,
    ``vanilla+agent+recovered``)."""
    label = str(metadata.get("prompt", "unknown"))
    if metadata.get("solver") not in (None, "prompt"):
        label += f"+{metadata['solver']}"
    if metadata.get("structured") is False:
        label += "+unstructured"
    if metadata.get("recover_tool_calls") is True:  # not comparable to native tool use
        label += "+recovered"
    return label


def _controller_name(scorer: str, metadata: Any) -> str | None:
    """Variant name: "model" for escalation_scorer, else the controller's name (None: thinned)."""
    if scorer == MODEL_SCORER:
        return MODEL_ACTION
    controller = (metadata or {}).get("controller") if isinstance(metadata, dict) else None
    if isinstance(controller, dict) and controller.get("name"):
        return str(controller["name"])
    if isinstance(controller, str) and controller.startswith(THINNED):
        return None
    return scorer


def _full_controller_names(path: str) -> dict[tuple[str, int, str], str]:
    """Controller names from the full samples, when the summaries dropped large metadata."""
    log = read_eval_log(path)
    names: dict[tuple[str, int, str], str] = {}
    for sample in log.samples or []:
        for scorer, score in (sample.scores or {}).items():
            name = _controller_name(scorer, score.metadata)
            names[(str(sample.id), int(sample.epoch), scorer)] = name or scorer
    return names


def _is_decision_value(value: Any) -> bool:
    return isinstance(value, dict) and set(value) >= DECISION_KEYS


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _decision_rows(samples: pd.DataFrame, log_info: dict[str, dict[str, Any]]) -> list[dict]:
    rows: list[dict] = []
    full_names: dict[str, dict[tuple[str, int, str], str]] = {}
    parsed = [json.loads(text) if isinstance(text, str) and text else {} for text in samples["scores_json"]]
    names_by_log: dict[str, dict[str, str]] = {}  # log -> decision scorer -> controller name
    for path, scores in zip(samples["log"], parsed, strict=True):
        known = names_by_log.setdefault(path, {})
        for name, score in scores.items():
            if _is_decision_value(score.get("value")) and known.get(name) in (None, name):
                known[name] = _controller_name(name, score.get("metadata")) or name
    for record, scores in zip(samples.to_dict("records"), parsed, strict=True):
        path = record["log"]
        info = log_info[path]
        base = {
            "log": path,
            "model": info["model"],
            "prompt": info["prompt"],
            "created": info["created"],
            "id": record["id"],
            "epoch": int(record["epoch"]),
            "seed_id": record.get("metadata_seed_id"),
            "task_class": record.get("metadata_task_class"),
            "variant": record.get("metadata_variant"),
            "surface": record.get("metadata_surface"),
            "split": record.get("metadata_split"),
            "escalation_required": bool(record.get("metadata_escalation_required")),
            "error_message": record.get("error") or "",
        }
        decision_scores = {n: s for n, s in scores.items() if _is_decision_value(s.get("value"))}
        if not decision_scores:
            # errored (or unscored) sample: one row per decision scorer the log uses elsewhere
            for scorer, name in (names_by_log.get(path) or {MODEL_SCORER: MODEL_ACTION}).items():
                rows.append(
                    {
                        **base,
                        "scorer": scorer,
                        "controller": name,
                        "errored": True,
                        "action": ERROR_ACTION,
                        **dict.fromkeys(VALUE_KEYS, math.nan),
                    }
                )
            if not base["error_message"]:
                rows[-1]["error_message"] = "sample has no escbench decision score"
            continue
        for scorer, score in decision_scores.items():
            name = _controller_name(scorer, score.get("metadata"))
            if name is None:
                if path not in full_names:
                    full_names[path] = _full_controller_names(path)
                name = full_names[path].get((str(record["id"]), int(record["epoch"]), scorer), scorer)
            value = score["value"]
            # a controller whose detector model failed left the sample unscored (NaN values)
            detector_failed = _float(value.get("detector_failed")) == 1
            rows.append(
                {
                    **base,
                    "scorer": scorer,
                    "controller": name,
                    "errored": detector_failed,
                    "action": ERROR_ACTION if detector_failed else score.get("answer") or "invalid",
                    **{key: _float(value.get(key)) for key in VALUE_KEYS},
                    **({"error_message": "detector model failed; not scored"} if detector_failed else {}),
                }
            )
    return rows


def load_decisions(inputs: list[str]) -> LoadedLogs:
    """Read every escalation decision from the given log files and directories."""
    paths, skipped = resolve_paths(inputs)
    headers, unreadable = _read_headers(paths)
    skipped.extend(unreadable)
    notes: list[str] = []
    other: dict[str, list[str]] = {}
    log_info: dict[str, dict[str, Any]] = {}
    for record in headers.to_dict("records") if len(headers) else []:
        path = record["log"]
        metadata = _task_metadata(record.get("metadata"))
        benchmark = benchmark_of(metadata)
        if benchmark != BENCHMARK:
            if benchmark:
                other.setdefault(benchmark, []).append(path)
            else:
                skipped.append(
                    {
                        "path": path,
                        "reason": f"not an escbench log (task {record.get('task_name')!r})",
                    }
                )
            continue
        status = record.get("status")
        total, completed = record.get("total_samples"), record.get("completed_samples")
        if status != "success":
            notes.append(
                f"{Path(path).name}: log status is {status!r} ({completed} of {total} samples "
                "completed); the samples it holds are used"
            )
        log_info[path] = {
            "path": path,
            "model": record.get("model"),
            "prompt": condition_label(metadata),
            "created": str(record.get("created")),
            "status": status,
            "task": record.get("task_name"),
            "split": metadata.get("split"),
            "dataset_hash": metadata.get("dataset_hash"),
            "classes": metadata.get("classes"),
            "variants": metadata.get("variants"),
            "escbench_version": metadata.get("escbench_version"),
            "total_samples": total,
        }
    if not log_info:
        return LoadedLogs(_empty_decisions(), [], skipped, notes, other)

    samples, errors = samples_df(list(log_info), columns=SAMPLE_COLUMNS, strict=False, quiet=True)
    for error in errors:
        notes.append(f"column error while reading samples: {error}")
    decisions = pd.DataFrame(_decision_rows(samples, log_info)) if len(samples) else _empty_decisions()
    for path, info in log_info.items():
        info["samples_read"] = int((samples["log"] == path).sum()) if len(samples) else 0
    decisions, duplicate_notes = _drop_duplicates(decisions)
    notes.extend(duplicate_notes)
    _check_hashes(log_info, notes)
    return LoadedLogs(decisions, list(log_info.values()), skipped, notes, other)


def _empty_decisions() -> pd.DataFrame:
    columns = [
        "log",
        "model",
        "prompt",
        "created",
        "id",
        "epoch",
        "seed_id",
        "task_class",
        "variant",
        "surface",
        "split",
        "escalation_required",
        "error_message",
        "scorer",
        "controller",
        "errored",
        "action",
        *VALUE_KEYS,
    ]
    return pd.DataFrame(columns=columns)


def _drop_duplicates(decisions: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Keep the newest log's row when the same decision appears in several logs."""
    if decisions.empty:
        return decisions, []
    key = ["model", "prompt", "controller", "id", "epoch"]
    ordered = decisions.sort_values("created", kind="stable")
    duplicated = ordered.duplicated(key, keep="last")
    notes = []
    if duplicated.any():
        dropped = ordered[duplicated]
        for (model, prompt, controller), part in dropped.groupby(["model", "prompt", "controller"]):
            logs = sorted({Path(p).name for p in part["log"]})
            notes.append(
                f"{model} / {prompt} / {controller}: {len(part)} decisions also present in a newer "
                f"log were taken from the newer one (older: {', '.join(logs)})"
            )
    kept = ordered[~duplicated].sort_index(kind="stable").reset_index(drop=True)
    return kept, notes


def _check_hashes(log_info: dict[str, dict[str, Any]], notes: list[str]) -> None:
    """Note when logs of the same selection were run on different dataset contents."""
    by_selection: dict[tuple[str, str, str], set[str]] = {}
    for info in log_info.values():
        if info.get("dataset_hash"):
            key = (
                str(info.get("split")),
                ",".join(info.get("classes") or []),
                ",".join(info.get("variants") or []),
            )
            by_selection.setdefault(key, set()).add(
                f"{info['dataset_hash'][:12]} (escbench {info.get('escbench_version')})"
            )
    for (split, classes, _), hashes in by_selection.items():
        if len(hashes) > 1:
            notes.append(
                f"logs of split {split!r} (classes {classes}) were run on {len(hashes)} different "
                f"dataset versions ({'; '.join(sorted(hashes))}); episodes are paired by id"
            )
