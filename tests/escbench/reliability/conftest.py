"""Fixtures of the reliability suite: the fault-injecting provider and copies of real data files."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import escfault_provider
import pytest

from escbench_inspect.datasets import assembly


@pytest.fixture
def faults() -> Iterator[ModuleType]:
    """The ``escfault`` provider module with an empty plan; reset after the test."""
    escfault_provider.reset()
    yield escfault_provider
    escfault_provider.reset()


@pytest.fixture
def seed_copy(tmp_path: Path) -> Path:
    """A writable copy of the packaged seed corpus."""
    target = tmp_path / "seeds"
    shutil.copytree(assembly.SEED_DIR, target)
    return target


@pytest.fixture
def packaged_seed_dir(monkeypatch: pytest.MonkeyPatch, seed_copy: Path) -> Iterator[Path]:
    """Point the packaged corpus (``default_seeds``) at a writable copy, caches cleared around it."""
    monkeypatch.setattr(assembly, "SEED_DIR", seed_copy)
    assembly.default_seeds.cache_clear()
    yield seed_copy
    assembly.default_seeds.cache_clear()
