"""What a log of ``escbench local run`` records about its run, and what it holds so far.

The runner marks every eval with ``--metadata`` entries (below) naming itself, the model file's
sha256 and the server settings; ``escbench local resume`` reads them back to restart the same
server on the same model before ``inspect eval-retry``. Inspect keeps eval metadata on retry, so a
resumed log can be resumed again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RUNNER_KEY = "escbench_local_runner"
RUNNER_VALUE = "escbench local run"
MODEL_SHA256_KEY = "escbench_local_model_sha256"
MODEL_FILE_KEY = "escbench_local_model_file"
ALIAS_KEY = "escbench_local_alias"
PARALLEL_KEY = "escbench_local_parallel"
CTX_KEY = "escbench_local_ctx_per_slot"
CACHE_REUSE_KEY = "escbench_local_cache_reuse"
TIMING_KEY = "escbench_local_timing_key"
SHA_PREFIX = "sha256:"  # keeps a hex digest a string when Inspect parses --metadata values as YAML


class RunLogError(RuntimeError):
    """A log that cannot be resumed (the message names the log and the reason)."""


@dataclass(frozen=True)
class RunProvenance:
    """The server a logged run used: enough to start it again for a resume."""

    model_sha256: str
    model_file: Path
    alias: str
    parallel: int
    ctx_per_slot: int
    cache_reuse: int
    timing_key: str  # which recorded seconds-per-episode estimates this run (progress.timing_key)

    def metadata_args(self) -> list[str]:
        """``--metadata k=v`` arguments for ``inspect eval`` recording this provenance."""
        pairs = {
            RUNNER_KEY: RUNNER_VALUE,
            MODEL_SHA256_KEY: SHA_PREFIX + self.model_sha256,
            MODEL_FILE_KEY: str(self.model_file),
            ALIAS_KEY: self.alias,
            PARALLEL_KEY: self.parallel,
            CTX_KEY: self.ctx_per_slot,
            CACHE_REUSE_KEY: self.cache_reuse,
            TIMING_KEY: self.timing_key,
        }
        return [arg for key, value in pairs.items() for arg in ("--metadata", f"{key}={value}")]

    @classmethod
    def from_metadata(cls, metadata: dict[str, Any], log: Path) -> RunProvenance:
        if metadata.get(RUNNER_KEY) != RUNNER_VALUE:
            raise RunLogError(
                f"{log} was not written by `escbench local run` (no {RUNNER_KEY} in its eval "
                "metadata); resume it with `escbench local serve` and `inspect eval-retry` yourself"
            )
        try:
            sha = str(metadata[MODEL_SHA256_KEY])
            if not sha.startswith(SHA_PREFIX):
                raise ValueError(f"{MODEL_SHA256_KEY} {sha!r} lacks the {SHA_PREFIX} prefix")
            return cls(
                model_sha256=sha.removeprefix(SHA_PREFIX),
                model_file=Path(str(metadata[MODEL_FILE_KEY])),
                alias=str(metadata[ALIAS_KEY]),
                parallel=int(metadata[PARALLEL_KEY]),
                ctx_per_slot=int(metadata[CTX_KEY]),
                cache_reuse=int(metadata[CACHE_REUSE_KEY]),
                timing_key=str(metadata.get(TIMING_KEY, "")),
            )
        except (KeyError, ValueError) as err:
            raise RunLogError(f"{log}: incomplete escbench local metadata ({err})") from None


@dataclass(frozen=True)
class LogCounts:
    """Samples of one log: finished (no error), errored, planned, and duplicated (id, epoch)."""

    status: str
    finished: int
    errored: int
    planned: int | None
    invalid: int
    duplicates: int

    def kept(self) -> str:
        total = "?" if self.planned is None else str(self.planned)
        return f"{self.finished} of {total} samples"


def is_invalid(scores: dict[str, Any] | None) -> bool:
    """A sample whose decision could not be parsed (escalation scorer: value ``invalid`` = 1)."""
    for score in (scores or {}).values():
        value = getattr(score, "value", None)
        if isinstance(value, dict) and value.get("invalid"):
            return True
    return False


def planned_samples(header: Any) -> int | None:
    """Samples the eval set out to run: its sample ids times its epochs (None if not recorded)."""
    ids = header.eval.dataset.sample_ids
    if ids is None:
        return None
    return len(ids) * int(header.eval.config.epochs or 1)


def log_counts(path: Path) -> LogCounts:
    """Count what a (possibly unfinished) log holds, from its header and sample summaries."""
    from inspect_ai.log import read_eval_log, read_eval_log_sample_summaries

    header = read_eval_log(str(path), header_only=True)
    summaries = read_eval_log_sample_summaries(str(path))
    seen = Counter((s.id, s.epoch) for s in summaries)
    finished = [s for s in summaries if s.error is None]
    return LogCounts(
        status=header.status,
        finished=len(finished),
        errored=len(summaries) - len(finished),
        planned=planned_samples(header),
        invalid=sum(is_invalid(s.scores) for s in finished),
        duplicates=sum(n - 1 for n in seen.values()),
    )


def read_provenance(path: Path) -> RunProvenance:
    """The provenance of a log of ``escbench local run``; RunLogError when it has none."""
    from inspect_ai.log import read_eval_log

    if not path.is_file():
        raise RunLogError(f"{path} does not exist")
    try:
        header = read_eval_log(str(path), header_only=True)
    except Exception as err:  # noqa: BLE001 - any unreadable file gets the same clear message
        raise RunLogError(f"{path} is not a readable Inspect log: {err}") from None
    return RunProvenance.from_metadata(dict(header.eval.metadata or {}), path)
