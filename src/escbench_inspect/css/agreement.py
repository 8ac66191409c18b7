"""Judge replication and agreement: re-judging, Cohen's kappa, Spearman rho, human ratings, report.

Works on Inspect logs of ``escbench/css`` runs: scores live under the ``css_judge`` and
``cms_judge`` scorers as dict values (``css`` / ``cms``; NaN = judge failure, skipped here).
A re-judged log keeps every judging: Inspect appends a later judge's scores as ``css_judge1``,
``css_judge2``, … ; the readers here use the latest judging (:func:`latest_judge`).
"""

from __future__ import annotations

import csv
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CSS_SCORER = "css_judge"
CMS_SCORER = "cms_judge"
LEVELS: tuple[float, ...] = (0.0, 0.5, 1.0)


def cohen_kappa(a: Sequence[float], b: Sequence[float], labels: Sequence[float] = LEVELS) -> float:
    """Unweighted Cohen's kappa between two raters over the same items."""
    if len(a) != len(b) or not a:
        raise ValueError("kappa needs two equally long, non-empty rating lists")
    index = {label: i for i, label in enumerate(labels)}
    for value in (*a, *b):
        if value not in index:
            raise ValueError(f"rating {value} not in {list(labels)}")
    n = len(a)
    observed = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    count_a, count_b = Counter(a), Counter(b)
    expected = sum(count_a[label] * count_b[label] for label in labels) / (n * n)
    if expected == 1.0:
        return 1.0 if observed == 1.0 else 0.0
    return (observed - expected) / (1.0 - expected)


def spearman_rho(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation (scipy.stats.spearmanr; average ranks for ties)."""
    from scipy.stats import spearmanr

    if len(x) != len(y) or len(x) < 2:
        raise ValueError("rho needs two equally long lists of at least 2 values")
    return float(spearmanr(x, y).statistic)


def _finite(value: Any) -> float | None:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def latest_judge(log: Any, scorer: str) -> str:
    """Name of the latest judging by ``scorer`` in a log: ``css_judge``, or ``css_judge2`` after
    two re-judgings (Inspect names appended scores of the same scorer ``<name>1``, ``<name>2``, …)."""
    pattern = re.compile(rf"{re.escape(scorer)}(\d*)")
    found = {
        name for sample in log.samples or [] for name in (sample.scores or {}) if pattern.fullmatch(name)
    }
    return max(found, key=lambda name: int(name[len(scorer) :] or 0), default=scorer)


def sample_scores(log: Any, scorer: str = CSS_SCORER, key: str = "css") -> dict[str, float]:
    """``sample id -> score`` for scored samples of one log (epoch 1 only; latest judging)."""
    scorer = latest_judge(log, scorer)
    out: dict[str, float] = {}
    for sample in log.samples or []:
        if sample.epoch != 1 or not sample.scores or scorer not in sample.scores:
            continue
        value = sample.scores[scorer].value
        score = _finite(value.get(key) if isinstance(value, dict) else value)
        if score is not None:
            out[str(sample.id)] = score
    return out


@dataclass(frozen=True)
class ModelSummary:
    model: str
    grader: str
    css: float
    cms: float
    n_css: int
    n_cms_cases: int
    css_unscored: int


def summarize(log: Any) -> ModelSummary:
    """CSS (mean over scored tuples) and CMS (mean over cases) of one log (latest judgings)."""
    css = sample_scores(log, CSS_SCORER, "css")
    css_scorer, cms_scorer = latest_judge(log, CSS_SCORER), latest_judge(log, CMS_SCORER)
    per_case: dict[str, float] = {}
    graders: set[str] = set()
    unscored = 0
    for sample in log.samples or []:
        if sample.epoch != 1 or not sample.scores:
            continue
        score = sample.scores.get(cms_scorer)
        if score is not None and isinstance(score.value, dict):
            value = _finite(score.value.get("cms"))
            if value is not None:
                per_case.setdefault(str(sample.metadata.get("case_id")), value)
        css_score = sample.scores.get(css_scorer)
        if css_score is not None:
            graders.add(str((css_score.metadata or {}).get("grader", "?")))
            if str(sample.id) not in css:
                unscored += 1
    return ModelSummary(
        model=str(log.eval.model),
        grader=",".join(sorted(graders)),
        css=sum(css.values()) / len(css) if css else math.nan,
        cms=sum(per_case.values()) / len(per_case) if per_case else math.nan,
        n_css=len(css),
        n_cms_cases=len(per_case),
        css_unscored=unscored,
    )


def ranks(values: Sequence[float]) -> list[int | None]:
    """1 = best (highest); ties share the better rank; an unscored (NaN) value gets no rank."""
    return [None if math.isnan(v) else 1 + sum(1 for other in values if other > v) for v in values]


def read_human_ratings(path: Path | str) -> dict[str, list[float]]:
    """Human ratings CSV with columns ``sample_id,rater,score`` (score in {0, 0.5, 1})."""
    path = Path(path)
    ratings: dict[str, list[float]] = {}
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"sample_id", "rater", "score"} - set(reader.fieldnames or [])
        if missing:
            raise ValueError(f"{path}: missing column(s) {sorted(missing)}; expected sample_id,rater,score")
        for row_number, row in enumerate(reader, start=2):
            try:
                score = float(row["score"])
            except ValueError as error:
                raise ValueError(
                    f"{path} line {row_number}: field 'score': '{row['score']}' is not a number"
                ) from error
            if score not in LEVELS:
                raise ValueError(f"{path} line {row_number}: field 'score': {score} not in {{0, 0.5, 1}}")
            ratings.setdefault(row["sample_id"].strip(), []).append(score)
    return ratings


def majority(ratings: Sequence[float]) -> float | None:
    """Strict-majority (most frequent, unique) rating; ``None`` for a tie."""
    counts = Counter(ratings).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def judge_agreement(a: dict[str, float], b: dict[str, float]) -> tuple[float, int]:
    """Kappa over the sample ids both judges scored, and how many there were."""
    shared = sorted(set(a) & set(b))
    if not shared:
        raise ValueError("the two judges share no scored samples")
    return cohen_kappa([a[s] for s in shared], [b[s] for s in shared]), len(shared)


def human_agreement(llm: dict[str, float], human: dict[str, list[float]]) -> dict[str, Any]:
    """LLM-vs-human-majority kappa (ties in the human majority are left out and counted)."""
    pairs, ties = [], 0
    for sample_id, ratings in human.items():
        vote = majority(ratings)
        if vote is None:
            ties += 1
        elif sample_id in llm:
            pairs.append((llm[sample_id], vote))
    if not pairs:
        raise ValueError("no sample has both an LLM score and a human majority")
    kappa = cohen_kappa([p[0] for p in pairs], [p[1] for p in pairs])
    exact = sum(1 for x, y in pairs if x == y)
    return {"kappa": kappa, "n": len(pairs), "exact": exact, "human_ties": ties}


def rejudge(
    log_path: Path | str,
    grader: Any,
    out: Path | str | None = None,
    allow_self_judge: bool = False,
    cms: bool = True,
) -> Path:
    """Re-judge a CSS log with another grader and write the result to a new log.

    Only the grader is resolved (so only its credentials are needed): neither the evaluated model
    nor the grader recorded in the log is called or resolved. The new judge's scores are appended
    (``css_judge1``, ``cms_judge1``, …) beside the ones already there; the input is not modified.
    ``grader`` is a model name (``provider/model``) or an Inspect ``Model``. Default output:
    ``<input stem>.rejudged-<grader>.eval`` next to the input.
    """
    from inspect_ai.log import read_eval_log

    from escbench_inspect.analysis.posthoc import score_log, write_log_atomically
    from escbench_inspect.css.scorer import cms_judge, css_judge

    log_path = Path(log_path)
    log = read_eval_log(str(log_path))
    scorers = [css_judge(allow_self_judge=allow_self_judge)]
    if cms:
        scorers.append(cms_judge(allow_self_judge=allow_self_judge))
    rescored = score_log(log, scorers, model_roles={"grader": grader})
    safe = str(grader).replace("/", "_").replace(":", "_")
    target = Path(out) if out else log_path.with_name(f"{log_path.stem}.rejudged-{safe}.eval")
    write_log_atomically(rescored, target)
    return target
