"""Wall time of ``escbench/escalation`` beside a bare Inspect task of the same size, on mockllm.

Both run in fresh processes, alternately, ``--repeats`` times each; the script prints the medians and
the ratio escbench / bare. The bare task is ``generate()`` + ``match()`` over the same number of
samples with the same scripted reply, so the ratio isolates escbench's own dataset, prompt and
scoring overhead. Usage: ``python benchmarks/overhead.py [--repeats 3] [--split all]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

RUN_ESCBENCH = """
from inspect_ai import eval
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import decision_json, scripted_model
model = scripted_model(lambda m: decision_json("Answer", 0.9))
log = eval(escalation_task(split="{split}"), model=model, log_dir="{log_dir}", display="none")[0]
assert log.status == "success", log.error
print(len(log.samples))
"""

RUN_BARE = """
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import match
from inspect_ai.solver import generate
from escbench_inspect.datasets.escalation import escalation_dataset
from escbench_inspect.testing import decision_json, scripted_model
n = len(escalation_dataset("{split}"))
samples = [Sample(id=i, input="x" * 2000, target="Answer") for i in range(n)]
model = scripted_model(lambda m: decision_json("Answer", 0.9))
log = eval(Task(dataset=samples, solver=generate(), scorer=match()), model=model,
           log_dir="{log_dir}", display="none")[0]
assert log.status == "success", log.error
print(len(log.samples))
"""


def timed(code: str) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as log_dir:
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-c", code.replace("{log_dir}", log_dir)],
            capture_output=True,
            text=True,
            check=True,
        )
        return time.perf_counter() - start, result.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--split", default="all", choices=["test", "dev", "all"])
    args = parser.parse_args()
    escbench, bare = [], []
    for _ in range(args.repeats):
        seconds, count = timed(RUN_ESCBENCH.replace("{split}", args.split))
        escbench.append(seconds)
        seconds, bare_count = timed(RUN_BARE.replace("{split}", args.split))
        bare.append(seconds)
        assert count == bare_count, (count, bare_count)
    ratio = statistics.median(e / b for e, b in zip(escbench, bare, strict=True))
    print(f"samples per run: {count}; repeats: {args.repeats}")
    print(f"escbench/escalation median wall: {statistics.median(escbench):.2f} s")
    print(f"bare generate()+match() median wall: {statistics.median(bare):.2f} s")
    print(f"ratio escbench / bare (median of paired ratios): {ratio:.3f}  (goal <= 1.15)")


if __name__ == "__main__":
    main()
