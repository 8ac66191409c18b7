"""The reference-policy manual's label inventory is regenerated from the data and must match."""

from __future__ import annotations

from pathlib import Path

from escbench_inspect.datasets.inventory import embedded_inventory, inventory_markdown

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
MANUAL = ROOT / "docs" / "reference_policy.md"


def test_manual_inventory_matches_the_seed_files() -> None:
    embedded = embedded_inventory(MANUAL.read_text(encoding="utf-8"))
    assert embedded == inventory_markdown(), (
        "docs/reference_policy.md is out of date: run "
        "python -m escbench_inspect.datasets.inventory --write docs/reference_policy.md"
    )
