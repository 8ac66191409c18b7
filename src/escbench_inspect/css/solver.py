"""Paired solver: a baseline and a mutated recommendation, in independent conversations.

The step "produce one recommendation from a chart" is a pluggable :data:`RecommendFn`. The default,
:func:`prompt_recommend`, puts the whole chart in one user message. A tool-using variant (e.g. a
ReAct agent with ``read_chart_section``) supplies its own function; the solver, baseline sharing
and scoring stay the same. A case's baseline is generated once per run (per solver instance and
epoch) and shared by all of that case's interventions.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from escbench_inspect.css.dataset import chart_sections
from escbench_inspect.css.prompts import RECOMMENDER_SYSTEM, RECOMMENDER_USER
from escbench_inspect.css.render import render_chart
from escbench_inspect.params import ModelRoleError

STORE_BASELINE = "css:baseline"
STORE_MUTATED = "css:mutated"
STORE_BASELINE_REUSED = "css:baseline_reused"


@dataclass(frozen=True)
class ChartRequest:
    """What a recommend function gets: one chart (baseline or mutated) and the model to use."""

    case_id: str
    intervention_id: str | None  # None for the baseline chart
    chart_length: str
    sections: Mapping[str, str]
    model: Model
    config: GenerateConfig = field(default_factory=GenerateConfig)


@dataclass(frozen=True)
class Recommendation:
    """A recommendation and the conversation that produced it."""

    text: str
    messages: list[ChatMessage]
    output: ModelOutput | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


RecommendFn = Callable[[ChartRequest], Awaitable[Recommendation]]


async def prompt_recommend(request: ChartRequest) -> Recommendation:
    """Default recommender: the full chart in one prompt, one generate call."""
    messages: list[ChatMessage] = [
        ChatMessageSystem(content=RECOMMENDER_SYSTEM),
        ChatMessageUser(content=RECOMMENDER_USER.format(chart=render_chart(dict(request.sections)))),
    ]
    output = await request.model.generate(messages, config=request.config)
    return Recommendation(text=output.completion, messages=[*messages, output.message], output=output)


class BaselineCache:
    """Async-safe memo of baseline recommendations: one generation per key, concurrent callers wait."""

    def __init__(self) -> None:
        self._locks: dict[tuple, anyio.Lock] = {}
        self._results: dict[tuple, Recommendation] = {}

    async def get(
        self, key: tuple, make: Callable[[], Awaitable[Recommendation]]
    ) -> tuple[Recommendation, bool]:
        """The cached value (and ``True``) or a freshly made one (and ``False``)."""
        lock = self._locks.setdefault(key, anyio.Lock())
        async with lock:
            if key in self._results:
                return self._results[key], True
            result = await make()
            self._results[key] = result
            return result, False


def model_identity(model: Model | str) -> str:
    """Provider/name of a model, for self-judging checks."""
    return str(model)


def check_self_judge(grader: Model | str, evaluated: Model | str, allow: bool) -> bool:
    """Raise unless the grader differs from the evaluated model (or self-judging is allowed).

    Returns whether this is a self-judging run.
    """
    same = model_identity(grader) == model_identity(evaluated)
    if same and not allow:
        raise ModelRoleError(
            f"Refusing to let {model_identity(evaluated)} judge itself: bind a different grader "
            "with --model-role grader=<provider/model>, or pass -T allow_self_judge=true "
            "(recorded in the log)."
        )
    return same


@solver
def paired_recommendations(
    recommend: RecommendFn | None = None, variant: str = "prompt", allow_self_judge: bool = False
) -> Solver:
    """Baseline (shared per case) + mutated recommendation for each (case, intervention) sample.

    Args:
        recommend: produces one recommendation from one chart (default :func:`prompt_recommend`).
        variant: name of the recommend function, part of the baseline cache key.
        allow_self_judge: permit the grader role to be the evaluated model.
    """
    recommend_fn = recommend or prompt_recommend
    cache = BaselineCache()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        grader = get_model(role="grader", required=True)
        check_self_judge(grader, model, allow_self_judge)
        meta = state.metadata
        case_id, iv_id, length = meta["case_id"], meta["intervention_id"], meta["chart_length"]
        key = (model_identity(model), variant, case_id, length, state.epoch)

        async def make_baseline() -> Recommendation:
            return await recommend_fn(
                ChartRequest(case_id, None, length, chart_sections(case_id, None, length), model)
            )

        baseline, reused = await cache.get(key, make_baseline)
        mutated = await recommend_fn(
            ChartRequest(case_id, iv_id, length, chart_sections(case_id, iv_id, length), model)
        )
        state.messages = list(mutated.messages)
        if mutated.output is not None:
            state.output = mutated.output
        else:
            state.output = ModelOutput.from_content(model=model_identity(model), content=mutated.text)
        state.store.set(STORE_BASELINE, baseline.text)
        state.store.set(STORE_MUTATED, mutated.text)
        state.store.set(STORE_BASELINE_REUSED, reused)
        if mutated.metadata or baseline.metadata:
            state.store.set(
                "css:recommend_metadata", {"baseline": baseline.metadata, "mutated": mutated.metadata}
            )
        return state

    return solve
