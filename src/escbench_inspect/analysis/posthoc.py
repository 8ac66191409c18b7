"""Post-hoc scoring of existing logs without the evaluated model's provider or credentials.

``inspect score`` rebuilds the evaluated model from the log header (``get_model(log.eval.model)``)
and every model role recorded there, so re-scoring an ``openai/…``, ``anthropic/…`` or
``openai-api/llamacpp/…`` log needs that provider's SDK and API key even when the scorer calls no
model. :func:`score_log` runs ``inspect_ai.score`` with the active model bound to Inspect's
``none/none`` sentinel (it raises if anything calls it) and with only the roles the caller binds
(the recorded ones are restored in the header afterwards). New scores are appended: every score
already in the log is kept.

``escbench score LOG… --controller controller.json`` applies a tuned controller this way, writing
each log in place (atomically); ``--out`` writes a copy instead.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import Model
from inspect_ai.scorer import Scorer
from inspect_ai.util import registry_info

from escbench_inspect.analysis.logs import BENCHMARK, benchmark_of, read_log
from escbench_inspect.scorers.escalation import HEADLINE

NO_MODEL = "none/none"


class ScorerConflict(ValueError):
    """The log already holds scores of a scorer about to be applied."""


def scorer_name(scorer: Scorer) -> str:
    """The unqualified registry name Inspect files a scorer's scores under (``controller_full``)."""
    return registry_info(scorer).name.rsplit("/", 1)[-1]


def existing_scorer_names(log: EvalLog) -> set[str]:
    return {name for sample in log.samples or [] for name in (sample.scores or {})}


def drop_scorers(log: EvalLog, names: set[str]) -> None:
    """Remove every score of the named scorers (samples, results, reductions, header), in place."""
    for sample in log.samples or []:
        if sample.scores:
            sample.scores = {k: v for k, v in sample.scores.items() if k not in names}
    if log.results:
        log.results.scores = [s for s in log.results.scores if s.scorer not in names]
    if log.reductions:
        log.reductions = [r for r in log.reductions if r.scorer not in names]
    if log.eval.scorers:
        log.eval.scorers = [s for s in log.eval.scorers if s.name.rsplit("/", 1)[-1] not in names]


def score_log(
    log: EvalLog,
    scorers: Sequence[Scorer],
    model_roles: dict[str, str | Model] | None = None,
    copy: bool = True,
) -> EvalLog:
    """``log`` with ``scorers`` applied (append), never resolving the evaluated model or recorded roles.

    The evaluated model stays named in the header and in each ``TaskState.model``; only
    ``model_roles`` (e.g. ``{"grader": …}``) are resolved. Errored samples are left unscored, as
    in the run itself (Inspect's ``score`` would score them from their partial output).
    ``copy=False`` lets Inspect add the scores to ``log``'s own samples instead of a deep copy
    (for a caller that owns the log and writes the result: it saves a deep copy of every sample).
    """
    from inspect_ai import score
    from inspect_ai.model import get_model

    recorded_roles = log.eval.model_roles
    unresolved = log.model_copy(deep=False)
    unresolved.eval = log.eval.model_copy(update={"model_roles": None})
    unresolved.samples = [sample for sample in log.samples or [] if sample.error is None]
    rescored = score(
        unresolved,
        list(scorers),
        model=get_model(NO_MODEL),
        model_roles=model_roles,
        action="append",
        display="none",
        copy=copy,
    )
    scored = {(sample.id, sample.epoch): sample for sample in rescored.samples or []}
    rescored.samples = [scored.get((sample.id, sample.epoch), sample) for sample in log.samples or []]
    rescored.eval.model_roles = recorded_roles
    return rescored


def write_log_atomically(log: EvalLog, target: Path) -> None:
    """Write beside ``target`` and rename over it, so an interrupted write never truncates a log."""
    partial = target.with_name(f".{target.stem}.partial{target.suffix}")
    write_eval_log(log, str(partial))
    os.replace(partial, target)


def apply_controller(
    log_path: Path | str, controller: Path | str, out: Path | str | None = None, replace: bool = False
) -> tuple[Path, list[str]]:
    """Append the controller scores of every ablation in ``controller`` to one escalation log.

    Returns the written path (``out``, or the input in place) and the scorer names added.
    """
    from escbench.scorers import controller_scorers

    log_path = Path(log_path)
    scorers = controller_scorers(str(controller))  # the controller file is checked before any log
    log = read_log(log_path)
    if benchmark_of(log.eval.metadata or {}) != BENCHMARK:
        raise ValueError(f"{log_path}: not an escbench escalation log (task {log.eval.task!r})")
    names = [scorer_name(s) for s in scorers]
    present = existing_scorer_names(log) & set(names)
    if present and not replace:
        raise ScorerConflict(
            f"{log_path} already has {sorted(present)} scores; pass --replace to replace them "
            "(the model's own scores and any other scorer are kept)"
        )
    drop_scorers(log, present)
    # a log from before the headline was declared: without it, Inspect View heads the log with the
    # controllers' detector_failed counts instead of the model's accuracy
    log.eval.headline_metric = log.eval.headline_metric or HEADLINE
    target = Path(out) if out else log_path
    write_log_atomically(score_log(log, scorers, copy=False), target)
    return target, names


# ------------------------------------------------------------------------------------------------
# CLI: escbench score LOG… --controller controller.json [--out PATH] [--replace]
# ------------------------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", help=".eval logs of escbench escalation tasks")
    parser.add_argument(
        "--controller", required=True, help="controller file from `escbench tune` (every ablation in it)"
    )
    parser.add_argument("--out", help="write the scored log here instead of in place (one LOG only)")
    parser.add_argument(
        "--replace", action="store_true", help="replace controller scores the log already has"
    )


def run(args: argparse.Namespace) -> int:
    from escbench_inspect import progress

    if args.out and len(args.logs) > 1:
        raise SystemExit("escbench score: --out takes a single LOG")
    progress.enable()
    for path in progress.steps(args.logs, "scoring logs"):
        started = time.perf_counter()
        try:
            target, names = apply_controller(path, args.controller, args.out, args.replace)
        except ValueError as error:  # ScorerConflict, not an escalation log, bad controller file
            raise SystemExit(f"escbench score: {error}") from error
        log: Any = read_eval_log(str(target), header_only=True)
        print(
            f"{target}: added {', '.join(names)} ({log.results.total_samples} samples, "
            f"model {log.eval.model} not called) in {time.perf_counter() - started:.2f} s"
        )
    return 0
