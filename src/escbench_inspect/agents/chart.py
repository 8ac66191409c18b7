"""The ``read_chart_section`` tool: the agent's only window onto the current sample's chart.

A setup solver puts the sample's sections into the per-sample ``store()`` (``put_chart``); the tool
returns one section per call, capped at ``max_bytes`` (8 KB, the paper's per-section cap) with the
truncation marked in the text. The tool knows a fixed vocabulary of section names and nothing else:
a name is lower-cased, trimmed of quotes, and its runs of spaces, hyphens and underscores are
collapsed to one underscore; anything that is not then exactly a vocabulary name (a typo, a path,
an instruction) gets the same tool error listing the valid sections. Reads per run are bounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import regex
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import Tool, ToolDef, ToolError, tool
from inspect_ai.util import store

DEFAULT_MAX_SECTION_BYTES = 8 * 1024
"""Per-call cap on a section's text (the CSS paper's 8 KB per-section cap)."""

DEFAULT_MAX_READS = 20
"""Chart reads (valid or not) allowed per agent run; later calls get a tool error."""

TOOL_NAME = "read_chart_section"
_MAX_NAME_CHARS = 64
_SEPARATORS = regex.compile(r"[\s_\-]+")
_IDENTIFIER = regex.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")


@dataclass(frozen=True)
class ChartVocabulary:
    """The fixed section names (in chart order) and their one-line descriptions."""

    titles: Mapping[str, str]

    def __post_init__(self) -> None:
        bad = [name for name in self.titles if _IDENTIFIER.fullmatch(name) is None]
        if bad or not self.titles:
            raise ValueError(f"section names must be lower_snake_case identifiers: {bad}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.titles)

    def listing(self) -> str:
        """One ``- name: description`` line per section, for prompts and tool descriptions."""
        return "\n".join(f"- {name}: {title}" for name, title in self.titles.items())


def normalize_section_name(name: object) -> str | None:
    """The canonical form of a requested name, or None if it cannot be a section name."""
    if not isinstance(name, str) or len(name) > _MAX_NAME_CHARS:
        return None
    key = _SEPARATORS.sub("_", name.strip().strip("'\"`").strip().lower()).strip("_")
    return key if _IDENTIFIER.fullmatch(key) else None


def resolve_section(name: object, vocabulary: Sequence[str]) -> str | None:
    """The vocabulary section a requested name refers to, or None."""
    key = normalize_section_name(name)
    return key if key in vocabulary else None


def cap_text(text: str, max_bytes: int, section: str) -> str:
    """``text`` cut to ``max_bytes`` UTF-8 bytes (on a character boundary), truncation marked."""
    data = text.encode("utf-8")
    if max_bytes <= 0 or len(data) <= max_bytes:
        return text
    head = data[:max_bytes].decode("utf-8", errors="ignore")
    return (
        f"{head}\n[TRUNCATED: section '{section}' is {len(data)} bytes; only the first "
        f"{max_bytes} bytes are shown]"
    )


def _chart_key(instance: str) -> str:
    return f"escbench_chart:{instance}"


def _reads_key(instance: str) -> str:
    return f"escbench_chart_reads:{instance}"


def put_chart(sections: Mapping[str, str], vocabulary: ChartVocabulary, instance: str) -> None:
    """Store one chart (exactly the vocabulary's sections) for the current sample; reset reads."""
    if set(sections) != set(vocabulary.names):
        raise ValueError(
            f"chart sections {sorted(sections)} do not match the vocabulary {list(vocabulary.names)}"
        )
    store().set(_chart_key(instance), {name: sections[name] for name in vocabulary.names})
    store().set(_reads_key(instance), 0)


def get_chart(instance: str) -> dict[str, str] | None:
    return store().get(_chart_key(instance))


def reads_used(instance: str) -> int:
    return int(store().get(_reads_key(instance)) or 0)


def unknown_section_message(vocabulary: Sequence[str], requested: object) -> str:
    shown = repr(requested)[:40] if isinstance(requested, str) else type(requested).__name__
    return (
        f"Unknown section {shown}. Valid sections: {', '.join(vocabulary)}. "
        "Call read_chart_section with exactly one of these names."
    )


def describe_tool(vocabulary: ChartVocabulary, max_bytes: int) -> str:
    cap = f" Returns at most {max_bytes} bytes per call." if max_bytes > 0 else ""
    return (
        "Read one section of the current patient's chart, by name. Sections:\n"
        f"{vocabulary.listing()}\n{cap.strip()}"
    )


@tool(name=TOOL_NAME, max_output=0)
def read_chart_section(
    vocabulary: ChartVocabulary,
    instance: str = "chart",
    max_bytes: int = DEFAULT_MAX_SECTION_BYTES,
    max_reads: int = DEFAULT_MAX_READS,
) -> Tool:
    """Read one chart section of the current sample (the chart ``put_chart(…, instance)`` stored).

    ``max_output=0`` turns off Inspect's own output truncation: the cap here is ``max_bytes``.
    """
    names = vocabulary.names

    async def execute(section: str) -> str:
        """Read one section of the current patient's chart.

        Args:
          section: The section name, one of the listed sections (e.g. "procedures").
        """
        chart = get_chart(instance)
        if chart is None:
            raise RuntimeError(f"no chart stored for '{instance}': run the setup solver first")
        used = reads_used(instance)
        if used >= max_reads:
            raise ToolError(
                f"Read limit reached ({max_reads} chart reads in this run). "
                "Give your final answer now with the submit tool."
            )
        store().set(_reads_key(instance), used + 1)
        resolved = resolve_section(section, names)
        if resolved is None:
            raise ToolError(unknown_section_message(names, section))
        return cap_text(chart[resolved], max_bytes, resolved)

    return execute


def chart_tool(
    vocabulary: ChartVocabulary,
    instance: str = "chart",
    max_bytes: int = DEFAULT_MAX_SECTION_BYTES,
    max_reads: int = DEFAULT_MAX_READS,
) -> Tool:
    """``read_chart_section`` with its description listing this vocabulary's sections."""
    base = read_chart_section(vocabulary, instance, max_bytes, max_reads)
    return ToolDef(
        base,
        name=TOOL_NAME,
        description=describe_tool(vocabulary, max_bytes),
        parameters={"section": "The section name, one of: " + ", ".join(vocabulary.names)},
    ).as_tool()


@solver
def chart_setup(
    vocabulary: ChartVocabulary, instance: str = "chart", metadata_key: str = "chart_sections"
) -> Solver:
    """Setup solver: put the sample's chart (``metadata[metadata_key]``) into the store."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        put_chart(state.metadata[metadata_key], vocabulary, instance)
        return state

    return solve
