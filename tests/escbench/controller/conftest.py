"""Fixtures shared by the controller tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from escbench_inspect.controller.detectors import default_lexicon


@pytest.fixture
def fresh_memo() -> Iterator[None]:
    """The lexicon memoises each clause's mentions: a mechanism taken out must not be read from it."""
    default_lexicon().memo.clear()
    yield
    default_lexicon().memo.clear()
