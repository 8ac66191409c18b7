"""Adjudicated labels files (``escbench review export --labels``) read back by the tasks and report.

Only the standard library and the schema are imported here: ``-T labels=FILE`` and
``escbench report --labels FILE`` work without the ``review`` extra.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from escbench_inspect.datasets.schema import Action
from escbench_inspect.params import EscbenchPrerequisiteError

LABELS_FORMAT = "escbench-labels/1"
_ACTIONS = [a.value for a in Action]


class LabelsFileError(EscbenchPrerequisiteError):
    """A labels file that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class Labels:
    path: str
    sha256: str
    episodes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # episode id -> acceptable set
    tuples: dict[str, str] = field(default_factory=dict)  # tuple id -> expected direction


def load_labels(path: str | Path) -> Labels:
    """Read and validate an adjudicated labels file (JSONL: a provenance line, then one per item)."""
    file = Path(path)
    if not file.is_file():
        raise LabelsFileError(f"labels file {file}: not found")
    raw = file.read_bytes()
    lines = raw.decode("utf-8", errors="replace").splitlines()
    episodes: dict[str, tuple[str, ...]] = {}
    tuples: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        where = f"labels file {file} line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise LabelsFileError(f"{where}: not JSON ({error.msg})") from None
        if number == 1:
            if not isinstance(record, dict) or record.get("format") != LABELS_FORMAT:
                raise LabelsFileError(f"{where}: expected the provenance line with format {LABELS_FORMAT!r}")
            continue
        if not isinstance(record, dict) or not isinstance(record.get("item_id"), str):
            raise LabelsFileError(f"{where}: expected an object with 'item_id'")
        item_id = record["item_id"]
        if item_id in episodes or item_id in tuples:
            raise LabelsFileError(f"{where}: item {item_id!r} labelled twice")
        if record.get("kind") == "episode":
            actions = record.get("acceptable_actions")
            if not isinstance(actions, list) or not actions or any(a not in _ACTIONS for a in actions):
                raise LabelsFileError(f"{where}: 'acceptable_actions' must be a non-empty list of {_ACTIONS}")
            if "Escalate" in actions and len(set(actions)) > 1:
                raise LabelsFileError(f"{where}: Escalate is never paired with another action")
            episodes[item_id] = tuple(a for a in _ACTIONS if a in actions)
        elif record.get("kind") == "tuple":
            direction = record.get("expected_direction")
            if not isinstance(direction, str) or not direction.strip():
                raise LabelsFileError(f"{where}: 'expected_direction' must be a non-empty string")
            tuples[item_id] = direction
        else:
            raise LabelsFileError(f"{where}: 'kind' must be 'episode' or 'tuple'")
    if not lines:
        raise LabelsFileError(f"labels file {file}: empty")
    return Labels(str(file), hashlib.sha256(raw).hexdigest(), episodes, tuples)


def relabel_samples(samples, labels: Labels, known_ids: set[str]) -> int:
    """Give samples the adjudicated acceptable sets (target and metadata); returns how many changed.

    ``known_ids``: every episode id of the corpus; a label for any other id is an error (a typo or
    a file made for other seeds), a label for an episode outside the selection is simply unused.
    """
    unknown = sorted(set(labels.episodes) - known_ids)
    if unknown:
        raise LabelsFileError(
            f"labels file {labels.path}: unknown episode id(s) {', '.join(unknown[:3])}"
            + (f" and {len(unknown) - 3} more" if len(unknown) > 3 else "")
        )
    changed = 0
    for sample in samples:
        actions = labels.episodes.get(str(sample.id))
        if actions is None:
            continue
        before = list(sample.metadata["acceptable_actions"])
        sample.target = list(actions)
        sample.metadata["acceptable_actions"] = list(actions)
        sample.metadata["escalation_required"] = "Escalate" in actions
        sample.metadata["label_source"] = "reviewed"
        changed += before != list(actions)
    return changed


def relabel_decisions(decisions, labels: Labels):
    """Report rows re-scored against the adjudicated sets (correct, required, utilities)."""
    from escbench_inspect.scorers.escalation import C_FN_PRIMARY, C_FN_ROBUSTNESS, utility

    decisions = decisions.copy()
    for index, row in decisions.iterrows():
        actions = labels.episodes.get(str(row["id"]))
        if actions is None:
            continue
        required = "Escalate" in actions
        decisions.at[index, "escalation_required"] = required
        if row.get("errored") or row["correct"] != row["correct"]:  # errored or unscored (NaN)
            continue
        escalated = bool(row["escalated"])
        decisions.at[index, "correct"] = float(row["action"] in actions)
        decisions.at[index, "utility_5"] = utility(required, escalated, C_FN_PRIMARY)
        decisions.at[index, "utility_10"] = utility(required, escalated, C_FN_ROBUSTNESS)
    return decisions
