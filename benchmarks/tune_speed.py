"""Grid-search time beside the time to read the same log, as a ratio.

Usage: ``python benchmarks/tune_speed.py [LOG.eval]`` — without a log, a scripted answer-biased
mockllm run of all 400 episodes (split=all) is made first in a temporary directory.
Reports: log read (inspect_ai.log.read_eval_log), record building (parse + C/M/H detection), the
three grid searches (full 625 weight vectors, workflow-only, confidence-only) and the ratio
grid / read. Repeats the grid search and reports the median.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from escbench_inspect.controller.tune import grid_search, make_records, read_log_rows


def main(argv: list[str]) -> int:
    if argv:
        log = Path(argv[0])
    else:
        from escbench_inspect.controller.demo import make_scripted_log

        log = make_scripted_log(tempfile.mkdtemp(prefix="escbench-tune-"), split="all")
    t0 = time.perf_counter()
    rows, _ = read_log_rows([log], ["dev"])
    read_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    dev = make_records(rows)
    records_s = time.perf_counter() - t1
    grid_search(dev, "full")  # warm-up (imports, BLAS threads)
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        results = {v: grid_search(dev, v) for v in ("full", "workflow_only", "confidence_only")}
        runs.append(time.perf_counter() - t)
    grid_s = statistics.median(runs)
    pairs = sum(r.evaluated for r in results.values())
    print(f"log: {log}")
    print(f"dev samples: {len(dev)}; (weights, thresholds) pairs evaluated: {pairs:,}")
    print(f"read log          {read_s:8.3f} s")
    print(f"parse + detect    {records_s:8.3f} s")
    print(f"grid (3 variants) {grid_s:8.3f} s  (median of {len(runs)})")
    print(f"ratio grid / read {grid_s / read_s:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
