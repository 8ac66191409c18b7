"""``escbench build``: export the assembled episodes as JSONL for inspection."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from escbench_inspect.datasets.assembly import SEED_DIR, load_seeds
from escbench_inspect.datasets.escalation import SPLITS, episode_metadata, select_episodes
from escbench_inspect.datasets.render import render_blocks
from escbench_inspect.integrity import canonical_json


def episodes_jsonl(split: str = "all", seed_dir: Path = SEED_DIR) -> str:
    """One canonical JSON line per episode: the five-field record, its metadata and rendered input."""
    lines = []
    for episode in select_episodes(split, seeds=load_seeds(seed_dir)):
        record = episode.model_dump(mode="json")
        record["metadata"] = episode_metadata(episode)
        record["input"] = render_blocks(episode)
        lines.append(canonical_json(record))
    return "\n".join(lines) + "\n"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, help="JSONL file to write (default: stdout)")
    parser.add_argument("--split", choices=SPLITS, default="all")
    parser.add_argument("--seeds", type=Path, default=SEED_DIR, help="seed scenario folder")


def run(args: argparse.Namespace) -> int:
    text = episodes_jsonl(args.split, args.seeds)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        count = text.count("\n")
        print(f"wrote {count} episodes to {args.out}", file=sys.stderr)
    return 0
