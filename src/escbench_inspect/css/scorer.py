"""CSS judge and CMS coverage scorers, both on the ``grader`` model role.

* ``css_judge``: one grader call per tuple, structured output ``{score: 0|0.5|1, rationale}``.
* ``cms_judge``: one grader call per baseline recommendation (cached per case), structured output
  ``{items: [{id, covered}], rationale}``; CMS = weighted recall of the consensus items.

A judge failure (exception, prose, wrong schema, out-of-range score) never becomes 0 or 1: the
metric key is NaN, which Inspect excludes from metrics and counts as unscored, the reason goes to
``Score.reason``, the explanation and metadata, and ``css_judge_failed`` / ``cms_judge_failed``
count failures in the metrics (distinct keys, so Inspect View's columns can be told apart).

What a reader sees: the CSS score's answer shows the baseline and mutated recommendations, each
labelled, its explanation the level's meaning and the judge's rationale (the sample's target is
the expected direction); the CMS score's answer is the baseline it judged.
"""

from __future__ import annotations

import json
import math
from typing import Any

import anyio
import regex
from inspect_ai.model import ChatMessageUser, GenerateConfig, ResponseSchema, get_model
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    grouped,
    mean,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState
from inspect_ai.util import json_schema
from pydantic import BaseModel, ConfigDict, ValidationError

from escbench.metrics import clustered_stderr
from escbench_inspect.css.prompts import CMS_JUDGE, CSS_JUDGE
from escbench_inspect.css.solver import (
    STORE_BASELINE,
    STORE_MUTATED,
    check_self_judge,
    model_identity,
)

CSS_LEVELS: tuple[float, ...] = (0.0, 0.5, 1.0)
# what each level means (the judge prompt's definitions, shortened for the explanation)
LEVEL_MEANINGS: dict[float, str] = {
    1.0: "updated in the expected direction",
    0.5: "acknowledged the changed fact, but management materially unchanged or changed another way",
    0.0: "no change and no acknowledgment of the changed fact",
}
NO_RECOMMENDATION = "(empty: no recommendation was returned)"


class CssVerdict(BaseModel):
    # strict: a judge's `true` or `"1"` is not a score (lax pydantic would coerce it to 1.0)
    model_config = ConfigDict(extra="forbid", strict=True)
    score: float
    rationale: str


class CmsItem(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    covered: bool


class CmsVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: list[CmsItem]
    rationale: str


class JudgeFailure(Exception):
    """The grader's reply could not be used; ``reason`` is machine-readable."""

    def __init__(self, reason: str, detail: str = "", raw: str = ""):
        self.reason, self.detail, self.raw = reason, detail, raw
        super().__init__(f"{reason}: {detail}" if detail else reason)


_FENCE = regex.compile(r"^```(?:json)?\s*|\s*```$", regex.MULTILINE)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json.loads hook: a reply with a repeated key is ambiguous (json keeps the last silently)."""
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise json.JSONDecodeError(f"duplicate keys {repeated}", "", 0)
    return dict(pairs)


def parse_json_reply(text: str) -> dict[str, Any]:
    """The single JSON object of a grader reply (code fences tolerated, prose is not)."""
    stripped = _FENCE.sub("", text.strip()).strip()
    try:
        value = json.loads(stripped, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        raise JudgeFailure("not_json", str(error), text) from error
    if not isinstance(value, dict):
        raise JudgeFailure("not_json", "reply is not a JSON object", text)
    return value


def parse_css_verdict(text: str) -> CssVerdict:
    data = parse_json_reply(text)
    try:
        verdict = CssVerdict.model_validate(data)
    except ValidationError as error:
        raise JudgeFailure("schema_invalid", str(error).splitlines()[0], text) from error
    if verdict.score not in CSS_LEVELS:
        raise JudgeFailure("out_of_range", f"score {verdict.score} not in {{0, 0.5, 1}}", text)
    return verdict


def parse_cms_verdict(text: str, item_ids: list[str]) -> CmsVerdict:
    data = parse_json_reply(text)
    try:
        verdict = CmsVerdict.model_validate(data)
    except ValidationError as error:
        raise JudgeFailure("schema_invalid", str(error).splitlines()[0], text) from error
    got = [item.id for item in verdict.items]
    if sorted(got) != sorted(item_ids):
        raise JudgeFailure("schema_invalid", f"item ids {sorted(got)} != expected {sorted(item_ids)}", text)
    return verdict


def weighted_recall(items: list[dict[str, Any]], covered: dict[str, bool]) -> float:
    total = sum(item["weight"] for item in items)
    return sum(item["weight"] for item in items if covered.get(item["id"])) / total


async def _ask(prompt: str, schema_name: str, schema_model: type[BaseModel]) -> str:
    grader = get_model(role="grader", required=True)
    config = GenerateConfig(
        response_schema=ResponseSchema(name=schema_name, json_schema=json_schema(schema_model), strict=True)
    )
    try:
        output = await grader.generate([ChatMessageUser(content=prompt)], config=config)
    except Exception as error:  # any provider failure is a judge failure, not a score
        raise JudgeFailure("judge_error", f"{type(error).__name__}: {error}") from error
    return output.completion


def _grader_check(state: TaskState, allow_self_judge: bool) -> dict[str, Any]:
    grader = get_model(role="grader", required=True)
    self_judged = check_self_judge(grader, str(state.model), allow_self_judge)
    return {
        "grader": model_identity(grader),
        "self_judged": self_judged,
        "allow_self_judge": allow_self_judge,
    }


def failure_key(key: str) -> str:
    """The score key counting one judge's failures: ``css_judge_failed`` / ``cms_judge_failed``."""
    return f"{key}_judge_failed"


def paired_answer(baseline: str | None, mutated: str | None, intervention_id: str) -> str:
    """Both recommendations, each labelled (what Inspect View shows as the CSS score's answer)."""
    # plain-text labels: the sample header renders markdown, the Scoring tab shows the raw text
    return f"{baseline_answer(baseline)}\n\nMUTATED ({intervention_id}): {mutated or NO_RECOMMENDATION}"


def baseline_answer(baseline: str | None) -> str:
    return f"BASELINE (original chart): {baseline or NO_RECOMMENDATION}"


def _failure_score(key: str, failure: JudgeFailure, meta: dict[str, Any], answer: str) -> Score:
    return Score(
        value={key: math.nan, failure_key(key): 1},
        answer=answer,
        reason=failure.reason,
        explanation=f"Judge failure ({failure.reason}); not scored. {failure.detail}".strip(),
        metadata={
            **meta,
            "judge_failure": failure.reason,
            "judge_detail": failure.detail,
            "judge_raw": failure.raw[:2000],
        },
    )


@metric
def judge_failures() -> Metric:
    """Number of samples whose judge reply was unusable (value 1 of ``css_judge_failed``)."""

    def compute(scores: list[SampleScore]) -> float:
        return float(sum(s.score.as_float() for s in scores))

    return compute


def _per_case(scores: list[SampleScore]) -> list[float]:
    seen: dict[str, float] = {}
    for s in scores:
        case_id = str((s.sample_metadata or {}).get("case_id", s.sample_id))
        seen.setdefault(case_id, s.score.as_float())
    return list(seen.values())


@metric
def case_mean() -> Metric:
    """Mean over distinct cases (CMS is a per-case quantity shared by the case's tuples)."""

    def compute(scores: list[SampleScore]) -> float:
        values = _per_case(scores)
        return sum(values) / len(values) if values else math.nan

    return compute


@metric
def case_count() -> Metric:
    """Sum over distinct cases (e.g. CMS judge failures, counted once per case)."""

    def compute(scores: list[SampleScore]) -> float:
        return float(sum(_per_case(scores)))

    return compute


@metric
def family() -> Metric:
    """CSS per intervention family (A-E)."""
    return grouped(mean(), "family", all=False)


@metric
def intervention() -> Metric:
    """CSS per intervention."""
    return grouped(mean(), "intervention_id", all=False)


@scorer(
    metrics={
        "css": [mean(), clustered_stderr("case_id"), family(), intervention()],
        "css_judge_failed": [judge_failures()],
    }
)
def css_judge(allow_self_judge: bool = False) -> Scorer:
    """Three-level judge of the baseline -> mutated change against the expected direction."""

    async def score(state: TaskState, target: Target) -> Score:
        meta = _grader_check(state, allow_self_judge)
        baseline = state.store.get(STORE_BASELINE)
        mutated = state.store.get(STORE_MUTATED)
        md = state.metadata
        answer = paired_answer(baseline, mutated, md["intervention_id"])
        if baseline is None or mutated is None:
            return _failure_score("css", JudgeFailure("missing_recommendations"), meta, answer)
        prompt = CSS_JUDGE.format(
            change_summary=md["change_summary"],
            expected_direction=md["expected_direction"],
            added="; ".join(md.get("consensus_added") or []) or "none",
            removed="; ".join(md.get("consensus_removed") or []) or "none",
            baseline=baseline,
            mutated=mutated,
        )
        try:
            verdict = parse_css_verdict(await _ask(prompt, "css_verdict", CssVerdict))
        except JudgeFailure as failure:
            return _failure_score("css", failure, meta, answer)
        return Score(
            value={"css": verdict.score, failure_key("css"): 0},
            answer=answer,
            explanation=f"CSS {verdict.score:g}: {LEVEL_MEANINGS[verdict.score]}. {verdict.rationale}",
            metadata=meta,
        )

    return score


@scorer(metrics={"cms": [case_mean()], "cms_judge_failed": [case_count()]})
def cms_judge(allow_self_judge: bool = False) -> Scorer:
    """Weighted recall of the case's consensus items in its baseline recommendation.

    One grader call per distinct (case, baseline recommendation); tuples of the same case share it.
    """
    locks: dict[tuple, anyio.Lock] = {}
    results: dict[tuple, tuple[float, str] | JudgeFailure] = {}

    async def score(state: TaskState, target: Target) -> Score:
        meta = _grader_check(state, allow_self_judge)
        baseline = state.store.get(STORE_BASELINE)
        answer = baseline_answer(baseline)
        if baseline is None:
            return _failure_score("cms", JudgeFailure("missing_recommendations"), meta, answer)
        items: list[dict[str, Any]] = state.metadata["consensus_items"]
        key = (str(state.model), state.metadata["case_id"], state.epoch, baseline)
        async with locks.setdefault(key, anyio.Lock()):
            if key not in results:
                listing = "\n".join(f"{i['id']} | {i['weight']} | {i['text']}" for i in items)
                try:
                    reply = await _ask(
                        CMS_JUDGE.format(items=listing, recommendation=baseline), "cms_verdict", CmsVerdict
                    )
                    verdict = parse_cms_verdict(reply, [i["id"] for i in items])
                    covered = {item.id: item.covered for item in verdict.items}
                    results[key] = (weighted_recall(items, covered), verdict.rationale)
                except JudgeFailure as failure:
                    results[key] = failure
        result = results[key]
        if isinstance(result, JudgeFailure):
            return _failure_score("cms", result, meta, answer)
        value, rationale = result
        return Score(
            value={"cms": value, failure_key("cms"): 0},
            answer=answer,
            explanation=f"CMS {value:.3f}: weighted recall of the consensus items in the baseline. "
            f"{rationale}",
            metadata=meta,
        )

    return score
