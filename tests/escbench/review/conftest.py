"""Shared fixtures of the review tests: one catalog (all episodes, the first CSS case's tuples)."""

from __future__ import annotations

from pathlib import Path

import pytest

from escbench_inspect.review.items import Catalog

CSS_CASES = 1


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog(css_cases=CSS_CASES)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "review.sqlite3"
