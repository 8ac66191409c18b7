"""Progress of long ``escbench`` commands on stderr: a rich bar on a terminal, a line per step otherwise.

Off unless a command turns it on (:func:`enable`), so library calls and tests stay quiet; stdout
keeps only the command's results. ``rich`` comes with Inspect.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
_enabled = False


def enable(on: bool = True) -> None:
    """Show progress from now on in this process (the CLI commands call this)."""
    global _enabled
    _enabled = on


def enabled() -> bool:
    return _enabled


def note(message: str) -> None:
    """One line about a step that has no count (e.g. "reading 12 logs")."""
    if _enabled:
        print(message, file=sys.stderr, flush=True)


def steps(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    """Yield ``items``; after each, advance a bar (terminal) or print ``description: i/n`` (otherwise:
    every step of a short loop, about every 5 % of a long one, and the last)."""
    if not _enabled:
        yield from items
        return
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import Progress

        # a piped stdout stays the command's own; on a terminal, prints go above the bar
        same_terminal = sys.stdout.isatty()
        with Progress(
            console=Console(stderr=True), redirect_stdout=same_terminal, redirect_stderr=same_terminal
        ) as bar:
            task = bar.add_task(description, total=total)
            for item in items:
                yield item
                bar.advance(task)
        return
    started = time.perf_counter()
    every = max(1, (total or 0) // 20)
    for count, item in enumerate(items, 1):
        yield item
        if count % every and count != total:
            continue
        print(
            f"{description}: {count}/{total if total is not None else '?'} "
            f"({time.perf_counter() - started:.1f} s)",
            file=sys.stderr,
            flush=True,
        )
