"""Progress of long commands: silent unless enabled; a line per step on a pipe, bounded for long loops."""

from __future__ import annotations

import pytest

from escbench_inspect import progress


@pytest.fixture(autouse=True)
def restore() -> None:
    progress.enable(False)  # whatever an earlier in-process command left
    yield
    progress.enable(False)


def test_silent_unless_a_command_enables_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert list(progress.steps(range(5), "work")) == [0, 1, 2, 3, 4]
    progress.note("reading")
    assert capsys.readouterr() == ("", "")


def test_a_line_per_finished_step_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    progress.enable()
    seen = []
    for item in progress.steps(["a", "b", "c"], "scoring logs"):
        seen.append((item, capsys.readouterr().err.count("\n")))  # lines printed before this step
    out, err = capsys.readouterr()
    assert [n for _, n in seen] == [0, 1, 1]  # each line comes after its step, not before
    assert out == ""
    assert err.startswith("scoring logs: 3/3 (")


def test_long_loops_print_about_twenty_lines_and_the_last(capsys: pytest.CaptureFixture[str]) -> None:
    progress.enable()
    assert sum(progress.steps(range(534), "checking the short charts")) == sum(range(534))
    lines = capsys.readouterr().err.splitlines()
    assert 20 <= len(lines) <= 22
    assert lines[-1].startswith("checking the short charts: 534/534")
    assert [int(line.split(": ")[1].split("/")[0]) for line in lines] == sorted(
        int(line.split(": ")[1].split("/")[0]) for line in lines
    )
