"""The two planted-defect tests every per-round detector module runs (issue 22z): a round lists its mechanisms
-- a module name and what replaces it, or a lexicon entry and what replaces it -- beside the development item
each one carries; these build the parametrized tests that take each mechanism out and check that its item
flips. A module assigns them to its own test names, so its ``pytestmark`` fixtures apply."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest
import regex

from escbench_inspect.controller import detectors
from escbench_inspect.controller.detectors import Lexicon
from escbench_inspect.controller.heldout import HeldoutItem

Fires = Callable[..., bool]  # fires(item_id, lexicon=None): the item's detector's verdict on it
# a pattern that never matches: what replaces a module pattern to take its mechanism out
NEVER = regex.compile(r"(?!)")


def module_mechanism_test(
    items: Mapping[str, HeldoutItem], fires: Fires, table: Sequence[tuple[str, str, object]]
) -> Callable[..., None]:
    """Rows (item id, a name in ``detectors``, what replaces it): the item reads as labelled, and the other
    way once the name is replaced."""

    @pytest.mark.parametrize(("item_id", "name", "replacement"), table, ids=[f"{i}-{n}" for i, n, _ in table])
    def test_each_module_mechanism_carries_its_item(
        item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
    ) -> None:
        positive = items[item_id].label == "positive"
        assert fires(item_id) is positive
        monkeypatch.setattr(detectors, name, replacement)
        assert fires(item_id) is not positive

    return test_each_module_mechanism_carries_its_item


def lexicon_entry_test(
    items: Mapping[str, HeldoutItem],
    fires: Fires,
    table: Sequence[tuple[str, str, str, str]],
    ids: list[str] | None = None,
) -> Callable[..., None]:
    """Rows (item id, lexicon file, the exact text replaced in a copy of it, what replaces it): the item reads
    as labelled, and the other way with the copy. Each row's test id is its item id and row number unless
    ``ids`` names them (an item may carry several rows)."""
    if ids is None:
        ids = [f"{item_id}-{k}" for k, (item_id, *_) in enumerate(table)]

    @pytest.mark.parametrize(("item_id", "file", "old", "new"), table, ids=ids)
    def test_each_lexicon_entry_carries_its_item(
        lexicon_without: Callable[[str, str, str], Lexicon], item_id: str, file: str, old: str, new: str
    ) -> None:
        positive = items[item_id].label == "positive"
        assert fires(item_id) is positive
        assert fires(item_id, lexicon_without(file, old, new)) is not positive

    return test_each_lexicon_entry_carries_its_item


def compiled_reading_test(
    items: Mapping[str, HeldoutItem], fires: Fires, table: Sequence[tuple[str, str]]
) -> Callable[..., None]:
    """Rows (item id, a pattern string in ``detectors`` that ``compile_attributes`` builds into the lexicon's
    attribute patterns): the item fires, and no longer once the string matches nothing and the lexicon is
    loaded again (rounds 65 onwards: a module name alone cannot take such a reading out of the memoised
    lexicon)."""

    @pytest.mark.parametrize(("item_id", "name"), table, ids=[f"{i}-{n}" for i, n in table])
    def test_each_compiled_reading_carries_its_item(
        item_id: str, name: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        assert fires(item_id)
        monkeypatch.setattr(detectors, name, NEVER.pattern)
        assert not fires(item_id, detectors.load_lexicon())

    return test_each_compiled_reading_carries_its_item


def pattern_before(pattern: regex.Pattern, old: str, new: str = "") -> regex.Pattern:
    """``pattern`` as it read before a round: the text the round added (present exactly once) replaced by
    ``new`` (rounds 32 onwards)."""
    assert pattern.pattern.count(old) == 1, old
    return regex.compile(pattern.pattern.replace(old, new), pattern.flags)


# round 63's addition to ``_IMPLIED_DOSE``: insulin's "u" after a space, before its time of day
IMPLIED_DOSE_ROUND_63 = (
    r"|\s(?P<unit>u)(?=\s+(?:nocte|mane|od|bd|bid|tds|daily|at\s+night|with\s+(?:meals|breakfast|tea))\b)"
)


def implied_dose_round_30(pattern: regex.Pattern) -> regex.Pattern:
    """``_IMPLIED_DOSE`` as it read before round 31: without round 63's spaced "u", then without round
    31's "u" written against its number."""
    before = (
        pattern_before(pattern, IMPLIED_DOSE_ROUND_63)
        .pattern.replace(r"(?:\s*(?P<unit>", r"\s*(?P<unit>", 1)
        .replace(r"units?)|(?P<unit>u))", r"units?)", 1)
    )
    return regex.compile(before, pattern.flags)


def dev_fires(items: Mapping[str, HeldoutItem]) -> Fires:
    """``fires(item_id, lexicon=None)``: the item's own detector's verdict on it (memo cleared first), with
    the lexicon ``detectors.default_lexicon`` returns when called (a fixture may replace it)."""

    def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
        item = items[item_id]
        lexicon = lexicon or detectors.default_lexicon()
        lexicon.memo.clear()
        return detectors.detect(item.text, lexicon, task_class=item.task_class).flags[item.detector]

    return fires


def all_detector_dev_tests(
    items: Mapping[str, HeldoutItem],
    fires: Fires,
    detectors: frozenset[str] = frozenset({"conflict", "missing", "high_risk"}),
) -> tuple[Callable[[], None], Callable[..., None]]:
    """The two tests of a round's dev file: it is in the dev half with items for each of ``detectors`` (all
    three unless the round fixed fewer), and every item reads as labelled."""
    from escbench_inspect.controller.heldout import half_items

    def test_dev_file_is_in_the_dev_half_with_each_detector() -> None:
        assert set(items) <= {i.id for i in half_items("dev")}
        assert {i.detector for i in items.values()} == detectors

    @pytest.mark.parametrize("item_id", sorted(items))
    def test_each_item_reads_as_labelled(item_id: str) -> None:
        assert fires(item_id) is (items[item_id].label == "positive")

    return test_dev_file_is_in_the_dev_half_with_each_detector, test_each_item_reads_as_labelled
