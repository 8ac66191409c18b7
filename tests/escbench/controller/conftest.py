"""Fixtures shared by the controller tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from escbench_inspect.controller.detectors import LEXICON_DIR, Lexicon, default_lexicon, load_lexicon


@pytest.fixture
def fresh_memo() -> Iterator[None]:
    """The lexicon memoises each clause's mentions: a mechanism taken out must not be read from it."""
    default_lexicon().memo.clear()
    yield
    default_lexicon().memo.clear()


@pytest.fixture
def lexicon_without(tmp_path: Path) -> Callable[[str, str, str], Lexicon]:
    """A copy of the packaged lexicon with one text of one file replaced (it must occur exactly once):
    the planted defect of a lexicon entry."""

    def build(file: str, old: str, new: str) -> Lexicon:
        copy = tmp_path / "lexicon"
        shutil.copytree(LEXICON_DIR, copy)
        path = copy / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        path.write_text(text.replace(old, new), encoding="utf-8")
        return load_lexicon(copy)

    return build
