"""Detection speed on every episode of the current seed files, in CPU seconds (the machine is shared).

Usage: ``python benchmarks/detector_speed.py`` — builds the episodes' inputs, then runs ``detect()``
on all of them (with each episode's task class, where ``detect`` takes one): the first pass (lexicon
compile included) and the median of three warm passes.
Works against any version of the package (it needs only ``detect`` and ``corpus_samples``), so the
same file measures before and after: ``PYTHONPATH=<other checkout>/src python benchmarks/detector_speed.py``.
"""

from __future__ import annotations

import inspect
import statistics
import sys
import time


def main() -> int:
    t = time.process_time()
    from escbench_inspect.controller.detectors import detect
    from escbench_inspect.controller.quality import corpus_samples

    import_cpu = time.process_time() - t
    t = time.process_time()
    samples = corpus_samples()
    build_cpu = time.process_time() - t
    takes_class = "task_class" in inspect.signature(detect).parameters
    calls = [(text, {"task_class": m["task_class"]} if takes_class else {}) for text, m in samples]
    t = time.process_time()
    for text, kwargs in calls:
        detect(text, **kwargs)
    cold = time.process_time() - t
    warm = []
    for _ in range(3):
        t = time.process_time()
        for text, kwargs in calls:
            detect(text, **kwargs)
        warm.append(time.process_time() - t)
    print(f"episodes {len(calls)}; CPU seconds: import {import_cpu:.2f}, build inputs {build_cpu:.2f}, ")
    print(f"detect first pass {cold:.2f}, warm median {statistics.median(warm):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
