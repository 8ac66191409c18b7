"""Episodes per minute on the local model: server slots (sequential vs --parallel 2) x prefix reuse.

Each configuration starts a fresh llama-server (so no cache carries over), runs the same first N
episodes of the task through Inspect, and reads the timing and token counts from the log.
"Prefix reuse on" is llama-server's default prompt cache plus ``--cache-reuse 256``; "off" is
``--no-cache-prompt --cache-reuse 0`` on the server and ``cache_prompt: false`` in every request.

    python benchmarks/local_model.py --episodes 8          # after `escbench local setup`
    python benchmarks/local_model.py --json out.json --configs 1:on 2:on
    python benchmarks/local_model.py --configs --tool-probe 10   # tool-call rate only
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from escbench_inspect.local import install
from escbench_inspect.local.provenance import MODEL_ALIAS, cache_paths
from escbench_inspect.local.server import DEFAULT_CACHE_REUSE, LlamaServer, ServerConfig


@dataclass
class Result:
    parallel: int
    prefix_reuse: bool
    episodes: int
    wall_s: float
    episodes_per_min: float
    mean_episode_s: float
    prompt_tokens: int
    output_tokens: int
    invalid: int
    status: str
    prompt_tokens_evaluated: int  # after prefix reuse: what the server actually computed
    prompt_eval_s: float
    generation_s: float
    generated_tokens: int


TIMING = re.compile(r"(prompt eval|\s{2}eval) time =\s+([\d.]+) ms /\s+(\d+) tokens")


def server_timings(log: Path) -> dict[str, float]:
    """Sum llama-server's per-request timings (less noisy than wall time on a shared machine)."""
    totals = {"prompt_ms": 0.0, "prompt_n": 0, "gen_ms": 0.0, "gen_n": 0}
    for kind, ms, n in TIMING.findall(log.read_text(errors="replace")):
        key = "prompt" if kind.startswith("prompt") else "gen"
        totals[f"{key}_ms"] += float(ms)
        totals[f"{key}_n"] += int(n)
    return totals


def run_config(task: str, episodes: int, parallel: int, reuse: bool, log_dir: Path) -> Result:
    from inspect_ai import eval as inspect_eval

    paths = cache_paths()
    config = ServerConfig(
        binary=paths.server_bin,
        model=paths.model_path,
        alias=MODEL_ALIAS,
        parallel=parallel,
        cache_reuse=DEFAULT_CACHE_REUSE if reuse else 0,
        cache_prompt=reuse,
    )
    server_log = paths.runs_dir / f"bench-p{parallel}-{'on' if reuse else 'off'}.log"
    server_log.unlink(missing_ok=True)
    with LlamaServer(config, server_log) as server:
        os.environ.update(server.env())
        extra = {} if reuse else {"extra_body": {"cache_prompt": False}}
        start = time.monotonic()
        (log,) = inspect_eval(
            task,
            model=f"openai-api/llamacpp/{MODEL_ALIAS}",
            limit=episodes,
            max_connections=parallel,
            max_retries=2,
            timeout=300,
            log_dir=str(log_dir),
            display="none",
            **extra,
        )
        wall = time.monotonic() - start
    timing = server_timings(server_log)
    samples = log.samples or []
    times = [s.total_time for s in samples if s.total_time is not None]
    usage = next(iter(log.stats.model_usage.values()), None)
    invalid = sum(
        1
        for s in samples
        for score in (s.scores or {}).values()
        if isinstance(score.value, dict) and score.value.get("invalid") == 1.0
    )
    return Result(
        parallel=parallel,
        prefix_reuse=reuse,
        episodes=len(samples),
        wall_s=round(wall, 1),
        episodes_per_min=round(60 * len(samples) / wall, 2) if wall else 0.0,
        mean_episode_s=round(statistics.mean(times), 1) if times else float("nan"),
        prompt_tokens=usage.input_tokens if usage else 0,
        output_tokens=usage.output_tokens if usage else 0,
        invalid=invalid,
        status=log.status,
        prompt_tokens_evaluated=int(timing["prompt_n"]),
        prompt_eval_s=round(timing["prompt_ms"] / 1000, 1),
        generation_s=round(timing["gen_ms"] / 1000, 1),
        generated_tokens=int(timing["gen_n"]),
    )


LABS = {
    "P-101": ("potassium", "6.1 mmol/L"),
    "P-102": ("sodium", "128 mmol/L"),
    "P-103": ("troponin", "0.09 ng/mL"),
    "P-104": ("INR", "4.2"),
    "P-105": ("glucose", "42 mg/dL"),
    "P-106": ("hemoglobin", "7.1 g/dL"),
    "P-107": ("creatinine", "2.9 mg/dL"),
    "P-108": ("lactate", "4.4 mmol/L"),
    "P-109": ("TSH", "0.01 mIU/L"),
    "P-110": ("platelets", "38 x10^9/L"),
}


TOOL_MODES = {
    "native": "native (--jinja, tool_choice auto)",
    "emulated": "emulated (-M emulate_tools=true)",
    "required": "native, tool_choice=any (server grammar forces <tool_call>)",
}


def tool_probe(samples: int, mode: str, log_dir: Path) -> dict:
    """How often the model calls a tool when the answer is only reachable through it.

    ``required`` forces a tool call on the first turn (Inspect ``tool_choice="any"`` -> OpenAI
    ``"required"``, which llama-server turns into a grammar), then lets the model answer freely.
    """
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ChatMessageAssistant
    from inspect_ai.scorer import includes
    from inspect_ai.solver import generate, use_tools
    from inspect_ai.tool import tool

    @tool
    def lookup_lab():
        async def execute(patient_id: str, test: str) -> str:
            """Look up the latest lab result of a patient.

            Args:
                patient_id: Patient identifier such as P-101.
                test: Name of the lab test, e.g. potassium.
            """
            name, value = LABS.get(patient_id.strip(), ("", "no result on file"))
            return f"{patient_id} {test}: {value}" if name else f"{patient_id}: no result on file"

        return execute

    dataset = [
        Sample(
            input=f"What is the latest {test} result of patient {pid}? Use the lookup_lab "
            "tool to find it, then reply with the value.",
            target=value.split()[0],
        )
        for pid, (test, value) in list(LABS.items())[:samples]
    ]
    if mode == "required":
        solver = [
            use_tools([lookup_lab()], tool_choice="any"),
            generate(tool_calls="single"),
            use_tools([lookup_lab()], tool_choice="none"),
            generate(),
        ]
    else:
        solver = [use_tools([lookup_lab()]), generate()]
    task = Task(dataset=dataset, solver=solver, scorer=includes())
    paths = cache_paths()
    config = ServerConfig(binary=paths.server_bin, model=paths.model_path, alias=MODEL_ALIAS)
    with LlamaServer(config, paths.runs_dir / "bench-tools.log") as server:
        os.environ.update(server.env())
        (log,) = inspect_eval(
            task,
            model=f"openai-api/llamacpp/{MODEL_ALIAS}",
            max_retries=2,
            timeout=300,
            log_dir=str(log_dir),
            display="none",
            max_tokens=300,
            model_args={"emulate_tools": True} if mode == "emulated" else {},
        )
    called = correct = 0
    for sample in log.samples or []:
        if any(isinstance(m, ChatMessageAssistant) and m.tool_calls for m in sample.messages):
            called += 1
        if any(score.value == "C" for score in (sample.scores or {}).values()):
            correct += 1
    n = len(log.samples or [])
    return {
        "mode": TOOL_MODES[mode],
        "samples": n,
        "called_tool": called,
        "answered_correctly": correct,
        "status": log.status,
    }


def table(results: list[Result]) -> str:
    head = (
        "| slots | prefix reuse | episodes | wall s | episodes/min | mean s/episode "
        "| prompt tok computed (Inspect / server) | prompt eval s | output tok "
        "| generation s | invalid |"
    )
    rows = [head, "|" + "---|" * 11]
    for r in results:
        rows.append(
            f"| {r.parallel} | {'on' if r.prefix_reuse else 'off'} | {r.episodes} | {r.wall_s} "
            f"| {r.episodes_per_min} | {r.mean_episode_s} "
            f"| {r.prompt_tokens} / {r.prompt_tokens_evaluated} | {r.prompt_eval_s} "
            f"| {r.output_tokens} | {r.generation_s} | {r.invalid} |"
        )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="escbench/triage")
    parser.add_argument("--episodes", type=int, default=8, help="Episodes per configuration.")
    parser.add_argument(
        "--configs",
        nargs="*",
        default=["1:on", "2:on", "1:off", "2:off"],
        help="SLOTS:on|off for prefix reuse (default: all four).",
    )
    parser.add_argument("--log-dir", type=Path, default=Path("logs/bench-local"))
    parser.add_argument("--json", type=Path, default=None, help="Also write the results here.")
    parser.add_argument(
        "--tool-probe",
        type=int,
        default=0,
        metavar="N",
        help="Also measure the tool-call rate on N (<=10) lookup questions, native vs emulated tool calling.",
    )
    parser.add_argument(
        "--tool-modes",
        nargs="+",
        default=list(TOOL_MODES),
        choices=list(TOOL_MODES),
        help="Tool-calling modes to probe.",
    )
    args = parser.parse_args()
    paths = cache_paths()
    if not (install.runtime_ready(paths) and install.model_ready(paths)):
        print("run `escbench local setup` first", file=sys.stderr)
        return 1
    try:
        from escbench_inspect.offline import ensure_tiktoken_cache

        ensure_tiktoken_cache()
    except ImportError:
        pass
    results = []
    for spec in args.configs:
        slots, reuse = spec.split(":")
        result = run_config(args.task, args.episodes, int(slots), reuse == "on", args.log_dir)
        print(f"  {spec}: {result.episodes_per_min} episodes/min ({result.status})", flush=True)
        results.append(result)
    if results:
        print(table(results))
    probes = (
        [tool_probe(args.tool_probe, mode, args.log_dir) for mode in args.tool_modes]
        if args.tool_probe
        else []
    )
    for probe in probes:
        print(
            f"tools {probe['mode']}: called a tool in {probe['called_tool']}/{probe['samples']}, "
            f"correct answer in {probe['answered_correctly']}/{probe['samples']} "
            f"({probe['status']})"
        )
    if args.json:
        args.json.write_text(
            json.dumps({"throughput": [asdict(r) for r in results], "tools": probes}, indent=2)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
