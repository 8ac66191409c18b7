"""Label inventory of the corpus, as Markdown tables for the reference-policy manual.

``docs/reference_policy.md`` embeds these tables between marker comments; a test regenerates them
from the seed files and compares, so the manual cannot drift from the data. Refresh with
``python -m escbench_inspect.datasets.inventory --write docs/reference_policy.md``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from escbench_inspect.datasets.assembly import default_seeds, iter_episodes
from escbench_inspect.datasets.schema import Episode, SeedScenario, TaskClass, Variant

START = "<!-- label-inventory:start (generated; do not edit by hand) -->"
END = "<!-- label-inventory:end -->"


def _set_name(episode: Episode) -> str:
    return " or ".join(a.value for a in episode.acceptable_actions)


def counts_table(episodes: Sequence[Episode]) -> str:
    """Episodes per class × variant for each reference action set, with totals."""
    sets = sorted({_set_name(e) for e in episodes}, key=lambda s: (" or " in s, s))
    lines = [
        "| class | variant | " + " | ".join(sets) + " | escalation-required |",
        "|---|---|" + "---:|" * (len(sets) + 1),
    ]
    for task_class in TaskClass:
        for variant in Variant:
            group = [e for e in episodes if e.task_class is task_class and e.variant is variant]
            counter = Counter(_set_name(e) for e in group)
            cells = [str(counter.get(name, 0)) for name in sets]
            required = sum(e.escalation_required for e in group)
            lines.append(
                f"| {task_class.value} | {variant.value} | " + " | ".join(cells) + f" | {required} |"
            )
    for split in ("dev", "test", None):
        group = [e for e in episodes if split is None or e.split == split]
        counter = Counter(_set_name(e) for e in group)
        label = f"**{split} ({len(group)} episodes)**" if split else f"**all ({len(group)} episodes)**"
        cells = [str(counter.get(name, 0)) for name in sets]
        required = sum(e.escalation_required for e in group)
        lines.append(f"| {label} | | " + " | ".join(cells) + f" | {required} |")
    return "\n".join(lines)


def split_mix_table(episodes: Sequence[Episode]) -> str:
    """Dev and test side by side: share of each reference action set per variant."""
    sets = sorted({_set_name(e) for e in episodes}, key=lambda s: (" or " in s, s))
    lines = [
        "| variant | split | episodes | " + " | ".join(sets) + " |",
        "|---|---|---:|" + "---:|" * len(sets),
    ]
    for variant in Variant:
        for split in ("dev", "test"):
            group = [e for e in episodes if e.variant is variant and e.split == split]
            counter = Counter(_set_name(e) for e in group)
            cells = [f"{counter.get(name, 0) / len(group):.2f}" if group else "–" for name in sets]
            lines.append(f"| {variant.value} | {split} | {len(group)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def seeds_table(seeds: Sequence[SeedScenario]) -> str:
    """One row per seed: id, class, split, title and the reference per variant."""
    lines = [
        "| seed | class | split | scenario | " + " | ".join(v.value for v in Variant) + " |",
        "|---|---|---|---|" + "---|" * len(Variant),
    ]
    for seed in sorted(seeds, key=lambda s: (s.task_class.value, s.split, s.id)):
        refs = [" or ".join(a.value for a in seed.reference.for_variant(v).acceptable) for v in Variant]
        lines.append(
            f"| `{seed.id}` | {seed.task_class.value} | {seed.split} | {seed.title} | "
            + " | ".join(refs)
            + " |"
        )
    return "\n".join(lines)


def inventory_markdown(seeds: Sequence[SeedScenario] | None = None) -> str:
    seeds = default_seeds() if seeds is None else seeds
    episodes = list(iter_episodes(seeds))
    return "\n\n".join(
        [
            START,
            "### Reference action sets per class and variant (both surfaces)",
            counts_table(episodes),
            "### Dev and test reference-action mix per variant (share of episodes)",
            split_mix_table(episodes),
            "### Seeds",
            seeds_table(seeds),
            END,
        ]
    )


def embedded_inventory(text: str) -> str:
    """The generated block embedded in a document (between the markers, inclusive)."""
    start, end = text.index(START), text.index(END) + len(END)
    return text[start:end]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print or refresh the label inventory.")
    parser.add_argument("--write", type=Path, help="document whose embedded inventory to replace")
    args = parser.parse_args(argv)
    table = inventory_markdown()
    if args.write is None:
        print(table)
        return 0
    text = args.write.read_text(encoding="utf-8")
    args.write.write_text(text.replace(embedded_inventory(text), table), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
