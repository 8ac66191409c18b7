"""``escbench validate``: load every data file and report each problem with file and field."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from escbench_inspect.datasets.assembly import SEED_DIR, load_action_space, load_seed
from escbench_inspect.datasets.errors import DataFileError
from escbench_inspect.datasets.minimal_pairs import absence_pattern
from escbench_inspect.datasets.splits import split_problems


def seed_problems(seed_dir: Path) -> tuple[int, list[str]]:
    """Validate every seed file (all of them, not stopping at the first) and ids across files."""
    problems: list[str] = []
    paths = sorted(seed_dir.glob("*.yaml"))
    if not paths:
        return 0, [f"{seed_dir}: no seed scenario files (*.yaml) found"]
    seeds = []
    for path in paths:
        try:
            seeds.append(load_seed(path))
        except DataFileError as error:
            problems.append(str(error))
    if len(seeds) == len(paths):
        problems += split_problems(seeds)
    return len(paths), problems


# Other data files register a zero-argument validator here (name -> callable raising DataFileError).
EXTRA_VALIDATORS: dict[str, Callable[[], object]] = {
    "action space": load_action_space,
    "absence vocabulary": absence_pattern,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seeds", type=Path, default=SEED_DIR, help="seed scenario folder")


def run(args: argparse.Namespace) -> int:
    count, problems = seed_problems(args.seeds)
    for name, validator in EXTRA_VALIDATORS.items():
        try:
            validator()
        except DataFileError as error:
            problems.append(f"[{name}] {error}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    status = "FAILED" if problems else "ok"
    print(
        f"{status}: {count} seed files, {len(EXTRA_VALIDATORS)} other data files checked, "
        f"{len(problems)} problems"
    )
    return 1 if problems else 0
