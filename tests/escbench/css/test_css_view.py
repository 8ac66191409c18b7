"""What a reader of a CSS log sees in Inspect View: input, target, answer, explanation, spans, keys.

The log is read back from disk (what Inspect View reads). colorectal-001 has two tuples
(D2_surgery_added, E1_metastatic_upstaging) that share one baseline recommendation.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.event import InfoEvent, ModelEvent, SpanBeginEvent
from inspect_ai.log import EvalLog, EvalSample, read_eval_log, resolve_sample_attachments
from inspect_ai.model import get_model

from escbench_inspect.css.dataset import chart_sections
from escbench_inspect.css.task import css_task
from escbench_inspect.testing.css import Grader, output

CASE = "colorectal-001"
QUESTION = "tumor_board_question"
BASELINE_TEXT = "Recommendation: plan A. Rationale: original chart."
MUTATED_TEXT = "Recommendation: plan B. Rationale: changed chart."


def recommender(input, tools, tool_choice, config):  # noqa: A002
    """Plan A on the original chart (its tumor-board question section is in the prompt), else B."""
    original = chart_sections(CASE, None, "short")[QUESTION]
    return output("mockllm/model", BASELINE_TEXT if original in input[-1].text else MUTATED_TEXT)


def _run(tmp_path: Path, grader: Grader) -> EvalLog:
    log = eval(
        css_task(cases=[CASE]),
        model=get_model("mockllm/model", custom_outputs=recommender),
        model_roles={"grader": get_model("mockllm/grader", custom_outputs=grader)},
        display="none",
        log_dir=str(tmp_path),
        max_samples=1,
    )[0]
    assert log.status == "success", log.error
    return read_eval_log(log.location)


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    return _run(tmp_path_factory.mktemp("cssview"), Grader())


def _sample(log: EvalLog, intervention: str) -> EvalSample:
    return next(s for s in log.samples if s.metadata["intervention_id"] == intervention)


def test_input_shows_the_case_the_changed_fact_and_both_questions(log: EvalLog) -> None:
    sample = _sample(log, "D2_surgery_added")
    original = chart_sections(CASE, None, "short")[QUESTION]
    changed = chart_sections(CASE, "D2_surgery_added", "short")[QUESTION]
    assert original != changed
    assert sample.input.startswith(
        f"Tumor-board case {CASE} (colorectal), counterfactual D2_surgery_added: "
        f"{sample.metadata['intervention_title']}.\n\nChanged fact: {sample.metadata['change_summary']}.\n\n"
    )
    assert sample.input.endswith(f"Original chart:\n\n{original}\n\nChanged chart:\n\n{changed}")
    assert 'span "baseline"' in sample.input and 'span "mutated"' in sample.input


def test_target_is_the_pre_registered_expected_direction(log: EvalLog) -> None:
    for sample in log.samples:
        assert sample.target == sample.metadata["expected_direction"] != ""


def test_answer_shows_baseline_and_mutated_labelled(log: EvalLog) -> None:
    for sample in log.samples:
        iv = sample.metadata["intervention_id"]
        css = sample.scores["css_judge"]
        assert css.answer == f"BASELINE (original chart): {BASELINE_TEXT}\n\nMUTATED ({iv}): {MUTATED_TEXT}"
        assert sample.scores["cms_judge"].answer == f"BASELINE (original chart): {BASELINE_TEXT}"


def test_explanations_give_the_level_meaning_and_rationale(log: EvalLog) -> None:
    sample = _sample(log, "E1_metastatic_upstaging")
    assert sample.scores["css_judge"].explanation == "CSS 1: updated in the expected direction. updated"
    cms = sample.scores["cms_judge"]
    assert cms.explanation == (
        f"CMS {cms.value['cms']:.3f}: weighted recall of the consensus items in the baseline. first item only"
    )


def test_runs_sit_in_named_spans(log: EvalLog) -> None:
    made = next(s for s in log.samples if not s.store["css:baseline_reused"])
    reused = next(s for s in log.samples if s.store["css:baseline_reused"])
    for sample, baseline_calls in ((made, 1), (reused, 0)):
        spans = {e.name: e.id for e in sample.events if isinstance(e, SpanBeginEvent)}
        names = [e.name for e in sample.events if isinstance(e, SpanBeginEvent)]
        assert names.index("baseline") < names.index("mutated")
        types = {e.name: e.type for e in sample.events if isinstance(e, SpanBeginEvent)}
        assert types["baseline"] == types["mutated"] == "recommendation"
        calls = [e for e in sample.events if isinstance(e, ModelEvent) and e.role != "grader"]
        in_span = [e.span_id for e in calls]
        assert in_span.count(spans["baseline"]) == baseline_calls
        assert in_span.count(spans["mutated"]) == 1
        assert calls[-1].output.completion == MUTATED_TEXT
    events = resolve_sample_attachments(reused, "full").events  # long texts are log attachments
    info = [e for e in events if isinstance(e, InfoEvent) and e.span_id == spans["baseline"]]
    assert [e.data for e in info] == [
        f"Baseline recommendation reused: generated once for case {CASE} in sample {made.id} and "
        "shared by all of the case's interventions."
    ]


def test_judge_failure_counts_have_distinct_keys(log: EvalLog) -> None:
    for sample in log.samples:
        assert sample.scores["css_judge"].value == {"css": 1.0, "css_judge_failed": 0}
        assert set(sample.scores["cms_judge"].value) == {"cms", "cms_judge_failed"}
    names = {(s.scorer, s.name) for s in log.results.scores}
    assert {("css_judge", "css_judge_failed"), ("cms_judge", "cms_judge_failed")} <= names


def test_judge_failure_keeps_the_answer_and_says_why(tmp_path: Path) -> None:
    log = _run(tmp_path, Grader(lambda prompt: "The plan changed appropriately."))
    for sample in log.samples:
        css = sample.scores["css_judge"]
        assert math.isnan(css.value["css"]) and css.value["css_judge_failed"] == 1
        assert css.explanation.startswith("Judge failure (not_json); not scored.")
        assert css.answer.startswith(f"BASELINE (original chart): {BASELINE_TEXT}")
