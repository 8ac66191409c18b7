"""Provider faults: the run finishes, every affected sample is retried or recorded with its reason.

The ``escfault/model`` provider (``escfault_provider.py``) scripts one behaviour per sample. What
each fault must produce:

- transient error / attempt timeout  -> retried by Inspect, the sample succeeds
- permanent error / endless hang / a reply with no choices
                                     -> ``sample.error`` with the reason; counted as not completed
- empty output, truncated JSON at max_tokens, content-filter refusal, prose refusal
                                     -> scored ``invalid`` with ``parse_error`` naming the reason
- ``eval_retry`` of an interrupted or partly failed log -> every sample exactly once
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import Task, eval, eval_retry
from inspect_ai.log import EvalLog

from escbench.tasks import triage

SCORER = "escalation_scorer"


def _inputs(task: Task, n: int) -> list[tuple[str, str]]:
    """(sample id, input text) of the first ``n`` samples, in dataset order."""
    return [(str(s.id), str(s.input)) for s in list(task.dataset)[:n]]


def _metric(log: EvalLog, key: str, metric: str) -> float:
    assert log.results is not None
    score = next(s for s in log.results.scores if s.name == key)
    escbench_name = f"escbench/{metric}"  # escbench's metrics are namespaced (escbench.metrics)
    return score.metrics[escbench_name if escbench_name in score.metrics else metric].value


def test_each_provider_fault_is_retried_or_recorded(faults, tmp_path: Path) -> None:
    f = faults
    task = triage(variants="clean")
    plan = {
        "ok": f.answer("Escalate"),
        "transient_error": f.raises_first(f.answer("Escalate")),
        "timeout_then_ok": f.hangs(seconds=5, calls=1, then=f.answer("Escalate")),
        "permanent_error": f.raises("provider exploded"),
        "hangs_forever": f.hangs(seconds=30),
        "empty": f.says(""),
        "no_choices": f.empty_choices(),
        "max_tokens": f.says(
            '{"action": "Escalate", "confidence": 0.9, "reason": "The pat', stop_reason="max_tokens"
        ),
        "content_filter": f.says("", stop_reason="content_filter", error="blocked by policy"),
        "refusal_prose": f.says("I'm sorry, but I can't help with medical decisions."),
    }
    samples = _inputs(task, len(plan))
    fault_of: dict[str, str] = {}
    for (sample_id, text), (fault, behaviour) in zip(samples, plan.items(), strict=True):
        f.PLAN[text] = behaviour
        fault_of[sample_id] = fault

    log = eval(
        task,
        model=f.MODEL,
        limit=len(plan),
        log_dir=str(tmp_path),
        display="none",
        fail_on_error=False,
        attempt_timeout=1,
        max_retries=2,
    )[0]

    # The run finishes and says how many samples completed.
    assert log.status == "success"
    assert log.results is not None
    assert log.results.total_samples == len(plan)
    assert log.results.completed_samples == len(plan) - 3
    assert log.samples is not None and len(log.samples) == len(plan)
    by_fault = {fault_of[str(s.id)]: s for s in log.samples}

    # Errors: recorded on the sample with their reason, never scored.
    error = by_fault["permanent_error"].error
    assert error is not None and "provider exploded" in error.message
    hang = by_fault["hangs_forever"].error
    assert hang is not None and "AttemptTimeoutError" in hang.message
    # A reply without any choice fails inside Inspect's generate (state.output.message): an
    # error, not a silent zero.
    no_choices = by_fault["no_choices"].error
    assert no_choices is not None and "IndexError" in no_choices.message
    for fault in ("permanent_error", "hangs_forever", "no_choices"):
        assert not by_fault[fault].scores, fault

    # Retried by Inspect: the sample succeeds on the second call.
    for fault in ("transient_error", "timeout_then_ok", "ok"):
        sample = by_fault[fault]
        assert sample.error is None, fault
        assert sample.scores is not None
        assert sample.scores[SCORER].answer == "Escalate", fault
        assert sample.scores[SCORER].metadata["parse_error"] is None
    calls = {fault_of[sid]: f.CALLS[text] for sid, text in samples}
    assert calls["ok"] == 1 and calls["transient_error"] == 2 and calls["timeout_then_ok"] == 2
    assert calls["permanent_error"] == 1  # not retried: ProviderError is not transient
    assert calls["hangs_forever"] == 3  # first attempt + max_retries=2

    # Invalid outputs: scored invalid (never as an action) with the reason in the metadata.
    expected_reason = {
        "empty": "empty output",
        "max_tokens": "truncated JSON object (stop_reason=max_tokens",
        "content_filter": "empty output (stop_reason=content_filter",
        "refusal_prose": "no JSON object in output",
    }
    for fault, reason in expected_reason.items():
        score = by_fault[fault].scores[SCORER]
        assert score.answer == "invalid", fault
        assert score.value["invalid"] == 1 and score.value["correct"] == 0, fault
        assert score.value["escalated"] == 0, fault  # a truncated "Escalate" is not an escalation
        assert reason in score.metadata["parse_error"], (fault, score.metadata)
    assert by_fault["max_tokens"].scores[SCORER].metadata["stop_reason"] == "max_tokens"
    assert by_fault["content_filter"].scores[SCORER].metadata["output_error"] == "blocked by policy"

    # Metrics state how many were invalid, over the completed samples only.
    assert _metric(log, "invalid", "count") == len(expected_reason)
    assert _metric(log, "invalid", "mean") == pytest.approx(len(expected_reason) / 7)


def test_sample_level_retry_on_error_recovers_and_keeps_the_error(faults, tmp_path: Path) -> None:
    """``retry_on_error``: Inspect re-runs a failed sample; the earlier error stays in the log."""
    f = faults
    task = triage(variants="clean")
    (first_id, first_text), (second_id, second_text) = _inputs(task, 2)
    f.PLAN[first_text] = f.fails_first_attempt(f.answer("Escalate"))
    log = eval(task, model=f.MODEL, limit=2, log_dir=str(tmp_path), display="none", retry_on_error=1)[0]
    assert log.status == "success"
    assert log.results is not None and log.results.completed_samples == 2
    samples = {str(s.id): s for s in log.samples or []}
    assert samples[first_id].error is None
    assert [e.message for e in samples[first_id].error_retries or []] == [
        "ProviderError('connection reset by peer')"
    ]
    assert samples[first_id].scores[SCORER].answer == "Escalate"
    assert not samples[second_id].error_retries


@pytest.mark.parametrize("fail_on_error", [True, False], ids=["interrupted", "partly_failed"])
def test_eval_retry_completes_every_sample_exactly_once(faults, tmp_path: Path, fail_on_error: bool) -> None:
    """An interrupted (first error stops the run) or partly failed log is completed by eval_retry."""
    f = faults
    n = 6
    task = triage(variants="clean")
    samples = _inputs(task, n)
    expected_ids = sorted(sid for sid, _ in samples)
    broken = {samples[1][1], samples[4][1]}
    for text in broken:
        f.PLAN[text] = f.raises("provider exploded")

    first = eval(
        task,
        model=f.MODEL,
        limit=n,
        max_samples=1,
        log_dir=str(tmp_path),
        display="none",
        fail_on_error=fail_on_error,
    )[0]
    first_ids = [str(s.id) for s in first.samples or []]
    if fail_on_error:
        # Sequential run stopped at the first error: the rest were never attempted.
        assert first.status == "error"
        assert len(first_ids) < n
    else:
        assert first.status == "success"
        assert first.results is not None and first.results.completed_samples == n - 2
    assert sorted(first_ids) == sorted(set(first_ids))  # no duplicates even in a failed log
    done_first = {str(s.id) for s in first.samples or [] if s.error is None}

    f.PLAN.clear()  # the provider has recovered
    calls_before = dict(f.CALLS)
    retried = eval_retry(first, log_dir=str(tmp_path), display="none")[0]

    assert retried.status == "success"
    assert retried.eval.model == f.MODEL
    ids = [str(s.id) for s in retried.samples or []]
    assert sorted(ids) == expected_ids  # every sample, exactly once
    assert retried.results is not None
    assert retried.results.total_samples == retried.results.completed_samples == n
    assert all(s.error is None and s.scores for s in retried.samples or [])
    # Samples that had completed were carried over, not asked again.
    for sid, text in samples:
        if sid in done_first:
            assert f.CALLS[text] == calls_before.get(text, 0)


def test_unreachable_local_server_errors_each_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The local-model path (llama-cpp-python provider) when the server is down or died mid-run:
    every sample is an error naming the connection failure, the run ends, nothing is scored."""
    pytest.importorskip("openai")
    import socket

    with socket.socket() as sock:  # a port with nothing listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("LLAMA_CPP_PYTHON_API_KEY", "unused")
    log = eval(
        triage(variants="clean"),
        model="llama-cpp-python/local",
        model_base_url=f"http://127.0.0.1:{port}/v1",
        limit=2,
        max_retries=0,
        timeout=20,
        fail_on_error=False,
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success"
    assert log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        assert sample.error is not None and "APIConnectionError" in sample.error.message
        assert not sample.scores
    # With no completed sample Inspect writes no results block at all (no metric can be 0).
    assert log.results is None or log.results.completed_samples == 0
