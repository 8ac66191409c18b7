"""``escbench score LOG --controller …`` beside ``escbench tune LOG`` on the same log, as a ratio.

Usage: ``python benchmarks/score_speed.py [LOG.eval] [--repeats 3]`` — without a log, a scripted
answer-biased mockllm run of all 400 episodes (split=all) is made first in a temporary directory.
Both commands run in fresh processes, alternately (tune, score, tune, score, …), so machine load
drifts hit both; the script prints each median and the median of the paired ratios score / tune.
``escbench score`` writes to ``--out`` in a temporary directory, so the input log is never touched.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ESCBENCH = [sys.executable, "-m", "escbench_inspect.cli"]


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([*ESCBENCH, *args], check=True, capture_output=True, text=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", nargs="?", help="an escbench escalation log (split=all or dev)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="escbench-score-speed-"))
    if args.log:
        log = Path(args.log)
    else:
        from escbench_inspect.controller.demo import make_scripted_log

        log = make_scripted_log(work / "logs", split="all")
    controller = work / "controller.json"
    timed(["tune", str(log), "--out", str(controller)])  # the controller to apply; also a warm-up
    tune, score = [], []
    for repeat in range(args.repeats):
        tune.append(timed(["tune", str(log), "--out", str(work / f"tuned-{repeat}.json")]))
        out = work / f"scored-{repeat}.eval"
        score.append(timed(["score", str(log), "--controller", str(controller), "--out", str(out)]))
        print(f"repeat {repeat + 1}: tune {tune[-1]:.2f} s, score {score[-1]:.2f} s", flush=True)
    ratio = statistics.median(s / t for s, t in zip(score, tune, strict=True))
    print(f"log: {log}")
    print(f"escbench tune median wall:  {statistics.median(tune):.2f} s")
    print(f"escbench score median wall: {statistics.median(score):.2f} s")
    print(f"ratio score / tune (median of paired ratios): {ratio:.3f}  (goal <= 1.5)")


if __name__ == "__main__":
    main()
