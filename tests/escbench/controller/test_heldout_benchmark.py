"""The held-out detector benchmark (issue 22): the frozen test half, its schema, and both halves' floor."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from escbench_inspect.controller.heldout import (
    DEV_FILE,
    FAMILIES,
    TEST_FILE,
    half_items,
    load_heldout,
)
from escbench_inspect.datasets.errors import DataFileError

# Frozen when the test half was written, BEFORE any issue-22 change to the detectors or the lexicon.
# Never edit the file to fit the detectors; a change to it needs a new hash and a reason in the commit.
TEST_HALF_SHA256 = "a6372ff55c7664eca84e9ece6b25c2d03d77dd58d70848b0660554b515bbdcb6"


def test_test_half_is_frozen() -> None:
    assert hashlib.sha256(TEST_FILE.read_bytes()).hexdigest() == TEST_HALF_SHA256


def test_test_half_shape() -> None:
    bench = load_heldout(TEST_FILE)
    assert bench.split == "test"
    assert len(bench.items) >= 100
    near = sum(i.label == "near_miss" for i in bench.items)
    assert 0.35 <= near / len(bench.items) <= 0.50
    registers = {i.text_register for i in bench.items}
    assert registers == {"portal", "nurse", "lab_pharmacy"}
    for detector in FAMILIES:
        own = [i for i in bench.items if i.detector == detector]
        assert any(i.label == "positive" for i in own) and any(i.label == "near_miss" for i in own)


def test_halves_share_no_text() -> None:
    dev = {i.text.strip().lower() for i in half_items("dev")}
    test = {i.text.strip().lower() for i in half_items("test")}
    assert not dev & test
    assert load_heldout(DEV_FILE).split == "dev"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("family: chest_pain", "family: thorax", "thorax"),
        ("label: near_miss, kind: family_history", "label: near_miss", "needs a kind"),
        ("id: th_chest_1,", "id: th_chest_2,", "duplicate ids"),
    ],
)
def test_bad_entry_is_named(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = tmp_path / "bench.yaml"
    path.write_text(TEST_FILE.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_heldout(path)
    assert "bench.yaml" in str(info.value) and message in str(info.value)


# Regression floors. Issue 22 set them at its figures (test half C recall 0.75, below the 0.80 goal).
# Issue 22r tuned on the dev half (now with detector_heldout_dev2.yaml) AND on the test half, whose
# misses had been read: since then it is "test v1, seen", a tuning half like dev, and these floors sit
# at the issue-22r measurements (dev C 1.00/0.00, M 0.99/0.00, H 0.99/0.00; test v1 C 1.00/0.00,
# M 1.00/0.00, H 1.00/0.00). Untouched test data is the blind half, added after tuning.
# Issue 22s: the dev half gained detector_heldout_dev3.yaml; the blind half was read ("blind v1,
# seen") and is a tuning half too. Floors moved to the issue-22s measurements (dev C 1.00/0.00,
# M 0.99/0.05, H 0.995/0.00; blind v1 C 0.957/0.00, M 1.00/0.00, H 1.00/0.024). These are tuned
# figures, not test figures: the untouched test is the second blind half (blind2).
FLOORS = {
    # dev M FPR 0.053: two dev2 near misses (an onset time in a documentation task, a duration in a
    # triage one) were written under the exhaustive reading of the needed lists; the shipped
    # `unlisted_item: fire` flags an absence unless the policy lists the item as immaterial
    "dev": {"conflict": (1.00, 0.00), "missing": (0.98, 0.06), "high_risk": (0.99, 0.00)},
    "test": {"conflict": (0.95, 0.05), "missing": (0.95, 0.05), "high_risk": (0.95, 0.05)},
    # blind v1 (seen): C misses a fill history "since 2022" against an inpatient list (read as another
    # setting) and two relative times of a fall; H fires on a father's retinal detachment
    "blind": {"conflict": (0.95, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    # issue 22t: blind v2 was run once untouched (C 0.61/0.16, M 0.73/0.11, H 0.78/0.20), then read
    # ("blind v2, seen"); floors at the issue-22t measurements (C 34/49 = 0.694 / 1/38 = 0.026, M 37/48 =
    # 0.771 / 2/37 = 0.054, H 51/60 = 0.85 / 1/45 = 0.022): tuned figures, C and M below the recall goal
    "blind2": {"conflict": (0.69, 0.03), "missing": (0.77, 0.06), "high_risk": (0.85, 0.03)},
    # blind v3: its one untouched run on the shipped detectors (C 26/49 = 0.53 / 3/33 = 0.09, M 41/51 =
    # 0.80 / 2/36 = 0.06, H 50/58 = 0.86 / 6/42 = 0.14) -- the figures to quote; C below the goal
    "blind3": {"conflict": (0.53, 0.10), "missing": (0.80, 0.06), "high_risk": (0.86, 0.15)},
    # blind v4: its one untouched run on the round-5 detectors (C 37/58 = 0.64 / 6/43 = 0.14, M 52/54 =
    # 0.96 / 3/41 = 0.07, H 55/65 = 0.85 / 2/48 = 0.04) -- the figures to quote; C below the goal
    "blind4": {"conflict": (0.63, 0.14), "missing": (0.96, 0.08), "high_risk": (0.84, 0.05)},
}

# Each blind half was frozen before the tuning round it tests was merged (docs/controller.md).
BLIND_SHA256 = {
    "blind3": "3da6d909f6af289f933c4602f746227c07e37c3e43f9eefc880a57d050e47198",
    "blind4": "1ab38a6f9ff961cfd4680592584d811cdfe6626e0ffb7427b0c62f45752a971f",
}


@pytest.mark.parametrize("half", sorted(BLIND_SHA256))
def test_blind_half_is_frozen(half: str) -> None:
    from escbench_inspect.controller.heldout import blind_file

    assert hashlib.sha256(blind_file(half).read_bytes()).hexdigest() == BLIND_SHA256[half]  # type: ignore[arg-type]


# issue 22v (round 5, M and H only; C floors untouched): blind v3 was opened for tuning and the M and H
# misses of blind v1-v3 were read together; floors at the issue-22v measurements. dev now includes
# detector_heldout_dev5.yaml (M 127/128 = 0.992 / 2/56 = 0.036, H 236/237 = 0.996 / 0/86); test v1 M
# 16/16 / 0/14, H 38/38 / 0/29; blind v1 M
# 44/44 / 0/37, H 57/57 / 1/42 = 0.024; blind v2 M 48/48 / 0/37, H 60/60 / 1/45 = 0.022; blind v3 M
# 51/51 / 0/36, H 58/58 / 0/42. All tuned figures (the misses were read): blind v4 is the test.
FLOORS_22V = {
    "dev": {"missing": (0.99, 0.04), "high_risk": (0.99, 0.00)},
    "test": {"missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    "blind": {"missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    "blind2": {"missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    "blind3": {"missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
}
for _half, _floors in FLOORS_22V.items():
    FLOORS[_half] = {**FLOORS[_half], **_floors}

# issue 22x (round 6, M and H only; C floors untouched): blind v4 was opened for tuning (its untouched
# run: M 52/54 = 0.96 / 3/41 = 0.07, H 55/65 = 0.85 / 2/48 = 0.04); floors at the issue-22x measurements:
# blind v4 M 54/54 / 1/41 = 0.024, H 65/65 / 1/48 = 0.021 (tuned figures: the misses were read). dev now
# includes detector_heldout_dev7.yaml (M 131/132 / 2/59 = 0.034, H 250/251 / 0/95); v1-v3 unchanged.
FLOORS_22X = {
    "blind4": {"missing": (1.00, 0.03), "high_risk": (1.00, 0.03)},
}
for _half, _floors in FLOORS_22X.items():
    FLOORS[_half] = {**FLOORS[_half], **_floors}


@pytest.mark.parametrize("half", ["dev", "test", "blind", "blind2", "blind3", "blind4"])
def test_detector_floor_on_each_half(half: str) -> None:
    from escbench_inspect.controller.detectors import detect
    from escbench_inspect.controller.heldout import blind_file, heldout_quality

    if half.startswith("blind") and not blind_file(half).exists():  # type: ignore[arg-type]
        pytest.skip(f"{half} half not there")

    flags = lambda text, task_class: detect(text, task_class=task_class).flags  # noqa: E731
    table = heldout_quality(half_items(half), flags)  # type: ignore[arg-type]
    for name, (recall, fpr) in FLOORS[half].items():
        assert table[name]["recall"] >= recall, (half, name, table[name]["missed"])
        assert table[name]["fpr"] <= fpr, (half, name, table[name]["false_positives"])


# ---- every blind split: schema, id prefix, required task class, absent or present ---------------
BLIND_TEMPLATE = """version: 1
split: {split}
items:
  - {{id: {p}c_weight_1, detector: conflict, family: weight, register: nurse, label: positive,
     text: "Ward weight 80 kg; daughter says he is 120 lb."}}
  - {{id: {p}m_weight_1, detector: missing, family: weight, register: portal, label: positive,
     task_class: messaging, text: "no idea what he weighs"}}
  - {{id: {p}h_chest_1, detector: high_risk, family: chest_pain, register: portal, label: positive,
     text: "crushing chest pain for an hour"}}
"""
BLIND_SPLITS = {
    "blind": ("b", "BLIND_FILE"),
    "blind2": ("v", "BLIND2_FILE"),
    "blind3": ("w", "BLIND3_FILE"),
    "blind4": ("x", "BLIND4_FILE"),
}


def _blind_file(tmp_path: Path, split: str, edit: tuple[str, str] | None = None) -> Path:
    prefix = BLIND_SPLITS[split][0]
    text = BLIND_TEMPLATE.format(split=split, p=prefix)
    if edit:
        assert edit[0].format(p=prefix) in text
        text = text.replace(edit[0].format(p=prefix), edit[1].format(p=prefix), 1)
    path = tmp_path / f"detector_heldout_{split}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("split", sorted(BLIND_SPLITS))
def test_blind_split_loads(tmp_path: Path, split: str) -> None:
    bench = load_heldout(_blind_file(tmp_path, split))
    assert bench.split == split and len(bench.items) == 3


@pytest.mark.parametrize("split", sorted(BLIND_SPLITS))
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("id: {p}c_weight_1", "id: dc_weight_1"), "_/"),  # another split's prefix
        (("task_class: messaging, text", "text"), "task_class"),
    ],
)
def test_blind_split_errors_name_the_file(
    tmp_path: Path, split: str, edit: tuple[str, str], message: str
) -> None:
    with pytest.raises(DataFileError) as info:
        load_heldout(_blind_file(tmp_path, split, edit))
    assert f"detector_heldout_{split}.yaml" in str(info.value) and message in str(info.value)


@pytest.mark.parametrize("split", sorted(BLIND_SPLITS))
def test_blind_split_absent_is_skipped_and_present_is_in_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, split: str
) -> None:
    from escbench_inspect.controller import heldout

    attribute = BLIND_SPLITS[split][1]
    monkeypatch.setattr(heldout, attribute, tmp_path / f"detector_heldout_{split}.yaml")
    assert heldout.main(["--half", split]) == 0
    assert f"{split} half skipped" in capsys.readouterr().err
    assert split not in heldout.available_halves("all")[0]
    monkeypatch.setattr(heldout, attribute, _blind_file(tmp_path, split))
    assert split in heldout.available_halves("all")[0]
    assert heldout.main(["--half", split, "--json"]) == 0
    assert f'"{split}"' in capsys.readouterr().out
