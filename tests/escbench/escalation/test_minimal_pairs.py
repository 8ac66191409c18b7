"""Minimal pairs: a policy that never reads the clinical content must not score well.

Every variant of a seed shares one block layout; the shortcut audit's content-free baselines,
fitted on dev, stay near the best constant policy on test; the dev split is representative.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import regex

from escbench_inspect.analysis.shortcuts import (
    DecisionTree,
    LogisticRegression,
    NaiveBayes,
    audit,
    best_content_free,
    breaches,
    default_audit,
    layout_features,
)
from escbench_inspect.datasets.assembly import default_seeds, iter_episodes
from escbench_inspect.datasets.minimal_pairs import layout
from escbench_inspect.datasets.render import BLOCK_HEADERS, render_blocks
from escbench_inspect.datasets.schema import Block, BlockKind, Variant
from escbench_inspect.datasets.splits import mix_distance, representative_dev_seeds

SEEDS = default_seeds()
EPISODES = list(iter_episodes(SEEDS))
FULL_CORPUS = len(SEEDS) == 40
VARIANT_WORDS = regex.compile(r"variant|stale|missing|conflict|late|risk|clean|perturb", regex.I)


def _by_pair() -> dict[tuple[str, str], dict[Variant, object]]:
    pairs: dict[tuple[str, str], dict[Variant, object]] = {}
    for episode in EPISODES:
        pairs.setdefault((episode.seed_id, episode.surface), {})[episode.variant] = episode
    return pairs


@pytest.mark.parametrize("key", sorted(_by_pair()), ids=lambda k: f"{k[0]}__{k[1]}")
def test_every_variant_of_a_seed_shares_one_block_layout(key: tuple[str, str]) -> None:
    episodes = _by_pair()[key]
    shapes = {variant: layout(episode) for variant, episode in episodes.items()}
    assert len(set(shapes.values())) == 1, shapes
    headers = {
        tuple(regex.findall(r"^=== .+ ===$", render_blocks(e), flags=regex.M)) for e in episodes.values()
    }
    assert len(headers) == 1


def test_headers_never_name_the_variant_and_every_episode_has_all_blocks() -> None:
    assert not any(VARIANT_WORDS.search(h) for h in BLOCK_HEADERS.values())
    assert all(tuple(b.kind for b in e.blocks) == tuple(BlockKind) for e in EPISODES)


@pytest.mark.skipif(not FULL_CORPUS, reason="full 40-seed corpus not present")
def test_layout_only_policies_are_no_better_than_a_constant_policy() -> None:
    """Layout and surface-statistics policies fitted on dev (the leave-one-seed-out fits are in
    test_shortcut_audit.py) stay within the bounds."""
    results = default_audit()
    assert {r.family for r in results} >= {"layout", "surface"}
    assert not breaches(results), breaches(results)


@pytest.mark.skipif(not FULL_CORPUS, reason="full 40-seed corpus not present")
def test_best_content_free_row_is_one_of_the_audited_policies() -> None:
    results = default_audit()
    best = best_content_free(results)
    assert best in results
    assert best.utility_5 == max(r.utility_5 for r in results)


def test_audit_catches_a_planted_layout_shortcut() -> None:
    """If late-risk episodes carried one extra paragraph, the layout policies would find it."""
    planted = []
    for episode in EPISODES:
        if episode.variant is Variant.LATE_RISK:
            blocks = tuple(
                Block(kind=b.kind, text=b.text + "\n\nSent from my phone.")
                if b.kind is BlockKind.LATE_MESSAGE
                else b
                for b in episode.blocks
            )
            episode = episode.model_copy(update={"blocks": blocks})
        planted.append(episode)
    results = audit(planted, fits=("dev",), groups=(), weak_reading=False)  # the layout rows
    tree = next(r for r in results if r.policy == "layout tree → action")
    best_constant = max(r.utility_5 for r in results if r.family == "constant")
    late = [e for e in planted if e.split == "test" and e.variant is Variant.LATE_RISK]
    assert tree.specificity == 1.0 and tree.sensitivity == len(late) / sum(
        e.escalation_required for e in planted if e.split == "test"
    ), tree  # every late-risk episode found from its layout alone
    assert tree.utility_5 > best_constant + 0.20  # so the bound test would fail


@pytest.mark.skipif(not FULL_CORPUS, reason="full 40-seed corpus not present")
def test_dev_split_follows_the_representative_rule_and_matches_test() -> None:
    dev_ids = representative_dev_seeds(SEEDS)
    assert {s.id for s in SEEDS if s.split == "dev"} == dev_ids
    assert Counter(s.task_class for s in SEEDS if s.id in dev_ids) == {
        c: 2 for c in {s.task_class for s in SEEDS}
    }
    dev = [s for s in SEEDS if s.split == "dev"]
    test = [s for s in SEEDS if s.split == "test"]
    # Escalation share per variant: dev must not teach a rule test contradicts.
    for variant in Variant:
        share = [
            np.mean([s.reference.for_variant(variant).acceptable == ("Escalate",) for s in group])
            for group in (dev, test)
        ]
        assert abs(share[0] - share[1]) <= 0.15, (variant, share)
    assert mix_distance(dev, test) <= 1.0


def test_layout_features_read_only_shape() -> None:
    episode = EPISODES[0]
    features = layout_features(render_blocks(episode))
    assert features["blocks"] == len(BlockKind)
    assert all(features[f"has[{h}]"] == 1.0 for h in BLOCK_HEADERS.values())


def test_classifiers_learn_a_separable_signal() -> None:
    x = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]] * 2)
    y = np.array(["a", "a", "a", "b", "b", "b"] * 2)
    assert (DecisionTree(max_depth=2, min_leaf=1).fit(x, y).predict(x) == y).all()
    assert (LogisticRegression().fit(x, y).predict(x) == y).all()
    texts = ["chest pain now", "pain chest", "refill please", "please refill thanks"]
    labels = np.array(["Escalate", "Escalate", "Answer", "Answer"])
    assert (NaiveBayes(0.5).fit(texts, labels).predict(["crushing chest pain"]) == ["Escalate"]).all()
