"""``escbench review`` add-reviewer, export, stats and the Label Studio round trip."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from escbench_inspect.cli import main as cli_main
from escbench_inspect.review.analysis import agreement_stats
from escbench_inspect.review.label_studio import export_tasks, import_annotations
from escbench_inspect.review.store import Store


def test_add_reviewer_prints_a_personal_link_that_logs_in(db, capsys) -> None:
    assert cli_main(["review", "add-reviewer", "dr_lee", "--db", str(db)]) == 0
    link = capsys.readouterr().out.strip()
    assert link.startswith("http://127.0.0.1:8765/login?token=")
    assert Store(db).reviewer_for_token(link.split("token=")[1]).name == "dr_lee"
    assert cli_main(["review", "add-reviewer", "dr_lee", "--db", str(db)]) == 1
    assert "already exists" in capsys.readouterr().out
    assert cli_main(["review", "add-reviewer", "../x", "--db", str(db)]) == 1


def test_label_studio_export_and_import_round_trip(tmp_path, db, catalog, capsys) -> None:
    count, config = export_tasks(catalog, tmp_path / "ls", seed_ids=catalog.seed_ids()[:2])
    tasks = json.loads((tmp_path / "ls" / "episodes.json").read_text())
    assert count == 20 + len(catalog.tuple_ids()) and len(tasks) == 20
    assert ET.parse(config).getroot().find("Choices").get("name") == "actions"  # well-formed XML
    assert ET.parse(tmp_path / "ls" / "tuples.xml").getroot() is not None
    first = tasks[0]["data"]
    assert "<mark>" in "".join(t["data"]["html"] for t in tasks[:10])
    assert catalog.items[first["item_id"]].reference not in json.dumps(tasks[0])  # blinded tasks
    # what Label Studio exports: the task data back with annotations
    annotated = []
    for n, task in enumerate(tasks[:10]):
        annotations = [
            {
                "id": 100 + n,
                "completed_by": {"email": "ann@example.org"},
                "lead_time": 12.5,
                "result": [
                    {"from_name": "actions", "value": {"choices": ["Escalate"]}},
                    {"from_name": "confidence", "value": {"rating": 4}},
                    {"from_name": "comment", "value": {"text": ["<b>check</b>"]}},
                ],
            },
            {
                "id": 200 + n,
                "completed_by": 7,
                "result": [{"from_name": "actions", "value": {"choices": ["Answer"]}}],
            },
        ]
        annotated.append({**task, "annotations": annotations})
    export = tmp_path / "export.json"
    export.write_text(json.dumps(annotated))
    assert cli_main(["review", "import", str(export), "--db", str(db)]) == 0
    assert "imported 20 reviews (0 already present)" in capsys.readouterr().out
    assert import_annotations(Store(db), export) == (0, 20)  # importing again adds nothing
    rows = Store(db).all_reviews()
    assert {r["reviewer"] for r in rows} == {"ls-ann_example.org", "ls-7"}
    assert {r["time_ms"] for r in rows} == {12500, 0} and {r["source"] for r in rows} == {"label-studio"}
    stats = agreement_stats(rows, catalog, n_boot=50)
    assert stats["kinds"]["episode"]["between"]["items_alpha"] == 10
    assert stats["kinds"]["episode"]["between"]["krippendorff_alpha"] < 0  # they always disagree
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"data": {"text": "not ours"}, "annotations": []}]))
    assert cli_main(["review", "import", str(bad), "--db", str(db)]) == 1
    assert "not exported by escbench" in capsys.readouterr().out


def test_export_and_stats_commands(tmp_path, db, catalog, capsys) -> None:
    store = Store(db)
    store.add_reviewer("ann")
    item = catalog.items[catalog.seed_ids()[0] + "__a__clean"]
    common = dict(reviewer="ann", item_id=item.item_id, item_kind=item.kind, content_hash=item.content_hash)
    store.record(submission="s1", round=1, answer={"actions": ["Abstain"]}, time_ms=3, **common)
    store.record(
        submission="s2", round=2, answer={"actions": ["Abstain"], "agree": False}, time_ms=3, **common
    )
    out = tmp_path / "reviews.jsonl"
    assert cli_main(["review", "export", "--db", str(db), "--out", str(out)]) == 0
    assert [json.loads(line)["stale"] for line in out.read_text().splitlines()] == [False, False]
    labels = tmp_path / "labels.jsonl"
    assert cli_main(["review", "export", "--labels", "--db", str(db), "--out", str(labels)]) == 0
    header, record = (json.loads(line) for line in labels.read_text().splitlines())
    assert record["acceptable_actions"] == ["Abstain"] and record["changed"] is True
    assert cli_main(["review", "export", "--labels", "--adjudicator", "nobody", "--db", str(db)]) == 1
    capsys.readouterr()
    assert cli_main(["review", "stats", "--db", str(db), "--bootstrap", "10"]) == 0
    assert "ann: 1 items" in capsys.readouterr().out
    assert cli_main(["review", "stats", "--db", str(tmp_path / "missing.sqlite3")]) == 1


def test_serve_binds_loopback_by_default_and_warns_for_any_other_host(db, monkeypatch, capsys) -> None:
    import uvicorn

    bound: list[str] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **_: bound.append(host))
    assert cli_main(["review", "serve", "--db", str(db), "--css-cases", "0"]) == 0
    assert bound == ["127.0.0.1"] and "warning" not in capsys.readouterr().err
    assert cli_main(["review", "serve", "--db", str(db), "--css-cases", "0", "--host", "0.0.0.0"]) == 0
    assert (
        bound[-1] == "0.0.0.0"
        and "warning: serving on 0.0.0.0, beyond this machine" in capsys.readouterr().err
    )
