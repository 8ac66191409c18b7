"""Progress lines and time estimates for long local runs.

Inspect draws its own progress display in a terminal; when stdout is not one (``cmd &``, nohup,
CI) ``escbench local run`` prints one line every N samples instead, read from the log that
Inspect flushes every N samples (``--log-buffer N``). The estimate printed before the samples run
is the planned episodes times the seconds per episode measured on this machine by the last
``KEPT_RUNS`` runs of the same task(s), model, slots and solver kind (pooled over their episodes;
``$ESCBENCH_CACHE/runs/timings.json``), or, before any run, the README's measurement on the
2-core reference machine; the line says which.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from escbench_inspect.local.runlog import LogCounts, log_counts

DEFAULT_PROGRESS_EVERY = 10
# Measured 2026-11-30 on the 2-core reference machine (docs/local_model.md, "Measured here").
REFERENCE_SECONDS_PER_EPISODE = {"prompt": 5.0, "agent": 120.0, "escbench/css": 55.0}
MIN_EPISODES_TO_RECORD = 5  # fewer: Inspect's start-up (3-5 s) dominates the figure


KEPT_RUNS = 5  # per key: the estimate pools the last few runs, so one run on a busy machine
# does not set it alone


@dataclass(frozen=True)
class Timing:
    """Seconds per episode measured by one run on this machine."""

    seconds_per_episode: float
    episodes: int
    measured_at: str


def timing_key(tasks: list[str], alias: str, parallel: int, agent: bool) -> str:
    # no ": " or leading "|": the key travels as an Inspect --metadata value, parsed as YAML
    return f"{'+'.join(tasks)};{alias};{parallel} slot(s);{'agent' if agent else 'prompt'}"


def load_timings(path: Path) -> dict[str, list[Timing]]:
    """Recorded runs per timing key, oldest first (an unreadable file counts as none)."""
    try:
        raw = json.loads(path.read_text())
        return {key: [Timing(**run) for run in runs] for key, runs in raw.items()}
    except (OSError, ValueError, TypeError):
        return {}


def record_timing(path: Path, key: str, seconds: float, episodes: int) -> Timing | None:
    """Store the seconds per episode of a run with enough episodes; returns what was stored."""
    if episodes < MIN_EPISODES_TO_RECORD or seconds <= 0:
        return None
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    timing = Timing(round(seconds / episodes, 2), episodes, now)
    timings = load_timings(path)
    timings[key] = [*timings.get(key, []), timing][-KEPT_RUNS:]
    path.parent.mkdir(parents=True, exist_ok=True)
    serialised = {k: [asdict(run) for run in runs] for k, runs in sorted(timings.items())}
    path.write_text(json.dumps(serialised, indent=1) + "\n")
    return timing


@dataclass(frozen=True)
class Estimate:
    seconds_per_episode: float | None
    source: str

    def line(self, episodes: int) -> str:
        if self.seconds_per_episode is None:
            return f"{episodes} episodes to run; no estimate ({self.source})"
        total = episodes * self.seconds_per_episode
        return (
            f"{episodes} episodes to run; estimate {format_duration(total)} "
            f"({self.seconds_per_episode:.1f} s/episode, {self.source})"
        )


def estimate(timings_path: Path, key: str) -> Estimate:
    """Seconds per episode pooled over this machine's recorded runs with this ``timing_key``, else
    the README reference for the kind of task (none for a mix of CSS and other tasks)."""
    runs = load_timings(timings_path).get(key)
    if runs:
        episodes = sum(run.episodes for run in runs)
        seconds = sum(run.seconds_per_episode * run.episodes for run in runs)
        latest = runs[-1].measured_at[:16].replace("T", " ")
        return Estimate(
            seconds / episodes,
            f"measured on this machine: {episodes} episodes in {len(runs)} run(s), latest {latest} UTC",
        )
    fields = key.split(";")
    tasks, agent = fields[0].split("+"), fields[-1] == "agent"
    css = [t.rstrip("/").rsplit("/", 1)[-1].startswith("css") for t in tasks]
    if agent:
        reference: float | None = REFERENCE_SECONDS_PER_EPISODE["agent"]
    elif tasks == ["escbench/css"]:
        reference = REFERENCE_SECONDS_PER_EPISODE["escbench/css"]
    elif not any(css):
        reference = REFERENCE_SECONDS_PER_EPISODE["prompt"]
    else:
        return Estimate(None, "no run of these tasks recorded on this machine yet")
    return Estimate(
        reference,
        "README reference on 2 cores; no run of this task, model and slots recorded here yet",
    )


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min {secs:02d} s"
    return f"{secs} s"


class ProgressMonitor:
    """Watch the log Inspect writes in ``log_dir``; report the plan once and progress every N.

    ``baseline`` is the number of samples the log holds before any new one runs (the carried-over
    samples of a retry), so the rate counts only samples run now.
    """

    def __init__(
        self,
        log_dir: Path,
        existing: set[Path],
        every: int,
        emit: Callable[[str], None],
        estimate: Estimate | None,
        baseline: int = 0,
        print_progress: bool = True,
    ) -> None:
        self.log_dir = log_dir
        self.existing = set(existing)
        self.every = every
        self.emit = emit
        self.estimate = estimate
        self.baseline = baseline
        self.print_progress = print_progress and every > 0
        self.started = time.monotonic()
        self.log: Path | None = None
        self.counts: LogCounts | None = None
        self._mtime: float | None = None
        self._planned_reported = False
        self._last_reported = baseline

    def _find_log(self) -> Path | None:
        """The newest log this run wrote; a run of several tasks moves on to each next log."""
        new = [p for p in self.log_dir.glob("*.eval") if p not in self.existing]
        if not new:
            return None
        newest = max(new, key=lambda p: p.stat().st_ctime)
        if self.log is not None and newest != self.log:
            self.existing.add(self.log)
            self._mtime, self._planned_reported = None, False
            self.baseline = self._last_reported = 0
            self.started = time.monotonic()
        self.log = newest
        return newest

    def poll(self) -> None:
        """Read the log if it changed; never raises (a log mid-write is read next time)."""
        try:
            log = self._find_log()
            if log is None:
                return
            mtime = log.stat().st_mtime
            if mtime == self._mtime:
                return
            counts = log_counts(log)
        except Exception:  # noqa: BLE001 - the log may be mid-write; try again at the next poll
            return
        self._mtime, self.counts = mtime, counts
        if not self._planned_reported and counts.planned is not None:
            self._planned_reported = True
            if self.estimate is not None:
                self.emit(self.estimate.line(counts.planned - self.baseline))
        if self.print_progress and counts.finished >= self._last_reported + self.every:
            self._last_reported = counts.finished
            self.emit(self.progress_line(counts))

    def progress_line(self, counts: LogCounts) -> str:
        elapsed = time.monotonic() - self.started
        done_now = counts.finished - self.baseline
        rate = done_now / elapsed * 60 if elapsed > 0 else 0.0
        total = counts.planned
        if total is not None and rate > 0:
            eta = f"ETA {format_duration((total - counts.finished) / rate * 60)}"
        else:
            eta = "ETA ?"
        return (
            f"progress: {counts.finished}/{total if total is not None else '?'} samples, "
            f"{rate:.1f} episodes/min, {eta}, invalid so far {counts.invalid}"
            + (f", errors {counts.errored}" if counts.errored else "")
        )
