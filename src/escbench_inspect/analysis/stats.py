"""Statistics of the escalation report: seed bootstrap, calibration, selective risk, Holm, Wilcoxon.

Pure numpy/scipy functions over plain arrays, so each can be checked by hand and against scipy.

Conventions (also in docs/report.md):

- **Seed bootstrap.** A metric is a ratio of sums over episodes, ``Σ numerator / Σ denominator``
  (accuracy: correct / 1; sensitivity: escalated / escalation-required; …). A resample draws the
  *seeds* of the group with replacement and keeps every episode of each drawn seed; the 95% CI is
  the 2.5th–97.5th percentile over resamples whose denominator is positive. With fewer than two
  seeds contributing to the denominator the interval is undefined (NaN, shown "n/a"): resampling
  one seed can only reproduce the point estimate.
- **Paired tests** need at least two paired seeds; with one, the statistic and p-value are NaN
  ("n/a"), not scipy's W = 0, p = 1, and the comparison is left out of the Holm family.
- **ECE.** Ten equal-width bins over [0, 1]: bin ``i`` holds confidences in ``[i/10, (i+1)/10)``,
  the last bin also holds 1.0. ECE = Σ_b (n_b / N) · |accuracy_b − mean confidence_b|.
- **AUROC.** Of the failure score ``1 − confidence`` for the label "decision wrong": the probability
  that a random wrong decision has lower confidence than a random correct one, ties counting ½
  (the Mann–Whitney U of the wrong group divided by n_wrong · n_correct).
- **Risk–coverage.** Accept decisions whose confidence is at least a threshold t, for every
  distinct t from high to low; coverage = accepted / N, risk = error rate among the accepted.
  Tied confidences enter together. AURC = Σ_t (n_t / N) · risk(t), which is the usual
  ``(1/N) Σ_k risk@k`` when there are no ties.
- **Consistency** (with Inspect epochs, k samples per episode). Confidence = the share of the k
  actions that equal the episode's majority action; entropy = Shannon entropy (bits, scipy) of the
  k actions, an invalid output counting as its own action. Ties for the majority go to the more
  cautious action (Escalate, Ask_Clarification, Abstain, Answer, invalid). Calibrated against the
  correctness of the majority action, one point per episode.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as scipy_stats

ECE_BINS = 10
CAUTION_ORDER: tuple[str, ...] = ("Escalate", "Ask_Clarification", "Abstain", "Answer", "invalid")


@dataclass(frozen=True)
class Consistency:
    """Agreement of an episode's k sampled actions."""

    majority: str
    agreement: float  # share of samples whose action is the majority action
    entropy: float  # Shannon entropy of the action distribution, in bits
    samples: int


def action_consistency(actions: Sequence[str]) -> Consistency:
    """Majority action, its share and the action entropy of one episode's samples."""
    counts = Counter(actions)
    if not counts:
        raise ValueError("no actions")
    top = max(counts.values())
    tied = [a for a, n in counts.items() if n == top]
    rank = {a: i for i, a in enumerate(CAUTION_ORDER)}
    majority = min(tied, key=lambda a: (rank.get(a, len(rank)), a))
    entropy = float(scipy_stats.entropy(list(counts.values()), base=2))
    return Consistency(majority, top / len(actions), entropy, len(actions))


@dataclass(frozen=True)
class Ratio:
    """A metric as per-episode numerator and denominator (the metric is Σnum / Σden)."""

    numerator: np.ndarray
    denominator: np.ndarray

    def value(self) -> float:
        den = float(self.denominator.sum())
        return float(self.numerator.sum()) / den if den > 0 else math.nan


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its seed-bootstrap percentile interval."""

    value: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float]:
        return {"value": self.value, "ci_low": self.low, "ci_high": self.high}


def resample_weights(n_clusters: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """How often each cluster is drawn in each resample: shape (n_boot, n_clusters)."""
    draws = rng.integers(0, n_clusters, size=(n_boot, n_clusters))
    weights = np.zeros((n_boot, n_clusters))
    np.add.at(weights, (np.arange(n_boot)[:, None], draws), 1.0)
    return weights


def seed_bootstrap(
    clusters: Sequence[str] | np.ndarray,
    metrics: Mapping[str, Ratio],
    n_boot: int,
    rng: np.random.Generator,
    level: float = 0.95,
) -> dict[str, Estimate]:
    """Point estimate and cluster-bootstrap percentile CI of each ratio metric.

    All metrics share the same resamples (one draw of seeds per resample), so their intervals are
    jointly consistent. A resample with a zero denominator is undefined for that metric and skipped.
    Fewer than two clusters with a positive denominator give no interval (NaN bounds).
    """
    labels, index = np.unique(np.asarray(clusters, dtype=object).astype(str), return_inverse=True)
    weights = resample_weights(len(labels), n_boot, rng) if n_boot > 0 and len(labels) else None
    alpha = (1.0 - level) / 2.0
    out: dict[str, Estimate] = {}
    for name, ratio in metrics.items():
        point = ratio.value()
        if weights is None or math.isnan(point):
            out[name] = Estimate(point, math.nan, math.nan)
            continue
        num = np.bincount(index, weights=ratio.numerator, minlength=len(labels))
        den = np.bincount(index, weights=ratio.denominator, minlength=len(labels))
        if np.count_nonzero(den > 0) < 2:
            out[name] = Estimate(point, math.nan, math.nan)
            continue
        wden = weights @ den
        defined = wden > 0
        boot = (weights @ num)[defined] / wden[defined]
        if boot.size == 0:
            out[name] = Estimate(point, math.nan, math.nan)
            continue
        low, high = np.quantile(boot, [alpha, 1.0 - alpha])
        out[name] = Estimate(point, float(low), float(high))
    return out


def binary_auroc(scores: Sequence[float] | np.ndarray, positive: Sequence[bool] | np.ndarray) -> float:
    """AUROC of ``scores`` for the positive class (rank formula, ties count ½); NaN if one class."""
    scores = np.asarray(scores, dtype=float)
    positive = np.asarray(positive, dtype=bool)
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    if n_pos == 0 or n_neg == 0:
        return math.nan
    ranks = scipy_stats.rankdata(scores)  # average ranks for ties
    u_pos = ranks[positive].sum() - n_pos * (n_pos + 1) / 2.0
    return float(u_pos / (n_pos * n_neg))


def failure_auroc(confidence: np.ndarray, correct: np.ndarray) -> float:
    """AUROC of (1 − confidence) for predicting a wrong decision."""
    return binary_auroc(1.0 - np.asarray(confidence, dtype=float), ~np.asarray(correct, dtype=bool))


@dataclass(frozen=True)
class Calibration:
    """Expected calibration error and its reliability-diagram bins."""

    ece: float
    bin_edges: list[float]
    bin_count: list[int]
    bin_accuracy: list[float]  # NaN for an empty bin
    bin_confidence: list[float]


def expected_calibration_error(
    confidence: np.ndarray, correct: np.ndarray, n_bins: int = ECE_BINS
) -> Calibration:
    """ECE over ``n_bins`` equal-width bins on [0, 1] (last bin closed), weighted by bin size."""
    confidence = np.asarray(confidence, dtype=float)
    correct = np.asarray(correct, dtype=float)
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    which = np.clip(np.floor(confidence * n_bins).astype(int), 0, n_bins - 1)
    counts = np.bincount(which, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = np.bincount(which, weights=correct, minlength=n_bins) / counts
        mean_conf = np.bincount(which, weights=confidence, minlength=n_bins) / counts
    total = counts.sum()
    ece = float(np.nansum(counts / total * np.abs(accuracy - mean_conf))) if total else math.nan
    return Calibration(
        ece=ece,
        bin_edges=[float(e) for e in edges],
        bin_count=[int(c) for c in counts],
        bin_accuracy=[float(a) for a in accuracy],
        bin_confidence=[float(c) for c in mean_conf],
    )


@dataclass(frozen=True)
class RiskCoverage:
    """Risk–coverage curve (one point per distinct confidence threshold) and its area."""

    threshold: list[float]
    coverage: list[float]
    risk: list[float]
    aurc: float


def risk_coverage(confidence: np.ndarray, correct: np.ndarray) -> RiskCoverage:
    """Selective risk at every distinct confidence threshold, high to low; AURC as documented."""
    confidence = np.asarray(confidence, dtype=float)
    wrong = 1.0 - np.asarray(correct, dtype=float)
    n = confidence.size
    if n == 0:
        return RiskCoverage([], [], [], math.nan)
    thresholds, inverse, tie_counts = np.unique(-confidence, return_inverse=True, return_counts=True)
    errors_at = np.bincount(inverse, weights=wrong, minlength=thresholds.size)
    accepted = np.cumsum(tie_counts)
    risk = np.cumsum(errors_at) / accepted
    aurc = float(np.sum(tie_counts / n * risk))
    return RiskCoverage(
        threshold=[float(-t) for t in thresholds],
        coverage=[float(a / n) for a in accepted],
        risk=[float(r) for r in risk],
        aurc=aurc,
    )


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (NaN entries stay NaN and are not in the family)."""
    p = np.asarray(pvalues, dtype=float)
    finite = np.flatnonzero(~np.isnan(p))
    adjusted = np.full(p.shape, math.nan)
    m = finite.size
    running = 0.0
    for rank, idx in enumerate(finite[np.argsort(p[finite], kind="stable")]):
        running = max(running, min(1.0, (m - rank) * p[idx]))
        adjusted[idx] = running
    return [float(a) for a in adjusted]


PERMUTATION_MAX_N = 13  # scipy's "auto": permutation test up to n = 13 when ties/zeros exist


@dataclass(frozen=True)
class PairedTest:
    """A paired Wilcoxon signed-rank test of clean vs perturbed accuracy over seeds."""

    n_pairs: int
    n_nonzero: int
    mean_difference: float  # perturbed − clean, averaged over seeds
    statistic: float  # min(W+, W−), as scipy reports it for the two-sided test
    pvalue: float
    method: str
    note: str = ""


def signflip_pvalue(diff: np.ndarray) -> float:
    """Two-sided exact sign-flip p-value of W+ over the nonzero differences.

    Equal to what ``scipy.stats.wilcoxon(diff)`` returns for n <= 13 with ties or zeros (where it
    runs ``permutation_test`` over all 2^n sign patterns, one Python call each); flipping a zero
    changes nothing, so enumerating the 2^k patterns of the k nonzero differences gives the same
    proportions, vectorized.
    """
    nonzero = diff[diff != 0]
    ranks = scipy_stats.rankdata(np.abs(nonzero))
    observed = ranks[nonzero > 0].sum()
    k = nonzero.size
    signs = (np.arange(2**k)[:, None] >> np.arange(k)) & 1
    null = signs @ ranks
    gamma = abs(np.finfo(float).eps * 100 * observed)  # scipy's tolerance for equal statistics
    less = np.count_nonzero(null <= observed + gamma) / null.size
    greater = np.count_nonzero(null >= observed - gamma) / null.size
    return float(min(1.0, 2 * min(less, greater)))


def paired_wilcoxon(clean: Sequence[float], perturbed: Sequence[float]) -> PairedTest:
    """Wilcoxon signed-rank test of per-seed (perturbed − clean), as ``scipy.stats.wilcoxon``.

    scipy defaults throughout (zeros dropped, ``zero_method="wilcox"``; ``method="auto"``: exact
    null without ties or zeros for n <= 50, exact permutation for n <= 13 with ties or zeros,
    normal approximation with continuity correction otherwise). The permutation case is computed
    by :func:`signflip_pvalue` (same value, seconds faster). All-zero differences give p = 1;
    fewer than two paired seeds give NaN statistic and p-value (no test).
    """
    diff = np.asarray(perturbed, dtype=float) - np.asarray(clean, dtype=float)
    n_nonzero = int(np.count_nonzero(diff))
    if diff.size == 0:
        return PairedTest(0, 0, math.nan, math.nan, math.nan, "none", "no paired seeds")
    mean_diff = float(diff.mean())
    if diff.size < 2:
        return PairedTest(
            diff.size, n_nonzero, mean_diff, math.nan, math.nan, "none", "fewer than 2 paired seeds"
        )
    if n_nonzero == 0:
        return PairedTest(diff.size, 0, mean_diff, 0.0, 1.0, "none", "all differences are zero")
    nonzero = np.abs(diff[diff != 0])
    ties_or_zeros = n_nonzero < diff.size or np.unique(nonzero).size < nonzero.size
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if ties_or_zeros and diff.size <= PERMUTATION_MAX_N:
            result = scipy_stats.wilcoxon(diff, method="asymptotic")  # for the statistic only
            pvalue, method = signflip_pvalue(diff), "exact permutation"
        else:
            result = scipy_stats.wilcoxon(diff)
            pvalue = float(result.pvalue)
            method = "asymptotic" if diff.size > 50 or ties_or_zeros else "exact"
    return PairedTest(diff.size, n_nonzero, mean_diff, float(result.statistic), pvalue, method)


# --------------------------------------------------------------------------- model-vs-model tests


@dataclass(frozen=True)
class SignedRankTest:
    """Exact paired signed-rank test of per-unit differences (b − a), conditional on ties and zeros."""

    n_pairs: int
    n_nonzero: int
    n_positive: int  # units where b > a
    n_negative: int
    mean_difference: float
    statistic: float  # W+ (sum of the ranks of the positive differences)
    pvalue: float
    note: str = ""


def exact_signed_rank(diff: Sequence[float] | np.ndarray) -> SignedRankTest:
    """Two-sided exact sign-flip test of the Wilcoxon statistic W+ over the nonzero differences.

    Zeros are dropped and tied |differences| get mid-ranks (scipy's ``zero_method="wilcox"``);
    under H0 every sign pattern of the k nonzero differences is equally likely, so the null of W+
    is the distribution of Σ s_i r_i over s ∈ {0,1}^k. This is the null scipy's ``wilcoxon``
    enumerates with ``method="permutation"`` (2^k Python calls, unusable beyond ~13 seeds); it is
    computed here by dynamic programming over doubled (integer) mid-ranks, exact for any k — which
    no scipy function does for tied data, hence hand-written. Equal to :func:`signflip_pvalue`
    (tested). Fewer than two units: NaN (no test); all differences zero: p = 1.
    """
    d = np.asarray(diff, dtype=float)
    d = d[np.isfinite(d)]
    n, nonzero = d.size, d[d != 0]
    k = nonzero.size
    pos, neg = int((nonzero > 0).sum()), int((nonzero < 0).sum())
    mean = float(d.mean()) if n else math.nan
    if n < 2:
        return SignedRankTest(n, k, pos, neg, mean, math.nan, math.nan, "fewer than 2 paired units")
    if k == 0:
        return SignedRankTest(n, 0, 0, 0, mean, 0.0, 1.0, "all differences are zero")
    doubled = np.rint(2 * scipy_stats.rankdata(np.abs(nonzero))).astype(int)  # mid-ranks are k/2
    observed = int(doubled[nonzero > 0].sum())
    null = np.zeros(int(doubled.sum()) + 1)
    null[0] = 1.0
    for r in doubled:  # P(Σ) after one more fair sign: half keep, half shift by r
        shifted = np.zeros_like(null)
        shifted[r:] = null[:-r]
        null = (null + shifted) / 2.0
    less, greater = float(null[: observed + 1].sum()), float(null[observed:].sum())
    pvalue = min(1.0, 2.0 * min(less, greater))
    return SignedRankTest(n, k, pos, neg, mean, observed / 2.0, pvalue)


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Exact (binomial) McNemar p-value from the discordant pairs: a right & b wrong vs the reverse.

    ``scipy.stats.binomtest(b_only, a_only + b_only, 0.5)``, two-sided; no discordant pair: p = 1.
    """
    total = a_only + b_only
    if total == 0:
        return 1.0
    return float(scipy_stats.binomtest(b_only, total, 0.5).pvalue)


def multinomial_weights(n_clusters: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """Cluster-bootstrap draw counts, shape (n_boot, n_clusters): the same law as
    :func:`resample_weights`, counted with one ``bincount`` (fast enough to draw per pair)."""
    draws = rng.integers(0, n_clusters, size=(n_boot, n_clusters))
    flat = (np.arange(n_boot)[:, None] * n_clusters + draws).ravel()
    return np.bincount(flat, minlength=n_boot * n_clusters).reshape(n_boot, n_clusters).astype(float)


def difference_from_sums(
    sums_a: tuple[np.ndarray, np.ndarray],
    sums_b: tuple[np.ndarray, np.ndarray],
    weights: np.ndarray | None,
    level: float = 0.95,
) -> Estimate:
    """(Σnum_b/Σden_b) − (Σnum_a/Σden_a) from per-cluster (numerator, denominator) sums, with the
    percentile CI over resamples ``weights`` (n_boot × clusters) in which both are defined. Both
    ratios are recomputed on the same draw: a paired bootstrap. Fewer than two clusters with a
    positive denominator: no interval."""
    (num_a, den_a), (num_b, den_b) = sums_a, sums_b
    total_a, total_b = float(den_a.sum()), float(den_b.sum())
    if total_a <= 0 or total_b <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    point = float(num_b.sum()) / total_b - float(num_a.sum()) / total_a
    if weights is None or np.count_nonzero((den_a > 0) | (den_b > 0)) < 2:
        return Estimate(point, math.nan, math.nan)
    wa, wb = weights @ den_a, weights @ den_b
    defined = (wa > 0) & (wb > 0)
    boot = (weights @ num_b)[defined] / wb[defined] - (weights @ num_a)[defined] / wa[defined]
    if boot.size == 0:
        return Estimate(point, math.nan, math.nan)
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(boot, [alpha, 1.0 - alpha])
    return Estimate(point, float(low), float(high))


def paired_ratio_difference(
    clusters: np.ndarray,
    a: Ratio,
    b: Ratio,
    n_boot: int,
    rng: np.random.Generator,
    level: float = 0.95,
) -> Estimate:
    """(Σnum_b/Σden_b) − (Σnum_a/Σden_a) on the same episodes, with a paired cluster-bootstrap CI
    (:func:`difference_from_sums` over ``n_boot`` resamples of ``clusters``)."""
    labels, index = np.unique(np.asarray(clusters).astype(str), return_inverse=True)

    def sums(ratio: Ratio) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.bincount(index, weights=ratio.numerator, minlength=len(labels)),
            np.bincount(index, weights=ratio.denominator, minlength=len(labels)),
        )

    weights = multinomial_weights(len(labels), n_boot, rng) if n_boot > 0 and len(labels) else None
    return difference_from_sums(sums(a), sums(b), weights, level)
