"""Run ``inspect eval`` against a running local server, find the logs, write the report."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from escbench_inspect.local.server import LlamaServer

# Bounded retries and a per-request timeout: a provider that rejects the request (e.g. an HTTP 500
# on response_schema) fails the sample after at most 1 + MAX_RETRIES attempts, and the eval stops
# on the first sample error (Inspect's default fail_on_error), instead of retrying for ever.
DEFAULT_MAX_RETRIES = 2
DEFAULT_TIMEOUT_S = 300
REPORT_MODULE = "escbench_inspect.analysis.report"
LOG_SUFFIXES = (".eval", ".json")


def inspect_executable() -> list[str]:
    """The ``inspect`` CLI of this environment (falls back to ``python -m inspect_ai``)."""
    local = Path(sys.executable).parent / "inspect"
    if local.exists():
        return [str(local)]
    found = shutil.which("inspect")
    return [found] if found else [sys.executable, "-m", "inspect_ai"]


def inspect_command(
    tasks: Sequence[str],
    alias: str,
    log_dir: Path,
    limit: int | None,
    max_connections: int,
    max_retries: int = DEFAULT_MAX_RETRIES,
    timeout: int = DEFAULT_TIMEOUT_S,
    extra: Sequence[str] = (),
) -> list[str]:
    """``inspect eval`` on the local server (``limit=None``: every sample)."""
    cmd = [
        *inspect_executable(),
        "eval",
        *tasks,
        "--model",
        f"openai-api/llamacpp/{alias}",
        "--max-connections",
        str(max_connections),
        "--max-retries",
        str(max_retries),
        "--timeout",
        str(timeout),
        "--log-dir",
        str(log_dir),
    ]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    return cmd + list(extra)


def list_logs(log_dir: Path) -> set[Path]:
    if not log_dir.is_dir():
        return set()
    return {p for p in log_dir.iterdir() if p.suffix in LOG_SUFFIXES and p.is_file()}


def run_inspect(cmd: Sequence[str], server: LlamaServer, grace_s: float = 30.0) -> int:
    """Run inspect in the foreground; on Ctrl-C let it write its (cancelled) log, then stop it."""
    env = {**os.environ, **server.env()}
    process = subprocess.Popen(list(cmd), env=env)
    try:
        return process.wait()
    except BaseException as err:
        # A terminal Ctrl-C reached inspect too (same process group). Anything else (SIGTERM or
        # SIGHUP turned into SystemExit) did not: interrupt inspect so it writes a cancelled log.
        if not isinstance(err, KeyboardInterrupt):
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        raise


def report_available() -> bool:
    try:
        return importlib.util.find_spec(REPORT_MODULE) is not None
    except ModuleNotFoundError:
        return False


def run_report(logs: Sequence[Path], out_dir: Path) -> int | None:
    """``escbench report LOG… --out DIR`` in-process; None when the report module is absent."""
    if not report_available():
        return None
    module = importlib.import_module(REPORT_MODULE)
    parser = argparse.ArgumentParser(prog="escbench report")
    module.add_arguments(parser)
    args = parser.parse_args([*map(str, logs), "--out", str(out_dir)])
    return int(module.run(args) or 0)


def log_status(path: Path) -> tuple[str, str | None]:
    """(status, first line of the error) from a log's header; ``inspect eval`` exits 0 on errors."""
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(path), header_only=True)
    error = log.error.message.strip().splitlines()[0] if log.error and log.error.message else None
    return log.status, error
