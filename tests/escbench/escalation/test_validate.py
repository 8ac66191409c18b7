"""`escbench validate` names the file and the field of every schema error."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from escbench_inspect.cli import main
from escbench_inspect.datasets.assembly import load_seeds
from escbench_inspect.datasets.errors import DataFileError

FIXTURE = Path(__file__).parents[1] / "fixtures" / "seeds" / "msg_levothyroxine_refill.yaml"


def _broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "seeds"
    folder.mkdir()
    target = folder / FIXTURE.name
    text = FIXTURE.read_text(encoding="utf-8")
    assert old in text
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def test_valid_folder_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "seeds"
    folder.mkdir()
    shutil.copy(FIXTURE, folder)
    assert main(["validate", "--seeds", str(folder)]) == 0
    assert "ok: 1 seed files" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        (
            "    acceptable: [Escalate]",
            "    acceptable: [Call_911]",
            "reference.late_risk.acceptable.0",
        ),
        ("split: test", "split: validation", "split"),
        ("  late_risk:\n    text:", "  late_risk:\n    txt:", "hooks.late_risk"),
    ],
)
def test_broken_seed_names_file_and_field(tmp_path: Path, old: str, new: str, field: str) -> None:
    folder = _broken_copy(tmp_path, old, new)
    result = subprocess.run(
        [sys.executable, "-m", "escbench_inspect.cli", "validate", "--seeds", str(folder)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "msg_levothyroxine_refill.yaml" in result.stderr
    assert f"field '{field}" in result.stderr
    with pytest.raises(DataFileError, match="msg_levothyroxine_refill"):
        load_seeds(folder)


def test_hook_text_must_exist_in_its_block(tmp_path: Path) -> None:
    folder = _broken_copy(
        tmp_path, "    block: earlier_record\n    remove:", "    block: request\n    remove:"
    )
    with pytest.raises(DataFileError, match="must occur exactly once in blocks.request"):
        load_seeds(folder)
