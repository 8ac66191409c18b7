"""The task listing (``eval.yaml``, in the shape of inspect_evals'): title, version, tasks."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict


class ListedTask(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    dataset_samples: int


class EvalListing(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    description: str
    group: str
    contributors: list[str]
    version: str
    tasks: list[ListedTask]
    external_assets: list[dict[str, Any]]
    metadata: dict[str, Any]


@cache
def eval_listing() -> EvalListing:
    """The packaged ``eval.yaml`` (beside the tasks, in ``escbench``, where inspect_evals' linter
    looks for it), validated."""
    text = (files("escbench") / "eval.yaml").read_text(encoding="utf-8")
    return EvalListing.model_validate(yaml.safe_load(text))


def task_version() -> str:
    """``Task(version=…)`` of every escbench task: the listing's version."""
    return eval_listing().version
