"""Every bad input prints one line naming the file or parameter, never a traceback (issue 24).

Inspect's CLI prints a ``PrerequisiteError`` raised while it creates a task as one line and exits 1;
anything else escaping the task function is a traceback. ``escbench``'s CLI turns a user error into
``SystemExit("escbench <command>: …")``. The sweeps call the registered tasks and ``escbench``'s
``main`` in-process with every bad value below and accept only those outcomes; a few subprocess runs
check what the console shows.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from inspect_ai._util.error import PrerequisiteError
from inspect_ai._util.registry import is_registry_object, registry_info

import escbench.tasks as registry
from escbench_inspect.cli import main
from escbench_inspect.params import task_parameters

TASKS = {
    registry_info(value).name.split("/")[-1]: value
    for value in vars(registry).values()
    if is_registry_object(value, type="task")
}

# -T values as Inspect's YAML parsing delivers them
T_VALUES = ["__bogus__", "0", "-1", "2.5", "null", "''", "[]", "{}", "[1, 2]", "true", "no_such_file.json"]


def _controller_files(root: Path) -> dict[str, Path]:
    """A tuned controller file in the current format, and the bad ones users meet."""
    from escbench_inspect.controller.scorer import ControllerConfig, ControllerFile, Thresholds, Weights

    current = ControllerFile(
        controllers={
            "full": ControllerConfig(
                name="full",
                weights=Weights(conflict=0.5, missing=0.25, high_risk=0.5, uncertainty=0.25),
                thresholds=Thresholds(low=0.25, high=0.5),
            )
        }
    ).model_dump(mode="json")
    old = json.loads(json.dumps(current))  # before `name` and `ablation` (it was `variant`)
    for controller in old["controllers"].values():
        controller.pop("name")
        controller["variant"] = controller.pop("ablation")
    files = {
        "current": current,
        "version_0": {**current, "version": 0},
        "old_format": old,
    }
    paths = {name: root / f"{name}.json" for name in files}
    for name, data in files.items():
        paths[name].write_text(json.dumps(data), encoding="utf-8")
    paths["not_json"] = root / "not_json.json"
    paths["not_json"].write_text("not json {", encoding="utf-8")
    paths["missing"] = root / "missing.json"
    return paths


# (case, the exact one line Inspect prints, with {path} for the file as given)
CONTROLLER_LINES = {
    "missing": "{path}: no such file (a controller file is what `escbench tune --out` writes)",
    "not_json": "{path}: not JSON (Expecting value, line 1 column 1); expected a controller file from "
    "`escbench tune`",
    "version_0": "{path}: controller file version 0 is from an older escbench (this one reads version 1): "
    "re-run `escbench tune LOGS --out FILE` to write a current one",
    "old_format": "{path}: a controller file from an older escbench: re-run `escbench tune LOGS --out FILE` "
    "to write a current one (field 'controllers.full.name': Field required; field "
    "'controllers.full.variant': Extra inputs are not permitted)",
}


@pytest.mark.parametrize("case", sorted(CONTROLLER_LINES))
def test_bad_controller_file_is_one_line_at_task_creation(case: str, tmp_path: Path) -> None:
    path = _controller_files(tmp_path)[case]
    with pytest.raises(PrerequisiteError) as caught:
        TASKS["triage"](controller=str(path))
    assert str(caught.value) == CONTROLLER_LINES[case].format(path=path)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CONTROLLER_LINES))
def test_bad_controller_file_on_the_inspect_cli(case: str, tmp_path: Path) -> None:
    """The console: the one line, exit status 1, no traceback, no log."""
    _controller_files(tmp_path)
    name = f"{case}.json"
    command = [sys.executable, "-m", "inspect_ai", "eval", "escbench/triage", "--model", "mockllm/model"]
    command += ["-T", f"controller={name}", "--limit", "1", "--log-dir", "logs"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path, env=_wide())
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 1
    assert output == CONTROLLER_LINES[case].format(path=name), output
    assert not (tmp_path / "logs").exists()


def _wide() -> dict[str, str]:
    import os

    return {**os.environ, "COLUMNS": "1000"}  # rich would wrap the line at 80 columns


def test_escbench_score_names_a_file_that_is_not_a_log(tmp_path: Path) -> None:
    controller = _controller_files(tmp_path)["current"]
    junk = tmp_path / "junk.eval"
    junk.write_text("this is not a zip file\n", encoding="utf-8")
    with pytest.raises(SystemExit) as caught:
        main(["score", str(junk), "--controller", str(controller)])
    assert str(caught.value) == f"escbench score: {junk}: not a readable Inspect log (EOCD not found)"
    with pytest.raises(SystemExit) as caught:
        main(["score", str(tmp_path / "gone.eval"), "--controller", str(controller)])
    assert str(caught.value) == f"escbench score: {tmp_path / 'gone.eval'}: no such log file"


def test_no_task_parameter_value_escapes_as_a_traceback(tmp_path: Path, monkeypatch) -> None:
    """Every -T value of every task either builds the task or is a one-line PrerequisiteError."""
    monkeypatch.chdir(tmp_path)
    _controller_files(tmp_path)
    files = [f"{name}.json" for name in ("version_0", "old_format", "not_json", "missing")]
    outcomes: dict[str, int] = {"built": 0, "refused": 0}
    for task_name, task_fn in sorted(TASKS.items()):
        for parameter in task_parameters(task_fn):
            for text in [*T_VALUES, *files]:
                value = yaml.safe_load(text)
                try:
                    task_fn(**{parameter: value})
                    outcomes["built"] += 1
                except PrerequisiteError as error:
                    assert str(error).strip() and "\n" not in str(error), (task_name, parameter, text)
                    outcomes["refused"] += 1
                except Exception as error:  # a traceback on the console
                    pytest.fail(f"{task_name} -T {parameter}={text}: {type(error).__name__}: {error}")
    assert outcomes["refused"] > outcomes["built"] > 0


def _cli_cases(root: Path) -> list[list[str]]:
    """escbench argument lists built from bad inputs (no command here calls a model or builds)."""
    files = _controller_files(root)
    junk = root / "junk.eval"
    junk.write_text("not a log\n", encoding="utf-8")
    empty = root / "empty"
    empty.mkdir()
    text = root / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    bad_paths = [str(junk), str(root / "gone.eval"), str(empty), str(text), str(files["not_json"])]
    out = str(root / "out")
    cases: list[list[str]] = []
    for path in bad_paths:
        cases += [
            ["score", path, "--controller", str(files["current"])],
            ["tune", path, "--out", str(root / "c.json")],
            ["report", path, "--out", out],
            ["css", "report", path],
            ["css", "agreement", "--judge-a", path, "--judge-b", path],
            ["validate", "--seeds", path],
            ["build", "--seeds", path, "--out", str(root / "e.jsonl")],
        ]
    for name in ("missing", "not_json", "version_0", "old_format"):
        cases.append(["score", str(junk), "--controller", str(files[name])])
    cases += [
        ["report", str(empty), "--out", out, "--bootstrap", "-5"],
        ["report", str(empty), "--out", out, "--alpha", "7"],
        ["build", "--split", "nope"],
        ["tune"],
        ["no_such_command"],
        ["css", "counts", "-T", "families=Z"],
        ["local", "resume", str(junk)],
    ]
    return cases


def test_no_escbench_argument_escapes_as_a_traceback(tmp_path: Path, capsys) -> None:
    """Each bad argument ends in SystemExit (argparse's usage line or one ``escbench …:`` line)."""
    for argv in _cli_cases(tmp_path):
        try:
            code = main(argv)
        except SystemExit as stop:
            message = stop.code
            assert message is None or isinstance(message, int) or "\n" not in str(message).strip(), argv
            continue
        except Exception as error:  # a traceback on the console
            pytest.fail(f"escbench {' '.join(argv)}: {type(error).__name__}: {error}")
        assert isinstance(code, int), argv  # a return code (report uses 2 for a bad option value)
    shutil.rmtree(tmp_path / "out", ignore_errors=True)
    capsys.readouterr()
