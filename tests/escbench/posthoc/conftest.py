"""Logs that name real providers (written from scripted outputs) and an environment without their keys."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from posthoc_helpers import (
    CREDENTIAL_VARIABLE,
    CSS_CASES,
    PROVIDERS,
    RECORDED_GRADER,
    recommender_policy,
    relabel,
    scripted_grader,
)

from escbench_inspect.controller.demo import answer_biased_policy
from escbench_inspect.testing import scripted_model


@pytest.fixture(scope="session")
def escalation_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One 200-episode split=all log (triage + messaging, uncertainty prompt) per provider name."""
    from escbench_inspect.tasks import escalation_task

    directory = tmp_path_factory.mktemp("posthoc-escalation")
    task = escalation_task(split="all", prompt="uncertainty", classes="triage,messaging")
    [log] = inspect_eval(
        task,
        model=scripted_model(answer_biased_policy, name="answer-biased"),
        log_dir=str(directory / "raw"),
        display="none",
        max_connections=64,
    )
    assert log.status == "success"
    log = read_eval_log(log.location)
    return {model: relabel(log, model, directory / f"{model.split('/')[0]}.eval") for model in PROVIDERS}


@pytest.fixture(scope="session")
def css_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One escbench/css log per provider name, judged by a scripted grader (CSS 1 everywhere),
    whose header names another real provider as the grader."""
    directory = tmp_path_factory.mktemp("posthoc-css")
    [log] = inspect_eval(
        "escbench/css",
        task_args={"cases": CSS_CASES},
        model=scripted_model(recommender_policy, name="recommender"),
        model_roles={"grader": scripted_grader("first-judge", '{"score": 1, "rationale": "updated"}')},
        log_dir=str(directory / "raw"),
        display="none",
    )
    assert log.status == "success"
    log = read_eval_log(log.location)
    return {
        model: relabel(log, model, directory / f"{model.split('/')[0]}.eval", RECORDED_GRADER[model])
        for model in PROVIDERS
    }


@pytest.fixture
def no_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No provider key or base URL in the environment, and no ``.env`` Inspect could load them from."""
    for name in list(os.environ):
        if CREDENTIAL_VARIABLE.fullmatch(name):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    yield
