"""Cohen's and Fleiss' kappa and Krippendorff's alpha: hand-computed values, statsmodels, krippendorff."""

from __future__ import annotations

import math

import numpy as np
import pytest

from escbench_inspect.review.stats import cluster_bootstrap, cohen_kappa, fleiss_kappa, krippendorff_alpha

RATER_A = ["A", "A", "B", "B", "C", "A"]
RATER_B = ["A", "B", "B", "B", "C", "C"]
# four items, three raters each
TABLE = [["A", "A", "A"], ["A", "A", "B"], ["B", "B", "B"], ["A", "B", "C"]]


def test_cohen_kappa_equals_the_hand_computed_value() -> None:
    # p_o = 4/6, p_e = (3*1 + 2*3 + 1*2) / 36 = 11/36, kappa = (24 - 11) / (36 - 11) = 13/25
    assert cohen_kappa(RATER_A, RATER_B) == pytest.approx(13 / 25)


def test_fleiss_kappa_equals_the_hand_computed_value() -> None:
    # P_i = 1, 1/3, 1, 0 -> mean 7/12; p_j = 6/12, 5/12, 1/12 -> P_e = 62/144; kappa = 11/41
    assert fleiss_kappa(TABLE) == pytest.approx(11 / 41)


def test_krippendorff_alpha_equals_the_hand_computed_value() -> None:
    # coincidences: AA 4, BB 3, CC 0, AB 1.5, AC 0.5, BC 0.5; n = 12, n_c = 6, 5, 1
    # alpha = 1 - (n - 1) * D_o / D_e = 1 - 11 * 5 / (144 - 62) = 27/82
    assert krippendorff_alpha(TABLE) == pytest.approx(27 / 82)


def test_the_same_values_as_statsmodels() -> None:
    from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    codes = {"A": 0, "B": 1, "C": 2}
    confusion = np.zeros((3, 3))
    for a, b in zip(RATER_A, RATER_B, strict=True):
        confusion[codes[a], codes[b]] += 1
    assert cohen_kappa(RATER_A, RATER_B) == pytest.approx(cohens_kappa(confusion).kappa)
    counts, _ = aggregate_raters(np.array([[codes[x] for x in row] for row in TABLE]))
    assert fleiss_kappa(TABLE) == pytest.approx(sm_fleiss(counts, method="fleiss"))


def test_the_same_values_as_krippendorff_with_missing_ratings() -> None:
    import krippendorff

    units = [["A", "A", "A"], ["A", "A"], ["B", "B", "C"], ["A", "B", "C"], ["C"], ["B", "A"]]
    codes = {"A": 0.0, "B": 1.0, "C": 2.0}
    matrix = np.full((3, len(units)), np.nan)
    for j, unit in enumerate(units):
        for i, label in enumerate(unit):
            matrix[i, j] = codes[label]
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal")
    assert krippendorff_alpha(units) == pytest.approx(expected)
    assert krippendorff_alpha(TABLE) == pytest.approx(
        krippendorff.alpha(
            reliability_data=np.array([[codes[x] for x in row] for row in TABLE]).T,
            level_of_measurement="nominal",
        )
    )


def test_perfect_and_degenerate_agreement() -> None:
    assert cohen_kappa(["A", "B"], ["A", "B"]) == pytest.approx(1.0)
    assert math.isnan(cohen_kappa(["A", "A"], ["A", "A"]))  # chance agreement is 1: undefined, not 1
    assert math.isnan(krippendorff_alpha([["A", "A"], ["A", "A"]]))
    with pytest.raises(ValueError, match="same number"):
        fleiss_kappa([["A", "B"], ["A"]])


def test_bootstrap_resamples_whole_clusters() -> None:
    units = [["A", "A"], ["A", "A"], ["B", "A"], ["B", "B"], ["C", "C"], ["A", "C"]]
    clusters = ["s1", "s1", "s2", "s2", "s3", "s3"]
    low, high = cluster_bootstrap(units, clusters, krippendorff_alpha, n_boot=300, seed=1)
    point = krippendorff_alpha(units)
    assert low <= point <= high
    assert cluster_bootstrap(units, ["one"] * 6, krippendorff_alpha, n_boot=50) != cluster_bootstrap(
        units, clusters, krippendorff_alpha, n_boot=50
    )
    assert all(math.isnan(v) for v in cluster_bootstrap(units, ["one"] * 6, krippendorff_alpha))
