"""Shared test set-up: offline tokenizer cache for mockllm, fixture paths."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import pytest

from escbench_inspect.offline import ensure_tiktoken_cache

FIXTURES = Path(__file__).parent / "fixtures"


def css_test_cache_folder(root: Path) -> Path:
    """The CSS corpus cache of the tests of one checkout: never the user's cache, but kept between
    runs (safe: entries are keyed by the content hash of the code and data that built them)."""
    checkout = hashlib.sha256(str(root.resolve()).encode("utf-8")).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"escbench-test-css-cache-{checkout}"


def pytest_configure(config: pytest.Config) -> None:
    # mockllm counts tokens with tiktoken, which would download its vocabulary; CLI runs in
    # subprocesses inherit TIKTOKEN_CACHE_DIR from here.
    ensure_tiktoken_cache()
    # subprocesses (CLI tests) inherit this too; tests of the cache itself use their own tmp folders
    os.environ["ESCBENCH_CSS_CACHE"] = str(css_test_cache_folder(Path(config.rootpath)))


@pytest.fixture
def fixture_seeds_dir() -> Path:
    return FIXTURES / "seeds"
