"""Content-free surface features of a rendered episode, read from the text alone.

What a model could use without understanding the clinical content, grouped so the audit can say
which kind of cue carries a signal:

- ``stat:<block>:<name>`` — per-block surface statistics: characters, words, lines, digits, capitals,
  bracketed fields, absence phrases, dates, clock times and the punctuation ``? " ; , % ( :``;
- ``time:<name>`` — date and clock-time arithmetic between blocks: whether the chart summary carries a
  date and a time, its age against the newest date elsewhere, its time against the latest clock time
  elsewhere, and the late message's timestamp against the latest time before it;
- ``abs:<name>`` — the form of absence phrases: the length of the clause or bracketed field around
  each, how far it sits from its line's start and end, and the length of its line.

Dates are ISO ``YYYY-MM-DD`` (the corpus's format); clock times are 24-hour ``HH:MM``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np
import regex

from escbench_inspect.datasets.minimal_pairs import BRACKETED, absence_pattern
from escbench_inspect.datasets.render import BLOCK_HEADERS, HEADER_LINE
from escbench_inspect.datasets.schema import BlockKind

BLOCK_KEYS: dict[str, str] = {
    BLOCK_HEADERS[BlockKind.SETTING]: "setting",
    BLOCK_HEADERS[BlockKind.EARLIER_RECORD]: "earlier",
    BLOCK_HEADERS[BlockKind.NEW_INFORMATION]: "new",
    BLOCK_HEADERS[BlockKind.SUMMARY]: "summary",
    BLOCK_HEADERS[BlockKind.REQUEST]: "request",
    BLOCK_HEADERS[BlockKind.LATE_MESSAGE]: "late",
}
HEADER_WORDS = regex.compile(r"^=== (.+) ===$", regex.MULTILINE)
DATE = regex.compile(r"\b(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b")
CLOCK = regex.compile(r"(?<![\d:/.,-])([01]?\d|2[0-3]):([0-5]\d)(?!\d|:\d)")
PUNCTUATION: dict[str, str] = {"?": "question", '"': "quote", ";": "semicolon", ",": "comma"}
PUNCTUATION |= {"%": "percent", "(": "paren", ":": "colon", "!": "exclamation", "-": "dash"}
# Where an absence phrase sits: the enclosing clause runs to the nearest of these on each side.
CLAUSE_EDGE = regex.compile(r"[;,.()\[\]\n]")


def split_blocks(text: str) -> dict[str, str]:
    """Block key -> body of a rendered transcript."""
    parts = HEADER_LINE.split(text)
    headers = HEADER_WORDS.findall(text)
    return {
        BLOCK_KEYS[h]: body.strip() for h, body in zip(headers, parts[1:], strict=True) if h in BLOCK_KEYS
    }


def _dates(text: str) -> list[dt.date]:
    found = []
    for m in DATE.finditer(text):
        try:
            found.append(dt.date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:  # 2026-02-30 and the like: not a date
            continue
    return found


def _clock_minutes(text: str) -> list[int]:
    return [int(m[1]) * 60 + int(m[2]) for m in CLOCK.finditer(text)]


def block_statistics(key: str, body: str) -> dict[str, float]:
    stats = {
        "chars": len(body),
        "words": len(body.split()),
        "lines": body.count("\n") + 1,
        "digits": sum(c.isdigit() for c in body),
        "capitals": sum(c.isupper() for c in body),
        "brackets": len(BRACKETED.findall(body)),
        "absence": len(absence_pattern().findall(body)),
        "dates": len(_dates(body)),
        "times": len(_clock_minutes(body)),
        "sentences": len(regex.findall(r"[.!?](?:\s|$)", body)),
        "mean word length": len(body) / max(1, len(body.split())),
    }
    stats |= {name: body.count(char) for char, name in PUNCTUATION.items()}
    return {f"stat:{key}:{name}": float(value) for name, value in stats.items()}


def timing_features(blocks: dict[str, str]) -> dict[str, float]:
    """Date and clock-time arithmetic between the chart summary, the late message and the rest."""
    before = [blocks.get(k, "") for k in ("setting", "earlier", "new", "request")]
    dates_before = [d for body in before for d in _dates(body)]
    times_before = [t for body in before for t in _clock_minutes(body)]
    newest = max(dates_before) if dates_before else None
    latest = max(times_before) if times_before else None
    features: dict[str, float] = {}
    for key in ("summary", "late"):
        dates, times = _dates(blocks.get(key, "")), _clock_minutes(blocks.get(key, ""))
        features[f"time:{key} has date"] = float(bool(dates))
        features[f"time:{key} has time"] = float(bool(times))
        age = (newest - dates[0]).days if dates and newest else 0
        features[f"time:{key} days before newest date"] = float(age)
        features[f"time:{key} newer than every date"] = float(bool(dates and newest and dates[0] > newest))
        features[f"time:{key} more than 1 day old"] = float(age > 1)
        features[f"time:{key} hour"] = times[0] / 60 if times else 0.0
        gap = (times[0] - latest) / 60 if times and latest is not None else 0.0
        features[f"time:{key} hours after latest time"] = gap
        features[f"time:{key} before latest time"] = float(gap < 0)
    features["time:summary dated on the newest date"] = float(
        bool(newest and _dates(blocks.get("summary", "")) and _dates(blocks["summary"])[0] == newest)
    )
    features["time:dates before"] = float(len(set(dates_before)))
    features["time:span days before"] = float((newest - min(dates_before)).days) if dates_before else 0.0
    return features


def absence_features(blocks: dict[str, str]) -> dict[str, float]:
    """Length and position of every absence phrase, aggregated over the episode."""
    pattern = absence_pattern()
    rows: list[tuple[float, ...]] = []
    for body in blocks.values():
        for match in pattern.finditer(body):
            start = body.rfind("\n", 0, match.start()) + 1
            end = body.find("\n", match.end())
            end = len(body) if end < 0 else end
            line = body[start:end]
            left = [m.end() for m in CLAUSE_EDGE.finditer(body, start, match.start())]
            right = CLAUSE_EDGE.search(body, match.end(), end)
            clause = (right.start() if right else end) - (left[-1] if left else start)
            bracket = next(
                (m for m in BRACKETED.finditer(line) if m.start() <= match.start() - start < m.end()), None
            )
            rows.append(
                (
                    float(match.end() - match.start()),
                    float(match.start() - start),
                    float(end - match.end()),
                    float(len(line)),
                    float(clause),
                    float(len(bracket.group(0)) if bracket else 0),
                    float(end - match.end() <= 2),
                    float(match.start() - start <= 40),
                )
            )
    names = ("phrase chars", "chars before", "chars after", "line chars", "clause chars", "bracket chars")
    names += ("ends its line", "near line start")
    features: dict[str, float] = {"abs:count": float(len(rows))}
    values = np.array(rows) if rows else np.zeros((1, len(names)))
    for j, name in enumerate(names):
        features[f"abs:max {name}"] = float(values[:, j].max())
        features[f"abs:min {name}"] = float(values[:, j].min())
        features[f"abs:mean {name}"] = float(values[:, j].mean())
    return features


def surface_features(text: str) -> dict[str, float]:
    blocks = split_blocks(text)
    features: dict[str, float] = {}
    for key in BLOCK_KEYS.values():
        features |= block_statistics(key, blocks.get(key, ""))
    return features | timing_features(blocks) | absence_features(blocks)


def surface_matrix(texts: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    rows = [surface_features(t) for t in texts]
    names = sorted({k for r in rows for k in r})
    return np.array([[r.get(n, 0.0) for n in names] for r in rows], dtype=float), names


# Feature groups the audit fits separately: which cue carries a signal.
GROUPS: dict[str, tuple[str, ...]] = {
    "dates and clock times": ("time:",),
    "absence form and position": ("abs:",),
    "late-message form": ("stat:late:", "time:late "),
    "all surface features": ("stat:", "time:", "abs:"),
}


def group_columns(names: Sequence[str], group: str) -> list[int]:
    prefixes = GROUPS[group]
    return [i for i, n in enumerate(names) if n.startswith(prefixes)]
