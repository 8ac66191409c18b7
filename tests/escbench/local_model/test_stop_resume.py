"""Long local runs: stop under any parent, resume with one command, progress lines.

The runs here use the fake llama-server (fake_llama_server.py) with a short delay per answer, and
start ``escbench local run`` with SIGINT ignored, as ``cmd &`` in a non-interactive shell (and
nohup, many CI runners and supervisors) leaves it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import types
from pathlib import Path

import pytest
import yaml

from escbench_inspect.local.progress import (
    REFERENCE_SECONDS_PER_EPISODE,
    ProgressMonitor,
    estimate,
    format_duration,
    record_timing,
    timing_key,
)
from escbench_inspect.local.runlog import (
    RUNNER_KEY,
    LogCounts,
    RunLogError,
    RunProvenance,
    is_invalid,
    log_counts,
)

from .conftest import fake_run_args, wait_for_finished_samples
from .test_local_unit import _wait_dead

needs_openai = pytest.mark.skipif(
    importlib.util.find_spec("openai") is None,
    reason="Inspect's openai-api provider needs the openai package (pip install openai)",
)

EPISODES = 12
PER_ANSWER_S = "0.4"


def _ignore_sigint() -> None:  # what `cmd &` does in a non-interactive shell
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "ESCBENCH_CACHE": str(tmp_path / "cache"),
        "FAKE_SERVER_MODE": "ok",
        "FAKE_SERVER_CHAT_DELAY": PER_ANSWER_S,
        "FAKE_SERVER_REQUEST_LOG": str(tmp_path / "requests.log"),
        "FAKE_SERVER_PIDFILE": str(tmp_path / "server.pid"),
        **extra,
    }


def _local(args: list[str], tmp_path: Path, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "escbench_inspect.cli", "local", *args],
        cwd=tmp_path,
        env=_env(tmp_path, **env),
        preexec_fn=_ignore_sigint,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _run_args(fake_server_bin: Path, chat_gguf: Path) -> list[str]:
    return fake_run_args(fake_server_bin, chat_gguf, EPISODES, "--progress-every", "2")


def _start_and_stop(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, sig: signal.Signals
) -> tuple[subprocess.Popen[str], str, float, Path]:
    """Start a run with SIGINT ignored, send ``sig`` once 2+ samples are in the log; return the
    process, its output, seconds from the signal to its exit, and the log."""
    proc = _local(_run_args(fake_server_bin, chat_gguf), tmp_path)
    log = wait_for_finished_samples(tmp_path / "logs", proc, 2, timeout=120)
    sent = time.monotonic()
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=60)
    return proc, out, time.monotonic() - sent, log


def _prompt_hash(sample: object) -> str:
    users = [m for m in sample.messages if m.role == "user"]  # type: ignore[attr-defined]
    return hashlib.sha256(json.dumps(users[-1].content).encode()).hexdigest()


@pytest.mark.slow  # ~35 s; SIGTERM and Ctrl-C without the ignored-SIGINT twist run by default
@needs_openai
def test_sigterm_under_ignored_sigint_cancels_then_resume_completes(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path
) -> None:
    from inspect_ai.log import read_eval_log

    proc, out, stop_s, log = _start_and_stop(fake_server_bin, chat_gguf, tmp_path, signal.SIGTERM)
    assert proc.returncode == 143, out
    assert stop_s < 20, f"Inspect took {stop_s:.1f} s to stop"  # not until the next sample ends
    assert _wait_dead(int((tmp_path / "server.pid").read_text().split()[0])), "server outlived run"
    first = read_eval_log(str(log))
    kept = [s for s in first.samples or [] if s.error is None]
    assert first.status == "cancelled" and len(kept) >= 2, out
    assert f"kept {len(kept)} of {EPISODES} samples in logs/{log.name} [cancelled]" in out
    assert f"resume with: escbench local resume logs/{log.name}" in out
    assert f"{EPISODES} episodes to run; estimate" in out  # printed before the samples ran
    assert first.eval.metadata[RUNNER_KEY] == "escbench local run"

    resume = _local(
        [
            "resume",
            f"logs/{log.name}",
            "--server-bin",
            str(fake_server_bin),
            "--no-report",
            "--progress-every",
            "2",
            "--",
            "--display",
            "none",
        ],
        tmp_path,
    )
    out, _ = resume.communicate(timeout=180)
    assert resume.returncode == 0, out
    assert re.search(rf"progress: \d+/{EPISODES} samples, [\d.]+ episodes/min, ETA ", out), out
    assert f"complete: {EPISODES} of {EPISODES} samples, each exactly once" in out
    assert f"{EPISODES - len(kept)} episodes to run; estimate" in out
    (retried,) = set((tmp_path / "logs").glob("*.eval")) - {log}
    final = read_eval_log(str(retried))
    assert final.status == "success"
    ids = [(s.id, s.epoch) for s in final.samples or []]
    assert len(ids) == len(set(ids)) == EPISODES and all(s.error is None for s in final.samples)
    assert {s.id for s in final.samples} == set(first.eval.dataset.sample_ids)
    # none of the finished samples was asked again; every sample was asked
    asked = (tmp_path / "requests.log").read_text().split()
    assert all(asked.count(_prompt_hash(s)) == 1 for s in kept)
    assert {_prompt_hash(s) for s in final.samples} == set(asked)
    assert _wait_dead(int((tmp_path / "server.pid").read_text().split()[0]))


@needs_openai
@pytest.mark.slow
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGHUP, 129)])
def test_sigint_and_sighup_stop_a_background_run(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    proc, out, stop_s, log = _start_and_stop(fake_server_bin, chat_gguf, tmp_path, sig)
    assert proc.returncode == code, out
    assert stop_s < 20 and f"stopped by {sig.name}" in out
    assert log_counts(log).status == "cancelled"
    assert _wait_dead(int((tmp_path / "server.pid").read_text().split()[0]))


def test_signal_while_server_starts_stops_everything(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path
) -> None:
    proc = _local(_run_args(fake_server_bin, chat_gguf), tmp_path, FAKE_SERVER_MODE="hang")
    pidfile = tmp_path / "server.pid"
    deadline = time.monotonic() + 60
    while not pidfile.exists():
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()[0]
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 143, out
    assert "stopped by SIGTERM before Inspect started" in out
    assert _wait_dead(int(pidfile.read_text().split()[0]))


# --- the Inspect child: dispositions, escalation -------------------------------------------------


SUPERVISOR = textwrap.dedent("""
    import signal, sys, types
    from escbench_inspect.local import runner
    runner.CANCEL_GRACE_S, runner.KILL_GRACE_S = 1.0, 1.0
    runner.install_stop_handlers()
    server = types.SimpleNamespace(env=lambda: {})
    code = runner.run_inspect([sys.executable, "-c", sys.argv[1]], server, grace_s=1.0)
    print("exit", code, runner.STOP.exit_code, flush=True)
""")


def _supervise(child: str, tmp_path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, child],
        cwd=tmp_path,
        preexec_fn=_ignore_sigint,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _wait_for(path: Path, proc: subprocess.Popen[str]) -> str:
    deadline = time.monotonic() + 30
    while not path.exists() or not path.read_text().endswith("\n"):
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()[0]
        time.sleep(0.05)
    return path.read_text()


def test_inspect_child_gets_default_sigint_and_own_group(tmp_path: Path) -> None:
    """An inherited SIG_IGN would survive exec and keep Python from raising KeyboardInterrupt."""
    report = tmp_path / "child.txt"
    child = textwrap.dedent(f"""
        import os, signal, sys, time
        dispositions = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]
        ok = dispositions == [signal.default_int_handler, signal.SIG_IGN, signal.SIG_IGN]
        with open({str(report)!r}, "w") as f:
            f.write(f"{{ok}} {{os.getpgrp() == os.getpid()}}\\n")
        try:
            time.sleep(60)
        except KeyboardInterrupt:
            sys.exit(7)
    """)
    proc = _supervise(child, tmp_path)
    assert _wait_for(report, proc) == "True True\n"
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert "exit 7 143" in out  # the SIGTERM reached the child as a KeyboardInterrupt


def test_child_that_ignores_the_interrupt_is_killed(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    child = textwrap.dedent(f"""
        import signal, time
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        open({str(ready)!r}, "w").write("up\\n")
        time.sleep(60)
    """)
    proc = _supervise(child, tmp_path)
    _wait_for(ready, proc)
    start = time.monotonic()
    proc.send_signal(signal.SIGHUP)
    out, _ = proc.communicate(timeout=30)
    assert f"exit {-signal.SIGKILL} 129" in out and "interrupting it again" in out
    assert time.monotonic() - start < 10


@pytest.mark.parametrize(
    ("sig", "shares_terminal", "forwarded"),
    [
        (signal.SIGINT, True, False),
        (signal.SIGINT, False, True),
        (signal.SIGTERM, True, True),
        (signal.SIGHUP, False, True),
    ],
)
def test_stop_signal_reaches_inspect_exactly_once(
    monkeypatch: pytest.MonkeyPatch, sig: signal.Signals, shares_terminal: bool, forwarded: bool
) -> None:
    """A terminal's Ctrl-C already reached a child in the foreground group; a second SIGINT would
    make Inspect stop writing its log. Everything else is forwarded once, as SIGINT."""
    from escbench_inspect.local import runner

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(runner.os, "kill", lambda pid, s: sent.append((pid, s)))
    monkeypatch.setattr(
        runner,
        "STOP",
        runner.StopState(
            child=types.SimpleNamespace(pid=4242, returncode=None),  # type: ignore[arg-type]
            child_shares_terminal=shares_terminal,
        ),
    )
    runner._on_stop_signal(sig, None)
    runner._on_stop_signal(signal.SIGTERM, None)  # a second signal is not forwarded again
    assert sent == ([(4242, signal.SIGINT)] if forwarded else [])
    assert runner.STOP.exit_code == 128 + sig
    runner.STOP.child = None
    with pytest.raises(runner.Stopped):  # no Inspect running: unwind (the server is stopped)
        runner._on_stop_signal(sig, None)


# --- provenance and resume refusals --------------------------------------------------------------


def _provenance(sha: str = "0123456789" * 6 + "abcd") -> RunProvenance:
    return RunProvenance(
        model_sha256=sha,
        model_file=Path("/m/x.gguf"),
        alias="x",
        parallel=1,
        ctx_per_slot=4096,
        cache_reuse=256,
        timing_key="escbench/triage;x;1;prompt",
    )


def test_provenance_survives_inspects_yaml_parsing_of_metadata() -> None:
    provenance = _provenance(sha="1" * 60 + "e5")  # all digits and an exponent: a float in YAML
    args = provenance.metadata_args()
    pairs = dict(value.split("=", 1) for value in args[1::2])
    assert args[0::2] == ["--metadata"] * len(pairs)
    parsed = {key: yaml.safe_load(value) for key, value in pairs.items()}  # as `inspect eval` does
    assert RunProvenance.from_metadata(parsed, Path("log.eval")) == provenance


def test_log_without_runner_marker_is_refused() -> None:
    with pytest.raises(RunLogError, match="not written by `escbench local run`"):
        RunProvenance.from_metadata({"benchmark": "escbench-escalation"}, Path("x.eval"))
    incomplete = {RUNNER_KEY: "escbench local run", "escbench_local_alias": "x"}
    with pytest.raises(RunLogError, match="incomplete"):
        RunProvenance.from_metadata(incomplete, Path("x.eval"))


def test_resume_refuses_foreign_logs_other_models_and_finished_runs(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path
) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import write_eval_log

    (log,) = inspect_eval(
        "escbench/triage", model="mockllm/model", limit=1, log_dir=str(tmp_path / "mock"), display="none"
    )

    def resume(name: str, status: str, provenance: RunProvenance | None) -> str:
        log.status = status  # type: ignore[assignment]
        if provenance is not None:
            values = (a.split("=", 1) for a in provenance.metadata_args()[1::2])
            log.eval.metadata = {k: yaml.safe_load(v) for k, v in values}
        path = tmp_path / f"{name}.eval"
        write_eval_log(log, str(path))
        proc = _local(["resume", str(path), "--server-bin", str(fake_server_bin)], tmp_path)
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 1, out
        return out

    assert "not written by `escbench local run`" in resume("foreign", "cancelled", None)
    other = RunProvenance(
        model_sha256=hashlib.sha256(b"other").hexdigest(),
        model_file=chat_gguf,
        alias="tiny",
        parallel=1,
        ctx_per_slot=4096,
        cache_reuse=256,
        timing_key="k",
    )
    assert "refusing to finish the run on another model" in resume("other", "cancelled", other)
    same = RunProvenance(
        **{**other.__dict__, "model_sha256": hashlib.sha256(chat_gguf.read_bytes()).hexdigest()}
    )
    assert "nothing to resume" in resume("done", "success", same)
    assert not (tmp_path / "server.pid").exists()  # no server was started for any of them


# --- progress and estimates ----------------------------------------------------------------------


def test_estimate_prefers_this_machines_timing(tmp_path: Path) -> None:
    timings = tmp_path / "timings.json"
    key = timing_key(["escbench/triage"], "qwen", 1, agent=False)
    reference = estimate(timings, key)
    assert reference.seconds_per_episode == REFERENCE_SECONDS_PER_EPISODE["prompt"]
    assert "README reference" in reference.line(40) and "3 min 20 s" in reference.line(40)
    assert record_timing(timings, key, 12.0, 4) is None  # too few episodes to trust
    assert record_timing(timings, key, 70.0, 10) is not None
    measured = estimate(timings, key)
    assert measured.seconds_per_episode == 7.0 and "measured on this machine" in measured.line(1)
    record_timing(timings, key, 130.0, 10)  # a slower run: pooled over episodes, not replaced
    assert estimate(timings, key).seconds_per_episode == 10.0
    for _ in range(5):
        record_timing(timings, key, 50.0, 10)
    assert estimate(timings, key).seconds_per_episode == 5.0  # only the last 5 runs count
    assert estimate(timings, timing_key(["escbench/css"], "q", 1, False)).seconds_per_episode == 55
    assert estimate(timings, timing_key(["escbench/triage"], "q", 1, True)).seconds_per_episode == 120
    mixed = estimate(timings, timing_key(["escbench/css", "escbench/triage"], "q", 1, False))
    assert mixed.seconds_per_episode is None and "no estimate" in mixed.line(3)


def test_format_duration() -> None:
    assert format_duration(59.6) == "1 min 00 s"
    assert format_duration(5) == "5 s"
    assert format_duration(2 * 3600 + 61) == "2 h 01 min"


def test_progress_line_counts_only_samples_run_now(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    lines: list[str] = []
    monitor = ProgressMonitor(tmp_path, set(), 10, lines.append, None, baseline=10)
    monkeypatch.setattr(monitor, "started", time.monotonic() - 60)
    line = monitor.progress_line(LogCounts("started", 30, 0, 40, 2, 0))
    assert line.startswith("progress: 30/40 samples, 20.0 episodes/min, ETA 30 s, invalid so far 2")


def test_invalid_is_read_from_the_escalation_scores() -> None:
    from inspect_ai.scorer import Score

    assert is_invalid({"escalation_scorer": Score(value={"invalid": 1.0, "correct": 0.0})})
    assert not is_invalid({"escalation_scorer": Score(value={"invalid": 0.0})})
    assert not is_invalid(None)


@needs_openai
@pytest.mark.slow
def test_terminal_ctrl_c_interrupts_inspect_once(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path
) -> None:
    """In a terminal Inspect stays in escbench's foreground group (its full display needs the
    terminal) and Ctrl-C reaches both: Inspect cancels, escbench stops the server, exit 130."""
    import fcntl
    import pty
    import termios

    master, slave = pty.openpty()

    def own_terminal() -> None:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    args = _run_args(fake_server_bin, chat_gguf)
    args[-1] = "plain"  # --display plain: Inspect's light display on a terminal
    proc = subprocess.Popen(
        [sys.executable, "-m", "escbench_inspect.cli", "local", *args],
        cwd=tmp_path,
        env=_env(tmp_path),
        preexec_fn=own_terminal,
        stdin=slave,
        stdout=slave,
        stderr=slave,
    )
    os.close(slave)
    output = bytearray()
    deadline = time.monotonic() + 120
    while b"Samples:" not in output:  # Inspect's plain display is running samples
        assert time.monotonic() < deadline and proc.poll() is None, output.decode(errors="replace")
        with contextlib.suppress(OSError):
            output += os.read(master, 65536)
    os.write(master, b"\x03")  # Ctrl-C: the terminal sends SIGINT to the foreground group
    while proc.poll() is None:
        with contextlib.suppress(OSError):
            output += os.read(master, 65536)
    os.close(master)
    text = output.decode(errors="replace")
    assert proc.returncode == 130, text
    assert "interrupting it again" not in text and "stopped by SIGINT" in text
    (log,) = (tmp_path / "logs").glob("*.eval")
    assert log_counts(log).status == "cancelled"
    assert _wait_dead(int((tmp_path / "server.pid").read_text().split()[0]))


def test_run_resume_takes_the_task_options_from_the_log(tmp_path: Path) -> None:
    proc = _local(["run", "--resume", "x.eval", "--limit", "5", "--parallel", "2"], tmp_path)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "drop --limit, --parallel" in out
    proc = _local(["run", "--resume", "missing.eval"], tmp_path)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "cannot resume: missing.eval does not exist" in out
