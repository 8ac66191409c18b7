"""Read escalation decisions from Inspect logs: one row per (log, sample, epoch, decision scorer).

Logs are classified by the ``benchmark`` key of their task metadata. Escalation logs become rows;
logs of other escbench benchmarks (CSS, …) are handed to report section hooks; everything else is
skipped with a reason. Nothing is dropped silently: errored samples stay as rows (``errored``),
duplicates and unreadable files are listed.

A *decision scorer* is any scorer whose value dict has the keys of ``escalation_scorer``
(``scorers.escalation.DECISION_KEYS``), plain or prefixed with a controller's ablation
(``full_correct``).
``escalation_scorer`` is the model's own action (controller ``"model"``); a controller scorer
names its ablation in ``Score.metadata["controller"]["name"]``.
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

from escbench_inspect.scorers.escalation import MODEL_SCORER, decision_values

BENCHMARK = "escbench-escalation"
MODEL_ACTION = "model"
VALUE_KEYS = ("correct", "escalated", "invalid", "utility_5", "utility_10", "confidence")
ERROR_ACTION = "error"
THINNED = "Key removed from summary"
CSS_BENCHMARK = "escbench-css"


def read_log(path: str | Path, header_only: bool = False) -> Any:
    """``read_eval_log``, a missing or unreadable file raised as ValueError naming the file."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path}: a directory, not a log file")
    if not path.is_file():
        raise ValueError(f"{path}: no such log file")
    try:
        return read_eval_log(str(path), header_only=header_only)
    except Exception as error:  # any failure to parse (zip, JSON, schema) means "not a readable log"
        raise ValueError(f"{path}: not a readable Inspect log ({error})") from error


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
            missing.extend(_other_files(path, logs))
        elif path.is_file():
            found.append(str(path.resolve()))
        else:
            missing.append({"path": item, "reason": "no such file or directory"})
    unique = sorted({p.removeprefix("file://") for p in found})
    return unique, missing


def _other_files(directory: Path, logs: list[str]) -> list[dict[str, str]]:
    """Files under ``directory`` that are not Inspect logs (hidden files and Inspect's own
    ``logs.json`` listing excepted), each with the reason it is not read."""
    listed = {Path(p.removeprefix("file://")).resolve() for p in logs}
    other = []
    for file in sorted(directory.rglob("*")):
        relative = file.relative_to(directory)
        if not file.is_file() or file.resolve() in listed or file.name == "logs.json":
            continue
        if any(part.startswith(".") for part in relative.parts):
            continue
        kind = file.suffix or "no extension"
        other.append({"path": str(file), "reason": f"not an Inspect log file ({kind})"})
    return other


def _read_headers(paths: list[str]) -> tuple[pd.DataFrame, list[dict[str, str]]]:
    """evals_df of all paths; on failure, file by file so one bad file skips only itself."""
    if not paths:
        return pd.DataFrame(), []
    try:
        frame, bad = evals_df(paths, quiet=True), []
    except Exception:  # noqa: BLE001 — isolate the unreadable file below
        frames, bad = [], []
        for path in paths:
            try:
                frames.append(evals_df(path, quiet=True))
            except Exception as error:  # noqa: BLE001
                bad.append({"path": path, "reason": f"not a readable Inspect log ({error})"})
        frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    frame = pd.concat([frame, _same_eval_logs(paths, _plain_paths(frame), {b["path"] for b in bad})])
    return _plain_paths(frame.reset_index(drop=True)), bad


def _plain_paths(frame: pd.DataFrame) -> pd.DataFrame:
    if not len(frame):
        return frame
    return frame.assign(log=[str(p).removeprefix("file://") for p in frame["log"]])


def _same_eval_logs(paths: list[str], frame: pd.DataFrame, bad: set[str]) -> pd.DataFrame:
    """Headers of the inputs ``evals_df`` left out because another input has the same eval id (a
    copy, or a re-scored / re-judged version): read one by one so that none is dropped unseen."""
    read = set(frame["log"]) if len(frame) else set()
    left_out = [p for p in paths if p not in read and p not in bad]
    return (
        pd.concat([evals_df(p, quiet=True) for p in left_out], ignore_index=True)
        if left_out
        else frame.iloc[:0]
    )


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
    return decision_values(value) is not None


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
            value = decision_values(score["value"]) or {}
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


def _headers_by_benchmark(
    inputs: list[str],
) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, str]]]:
    """Header records per escbench benchmark (from the task metadata), and every input that is
    not an escbench log, with its reason."""
    paths, skipped = resolve_paths(inputs)
    headers, unreadable = _read_headers(paths)
    skipped.extend(unreadable)
    found: dict[str, list[dict[str, Any]]] = {}
    for record in headers.to_dict("records") if len(headers) else []:
        benchmark = benchmark_of(_task_metadata(record.get("metadata")))
        if benchmark:
            found.setdefault(benchmark, []).append(record)
        else:
            reason = f"not an escbench log (task {record.get('task_name')!r})"
            skipped.append({"path": record["log"], "reason": reason})
    return found, skipped


def logs_by_benchmark(inputs: list[str]) -> tuple[dict[str, list[str]], list[dict[str, str]]]:
    """Log paths per escbench benchmark, and every input that is not an escbench log, with its reason."""
    found, skipped = _headers_by_benchmark(inputs)
    return {name: [r["log"] for r in records] for name, records in found.items()}, skipped


def load_decisions(inputs: list[str]) -> LoadedLogs:
    """Read every escalation decision from the given log files and directories."""
    found, skipped = _headers_by_benchmark(inputs)
    notes: list[str] = []
    other = {name: [r["log"] for r in records] for name, records in found.items() if name != BENCHMARK}
    log_info: dict[str, dict[str, Any]] = {}
    for record in found.get(BENCHMARK, []):
        path = record["log"]
        metadata = _task_metadata(record.get("metadata"))
        status = record.get("status")
        total = record.get("total_samples")
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
            "dataset_episodes": record.get("dataset_samples"),
            "error": str(record.get("error_message") or "").strip(),
            "eval_id": record.get("eval_id"),
        }
    if not log_info:
        return LoadedLogs(_empty_decisions(), [], skipped, notes, other)

    samples, errors = samples_df(list(log_info), columns=SAMPLE_COLUMNS, strict=False, quiet=True)
    for error in errors:
        notes.append(f"column error while reading samples: {error}")
    decisions = pd.DataFrame(_decision_rows(samples, log_info)) if len(samples) else _empty_decisions()
    for path, info in log_info.items():
        info["samples_read"] = int((samples["log"] == path).sum()) if len(samples) else 0
    decisions = _skip_failed_runs(decisions, log_info, skipped, notes)
    decisions, duplicate_notes = _drop_duplicates(decisions)
    notes.extend(duplicate_notes)
    for path in list(log_info):
        if len(decisions) and (decisions["log"] == path).any():
            continue
        twins = [
            Path(p).name
            for p, i in log_info.items()
            if p != path and i["eval_id"] == log_info[path]["eval_id"]
        ]
        if twins:
            reason = f"same eval id as {', '.join(sorted(twins))} (a copy): its decisions are read once"
        elif log_info[path]["samples_read"]:
            reason = "every decision in it is also in a newer log"
        else:
            reason = "the log holds no samples"
        skipped.append({"path": path, "reason": reason})
        del log_info[path]
    _check_hashes(log_info, notes)
    return LoadedLogs(decisions, list(log_info.values()), skipped, notes, other)


def _skip_failed_runs(
    decisions: pd.DataFrame,
    log_info: dict[str, dict[str, Any]],
    skipped: list[dict[str, str]],
    notes: list[str],
) -> pd.DataFrame:
    """Leave out logs of runs that did not succeed and hold no scored decision (their samples are
    the failure, not the model's decisions); a failed run with scored samples is used, with a note."""
    for path, info in list(log_info.items()):
        if info["status"] == "success":
            continue
        mine = decisions["log"] == path if len(decisions) else pd.Series(dtype=bool)
        scored = int((~decisions.loc[mine, "errored"].astype(bool)).sum()) if mine.any() else 0
        if scored:
            notes.append(
                f"{Path(path).name}: log status is {info['status']!r} ({scored} scored decisions of "
                f"{info['total_samples']} samples); the scored samples are used"
            )
            continue
        error = info["error"].splitlines()
        skipped.append(
            {
                "path": path,
                "reason": f"run did not succeed (status {info['status']!r}) and holds no scored sample"
                + (f" ({error[-1][:200]})" if error else ""),
            }
        )
        del log_info[path]
        if mine.any():
            decisions = decisions[~mine].reset_index(drop=True)
    return decisions


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
