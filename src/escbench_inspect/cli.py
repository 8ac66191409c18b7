"""The ``escbench`` command: build, validate, tune, score, report and local-model helpers.

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and ``run(args) -> int``;
modules are imported only when their subcommand runs, so ``escbench --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from escbench_inspect import progress

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "build": ("escbench_inspect.datasets.export", "Export the assembled episodes as JSONL."),
    "validate": (
        "escbench_inspect.datasets.validate",
        "Validate every data file; name file and field.",
    ),
    "audit": (
        "escbench_inspect.analysis.shortcuts",
        "Shortcut audit: content-free baselines fitted on dev, scored on test.",
    ),
    "tune": (
        "escbench_inspect.controller.tune",
        "Tune the risk controller on dev-split logs (post hoc).",
    ),
    "score": (
        "escbench_inspect.analysis.posthoc",
        "Apply a tuned controller to logs (post hoc; the evaluated model is never called or resolved).",
    ),
    "css": (
        "escbench_inspect.css.cli",
        "CSS: counts, rejudge, agreement (kappa/rho), CSS-vs-CMS report.",
    ),
    "report": (
        "escbench_inspect.analysis.report",
        "Tables, statistics and figures of the paper from escalation logs.",
    ),
    "local": ("escbench_inspect.local.cli", "Real model offline: llama.cpp server setup and runs."),
    "review": (
        "escbench_inspect.review.cli",
        "Clinician review of labels: web app, reviewers, agreement stats, adjudicated labels.",
    ),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="escbench", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    argv = sys.argv[1:] if argv is None else argv
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    for name, (module_name, help_text) in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            module = importlib.import_module(module_name)
            module.add_arguments(sub)
            sub.set_defaults(handler=module.run)
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except (OSError, ValueError) as error:
        # a user error (a file that is missing or unreadable, a bad value): one line, no traceback;
        # the messages name the file (DataFileError, read_log) or the value
        raise SystemExit(f"escbench {args.command}: {error}") from error
    finally:
        progress.enable(False)  # a command's progress lasts as long as the command (in-process callers)


if __name__ == "__main__":
    sys.exit(main())
