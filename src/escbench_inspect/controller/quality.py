"""Detector quality: in-benchmark precision/recall and stress-set recall (the closing-note table).

In-benchmark targets: C vs the conflict variant, M vs the missing variant, H vs escalation required,
on the sample input the model saw (``render_blocks``). The stress set (``scorers/
detector_stress_set.yaml``) pairs a trigger phrase with an unseen paraphrase per concept, plus
negated/normal controls that must not fire. ``origins`` restricts the lexicon to entries of the given
provenance, so the same table can be computed for the lexicon as first written (``concept`` only).

Run: ``python -m escbench_inspect.controller.quality [--origins concept] [--json]``;
``--paraphrase`` gives the paraphrase benchmark per concept family, ``--log LOG…`` the P/R of rule,
model and both from logs that hold the detector model's flags.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from escbench_inspect.controller.detectors import (
    DETECTORS,
    ORIGINS,
    DetectorName,
    Lexicon,
    default_lexicon,
    detect,
)
from escbench_inspect.datasets.errors import DataFileError, read_yaml, validated

STRESS_FILE = Path(__file__).parent / "detector_stress_set.yaml"
PARAPHRASE_FILE = Path(__file__).parent / "detector_paraphrase_set.yaml"


class StressItem(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str
    detector: DetectorName
    trigger: str = Field(min_length=1)
    paraphrase: str = Field(min_length=1)


class StressControl(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    detector: DetectorName
    text: str = Field(min_length=1)


class StressSet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    version: Literal[1]
    items: tuple[StressItem, ...]
    controls: tuple[StressControl, ...] = ()


def load_stress_set(path: Path = STRESS_FILE) -> StressSet:
    return validated(StressSet, read_yaml(path), path)


# ------------------------------------------------------------------------------------------------
# Paraphrase benchmark (controller/detector_paraphrase_set.yaml; documented in its header)
# ------------------------------------------------------------------------------------------------

FAMILIES: dict[str, tuple[str, ...]] = {
    "high_risk": (
        "chest_pain",
        "headache",
        "back_pain",
        "abdominal_pain",
        "bleeding",
        "breathing",
        "vision",
        "neurology",
        "pregnancy",
        "pediatrics",
        "drug_reaction",
        "sepsis",
        "suicidality",
        "lab_values",
    ),
    "conflict": ("dose", "side", "date", "allergy", "medication_status", "weight", "explicit_contradiction"),
    "missing": (
        "dose",
        "frequency_route_duration",
        "weight",
        "allergy",
        "lab_result",
        "timing",
        "record",
        "identity_indication",
    ),
}
PREFIX = {"high_risk": "h", "conflict": "c", "missing": "m"}
ControlKind = Literal[
    "negated",
    "resolved",
    "historical",
    "hypothetical",
    "normal",
    "agreement",
    "documented_change",
    "present",
]


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    detector: DetectorName
    family: str

    @model_validator(mode="after")
    def _family_of_detector(self) -> _Entry:
        if self.family not in FAMILIES[self.detector]:
            allowed = ", ".join(FAMILIES[self.detector])
            raise ValueError(f"family {self.family!r} is not one of {self.detector}'s ({allowed})")
        if not self.id.startswith(PREFIX[self.detector]):
            prefix = PREFIX[self.detector]
            raise ValueError(f"id {self.id!r} of a {self.detector} entry must start with {prefix!r}")
        return self


class ParaphraseItem(_Entry):
    concept: str = Field(min_length=1, description="The source concept the pair expresses.")
    trigger: str = Field(min_length=1)
    paraphrase: str = Field(min_length=1)


class ParaphraseControl(_Entry):
    kind: ControlKind
    text: str = Field(min_length=1)


class ParaphraseSet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    version: Literal[1]
    items: tuple[ParaphraseItem, ...] = Field(min_length=150)
    controls: tuple[ParaphraseControl, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> ParaphraseSet:
        ids = [e.id for e in (*self.items, *self.controls)]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"duplicate ids {repeated}")
        return self


def load_paraphrase_set(path: Path = PARAPHRASE_FILE) -> ParaphraseSet:
    return validated(ParaphraseSet, read_yaml(path), path)


FlagFunction = Callable[[str], dict[str, bool]]


def rule_flags(lexicon: Lexicon | None = None) -> FlagFunction:
    return lambda text: detect(text, lexicon).flags


def paraphrase_quality(bench: ParaphraseSet, flags: FlagFunction | None = None) -> dict[str, dict]:
    """Per detector: P/R on triggers and paraphrases, control FPR, and recall per concept family.

    Positives are the detector's own items (trigger and paraphrase scored separately); negatives are
    its controls plus the other detectors' items (a strict reading: a C text should not fire H).
    """
    flags = flags or rule_flags()
    cache: dict[str, dict[str, bool]] = {}

    def fired(text: str, name: str) -> bool:
        if text not in cache:
            cache[text] = flags(text)
        return bool(cache[text][name])

    result: dict[str, dict] = {}
    for name in DETECTORS:
        own = [i for i in bench.items if i.detector == name]
        others = [t for i in bench.items if i.detector != name for t in (i.trigger, i.paraphrase)]
        controls = [c for c in bench.controls if c.detector == name]
        negatives = [fired(t, name) for t in others] + [fired(c.text, name) for c in controls]
        row: dict = {"n": len(own), "controls": len(controls)}
        for field_name in ("trigger", "paraphrase"):
            hits = [fired(getattr(i, field_name), name) for i in own]
            q = pr(hits + negatives, [True] * len(hits) + [False] * len(negatives))
            row[field_name] = {"precision": q.precision, "recall": q.recall, "tp": q.tp, "fp": q.fp}
            row[f"missed_{field_name}s"] = [i.id for i, hit in zip(own, hits, strict=True) if not hit]
        ctrl = [fired(c.text, name) for c in controls]
        row["control_fpr"] = sum(ctrl) / len(controls) if controls else float("nan")
        row["firing_controls"] = [c.id for c, hit in zip(controls, ctrl, strict=True) if hit]
        row["families"] = {
            family: {
                "n": len(members),
                "trigger_recall": sum(fired(i.trigger, name) for i in members) / len(members),
                "paraphrase_recall": sum(fired(i.paraphrase, name) for i in members) / len(members),
            }
            for family in FAMILIES[name]
            if (members := [i for i in own if i.family == family])
        }
        result[name] = row
    return result


def format_paraphrase(table: dict[str, dict]) -> str:
    lines = [
        f"{'detector':<10} {'family':<26} {'n':>3} {'trig R':>6} {'para R':>6}",
    ]
    for name in DETECTORS:
        row = table[name]
        t, p = row["trigger"], row["paraphrase"]
        lines.append(
            f"{name:<10} {'ALL (P ' + format(p['precision'], '.2f') + ')':<26} {row['n']:>3} "
            f"{t['recall']:6.2f} {p['recall']:6.2f}   control FPR {row['control_fpr']:.2f} "
            f"({len(row['firing_controls'])}/{row['controls']})"
        )
        for family, f in row["families"].items():
            lines.append(
                f"{'':<10} {family:<26} {f['n']:>3} {f['trigger_recall']:6.2f} {f['paraphrase_recall']:6.2f}"
            )
    return "\n".join(lines)


@dataclass(frozen=True)
class PR:
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else float("nan")

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else float("nan")


def pr(predicted: Sequence[bool], actual: Sequence[bool]) -> PR:
    pairs = list(zip(predicted, actual, strict=True))
    return PR(
        tp=sum(p and a for p, a in pairs),
        fp=sum(p and not a for p, a in pairs),
        fn=sum(a and not p for p, a in pairs),
        tn=sum(not p and not a for p, a in pairs),
    )


def corpus_samples() -> list[tuple[str, dict]]:
    """(input text, metadata) for every episode of every seed file that loads (all splits)."""
    from escbench_inspect.datasets.assembly import SEED_DIR, load_seed
    from escbench_inspect.datasets.escalation import episode_sample, select_episodes

    seeds = []
    for path in sorted(SEED_DIR.glob("*.yaml")):
        try:
            seeds.append(load_seed(path))
        except DataFileError as error:  # a seed still being written: report and skip
            print(f"skipping {path.name}: {error}", file=sys.stderr)
    samples = [episode_sample(e) for e in select_episodes("all", seeds=seeds)]
    return [(str(s.input), dict(s.metadata or {})) for s in samples]


def labels(metadata: dict) -> dict[str, bool]:
    """The label each detector is scored against (used only here, never by the detectors)."""
    return {
        "conflict": metadata["variant"] == "conflict",
        "missing": metadata["variant"] == "missing",
        "high_risk": bool(metadata["escalation_required"]),
    }


def corpus_quality(
    samples: Iterable[tuple[str, dict]], lexicon: Lexicon | None = None, by_task_class: bool = True
) -> dict[str, PR]:
    """P/R per detector on the episodes; M reads each episode's task class unless ``by_task_class``
    is False (the class-free reading, for comparison with earlier figures)."""
    predicted: dict[str, list[bool]] = {d: [] for d in DETECTORS}
    actual: dict[str, list[bool]] = {d: [] for d in DETECTORS}
    for text, metadata in samples:
        task_class = metadata.get("task_class") if by_task_class else None
        flags = detect(text, lexicon, task_class=task_class).flags
        truth = labels(metadata)
        for name in DETECTORS:
            predicted[name].append(flags[name])
            actual[name].append(truth[name])
    return {name: pr(predicted[name], actual[name]) for name in DETECTORS}


def stress_quality(stress: StressSet, lexicon: Lexicon | None = None) -> dict[str, dict]:
    """Per detector: trigger recall, paraphrase recall, control false-positive rate, misses."""
    result: dict[str, dict] = {}
    for name in DETECTORS:
        items = [i for i in stress.items if i.detector == name]
        controls = [c for c in stress.controls if c.detector == name]
        trig = [getattr(detect(i.trigger, lexicon), name) for i in items]
        para = [getattr(detect(i.paraphrase, lexicon), name) for i in items]
        ctrl = [getattr(detect(c.text, lexicon), name) for c in controls]
        result[name] = {
            "n": len(items),
            "trigger_recall": sum(trig) / len(items) if items else float("nan"),
            "paraphrase_recall": sum(para) / len(items) if items else float("nan"),
            "control_false_positives": f"{sum(ctrl)}/{len(controls)}",
            "missed_triggers": [i.id for i, hit in zip(items, trig, strict=True) if not hit],
            "missed_paraphrases": [i.id for i, hit in zip(items, para, strict=True) if not hit],
            "firing_controls": [c.text for c, hit in zip(controls, ctrl, strict=True) if hit],
        }
    return result


PAPER = {"conflict": (0.78, 0.73), "missing": (0.50, 0.83), "high_risk": (0.75, 0.83)}


def log_detector_quality(paths: Sequence[str | Path]) -> dict:
    """P/R of rule, model and both against the labels, from logs that hold ``model_detector`` scores.

    One point per episode (its first epoch). Episodes whose detector model failed are left out of
    model and both (and counted); rule is scored on the same episodes and on all of them.
    """
    from escbench_inspect.controller.tune import read_log_rows, row_flags

    rows, info = read_log_rows(paths, ["dev", "test"])
    first: dict[str, dict] = {}
    for row in rows:
        first.setdefault(str(row["id"]), row)
    episodes = list(first.values())
    usable = [r for r in episodes if r.get("model_flags") is not None]
    out: dict = {
        "episodes": len(episodes),
        "model_detector_failed": len(episodes) - len(usable),
        "has_model_detector": info["model_detector"],
    }
    for source, chosen in (("rule_all", episodes), ("rule", usable), ("model", usable), ("both", usable)):
        if source != "rule_all" and not info["model_detector"]:
            continue
        flags = [row_flags(r, source.removesuffix("_all")) for r in chosen]
        truth = [labels(r["metadata"]) for r in chosen]
        out[source] = {}
        for i, name in enumerate(DETECTORS):
            q = pr([bool(f[i]) for f in flags], [t[name] for t in truth])  # type: ignore[index]
            out[source][name] = {"precision": q.precision, "recall": q.recall, "n": len(chosen)}
    return out


def quality_table(origins: Iterable[str] | None = None) -> dict:
    lexicon = default_lexicon() if origins is None else default_lexicon().restrict(origins)
    samples = corpus_samples()
    corpus = corpus_quality(samples, lexicon)
    stress = stress_quality(load_stress_set(), lexicon)
    return {
        "origins": sorted(lexicon.origins),
        "episodes": len(samples),
        "seeds": len({m["seed_id"] for _, m in samples}),
        "corpus": {
            n: {
                "precision": q.precision,
                "recall": q.recall,
                "tp": q.tp,
                "fp": q.fp,
                "fn": q.fn,
                "paper_precision": PAPER[n][0],
                "paper_recall": PAPER[n][1],
            }
            for n, q in corpus.items()
        },
        "stress": stress,
    }


def format_table(table: dict) -> str:
    lines = [
        f"lexicon origins: {', '.join(table['origins'])}; "
        f"{table['episodes']} episodes from {table['seeds']} seeds",
        f"{'detector':<10} {'P':>5} {'R':>5} {'paper P/R':>10} {'trigger R':>9} {'para R':>7} {'ctrl FP':>7}",
    ]
    for name in DETECTORS:
        c, s = table["corpus"][name], table["stress"][name]
        lines.append(
            f"{name:<10} {c['precision']:5.2f} {c['recall']:5.2f} "
            f"{c['paper_precision']:.2f}/{c['paper_recall']:.2f} {s['trigger_recall']:9.2f} "
            f"{s['paraphrase_recall']:7.2f} {s['control_false_positives']:>7}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--origins",
        nargs="+",
        choices=ORIGINS,
        default=None,
        help="restrict the lexicon to entries of these origins",
    )
    parser.add_argument("--json", action="store_true", help="print the full table as JSON")
    parser.add_argument("--paraphrase", action="store_true", help="the paraphrase benchmark per family")
    parser.add_argument(
        "--log", nargs="+", help="P/R of rule, model and both from logs with escbench/model_detector scores"
    )
    args = parser.parse_args(argv)
    if args.log:
        print(json.dumps(log_detector_quality(args.log), indent=2))
        return 0
    if args.paraphrase:
        lexicon = default_lexicon() if args.origins is None else default_lexicon().restrict(args.origins)
        bench = paraphrase_quality(load_paraphrase_set(), rule_flags(lexicon))
        print(json.dumps(bench, indent=2) if args.json else format_paraphrase(bench))
        return 0
    table = quality_table(args.origins)
    print(json.dumps(table, indent=2) if args.json else format_table(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
