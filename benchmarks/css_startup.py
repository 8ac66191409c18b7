"""Start-up of ``escbench/css`` beside ``escbench/triage``, as paired ratios in fresh processes.

Three pairs, each run alternately (triage, css, triage, css, …) so machine load hits both:

- ``construct``: import escbench and build the task (``css()`` vs ``triage()``), CSS corpus cache warm;
- ``cold``: the same with an empty ``ESCBENCH_CSS_CACHE`` (the corpus is built and validated);
- ``eval``: ``inspect_ai.eval("escbench/<task>", limit=3)`` on scripted mockllm models (the CSS run
  with a scripted grader role), cache warm — what ``inspect eval escbench/css --limit 3`` does.

Prints, per pair, the median wall time and CPU time (user + sys of the child) of each side and the
medians of the paired ratios css / triage. Usage: ``python benchmarks/css_startup.py [--repeats 3]
[--cold-repeats 1] [--only construct,cold,eval]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from escbench_inspect.offline import ensure_tiktoken_cache

CONSTRUCT = {
    "triage": "from escbench import triage\ntask = triage()\nprint(len(task.dataset))",
    "css": "from escbench import css\ntask = css()\nprint(len(task.dataset))",
}
EVAL = {
    "triage": """
from inspect_ai import eval
from escbench_inspect.testing import decision_json, scripted_model
[log] = eval("escbench/triage", limit=3, model=scripted_model(lambda m: decision_json("Answer", 0.9)),
             log_dir={log_dir!r}, display="none")
assert log.status == "success", log.error
print(len(log.samples))
""",
    "css": """
from inspect_ai import eval
from inspect_ai.model import get_model
from escbench_inspect.testing.css import Grader, Recommender
[log] = eval("escbench/css", limit=3, model=get_model("mockllm/model", custom_outputs=Recommender()),
             model_roles={{"grader": get_model("mockllm/grader", custom_outputs=Grader())}},
             log_dir={log_dir!r}, display="none")
assert log.status == "success", log.error
print(len(log.samples))
""",
}


def timed(code: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of a fresh ``python -c code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def pair(name: str, codes: dict[str, str], repeats: int, cold: bool = False) -> None:
    results: dict[str, list[tuple[float, float]]] = {"triage": [], "css": []}
    for _ in range(repeats):
        for side in ("triage", "css"):
            env = dict(os.environ)
            with tempfile.TemporaryDirectory() as scratch:
                if cold and side == "css":
                    env["ESCBENCH_CSS_CACHE"] = scratch  # empty: build and validate the corpus
                code = codes[side].format(log_dir=scratch) if "{log_dir" in codes[side] else codes[side]
                results[side].append(timed(code, env))
        (tw, tc), (cw, cc) = results["triage"][-1], results["css"][-1]
        print(f"{name}: triage {tw:.2f} s wall / {tc:.2f} s cpu, css {cw:.2f} s / {cc:.2f} s", flush=True)
    for index, label in ((0, "wall"), (1, "cpu")):
        triage = [r[index] for r in results["triage"]]
        css = [r[index] for r in results["css"]]
        ratio = statistics.median(c / t for c, t in zip(css, triage, strict=True))
        print(
            f"{name} {label}: triage median {statistics.median(triage):.2f} s, css median "
            f"{statistics.median(css):.2f} s, ratio css / triage {ratio:.2f} (median of {repeats} pairs)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="pairs for construct and eval")
    parser.add_argument("--cold-repeats", type=int, default=1, help="pairs with an empty CSS cache")
    parser.add_argument("--only", default="construct,cold,eval")
    args = parser.parse_args()
    chosen = args.only.split(",")
    ensure_tiktoken_cache()  # mockllm counts tokens with tiktoken: its vocabulary, offline, for the children
    # warm the cache the warm pairs read (and the tokenizer cache mockllm needs), untimed
    subprocess.run([sys.executable, "-c", CONSTRUCT["css"]], check=True, capture_output=True)
    if "construct" in chosen:
        pair("construct", CONSTRUCT, args.repeats)
    if "cold" in chosen:
        pair("cold", CONSTRUCT, args.cold_repeats, cold=True)
    if "eval" in chosen:
        pair("eval", EVAL, args.repeats)


if __name__ == "__main__":
    main()
