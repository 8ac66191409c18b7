"""Helpers of the review tests: a review page's form fields and answers."""

from __future__ import annotations

import re

from escbench_inspect.review.items import Catalog


def form_fields(html: str) -> dict[str, str]:
    """The hidden csrf, round and submission fields of a review page."""
    return {
        name: re.search(rf'name="{name}" value="([^"]*)"', html).group(1)
        for name in ("csrf", "round", "submission")
    }


def seed_answers(catalog: Catalog, seed_id: str, action: str = "Answer") -> dict[str, list[str]]:
    return {f"actions:{e.episode_id}": [action] for e in catalog.seed_episodes[seed_id]}
