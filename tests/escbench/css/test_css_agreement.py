"""Kappa and rho against hand-computed values; human-ratings import and majority."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from escbench_inspect.css.agreement import (
    cohen_kappa,
    human_agreement,
    majority,
    ranks,
    read_human_ratings,
    spearman_rho,
)


def test_kappa_hand_computed() -> None:
    a = [0, 0, 0.5, 1, 1, 1, 0.5, 0, 1, 1]
    b = [0, 0.5, 0.5, 1, 1, 0, 0.5, 0, 1, 0.5]
    # po = 7/10; marginals a: 0->3, 0.5->2, 1->5; b: 0->3, 0.5->4, 1->3
    # pe = (3*3 + 2*4 + 5*3) / 100 = 0.32; kappa = (0.70 - 0.32) / 0.68 = 19/34
    assert cohen_kappa(a, b) == pytest.approx(19 / 34)
    assert cohen_kappa(a, a) == 1.0
    with pytest.raises(ValueError):
        cohen_kappa([0, 0.7], [0, 1])


def test_spearman_hand_computed() -> None:
    # ranks x: 1..5, y: 2,1,4,3,5 -> d^2 = 1+1+1+1+0 = 4; rho = 1 - 6*4/(5*24) = 0.8
    assert spearman_rho([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) == pytest.approx(0.8)
    # the paper's pattern: an exact reversal is -1
    assert spearman_rho([0.61, 0.58, 0.48], [0.31, 0.43, 0.47]) == pytest.approx(-1.0)
    assert ranks([0.4, 0.9, 0.4]) == [2, 1, 2]
    assert ranks([0.4, math.nan, 0.9]) == [2, None, 1]  # an unscored model is not ranked


def test_human_ratings_majority_kappa(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(
        "sample_id,rater,score\n"
        "s1,r1,1\ns1,r2,1\ns1,r3,0\n"
        "s2,r1,0\ns2,r2,0\ns2,r3,0.5\n"
        "s3,r1,0.5\ns3,r2,1\ns3,r3,0\n"  # three-way tie -> left out
        "s4,r1,0.5\ns4,r2,0.5\ns4,r3,1\n"
    )
    human = read_human_ratings(path)
    assert majority(human["s1"]) == 1 and majority(human["s3"]) is None
    result = human_agreement({"s1": 1, "s2": 0, "s3": 1, "s4": 1}, human)
    # pairs (llm, majority): (1,1), (0,0), (1,0.5): po = 2/3; llm marginals 1->2, 0->1;
    # human 1->1, 0->1, 0.5->1; pe = (2*1 + 1*1 + 0*1)/9 = 1/3; kappa = (2/3-1/3)/(2/3) = 0.5
    assert result == {"kappa": pytest.approx(0.5), "n": 3, "exact": 2, "human_ties": 1}


def test_bad_human_csv_names_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("sample_id,rater,score\ns1,r1,0.7\n")
    with pytest.raises(ValueError, match="line 2: field 'score'"):
        read_human_ratings(path)
