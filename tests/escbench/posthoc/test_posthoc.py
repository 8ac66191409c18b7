"""Post-hoc analysis on logs of three providers with none of their credentials in the environment.

Controller scoring, CSS re-judging (scripted grader), ``escbench tune`` and ``escbench report`` all
succeed; the log gains the new scores and keeps the old ones. Inspect's own ``score`` without an
override is shown to need the evaluated model's (and recorded grader's) provider, which is why the
escbench commands exist.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import score as inspect_score
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model
from posthoc_helpers import PROVIDERS, RECORDED_GRADER, relabel, scripted_grader

from escbench.scorers import controller_full
from escbench_inspect.cli import main
from escbench_inspect.controller.demo import answer_biased_policy
from escbench_inspect.css.agreement import rejudge, summarize
from escbench_inspect.css.scorer import css_judge
from escbench_inspect.testing import last_user_text, scripted_model

pytestmark = pytest.mark.usefixtures("no_credentials")

CONTROLLER_SCORERS = {"controller_full", "controller_workflow_only", "controller_confidence_only"}


def _scores(path: Path, scorer: str) -> dict[tuple[str, int], object]:
    log = read_eval_log(str(path))
    return {(str(s.id), s.epoch): s.scores[scorer].model_dump() for s in log.samples}


@pytest.fixture(scope="session")
def controller_file(escalation_logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("posthoc-controller") / "controller.json"
    from escbench_inspect.controller.tune import tune

    file, _ = tune([str(escalation_logs[PROVIDERS[0]])])
    out.write_text(file.model_dump_json(indent=2), encoding="utf-8")
    return out


@pytest.mark.parametrize("model", PROVIDERS)
def test_the_environment_cannot_resolve_the_evaluated_model(model: str) -> None:
    # the premise of every test here: this provider is unusable without its key (or SDK)
    with pytest.raises(Exception, match=r"(?i)api.?key|API_KEY|install|dependenc"):
        get_model(model)


@pytest.mark.parametrize("model", PROVIDERS)
def test_inspect_score_without_override_needs_the_evaluated_model(
    model: str, escalation_logs: dict[str, Path], controller_file: Path
) -> None:
    log = read_eval_log(str(escalation_logs[model]))
    with pytest.raises(Exception, match=r"(?i)api.?key|API_KEY|install|dependenc"):
        inspect_score(log, controller_full(str(controller_file)), action="append", display="none")


def test_inspect_score_with_a_bound_grader_still_resolves_the_recorded_grader(
    css_logs: dict[str, Path],
) -> None:
    # --model-role is merged over the roles in the header, which are resolved first
    model = PROVIDERS[0]
    log = read_eval_log(str(css_logs[model]))
    new_grader = scripted_grader("second-judge", '{"score": 0.5, "rationale": "partly"}')
    with pytest.raises(Exception, match=r"(?i)api.?key|API_KEY|install|dependenc"):
        inspect_score(
            log,
            css_judge(),
            model=get_model("none/none"),
            model_roles={"grader": new_grader},
            action="append",
            display="none",
        )


@pytest.mark.parametrize("model", PROVIDERS)
def test_escbench_score_appends_the_controller_in_place(
    model: str, escalation_logs: dict[str, Path], controller_file: Path, tmp_path: Path
) -> None:
    path = shutil.copy(escalation_logs[model], tmp_path / "run.eval")
    before = read_eval_log(str(path))
    model_scores = _scores(path, "escalation_scorer")
    assert main(["score", str(path), "--controller", str(controller_file)]) == 0
    after = read_eval_log(str(path))
    assert after.eval.model == model and after.eval.model_base_url == before.eval.model_base_url
    assert _scores(path, "escalation_scorer") == model_scores  # the old scores are kept, unchanged
    assert {s.scorer for s in after.results.scores} == {"escalation_scorer", *CONTROLLER_SCORERS}
    assert before.results.scores == after.results.scores[: len(before.results.scores)]
    overridden = 0
    for sample in after.samples:
        assert set(sample.scores) >= CONTROLLER_SCORERS
        meta = sample.scores["controller_full"].metadata["controller"]
        assert meta["model_action"] == (sample.scores["escalation_scorer"].answer or None) or (
            meta["parse_error"] and sample.scores["escalation_scorer"].answer in (None, "invalid")
        )
        assert meta["overridden"] == (meta["final_action"] != meta["model_action"])
        overridden += meta["overridden"]
    assert overridden > 0  # the tuned controller changes some decisions of this answer-biased model


def test_escbench_score_refuses_to_duplicate_and_replaces_on_request(
    escalation_logs: dict[str, Path], controller_file: Path, tmp_path: Path
) -> None:
    path = tmp_path / "run.eval"
    out = tmp_path / "scored.eval"
    shutil.copy(escalation_logs[PROVIDERS[1]], path)
    original = path.read_bytes()
    assert main(["score", str(path), "--controller", str(controller_file), "--out", str(out)]) == 0
    assert path.read_bytes() == original  # --out leaves the input alone
    scored = out.read_bytes()
    with pytest.raises(SystemExit, match="already has .*controller_full.*--replace"):
        main(["score", str(out), "--controller", str(controller_file)])
    assert out.read_bytes() == scored  # nothing written on refusal
    assert main(["score", str(out), "--controller", str(controller_file), "--replace"]) == 0
    log = read_eval_log(str(out))
    assert sorted(log.samples[0].scores) == sorted({"escalation_scorer", *CONTROLLER_SCORERS})
    # six score keys per scorer (controllers add detector_failed, issue 15), no duplicates
    assert len(log.results.scores) == 6 + 7 * 3
    assert [r.scorer for r in log.reductions].count("controller_full") == 1


def test_escbench_score_rejects_a_css_log(css_logs: dict[str, Path], controller_file: Path) -> None:
    with pytest.raises(SystemExit, match="not an escbench escalation log"):
        main(["score", str(css_logs[PROVIDERS[0]]), "--controller", str(controller_file)])


def test_the_documented_inspect_score_form_works_without_credentials(
    escalation_logs: dict[str, Path], controller_file: Path, tmp_path: Path
) -> None:
    path = shutil.copy(escalation_logs[PROVIDERS[0]], tmp_path / "run.eval")
    command = [
        *(sys.executable, "-m", "inspect_ai", "score", str(path)),
        *("--model", "none/none", "--scorer", "escbench/controller_full"),
        *("-S", f"path={controller_file}", "--action", "append", "--overwrite"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr[-2000:]
    log = read_eval_log(str(path))
    assert log.eval.model == PROVIDERS[0]
    assert {"escalation_scorer", "controller_full"} == set(log.samples[0].scores)


@pytest.mark.parametrize("model", PROVIDERS)
def test_rejudge_needs_only_the_graders_credentials(
    model: str, css_logs: dict[str, Path], tmp_path: Path
) -> None:
    source = css_logs[model]
    original = source.read_bytes()
    before = read_eval_log(str(source))
    grader = scripted_grader("second-judge", '{"score": 0.5, "rationale": "acknowledged only"}')
    out = rejudge(source, grader, tmp_path / "rejudged.eval")
    assert source.read_bytes() == original
    log = read_eval_log(str(out))
    assert log.eval.model == model
    assert log.eval.model_roles["grader"].model == RECORDED_GRADER[model]  # the run's header is kept
    for old, new in zip(before.samples, log.samples, strict=True):
        assert new.scores["css_judge"] == old.scores["css_judge"]  # first judge kept
        assert new.scores["cms_judge"] == old.scores["cms_judge"]
        assert new.scores["css_judge1"].value == {"css": 0.5, "css_judge_failed": 0}
        assert new.scores["css_judge1"].metadata["grader"] == "mockllm/second-judge"
        assert not math.isnan(new.scores["cms_judge1"].value["cms"])
    assert summarize(before).css == 1.0
    summary = summarize(log)  # readers use the latest judging
    assert summary.css == 0.5 and summary.grader == "mockllm/second-judge"
    assert summary.n_css == len(log.samples) and summary.n_cms_cases == 3


def test_rejudge_cli_records_an_unusable_grader_reply_as_unscored(
    css_logs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # mockllm/model replies with prose: every new judgment is a judge failure (NaN), never a score
    source = css_logs[PROVIDERS[2]]
    out = tmp_path / "prose.eval"
    assert main(["css", "rejudge", str(source), "--grader", "mockllm/model", "--out", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    log = read_eval_log(str(out))
    for sample in log.samples:
        assert math.isnan(sample.scores["css_judge1"].value["css"])
        assert sample.scores["css_judge1"].metadata["judge_failure"] == "not_json"
        assert sample.scores["css_judge"].value["css"] == 1.0
    summary = summarize(log)
    assert summary.n_css == 0 and summary.css_unscored == len(log.samples)
    assert main(["css", "report", str(source), str(out), "--out", str(tmp_path / "rep")]) == 0
    rows = json.loads((tmp_path / "rep" / "css_report.json").read_text())["rows"]
    assert [row["css_rank"] for row in rows] == [1, None]  # an unscored log is not ranked first


@pytest.mark.slow  # ~25 s: tune + score + report end to end; the per-provider steps run by default above
def test_tune_score_and_report_on_three_providers(
    escalation_logs: dict[str, Path], css_logs: dict[str, Path], tmp_path: Path
) -> None:
    logs_dir = tmp_path / "logs"
    logs_dir.mkdir()
    for model in PROVIDERS:
        shutil.copy(escalation_logs[model], logs_dir / f"{model.split('/')[0]}.eval")
    for model in PROVIDERS:  # tuning reads the logs only
        controller = tmp_path / f"controller-{model.split('/')[0]}.json"
        log = logs_dir / f"{model.split('/')[0]}.eval"
        assert main(["tune", str(log), "--out", str(controller)]) == 0
        tuned = json.loads(controller.read_text())
        assert tuned["tuned_on"]["models"] == [model]
        assert set(tuned["controllers"]) == {"full", "workflow_only", "confidence_only"}
    assert main(["score", *map(str, sorted(logs_dir.iterdir())), "--controller", str(controller)]) == 0
    grader = scripted_grader("second-judge", '{"score": 0.5, "rationale": "acknowledged only"}')
    rejudge(css_logs[PROVIDERS[1]], grader, logs_dir / "css-rejudged.eval")
    reports = tmp_path / "reports"
    assert main(["report", str(logs_dir), "--out", str(reports), "--bootstrap", "20"]) == 0
    numbers = json.loads((reports / "report.json").read_text())
    groups = {(row["model"], row["controller"]) for row in numbers["table1"]}
    controllers = ("model", "full", "workflow_only", "confidence_only")
    assert groups == {(model, name) for model in PROVIDERS for name in controllers}
    assert {row["episodes"] for row in numbers["table1"]} == {160}  # test split of 200 episodes
    assert not numbers["skipped"]
    [css_row] = numbers["sections"]["Causal Sensitivity Score (CSS) vs coverage (CMS)"]["rows"]
    assert css_row["model"] == PROVIDERS[1] and css_row["css"] == 0.5


def _failing_on_some(messages) -> str:
    text = last_user_text(messages)
    if int(hashlib.sha256(text.encode()).hexdigest(), 16) % 4 == 0:
        raise RuntimeError("provider connection reset")
    return answer_biased_policy(messages)


def test_errored_samples_stay_unscored_and_errored_in_the_report(
    controller_file: Path, tmp_path: Path
) -> None:
    from escbench_inspect.tasks import escalation_task

    [raw] = inspect_eval(
        escalation_task(split="dev", prompt="uncertainty", classes="triage"),
        model=scripted_model(_failing_on_some, name="flaky"),
        log_dir=str(tmp_path / "raw"),
        display="none",
        fail_on_error=False,
    )
    path = relabel(read_eval_log(raw.location), PROVIDERS[1], tmp_path / "flaky.eval")
    errored = {str(s.id) for s in read_eval_log(str(path)).samples if s.error is not None}
    assert 0 < len(errored) < 20
    assert main(["score", str(path), "--controller", str(controller_file)]) == 0
    log = read_eval_log(str(path))
    for sample in log.samples:
        assert (str(sample.id) in errored) == (sample.error is not None)
        assert (str(sample.id) in errored) == (not sample.scores or "controller_full" not in sample.scores)
    reports = tmp_path / "reports"
    assert main(["report", str(path), "--out", str(reports), "--split", "dev", "--bootstrap", "10"]) == 0
    counts = json.loads((reports / "report.json").read_text())["counts"]
    # every controller row counts the errored episodes as errored, like the model's own row
    assert {row["controller"]: row["errored"] for row in counts} == {
        name: len(errored) for name in ("model", "full", "workflow_only", "confidence_only")
    }
