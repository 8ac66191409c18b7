"""Shared test set-up: offline tokenizer cache for mockllm, fixture paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from escbench_inspect.offline import ensure_tiktoken_cache

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    # mockllm counts tokens with tiktoken, which would download its vocabulary; CLI runs in
    # subprocesses inherit TIKTOKEN_CACHE_DIR from here.
    ensure_tiktoken_cache()


@pytest.fixture
def fixture_seeds_dir() -> Path:
    return FIXTURES / "seeds"
