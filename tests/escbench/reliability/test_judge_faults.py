"""Judge faults (CSS and CMS on the ``grader`` role): unscored with the reason, counted, never 0 or 1.

tests/escbench/css/test_css_task.py already runs the CSS judge end to end through a raising grader, prose,
an out-of-range score and a different schema. This adds the reply shapes it does not try (parser
level), the CMS judge's failures and a hanging grader end to end, and pins down two replies that
are not turned into scores.
"""

from __future__ import annotations

import asyncio
import math
import re
from pathlib import Path
from typing import Any

import pytest

scorer = pytest.importorskip("escbench_inspect.css.scorer")
JudgeFailure = scorer.JudgeFailure

R = '"rationale": "r"'
CSS_REPLIES = {
    "empty": ("", "not_json"),
    "whitespace": ("  \n ", "not_json"),
    "prose": ("The mutated recommendation changed in the expected direction. Score: 1", "not_json"),
    "truncated_at_max_tokens": ('{"score": 1, "rationale": "The mutated recommen', "not_json"),
    "two_objects": (f'{{"score": 1, {R}}} {{"score": 0, {R}}}', "not_json"),
    "prose_around_object": (f'Verdict: {{"score": 1, {R}}}', "not_json"),
    "a_list": (f'[{{"score": 1, {R}}}]', "not_json"),
    "nan": (f'{{"score": NaN, {R}}}', "out_of_range"),
    "infinity": (f'{{"score": Infinity, {R}}}', "out_of_range"),
    "huge": (f'{{"score": 1e400, {R}}}', "out_of_range"),
    "negative": (f'{{"score": -1, {R}}}', "out_of_range"),
    "two": (f'{{"score": 2, {R}}}', "out_of_range"),
    "almost_half": (f'{{"score": 0.5000001, {R}}}', "out_of_range"),
    "percent": (f'{{"score": "100%", {R}}}', "schema_invalid"),
    "missing_score": ('{"rationale": "r"}', "schema_invalid"),
    "null_rationale": ('{"score": 1, "rationale": null}', "schema_invalid"),
    "extra_key": (f'{{"score": 1, {R}, "confidence": 0.9}}', "schema_invalid"),
    "other_schema": ('{"verdict": "updated", "explanation": "x"}', "schema_invalid"),
    "nested": (f'{{"result": {{"score": 1, {R}}}}}', "schema_invalid"),
}


@pytest.mark.parametrize("case", CSS_REPLIES)
def test_unusable_css_reply_is_a_judge_failure(case: str) -> None:
    reply, reason = CSS_REPLIES[case]
    with pytest.raises(JudgeFailure) as caught:
        scorer.parse_css_verdict(reply)
    assert caught.value.reason == reason


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(f'{{"score": true, {R}}}', id="boolean_score"),
        pytest.param(f'{{"score": "1", {R}}}', id="string_score"),
        pytest.param(f'{{"score": 1, "score": 0, {R}}}', id="duplicate_key"),
    ],
)
def test_ambiguous_css_reply_is_not_scored(reply: str) -> None:
    with pytest.raises(JudgeFailure):
        scorer.parse_css_verdict(reply)


def test_valid_css_levels_still_parse() -> None:
    for level in ("0", "0.5", "1", "1.0", "0.50"):
        assert scorer.parse_css_verdict(f'{{"score": {level}, {R}}}').score == float(level)
    fenced = scorer.parse_css_verdict(f'```json\n{{"score": 0.5, {R}}}\n```')
    assert fenced.score == 0.5


ITEMS = ["a", "b"]
CMS_REPLIES = {
    "prose": ("Both items are covered.", "not_json"),
    "missing_item": ('{"items": [{"id": "a", "covered": true}], "rationale": "r"}', "schema_invalid"),
    "unknown_item": (
        '{"items": [{"id": "a", "covered": true}, {"id": "z", "covered": true}], "rationale": "r"}',
        "schema_invalid",
    ),
    "duplicate_item": (
        '{"items": [{"id": "a", "covered": true}, {"id": "a", "covered": false}, '
        '{"id": "b", "covered": true}], "rationale": "r"}',
        "schema_invalid",
    ),
    "partial_coverage": (
        '{"items": [{"id": "a", "covered": 0.5}, {"id": "b", "covered": true}], "rationale": "r"}',
        "schema_invalid",
    ),
    "items_not_a_list": ('{"items": {"a": true, "b": false}, "rationale": "r"}', "schema_invalid"),
    "empty_items": ('{"items": [], "rationale": "r"}', "schema_invalid"),
}


@pytest.mark.parametrize("case", CMS_REPLIES)
def test_unusable_cms_reply_is_a_judge_failure(case: str) -> None:
    reply, reason = CMS_REPLIES[case]
    with pytest.raises(JudgeFailure) as caught:
        scorer.parse_cms_verdict(reply, ITEMS)
    assert caught.value.reason == reason


def _usage(text: str) -> Any:
    from escbench_inspect.testing import usage_for

    return usage_for(text)


def _reply(text: str) -> Any:
    from inspect_ai.model import ModelOutput

    out = ModelOutput.from_content("mockllm/grader", text)
    out.usage = _usage(text)
    return out


def test_grader_faults_end_to_end_are_unscored_and_counted(tmp_path: Path) -> None:
    """CMS judge raising / replying prose, CSS judge hanging: NaN + reason, counted, no 0 or 1."""
    from inspect_ai import eval
    from inspect_ai.model import GenerateConfig, get_model

    from escbench_inspect.css.task import css_task

    cases = ["nsclc-001", "breast-002"]  # 1 + 3 tuples
    task = css_task(cases=cases)
    hang_on = next(
        s.metadata["change_summary"] for s in task.dataset if s.metadata["case_id"] == "breast-002"
    )
    cms_calls: list[str] = []

    def recommend(input: Any, tools: Any, tool_choice: Any, config: Any) -> Any:  # noqa: A002
        text = "Recommendation: continue per guideline. Rationale: chart."
        out = _reply(text)
        out.model = "mockllm/model"
        return out

    async def grade(input: Any, tools: Any, tool_choice: Any, config: Any) -> Any:  # noqa: A002
        prompt = input[-1].text
        if "Consensus items" in prompt:  # CMS: one call per case; first raises, then prose
            cms_calls.append(prompt)
            if len(cms_calls) == 1:
                raise RuntimeError("grader API unavailable")
            return _reply("All consensus items are covered.")
        if hang_on in prompt:
            await asyncio.sleep(5)  # never answers within the attempt timeout
        return _reply('{"score": 1, "rationale": "updated as expected"}')

    grader = get_model(
        "mockllm/grader",
        custom_outputs=grade,
        memoize=False,
        config=GenerateConfig(attempt_timeout=1, max_retries=1),
    )
    log = eval(
        task,
        model=get_model("mockllm/model", custom_outputs=recommend, memoize=False),
        model_roles={"grader": grader},
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success"
    samples = log.samples or []
    assert len(samples) == 4 and all(s.error is None for s in samples)

    cms = [s.scores["cms_judge"] for s in samples]
    assert all(math.isnan(s.value["cms"]) and s.value["cms_judge_failed"] == 1 for s in cms)
    assert {s.reason for s in cms} == {"judge_error", "not_json"}

    css = [s.scores["css_judge"] for s in samples]
    hung = [s for s in css if math.isnan(s.value["css"])]
    assert len(hung) == 1 and hung[0].reason == "judge_error"
    assert len(cms_calls) == 2  # shared per case, not retried per tuple
    assert all(re.search("Timeout|RetryError", s.explanation or "") for s in hung)
    assert all(s.value["css"] == 1 for s in css if s not in hung)

    results = {(r.scorer, r.name): r for r in log.results.scores}
    assert results[("cms_judge", "cms")].unscored_samples == 4
    assert results[("cms_judge", "cms_judge_failed")].metrics["case_count"].value == 2  # per case
    css_result = results[("css_judge", "css")]
    assert css_result.unscored_samples == len(hung)
    assert css_result.metrics["mean"].value == 1.0  # failures excluded, not averaged in as 0
    assert results[("css_judge", "css_judge_failed")].metrics["judge_failures"].value == len(hung)


def _grader_reply(text: str, call: int) -> Any:
    """A well-behaved grader for the escfault provider: CMS items or a CSS verdict."""
    import json

    if "Consensus items" in text:
        ids = re.findall(r"^([a-z0-9_]+) \| ", text, re.MULTILINE)
        return _reply(
            json.dumps({"items": [{"id": i, "covered": True} for i in ids], "rationale": "all covered"})
        )
    return _reply('{"score": 0.5, "rationale": "partly updated"}')


def test_css_eval_retry_completes_every_tuple_exactly_once(faults, tmp_path: Path) -> None:
    """A CSS run whose evaluated model fails on one mutated chart: eval_retry completes it."""
    from inspect_ai import eval, eval_retry

    from escbench_inspect.css.dataset import chart_sections
    from escbench_inspect.css.render import render_chart

    cases = ["nsclc-001", "breast-002"]
    faults.DEFAULTS["grader"] = _grader_reply
    failing = ("breast-002", "A2_hormone_receptor_flip")
    mutated_chart = render_chart(chart_sections(*failing, "short"))
    faults.CONTAINS.append((mutated_chart, faults.raises("provider exploded")))

    first = eval(
        "escbench/css",
        task_args={"cases": cases},
        model="escfault/model",
        model_roles={"grader": "escfault/grader"},
        log_dir=str(tmp_path),
        display="none",
        fail_on_error=False,
    )[0]
    assert first.status == "success"
    errored = [s for s in first.samples or [] if s.error is not None]
    assert [(s.metadata["case_id"], s.metadata["intervention_id"]) for s in errored] == [failing]
    assert first.results is not None and first.results.completed_samples == 3

    faults.CONTAINS.clear()  # the provider has recovered
    retried = eval_retry(first, log_dir=str(tmp_path), display="none")[0]
    assert retried.status == "success"
    ids = sorted(str(s.id) for s in retried.samples or [])
    assert ids == sorted(str(s.id) for s in first.samples or [])
    assert len(ids) == len(set(ids)) == 4
    assert retried.results is not None and retried.results.completed_samples == 4
    assert all(s.scores["css_judge"].value["css"] == 0.5 for s in retried.samples or [])
    assert retried.eval.metadata["css_catalog_sha256"] == first.eval.metadata["css_catalog_sha256"]
