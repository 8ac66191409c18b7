"""Shortcut audit: how well do policies that never read the clinical content score?

A benchmark is only as good as what it cannot be gamed by. This audit fits content-free baselines
on the dev split only and reports them on the test split, so every corpus change is checked:

- **constant** policies (always the same action);
- **layout-only** policies over features a model could read without understanding the text: block
  headers present, block count, paragraphs, lines and characters per block, bracketed fields,
  absence-vocabulary phrases (each phrase counted separately) — fitted as a depth-limited decision
  tree and as an L2 logistic regression, each predicting the action directly and, as the original
  exploit did, predicting the variant and mapping it to the paper's typical action;
- a **bag-of-words** multinomial naive Bayes over the rendered input, its smoothing chosen by
  seed-grouped (leave-one-seed-out) cross-validation on dev.

Each is reported with accuracy (action in the acceptable set), escalation sensitivity and
specificity, the 5:1 utility per episode, and variant identification where it predicts variants.
The classifiers are written here with numpy because the suite's dependencies carry no ML library;
they are small, deterministic and exact (no random initialisation).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import regex
from scipy import sparse, stats
from scipy.optimize import minimize

from escbench_inspect.analysis.surface import GROUPS, group_columns, split_blocks, surface_matrix
from escbench_inspect.datasets.assembly import default_seeds, iter_episodes, load_seeds
from escbench_inspect.datasets.minimal_pairs import BRACKETED, absence_pattern
from escbench_inspect.datasets.render import BLOCK_HEADERS, HEADER_LINE, render_blocks
from escbench_inspect.datasets.schema import Action, Episode, Variant

ACTIONS: tuple[str, ...] = tuple(a.value for a in Action)
VARIANTS: tuple[str, ...] = tuple(v.value for v in Variant)
# The exploit the issue found: variant -> the action the paper's design makes typical for it.
PAPER_MAPPING: dict[str, str] = {
    "clean": "Answer",
    "stale": "Answer",
    "missing": "Ask_Clarification",
    "conflict": "Ask_Clarification",
    "late_risk": "Escalate",
}
WORD = regex.compile(r"[a-z]+(?:'[a-z]+)?")
HEADER_WORDS = regex.compile(r"^=== (.+) ===$", regex.MULTILINE)


# --- features -----------------------------------------------------------------------------------


def _blocks_of(text: str) -> list[tuple[str, str]]:
    """(header, body) pairs of a rendered transcript, read from the text alone."""
    parts = HEADER_LINE.split(text)
    headers = HEADER_WORDS.findall(text)
    return list(zip(headers, parts[1:], strict=True))


def layout_features(text: str) -> dict[str, float]:
    """Content-free features of one rendered episode (nothing that needs reading the words)."""
    features: dict[str, float] = {"blocks": 0.0, "chars": float(len(text))}
    features["lines"] = float(text.count("\n") + 1)
    absence = absence_pattern()
    for header in BLOCK_HEADERS.values():
        features[f"has[{header}]"] = 0.0
    for header, body in _blocks_of(text):
        body = body.strip()
        paragraphs = [p for p in regex.split(r"\n[ \t]*\n", body) if p.strip()]
        features["blocks"] += 1
        features[f"has[{header}]"] = 1.0
        features[f"paragraphs[{header}]"] = float(len(paragraphs))
        features[f"lines[{header}]"] = float(len(body.splitlines()))
        features[f"chars[{header}]"] = float(len(body))
        features[f"brackets[{header}]"] = float(len(BRACKETED.findall(body)))
        features[f"absence[{header}]"] = float(len(absence.findall(body)))
    for match in absence.finditer(text):
        key = f"phrase[{match.group(0).lower()}]"
        features[key] = features.get(key, 0.0) + 1.0
    features["brackets"] = float(len(BRACKETED.findall(text)))
    features["absence"] = float(len(absence.findall(text)))
    return features


def feature_matrix(texts: Sequence[str], names: Sequence[str] | None = None) -> tuple[np.ndarray, list[str]]:
    rows = [layout_features(t) for t in texts]
    names = list(names) if names is not None else sorted({k for r in rows for k in r})
    return np.array([[r.get(n, 0.0) for n in names] for r in rows], dtype=float), names


# --- classifiers (numpy; no ML library among the dependencies) ---------------------------------


class DecisionTree:
    """CART with Gini impurity, depth and leaf-size limits; ties broken by feature order.

    Split search is vectorised per feature (sorted values, cumulative class counts), so the
    leave-one-seed-out audit can refit it forty times per feature group in seconds.
    """

    def __init__(self, max_depth: int = 3, min_leaf: int = 4):
        self.max_depth, self.min_leaf = max_depth, min_leaf

    def fit(self, x: np.ndarray, y: np.ndarray) -> DecisionTree:
        self.classes_ = np.unique(y)
        self.tree_ = self._grow(x, np.searchsorted(self.classes_, y), 0)
        return self

    def _leaf(self, y: np.ndarray) -> tuple:
        counts = np.bincount(y, minlength=len(self.classes_))
        return ("leaf", int(np.argmax(counts)))

    def _best_split(self, x: np.ndarray, y: np.ndarray) -> tuple[float, int, float] | None:
        """(impurity, feature, threshold) of the best split, all features at once: per feature,
        sorted values and cumulative class counts give every split's Gini impurity."""
        n, k = len(y), len(self.classes_)
        order = np.argsort(x, axis=0, kind="stable")  # n x d
        values = np.take_along_axis(x, order, axis=0)
        cumulative = np.cumsum(np.eye(k)[y][order], axis=0)  # n x d x k
        left, total = cumulative[:-1], cumulative[-1]
        right = total - left
        sizes = np.arange(1, n)[:, None]
        gini_left = 1.0 - (left**2).sum(axis=2) / sizes**2
        gini_right = 1.0 - (right**2).sum(axis=2) / (n - sizes) ** 2
        impurity = (sizes * gini_left + (n - sizes) * gini_right) / n  # (n-1) x d
        valid = (values[:-1] < values[1:]) & (sizes >= self.min_leaf) & (n - sizes >= self.min_leaf)
        if not valid.any():
            return None
        impurity = np.where(valid, impurity, np.inf)
        per_feature = impurity.min(axis=0)
        j = int(np.argmin(per_feature))  # first feature of equals
        if per_feature[j] >= _gini(y, k) - 1e-12:
            return None
        i = int(np.argmin(impurity[:, j]))
        return float(per_feature[j]), j, float((values[i, j] + values[i + 1, j]) / 2)

    def _grow(self, x: np.ndarray, y: np.ndarray, depth: int) -> tuple:
        if depth >= self.max_depth or len(np.unique(y)) == 1 or len(y) < 2 * self.min_leaf:
            return self._leaf(y)
        best = self._best_split(x, y)
        if best is None:
            return self._leaf(y)
        _, j, threshold = best
        left = x[:, j] <= threshold
        return (
            "split",
            j,
            threshold,
            self._grow(x[left], y[left], depth + 1),
            self._grow(x[~left], y[~left], depth + 1),
        )

    def predict(self, x: np.ndarray) -> np.ndarray:
        return np.array([self.classes_[self._walk(self.tree_, row)] for row in x])

    def _walk(self, node: tuple, row: np.ndarray) -> int:
        while node[0] == "split":
            node = node[3] if row[node[1]] <= node[2] else node[4]
        return node[1]


def _gini(y: np.ndarray, k: int) -> float:
    if len(y) == 0:
        return 0.0
    p = np.bincount(y, minlength=k) / len(y)
    return float(1.0 - (p**2).sum())


class LogisticRegression:
    """Multinomial logistic regression (a softmax over standardized features) with an L2 penalty,
    fitted by L-BFGS from zero weights (deterministic)."""

    def __init__(self, l2: float = 1.0, max_iter: int = 150, start: np.ndarray | None = None):
        # ``start``: initial weights (a neighbouring fold's solution). The loss is strictly convex,
        # so the optimum does not depend on it; it only saves iterations in leave-one-seed-out.
        self.l2, self.max_iter, self.start = l2, max_iter, start

    def fit(self, x: np.ndarray, y: np.ndarray) -> LogisticRegression:
        self.classes_ = np.unique(y)
        self.mean_, self.scale_ = x.mean(axis=0), x.std(axis=0)
        self.scale_[self.scale_ == 0] = 1.0
        z = (x - self.mean_) / self.scale_
        n, d, k = len(z), z.shape[1], len(self.classes_)
        onehot = (np.searchsorted(self.classes_, y)[:, None] == np.arange(k)).astype(float)

        def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
            w, b = theta[: d * k].reshape(d, k), theta[d * k :]
            logits = z @ w + b
            shifted = logits - logits.max(axis=1, keepdims=True)
            log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
            grad = np.exp(log_p) - onehot
            value = -(onehot * log_p).sum() + 0.5 * self.l2 * (w**2).sum()
            return value / n, np.concatenate([(z.T @ grad + self.l2 * w).ravel(), grad.sum(axis=0)]) / n

        start = self.start if self.start is not None and self.start.shape == (d * k + k,) else None
        theta = minimize(
            loss,
            np.zeros(d * k + k) if start is None else start,
            jac=True,
            method="L-BFGS-B",
            options={"maxiter": self.max_iter, "gtol": 1e-6},
        ).x
        self.theta_ = theta
        self.w_, self.b_ = theta[: d * k].reshape(d, k), theta[d * k :]
        return self

    def predict(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean_) / self.scale_
        return self.classes_[np.argmax(z @ self.w_ + self.b_, axis=1)]


class NaiveBayes:
    """Multinomial naive Bayes over token counts with additive smoothing ``alpha``.

    ``fit``/``predict`` take texts (whole-transcript words, as before) or, through
    ``fit_counts``/``predict_counts``, a precomputed sparse count matrix (per-block words or bigrams).
    """

    def __init__(self, alpha: float = 1.0):
        self.alpha = alpha

    def fit(self, texts: Sequence[str], y: np.ndarray) -> NaiveBayes:
        self.vocab_ = {w: i for i, w in enumerate(sorted({w for t in texts for w in _words(t)}))}
        return self.fit_counts(self._counts(texts), y)

    def fit_counts(self, counts: sparse.csr_matrix | np.ndarray, y: np.ndarray) -> NaiveBayes:
        self.classes_ = np.unique(y)
        index = np.searchsorted(self.classes_, y)
        self.prior_ = np.log(np.bincount(index, minlength=len(self.classes_)) / len(y))
        per_class = np.vstack(
            [np.asarray(counts[index == c].sum(axis=0)).ravel() for c in range(len(self.classes_))]
        )
        # The vocabulary is the training episodes' own: a token never seen in training carries no
        # evidence (left in, its smoothed mass would favour the rarest class on a held-out seed).
        seen = per_class.sum(axis=0) > 0
        smoothed = per_class[:, seen] + self.alpha
        self.log_p_ = np.zeros_like(per_class, dtype=float)
        self.log_p_[:, seen] = np.log(smoothed / smoothed.sum(axis=1, keepdims=True))
        return self

    def _counts(self, texts: Sequence[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), len(self.vocab_)))
        for row, text in enumerate(texts):
            for word in _words(text):
                if word in self.vocab_:
                    matrix[row, self.vocab_[word]] += 1
        return matrix

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        return self.predict_counts(self._counts(texts))

    def predict_counts(self, counts: sparse.csr_matrix | np.ndarray) -> np.ndarray:
        scores = np.asarray(counts @ self.log_p_.T) + self.prior_
        return self.classes_[np.argmax(scores, axis=1)]


def _words(text: str) -> list[str]:
    return WORD.findall(text.lower())


# --- evaluation ---------------------------------------------------------------------------------

# Bounds every content-free policy must meet on the test split (issue 20): within the best
# constant policy + 0.10 accuracy and + 0.20 utility 5:1, and at most 0.40 of variants identified.
ACCURACY_MARGIN, UTILITY_MARGIN, VARIANT_BOUND = 0.10, 0.20, 0.40
BOUNDED_FAMILIES = ("layout", "surface")
FITS = ("dev", "loso")


@dataclass(frozen=True)
class PolicyResult:
    """Test-split figures of one content-free policy."""

    policy: str
    family: str  # constant | layout | surface | weak_reading
    accuracy: float
    sensitivity: float
    specificity: float
    utility_5: float
    utility_10: float
    episodes: int
    seeds: int
    variant_identification: float | None = None
    fit: str = "dev"  # dev: fitted on the dev split; loso: leave-one-seed-out over all seeds
    variant_recall: dict[str, float] | None = None  # per variant, where variants are predicted
    variant_precision: dict[str, float] | None = None

    def variant_f1(self, variant: str) -> float:
        """How well this policy singles out one variant (0 when it never predicts it)."""
        if not self.variant_recall or not self.variant_precision:
            return 0.0
        r, p = self.variant_recall[variant], self.variant_precision[variant]
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True)
class AuditData:
    """Episodes as the audit sees them (texts, groups, targets)."""

    texts: list[str]
    seeds: np.ndarray
    splits: np.ndarray
    variants: np.ndarray
    primary: np.ndarray  # the first acceptable action (training target)
    acceptable: list[tuple[str, ...]]
    escalation: np.ndarray

    @classmethod
    def of(cls, episodes: Sequence[Episode]) -> AuditData:
        return cls(
            texts=[render_blocks(e) for e in episodes],
            seeds=np.array([e.seed_id for e in episodes]),
            splits=np.array([e.split for e in episodes]),
            variants=np.array([e.variant.value for e in episodes]),
            primary=np.array([e.acceptable_actions[0].value for e in episodes]),
            acceptable=[tuple(a.value for a in e.acceptable_actions) for e in episodes],
            escalation=np.array([e.escalation_required for e in episodes]),
        )

    def subset(self, index: np.ndarray) -> AuditData:
        return AuditData(
            texts=[self.texts[i] for i in index],
            seeds=self.seeds[index],
            splits=self.splits[index],
            variants=self.variants[index],
            primary=self.primary[index],
            acceptable=[self.acceptable[i] for i in index],
            escalation=self.escalation[index],
        )


def score_actions(
    name: str,
    family: str,
    actions: Sequence[str],
    data: AuditData,
    variants: Sequence[str] | None = None,
    fit: str = "dev",
) -> PolicyResult:
    """Accuracy, sensitivity, specificity and utility (u_TP = u_TN = c_FP = 1, c_FN = 5 or 10)."""
    actions = np.asarray(actions)
    correct = np.array([a in ok for a, ok in zip(actions, data.acceptable, strict=True)])
    escalated = actions == Action.ESCALATE.value
    required = data.escalation
    tp = int((escalated & required).sum())
    fn = int((~escalated & required).sum())
    tn = int((~escalated & ~required).sum())
    fp = int((escalated & ~required).sum())
    identified, recall, precision = None, None, None
    if variants is not None:
        predicted = np.asarray(variants)
        identified = float(np.mean(predicted == data.variants))
        recall = {v: float(np.mean(predicted[data.variants == v] == v)) for v in VARIANTS}
        precision = {
            v: float(np.mean(data.variants[predicted == v] == v)) if (predicted == v).any() else 0.0
            for v in VARIANTS
        }
    return PolicyResult(
        policy=name,
        family=family,
        accuracy=float(correct.mean()),
        sensitivity=tp / (tp + fn) if tp + fn else float("nan"),
        specificity=tn / (tn + fp) if tn + fp else float("nan"),
        utility_5=(tp + tn - 5 * fn - fp) / len(actions),
        utility_10=(tp + tn - 10 * fn - fp) / len(actions),
        episodes=len(actions),
        seeds=len(set(data.seeds)),
        variant_identification=identified,
        fit=fit,
        variant_recall=recall,
        variant_precision=precision,
    )


def _grouped_cv_accuracy(
    fit_predict: Callable[[np.ndarray, np.ndarray], np.ndarray], data: AuditData, target: np.ndarray
) -> float:
    """Leave-one-seed-out accuracy of ``fit_predict(train_index, test_index)`` on ``data``."""
    hits = 0
    for seed in np.unique(data.seeds):
        held = np.flatnonzero(data.seeds == seed)
        train = np.flatnonzero(data.seeds != seed)
        hits += int((fit_predict(train, held) == target[held]).sum())
    return hits / len(target)


FitPredict = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]  # (train rows, target, rows)


def _fitted_predictions(data: AuditData, target: np.ndarray, fit_predict: FitPredict, fit: str) -> np.ndarray:
    """Predictions for the test rows: fitted on dev (``dev``) or, per test seed, on every other
    seed of both splits (``loso``)."""
    test = np.flatnonzero(data.splits == "test")
    if fit == "dev":
        return fit_predict(np.flatnonzero(data.splits == "dev"), target, test)
    predicted = np.empty(len(test), dtype=object)
    for seed in np.unique(data.seeds[test]):
        rows = test[data.seeds[test] == seed]
        predicted[np.isin(test, rows)] = fit_predict(np.flatnonzero(data.seeds != seed), target, rows)
    return predicted.astype(str)


def _learned_mapping(train_variants: np.ndarray, train_actions: np.ndarray) -> dict[str, str]:
    """Variant -> the commonest reference action of that variant among the training episodes."""
    mapping = {}
    for variant in VARIANTS:
        actions = train_actions[train_variants == variant]
        counts = [int((actions == a).sum()) for a in ACTIONS]
        mapping[variant] = ACTIONS[int(np.argmax(counts))]
    return mapping


def _select(
    data: AuditData, target: np.ndarray, make: Callable[[object], FitPredict], grid: Sequence[object]
) -> object:
    """The hyperparameter with the best leave-one-seed-out accuracy inside dev (the attacker tunes
    on dev only; first of equals)."""
    dev = np.flatnonzero(data.splits == "dev")
    if len(grid) == 1:
        return grid[0]
    scores = []
    for value in grid:
        fit_predict = make(value)
        hits = 0
        for seed in np.unique(data.seeds[dev]):
            held = dev[data.seeds[dev] == seed]
            train = dev[data.seeds[dev] != seed]
            hits += int((fit_predict(train, target, held) == target[held]).sum())
        scores.append(hits)
    return grid[int(np.argmax(scores))]


def _policy_rows(
    name: str,
    family: str,
    data: AuditData,
    make: Callable[[object], FitPredict],
    grid: Sequence[object],
    fits: Sequence[str],
) -> list[PolicyResult]:
    """Action and variant targets, each fitted on dev and (optionally) leave-one-seed-out."""
    test = data.subset(np.flatnonzero(data.splits == "test"))
    rows = []
    for target_name, target in (("action", data.primary), ("variant", data.variants)):
        chosen = _select(data, target, make, grid)
        fit_predict = make(chosen)
        for fit in fits:
            predicted = _fitted_predictions(data, target, fit_predict, fit)
            label = f"{name} → {target_name}" + ("" if len(grid) == 1 else f" ({chosen})")
            if target_name == "action":
                rows.append(score_actions(label, family, predicted, test, fit=fit))
                continue
            # The variant is mapped to the commonest action of that variant in the training data.
            train = np.flatnonzero(data.splits == "dev") if fit == "dev" else np.arange(len(target))
            mapping = _learned_mapping(data.variants[train], data.primary[train])
            actions = [mapping[v] for v in predicted]
            rows.append(score_actions(label + " → mapping", family, actions, test, predicted, fit=fit))
    return rows


def _matrix_models(x: np.ndarray) -> dict[str, tuple[Callable[[object], FitPredict], tuple]]:
    def softmax(l2: object) -> FitPredict:
        last: dict[tuple, np.ndarray] = {}

        def fit_predict(train: np.ndarray, y: np.ndarray, rows: np.ndarray) -> np.ndarray:
            key = tuple(np.unique(y[train]))
            model = LogisticRegression(l2=float(l2), start=last.get(key)).fit(x[train], y[train])
            last[key] = model.theta_
            return model.predict(x[rows])

        return fit_predict

    def tree(depth: object) -> FitPredict:
        return lambda train, y, rows: DecisionTree(int(depth), 4).fit(x[train], y[train]).predict(x[rows])

    # Fixed hyperparameters (softmax L2 1.0, tree depth 3): tuning them inside dev changed the test
    # figures by a few hundredths on the first measurement and cost ten times the time.
    return {"softmax": (softmax, (1.0,)), "tree": (tree, (3,))}


def audit(
    episodes: Sequence[Episode] | None = None,
    fits: Sequence[str] = FITS,
    groups: Sequence[str] = tuple(GROUPS),
    weak_reading: bool = True,
) -> list[PolicyResult]:
    """Fit every content-free baseline (on dev, and leave-one-seed-out), score it on test."""
    episodes = list(iter_episodes(default_seeds())) if episodes is None else list(episodes)
    data = AuditData.of(episodes)
    test = data.subset(np.flatnonzero(data.splits == "test"))
    results = [score_actions(f"always {a}", "constant", [a] * len(test.texts), test) for a in ACTIONS]

    x_layout, _ = feature_matrix(data.texts)
    results += _layout_rows(data, x_layout)
    x_surface, names = surface_matrix(data.texts)
    for group in groups:
        x = x_surface[:, group_columns(names, group)]
        for model, (make, grid) in _matrix_models(x).items():
            results += _policy_rows(f"{group}, {model}", "surface", data, make, grid, fits)
    if weak_reading:
        for unit in ("words", "bigrams"):
            counts, _ = token_counts(data.texts, unit)

            def naive_bayes(alpha: object, counts: sparse.csr_matrix = counts) -> FitPredict:
                return lambda train, y, rows: (
                    NaiveBayes(float(alpha)).fit_counts(counts[train], y[train]).predict_counts(counts[rows])
                )

            results += _policy_rows(
                f"bag of {unit} per block", "weak_reading", data, naive_bayes, (0.1, 0.5, 1.0), fits
            )
    return results


def _layout_rows(data: AuditData, x: np.ndarray) -> list[PolicyResult]:
    """The previous issue's layout policies, fitted on dev (kept so the figures stay comparable)."""
    dev, test_rows = np.flatnonzero(data.splits == "dev"), np.flatnonzero(data.splits == "test")
    test = data.subset(test_rows)
    rows = []
    for label, make in {
        "layout tree": lambda: DecisionTree(max_depth=3, min_leaf=4),
        "layout logistic": lambda: LogisticRegression(l2=1.0),
    }.items():
        action = make().fit(x[dev], data.primary[dev]).predict(x[test_rows])
        rows.append(score_actions(f"{label} → action", "layout", action, test))
        predicted = make().fit(x[dev], data.variants[dev]).predict(x[test_rows])
        mapped = [PAPER_MAPPING[v] for v in predicted]
        rows.append(score_actions(f"{label} → variant → mapping", "layout", mapped, test, predicted))
    return rows


# --- weak reading: words and bigrams per block --------------------------------------------------


def block_tokens(text: str, unit: str) -> list[str]:
    """``block:word`` or ``block:word word`` tokens of a transcript (headers are not tokens)."""
    tokens = []
    for key, body in split_blocks(text).items():
        words = _words(body)
        if unit == "words":
            tokens += [f"{key}:{w}" for w in words]
        else:
            tokens += [f"{key}:{a} {b}" for a, b in itertools.pairwise(words)]
    return tokens


def token_counts(texts: Sequence[str], unit: str) -> tuple[sparse.csr_matrix, list[str]]:
    per_text = [Counter(block_tokens(t, unit)) for t in texts]
    vocabulary = sorted({tok for c in per_text for tok in c})
    index = {tok: i for i, tok in enumerate(vocabulary)}
    rows, cols, values = [], [], []
    for row, counter in enumerate(per_text):
        for tok, n in counter.items():
            rows.append(row)
            cols.append(index[tok])
            values.append(float(n))
    shape = (len(texts), len(vocabulary))
    return sparse.csr_matrix((values, (rows, cols)), shape=shape), vocabulary


def signal_words(
    episodes: Sequence[Episode] | None = None, unit: str = "words", top: int = 6, min_seeds: int = 4
) -> dict[str, list[tuple[str, float, float]]]:
    """Per variant, the tokens most over-represented in it: (token, share of that variant's
    episodes containing it, share of the other variants' episodes). Only tokens that occur in at
    least ``min_seeds`` seeds count (a seed's own vocabulary is not a corpus-wide cue)."""
    episodes = list(iter_episodes(default_seeds())) if episodes is None else list(episodes)
    data = AuditData.of(episodes)
    counts, vocabulary = token_counts(data.texts, unit)
    present = (counts > 0).astype(float).tocsc()
    seeds_with = np.array([len(set(data.seeds[present[:, j].nonzero()[0]])) for j in range(present.shape[1])])
    result = {}
    for variant in VARIANTS:
        inside = data.variants == variant
        rate_in = np.asarray(present[inside].mean(axis=0)).ravel()
        rate_out = np.asarray(present[~inside].mean(axis=0)).ravel()
        score = np.log((rate_in + 0.02) / (rate_out + 0.02))
        score[seeds_with < min_seeds] = -np.inf
        order = np.argsort(-score, kind="stable")[:top]
        result[variant] = [(vocabulary[j], float(rate_in[j]), float(rate_out[j])) for j in order]
    return result


# --- what carries a signal: within-pair feature differences ------------------------------------


def feature_separation(
    episodes: Sequence[Episode] | None = None, top: int = 15
) -> list[tuple[str, float, dict]]:
    """Surface features that differ systematically between variants of the same (seed, surface).

    Each feature is centred on its (seed, surface) mean, so only within-pair differences remain;
    features are ranked by the Kruskal-Wallis statistic across variants. Returns (feature,
    H statistic, {variant: mean centred value})."""
    episodes = list(iter_episodes(default_seeds())) if episodes is None else list(episodes)
    data = AuditData.of(episodes)
    x, names = surface_matrix(data.texts)
    pairs = np.array([f"{e.seed_id}/{e.surface}" for e in episodes])
    centred = x.copy()
    for pair in np.unique(pairs):
        rows = pairs == pair
        centred[rows] -= x[rows].mean(axis=0)
    ranked = []
    for j, name in enumerate(names):
        groups = [centred[data.variants == v, j] for v in VARIANTS]
        if np.ptp(centred[:, j]) == 0:
            continue
        statistic = float(stats.kruskal(*groups).statistic)
        ranked.append((name, statistic, {v: float(g.mean()) for v, g in zip(VARIANTS, groups, strict=True)}))
    ranked.sort(key=lambda r: -r[1])
    return ranked[:top]


def per_seed_identification(episodes: Sequence[Episode] | None = None, group: str = "all surface features"):
    """Per seed: how many of its episodes' variants a leave-one-seed-out softmax over ``group``
    identifies (the seeds that give their variants away)."""
    episodes = list(iter_episodes(default_seeds())) if episodes is None else list(episodes)
    data = AuditData.of(episodes)
    x_all, names = surface_matrix(data.texts)
    x = x_all[:, group_columns(names, group)]
    hits: dict[str, list[str]] = {}
    for seed in np.unique(data.seeds):
        rows = np.flatnonzero(data.seeds == seed)
        train = np.flatnonzero(data.seeds != seed)
        predicted = LogisticRegression(1.0).fit(x[train], data.variants[train]).predict(x[rows])
        hits[str(seed)] = [str(v) for v, p in zip(data.variants[rows], predicted, strict=True) if v == p]
    return hits


# --- verdict and output -------------------------------------------------------------------------


@functools.cache
def default_audit() -> tuple[PolicyResult, ...]:
    """The dev-fitted audit of the packaged corpus (cached: the corpus is package data). This is
    what the report's content-free reference row is chosen from."""
    return tuple(audit(fits=("dev",), groups=("all surface features",), weak_reading=False))


@functools.cache
def full_audit() -> tuple[PolicyResult, ...]:
    """Every policy of the packaged corpus, fitted on dev and leave-one-seed-out."""
    return tuple(audit())


def best_content_free(results: Sequence[PolicyResult]) -> PolicyResult:
    """The reference row for Table I: the dev-fitted content-free policy with the best test 5:1
    utility (accuracy breaks ties)."""
    return max((r for r in results if r.fit == "dev"), key=lambda r: (r.utility_5, r.accuracy))


def breaches(results: Sequence[PolicyResult], families: Sequence[str] = BOUNDED_FAMILIES) -> list[str]:
    """Every policy of ``families`` (by default the content-free, non-constant ones) outside the
    bounds, one line each."""
    constant = [r for r in results if r.family == "constant"]
    accuracy = max(r.accuracy for r in constant) + ACCURACY_MARGIN
    utility = max(r.utility_5 for r in constant) + UTILITY_MARGIN
    found = []
    for r in results:
        if r.family not in families:
            continue
        where = f"{r.policy} [{r.fit}]"
        if r.accuracy > accuracy + 1e-9:
            found.append(f"{where}: accuracy {r.accuracy:.3f} > {accuracy:.3f}")
        if r.utility_5 > utility + 1e-9:
            found.append(f"{where}: utility 5:1 {r.utility_5:+.3f} > {utility:+.3f}")
        if r.variant_identification is not None and r.variant_identification > VARIANT_BOUND + 1e-9:
            found.append(f"{where}: variant identification {r.variant_identification:.2f} > {VARIANT_BOUND}")
    return found


def render_markdown(results: Sequence[PolicyResult]) -> str:
    lines = [
        "| content-free policy | fit | accuracy | sensitivity | specificity "
        "| utility 5:1 | variant identified | most singled-out variant (F1) |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        ident = "—" if r.variant_identification is None else f"{r.variant_identification:.2f}"
        best = "—"
        if r.variant_recall:
            variant = max(VARIANTS, key=r.variant_f1)
            best = f"{variant} {r.variant_f1(variant):.2f}"
        lines.append(
            f"| {r.policy} | {r.fit} | {r.accuracy:.3f} | {r.sensitivity:.2f} | {r.specificity:.2f} | "
            f"{r.utility_5:+.3f} | {ident} | {best} |"
        )
    return "\n".join(lines)


def summary_table(results: Sequence[PolicyResult]) -> str:
    """Per family and fit, the strongest policy on each measure (the dataset card's table)."""
    constant = [r for r in results if r.family == "constant"]
    lines = [
        "| content-free attacker (test split) | fit | accuracy | utility 5:1 | variant identified |",
        "|---|---|---:|---:|---:|",
        f"| best constant | — | {max(r.accuracy for r in constant):.3f} | "
        f"{max(r.utility_5 for r in constant):+.3f} | — |",
        f"| bounds | — | ≤ {max(r.accuracy for r in constant) + ACCURACY_MARGIN:.3f} | "
        f"≤ {max(r.utility_5 for r in constant) + UTILITY_MARGIN:+.3f} | ≤ {VARIANT_BOUND:.2f} |",
    ]
    keys = sorted(
        {
            (r.family, r.policy.split(",")[0].split(" → ")[0], r.fit)
            for r in results
            if r.family != "constant"
        },
        key=lambda k: (k[0] == "weak_reading", k[0], k[1], k[2]),
    )
    for family, group, fit in keys:
        rows = [
            r
            for r in results
            if r.family == family and r.fit == fit and r.policy.split(",")[0].split(" → ")[0] == group
        ]
        idents = [r.variant_identification for r in rows if r.variant_identification is not None]
        name = f"{group} (weak reading)" if family == "weak_reading" else group
        name = f"{group} (previous audit)" if family == "layout" else name
        ident = f"{max(idents):.2f}" if idents else "—"
        accuracy, utility = max(r.accuracy for r in rows), max(r.utility_5 for r in rows)
        lines.append(f"| {name} | {fit} | {accuracy:.3f} | {utility:+.3f} | {ident} |")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--seeds", type=Path, help="audit the seed files of this directory instead")
    parser.add_argument(
        "--per-seed",
        action="store_true",
        help="also list, per seed, the variants a leave-one-seed-out fit finds",
    )
    parser.add_argument("--all-rows", action="store_true", help="print every policy, not only the summary")


def run(args: argparse.Namespace) -> int:
    seeds = load_seeds(args.seeds) if getattr(args, "seeds", None) else default_seeds()
    episodes = list(iter_episodes(seeds))
    results = audit(episodes)
    print("Shortcut audit: content-free policies fitted on dev and leave-one-seed-out, scored on test.\n")
    print(summary_table(results))
    if getattr(args, "all_rows", False):
        print()
        print(render_markdown(results))
    print("\nWithin-pair surface differences (feature centred per seed and surface; mean per variant):")
    for name, statistic, means in feature_separation(episodes, top=12):
        cells = "  ".join(f"{v[:5]} {m:+.2f}" for v, m in means.items())
        print(f"  H={statistic:6.1f}  {name:<48} {cells}")
    print("\nWeak reading: tokens most over-represented per variant (share of its episodes / of the rest):")
    for unit in ("words", "bigrams"):
        for variant, tokens in signal_words(episodes, unit).items():
            shown = ", ".join(f"{t} {a:.2f}/{b:.2f}" for t, a, b in tokens)
            print(f"  {unit:<7} {variant:<9} {shown}")
    if getattr(args, "per_seed", False):
        print("\nPer seed: variants identified by a leave-one-seed-out softmax over all surface features:")
        for seed, found in per_seed_identification(episodes).items():
            print(f"  {seed:<48} {len(found):>2}/10  {', '.join(sorted(found))}")
    problems = breaches(results)
    best = best_content_free(results).policy
    print(f"\nBest dev-fitted content-free policy (reference row under Table I): {best}")
    print(f"Bounds: {'all met' if not problems else f'{len(problems)} breaches'}")
    for line in problems:
        print(f"  {line}")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(run(argparse.Namespace(json=None)))
