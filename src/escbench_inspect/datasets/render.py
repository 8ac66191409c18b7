"""Render an episode as a transcript of typed blocks.

Block headers are structural markers: they name the block's role, never the variant, and
detectors strip them (``HEADER_LINE``) before looking at the text.
"""

from __future__ import annotations

import regex

from escbench_inspect.datasets.schema import BlockKind, Episode

BLOCK_HEADERS: dict[BlockKind, str] = {
    BlockKind.SETTING: "SETTING",
    BlockKind.EARLIER_RECORD: "EARLIER RECORD",
    BlockKind.NEW_INFORMATION: "NEW INFORMATION",
    BlockKind.SUMMARY: "CHART SUMMARY (auto-generated)",
    BlockKind.REQUEST: "REQUEST",
    BlockKind.LATE_MESSAGE: "MESSAGE RECEIVED AFTER THE REQUEST",
}

HEADER_LINE = regex.compile(
    r"^=== (?:" + "|".join(regex.escape(h) for h in BLOCK_HEADERS.values()) + r") ===$",
    flags=regex.MULTILINE,
)


def header(kind: BlockKind) -> str:
    return f"=== {BLOCK_HEADERS[kind]} ==="


def render_blocks(episode: Episode, kinds: tuple[BlockKind, ...] | None = None) -> str:
    """The episode transcript (or only the given block kinds), blocks in schema order."""
    return "\n\n".join(
        f"{header(block.kind)}\n{block.text}"
        for block in episode.blocks
        if kinds is None or block.kind in kinds
    )


def strip_headers(text: str) -> str:
    """Remove structural block headers so they cannot leak into text analysis."""
    return HEADER_LINE.sub("", text)
