"""The stronger shortcut audit: every content-free policy stays within its bounds, and a planted
leak of each cue kind (summary timing, absence form and position, late-message punctuation, a
variant-specific word) is caught.

Each planted-leak test first neutralises the cue in the corpus (the control: the audit finds no
such signal), then plants it, and asserts the audit flags it — so the test fails if the audit
stops reading that kind of cue.
"""

from __future__ import annotations

import re

import pytest

from escbench_inspect.analysis.shortcuts import (
    PolicyResult,
    audit,
    breaches,
    full_audit,
    signal_words,
    summary_table,
)
from escbench_inspect.analysis.surface import CLOCK, DATE, surface_features
from escbench_inspect.datasets.assembly import default_seeds, iter_episodes
from escbench_inspect.datasets.minimal_pairs import absence_pattern
from escbench_inspect.datasets.render import render_blocks
from escbench_inspect.datasets.schema import Block, BlockKind, Episode, Variant

SEEDS = default_seeds()
EPISODES = list(iter_episodes(SEEDS))
FULL_CORPUS = len(SEEDS) == 40


def _rewrite(episodes: list[Episode], edit) -> list[Episode]:
    """Apply ``edit(episode, kind, text) -> text`` to every block of every episode."""
    out = []
    for episode in episodes:
        blocks = tuple(Block(kind=b.kind, text=edit(episode, b.kind, b.text)) for b in episode.blocks)
        out.append(episode.model_copy(update={"blocks": blocks}))
    return out


def _found(results: list[PolicyResult], variant: str) -> float:
    """The best F1 with which any policy singles out ``variant``."""
    return max(r.variant_f1(variant) for r in results)


def _planted_audit(episodes: list[Episode], group: str | None, weak: bool = False) -> list[PolicyResult]:
    groups = () if group is None else (group,)
    return audit(episodes, fits=("dev",), groups=groups, weak_reading=weak)


def _strip_times(_: Episode, __: BlockKind, text: str) -> str:
    return CLOCK.sub("", DATE.sub("", text))


def test_planted_summary_timing_leak_is_caught() -> None:
    """Stale summaries days older and without a clock time; late-risk messages stamped later."""
    neutral = _rewrite(EPISODES, _strip_times)

    def plant(episode: Episode, kind: BlockKind, text: str) -> str:
        if kind is BlockKind.SETTING:
            return text + " Shift date 2026-01-10, 07:00."
        if kind is BlockKind.SUMMARY:
            stale = episode.variant is Variant.STALE
            return text + (" Generated 2026-01-06." if stale else " Generated 2026-01-10 08:10.")
        if kind is BlockKind.LATE_MESSAGE:
            late = episode.variant is Variant.LATE_RISK
            return text + (" Sent 09:55." if late else " Sent 08:20.")
        return text

    control = _planted_audit(neutral, "dates and clock times")
    planted = _planted_audit(_rewrite(neutral, plant), "dates and clock times")
    assert not breaches(control)
    assert _found(control, "stale") < 0.5
    assert _found(planted, "stale") >= 0.9 and _found(planted, "late_risk") >= 0.9
    assert breaches(planted)


def test_planted_absence_form_leak_is_caught() -> None:
    """The material gap a long mid-line bracketed clause, the immaterial blank a short field line."""
    pattern = absence_pattern()
    neutral = _rewrite(EPISODES, lambda e, k, t: pattern.sub("withheld", t))

    def plant(episode: Episode, kind: BlockKind, text: str) -> str:
        if kind is not BlockKind.NEW_INFORMATION:
            return text
        if episode.variant is Variant.MISSING:
            return (
                text + "\nScreening [not asked; the questions were skipped at intake] per the form, reviewed."
            )
        return text + "\nScreening: not recorded."

    control = _planted_audit(neutral, "absence form and position")
    planted = _planted_audit(_rewrite(neutral, plant), "absence form and position")
    assert not breaches(control)
    assert _found(control, "missing") < 0.5
    assert _found(planted, "missing") >= 0.9
    assert breaches(planted)


ROUTINE = "Message from the front desk at 09:10: thanks, the appointment is confirmed for Tuesday"


def _same_late_message(episode: Episode, kind: BlockKind, text: str) -> str:
    return ROUTINE + "." if kind is BlockKind.LATE_MESSAGE else text


def test_planted_late_message_punctuation_leak_is_caught() -> None:
    """Routine late messages end in a question mark, red-flag ones never do."""
    neutral = _rewrite(EPISODES, _same_late_message)

    def plant(episode: Episode, kind: BlockKind, text: str) -> str:
        if kind is BlockKind.LATE_MESSAGE and episode.variant is not Variant.LATE_RISK:
            return ROUTINE + "?"
        return text

    control = _planted_audit(neutral, "late-message form")
    planted = _planted_audit(_rewrite(neutral, plant), "late-message form")
    assert not breaches(control)
    assert _found(planted, "late_risk") >= 0.9
    assert breaches(planted)


def test_planted_variant_word_is_caught_by_the_weak_reading() -> None:
    """A word only late-risk messages use is found by the bag of words, and named."""
    neutral = _rewrite(EPISODES, _same_late_message)

    def plant(episode: Episode, kind: BlockKind, text: str) -> str:
        if kind is BlockKind.LATE_MESSAGE and episode.variant is Variant.LATE_RISK:
            return ROUTINE + " now."
        return text

    planted_episodes = _rewrite(neutral, plant)
    control = _planted_audit(neutral, None, weak=True)
    planted = _planted_audit(planted_episodes, None, weak=True)
    assert _found(control, "late_risk") < 0.5
    assert _found(planted, "late_risk") >= 0.8
    assert breaches(planted, families=("weak_reading",))
    top = [token for token, _, _ in signal_words(planted_episodes)["late_risk"]]
    assert top[0] == "late:now"


def test_surface_features_read_dates_times_punctuation_and_absence_position() -> None:
    episode = next(e for e in EPISODES if e.variant is Variant.CLEAN)
    features = surface_features(render_blocks(episode))
    text = episode.block(BlockKind.LATE_MESSAGE) or ""
    assert features["stat:late:question"] == text.count("?")
    assert features["stat:late:comma"] == text.count(",")
    assert features["stat:late:times"] == len(re.findall(r"\b\d{1,2}:\d\d\b", text))
    assert features["abs:count"] >= 1  # every episode carries at least one blank


@pytest.mark.slow  # forty refits per policy: minutes on a shared 2-core machine
@pytest.mark.skipif(not FULL_CORPUS, reason="full 40-seed corpus not present")
def test_every_content_free_policy_meets_the_bounds_dev_and_leave_one_seed_out() -> None:
    results = full_audit()
    assert {r.fit for r in results if r.family == "surface"} == {"dev", "loso"}
    assert not breaches(results), summary_table(results) + "\n" + "\n".join(breaches(results))


def test_every_chart_summary_carries_a_date_and_a_clock_time() -> None:
    """Staleness is read from events, not from a summary without a time: every summary (current
    or outdated) is stamped with a date and a time."""
    unstamped = [
        e.episode_id
        for e in EPISODES
        if not (
            DATE.search(e.block(BlockKind.SUMMARY) or "") and CLOCK.search(e.block(BlockKind.SUMMARY) or "")
        )
    ]
    assert not unstamped, unstamped
