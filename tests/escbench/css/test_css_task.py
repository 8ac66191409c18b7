"""escbench/css end to end on mockllm: baseline sharing, judge failures, self-judging, rejudge."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model

from escbench_inspect.css.catalog import catalog_sha256
from escbench_inspect.css.dataset import corpus_key
from escbench_inspect.css.task import css_task
from escbench_inspect.params import TaskParameterError
from escbench_inspect.testing.css import Grader, Recommender

CASES = ["nsclc-001", "colorectal-001", "melanoma-001", "breast-002"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    """One registry-resolved run; the log is reused by the report/rejudge tests."""
    log_dir = tmp_path_factory.mktemp("csslogs")
    model, grader = Recommender(), Grader()
    logs = eval(
        "escbench/css",
        task_args={"cases": CASES},
        model=get_model("mockllm/model", custom_outputs=model),
        model_roles={"grader": get_model("mockllm/grader", custom_outputs=grader)},
        display="none",
        log_dir=str(log_dir),
    )
    return logs[0], model, grader


def test_run_succeeds_with_provenance(run) -> None:
    log, _, _ = run
    assert log.status == "success"
    meta = log.eval.metadata
    assert meta["css_catalog_sha256"] == catalog_sha256()
    assert len(meta["css_dataset_sha256"]) == 64 and meta["escbench_version"]
    assert meta["css_source_sha256"] == corpus_key()  # the key of the corpus cache the run loaded
    assert meta["css_catalog_version"] == "2.0.0" and meta["allow_self_judge"] is False


def test_baseline_generated_once_per_case(run) -> None:
    log, model, grader = run
    samples = log.samples
    cases = {s.metadata["case_id"] for s in samples}
    assert len(samples) > len(cases)  # several interventions per case
    assert model.calls == len(samples) + len(cases)
    assert grader.css_calls == len(samples)
    assert grader.cms_calls == len(cases)  # CMS: one call per baseline recommendation
    # every baseline chart was seen exactly once, every mutated chart once
    assert set(model.charts.values()) == {1}
    reused = sum(1 for s in samples if s.store.get("css:baseline_reused"))
    assert reused == len(samples) - len(cases)


def test_scores_and_metrics(run) -> None:
    log, _, _ = run
    by_name = {(s.scorer, s.name): s for s in log.results.scores}
    css = by_name[("css_judge", "css")]
    assert css.metrics["mean"].value == 1.0
    assert {"family_A", "escbench/clustered_stderr"} <= set(css.metrics)
    assert any(k.startswith("intervention_") for k in css.metrics)
    cms = by_name[("cms_judge", "cms")]
    assert 0 < cms.metrics["case_mean"].value < 1


def test_judge_failures_are_unscored(tmp_path: Path) -> None:
    replies = iter(
        [
            "The recommendation changed appropriately.",
            '{"score": 0.7, "rationale": "x"}',
            '{"verdict": 1}',
            "RAISE",
            '```json\n{"score": 0, "rationale": "same"}\n```',
        ]
    )

    def reply(prompt: str) -> str:
        return next(replies, '{"score": 1, "rationale": "ok"}')

    grader = Grader(reply, model="mockllm/model")  # same name as the evaluated model
    task = css_task(cases=["gastroesophageal-001", "breast-002"], allow_self_judge=True)
    log = eval(
        task,
        model=get_model("mockllm/model", custom_outputs=Recommender()),
        model_roles={"grader": get_model("mockllm/model", custom_outputs=grader)},
        display="none",
        log_dir=str(tmp_path),
        max_connections=1,
        max_samples=1,
    )[0]
    assert log.status == "success"
    scores = [s.scores["css_judge"] for s in log.samples]
    failed = [s for s in scores if math.isnan(s.value["css"])]
    reasons = sorted(s.reason for s in failed)
    assert reasons == ["judge_error", "not_json", "out_of_range", "schema_invalid"]
    assert all(s.value["css_judge_failed"] == 1 for s in failed)
    scored = [s.value["css"] for s in scores if not math.isnan(s.value["css"])]
    assert 0.0 in scored  # the fenced JSON reply parsed
    css = next(s for s in log.results.scores if s.scorer == "css_judge" and s.name == "css")
    assert css.unscored_samples == 4 and css.scored_samples == len(scores) - 4
    failures = next(s for s in log.results.scores if s.scorer == "css_judge" and s.name == "css_judge_failed")
    assert failures.metrics["judge_failures"].value == 4
    assert all(s.metadata["self_judged"] and s.metadata["allow_self_judge"] for s in scores)
    assert log.eval.metadata["allow_self_judge"] is True


def test_self_judging_refused(tmp_path: Path) -> None:
    model = Recommender()
    log = eval(
        css_task(cases=["nsclc-001"], interventions="B2"),
        model=get_model("mockllm/model", custom_outputs=model),
        model_roles={"grader": get_model("mockllm/model", custom_outputs=Grader())},
        display="none",
        log_dir=str(tmp_path),
    )[0]
    assert log.status == "error"
    assert "judge itself" in str(log.error.message)
    assert model.calls == 0  # refused before any recommendation was generated


def test_parameter_validation_lists_accepted_values() -> None:
    with pytest.raises(TaskParameterError, match="accepted: A, B, C, D, E"):
        css_task(families="F")
    with pytest.raises(TaskParameterError, match="A1_her2_flip"):
        css_task(interventions="Z9")
    with pytest.raises(TaskParameterError, match="short, medium, long, xlong"):
        css_task(chart_length="huge")
    with pytest.raises(TaskParameterError, match="<cancer>-NNN"):
        css_task(cases=["lung-1"])
    task = css_task(families="D", interventions=["D1", "D2_surgery_added"], cases=20)
    assert {s.metadata["family"] for s in task.dataset} == {"D"}


def test_rejudge_and_report(run, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from escbench_inspect.cli import main

    log, _, _ = run
    second = Grader(lambda prompt: '{"score": 0.5, "rationale": "acknowledged only"}', model="mockllm/second")
    from escbench_inspect.css.agreement import rejudge

    out = rejudge(
        log.location,
        get_model("mockllm/second", custom_outputs=second),
        tmp_path / "rejudged.eval",
        cms=False,
    )
    rejudged = read_eval_log(str(out))
    # append: the first judge's scores stay under css_judge, the second judge's are css_judge1
    assert {s.scores["css_judge"].value["css"] for s in rejudged.samples} == {1.0}
    assert {s.scores["css_judge1"].value["css"] for s in rejudged.samples} == {0.5}
    assert second.css_calls == len(rejudged.samples)
    assert main(["css", "report", log.location, str(out), "--out", str(tmp_path / "rep")]) == 0
    printed = capsys.readouterr().out
    assert "css_rank" in printed and "cms_rank" in printed and "Spearman ρ" in printed
    report = json.loads((tmp_path / "rep" / "css_report.json").read_text())
    assert [m["css"] for m in report["rows"]] == [1.0, 0.5]
    assert [m["css_rank"] for m in report["rows"]] == [1, 2]
    assert main(["css", "agreement", "--judge-a", log.location, "--judge-b", str(out)]) == 0
    assert "kappa" in capsys.readouterr().out


def test_escbench_report_includes_the_css_section(run, tmp_path: Path) -> None:
    from escbench_inspect.cli import main
    from escbench_inspect.css.agreement import summarize

    log = run[0]
    summary = summarize(read_eval_log(log.location))
    # no escalation logs among the inputs: the CSS section is the report (exit 0)
    assert main(["report", log.location, "--out", str(tmp_path), "--bootstrap", "10"]) == 0
    markdown = (tmp_path / "report.md").read_text()
    assert "## Causal Sensitivity Score (CSS) vs coverage (CMS)" in markdown
    numbers = json.loads((tmp_path / "report.json").read_text())
    [row] = numbers["sections"]["Causal Sensitivity Score (CSS) vs coverage (CMS)"]["rows"]
    assert row["css"] == pytest.approx(summary.css) and row["cms"] == pytest.approx(summary.cms)
    assert row["scored_tuples"] == summary.n_css
