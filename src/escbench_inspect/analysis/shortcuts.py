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
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import regex

from escbench_inspect.datasets.assembly import default_seeds, iter_episodes
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
    """CART with Gini impurity, depth and leaf-size limits; ties broken by feature order."""

    def __init__(self, max_depth: int = 3, min_leaf: int = 4):
        self.max_depth, self.min_leaf = max_depth, min_leaf

    def fit(self, x: np.ndarray, y: np.ndarray) -> DecisionTree:
        self.classes_ = np.unique(y)
        self.tree_ = self._grow(x, np.searchsorted(self.classes_, y), 0)
        return self

    def _leaf(self, y: np.ndarray) -> tuple:
        counts = np.bincount(y, minlength=len(self.classes_))
        return ("leaf", int(np.argmax(counts)))

    def _grow(self, x: np.ndarray, y: np.ndarray, depth: int) -> tuple:
        if depth >= self.max_depth or len(np.unique(y)) == 1 or len(y) < 2 * self.min_leaf:
            return self._leaf(y)
        best: tuple[float, int, float] | None = None
        parent = _gini(y, len(self.classes_))
        for j in range(x.shape[1]):
            values = np.unique(x[:, j])
            for threshold in (values[:-1] + values[1:]) / 2:
                left = x[:, j] <= threshold
                n_left = int(left.sum())
                if n_left < self.min_leaf or len(y) - n_left < self.min_leaf:
                    continue
                k = len(self.classes_)
                impurity = (n_left * _gini(y[left], k) + (len(y) - n_left) * _gini(y[~left], k)) / len(y)
                if impurity < parent - 1e-12 and (best is None or impurity < best[0] - 1e-12):
                    best = (impurity, j, float(threshold))
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
    """Multinomial logistic regression with L2, standardized features, full-batch gradient descent
    from zero weights (deterministic)."""

    def __init__(self, l2: float = 1.0, steps: int = 2000, rate: float = 0.5):
        self.l2, self.steps, self.rate = l2, steps, rate

    def fit(self, x: np.ndarray, y: np.ndarray) -> LogisticRegression:
        self.classes_ = np.unique(y)
        self.mean_, self.scale_ = x.mean(axis=0), x.std(axis=0)
        self.scale_[self.scale_ == 0] = 1.0
        z = (x - self.mean_) / self.scale_
        onehot = (np.searchsorted(self.classes_, y)[:, None] == np.arange(len(self.classes_))).astype(float)
        w = np.zeros((z.shape[1], len(self.classes_)))
        b = np.zeros(len(self.classes_))
        for _ in range(self.steps):
            p = _softmax(z @ w + b)
            grad = p - onehot
            w -= self.rate * (z.T @ grad / len(z) + self.l2 * w / len(z))
            b -= self.rate * grad.mean(axis=0)
        self.w_, self.b_ = w, b
        return self

    def predict(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean_) / self.scale_
        return self.classes_[np.argmax(z @ self.w_ + self.b_, axis=1)]


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


class NaiveBayes:
    """Multinomial naive Bayes over word counts with additive smoothing ``alpha``."""

    def __init__(self, alpha: float = 1.0):
        self.alpha = alpha

    def fit(self, texts: Sequence[str], y: np.ndarray) -> NaiveBayes:
        self.classes_ = np.unique(y)
        self.vocab_ = {w: i for i, w in enumerate(sorted({w for t in texts for w in _words(t)}))}
        counts = self._counts(texts)
        index = np.searchsorted(self.classes_, y)
        self.prior_ = np.log(np.bincount(index, minlength=len(self.classes_)) / len(y))
        per_class = np.array([counts[index == c].sum(axis=0) for c in range(len(self.classes_))])
        smoothed = per_class + self.alpha
        self.log_p_ = np.log(smoothed / smoothed.sum(axis=1, keepdims=True))
        return self

    def _counts(self, texts: Sequence[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), len(self.vocab_)))
        for row, text in enumerate(texts):
            for word in _words(text):
                if word in self.vocab_:
                    matrix[row, self.vocab_[word]] += 1
        return matrix

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        scores = self._counts(texts) @ self.log_p_.T + self.prior_
        return self.classes_[np.argmax(scores, axis=1)]


def _words(text: str) -> list[str]:
    return WORD.findall(text.lower())


# --- evaluation ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolicyResult:
    """Test-split figures of one content-free policy."""

    policy: str
    family: str  # constant | layout | bag_of_words
    accuracy: float
    sensitivity: float
    specificity: float
    utility_5: float
    utility_10: float
    episodes: int
    seeds: int
    variant_identification: float | None = None


@dataclass(frozen=True)
class AuditData:
    """Episodes of one split as the audit sees them."""

    texts: list[str]
    seeds: np.ndarray
    variants: np.ndarray
    primary: np.ndarray  # the first acceptable action (training target)
    acceptable: list[tuple[str, ...]]
    escalation: np.ndarray

    @classmethod
    def of(cls, episodes: Sequence[Episode]) -> AuditData:
        return cls(
            texts=[render_blocks(e) for e in episodes],
            seeds=np.array([e.seed_id for e in episodes]),
            variants=np.array([e.variant.value for e in episodes]),
            primary=np.array([e.acceptable_actions[0].value for e in episodes]),
            acceptable=[tuple(a.value for a in e.acceptable_actions) for e in episodes],
            escalation=np.array([e.escalation_required for e in episodes]),
        )


def score_actions(
    name: str, family: str, actions: Sequence[str], data: AuditData, variants: Sequence[str] | None = None
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
    identified = None
    if variants is not None:
        identified = float(np.mean(np.asarray(variants) == data.variants))
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


def audit(episodes: Sequence[Episode] | None = None) -> list[PolicyResult]:
    """Fit every content-free baseline on dev, score it on test."""
    episodes = list(iter_episodes(default_seeds())) if episodes is None else list(episodes)
    dev = AuditData.of([e for e in episodes if e.split == "dev"])
    test = AuditData.of([e for e in episodes if e.split == "test"])
    results = [score_actions(f"always {a}", "constant", [a] * len(test.texts), test) for a in ACTIONS]

    x_dev, names = feature_matrix(dev.texts)
    x_test, _ = feature_matrix(test.texts, names)
    layout_models: dict[str, Callable[[], object]] = {
        "layout tree": lambda: DecisionTree(max_depth=3, min_leaf=4),
        "layout logistic": lambda: LogisticRegression(l2=1.0),
    }
    for label, make in layout_models.items():
        action_model = make().fit(x_dev, dev.primary)
        results.append(score_actions(f"{label} → action", "layout", action_model.predict(x_test), test))
        variant_model = make().fit(x_dev, dev.variants)
        predicted = variant_model.predict(x_test)
        mapped = [PAPER_MAPPING[v] for v in predicted]
        results.append(score_actions(f"{label} → variant → mapping", "layout", mapped, test, predicted))

    for target_name, target in (("action", dev.primary), ("variant", dev.variants)):
        alpha = _best_alpha(dev, target)
        model = NaiveBayes(alpha).fit(dev.texts, target)
        predicted = model.predict(test.texts)
        if target_name == "action":
            results.append(
                score_actions(f"bag of words (α={alpha}) → action", "bag_of_words", predicted, test)
            )
        else:
            mapped = [PAPER_MAPPING[v] for v in predicted]
            results.append(
                score_actions(
                    f"bag of words (α={alpha}) → variant → mapping", "bag_of_words", mapped, test, predicted
                )
            )
    return results


def _best_alpha(dev: AuditData, target: np.ndarray, grid: Sequence[float] = (0.1, 0.5, 1.0, 2.0)) -> float:
    """Smoothing with the best leave-one-seed-out accuracy on dev (first of equals)."""

    def cv(alpha: float) -> float:
        def fit_predict(train: np.ndarray, held: np.ndarray) -> np.ndarray:
            model = NaiveBayes(alpha).fit([dev.texts[i] for i in train], target[train])
            return model.predict([dev.texts[i] for i in held])

        return _grouped_cv_accuracy(fit_predict, dev, target)

    scores = [cv(alpha) for alpha in grid]
    return grid[int(np.argmax(scores))]


@functools.cache
def default_audit() -> tuple[PolicyResult, ...]:
    """The audit of the packaged corpus (cached: the corpus is package data)."""
    return tuple(audit())


def best_content_free(results: Sequence[PolicyResult]) -> PolicyResult:
    """The reference row for Table I: the content-free policy with the best test 5:1 utility
    (accuracy breaks ties)."""
    return max(results, key=lambda r: (r.utility_5, r.accuracy))


def render_markdown(results: Sequence[PolicyResult]) -> str:
    lines = [
        "| content-free policy (fitted on dev) | accuracy | sensitivity | specificity "
        "| utility 5:1 | variant identified |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        ident = "—" if r.variant_identification is None else f"{r.variant_identification:.2f}"
        lines.append(
            f"| {r.policy} | {r.accuracy:.3f} | {r.sensitivity:.2f} | {r.specificity:.2f} | "
            f"{r.utility_5:+.3f} | {ident} |"
        )
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")


def run(args: argparse.Namespace) -> int:
    results = default_audit()
    print("Shortcut audit: content-free baselines fitted on the dev split, scored on the test split.\n")
    print(render_markdown(results))
    best = best_content_free(results)
    print(f"\nBest content-free policy (reference row under Table I): {best.policy}")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(run(argparse.Namespace(json=None)))
