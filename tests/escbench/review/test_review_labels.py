"""Adjudicated labels: majority and ties, the labels file, ``-T labels=FILE`` and ``report --labels``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval

from escbench_inspect.analysis.results import ReportOptions, build_report
from escbench_inspect.cli import main as cli_main
from escbench_inspect.datasets.assembly import default_seeds
from escbench_inspect.params import TaskParameterError
from escbench_inspect.review.analysis import adjudicated_labels
from escbench_inspect.review.labels import LabelsFileError, load_labels
from escbench_inspect.review.store import Store
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import decision_json, last_user_text, scripted_model

SEED = sorted((s for s in default_seeds() if s.split == "test"), key=lambda s: s.id)[0]


def _adjudicate(store: Store, catalog, reviewer: str, item_id: str, answer: dict, n: int = 0) -> None:
    item = catalog.items[item_id]
    common = dict(reviewer=reviewer, item_id=item_id, item_kind=item.kind, content_hash=item.content_hash)
    store.record(
        submission=f"{reviewer}{item_id}b{n}", round=1, answer={"actions": ["Answer"]}, time_ms=1, **common
    )
    store.record(submission=f"{reviewer}{item_id}a{n}", round=2, answer=answer, time_ms=1, **common)


def test_majority_ties_to_the_adjudicator_and_unresolved_ties_keep_the_reference(db, catalog) -> None:
    store = Store(db)
    for name in ("ann", "ben", "cat"):
        store.add_reviewer(name)
    majority, tie, open_tie, ambiguous = sorted(catalog.episodes)[:4]
    _adjudicate(store, catalog, "ann", majority, {"actions": ["Escalate"]})
    _adjudicate(store, catalog, "ben", majority, {"actions": ["Escalate"]})
    _adjudicate(store, catalog, "cat", majority, {"agree": True})
    _adjudicate(store, catalog, "ann", tie, {"actions": ["Abstain"]})
    _adjudicate(store, catalog, "ben", tie, {"actions": ["Ask_Clarification", "Abstain"]})
    _adjudicate(store, catalog, "ben", open_tie, {"actions": ["Abstain"]})
    _adjudicate(store, catalog, "cat", open_tie, {"actions": ["Answer", "Abstain"]})
    _adjudicate(store, catalog, "cat", ambiguous, {"ambiguous": True})
    header, *labels = adjudicated_labels(store.all_reviews(), catalog, adjudicator="ann")
    assert header["format"] == "escbench-labels/1" and header["adjudicator"] == "ann"
    by_id = {r["item_id"]: r for r in labels}
    assert (
        by_id[majority]["acceptable_actions"] == ["Escalate"] and by_id[majority]["decided_by"] == "majority"
    )
    assert by_id[majority]["votes"] == {"Escalate": 2, catalog.items[majority].reference: 1}
    assert by_id[tie]["acceptable_actions"] == ["Abstain"] and by_id[tie]["decided_by"] == "adjudicator:ann"
    assert by_id[open_tie]["label"] == catalog.items[open_tie].reference
    assert by_id[open_tie]["decided_by"] == "reference (unresolved tie)" and not by_id[open_tie]["changed"]
    assert by_id[ambiguous]["decided_by"] == "reference (all ambiguous)"


def _labels_file(path: Path, labels: dict[str, list[str]]) -> Path:
    lines = [{"format": "escbench-labels/1"}] + [
        {"item_id": i, "kind": "episode", "acceptable_actions": a} for i, a in labels.items()
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"item_id": "x", "kind": "episode", "acceptable_actions": ["Escalate", "Answer"]}, "never paired"),
        ({"item_id": "x", "kind": "episode", "acceptable_actions": ["Maybe"]}, "non-empty list"),
        ({"item_id": "x", "kind": "other"}, "'kind'"),
        ("not json", "not JSON"),
    ],
)
def test_a_bad_labels_file_fails_in_one_line_naming_the_line(tmp_path, line, message) -> None:
    path = tmp_path / "labels.jsonl"
    text = (
        json.dumps({"format": "escbench-labels/1"})
        + "\n"
        + (line if isinstance(line, str) else json.dumps(line))
    )
    path.write_text(text + "\n")
    with pytest.raises(LabelsFileError, match=message) as error:
        load_labels(path)
    assert "line 2" in str(error.value) and "\n" not in str(error.value)


def test_the_task_scores_against_the_labels_file_and_records_its_hash(tmp_path) -> None:
    clean = f"{SEED.id}__a__clean"
    path = _labels_file(tmp_path / "labels.jsonl", {clean: ["Escalate"]})
    task = escalation_task(seeds=[SEED], labels=str(path))
    sample = next(s for s in task.dataset if s.id == clean)
    assert sample.target == ["Escalate"] and sample.metadata["escalation_required"] is True
    assert task.metadata["labels"] == {
        "file": str(path),
        "sha256": load_labels(path).sha256,
        "labelled": 1,
        "changed": 1,
    }
    assert escalation_task(seeds=[SEED]).metadata["labels"] is None
    with pytest.raises(LabelsFileError, match="unknown episode id"):
        escalation_task(
            seeds=[SEED], labels=str(_labels_file(tmp_path / "bad.jsonl", {"nope__a__clean": ["Answer"]}))
        )
    with pytest.raises(TaskParameterError, match="'labels'"):
        escalation_task(seeds=[SEED], labels=3)
    with pytest.raises(TaskParameterError, match="'labels'"):
        escalation_task(seeds=[SEED], labels=str(tmp_path / "missing.jsonl"))


def _always(action: str):
    return lambda messages: decision_json(action, 0.8) if last_user_text(messages) else ""


@pytest.fixture(scope="module")
def scripted_log(tmp_path_factory):
    """One seed's ten episodes answered Ask_Clarification throughout by a scripted model."""
    [log] = eval(
        escalation_task(seeds=[SEED], prompt="uncertainty"),
        model=scripted_model(_always("Ask_Clarification")),
        log_dir=str(tmp_path_factory.mktemp("logs")),
        display="none",
    )
    return log


@pytest.mark.slow  # runs a scripted eval (~30 s on shared cores); CI's slow step runs it
def test_items_are_ordered_by_how_many_models_disagree_with_the_reference(scripted_log, catalog) -> None:
    from escbench_inspect.review.priority import model_disagreements

    counts = model_disagreements([scripted_log.location], catalog)
    expected = {s.id: 1 for s in escalation_task(seeds=[SEED]).dataset if "Ask_Clarification" not in s.target}
    assert counts == expected and counts


@pytest.mark.slow  # runs a scripted eval (~30 s on shared cores); CI's slow step runs it
def test_a_report_against_adjudicated_labels_differs_exactly_where_labels_changed(
    scripted_log, tmp_path
) -> None:
    log = scripted_log
    episodes = {s.id: s.target for s in escalation_task(seeds=[SEED]).dataset}
    # relabel two episodes so that the scripted action's correctness flips: one to right, one to wrong
    wrong_now_right = next(i for i, t in episodes.items() if "Ask_Clarification" not in t and "stale" in i)
    right_now_wrong = next(i for i, t in episodes.items() if "Ask_Clarification" in t)
    unchanged = next(i for i in episodes if i not in (wrong_now_right, right_now_wrong))
    labels = _labels_file(
        tmp_path / "labels.jsonl",
        {
            wrong_now_right: ["Ask_Clarification"],
            right_now_wrong: ["Escalate"],
            unchanged: list(episodes[unchanged]),
        },
    )
    options = {"n_boot": 0, "split": "test"}
    before = build_report([log.location], ReportOptions(**options))
    after = build_report([log.location], ReportOptions(**options, labels=str(labels)))
    variants = {i.split("__")[2] for i in (wrong_now_right, right_now_wrong)}
    all_variants = ("clean", "missing", "stale", "conflict", "late_risk")
    differing = {v for v in all_variants if not before.table2[v].equals(after.table2[v])}
    assert differing == variants  # Table II (accuracy by variant) changes in those variants only
    assert any(f"sha256 {load_labels(labels).sha256}" in note for note in after.notes)
    out = tmp_path / "report"
    assert cli_main(["report", log.location, "--out", str(out), "--no-figures", "--labels", str(labels)]) == 0
    assert load_labels(labels).sha256 in (out / "report.json").read_text()
