"""Running the Inspect CLI in a subprocess, for tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def inspect_eval_cli(*args: str, log_dir: Path, **kwargs) -> subprocess.CompletedProcess:
    """``inspect eval escbench/triage --model mockllm/model ARGS`` in a subprocess."""
    command = [sys.executable, "-m", "inspect_ai", "eval", "escbench/triage"]
    command += ["--model", "mockllm/model", "--log-dir", str(log_dir), "--display", "plain", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
