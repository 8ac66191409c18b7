"""Bad task parameters fail before any model call, with a message listing what is accepted.

Inspect parses ``-T key=value`` values as YAML and only *warns* on a key that matches no task
parameter. The registered ``@task`` objects declare ``**misspelled`` (Inspect then passes unknown
keys through, see ``inspect_ai._eval.registry.task_create``) while the registry lists only the
named parameters, and ``parameters_of`` raises with a suggestion.
"""

from __future__ import annotations

import importlib.util
import inspect
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval
from inspect_ai._util.registry import is_registry_object, registry_info

import escbench.tasks as registry
from escbench_inspect.agents.css import css_agent_task
from escbench_inspect.css.task import css_task
from escbench_inspect.params import (
    TaskParameterError,
    UnknownTaskParameterError,
    reject_unknown,
    task_parameters,
)
from escbench_inspect.tasks import escalation_task

ESCALATION_TASKS = ("escalation", "documentation", "evidence", "messaging", "triage")
HAS_CONTROLLER = importlib.util.find_spec("escbench_inspect.controller.scorer") is not None


def _registered_tasks() -> dict[str, Callable[..., Any]]:
    """Every ``@task`` reachable from the ``escbench`` entry point module, by registry name."""
    tasks = {}
    for value in vars(registry).values():
        if is_registry_object(value, type="task"):
            tasks[registry_info(value).name.split("/")[-1]] = value
    return tasks


TASKS = _registered_tasks()


def test_every_escalation_task_is_registered() -> None:
    assert set(ESCALATION_TASKS) <= set(TASKS)


BUILDERS = {"css": (css_task, ("recommend", "recommender")), "css_agent": (css_agent_task, ())}


@pytest.mark.parametrize("task_name", sorted(TASKS))
def test_registry_lists_the_builder_parameters_and_nothing_else(task_name: str) -> None:
    """One definition: the registry's parameters are the builder's, in its order, keyword-only."""
    builder, omit = BUILDERS.get(task_name, (escalation_task, ("seeds",)))
    if task_name in ESCALATION_TASKS and task_name != "escalation":
        omit = ("classes", "seeds")
    expected = [name for name in task_parameters(builder) if name not in omit]
    listed = registry_info(TASKS[task_name]).metadata["params"]
    assert listed == expected
    assert "unknown" not in listed and "misspelled" not in listed
    builder_kinds = {p.kind for p in inspect.signature(builder).parameters.values()}
    assert builder_kinds == {inspect.Parameter.KEYWORD_ONLY}
    documented = (TASKS[task_name].__doc__ or "").split("Args:", 1)[-1]
    assert all(f"    {name}:" in documented for name in expected), documented


def _inspect_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai",
            "eval",
            *args,
            "--model",
            "mockllm/model",
            "--log-dir",
            str(cwd / "logs"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("escbench/triage", "-T", "split=training"),
            "invalid value 'training' for task parameter 'split'; accepted: test, dev, all",
        ),
        (("escbench/css", "-T", "cases=1"), "task 'escbench/css' needs a 'grader' model role"),
        (("escbench/css_agent", "-T", "limit=1"), "task 'escbench/css_agent' needs a 'grader' model role"),
    ],
)
def test_a_run_that_cannot_start_prints_one_line_and_exits_non_zero(args, message, tmp_path: Path) -> None:
    """PrerequisiteError: Inspect prints the message without a traceback; no log is written."""
    result = _inspect_cli(*args, cwd=tmp_path)
    output = " ".join((result.stdout + result.stderr).split())  # rich wraps long lines
    assert result.returncode != 0
    assert message in output, output
    assert "Traceback" not in output
    assert len((result.stdout + result.stderr).strip().splitlines()) <= 4
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


# --------------------------------------------------------------------------------------------
# Out-of-range values (as -T would deliver them: YAML-parsed)
# --------------------------------------------------------------------------------------------

ACCEPTED = {
    "split": "accepted: test, dev, all",
    "prompt": "accepted: vanilla, uncertainty",
    "variants": "accepted: clean, missing, stale, conflict, late_risk",
    "classes": "accepted: documentation, evidence, messaging, triage",
    "solver": "accepted: prompt",
    "structured": "accepted: True, False",
}
# YAML text of -T values that must be rejected, per parameter.
BAD_VALUES = {
    "split": ["training", "1", "null", "[test]"],
    "prompt": ["cot", "Vanilla", "0"],
    "variants": ["clean,late", "[]", "''", "5", "{clean: 1}"],
    "classes": ["radiology", "[triage, radiology]", "[]"],
    "solver": ["react", "null"],
    "structured": ["maybe", "1", "null"],
}


@pytest.mark.parametrize(("name", "text"), [(n, t) for n, texts in BAD_VALUES.items() for t in texts])
def test_escalation_parameter_rejects_out_of_range_value(name: str, text: str) -> None:
    value = yaml.safe_load(text)
    with pytest.raises(TaskParameterError) as caught:
        TASKS["escalation"](**{name: value})
    message = str(caught.value)
    assert f"task parameter '{name}'" in message
    assert ACCEPTED[name] in message


@pytest.mark.parametrize("task_name", ESCALATION_TASKS)
def test_every_parameter_of_every_escalation_task_rejects_junk(task_name: str) -> None:
    fn = TASKS[task_name]
    for name in task_parameters(fn):
        if name == "controller":
            continue  # a file path: see test_controller_parameter_names_the_unreadable_file
        with pytest.raises(TaskParameterError, match=f"task parameter '{name}'"):
            fn(**{name: "__bogus__"})


@pytest.mark.skipif(not HAS_CONTROLLER, reason="escbench_inspect.controller.scorer not present")
def test_controller_parameter_names_the_unreadable_file(tmp_path: Path) -> None:
    """``controller`` is a path to a tuned controller file: a bad one fails at task creation."""
    from escbench_inspect.datasets.errors import DataFileError

    missing = tmp_path / "no_such_controller.json"
    with pytest.raises(DataFileError, match="no_such_controller.json"):
        TASKS["triage"](controller=str(missing))
    junk = tmp_path / "junk.json"
    junk.write_text('{"weights": 3}', encoding="utf-8")
    with pytest.raises(DataFileError, match="junk.json"):
        TASKS["triage"](controller=str(junk))


OTHER_TASK_BOGUS: dict[str, dict[str, Any]] = {
    # parameter -> a value outside its accepted set (types as YAML would give them)
    "families": {"families": "Z"},
    "interventions": {"interventions": "Q9_nothing"},
    "cases": {"cases": -1},
    "chart_length": {"chart_length": "huge"},
    "allow_self_judge": {"allow_self_judge": "yes please"},
    "limit": {"limit": 0},
    "max_turns": {"max_turns": 0},
    "max_reads": {"max_reads": -3},
    "max_section_bytes": {"max_section_bytes": "big"},
    "recover_tool_calls": {"recover_tool_calls": "yes please"},
}


@pytest.mark.parametrize("task_name", sorted(set(TASKS) - set(ESCALATION_TASKS)))
def test_every_parameter_of_other_tasks_rejects_out_of_range(task_name: str) -> None:
    """CSS and agent tasks (as they land): each parameter fails clearly, naming itself."""
    fn = TASKS[task_name]
    unchecked = [n for n in task_parameters(fn) if n not in OTHER_TASK_BOGUS]
    assert not unchecked, f"add bad values for {unchecked} to OTHER_TASK_BOGUS"
    for name in task_parameters(fn):
        with pytest.raises(ValueError, match=name) as caught:
            fn(**OTHER_TASK_BOGUS[name])
        message = str(caught.value)
        assert any(hint in message for hint in ("accepted", "must be", "between")), message


# --------------------------------------------------------------------------------------------
# Unknown (misspelled) parameter names
# --------------------------------------------------------------------------------------------

# Tasks whose wrapper does not take **unknown yet: Inspect only warns on their misspelled -T keys.
WITHOUT_UNKNOWN_CHECK: set[str] = set()


def _misspell(name: str) -> str:
    return name[:-2] + name[-1] + name[-2]  # swap the last two letters: split -> spilt


@pytest.mark.parametrize("task_name", sorted(TASKS))
def test_misspelled_parameter_is_rejected_with_a_suggestion(task_name: str) -> None:
    if task_name in WITHOUT_UNKNOWN_CHECK:
        pytest.xfail(f"escbench/{task_name} lacks **unknown + reject_unknown in its @task wrapper")
    fn = TASKS[task_name]
    assert any(p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(fn).parameters.values())
    for name in task_parameters(fn):
        wrong = _misspell(name)
        with pytest.raises(UnknownTaskParameterError) as caught:
            fn(**{wrong: "x"})
        message = str(caught.value)
        assert f"'{wrong}' (did you mean '{name}'?)" in message, message
        assert f"task '{task_name}'" in message


def test_inspect_passes_unknown_task_args_through_to_the_wrapper(faults, tmp_path: Path) -> None:
    """The path ``inspect eval escbench/triage -T …`` takes; no model call, no log written."""
    with pytest.raises(UnknownTaskParameterError, match=r"'varaints' \(did you mean 'variants'"):
        eval(
            "escbench/triage",
            task_args={"varaints": "clean"},
            model=faults.MODEL,
            log_dir=str(tmp_path),
            display="none",
        )
    assert sum(faults.CALLS.values()) == 0
    assert not any(tmp_path.iterdir())


def test_misspelled_parameter_on_the_command_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai",
            "eval",
            "escbench/triage",
            "--model",
            "mockllm/model",
            "-T",
            "spilt=dev",
            "--log-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "unknown task parameter 'spilt' (did you mean 'split'?)" in result.stdout + result.stderr


def test_reject_unknown_helper() -> None:
    reject_unknown("t", {}, ["a"])  # nothing unknown: no error
    with pytest.raises(UnknownTaskParameterError) as caught:
        reject_unknown("t", {"chart_lenght": 1, "zzz": 2}, ["chart_length", "families"])
    message = str(caught.value)
    assert "'chart_lenght' (did you mean 'chart_length'?)" in message
    assert "'zzz'" in message and "'zzz' (did" not in message
    assert message.endswith("accepted parameters: chart_length, families")
    assert isinstance(caught.value, TaskParameterError)
