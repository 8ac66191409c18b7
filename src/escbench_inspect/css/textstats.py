"""How templated the charts read: masked-sentence reuse across cases of the same cancer.

A sentence is a line or a '. '-separated clause of a chart; numbers and dates are masked, so two
sentences that differ only in their values count as the same. A chart's *reuse* is the share of its
sentences that appear verbatim (masked) in another chart of the same cancer; its *self-repeat* the
share that appear more than once in the chart itself; ``shared_by_half`` the share found in at least
half of the other charts of the cancer (boilerplate rather than chance overlap).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict

_NUMBER_RE = re.compile(r"\d+(?:[.,/-]\d+)*")
_SPLIT_RE = re.compile(r"(?<=[.;:])\s+|\n")


def masked_sentences(chart: str) -> list[str]:
    parts = (_NUMBER_RE.sub("#", s).strip() for s in _SPLIT_RE.split(chart))
    return [p for p in parts if len(p) > 3]


def masked_sentence_reuse(charts: dict[str, tuple[str, str]]) -> dict[str, float]:
    """``charts``: chart id -> (cancer, text). Mean reuse and self-repeat over the charts (0-1)."""
    sentences = {cid: masked_sentences(text) for cid, (_, text) in charts.items()}
    owners: dict[tuple[str, str], set[str]] = defaultdict(set)
    for cid, (cancer, _) in charts.items():
        for s in set(sentences[cid]):
            owners[(cancer, s)].add(cid)
    per_cancer = Counter(cancer for cancer, _ in charts.values())
    reuse, repeat, common = [], [], []
    for cid, (cancer, _) in charts.items():
        items = sentences[cid]
        if not items:
            continue
        counts = Counter(items)
        reuse.append(sum(len(owners[(cancer, s)]) > 1 for s in items) / len(items))
        half = per_cancer[cancer] / 2
        common.append(sum(len(owners[(cancer, s)]) - 1 >= half for s in items) / len(items))
        repeat.append(sum(counts[s] > 1 for s in items) / len(items))
    return {
        "reuse": statistics.mean(reuse),
        "shared_by_half": statistics.mean(common),
        "self_repeat": statistics.mean(repeat),
    }
