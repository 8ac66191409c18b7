"""Data files: packaged ones validate; broken ones fail naming file, entry and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from escbench_inspect.css.data import DATA_DIR, load_data, packaged_data
from escbench_inspect.datasets.errors import DataFileError


def test_packaged_data_loads() -> None:
    data = packaged_data()
    assert set(data.cancers) == {"breast", "nsclc", "colorectal", "gastroesophageal", "melanoma"}
    assert len(data.catalog.interventions) == 12
    assert {iv.family for iv in data.catalog.interventions} == set("ABCDE")


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def _edit(path: Path, fn) -> None:
    raw = yaml.safe_load(path.read_text())
    fn(raw)
    path.write_text(yaml.safe_dump(raw, sort_keys=False))


def test_bad_regimen_names_file_entry_field(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "regimens.yaml", lambda raw: raw["thp"].update(cycle_days="three weeks"))
    with pytest.raises(DataFileError) as err:
        load_data(root)
    message = str(err.value)
    assert "regimens.yaml" in message and "'thp'" in message and "cycle_days" in message


def test_bad_catalog_state_names_entry(tmp_path: Path) -> None:
    root = _copy(tmp_path)

    def corrupt(raw):
        raw["interventions"][0]["change"]["map"]["her2"] = {"positve": "negative", "negative": "positive"}

    _edit(root / "catalog.yaml", corrupt)
    with pytest.raises(DataFileError) as err:
        load_data(root)
    assert "catalog.yaml" in str(err.value) and "A1_her2_flip" in str(err.value)
    assert "change.map.her2" in str(err.value)


def test_unknown_fact_in_consensus_rule(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "consensus.yaml", lambda raw: raw["rules"][3]["when"].update(hr2="positive"))
    with pytest.raises(DataFileError) as err:
        load_data(root)
    assert "consensus.yaml" in str(err.value) and "field 'when'" in str(err.value)
    assert "hr2" in str(err.value)


def test_profile_with_unknown_state(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(
        root / "cancers.yaml", lambda raw: raw["melanoma"]["profiles"][0]["biomarkers"].update(braf="v600k")
    )
    with pytest.raises(DataFileError) as err:
        load_data(root)
    assert "cancers.yaml" in str(err.value) and "'melanoma'" in str(err.value)
