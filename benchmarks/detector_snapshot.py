"""Every detector output on the 400 episodes as one JSON file, to prove a speed change changes nothing.

Usage: ``python benchmarks/detector_snapshot.py OUT.json [--task-class]`` — for each episode (in
corpus order) its id, task class, flags, evidence and suppressed matches from ``detect()``; with
``--task-class`` detection receives the episode's task class (issue 22r). Compare two runs with
``cmp``: byte-identical files mean identical results. ``--by-class`` prints a sha256 per task class.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import sys


def main(argv: list[str] | None = None) -> int:
    from escbench_inspect.controller.detectors import detect
    from escbench_inspect.controller.quality import corpus_samples

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--task-class", action="store_true", help="pass each episode's task class")
    args = parser.parse_args(argv)
    takes_class = "task_class" in inspect.signature(detect).parameters
    rows = []
    for text, metadata in corpus_samples():
        kwargs = {"task_class": metadata["task_class"]} if args.task_class and takes_class else {}
        d = detect(text, **kwargs)
        rows.append(
            {
                "id": f"{metadata['seed_id']}/{metadata['surface']}/{metadata['variant']}",
                "task_class": metadata["task_class"],
                **d.as_dict(),
                "suppressed": [
                    [s.detector, s.concept, s.text, s.start, s.end, s.reason] for s in d.suppressed
                ],
            }
        )
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(rows, handle, indent=1, ensure_ascii=False)
    for task_class in sorted({r["task_class"] for r in rows}):
        own = json.dumps([r for r in rows if r["task_class"] == task_class], ensure_ascii=False)
        count = sum(r["task_class"] == task_class for r in rows)
        print(f"{task_class:<14} {count:>3} episodes  sha256 {hashlib.sha256(own.encode()).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
