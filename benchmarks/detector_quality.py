"""All issue-22 detector figures in one command: held-out halves, corpus P/R, detection speed.

Usage: ``python benchmarks/detector_quality.py [--json] [--skip-corpus]``

- development half (dev, dev2, dev3, paraphrase set), test half v1 (seen since issue 22r), the blind
  half ("blind v1, seen" since issue 22s) and, once the coordinator has added it, the second blind
  half ``blind2`` (``controller.heldout``): recall on positives and false-positive rate on near misses per
  detector, per family and per register; each item is detected with its task class (if any);
- corpus P/R on every episode of the current seed files beside the paper's figures
  (``controller.quality.corpus_quality``), M reading each episode's task class, and class-free;
- detection speed: building the episodes' inputs, then ``detect()`` on all of them, cold (first
  call, lexicon compile included) and warm (median of 3);
- import cost of ``escbench_inspect.controller.detectors`` in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from escbench_inspect.controller.detectors import DETECTORS, default_lexicon, detect
from escbench_inspect.controller.heldout import (
    HALF_TITLES,
    available_halves,
    format_quality,
    half_items,
    heldout_quality,
)
from escbench_inspect.controller.quality import PAPER, corpus_quality, corpus_samples


def import_seconds(module: str) -> float:
    """Median wall time of ``import module`` in a fresh interpreter, minus a bare interpreter start."""

    def run(code: str) -> float:
        times = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            times.append(time.perf_counter() - t)
        return statistics.median(times)

    return run(f"import {module}") - run("pass")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--skip-corpus", action="store_true")
    args = parser.parse_args(argv)
    flags = lambda text, task_class: detect(text, task_class=task_class).flags  # noqa: E731
    halves, skipped = available_halves("all")
    for message in skipped:
        print(message, file=sys.stderr)
    out: dict = {"halves": {h: heldout_quality(half_items(h), flags) for h in halves}}
    if not args.skip_corpus:
        t = time.perf_counter()
        samples = corpus_samples()
        build_s = time.perf_counter() - t
        t = time.perf_counter()
        default_lexicon()
        corpus = corpus_quality(samples)
        cold_s = time.perf_counter() - t
        warm, cpu = [], []
        for _ in range(3):
            t, c = time.perf_counter(), time.process_time()
            for text, metadata in samples:
                detect(text, task_class=metadata["task_class"])
            warm.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        class_free = corpus_quality(samples, by_task_class=False)
        out["corpus"] = {
            "episodes": len(samples),
            "class_free": {n: {"precision": q.precision, "recall": q.recall} for n, q in class_free.items()},
            **{
                n: {"precision": q.precision, "recall": q.recall, "paper": PAPER[n]}
                for n, q in corpus.items()
            },
        }
        out["speed_s"] = {
            "build_inputs": build_s,
            "detect_cold": cold_s,
            "detect_warm_median": statistics.median(warm),
            "detect_warm_cpu_median": statistics.median(cpu),
        }
    out["import_s"] = {
        "escbench_inspect.controller.detectors": import_seconds("escbench_inspect.controller.detectors")
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for half, table in out["halves"].items():
        print(format_quality(table, f"== {HALF_TITLES[half]} =="))
    if "corpus" in out:
        c = out["corpus"]
        print(f"== corpus: {c['episodes']} episodes ==")
        for n in DETECTORS:
            p, r = c[n]["precision"], c[n]["recall"]
            f = c["class_free"][n]
            print(
                f"{n:<10} P {p:.2f} R {r:.2f}   paper {c[n]['paper'][0]:.2f}/{c[n]['paper'][1]:.2f}"
                f"   class-free P {f['precision']:.2f} R {f['recall']:.2f}"
            )
        s = out["speed_s"]
        print(
            f"speed: build inputs {s['build_inputs']:.2f} s; detect on all episodes cold "
            f"{s['detect_cold']:.2f} s, warm {s['detect_warm_median']:.2f} s "
            f"(CPU {s['detect_warm_cpu_median']:.2f} s)"
        )
    for module, seconds in out["import_s"].items():
        print(f"import {module}: {seconds:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
