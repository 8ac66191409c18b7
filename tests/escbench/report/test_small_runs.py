"""Small and mixed inputs: coverage, n/a below two seeds, every unused input listed, CSS-only input,
``escbench css report`` on folders, ``escbench tune`` on mixed models, Fig. 2's labels.

All logs come from scripted mockllm models on the packaged corpus: a ``--limit 10`` run (ten seeds,
interleaved order), a run of one seed's ten episodes, an errored run, a non-escbench run and a
one-case CSS run, and a run of two variants.
"""

from __future__ import annotations

import json
import shutil
from itertools import combinations
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import read_eval_log
from inspect_ai.scorer import match
from inspect_ai.solver import generate

from escbench_inspect.analysis import figures
from escbench_inspect.analysis.results import ReportOptions, build_report, split_corpus
from escbench_inspect.cli import main as cli_main
from escbench_inspect.css.task import css_task
from escbench_inspect.datasets.assembly import default_seeds
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import decision_json, last_user_text, scripted_model

CSS_TITLE = "Causal Sensitivity Score (CSS) vs coverage (CMS)"
ONE_SEED = sorted((s for s in default_seeds() if s.split == "test"), key=lambda s: s.id)[0]


def escalate_on_red_flags(messages) -> str:
    """Escalates when the chart mentions chest pain, else answers: some right, some wrong."""
    text = last_user_text(messages).lower()
    return decision_json("Escalate" if "pain" in text else "Answer", 0.7)


def css_grader(messages) -> str:
    prompt = last_user_text(messages)
    if "Consensus items" in prompt:
        return json.dumps({"items": [], "rationale": "none listed"})
    return json.dumps({"score": 1, "rationale": "updated"})


def _only_log(directory: Path) -> Path:
    (path,) = directory.glob("*.eval")
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One directory per run; returns name -> log file."""
    root = tmp_path_factory.mktemp("small")
    runs = {
        "limit10": (escalation_task(split="test", prompt="uncertainty"), "limit10", 10),
        "one_seed": (escalation_task(split="test", prompt="uncertainty", seeds=[ONE_SEED]), "one_seed", None),
        "two_variants": (
            escalation_task(split="test", prompt="uncertainty", variants="clean,late_risk"),
            "two_variants",
            10,
        ),
    }
    paths: dict[str, Path] = {}
    for name, (task, model, limit) in runs.items():
        eval(
            task,
            model=scripted_model(escalate_on_red_flags, name=model),
            limit=limit,
            log_dir=str(root / name),
            display="none",
        )
        paths[name] = _only_log(root / name)

    def fail(messages) -> str:
        raise RuntimeError("scripted provider outage")

    eval(
        escalation_task(split="test"),
        model=scripted_model(fail, name="broken"),
        limit=2,
        log_dir=str(root / "errored"),
        display="none",
    )
    paths["errored"] = _only_log(root / "errored")
    plain = Task(dataset=[Sample(input="hi", target="x")], solver=generate(), scorer=match(), name="plain")
    eval(
        plain, model=scripted_model(lambda m: "x", name="other"), log_dir=str(root / "plain"), display="none"
    )
    paths["plain"] = _only_log(root / "plain")
    eval(
        css_task(cases="nsclc-001"),
        model=scripted_model(lambda m: "Recommendation: proceed. Rationale: chart.", name="css_model"),
        model_roles={"grader": scripted_model(css_grader, name="grader")},
        limit=2,
        log_dir=str(root / "css"),
        display="none",
    )
    paths["css"] = _only_log(root / "css")
    return paths


def test_fixture_logs_are_what_the_tests_assume(logs: dict[str, Path]) -> None:
    limit10 = read_eval_log(str(logs["limit10"]))
    assert limit10.status == "success" and len(limit10.samples) == 10
    assert len({s.metadata["seed_id"] for s in limit10.samples}) == 10  # interleaved order
    assert read_eval_log(str(logs["one_seed"])).eval.dataset.samples == 10
    errored = read_eval_log(str(logs["errored"]))
    assert errored.status == "error" and all(s.error for s in errored.samples)
    assert read_eval_log(str(logs["css"])).status == "success"


def test_report_on_small_logs_states_coverage_and_na(logs: dict[str, Path], tmp_path: Path) -> None:
    episodes, seeds, classes = split_corpus("test")
    assert cli_main(["report", str(logs["limit10"]), str(logs["one_seed"]), "--out", str(tmp_path)]) == 0
    markdown = (tmp_path / "report.md").read_text()
    limit10 = read_eval_log(str(logs["limit10"]))
    present = sorted({s.metadata["task_class"] for s in limit10.samples})
    assert (
        f"- mockllm/limit10 / uncertainty: 10 of {episodes} test episodes, 10 of {seeds} seeds, "
        f"classes present: {', '.join(present)} ({len(present)} of {len(classes)})"
    ) in markdown
    assert f"- mockllm/one_seed / uncertainty: 10 of {episodes} test episodes, 1 of {seeds} seeds" in markdown
    assert "**Warning: partial coverage.** 2 of 2" in markdown
    assert "intervals and tests are n/a" in markdown

    table1 = markdown.split("## Table I")[1].split("## Table II")[0]
    one_seed_row = next(line for line in table1.splitlines() if line.startswith("| mockllm/one_seed"))
    limit10_row = next(line for line in table1.splitlines() if line.startswith("| mockllm/limit10"))
    assert one_seed_row.count("[n/a]") == 6 and "[0." not in one_seed_row and "[1." not in one_seed_row
    assert "[n/a]" not in limit10_row.split("|", 7)[7].split("|")[3]  # accuracy has a 10-seed CI

    numbers = json.loads((tmp_path / "report.json").read_text())
    significance = [r for r in numbers["significance"] if r["model"] == "mockllm/one_seed"]
    assert len(significance) == 4 and all(r["seeds"] == 1 for r in significance)
    assert all(r["statistic"] is None and r["p_value"] is None and r["p_holm"] is None for r in significance)
    tests = markdown.split("## Significance")[1].split("## Figures")[0]
    rows = [line for line in tests.splitlines() if line.startswith("| mockllm/one_seed")]
    assert len(rows) == 4 and all(row.endswith("| n/a | n/a | n/a | n/a |") for row in rows)
    assert "not tested (n/a: fewer than 2 paired seeds)" in tests
    coverage = {r["model"]: r for r in numbers["coverage"]}
    assert coverage["mockllm/one_seed"]["seeds"] == 1 and coverage["mockllm/limit10"]["partial"]


def test_one_seed_stderr_in_the_log_is_nan_not_zero(logs: dict[str, Path]) -> None:
    log = read_eval_log(str(logs["one_seed"]))
    correct = next(s for s in log.results.scores if s.name == "correct")
    stderr = next(m for name, m in correct.metrics.items() if name.endswith("clustered_stderr"))
    assert stderr.value != stderr.value  # NaN
    limit10 = read_eval_log(str(logs["limit10"]))
    correct = next(s for s in limit10.results.scores if s.name == "correct")
    assert next(m for n, m in correct.metrics.items() if n.endswith("clustered_stderr")).value > 0


def test_every_unused_input_is_listed_with_its_reason(
    logs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    for name in ("limit10", "errored", "plain", "css"):
        shutil.copy(logs[name], inputs / logs[name].name)
    shutil.copy(logs["limit10"], inputs / f"copy-{logs['limit10'].name}")
    (inputs / "notes.txt").write_text("my notes\n")
    out = tmp_path / "out"
    args = ["report", str(inputs), "--out", str(out), "--bootstrap", "50", "--benchmarks", "escalation"]
    assert cli_main(args) == 0
    printed = capsys.readouterr().out
    markdown = (out / "report.md").read_text()
    skipped = markdown.split("## What was skipped and why")[1].split("## Logs used")[0]
    expected = {
        "notes.txt": "not an Inspect log file (.txt)",
        logs["errored"].name: (
            "run did not succeed (status 'error') and holds no scored sample "
            "(RuntimeError('scripted provider outage'))"
        ),
        logs["plain"].name: "not an escbench log (task 'plain')",
        logs["css"].name: "escbench-css log; --benchmarks escalation was asked",
    }
    duplicate = {logs["limit10"].name, f"copy-{logs['limit10'].name}"}
    assert "5 input(s) not used" in skipped
    for name, reason in expected.items():
        assert f"- `{name}`: {reason}" in skipped, name
        assert f"{name}: {reason}" in printed
    duplicate_line = next(line for line in skipped.splitlines() if "(a copy)" in line)
    assert sum(name in duplicate_line for name in duplicate) == 2
    assert "same eval id as" in duplicate_line and "its decisions are read once" in duplicate_line
    assert "Nothing was skipped" not in markdown and CSS_TITLE not in markdown


def test_css_only_input_writes_the_css_section_and_succeeds(
    logs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert cli_main(["report", str(logs["css"]), "--out", str(tmp_path), "--bootstrap", "10"]) == 0
    printed = capsys.readouterr().out
    assert f"with the section(s): {CSS_TITLE}" in printed and "empty report" not in printed
    markdown = (tmp_path / "report.md").read_text()
    assert f"## {CSS_TITLE}" in markdown and "mockllm/css_model" in markdown
    assert "this report holds only the section(s) of the other benchmark log(s): escbench-css" in markdown
    assert "Every input was used." in markdown


def test_css_report_takes_a_folder_and_rejects_non_css_logs(
    logs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    for name in ("css", "limit10", "plain"):
        shutil.copy(logs[name], folder / logs[name].name)
    assert cli_main(["css", "report", str(folder), "--out", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    assert f"{logs['limit10'].name}: not a CSS log (escbench-escalation; use escbench report)" in printed
    assert f"{logs['plain'].name}: not an escbench log (task 'plain')" in printed
    rows = json.loads((tmp_path / "out" / "css_report.json").read_text())["rows"]
    assert [r["model"] for r in rows] == ["mockllm/css_model"]

    assert cli_main(["css", "report", str(logs["limit10"])]) == 1
    printed = capsys.readouterr().out
    assert "not a CSS log" in printed and "no CSS logs among the inputs" in printed


def test_tune_refuses_mixed_models_unless_one_is_named(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    for name in ("alpha", "beta"):
        eval(
            escalation_task(split="dev"),
            model=scripted_model(escalate_on_red_flags, name=name),
            limit=8,
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    paths = sorted(str(p) for p in (tmp_path / "logs").glob("*.eval"))
    out = tmp_path / "controller.json"
    assert cli_main(["tune", *paths, "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert "2 models: mockllm/alpha (1 log(s)); mockllm/beta (1 log(s))" in error and "--model" in error
    assert not out.exists()
    assert cli_main(["tune", *paths, "--out", str(out), "--model", "mockllm/beta"]) == 0
    tuned_on = json.loads(out.read_text())["tuned_on"]
    assert tuned_on["models"] == ["mockllm/beta"] and len(tuned_on["logs"]) == 1
    assert cli_main(["tune", *paths, "--out", str(out), "--model", "mockllm/gamma"]) == 2
    assert "models found: mockllm/alpha, mockllm/beta" in capsys.readouterr().err


def _fig2_label_boxes(report, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list:
    drawn = {}

    def keep(fig, out_dir, name):
        drawn["fig"] = fig
        return name

    monkeypatch.setattr(figures, "_save", keep)
    figures.figure2(report, tmp_path)
    fig = drawn["fig"]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return [(t.get_text(), t.get_window_extent(renderer)) for ax in fig.axes for t in ax.texts]


def test_fig2_value_labels_never_overlap(logs: dict[str, Path], monkeypatch, tmp_path: Path) -> None:
    runs = [str(logs[name]) for name in ("limit10", "one_seed", "two_variants")]
    boxes = _fig2_label_boxes(build_report(runs, ReportOptions(n_boot=0)), monkeypatch, tmp_path)
    texts = [text for text, _ in boxes]
    assert len(texts) == 3 * 5 and texts.count("n/a") == 3  # two_variants ran 2 of the 5 variants
    for (text_a, a), (text_b, b) in combinations(boxes, 2):
        assert not a.overlaps(b), (text_a, text_b)
