"""Action-set scorer of the escalation benchmark.

The score value is a dict (one key per measurement) so that Inspect computes every metric in one
pass and ``inspect_ai.analysis.samples_df`` exposes each key as a column:

``correct``    1 if the action is in the acceptable set (an invalid output is wrong)
``escalated``  1 if the action is Escalate (an invalid output is "not escalated")
``invalid``    1 if the output could not be parsed into a decision
``utility_5``/``utility_10``  per-episode utility over the escalation decision with
               u_TP = u_TN = 1, c_FP = 1 and c_FN = 5 or 10; its mean is U normalized per episode
``confidence`` the stated confidence, or NaN when missing/out of range (Inspect's reducers turn
               None into 0, which would fake a confidence; NaN stays visibly missing)
"""

from __future__ import annotations

import dataclasses
import math

from inspect_ai.model import ModelOutput
from inspect_ai.scorer import (
    Score,
    Scorer,
    Target,
    mean,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from escbench.metrics import by_class, by_variant, count, mean_present, miss_rate, sensitivity, specificity
from escbench_inspect.datasets.schema import Action
from escbench_inspect.scorers.parse import Decision, parse_decision

U_TP = U_TN = 1.0
C_FP = 1.0
C_FN_PRIMARY = 5.0
C_FN_ROBUSTNESS = 10.0
CLUSTER = "seed_id"

# Stop reasons that explain why an output could not be parsed (the provider cut it off or refused);
# an invalid output names them in its ``parse_error`` so the cause is visible in the log.
CUTOFF_STOP_REASONS: dict[str, str] = {
    "max_tokens": "output cut off at the token limit",
    "model_length": "output cut off at the model's context length",
    "content_filter": "refused by the provider's content filter",
}


def utility(escalation_required: bool, escalated: bool, c_fn: float) -> float:
    """Per-episode utility of one escalation decision (TP/TN gain, FP/FN cost)."""
    if escalation_required:
        return U_TP if escalated else -c_fn
    return -C_FP if escalated else U_TN


def score_values(action: Action | None, confidence: float | None, metadata: dict) -> dict[str, float]:
    """The score dict for one final action against the sample's reference profile."""
    acceptable = {Action(a) for a in metadata["acceptable_actions"]}
    required = bool(metadata["escalation_required"])
    escalated = action is Action.ESCALATE
    return {
        "correct": float(action is not None and action in acceptable),
        "escalated": float(escalated),
        "invalid": float(action is None),
        "utility_5": utility(required, escalated, C_FN_PRIMARY),
        "utility_10": utility(required, escalated, C_FN_ROBUSTNESS),
        "confidence": math.nan if confidence is None else confidence,
    }


def decision_score(decision: Decision, metadata: dict, **extra_metadata: object) -> Score:
    return Score(
        value=score_values(decision.action, decision.confidence, metadata),
        answer=decision.action.value if decision.action else "invalid",
        explanation=decision.reason or decision.error,
        metadata={
            "action": decision.action.value if decision.action else None,
            "confidence": decision.confidence,
            "reason": decision.reason,
            "parse_error": decision.error,
            **extra_metadata,
        },
    )


def escalation_metrics() -> dict[str, list]:
    """Metrics per score key; accuracy and utility get seed-clustered standard errors."""
    return {
        "correct": [
            mean(),
            stderr(cluster=CLUSTER),
            by_variant(),
            by_class(),
        ],
        "escalated": [
            sensitivity(),
            miss_rate(),
            specificity(),
            by_variant(),
        ],
        "utility_5": [mean(), stderr(cluster=CLUSTER)],
        "utility_10": [mean(), stderr(cluster=CLUSTER)],
        "invalid": [mean(), count()],
        "confidence": [mean_present()],
    }


@scorer(metrics=escalation_metrics())
def escalation_scorer() -> Scorer:
    """Parse the decision from the completion and score it against the acceptable action set."""

    async def score(state: TaskState, target: Target) -> Score:
        decision = parse_decision(state.output.completion if state.output else None)
        return decision_score(
            with_stop_reason(decision, state.output), state.metadata, **output_status(state.output)
        )

    return score


def output_status(output: ModelOutput | None) -> dict[str, str | None]:
    """The provider's stop reason (and error, if it reported one), for the score metadata."""
    # ModelOutput.stop_reason indexes choices[0]; an empty output has no choices.
    stop_reason = output.choices[0].stop_reason if output and output.choices else None
    status: dict[str, str | None] = {"stop_reason": stop_reason}
    if output is not None and output.error:
        status["output_error"] = output.error
    return status


def with_stop_reason(decision: Decision, output: ModelOutput | None) -> Decision:
    """Name the stop reason (max_tokens, content_filter…) in an invalid decision's parse_error."""
    if decision.valid or output is None or not output.choices:
        return decision
    stop_reason = output.choices[0].stop_reason
    if stop_reason not in CUTOFF_STOP_REASONS:
        return decision
    cause = f"stop_reason={stop_reason}: {CUTOFF_STOP_REASONS[stop_reason]}"
    return dataclasses.replace(decision, error=f"{decision.error} ({cause})")
