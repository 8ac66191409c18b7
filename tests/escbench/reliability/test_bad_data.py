"""Bad data files fail loading, before any model call, with an error naming file, entry and field.

Every case mutates a copy (``tmp_path``) of a real packaged file: seed scenarios, the action space,
the CSS catalog and the detector lexicon.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval

from escbench_inspect.datasets.assembly import (
    ACTION_SPACE_FILE,
    load_action_space,
    load_seed,
    load_seeds,
)
from escbench_inspect.datasets.errors import DataFileError

SEED = "tri_ankle_inversion_injury"
Mutation = Callable[[Any], None]


def _mutate(path: Path, mutation: Mutation) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    mutation(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _assert_names(error: DataFileError, path: Path, entry: str | None, *fragments: str) -> None:
    message = str(error)
    assert error.path == path and str(path) in message
    if entry is not None:
        assert error.entry == entry and f"entry '{entry}'" in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


# --------------------------------------------------------------------------------------------
# Seed scenarios
# --------------------------------------------------------------------------------------------

SEED_CASES: dict[str, tuple[Mutation, str]] = {
    "missing_field": (lambda d: d.pop("title"), "field 'title': Field required"),
    "wrong_type": (
        lambda d: d["reference"]["clean"].update(acceptable=5),
        "field 'reference.clean.acceptable'",
    ),
    "wrong_type_surface": (lambda d: d["surfaces"].update(a=["not", "a", "mapping"]), "field 'surfaces.a'"),
    "unknown_action": (
        lambda d: d["reference"]["missing"].update(acceptable=["Escalat"]),
        "field 'reference.missing.acceptable.0'",
    ),
    "escalate_paired": (
        lambda d: d["reference"]["clean"].update(acceptable=["Escalate", "Answer"]),
        "field 'reference.clean'",
    ),
    "hook_nonexistent_block": (
        lambda d: d["hooks"]["missing"].update(block="history"),
        "field 'hooks.missing.block'",
    ),
    "conflict_hook_on_late_message": (
        lambda d: d["hooks"]["conflict"].update(block="late_message"),
        "field 'hooks.conflict.block'",
    ),
    "hook_text_not_in_block": (
        lambda d: d["hooks"]["missing"].update(remove="no such sentence"),
        "hooks.missing.remove must occur exactly once",
    ),
    "undefined_placeholder": (
        lambda d: d["blocks"].update(request=d["blocks"]["request"] + " {ghost}"),
        "does not define ['ghost']",
    ),
    "misspelled_key": (lambda d: d.update(titel=d["title"]), "field 'titel': Extra inputs"),
}


@pytest.mark.parametrize("case", SEED_CASES)
def test_bad_seed_names_file_entry_and_field(seed_copy: Path, case: str) -> None:
    mutation, fragment = SEED_CASES[case]
    path = seed_copy / f"{SEED}.yaml"
    _mutate(path, mutation)
    with pytest.raises(DataFileError) as caught:
        load_seed(path)
    _assert_names(caught.value, path, SEED, fragment)


def test_one_bad_seed_fails_the_whole_corpus(seed_copy: Path) -> None:
    """All-or-nothing: ``load_seeds`` returns every seed or raises; never a partial corpus."""
    path = seed_copy / f"{SEED}.yaml"
    _mutate(path, lambda d: d.pop("title"))
    with pytest.raises(DataFileError) as caught:
        load_seeds(seed_copy)
    _assert_names(caught.value, path, SEED, "field 'title'")


def test_duplicate_seed_id_is_rejected(seed_copy: Path, tmp_path: Path) -> None:
    """A second file carrying an existing id cannot load: the id must equal the file stem."""
    folder = tmp_path / "two"
    folder.mkdir()
    shutil.copy(seed_copy / f"{SEED}.yaml", folder / f"{SEED}.yaml")
    duplicate = folder / "tri_zz_copy.yaml"
    shutil.copy(seed_copy / f"{SEED}.yaml", duplicate)
    with pytest.raises(DataFileError) as caught:
        load_seeds(folder)
    _assert_names(caught.value, duplicate, SEED, "field 'id'", "file name stem")


def test_duplicate_key_in_seed_file_is_rejected(seed_copy: Path) -> None:
    path = seed_copy / f"{SEED}.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("specialty:", "title: A second title\nspecialty:", 1), encoding="utf-8")
    with pytest.raises(DataFileError, match="title"):
        load_seed(path)


def test_non_utf8_seed_file_is_a_data_file_error(seed_copy: Path) -> None:
    path = seed_copy / f"{SEED}.yaml"
    path.write_bytes(b"\xff\xfeid: " + SEED.encode())
    with pytest.raises(DataFileError):
        load_seed(path)


def test_duplicate_seeds_through_the_python_api_are_rejected() -> None:
    from escbench_inspect.datasets.assembly import default_seeds
    from escbench_inspect.tasks import escalation_task

    seed = default_seeds()[0]
    with pytest.raises((DataFileError, ValueError), match=seed.id):
        escalation_task(seeds=[seed, seed])


@pytest.mark.parametrize("content", ["", "- just\n- a list\n", "id: [unclosed\n", "42\n"])
def test_empty_or_non_mapping_seed_file(seed_copy: Path, content: str) -> None:
    path = seed_copy / f"{SEED}.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        load_seed(path)
    assert caught.value.path == path


def test_bad_seed_fails_the_run_before_any_model_call(
    faults, packaged_seed_dir: Path, tmp_path: Path
) -> None:
    """``inspect eval escbench/triage`` on a broken corpus: no model call, no log, nothing cached."""
    from escbench_inspect.datasets.assembly import default_seeds

    path = packaged_seed_dir / f"{SEED}.yaml"
    _mutate(path, lambda d: d["hooks"]["missing"].update(block="history"))
    log_dir = tmp_path / "logs"
    with pytest.raises(DataFileError) as caught:
        eval("escbench/triage", model=faults.MODEL, log_dir=str(log_dir), display="none")
    _assert_names(caught.value, path, SEED, "field 'hooks.missing.block'")
    assert sum(faults.CALLS.values()) == 0
    assert not log_dir.exists() or not any(log_dir.iterdir())
    assert default_seeds.cache_info().currsize == 0  # the failure was not cached as a corpus


# --------------------------------------------------------------------------------------------
# Action space
# --------------------------------------------------------------------------------------------

ACTION_CASES: dict[str, tuple[Mutation, str, str | None]] = {
    "missing_class": (lambda d: d.pop("triage"), "field 'triage'", None),
    "unknown_action": (
        lambda d: d["triage"].update(Escalat=d["triage"].pop("Escalate")),
        "field 'triage': must define exactly",
        None,
    ),
    "wrong_type": (lambda d: d["evidence"].update(Answer=["a", "list"]), "field 'definition'", "evidence"),
}


@pytest.mark.parametrize("case", ACTION_CASES)
def test_bad_action_space_names_file_entry_and_field(tmp_path: Path, case: str) -> None:
    mutation, fragment, entry = ACTION_CASES[case]
    path = tmp_path / "action_space.yaml"
    shutil.copy(ACTION_SPACE_FILE, path)
    _mutate(path, mutation)
    with pytest.raises(DataFileError) as caught:
        load_action_space(path)
    _assert_names(caught.value, path, entry, fragment)


# --------------------------------------------------------------------------------------------
# CSS catalog
# --------------------------------------------------------------------------------------------


@pytest.fixture
def css_copy(tmp_path: Path) -> Path:
    data = pytest.importorskip("escbench_inspect.css.data")
    target = tmp_path / "css"
    shutil.copytree(data.DATA_DIR, target)
    return target


def _first(d: Any) -> dict:
    return d["interventions"][0]


CATALOG_CASES: dict[str, tuple[Mutation, str]] = {
    "missing_field": (lambda d: _first(d).pop("title"), "field 'title': Field required"),
    "wrong_type": (lambda d: _first(d).update(family=7), "field 'family'"),
    "unknown_operation": (lambda d: _first(d)["change"].update(op="flip_everything"), "field 'change.op'"),
    "target_nonexistent_biomarker": (
        lambda d: _first(d)["change"]["targets"].update(breast="her9"),
        "field 'change",
    ),
    "unknown_fact_in_rule": (
        lambda d: _first(d).update(applies_if={"no_such_fact": 1}),
        "field 'applies_if'",
    ),
}


@pytest.mark.parametrize("case", CATALOG_CASES)
def test_bad_catalog_names_file_entry_and_field(css_copy: Path, case: str) -> None:
    from escbench_inspect.css.data import load_data

    mutation, fragment = CATALOG_CASES[case]
    path = css_copy / "catalog.yaml"
    entry = yaml.safe_load(path.read_text(encoding="utf-8"))["interventions"][0]["id"]
    _mutate(path, mutation)
    with pytest.raises(DataFileError) as caught:
        load_data(css_copy)
    _assert_names(caught.value, path, entry, fragment)


def test_duplicate_catalog_id_is_rejected(css_copy: Path) -> None:
    from escbench_inspect.css.data import load_data

    path = css_copy / "catalog.yaml"
    ids: list[str] = []

    def duplicate(d: Any) -> None:
        ids.append(d["interventions"][0]["id"])
        d["interventions"][1]["id"] = ids[0]

    _mutate(path, duplicate)
    with pytest.raises(DataFileError) as caught:
        load_data(css_copy)
    # The catalog-level check names the id in the message rather than as the entry.
    _assert_names(caught.value, path, None, "duplicate intervention ids", ids[0])


# --------------------------------------------------------------------------------------------
# Detector lexicon
# --------------------------------------------------------------------------------------------


@pytest.fixture
def lexicon_copy(tmp_path: Path) -> Path:
    detectors = pytest.importorskip("escbench_inspect.controller.detectors")
    # modifiers.yaml and one detector file: enough for every case, and fast to compile.
    target = tmp_path / "lexicon"
    target.mkdir()
    for name in ("modifiers.yaml", "high_risk.yaml"):
        shutil.copy(detectors.LEXICON_DIR / name, target / name)
    return target


def _concept(d: Any, index: int = 0) -> dict:
    return d["concepts"][index]


LEXICON_CASES: dict[str, tuple[Mutation, str, bool]] = {
    # (mutation, fragment, whether the error names the concept as its entry)
    "missing_field": (lambda d: _concept(d).pop("source"), "field 'source': Field required", True),
    "wrong_type": (lambda d: _concept(d).update(terms=5), "field 'terms'", True),
    "unknown_detector": (lambda d: d.update(detector="danger"), "field 'detector'", False),
    "duplicate_id": (lambda d: _concept(d, 1).update(id=_concept(d)["id"]), "duplicate concept id", True),
    "term_does_not_compile": (lambda d: _concept(d)["terms"].append("(((("), "field 'terms'", True),
}


@pytest.mark.parametrize("case", LEXICON_CASES)
def test_bad_lexicon_names_file_entry_and_field(lexicon_copy: Path, case: str) -> None:
    from escbench_inspect.controller.detectors import load_lexicon

    mutation, fragment, names_entry = LEXICON_CASES[case]
    path = lexicon_copy / "high_risk.yaml"
    entry = yaml.safe_load(path.read_text(encoding="utf-8"))["concepts"][0]["id"]
    _mutate(path, mutation)
    with pytest.raises(DataFileError) as caught:
        load_lexicon(lexicon_copy)
    _assert_names(caught.value, path, entry if names_entry else None, fragment)


def test_lexicon_context_term_that_does_not_compile(lexicon_copy: Path) -> None:
    from escbench_inspect.controller.detectors import load_lexicon

    path = lexicon_copy / "high_risk.yaml"
    _mutate(path, lambda d: _concept(d).update(requires_context=["(((("]))
    with pytest.raises(DataFileError, match="requires_context"):
        load_lexicon(lexicon_copy)


def test_validate_command_reports_every_bad_file(seed_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``escbench validate`` lists each problem (file, entry, field) instead of stopping early."""
    import argparse

    from escbench_inspect.datasets import validate

    first = seed_copy / f"{SEED}.yaml"
    second = sorted(p for p in seed_copy.glob("*.yaml") if p != first)[0]
    _mutate(first, lambda d: d.pop("title"))
    _mutate(second, lambda d: d["hooks"]["missing"].update(block="history"))
    assert validate.run(argparse.Namespace(seeds=seed_copy)) == 1
    err = capsys.readouterr().err
    assert f"{first} (entry '{SEED}'): field 'title'" in err
    assert f"{second} (entry '{second.stem}'): field 'hooks.missing.block'" in err
