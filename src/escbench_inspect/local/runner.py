"""Run ``inspect eval`` against a running local server, find the logs, write the report."""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import importlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

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
    metadata: Sequence[str] = (),
    log_buffer: int | None = None,
) -> list[str]:
    """``inspect eval`` on the local server (``limit=None``: every sample).

    ``metadata``: ``--metadata`` arguments marking the log (``RunProvenance.metadata_args``);
    ``log_buffer``: flush the log every that many samples (unless ``extra`` sets it).
    """
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
        *metadata,
    ]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    return cmd + _log_buffer_args(log_buffer, extra) + list(extra)


def retry_command(log: Path, log_buffer: int | None = None, extra: Sequence[str] = ()) -> list[str]:
    """``inspect eval-retry LOG``: a new log in LOG's folder holding its finished samples and the
    rest run now (model, task arguments and generation config all come from LOG)."""
    cmd = [*inspect_executable(), "eval-retry", str(log), "--log-dir", str(log.parent)]
    return cmd + _log_buffer_args(log_buffer, extra) + list(extra)


def _log_buffer_args(log_buffer: int | None, extra: Sequence[str]) -> list[str]:
    if log_buffer is None or any(a == "--log-buffer" or a.startswith("--log-buffer=") for a in extra):
        return []
    return ["--log-buffer", str(log_buffer)]


def list_logs(log_dir: Path) -> set[Path]:
    if not log_dir.is_dir():
        return set()
    return {p for p in log_dir.iterdir() if p.suffix in LOG_SUFFIXES and p.is_file()}


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
CANCEL_GRACE_S = 30.0
KILL_GRACE_S = 10.0
POLL_S = 1.0
_PR_SET_PDEATHSIG = 1


class Stopped(BaseException):
    """A stop signal arrived while no Inspect child was running (unwinds like KeyboardInterrupt)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@dataclass
class StopState:
    """The first stop signal received and the Inspect child it is forwarded to."""

    signum: int | None = None
    child: subprocess.Popen[bytes] | None = None
    child_shares_terminal: bool = False
    at: float | None = None

    @property
    def exit_code(self) -> int:
        return 128 + (self.signum or 0)

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum else "none"


STOP = StopState()


def in_terminal_foreground() -> bool:
    """This process group is the foreground group of a terminal on stdin/stdout/stderr."""
    for fd in (0, 1, 2):
        try:
            if os.isatty(fd) and os.tcgetpgrp(fd) == os.getpgrp():
                return True
        except OSError:
            continue
    return False


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    first = STOP.signum is None
    if first:
        STOP.signum, STOP.at = signum, time.monotonic()
    child = STOP.child
    if child is None or child.returncode is not None:
        raise Stopped(signum)
    # A terminal's Ctrl-C already reached a child in our (foreground) process group; a second
    # SIGINT would make Inspect abandon writing its log, so it is never sent twice.
    if first and not (signum == signal.SIGINT and STOP.child_shares_terminal):
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGINT)


def install_stop_handlers() -> None:
    """Handle SIGINT, SIGTERM and SIGHUP whatever dispositions the parent left (``cmd &`` ignores
    SIGINT): stop Inspect through SIGINT so it writes a cancelled log. Main thread only."""
    STOP.signum = STOP.at = None
    for sig in STOP_SIGNALS:
        signal.signal(sig, _on_stop_signal)


def _inspect_child_setup(own_group: bool) -> Callable[[], None]:
    def setup() -> None:  # runs in the child between fork and exec
        # An ignored SIGINT survives exec, and Python only turns a *default* SIGINT into
        # KeyboardInterrupt (Inspect's cancel path); SIGTERM/SIGHUP are ignored so that a signal
        # to the whole group or cgroup reaches Inspect only as the SIGINT escbench forwards.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        if own_group:
            os.setpgid(0, 0)
        if sys.platform.startswith("linux"):
            with contextlib.suppress(Exception):  # escbench SIGKILLed: Inspect still cancels
                ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGINT)

    return setup


def run_inspect(
    cmd: Sequence[str],
    server: LlamaServer,
    on_poll: Callable[[], None] | None = None,
    grace_s: float = CANCEL_GRACE_S,
) -> int:
    """Run inspect until it exits; a stop signal (see ``install_stop_handlers``) becomes one SIGINT
    to Inspect, which cancels its samples and writes its log; if it is still running ``grace_s``
    later it gets a second SIGINT, then SIGKILL. Returns Inspect's exit code."""
    shares_terminal = in_terminal_foreground()
    env = {**os.environ, **server.env()}
    process = subprocess.Popen(
        list(cmd), env=env, preexec_fn=_inspect_child_setup(own_group=not shares_terminal)
    )
    STOP.child, STOP.child_shares_terminal = process, shares_terminal
    escalated = 0
    try:
        while True:
            try:
                code: int | None = process.wait(timeout=POLL_S)
            except subprocess.TimeoutExpired:
                code = None
            if on_poll is not None:  # once more after Inspect exits: a log written and finished
                on_poll()  # between two polls (a quick stop) is still reported
            if code is not None:
                return code
            if STOP.at is None:
                continue
            waited = time.monotonic() - STOP.at
            if escalated == 0 and waited > grace_s:
                escalated = 1
                print(
                    f"[escbench local] Inspect still running {grace_s:.0f} s after {STOP.name}: "
                    "interrupting it again",
                    file=sys.stderr,
                    flush=True,
                )
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGINT)
            elif escalated == 1 and waited > grace_s + KILL_GRACE_S:
                escalated = 2
                print(
                    "[escbench local] killing Inspect; its log keeps the samples flushed so far",
                    file=sys.stderr,
                    flush=True,
                )
                process.kill()
    finally:
        if process.returncode is None:  # an exception unwound us: do not leave Inspect behind
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait()
        STOP.child = None


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
