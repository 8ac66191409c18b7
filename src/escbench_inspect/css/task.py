"""Builder of the ``escbench/css`` task (the ``@task`` wrapper is ``escbench.tasks.css``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from inspect_ai import Task

from escbench_inspect.css.catalog import catalog_sha256
from escbench_inspect.css.data import packaged_data
from escbench_inspect.css.dataset import css_dataset, validate_params
from escbench_inspect.css.scorer import cms_judge, css_judge
from escbench_inspect.css.solver import RecommendFn, paired_recommendations
from escbench_inspect.integrity import package_version
from escbench_inspect.listing import task_version
from escbench_inspect.params import TaskParameterError, boolean, require_model_role


def css_task(
    *,
    families: str | Sequence[str] | None = None,
    interventions: str | Sequence[str] | None = None,
    cases: int | str | Sequence[str] | None = None,
    chart_length: Literal["short", "medium", "long", "xlong"] = "short",
    allow_self_judge: bool = False,
    recommend: RecommendFn | None = None,
    recommender: str = "prompt",
) -> Task:
    """Counterfactual tumor-board tuples: paired recommendations judged by the ``grader`` role.

    One sample per emitted (case, intervention) tuple. The single definition of the
    ``escbench/css`` parameters (the wrapper takes this signature less ``recommend``/``recommender``).

    Args:
        families: intervention families, a subset of A-E (default all).
        interventions: catalog ids or short forms like ``A1`` (default all in the families).
        cases: a count (first N of the balanced corpus) or a list of case ids (default all 240).
        chart_length: short | medium | long | xlong.
        allow_self_judge: let the grader be the evaluated model (recorded in the log).
        recommend: Python API only: replaces the single-recommendation step (e.g. a ReAct agent
            over the chart sections) without touching the dataset, baseline sharing or scoring.
        recommender: Python API only: the name of ``recommend`` (part of the baseline cache key).
    """
    allow_self_judge = boolean("allow_self_judge", allow_self_judge)
    require_model_role("grader", "escbench/css")
    selection = validate_params(families, interventions, cases, chart_length)
    dataset, provenance = css_dataset(selection)
    if len(dataset) == 0:
        raise TaskParameterError(
            "interventions",
            interventions,
            "a selection of families, interventions and cases that admits at least one tuple",
        )
    data = packaged_data()
    return Task(
        version=task_version(),
        dataset=dataset,
        solver=paired_recommendations(
            recommend=recommend, recommender=recommender, allow_self_judge=allow_self_judge
        ),
        scorer=[css_judge(allow_self_judge=allow_self_judge), cms_judge(allow_self_judge=allow_self_judge)],
        metadata={
            **provenance,
            "css_catalog_version": data.catalog.version,
            "css_catalog_sha256": catalog_sha256(data),
            "benchmark": "escbench-css",
            "css_recommender": recommender,
            "allow_self_judge": allow_self_judge,
            "escbench_version": package_version(),
        },
    )
