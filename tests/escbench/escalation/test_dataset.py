"""Dataset invariants: determinism, pairing, no label leakage, valid references, corpus counts."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest
import regex

from escbench_inspect.datasets.assembly import default_seeds, iter_episodes
from escbench_inspect.datasets.escalation import escalation_dataset, select_episodes
from escbench_inspect.datasets.export import episodes_jsonl
from escbench_inspect.datasets.schema import Action, BlockKind, Episode, TaskClass, Variant

SEEDS = default_seeds()
EPISODES = list(iter_episodes(SEEDS))
BY_ID = {e.episode_id: e for e in EPISODES}
FULL_CORPUS = len(SEEDS) == 40
LEAK = regex.compile(r"\b(variant|perturb\w*|stale|late[ _-]?risk|clean|missing|conflict\w*)\b", regex.I)


def _clean_twin(episode: Episode) -> Episode:
    return BY_ID[f"{episode.seed_id}__{episode.surface}__clean"]


def test_build_is_byte_identical_in_process_and_across_processes() -> None:
    first = episodes_jsonl("all")
    assert first == episodes_jsonl("all")
    code = "from escbench_inspect.datasets.export import episodes_jsonl; print(episodes_jsonl('all'), end='')"
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    ).stdout
    assert other == first


def test_each_seed_yields_ten_episodes_with_unique_ids() -> None:
    counts = Counter(e.seed_id for e in EPISODES)
    assert set(counts.values()) == {10}
    assert len(BY_ID) == len(EPISODES) == 10 * len(SEEDS)


@pytest.mark.parametrize(
    "episode", [e for e in EPISODES if e.variant is not Variant.CLEAN], ids=lambda e: e.episode_id
)
def test_variant_differs_from_clean_only_in_its_hook_blocks(episode: Episode) -> None:
    clean = {b.kind: b.text for b in _clean_twin(episode).blocks}
    blocks = {b.kind: b.text for b in episode.blocks}
    assert list(blocks) == list(clean) == list(BlockKind)  # same blocks, same order, always
    seed = next(s for s in SEEDS if s.id == episode.seed_id)
    changed = {k for k in clean if clean[k] != blocks[k]}
    missing = seed.hooks.missing
    expected = {
        Variant.MISSING: {BlockKind(missing.block), BlockKind(missing.immaterial.block)},
        Variant.CONFLICT: {BlockKind(seed.hooks.conflict.block)},
        Variant.STALE: {BlockKind.SUMMARY},
        Variant.LATE_RISK: {BlockKind.LATE_MESSAGE},
    }[episode.variant]
    assert changed == expected


@pytest.mark.parametrize("sample", list(escalation_dataset("all")), ids=lambda s: str(s.id))
def test_variant_label_never_reaches_the_model(sample) -> None:
    assert LEAK.search(sample.input) is None, LEAK.search(sample.input)


def test_reference_sets_are_valid_and_surfaces_share_labels() -> None:
    for episode in EPISODES:
        assert 1 <= len(episode.acceptable_actions) <= 2
        assert all(isinstance(a, Action) for a in episode.acceptable_actions)
        twin = BY_ID[
            episode.episode_id.replace(
                f"__{episode.surface}__", "__b__" if episode.surface == "a" else "__a__"
            )
        ]
        assert twin.acceptable_actions == episode.acceptable_actions
        assert twin.escalation_required == episode.escalation_required


def test_late_risk_always_requires_escalation_and_stale_mirrors_clean() -> None:
    for episode in EPISODES:
        if episode.variant is Variant.LATE_RISK:
            assert episode.acceptable_actions == (Action.ESCALATE,)
        if episode.variant is Variant.STALE:
            assert episode.acceptable_actions == _clean_twin(episode).acceptable_actions


def test_split_is_by_seed() -> None:
    dev = {e.seed_id for e in select_episodes("dev")}
    test = {e.seed_id for e in select_episodes("test")}
    assert dev and test and not dev & test
    assert len(select_episodes("dev")) + len(select_episodes("test")) == len(EPISODES)


@pytest.mark.skipif(not FULL_CORPUS, reason="full 40-seed corpus not present")
def test_corpus_counts_match_the_paper() -> None:
    assert len(EPISODES) == 400
    assert Counter(e.task_class for e in EPISODES) == {c: 100 for c in TaskClass}
    dev = [e for e in EPISODES if e.split == "dev"]
    test = [e for e in EPISODES if e.split == "test"]
    assert len(dev) == 80 and len(test) == 320
    assert Counter(e.task_class for e in dev) == {c: 20 for c in TaskClass}
    escalate_all = sum(e.escalation_required for e in EPISODES)
    escalate_test = sum(e.escalation_required for e in test)
    assert abs(escalate_all - 130) <= 10, escalate_all
    assert abs(escalate_test - 100) <= 10, escalate_test


@pytest.mark.skipif(not FULL_CORPUS, reason="full 40-seed corpus not present")
@pytest.mark.parametrize(
    ("classes", "limit", "seeds", "n_classes"),
    [(tuple(TaskClass), 10, 10, 4), ((TaskClass.TRIAGE,), 20, 8, 1), ((TaskClass.TRIAGE,), 5, 5, 1)],
)
def test_any_prefix_spans_many_seeds_every_class_and_every_variant(
    classes: tuple[TaskClass, ...], limit: int, seeds: int, n_classes: int
) -> None:
    """``--limit N`` must not take one seed of one class (stderr would be 0 with one cluster)."""
    prefix = select_episodes("test", classes)[:limit]
    assert len({e.seed_id for e in prefix}) == seeds
    assert len({e.task_class for e in prefix}) == n_classes
    assert {e.variant for e in prefix} == set(Variant)


def test_interleaved_order_is_a_permutation_of_the_corpus() -> None:
    ordered = select_episodes("all")
    assert sorted(e.episode_id for e in ordered) == sorted(BY_ID)
