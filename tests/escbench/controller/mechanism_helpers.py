"""The two planted-defect tests every per-round detector module runs (issue 22z): a round lists its mechanisms
-- a module name and what replaces it, or a lexicon entry and what replaces it -- beside the development item
each one carries; these build the parametrized tests that take each mechanism out and check that its item
flips. A module assigns them to its own test names, so its ``pytestmark`` fixtures apply."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from escbench_inspect.controller import detectors
from escbench_inspect.controller.detectors import Lexicon
from escbench_inspect.controller.heldout import HeldoutItem

Fires = Callable[..., bool]  # fires(item_id, lexicon=None): the item's detector's verdict on it


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
    items: Mapping[str, HeldoutItem], fires: Fires, table: Sequence[tuple[str, str, str, str]], ids: list[str]
) -> Callable[..., None]:
    """Rows (item id, lexicon file, the exact text replaced in a copy of it, what replaces it): the item reads
    as labelled, and the other way with the copy."""

    @pytest.mark.parametrize(("item_id", "file", "old", "new"), table, ids=ids)
    def test_each_lexicon_entry_carries_its_item(
        lexicon_without: Callable[[str, str, str], Lexicon], item_id: str, file: str, old: str, new: str
    ) -> None:
        positive = items[item_id].label == "positive"
        assert fires(item_id) is positive
        assert fires(item_id, lexicon_without(file, old, new)) is not positive

    return test_each_lexicon_entry_carries_its_item
