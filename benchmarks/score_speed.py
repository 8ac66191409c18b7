"""``escbench score LOG --controller …`` beside ``escbench tune LOG`` on the same log, as a ratio.

Usage: ``python benchmarks/score_speed.py [LOG.eval] [--repeats 3]`` — without a log, a scripted
answer-biased mockllm run of all 400 episodes (split=all) is made first in a temporary directory.
Both commands run in fresh processes, alternately (tune, score, tune, score, …), so machine load
drifts hit both; the script prints each median, wall and CPU (user + sys), and the medians of the
paired ratios score / tune (CPU time is the steadier figure on a shared machine).
``escbench score`` writes to ``--out`` in a temporary directory, so the input log is never touched.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ESCBENCH = [sys.executable, "-m", "escbench_inspect.cli"]


def timed(args: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of a fresh ``escbench`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*ESCBENCH, *args], check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
    tune: list[tuple[float, float]] = []
    score: list[tuple[float, float]] = []
    for repeat in range(args.repeats):
        tune.append(timed(["tune", str(log), "--out", str(work / f"tuned-{repeat}.json")]))
        out = work / f"scored-{repeat}.eval"
        score.append(timed(["score", str(log), "--controller", str(controller), "--out", str(out)]))
        (tw, tc), (sw, sc) = tune[-1], score[-1]
        print(f"repeat {repeat + 1}: tune {tw:.2f} s wall / {tc:.2f} s cpu, score {sw:.2f} s / {sc:.2f} s")
    print(f"log: {log}")
    for index, label in ((0, "wall"), (1, "cpu")):
        t = [pair[index] for pair in tune]
        s = [pair[index] for pair in score]
        ratio = statistics.median(b / a for a, b in zip(t, s, strict=True))
        print(
            f"{label}: escbench tune median {statistics.median(t):.2f} s, escbench score median "
            f"{statistics.median(s):.2f} s, ratio score / tune {ratio:.3f} (median of pairs; goal <= 1.5)"
        )


if __name__ == "__main__":
    main()
