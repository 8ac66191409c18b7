"""Fixtures for the local-model tests: a fake llama-server binary and a tiny GGUF file."""

from __future__ import annotations

import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

FAKE_SERVER = Path(__file__).parent / "fake_llama_server.py"


def gguf_bytes(metadata: dict[str, object], version: int = 3, magic: bytes = b"GGUF") -> bytes:
    """A GGUF header (no tensors) with str, int (uint32), list[str] and list[float] metadata."""

    def string(s: str) -> bytes:
        data = s.encode()
        return struct.pack("<Q", len(data)) + data

    out = magic + struct.pack("<IQQ", version, 0, len(metadata))
    for key, value in metadata.items():
        out += string(key)
        if isinstance(value, int):
            out += struct.pack("<II", 4, value)
        elif isinstance(value, str):
            out += struct.pack("<I", 8) + string(value)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            out += struct.pack("<IIQ", 9, 8, len(value)) + b"".join(string(v) for v in value)
        elif isinstance(value, list):
            out += struct.pack("<IIQ", 9, 6, len(value))
            out += b"".join(struct.pack("<f", v) for v in value)
        else:
            raise TypeError(value)
    return out


@pytest.fixture
def fake_server_bin(tmp_path: Path) -> Path:
    """An executable that behaves like llama-server (see fake_llama_server.py)."""
    path = tmp_path / "llama-server"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_SERVER}" "$@"\n')
    path.chmod(0o755)
    return path


@pytest.fixture
def chat_gguf(tmp_path: Path) -> Path:
    path = tmp_path / "Tiny-Chat.gguf"
    path.write_bytes(
        gguf_bytes(
            {
                "general.architecture": "qwen2",
                "general.name": "Qwen2.5 Coder 0.5B Instruct",
                "qwen2.context_length": 32768,
                "tokenizer.chat_template": "{{ messages }}",
                "tokenizer.ggml.tokens": ["a", "b", "<|im_end|>"],
                "tokenizer.ggml.scores": [0.0, -1.0, -2.0],
            }
        )
    )
    return path


def fake_run_args(server_bin: Path, model: Path, limit: int, *options: str) -> list[str]:
    """``escbench local run`` arguments for the fake server: logs in ./logs, no report or display."""
    return ["run", "--server-bin", str(server_bin), "--model-path", str(model), "--limit",
            str(limit), "--log-dir", "logs", "--no-report", *options, "--", "--display", "none"]  # fmt: skip


def wait_for_finished_samples(log_dir: Path, proc: subprocess.Popen, at_least: int, timeout: float) -> Path:
    """The run's log once it holds ``at_least`` finished samples (fails if the run ends first)."""
    from escbench_inspect.local.runlog import log_counts

    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, proc.communicate()[0]
        assert time.monotonic() < deadline, f"fewer than {at_least} samples were flushed"
        logs = list(log_dir.glob("*.eval"))
        try:
            if logs and log_counts(logs[0]).finished >= at_least:
                return logs[0]
        except Exception:  # noqa: BLE001 - the log is mid-write
            pass
        time.sleep(0.2)
