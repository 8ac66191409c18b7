"""Builder of the ``escbench/css`` task (the ``@task`` wrapper lives in ``escbench._css_tasks``)."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai import Task

from escbench_inspect.css.catalog import catalog_sha256
from escbench_inspect.css.data import packaged_data
from escbench_inspect.css.dataset import css_dataset, validate_params
from escbench_inspect.css.scorer import cms_judge, css_judge
from escbench_inspect.css.solver import RecommendFn, paired_recommendations
from escbench_inspect.integrity import package_version


def css_task(
    families: str | Sequence[str] | None = None,
    interventions: str | Sequence[str] | None = None,
    cases: int | str | Sequence[str] | None = None,
    chart_length: str = "short",
    allow_self_judge: bool = False,
    recommend: RecommendFn | None = None,
    variant: str = "prompt",
) -> Task:
    """The CSS task: one sample per emitted (case, intervention) tuple.

    ``recommend``/``variant`` swap the single-recommendation step (e.g. a ReAct agent over the
    chart sections) without touching the dataset, baseline sharing or scoring.
    """
    if not isinstance(allow_self_judge, bool):
        raise ValueError(f"allow_self_judge must be true or false, got {allow_self_judge!r}")
    selection = validate_params(families, interventions, cases, chart_length)
    dataset, provenance = css_dataset(selection)
    if len(dataset) == 0:
        raise ValueError("the selected families/interventions/cases admit no tuples")
    data = packaged_data()
    return Task(
        dataset=dataset,
        solver=paired_recommendations(
            recommend=recommend, variant=variant, allow_self_judge=allow_self_judge
        ),
        scorer=[css_judge(allow_self_judge=allow_self_judge), cms_judge(allow_self_judge=allow_self_judge)],
        metadata={
            **provenance,
            "css_catalog_version": data.catalog.version,
            "css_catalog_sha256": catalog_sha256(data),
            "benchmark": "escbench-css",
            "css_variant": variant,
            "allow_self_judge": allow_self_judge,
            "escbench_version": package_version(),
        },
    )
