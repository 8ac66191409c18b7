"""From stored reviews to agreement statistics, contested items and adjudicated labels."""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from escbench_inspect.review.items import EPISODE, TUPLE, Catalog, ReviewItem, action_label
from escbench_inspect.review.stats import cluster_bootstrap, cohen_kappa, fleiss_kappa, krippendorff_alpha
from escbench_inspect.review.store import ADJUDICATION, BLINDED

LABELS_FORMAT = "escbench-labels/1"
BREAKDOWNS = {EPISODE: ("class", "variant"), TUPLE: ("family",)}


@dataclass(frozen=True)
class Answer:
    reviewer: str
    item: ReviewItem
    round: int
    label: str | None  # None: marked ambiguous without a label
    ambiguous: bool
    comment: str
    confidence: int | None
    time_ms: int


def answer_label(item: ReviewItem, answer: dict[str, Any], round: int) -> str | None:
    """The label an answer gives: in adjudication, agreeing means the reference."""
    if round == ADJUDICATION and answer.get("agree"):
        return item.reference
    if item.kind == EPISODE:
        actions = answer.get("actions") or []
        return action_label(actions) if actions else None
    return answer.get("direction") or None


def current_answers(rows: list[dict[str, Any]], catalog: Catalog) -> tuple[list[Answer], int]:
    """Each reviewer's latest answer per item and round for the item's current content; stale count."""
    latest: dict[tuple[str, str, int], Answer] = {}
    stale = 0
    for row in rows:
        item = catalog.items.get(row["item_id"])
        if item is None or row["content_hash"] != item.content_hash:
            stale += 1
            continue
        answer = row["answer"]
        latest[(row["reviewer"], item.item_id, row["round"])] = Answer(
            reviewer=row["reviewer"],
            item=item,
            round=row["round"],
            label=answer_label(item, answer, row["round"]),
            ambiguous=bool(answer.get("ambiguous")),
            comment=str(answer.get("comment") or ""),
            confidence=answer.get("confidence"),
            time_ms=int(row["time_ms"]),
        )
    return list(latest.values()), stale


def _finite(value: float) -> float | None:
    return None if value is None or math.isnan(value) else round(float(value), 4)


def _between(answers: list[Answer], n_boot: int, seed: int) -> dict[str, Any]:
    """Fleiss (items every reviewer labelled) and Krippendorff (items with >= 2 labels), with CIs."""
    per_item: dict[str, list[str]] = {}
    clusters: dict[str, str] = {}
    for a in answers:
        if a.label is not None:
            per_item.setdefault(a.item.item_id, []).append(a.label)
            clusters[a.item.item_id] = a.item.group
    reviewers = {a.reviewer for a in answers if a.label is not None}
    ids = sorted(i for i, labels in per_item.items() if len(labels) >= 2)
    complete = [i for i in ids if len(per_item[i]) == len(reviewers)]
    alpha_units = [per_item[i] for i in ids]
    fleiss_units = [per_item[i] for i in complete]
    alpha = krippendorff_alpha(alpha_units) if alpha_units else math.nan
    fleiss = fleiss_kappa(fleiss_units) if fleiss_units and len(reviewers) >= 2 else math.nan
    alpha_ci = cluster_bootstrap(alpha_units, [clusters[i] for i in ids], krippendorff_alpha, n_boot, seed)
    fleiss_ci = (
        cluster_bootstrap(fleiss_units, [clusters[i] for i in complete], fleiss_kappa, n_boot, seed)
        if fleiss_units and len(reviewers) >= 2
        else (math.nan, math.nan)
    )
    return {
        "reviewers": len(reviewers),
        "items_alpha": len(ids),
        "items_fleiss": len(complete),
        "krippendorff_alpha": _finite(alpha),
        "krippendorff_alpha_ci": [_finite(v) for v in alpha_ci],
        "fleiss_kappa": _finite(fleiss),
        "fleiss_kappa_ci": [_finite(v) for v in fleiss_ci],
        "clusters": len({clusters[i] for i in ids}),
    }


def _versus_reference(answers: list[Answer]) -> dict[str, Any]:
    labelled = [a for a in answers if a.label is not None]
    pairs = [(a.label, a.item.reference) for a in labelled]
    return {
        "items": len(pairs),
        "cohen_kappa": _finite(cohen_kappa([p[0] for p in pairs], [p[1] for p in pairs])),
        "agreement": _finite(sum(x == y for x, y in pairs) / len(pairs)) if pairs else None,
    }


def agreement_stats(
    rows: list[dict[str, Any]], catalog: Catalog, n_boot: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """Blinded-round agreement per kind: each reviewer vs the reference, between reviewers, breakdowns."""
    answers, stale = current_answers(rows, catalog)
    blinded = [a for a in answers if a.round == BLINDED]
    result: dict[str, Any] = {
        "reviews": len(rows),
        "stale_reviews": stale,
        "blinded_answers": len(blinded),
        "adjudications": sum(a.round == ADJUDICATION for a in answers),
        "kinds": {},
    }
    for kind in (EPISODE, TUPLE):
        mine = [a for a in blinded if a.item.kind == kind]
        if not mine:
            continue
        section: dict[str, Any] = {
            "reviewers": {
                name: _versus_reference([a for a in mine if a.reviewer == name])
                for name in sorted({a.reviewer for a in mine})
            },
            "between": _between(mine, n_boot, seed),
            "ambiguous": sum(a.ambiguous for a in mine),
            "median_seconds": _finite(float(sorted(a.time_ms for a in mine)[len(mine) // 2]) / 1000),
            "by": {},
        }
        for attribute in BREAKDOWNS[kind]:
            values = sorted({a.item.attributes[attribute] for a in mine})
            section["by"][attribute] = {
                value: {
                    "versus_reference": _versus_reference(subset),
                    "between": _between(subset, n_boot, seed),
                }
                for value in values
                for subset in [[a for a in mine if a.item.attributes[attribute] == value]]
            }
        result["kinds"][kind] = section
    result["contested"] = contested_items(answers)
    return result


def contested_items(answers: list[Answer]) -> list[dict[str, Any]]:
    """Items where reviewers disagree with each other or with the reference, or found it ambiguous."""
    by_item: dict[str, list[Answer]] = {}
    for a in answers:
        by_item.setdefault(a.item.item_id, []).append(a)
    contested = []
    for item_id, mine in by_item.items():
        item = mine[0].item
        blinded = Counter(a.label for a in mine if a.round == BLINDED and a.label is not None)
        adjudicated = Counter(a.label for a in mine if a.round == ADJUDICATION and a.label is not None)
        ambiguous = sum(a.ambiguous for a in mine)
        against = sum(n for label, n in (adjudicated or blinded).items() if label != item.reference)
        if len(blinded) > 1 or against or ambiguous:
            contested.append(
                {
                    "item_id": item_id,
                    "kind": item.kind,
                    "page": item.page,
                    "reference": item.reference,
                    "blinded": dict(blinded),
                    "adjudicated": dict(adjudicated),
                    "ambiguous": ambiguous,
                    "against_reference": against,
                    "comments": sum(bool(a.comment) for a in mine),
                }
            )
    return sorted(contested, key=lambda c: (-c["against_reference"], -len(c["blinded"]), c["item_id"]))


def adjudicated_labels(
    rows: list[dict[str, Any]], catalog: Catalog, adjudicator: str | None = None
) -> list[dict[str, Any]]:
    """One label per item with adjudication answers: the majority, a tie going to ``adjudicator``.

    A tie the adjudicator did not break, or an item every reviewer found ambiguous, keeps the
    reference (``decided_by`` says so). The first line is the provenance record.
    """
    answers, stale = current_answers(rows, catalog)
    final = [a for a in answers if a.round == ADJUDICATION]
    by_item: dict[str, list[Answer]] = {}
    for a in final:
        by_item.setdefault(a.item.item_id, []).append(a)
    labels: list[dict[str, Any]] = [
        {
            "format": LABELS_FORMAT,
            "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "adjudicator": adjudicator,
            "adjudications": len(final),
            "stale_reviews_excluded": stale,
        }
    ]
    for item_id in sorted(by_item):
        mine = by_item[item_id]
        item = mine[0].item
        votes = Counter(a.label for a in mine if a.label is not None)
        top = max(votes.values(), default=0)
        leaders = sorted(label for label, n in votes.items() if n == top)
        tiebreak = next((a.label for a in mine if a.reviewer == adjudicator), None)
        if len(leaders) == 1:
            label, decided_by = leaders[0], "majority"
        elif leaders and tiebreak in leaders:
            label, decided_by = tiebreak, f"adjudicator:{adjudicator}"
        else:
            label = item.reference
            decided_by = "reference (unresolved tie)" if leaders else "reference (all ambiguous)"
        record: dict[str, Any] = {
            "item_id": item_id,
            "kind": item.kind,
            "content_hash": item.content_hash,
            "reference": item.reference,
            "label": label,
            "changed": label != item.reference,
            "decided_by": decided_by,
            "votes": dict(sorted(votes.items())),
            "reviewers": sorted(a.reviewer for a in mine),
            "ambiguous": sum(a.ambiguous for a in mine),
        }
        if item.kind == EPISODE:
            record["acceptable_actions"] = label.split("+")
        else:
            record["expected_direction"] = label
        labels.append(record)
    return labels


def export_rows(rows: list[dict[str, Any]], catalog: Catalog) -> list[dict[str, Any]]:
    """Every stored review, each marked stale when its item's content has changed since."""
    exported = []
    for row in rows:
        item = catalog.items.get(row["item_id"])
        exported.append({**row, "stale": item is None or item.content_hash != row["content_hash"]})
    return exported
