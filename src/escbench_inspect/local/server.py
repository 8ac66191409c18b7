"""Start and stop ``llama-server`` on 127.0.0.1 with no orphaned processes.

The server runs in its own session (process group) so that the whole group can be signalled; it is
stopped by the context manager, by an ``atexit`` hook, on SIGINT/SIGTERM/SIGHUP (turned into
exceptions so ``finally`` blocks run) and, on Linux, by the kernel if this process dies without cleaning up
(``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

HOST = "127.0.0.1"
DEFAULT_CTX_PER_SLOT = 4096
DEFAULT_CACHE_REUSE = 256  # min chunk (tokens) llama-server may reuse from a cached prompt via KV shift
HEALTH_TIMEOUT_S = 180.0
STOP_GRACE_S = 10.0


class ServerError(RuntimeError):
    """llama-server did not start or stopped unexpectedly; the message includes its log tail."""

    def __init__(self, message: str, port_clash: bool = False) -> None:
        super().__init__(message)
        self.port_clash = port_clash


BIND_FAILURE = "couldn't bind HTTP server socket"


def free_port(host: str = HOST) -> int:
    """A TCP port that is free on ``host`` right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_is_free(port: int, host: str = HOST) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


@dataclass
class ServerConfig:
    """How to run llama-server. ``port=None`` picks a free one."""

    binary: Path
    model: Path
    alias: str
    port: int | None = None
    parallel: int = 1
    ctx_per_slot: int = DEFAULT_CTX_PER_SLOT
    threads: int | None = None
    cache_reuse: int = DEFAULT_CACHE_REUSE  # 0 disables KV-shift reuse of cached prompt chunks
    cache_prompt: bool = True  # False: --no-cache-prompt, every request re-evaluates its prompt
    extra_args: Sequence[str] = field(default_factory=tuple)


def default_threads(threads: int | None = None, cpus: int | None = None) -> tuple[int, int]:
    """(generation threads, prompt-batch threads).

    Generation defaults to one core less than the machine has: on 2 shared cores, two spinning
    decode threads measured 2-19 tokens/s (they stall whenever Inspect or anything else runs)
    against a steady 11-15 with one. Prompt batches use every core.
    """
    cpus = cpus or os.cpu_count() or 2
    return (threads or max(1, cpus - 1)), max(cpus, threads or 1)


def server_command(config: ServerConfig, port: int, api_key: str) -> list[str]:
    """The llama-server command line (chat templates via --jinja; API key so only we can use it)."""
    threads, threads_batch = default_threads(config.threads)
    options: list[tuple[str, object]] = [
        ("--model", config.model),
        ("--alias", config.alias),
        ("--host", HOST),
        ("--port", port),
        ("--api-key", api_key),
        ("--parallel", config.parallel),
        ("--ctx-size", config.ctx_per_slot * config.parallel),
        ("--threads", threads),
        ("--threads-batch", threads_batch),
        ("--cache-reuse", config.cache_reuse),
    ]
    flags = ["--jinja", "--no-webui", *([] if config.cache_prompt else ["--no-cache-prompt"])]
    pairs = [str(item) for option in options for item in option]
    return [str(config.binary), *pairs, *flags, *config.extra_args]


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


_LIVE: set[LlamaServer] = set()


@atexit.register
def stop_all() -> None:
    """Stop every server this process started (atexit and signal paths)."""
    for server in list(_LIVE):
        server.stop()


def _raise_exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def install_signal_handlers() -> None:
    """Turn SIGTERM/SIGHUP into SystemExit and SIGINT into KeyboardInterrupt (even when the parent
    left SIGINT ignored, as ``cmd &`` does) so context managers stop the server. Main thread only.
    ``escbench local run`` uses ``runner.install_stop_handlers`` instead (it also stops Inspect)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_exit)


class LlamaServer:
    """A running llama-server; use as a context manager or call start()/stop()."""

    def __init__(self, config: ServerConfig, log_path: Path, port_attempts: int = 3) -> None:
        self.config = config
        self.log_path = log_path
        self.api_key = secrets.token_hex(16)
        self.port: int | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.port_attempts = port_attempts if config.port is None else 1

    @property
    def base_url(self) -> str:
        """OpenAI-compatible base URL (what LLAMACPP_BASE_URL should be)."""
        return f"http://{HOST}:{self.port}/v1"

    def env(self) -> dict[str, str]:
        """Environment for ``inspect eval --model openai-api/llamacpp/<alias>``."""
        return {"LLAMACPP_BASE_URL": self.base_url, "LLAMACPP_API_KEY": self.api_key}

    def log_tail(self, chars: int = 2500) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no server log)"

    def start(self, timeout: float = HEALTH_TIMEOUT_S) -> LlamaServer:
        last: ServerError | None = None
        for _ in range(self.port_attempts):
            port = self.config.port or free_port()
            if self.config.port is not None and not port_is_free(port):
                raise ServerError(f"port {port} on {HOST} is in use; pick another with --port")
            try:
                self._launch(port, timeout)
                return self
            except ServerError as err:
                if not err.port_clash:
                    raise
                last = err  # the port was taken between probe and bind: try another
        assert last is not None
        raise last

    def _launch(self, port: int, timeout: float) -> None:
        self.port = port
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        cmd = server_command(self.config, port, self.api_key)
        with self.log_path.open("ab") as log:
            log.write(f"$ {' '.join(cmd).replace(self.api_key, '***')}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        _LIVE.add(self)
        try:
            self._wait_healthy(timeout)
        except BaseException:
            self.stop()
            raise

    def _wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        url = f"http://{HOST}:{self.port}/health"
        while time.monotonic() < deadline:
            assert self.process is not None
            code = self.process.poll()
            if code is not None:
                tail = self.log_tail()
                raise ServerError(
                    f"llama-server exited with code {code} before it was ready; log {self.log_path}:\n{tail}",
                    port_clash=BIND_FAILURE in tail,
                )
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        return
            except urllib.error.HTTPError:
                pass  # 503 while the model loads
            except (urllib.error.URLError, OSError):
                pass  # not listening yet
            time.sleep(0.25)
        raise ServerError(
            f"llama-server not healthy after {timeout:.0f} s; log {self.log_path}:\n{self.log_tail()}"
        )

    def stop(self) -> None:
        """SIGTERM the server's process group, then SIGKILL after a grace period. Idempotent."""
        process, self.process = self.process, None
        _LIVE.discard(self)
        if process is None or process.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, STOP_GRACE_S), (signal.SIGKILL, 5.0)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
            try:
                process.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue

    def __enter__(self) -> LlamaServer:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __hash__(self) -> int:
        return id(self)
