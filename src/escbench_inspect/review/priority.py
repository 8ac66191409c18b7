"""Order items by how many evaluated models disagree with the reference (from ``.eval`` logs)."""

from __future__ import annotations

from collections import Counter

from escbench_inspect.review.items import Catalog


def model_disagreements(logs: list[str], catalog: Catalog) -> dict[str, int]:
    """Per episode id: the number of scored decisions (model x prompt x epoch) outside the reference set.

    Only the models' own decisions count (not controller overrides); errored samples do not count.
    """
    from escbench_inspect.analysis.logs import load_decisions

    decisions = load_decisions(logs).decisions
    if decisions.empty:
        return {}
    own = decisions[(decisions["controller"] == "model") & ~decisions["errored"].astype(bool)]
    wrong = own[own["correct"] == 0]
    counts = Counter(str(i) for i in wrong["id"])
    return {item_id: n for item_id, n in counts.items() if item_id in catalog.items}
