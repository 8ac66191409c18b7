"""The paraphrase benchmark: frozen content, schema, and the detectors' floor on it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from escbench_inspect.controller.quality import (
    FAMILIES,
    PARAPHRASE_FILE,
    load_paraphrase_set,
)
from escbench_inspect.datasets.errors import DataFileError

# Frozen when the set was written, BEFORE the issue-15 lexicon work began. Changing the set means
# changing this hash in the same commit, with the reason in the commit message.
PARAPHRASE_SHA256 = "ffaeae1f892c118caeeef370c9126e14ab43fdd75c22f85507e54a60da750dba"


def test_paraphrase_set_is_frozen() -> None:
    assert hashlib.sha256(PARAPHRASE_FILE.read_bytes()).hexdigest() == PARAPHRASE_SHA256


def test_paraphrase_set_covers_every_family() -> None:
    bench = load_paraphrase_set()
    assert len(bench.items) >= 150
    for detector, families in FAMILIES.items():
        present = {i.family for i in bench.items if i.detector == detector}
        controls = {c.family for c in bench.controls if c.detector == detector}
        assert present | controls == set(families), detector
        assert controls, f"{detector} has no controls"


def test_bad_entry_is_named(tmp_path: Path) -> None:
    text = PARAPHRASE_FILE.read_text(encoding="utf-8").replace("family: back_pain", "family: spine", 1)
    path = tmp_path / "bench.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_paraphrase_set(path)
    assert "bench.yaml" in str(info.value) and "spine" in str(info.value)
