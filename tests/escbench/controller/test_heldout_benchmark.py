"""The held-out detector benchmark (issue 22): the frozen test half, its schema, and both halves' floor."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from escbench_inspect.controller.heldout import (
    DEV_FILE,
    FAMILIES,
    HALF_TITLES,
    HALVES,
    TEST_FILE,
    half_items,
    half_title,
    load_heldout,
)
from escbench_inspect.datasets.errors import DataFileError

# Frozen when the test half was written, BEFORE any issue-22 change to the detectors or the lexicon.
# Never edit the file to fit the detectors; a change to it needs a new hash and a reason in the commit.
TEST_HALF_SHA256 = "a6372ff55c7664eca84e9ece6b25c2d03d77dd58d70848b0660554b515bbdcb6"


def test_test_half_is_frozen() -> None:
    assert hashlib.sha256(TEST_FILE.read_bytes()).hexdigest() == TEST_HALF_SHA256


def test_every_half_has_its_title() -> None:
    """A report names each half: an irregular title from ``HALF_TITLES``, else the title derived for the blind
    halves written for all three detectors."""
    assert half_title("blind71") == "blind half 71 (all three detectors)"
    assert half_title("blind31") == "blind half 31 (all three detectors)"
    assert half_title("blind30") == "blind half 30 (conflict: dose, laterality, date)"
    assert half_title("blind49h") == HALF_TITLES["blind49h"]
    assert half_title("dev") == "dev half"
    assert all(half_title(half) for half in HALVES)


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


# Regression floors: the figures of the detectors as they stand, per half. Only the newest blind half
# holds untouched figures (its one run before anyone read it); every other half has been read and
# tuned on, so its floor is a tuned figure (an upper bound), kept so that later rounds do not lose it.
# The untouched first runs of every blind half are in docs/controller.md ("The figures to quote"):
# v1 C 0.52/0.17 M 0.73/0.14 H 0.75/0.14 (round 2); v2 0.61/0.16, 0.73/0.11, 0.78/0.20 (round 3);
# v3 0.53/0.09, 0.80/0.06, 0.86/0.14 (round 4); v4 0.64/0.14, 0.96/0.07, 0.85/0.04 (round 5);
# v5 0.68/0.07, 0.85/0.05, 0.92/0.13 (round 6); v6 0.67/0.07, 0.80/0.17, 0.90/0.14 and v7 0.74/0.04,
# 0.88/0.07, 0.91/0.14 (round 7); v8 C 0.75/0.16 (round 7 with the generic typed-value reading).
FLOORS = {
    # dev (dev1-dev14 and the paraphrase set): C 381/381 / 0/266, M 143/144 / 2/68 (two dev2 near misses
    # written under the exhaustive reading of the needed lists), H 250/251 / 0/95
    "dev": {"conflict": (1.00, 0.00), "missing": (0.99, 0.04), "high_risk": (0.99, 0.00)},
    "test": {"conflict": (1.00, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v1 (seen): C misses a weekday night against "this morning"; H fires on a father's retinal
    # detachment
    "blind": {"conflict": (0.97, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    # blind v2 (seen): C 47/49 (a weekday against "this morning", intolerance vs allergy); H 1/45 (a lab
    # comment "requested for chest pain")
    "blind2": {"conflict": (0.95, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    # blind v3 (seen): C 49/49
    "blind3": {"conflict": (1.00, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v4 (seen): C 57/58 (codeine vs morphine), M 1/41, H 1/48
    "blind4": {"conflict": (0.98, 0.00), "missing": (1.00, 0.03), "high_risk": (1.00, 0.03)},
    # blind v5: C seen since round 7 (58/59, a date of one event two sources give in one clause); M and H
    # still at their one untouched run on the round-6 detectors (M 44/52 = 0.85 / 2/41 = 0.05, H 57/62 =
    # 0.92 / 6/47 = 0.13: nobody has read their misses; one M near miss's text, ym_wt_n3, was seen in
    # issue 22z when round 9's later-supplied reading fixed it: M 44/52 / 1/41 since)
    "blind5": {"conflict": (0.98, 0.00), "missing": (0.84, 0.03), "high_risk": (0.91, 0.13)},
    # blind v6: its one untouched run on the round-7 detectors (C 55/82 = 0.67 / 4/55 = 0.07, M 43/54 =
    # 0.80 / 7/42 = 0.17, H 60/67 = 0.90 / 7/50 = 0.14) -- the figures to quote; C recall and M FPR miss
    # the goal. Its C misses were then read for the generic typed-value reading: C 67/82 after round 13.
    "blind6": {"conflict": (0.81, 0.08), "missing": (0.79, 0.12), "high_risk": (0.89, 0.14)},
    # blind v7: its one untouched run on the round-7 detectors (C 60/81 = 0.74 / 2/55, M 50/57 = 0.88 /
    # 3/45, H 59/65 = 0.91 / 7/51); with the generic typed-value reading C 65/81 = 0.80 / 2/55 (the ids,
    # not the texts, of the C items that reading changed were seen while it was written); 70/81 after round 13
    "blind7": {"conflict": (0.86, 0.04), "missing": (0.87, 0.03), "high_risk": (0.90, 0.14)},
    # blind v8 (conflict only): its one untouched run on the shipped detectors, C 66/88 = 0.75 / 9/55 =
    # 0.16 (without the generic reading 61/88 / 9/55) -- the figure to quote; below the goal
    # since issue 22z (round 8 tuned on its misses): C 87/88 / 2/55
    "blind8": {"conflict": (0.98, 0.04)},
    # blind v9: its one untouched run on round 8, C 69/88 = 0.78 / 7/66 = 0.11, M 55/66 = 0.83 / 8/58 =
    # 0.14 (the shipped round 7: C 66/88 / 8/66); since read for round 9: C 82/88 / 2/66, M 65/66 / 1/58
    "blind9": {"conflict": (0.93, 0.04), "missing": (0.98, 0.02)},
    # blind v10: its one untouched run on round 9, C 68/88 = 0.77 / 4/66 = 0.06, M 50/61 = 0.82 / 2/51
    # (round 7: C 62/88 / 7/66, M 51/61 / 3/51); since read for round 10: C 83/88 / 2/66, M 51/61 / 2/51
    "blind10": {"conflict": (0.95, 0.04), "missing": (0.83, 0.04)},
    # blind v11: its one untouched run on round 10, C 69/88 = 0.78 / 4/66 = 0.06 (round 7: 62/88 / 6/66;
    # round 9: 68/88 / 4/66); since read for round 11: C 80/88 / 2/66 after round 13
    "blind11": {"conflict": (0.90, 0.04)},
    # blind v12: its one untouched run on round 11, C 62/88 = 0.70 / 5/65 = 0.08 (round 7: 58/88 /
    # 10/65; round 10: 62/88 / 5/65); since read for round 12: C 83/88 / 2/65
    "blind12": {"conflict": (0.94, 0.04)},
    # blind v13: its one untouched run on round 12, C 67/88 = 0.76 / 2/65 = 0.03 (round 11: 64/88 / 5/65;
    # 2-D: 57/88 / 11/65); since read for round 13: C 85/88 / 0/65
    "blind13": {"conflict": (0.96, 0.00)},
    # blind v14: its one untouched run on round 13, C 69/88 = 0.78 / 6/66 = 0.09 (round 12 the same; round
    # 11: 66/88 / 6/66); since read for round 14: C 88/88 / 0/66
    "blind14": {"conflict": (1.00, 0.00)},
    # blind v15 (untouched, H and M only): its one run on 2-F, M 63/74 = 0.85 / 0/59, H 72/84 = 0.86 /
    # 2/72 = 0.03 (2-D: M 63/74 / 3/59, H the same) -- the figures to quote for M and H; goal met
    "blind15": {"missing": (0.85, 0.00), "high_risk": (0.85, 0.03)},
    # blind v16: its one untouched run on round 14, C 64/88 = 0.73 / 4/66 = 0.06 (2-F: 62/88 / 4/66); since
    # read for round 15: C 87/88 / 0/66
    "blind16": {"conflict": (0.98, 0.00)},
    # blind v17: its one untouched run on round 15, C 70/88 = 0.795 / 7/66 = 0.11 (round 14 the same; 2-F:
    # 69/88 / 7/66); since read for round 16: C 85/88 / 1/66
    "blind17": {"conflict": (0.96, 0.02)},
    # blind v18: its one untouched run on round 16, C 75/88 = 0.85 / 6/66 = 0.09 (round 15: 74/88 / 7/66; 2-F:
    # 71/88 / 9/66); since read for round 17: C 83/88 / 4/66
    "blind18": {"conflict": (0.94, 0.07)},
    # blind v19: its one untouched run on 2-G, C 68/88 = 0.77 / 6/66 = 0.09 (2-F: 64/88 / 6/66); since read
    # for round 17: C 84/88 / 0/66
    "blind19": {"conflict": (0.95, 0.00)},
    # blind v20: its one untouched run on round 17, C 66/88 = 0.75 / 7/66 = 0.11 (2-G: 65/88 / 7/66); since
    # read for round 18: C 79/88 / 3/66; round 19: 82/88 / 3/66
    "blind20": {"conflict": (0.93, 0.05)},
    # blind v21: its one untouched run on round 18 (2-H), C 76/88 = 0.86 / 3/66 = 0.05 (round 17: 76/88 /
    # 3/66; 2-G: 76/88 / 4/66). Its reviewer's pass came after the first run (on the authors' files merged
    # unread, 77/88 / 3/66) and edited three texts, no label; since read for round 19: C 83/88 / 2/66
    "blind21": {"conflict": (0.94, 0.04)},
    # blind v22: its one untouched run on round 19, C 74/88 = 0.84 / 5/66 = 0.08 (2-H the same); since read
    # for round 20: C 86/88 / 1/66
    "blind22": {"conflict": (0.97, 0.02)},
    # blind v23 (untouched, nine families): round 20 (2-I) C 51/72 = 0.71 / 4/54 = 0.07 (round 19: 51/72 /
    # 4/54; 2-H: 50/72 / 4/54); since read for round 21: C 71/72 / 0/54
    "blind23": {"conflict": (0.98, 0.00)},
    # blind v24 (v23's late file, lab value and explicit contradiction): its one untouched run on round 20
    # (2-I) C 13/16 / 4/12 (round 19 and 2-H the same); since read for round 21: C 16/16 / 0/12
    "blind24": {"conflict": (1.00, 0.00)},
    # blind v25 (eleven families): its one untouched run on round 21, C 70/88 = 0.795 / 6/68 = 0.09 (2-I:
    # 67/88 / 7/68); since read for round 22: C 85/88 / 1/68
    "blind25": {"conflict": (0.96, 0.02)},
    # blind v26 (eleven families, not reviewed): its one untouched run on round 22 (2-J), C 114/136 = 0.84 /
    # 2/101 = 0.02 (round 21 the same, item for item; 2-I: 113/136 / 2/101); since read for round 23: C
    # 134/136 / 0/101
    "blind26": {"conflict": (0.97, 0.00)},
    # blind v27 (lab value and explicit contradiction, one author, not reviewed): its one untouched run on
    # round 23 (2-K), C 13/16 = 0.81 / 1/16 = 0.06 (2-J the same; 2-I: 11/16 / 1/16)
    "blind27": {"conflict": (0.81, 0.07)},
    # blind v28 (allergy, medication status, weight; a second v27 author, not reviewed): its one untouched
    # run on round 23 (2-K), C 22/24 = 0.92 / 0/18 (2-J and 2-I: 20/24 / 1/18)
    "blind28": {"conflict": (0.91, 0.00)},
    # blind v29 (code status, pregnancy status, blood group) and v30 (dose, side, date), v27's last two
    # authors, not reviewed: their one untouched run on round 23 (2-K), C 20/24 / 1/18 and 21/24 / 0/18
    # (2-J and 2-I the same)
    "blind29": {"conflict": (0.83, 0.06)},
    "blind30": {"conflict": (0.87, 0.00)},
    # blind v31-v33 (all three detectors, six authors each, reviewed): their one untouched run on round 24
    # (2-L; 2-K item for item the same): v31 C 75/88 / 1/55, M 47/50 / 1/32, H 65/70 / 6/56; v32 C 68/88 /
    # 7/55, M 43/50 / 2/32, H 58/70 / 10/56; v33 C 71/88 / 4/55, M 39/50 / 1/32, H 62/70 / 10/56
    "blind31": {"conflict": (0.85, 0.02), "missing": (0.94, 0.04), "high_risk": (0.92, 0.11)},
    "blind32": {"conflict": (0.77, 0.13), "missing": (0.86, 0.07), "high_risk": (0.82, 0.18)},
    "blind33": {"conflict": (0.80, 0.08), "missing": (0.78, 0.04), "high_risk": (0.88, 0.18)},
    # blind v34 (all three detectors, six authors, reviewed): its one untouched run on round 25 (2-L), C
    # 75/88 / 1/55, M 43/50 / 2/32, H 66/70 / 11/56 (round 24: C and FPRs the same, M 42/50, H 63/70)
    # since read for round 26: C 81/88 / 0/55, M 50/50 / 0/32, H 70/70 / 4/56
    "blind34": {"conflict": (0.92, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.08)},
    # blind v35 (as v34, frozen after round 25): its one untouched run on 2-L as released, C 73/88 / 3/55, M
    # 47/50 / 1/32, H 65/70 / 5/56 (2-K: C 72/88, H 7/56); since read for round 26: C 79/88 / 0/55, M 50/50 /
    # 0/32, H 70/70 / 2/56
    "blind35": {"conflict": (0.89, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.04)},
    # blind v36 (as v34, frozen after 2-L and before round 26 was written): its one untouched run on round 26
    # (2-M), C 72/88 / 4/55, M 47/50 / 1/32, H 68/70 / 7/56 (2-L: C 71/88, M 46/50, H 8/56)
    # since read for round 27: C 72/88 / 3/55, M 50/50 / 0/32, H 68/70 / 2/56
    "blind36": {"conflict": (0.81, 0.06), "missing": (1.00, 0.00), "high_risk": (0.97, 0.04)},
    # blind v37 (as v34, frozen after 2-M and before round 27 was committed): its one untouched run on round
    # 27 (2-N), C 73/88 / 2/55, M 47/50 / 1/32, H 66/70 / 4/56 (2-M item for item the same; 2-L: M 2/32);
    # since read for round 28: C 85/88 / 1/55, M 50/50 / 0/32, H 70/70 / 1/56
    "blind37": {"conflict": (0.96, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v38 (ten C positives and six H near misses a family, frozen after 2-N and before round 28 was
    # committed): its one untouched run on round 28 (2-O), C 94/110 / 3/55, M 49/50 / 0/32, H 65/70 / 9/84
    # (2-N: M 48/50, H 64/70); since read for round 29: C 99/110 / 2/55, M 50/50 / 0/32, H 69/70 / 3/84
    "blind38": {"conflict": (0.90, 0.04), "missing": (1.00, 0.00), "high_risk": (0.98, 0.04)},
    # blind v39 (as v38, M reviewed only after its run, no edit; frozen after 2-O and before round 29 was
    # committed): its one untouched run on round 29 (2-P), C 98/110 / 3/55, M 45/50 / 2/32, H 64/70 / 11/84
    # (2-O: C 97/110); since read for round 30: C 108/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind39": {"conflict": (0.98, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v40 (as v38, all three files reviewed; frozen after 2-P and before round 30 was committed): its
    # one untouched run on round 30 (2-Q), C 96/110 / 4/55, M 47/50 / 0/32, H 63/70 / 7/84 (2-P: C 95/110,
    # M 46/50); since read for round 31: C 98/110 / 0/55, M 50/50 / 0/32, H 69/70 / 2/84
    "blind40": {"conflict": (0.89, 0.00), "missing": (1.00, 0.00), "high_risk": (0.98, 0.03)},
    # blind v41 (as v38, all three files reviewed; frozen after 2-Q and before round 31 was committed): its
    # one untouched run on round 31 (2-R), C 90/110 / 3/55, M 49/50 / 1/32, H 67/70 / 7/84 (2-Q: H 66/70);
    # since read for round 32: every item as labelled
    "blind41": {"conflict": (1.00, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v42 (as v38, all three files reviewed; frozen after 2-R and before round 32 was committed): its
    # one untouched run on round 32 (2-S), C 91/110 / 3/55, M 45/50 / 1/32, H 65/70 / 6/84 (2-R the same);
    # since read for round 33: C 110/110 / 1/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind42": {"conflict": (1.00, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v43 (as v38, all three files reviewed; frozen after round 33 was committed and before anyone read
    # it): its one untouched run on round 33 (2-T), C 90/110 / 2/55, M 44/50 / 2/32, H 63/70 / 8/84 (2-S: C
    # 89/110); since read for round 34: C 107/110 / 1/55, M 50/50 / 0/32, H 69/70 / 0/84
    "blind43": {"conflict": (0.97, 0.02), "missing": (1.00, 0.00), "high_risk": (0.98, 0.00)},
    # blind v44 (as v38, all three files reviewed; frozen after round 34 was committed and before anyone read
    # it): its one untouched run on round 34 (2-U), C 95/110 / 2/55, M 48/50 / 2/32, H 69/70 / 7/84 (2-T: H
    # 8/84); since read for round 35: C 105/110 / 1/55, M 50/50 / 2/32, H 70/70 / 1/84
    "blind44": {"conflict": (0.95, 0.02), "missing": (1.00, 0.07), "high_risk": (1.00, 0.02)},
    # blind v45 (as v38, all three files reviewed; frozen before round 35 was committed): its one untouched
    # run on round 35 (2-V), C 98/110 / 4/55, M 45/50 / 0/32, H 65/70 / 4/84 (2-U item for item the same);
    # since read for round 36: C 107/110 / 1/55, M 50/50 / 0/32, H 70/70 / 3/84
    "blind45": {"conflict": (0.97, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.04)},
    # blind v46 (as v38, prefix ya, all six files reviewed, c3 after the freeze with no edit; frozen after
    # round 36 was committed, before anyone read it): its one untouched run on round 36 (2-W), C 99/110 /
    # 3/55, M 50/50 / 1/32, H 65/70 / 8/84 (2-V item for item the same); since read for round 37: C 108/110 /
    # 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind46": {"conflict": (0.98, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v47 (as v38, prefix yb, c3 reviewed, the other five files as written; frozen after round 37 was
    # committed, before anyone read it): its one untouched run on round 37 (2-X), C 97/110 / 3/55, M 44/50 /
    # 0/32, H 68/70 / 7/84 (2-W item for item the same); since read for round 38: C 110/110 / 0/55, M 50/50 /
    # 0/32, H 70/70 / 0/84
    "blind47": {"conflict": (1.00, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v48 (as v38, prefix yc, five files reviewed, m1 as written; frozen after round 38 was committed,
    # before anyone read it): its one untouched run on round 38 (2-Y), C 100/110 / 4/55, M 42/50 / 0/32,
    # H 69/70 / 9/84 (2-X one H positive fewer and one H near miss more); since read for round 39: C 106/110 /
    # 1/55, M 50/50 / 0/32, H 70/70 / 2/84
    "blind48": {"conflict": (0.96, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    # blind v49 (as v38, prefix yd, 324 items: h1 never arrived, H from h2's seven families only; c1 reviewed,
    # the other four files as written; frozen after round 39 was committed, before anyone read it): its one
    # untouched run on round 39 (2-Z), C 89/110 / 1/55, M 44/50 / 0/32, H 33/35 / 3/42 (2-Y one M positive
    # fewer and one H near miss more); since read for round 40: C 103/110 / 0/55, M 50/50 / 0/32, H 35/35 /
    # 0/42
    "blind49": {"conflict": (0.93, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v49's h1 (arrived after v49's freeze and run; reviewed, no edit; frozen before round 40 was
    # committed): its one untouched run on round 39 (2-Z), H 32/35 / 3/42 (2-Y item for item the same); since
    # read for round 40: H 35/35 / 0/42
    "blind49h": {"high_risk": (1.00, 0.00)},
    # blind v50 (as v38, prefix ye, all six files reviewed; frozen after round 40 was committed, before anyone
    # read it): its one untouched run on round 40 (2-AA), C 107/110 / 4/55, M 45/50 / 0/32, H 67/70 / 7/84
    # (2-Z one C positive fewer); since read for round 41: C 109/110 / 1/55, M 50/50 / 0/32, H 70/70 / 4/84;
    # after round 42 (which took up three of its leftovers): C 110/110 / 1/55, H 70/70 / 2/84
    "blind50": {"conflict": (1.00, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    # blind v51 (as v38, prefix yf, all six files reviewed; frozen after round 41 was committed, before anyone
    # read it): its one untouched run on round 41 (2-AB), C 97/110 / 1/55, M 46/50 / 1/32, H 63/70 / 5/84
    # (2-AA item for item the same); since read for round 42: C 108/110 / 0/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind51": {"conflict": (0.98, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v52 (as v38, prefix yg, all six files reviewed; frozen after round 42 was committed, before anyone
    # read it): its one untouched run on round 42 (2-AC), C 99/110 / 3/55, M 47/50 / 0/32, H 66/70 / 6/84
    # (2-AB one H false positive more)
    # since read for round 43: C 108/110 / 1/55, M 50/50 / 0/32, H 70/70 / 3/84
    "blind52": {"conflict": (0.98, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.04)},
    # blind v53 (as v38, prefix yh, all six files reviewed; frozen after round 43 was committed, before anyone
    # read it): its one untouched run on round 43 (2-AD), C 106/110 / 1/55, M 48/50 / 0/32, H 68/70 / 5/84
    # (2-AC item for item the same)
    # since read for round 44: C 107/110 / 0/55, M 48/50 / 0/32, H 69/70 / 3/84
    "blind53": {"conflict": (0.97, 0.00), "missing": (0.96, 0.00), "high_risk": (0.98, 0.04)},
    # blind v54 (as v38, prefix yi, all six files reviewed; frozen after round 44 was committed, before anyone
    # read it): its one untouched run on round 44 (2-AE), C 103/110 / 3/55, M 49/50 / 1/32, H 70/70 / 7/84
    # (2-AD item for item the same)
    # since read for round 45: C 106/110 / 0/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind54": {"conflict": (0.96, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v55 (as v38, prefix yj, all six files reviewed; frozen after round 45 was committed, before anyone
    # read it): its one untouched run on round 45 (2-AF), C 102/110 / 3/55, M 45/50 / 0/32, H 66/70 / 6/84
    # (2-AE item for item the same)
    # since read for round 46: C 104/110 / 0/55, M 50/50 / 0/32, H 70/70 / 3/84
    "blind55": {"conflict": (0.94, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.04)},
    # blind v56 (as v38, prefix yk, all six files reviewed; frozen after round 46 was committed, before anyone
    # read it): its one untouched run on round 46 (2-AG), C 100/110 / 2/55, M 47/50 / 1/32, H 67/70 / 4/84
    # (2-AF the same but for one M item, M 46/50)
    # since read for round 47: C 102/110 / 1/55, M 50/50 / 1/32, H 70/70 / 3/84
    "blind56": {"conflict": (0.92, 0.02), "missing": (1.00, 0.04), "high_risk": (1.00, 0.04)},
    # blind v57 (as v38, prefix yl, all six files reviewed; frozen after round 47 was committed, before anyone
    # read it): its one untouched run on round 47 (2-AH), C 96/110 / 1/55, M 45/50 / 2/32, H 67/70 / 3/84
    # (2-AG the same but for one H item, H 66/70)
    # since read for round 48: C 103/110 / 1/55, M 49/50 / 1/32, H 70/70 / 2/84
    "blind57": {"conflict": (0.93, 0.02), "missing": (0.98, 0.04), "high_risk": (1.00, 0.03)},
    # blind v58 (as v38, prefix ym, all six files reviewed; merged unread before round 48 was committed): its
    # one untouched run on round 48 (2-AI), C 99/110 / 3/55, M 47/50 / 0/32, H 69/70 / 8/84 (2-AH the same but
    # for one H near miss, 9/84)
    # since read for round 49: C 104/110 / 0/55, M 49/50 / 0/32, H 70/70 / 2/84
    "blind58": {"conflict": (0.94, 0.00), "missing": (0.98, 0.00), "high_risk": (1.00, 0.03)},
    # blind v59 (as v38, prefix yn, all six files reviewed; merged unread before round 49 was committed): its
    # one untouched run on round 49 (2-AJ), C 96/110 / 5/55, M 48/50 / 0/32, H 69/70 / 6/84 (2-AI item for
    # item the same)
    # since read for round 50: C 97/110 / 4/55, M 50/50 / 0/32, H 70/70 / 2/84
    "blind59": {"conflict": (0.88, 0.08), "missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    # blind v60 (as v38, prefix yo): its one untouched run on round 50 (2-AK), C 97/110 / 3/55, M 47/50 /
    # 1/32, H 67/70 / 8/84; since read for round 51: C 106/110 / 0/55, M 50/50 / 1/32, H 70/70 / 1/84
    "blind60": {"conflict": (0.96, 0.00), "missing": (1.00, 0.04), "high_risk": (1.00, 0.02)},
    # blind v61 (as v38, prefix yp): its one untouched run on round 51 (2-AL), C 96/110 / 3/55, M 48/50 /
    # 1/32, H 68/70 / 7/84; since read for round 52: C 104/110 / 0/55, M 50/50 / 1/32, H 69/70 / 0/84
    "blind61": {"conflict": (0.94, 0.00), "missing": (1.00, 0.04), "high_risk": (0.98, 0.00)},
    # blind v62 (as v38, prefix yq, all six files reviewed; committed unread before round 52 was begun):
    # its one untouched run on round 52 (2-AM), C 97/110 / 3/55, M 46/50 / 1/32, H 68/70 / 9/84 (2-AL item
    # for item the same); since read for round 53: C 104/110 / 0/55, M 50/50 / 0/32, H 69/70 / 1/84
    "blind62": {"conflict": (0.94, 0.00), "missing": (1.00, 0.00), "high_risk": (0.98, 0.02)},
    # blind v63 (as v38, prefix yr, all six files reviewed; committed unread before round 53 was begun):
    # its one untouched run on round 53 (2-AN), C 98/110 / 1/55, M 46/50 / 2/32, H 68/70 / 5/84 (2-AM one C
    # near miss more); since read for round 54: C 109/110 / 1/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind63": {"conflict": (0.99, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v64 (as v38, prefix ys, all six files reviewed; committed unread before round 53's first change):
    # its one untouched run on round 54 (2-AO), C 94/110 / 2/55, M 47/50 / 0/32, H 65/70 / 3/84 (2-AN one H
    # positive fewer); since read for round 55: C 106/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind64": {"conflict": (0.96, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v65 (as v38, prefix yt, all six files reviewed; committed unread before round 54's first change):
    # its one untouched run on round 55 (2-AP), C 101/110 / 2/55, M 46/50 / 0/32, H 69/70 / 6/84 (2-AO the
    # same); since read for round 56: C 108/110 / 0/55, M 50/50 / 0/32, H 70/70 / 2/84
    "blind65": {"conflict": (0.98, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.03)},
    # blind v66 (as v38, prefix yu, all six files reviewed; committed unread before round 55's first change):
    # its one untouched run on round 56 (2-AQ), C 98/110 / 3/55, M 47/50 / 1/32, H 65/70 / 6/84 (2-AP the
    # same); since read for round 57: C 104/110 / 3/55, M 50/50 / 0/32, H 69/70 / 0/84
    "blind66": {"conflict": (0.94, 0.06), "missing": (1.00, 0.00), "high_risk": (0.98, 0.00)},
    # blind v67 (as v38, prefix yv, all six files reviewed; committed unread before round 56's first change):
    # its one untouched run on round 57 (2-AR), C 97/110 / 3/55, M 48/50 / 0/32, H 68/70 / 4/84 (2-AQ the
    # same); since read for round 58: C 101/110 / 2/55, M 50/50 / 0/32, H 69/70 / 1/84
    "blind67": {"conflict": (0.91, 0.04), "missing": (1.00, 0.00), "high_risk": (0.98, 0.02)},
    # blind v68 (as v38, prefix yw, all six files reviewed; committed unread before round 57's first change):
    # its one untouched run on round 58 (2-AS), C 102/110 / 1/55, M 48/50 / 0/32, H 66/70 / 7/84 (2-AR 8/84);
    # since read for round 59: C 109/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind68": {"conflict": (0.99, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v69 (as v38, prefix yx, all six files reviewed; committed unread before round 58 was begun): its
    # one untouched run on round 59 (2-AT), C 95/110 / 1/55, M 47/50 / 2/32, H 69/70 / 6/84 (2-AS the same);
    # since read for round 60: C 98/110 / 0/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind69": {"conflict": (0.89, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v70 (as v38, prefix yy, all six files reviewed; committed unread before round 59's first change):
    # its one untouched run on round 60 (2-AU), C 95/110 / 2/55, M 48/50 / 1/32, H 68/70 / 5/84 (2-AT same);
    # since read for round 61: C 108/110 / 2/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind70": {"conflict": (0.98, 0.04), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v71 (as v38, prefix yz, all six files reviewed; committed unread before round 60 was begun): its
    # one untouched run on round 61 (2-AV), C 99/110 / 1/55, M 48/50 / 1/32, H 67/70 / 4/84 (2-AU the same);
    # since read for round 62: C 106/110 / 0/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind71": {"conflict": (0.96, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v72 (as v38, prefix zi, all six files reviewed; committed unread before round 61's first change):
    # its one untouched run on round 62 (2-AW), C 100/110 / 2/55, M 50/50 / 1/32, H 65/70 / 2/84 (2-AV the
    # same); since read for round 63: C 110/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind72": {"conflict": (1.00, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v73 (as v38, prefix zo, all six files reviewed; committed unread before round 62's first change):
    # its one untouched run on round 63 (2-AX), C 99/110 / 3/55, M 48/50 / 1/32, H 68/70 / 5/84 (2-AW the
    # same); since read for round 64: C 110/110 / 0/55, M 50/50 / 1/32, H 70/70 / 2/84
    "blind73": {"conflict": (1.00, 0.00), "missing": (1.00, 0.04), "high_risk": (1.00, 0.03)},
    # blind v74 (as v38, prefix zc, all six files reviewed; committed unread before round 63's first change):
    # its one untouched run on round 64 (2-AY), C 100/110 / 1/55, M 48/50 / 1/32, H 69/70 / 9/84 (2-AX the
    # same); since read for round 65: C 110/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind74": {"conflict": (1.00, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v75 (as v38, prefix zh, all six files reviewed; committed unread before round 64's first change):
    # its one untouched run on round 65 (2-AZ), C 99/110 / 0/55, M 49/50 / 1/32, H 70/70 / 2/84 (2-AY the same
    # but for one H near miss it flagged, 3/84); since read for round 66: C 110/110 / 0/55, M 50/50 / 0/32, H
    # 70/70 / 0/84
    "blind75": {"conflict": (1.00, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v76 (as v38, prefix zm, all six files reviewed; committed unread before round 65's first change):
    # its one untouched run on round 66 (2-BA), C 98/110 / 4/55, M 48/50 / 0/32, H 65/70 / 1/84 (2-AZ the
    # same); since read for round 67: C 108/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind76": {"conflict": (0.98, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v77 (as v38, prefix wa, all six files reviewed; committed unread before round 66's first change):
    # its one untouched run on round 67 (2-BB), C 105/110 / 3/55, M 48/50 / 0/32, H 70/70 / 2/84 (2-BA the
    # same); since read for round 68: C 109/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind77": {"conflict": (0.99, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v78 (as v38, prefix wb, all six files reviewed; committed unread before round 67's first change):
    # its one untouched run on round 68 (2-BC), C 103/110 / 0/55, M 44/50 / 0/32, H 69/70 / 1/84 (2-BB the
    # same); since read for round 69: C 110/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind78": {"conflict": (1.00, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v79 (as v38, prefix wc, all six files reviewed; committed unread before round 68's first change):
    # its one untouched run on round 69 (2-BD), C 97/110 / 1/55, M 47/50 / 0/32, H 67/70 / 2/84 (2-BC the
    # same); since read for round 70: C 108/110 / 0/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind79": {"conflict": (0.98, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v80 (as v38, prefix wd, all six files reviewed; committed unread before round 68's first change):
    # its one untouched run on round 70 (2-BE), C 101/110 / 8/55, M 48/50 / 0/32, H 68/70 / 3/84 (2-BD the
    # same); since read for round 71: C 105/110 / 4/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind80": {"conflict": (0.95, 0.08), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v81 (as v38, prefix we, all six files reviewed; committed unread before round 69's first change):
    # its one untouched run on round 71 (2-BF), C 97/110 / 1/55, M 48/50 / 0/32, H 66/70 / 3/84 (2-BE the
    # same); since read for round 72: C 105/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind81": {"conflict": (0.95, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v82 (as v38, prefix wf, all six files reviewed; committed unread before round 71's first change):
    # its one untouched run on round 72 (2-BG), C 103/110 / 3/55, M 48/50 / 0/32, H 68/70 / 4/84 (2-BF the
    # same); since read for round 73: C 107/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind82": {"conflict": (0.97, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v83 (as v38, prefix wg, all six files reviewed; committed unread before round 72's first change):
    # its one untouched run on round 73 (2-BH), C 100/110 / 2/55, M 47/50 / 0/32, H 68/70 / 2/84 (2-BG the
    # same); since read for round 74: C 106/110 / 0/55, M 49/50 / 0/32, H 70/70 / 0/84
    "blind83": {"conflict": (0.96, 0.00), "missing": (0.98, 0.00), "high_risk": (1.00, 0.00)},
    # blind v84 (as v38, prefix wh, all six files reviewed; committed unread before round 73's first change):
    # its one untouched run on round 74 (2-BI), C 100/110 / 1/55, M 49/50 / 1/32, H 69/70 / 1/84 (2-BH the
    # same); since read for round 75: C 108/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind84": {"conflict": (0.98, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v85 (as v38, prefix wi, all six files reviewed; committed unread before round 74's first change):
    # its one untouched run on round 75 (2-BJ), C 96/110 / 2/55, M 48/50 / 1/32, H 67/70 / 2/84 (2-BI the
    # same); since read for round 76: C 104/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind85": {"conflict": (0.94, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v86 (as v38, prefix wj, all six files reviewed; committed unread before round 75's first change):
    # its one untouched run on round 76 (2-BK), C 102/110 / 4/55, M 48/50 / 0/32, H 69/70 / 1/84 (2-BJ the
    # same); since read for round 77: C 109/110 / 2/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind86": {"conflict": (0.99, 0.04), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v87 (as v38, prefix wk, all six files reviewed; committed unread before round 76's first change):
    # its one untouched run on round 77 (2-BL), C 102/110 / 1/55, M 47/50 / 0/32, H 69/70 / 2/84 (2-BK the
    # same); since read for round 78: C 109/110 / 1/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind87": {"conflict": (0.99, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v88 (as v38, prefix wl, all six files reviewed; committed unread before round 77's first change):
    # its one untouched run on round 78 (2-BM), C 98/110 / 1/55, M 47/50 / 0/32, H 69/70 / 3/84 (2-BL the
    # same); since read for round 79: C 109/110 / 0/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind88": {"conflict": (0.99, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v89 (as v38, prefix wm, all six files reviewed; committed unread before round 78's first change):
    # its one untouched run on round 79 (2-BN), C 101/110 / 2/55, M 47/50 / 0/32, H 70/70 / 1/84 (2-BM the
    # same); since read for round 80: C 107/110 / 1/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind89": {"conflict": (0.97, 0.02), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v90 (as v38, prefix wn, all six files reviewed; committed unread before round 79's first change):
    # its one untouched run on round 80 (2-BO), C 102/110 / 1/55, M 49/50 / 0/32, H 69/70 / 3/84 (2-BN the
    # same); since read for round 81: C 109/110 / 0/55, M 50/50 / 0/32, H 70/70 / 0/84
    "blind90": {"conflict": (0.99, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.00)},
    # blind v91 (as v38, prefix wo, all six files reviewed; committed unread before round 80's first change):
    # its one untouched run on round 81 (2-BP), C 97/110 / 2/55, M 48/50 / 0/32, H 70/70 / 3/84 (2-BO the
    # same); since read for round 82: C 107/110 / 0/55, M 50/50 / 0/32, H 70/70 / 1/84
    "blind91": {"conflict": (0.97, 0.00), "missing": (1.00, 0.00), "high_risk": (1.00, 0.02)},
    # blind v92 (as v38, prefix wp, all six files reviewed; committed unread before round 81's first change):
    # its one untouched run on round 82 (2-BQ), C 96/110 / 5/55, M 46/50 / 0/32, H 68/70 / 1/84 (2-BP the
    # same)
    "blind92": {"conflict": (0.87, 0.10), "missing": (0.92, 0.00), "high_risk": (0.97, 0.02)},
}

# Each blind half was frozen before the tuning round it tests was merged (docs/controller.md).
BLIND_SHA256 = {
    "blind3": "3da6d909f6af289f933c4602f746227c07e37c3e43f9eefc880a57d050e47198",
    "blind4": "1ab38a6f9ff961cfd4680592584d811cdfe6626e0ffb7427b0c62f45752a971f",
    "blind5": "9ca4fbc5c0096c35fdb4c2a84196e2eea36996ec249bc16e655fbb0de781fa7e",
    "blind6": "2fefb74cb95334f14a5ceece87534e4a04add2c0cc473ae1e8c27ccda7d573b3",
    "blind7": "06ada2806fb70d096ee011f2effb93dcf195dc35b84b0e6cc31daef0e0c87c19",
    "blind8": "d656bd6d8a1bb77d1a40d39b959bd25d9fdf93d1e7d3a697588844d26fd7f379",
    "blind9": "9fcaf7c7c0931205d3b1b26b46e679819bdc9f4134145cbc726ce44811705821",
    "blind10": "d120c02bd091d18b70d3a8ed8f845a668bc8b4e5ed858de1d93b471ab8719873",
    "blind11": "79c8bd7e7a1e830568a204a87406b15c811a287e981fd59658014828d4674b8b",
    "blind12": "31dda73d993adf04d0479a9a0ec9ed62238f417c977a7bb7b39126ba38066efb",
    "blind13": "a49d39ec706f69102f6bd7228704a396a88ecfca2958ebb1c1826096b6a0b069",
    "blind14": "88040de9b39518c473bea9abb7f5e344b5f13746607a474d66d64fb974474640",
    "blind15": "90444a9934c7e91d074a1a525e945fea6df427474af2ebcb80511df6d6141aaf",
    "blind16": "60a16bf524e72f74da6c1d0506ef04c7cf0d42224401418e79c97a8e2f36b036",
    "blind17": "6233f50778aec3bdf355f6a8a8230bfb07a8fabf91d449dd8f13779fcad2adcc",
    "blind18": "b53b257edef1789f0d190bf33924f3a7f8821446ef8438548c2309f6977891ff",
    "blind19": "7b31f057fee0aa39d8845e88da2940f13f23adae86966affd06d87217b664be9",
    "blind20": "9bea546e45440e0c3f7e3734cb243c66b978ae2a1ba1fd67f3eec2fe2bead3d3",
    "blind21": "e37663684746b1e65427457e540c841df6476851809fcdfd488d816eb808aceb",
    "blind22": "7f59ab7a1d8117f1adb839e32a21cae20a3a1a97eb5af92986afa5db90ca129b",
    "blind23": "5bbf5828356c41e7b0c6aa76221cac5350fce7f00f432acb56900adf1128b60a",
    "blind24": "19ca48611ad7c742fd17b4f8f4d4bc529c1e2fd586a767a4c64093262b9a5901",
    "blind25": "558c6c7c6681992f67ff31eea29306cdefdbc71aeb29677502f3b4c15e61d331",
    "blind26": "341703175a37c3cab8cb262ac04d4ba327388367f80696c4902eaa85ec117d57",
    "blind27": "8f2f92b57bca3b9c4801b8b6c1d77029ea9dadf3eb45ed68f14f74b3839ff2af",
    "blind28": "68713020d9da1d3cd103afd288dfa75b668a0cde4371dbfd34baa1cc30f3b101",
    "blind29": "7d42e5e8459136c5eede6a37eda7085faa23e68e1ff1fafa33782fe9bdc82a18",
    "blind30": "a79dd3f9de18a5159cc93c212fe4f48373b7fe0a4e342422d468c88ddfbf3b4e",
    "blind31": "1ccd016e78fe8eccd907dbb7e3a60a10597f0f9ac10b3dfbd740dd2fb728c577",
    "blind32": "5254e3107ce71d5aedaf5ae9946a475a96072b308a2b130b957aa2752bfafcac",
    "blind33": "922d512b6aec2c892bf0d41c60304e06bcdec3c96397ede5b72b1c7e38820c89",
    "blind34": "02716e593957c0640e269dc44ead26efca46bf808e778627dc7f53c1ef23fc75",
    "blind35": "c5b425978c1239e173b559222ca90e9a6f0fa4ac959567f692eb8e00939663b3",
    "blind36": "563ddf3d7c078c044557a8d14cb9bab1738ce4c670704a2faf63b1b27a93eea6",
    "blind37": "35d341c4da141e0e9dbe85c238662b86e5a58533cf790c705728d4e5bc007407",
    "blind38": "260af610f5ec2f78663b35c597bfbf9600445e699e2a9155b704c2467135d4e7",
    "blind39": "b60e2e4bc589a9ce1145740e0c6374323a9bc0142d5dba11894ca6ce797d260f",
    "blind40": "cfb4a633138367b6f53506eee67c0e2c4e04b06ba3e52cacda51878e662a2a6c",
    "blind41": "3fe41203193ce49d0b593bee9d1e60f3c088d56ba8709ed16ff29061f8762f54",
    "blind42": "33f155bbf85eee3bd497e8339fed0215b1785d6ca27d44538cd2538c1ebc3a47",
    "blind43": "f0210eb11d9903e2c75ccef0e15d7ac32683218977db0eb11bd498025ef26335",
    "blind44": "2ce2a14d1c7845114c6dc9a4ddcf8a19396b66742e61c4a504619b0cf8218d1b",
    "blind45": "a3b827ae2e0d043d9be82714bd44aaaf7135fd701ee9b2df2c780be804c939f2",
    "blind46": "1c09bc87f99b64ddb06daf443f2eec82b2067526ae3daab6190cfff6e19a39d8",
    "blind47": "9367d5956bf8453bd1c8a522f3a8cdabe52005ca969c613a57eec6132260a5b8",
    "blind48": "6d72385f19153d02a398aa4d561507126ff62e67de925947fa6105e058e5e2dd",
    "blind49": "a36a6075f80a8cd2b44a145a7ed06d2f9f79333057b37915491c067ecf4f7c68",
    "blind49h": "dc0c423bb97ab6496875285939ea6334c3c9ba13b19baa64a1ab705725fe70e4",
    "blind50": "af8dda29a88e243b56139ef0c101e5bae1037dbe332290ec4e6dc677c52daca4",
    "blind51": "26dc8f342e4defaab68d02925f96fe29f319c937906921b7f2764e217aa18e3a",
    "blind52": "28a5b7f0620431d06a60f900e9029c26c8c668a14b61f264bf4a40c257b6df70",
    "blind53": "b68883a54a4abb0b4f5609da0ef32270362c6e3fcdcaf346e35c91b272cef242",
    "blind54": "f15453eb16c39b9c4af7c20a7d33ae74d2605edb03e254e18abf43ee76101a2a",
    "blind55": "72953fa125fddfc757addab7f306ddcfe9401c4e31d13c849bbef58c55b89a62",
    "blind56": "b08a9e8ad656b2e2636e15879c81f6df30a7016fe1f6bc3c4bc8baf0d3dbc740",
    "blind57": "b4f9123bc5f85705b61c7909795495c4faf7268f9ceae00597dd8b49034a1feb",
    "blind58": "df77b384e3a4d86ac6622c0abbfc513c8c0bb909aa88fd72b67ea1480e5b2502",
    "blind59": "b565b0ea16dfd1daa358c379d32ad8e4946d1eca5322bec8e3f7f940ac698faf",
    "blind60": "0fd3aa809735cb7cca4ecc377efcb2f025f71538ef2069936b0e025a195eb4ad",
    "blind61": "26139984d7cf72e70ec3a0376c1ad807cef720f6e981060bc21e68588c09010f",
    "blind62": "68e1ec1b0c15b98d8d9a32bb1b057e1a5c0d2bba93b3d11f2bfaca34e8e6c835",
    "blind63": "104d2670d3e4909cbb4a2d750824ef9a8f9ed5bdef53f58a52c620cbfdd493a1",
    "blind64": "6a702f4ced372678f27943e51b1a0c9ebbc1231c8762d46c017d405fd6bed889",
    "blind65": "336cf6006353f287dbf0f54ac6e26c422706497fbaa4f2a4779b52360142b45e",
    "blind66": "3f5366d38d63574e171a7be7f2e1faed48e9871933f405cfd57b927d2e5579bf",
    "blind67": "c68b68542b01c0de87cb5131f0c4269437efc6be63d93784f5212752c1314ba1",
    "blind68": "27e820d870dc0a861d64447a9b65737141aa3483d9e061adbb1f36fedeb3b0d4",
    "blind69": "e618f990fcb54209a7cdf2f37ae2d45e655e8bd66b78e9390113ee0feda8a7e7",
    "blind70": "f9b223f1e80f25ba80a43046ae4646bc1f6289cabef5f7f38610406e58a8e411",
    "blind71": "1bf5f6b18982e17cb9dc0c6109e1f1b265b0de757bdc2c5a815bcdb272d358cf",
    "blind72": "b197646a9cbd5a642e119e4965a6d61f1c7838eb451667a825b1f8594b1b5472",
    "blind73": "1218e34e3a41081d8bc4258674991e9c7441377a27d8d06e2ede16cba108ee3e",
    "blind74": "4f7e995364a1b036bc55b8989fefceb79e9833896903a8772b019a9b48552377",
    "blind75": "1204919b02de542a94e130cda9e4376e1d594a962057833d16956b9c1823ac20",
    "blind76": "f4eb6d6269156ec5b66c13b6a0a2b2e1d256705d3f15788f73870b3c3d411573",
    "blind77": "a4d9a0bb2f9001a78cd52441b8a7869cfa4688be6a2adb58f28912beddb68156",
    "blind78": "5bca85b28a0c732358bc84b3fe0ce3d0356154e4216fbbf6417d376cc99892c8",
    "blind79": "bf0e2c3d59014272ae6d22881defe036d372668758941942e99825cd73ea21ed",
    "blind80": "a4a41985b019e82d464dc582572ce761d2a77b2dc514b01228b05b47378ce98c",
    "blind81": "76c1f0382b479b685faacbacfdcf084b2487321b3bae66d8a2e610bfecc6c44a",
    "blind82": "043181d0ad9c311435717b53d7620daba1ec9e4f4c23667440b8f7642045941b",
    "blind83": "0d64d2d34d5352edb69431c40792a4480c3b474310bd2d60c25dcdce3e7c7a4d",
    "blind84": "f7783a6491a82355fd996b3aaed73a47f447525f137dee27df7a2e09aa3e7b73",
    "blind85": "2ef101b544fd78e97fa77b496da6e5325709e6bf640893b4a84844fd11fd3da7",
    "blind86": "8d692ce627bcfd60ceff1670cecfcfecd282031c81d73a2ad746b5463284d707",
    "blind87": "4fe113edcfc135294412cf116a595b72a6f7d73e881f173c1914b60b16f0ab0a",
    "blind88": "56ce5323fb923964b0aff696b4716b2462f91cf9a5a17126f0affc8076ebce48",
    "blind89": "07315cae2d85b46c1d7ade96656063d749c36f917413a3e856bd699f4092367d",
    "blind90": "9cc0e12ce517cdd2ad07dd3eab09a54a9e7d857cb5bd905f2346905ba7ac92e5",
    "blind91": "60994f944912a5622ff3901164dfa5da343856002009ee33aaa1d649d6b8a478",
    "blind92": "5c75d57f2f65c87c8b4087f99bbec28156919a44f6a7a76076b0b923a63ab3ee",
    "blind93": "b254f68a59b8dc76168bccd2cd8126920cdec763f8df85e8646785cdb1357316",
}


@pytest.mark.parametrize("half", sorted(BLIND_SHA256))
def test_blind_half_is_frozen(half: str) -> None:
    from escbench_inspect.controller.heldout import blind_file

    assert hashlib.sha256(blind_file(half).read_bytes()).hexdigest() == BLIND_SHA256[half]  # type: ignore[arg-type]


@pytest.mark.parametrize("half", sorted(FLOORS))
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
    "blind5": ("y", "BLIND5_FILE"),
    "blind6": ("z", "BLIND6_FILE"),
    "blind7": ("q", "BLIND7_FILE"),
    "blind8": ("p", "BLIND8_FILE"),
    "blind9": ("k", "BLIND9_FILE"),
    "blind10": ("j", "BLIND10_FILE"),
    "blind11": ("g", "BLIND11_FILE"),
    "blind12": ("f", "BLIND12_FILE"),
    "blind13": ("e", "BLIND13_FILE"),
    "blind14": ("n", "BLIND14_FILE"),
    "blind15": ("s", "BLIND15_FILE"),
    "blind16": ("u", "BLIND16_FILE"),
    "blind17": ("r", "BLIND17_FILE"),
    "blind18": ("h", "BLIND18_FILE"),
    "blind19": ("a", "BLIND19_FILE"),
    "blind20": ("o", "BLIND20_FILE"),
    "blind21": ("l", "BLIND21_FILE"),
    "blind22": ("i", "BLIND22_FILE"),
    "blind23": ("c", "BLIND23_FILE"),
    "blind24": ("m", "BLIND24_FILE"),
    "blind25": ("za", "BLIND25_FILE"),
    "blind26": ("zb", "BLIND26_FILE"),
    "blind27": ("zd", "BLIND27_FILE"),
    "blind28": ("ze", "BLIND28_FILE"),
    "blind29": ("zf", "BLIND29_FILE"),
    "blind30": ("zg", "BLIND30_FILE"),
    "blind31": ("zj", "BLIND31_FILE"),
    "blind32": ("zk", "BLIND32_FILE"),
    "blind33": ("zl", "BLIND33_FILE"),
    "blind34": ("zn", "BLIND34_FILE"),
    "blind35": ("zp", "BLIND35_FILE"),
    "blind36": ("zq", "BLIND36_FILE"),
    "blind37": ("zr", "BLIND37_FILE"),
    "blind38": ("zs", "BLIND38_FILE"),
    "blind39": ("zt", "BLIND39_FILE"),
    "blind40": ("zu", "BLIND40_FILE"),
    "blind41": ("zv", "BLIND41_FILE"),
    "blind42": ("zw", "BLIND42_FILE"),
    "blind43": ("zx", "BLIND43_FILE"),
    "blind44": ("zy", "BLIND44_FILE"),
    "blind45": ("zz", "BLIND45_FILE"),
    "blind46": ("ya", "BLIND46_FILE"),
    "blind47": ("yb", "BLIND47_FILE"),
    "blind48": ("yc", "BLIND48_FILE"),
    "blind49": ("yd", "BLIND49_FILE"),
    "blind49h": ("yd", "BLIND49H_FILE"),
    "blind50": ("ye", "BLIND50_FILE"),
    "blind51": ("yf", "BLIND51_FILE"),
    "blind52": ("yg", "BLIND52_FILE"),
    "blind53": ("yh", "BLIND53_FILE"),
    "blind54": ("yi", "BLIND54_FILE"),
    "blind55": ("yj", "BLIND55_FILE"),
    "blind56": ("yk", "BLIND56_FILE"),
    "blind57": ("yl", "BLIND57_FILE"),
    "blind58": ("ym", "BLIND58_FILE"),
    "blind59": ("yn", "BLIND59_FILE"),
    "blind60": ("yo", "BLIND60_FILE"),
    "blind61": ("yp", "BLIND61_FILE"),
    "blind62": ("yq", "BLIND62_FILE"),
    "blind63": ("yr", "BLIND63_FILE"),
    "blind64": ("ys", "BLIND64_FILE"),
    "blind65": ("yt", "BLIND65_FILE"),
    "blind66": ("yu", "BLIND66_FILE"),
    "blind67": ("yv", "BLIND67_FILE"),
    "blind68": ("yw", "BLIND68_FILE"),
    "blind69": ("yx", "BLIND69_FILE"),
    "blind70": ("yy", "BLIND70_FILE"),
    "blind71": ("yz", "BLIND71_FILE"),
    "blind72": ("zi", "BLIND72_FILE"),
    "blind73": ("zo", "BLIND73_FILE"),
    "blind74": ("zc", "BLIND74_FILE"),
    "blind75": ("zh", "BLIND75_FILE"),
    "blind76": ("zm", "BLIND76_FILE"),
    "blind77": ("wa", "BLIND77_FILE"),
    "blind78": ("wb", "BLIND78_FILE"),
    "blind79": ("wc", "BLIND79_FILE"),
    "blind80": ("wd", "BLIND80_FILE"),
    "blind81": ("we", "BLIND81_FILE"),
    "blind82": ("wf", "BLIND82_FILE"),
    "blind83": ("wg", "BLIND83_FILE"),
    "blind84": ("wh", "BLIND84_FILE"),
    "blind85": ("wi", "BLIND85_FILE"),
    "blind86": ("wj", "BLIND86_FILE"),
    "blind87": ("wk", "BLIND87_FILE"),
    "blind88": ("wl", "BLIND88_FILE"),
    "blind89": ("wm", "BLIND89_FILE"),
    "blind90": ("wn", "BLIND90_FILE"),
    "blind91": ("wo", "BLIND91_FILE"),
    "blind92": ("wp", "BLIND92_FILE"),
    "blind93": ("wq", "BLIND93_FILE"),
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
