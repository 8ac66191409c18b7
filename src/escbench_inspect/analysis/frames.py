"""``samples_df`` with escbench's dict-valued scores expanded into one column per score key.

Inspect's ``inspect_ai.analysis.samples_df`` puts a dict-valued score into one column
(``score_escalation_scorer``) holding the dict as JSON text; this helper keeps every column it
returns and adds ``score_<scorer>_<key>`` per key (``score_escalation_scorer_correct``, …). A
controller's prefixed keys are named without the prefix, which the scorer's name already says:
``controller_full``'s ``full_correct`` is ``score_controller_full_correct``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pandas as pd
from inspect_ai.analysis import samples_df as inspect_samples_df

from escbench_inspect.scorers.escalation import decision_values


def _as_dict(value: Any) -> dict[str, Any] | None:
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.startswith("{"):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            return None
        return parsed if isinstance(parsed, dict) else None
    return None


def expand_score_dicts(frame: pd.DataFrame) -> pd.DataFrame:
    """Add ``<column>_<key>`` for every ``score_*`` column whose values are dicts (or their JSON)."""
    added: dict[str, pd.Series] = {}
    for column in [c for c in frame.columns if c.startswith("score_")]:
        present = frame[column].dropna()
        parsed = present.map(_as_dict)
        if present.empty or parsed.isna().any():
            continue  # a scalar score column (or a mix): left as it is
        parsed = parsed.map(lambda value: decision_values(value) or value)
        keys = sorted({key for value in parsed for key in value})
        for key in keys:
            name = f"{column}_{key}"
            if name not in frame.columns:
                added[name] = parsed.map(lambda value, k=key: value.get(k)).reindex(frame.index)
    return pd.concat([frame, pd.DataFrame(added, index=frame.index)], axis=1) if added else frame


def samples_df(logs: str | Sequence[str], **kwargs: Any) -> pd.DataFrame:
    """One row per sample of ``logs`` (files or folders), score dicts expanded into columns.

    ``kwargs`` go to ``inspect_ai.analysis.samples_df`` (e.g. ``columns=``, ``strict=``); with
    ``strict=False`` the errors it returns are dropped (use Inspect's function to see them).
    """
    result = inspect_samples_df(logs if isinstance(logs, str) else list(logs), **kwargs)
    frame = result[0] if isinstance(result, tuple) else result
    return expand_score_dicts(frame)
