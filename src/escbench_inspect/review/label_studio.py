"""Label Studio interoperability: export tasks + labeling configs, import an annotation export.

Exported tasks are blinded (no reference in the task data), so imported annotations are stored as
round-1 answers, with the item hash the task was exported with: a task exported before the item
changed imports as a stale review.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from escbench_inspect.review.items import ACTIONS, EPISODE, NO_CHANGE, TUPLE, Catalog
from escbench_inspect.review.store import BLINDED, REVIEWER_NAME, Store

_EPISODE_CONFIG = """<View>
  <Header value="$title"/>
  <HyperText name="episode" value="$html"/>
  <Choices name="actions" toName="episode" choice="multiple" showInline="true">
{choices}  </Choices>
  <Choices name="flags" toName="episode" choice="multiple">
    <Choice value="ambiguous"/>
  </Choices>
  <Rating name="confidence" toName="episode" maxRating="5"/>
  <TextArea name="comment" toName="episode" rows="3"/>
</View>
"""

_TUPLE_CONFIG = """<View>
  <Header value="$title"/>
  <HyperText name="tuple" value="$html"/>
  <Choices name="direction" toName="tuple" choice="single">
{choices}  </Choices>
  <Choices name="flags" toName="tuple" choice="multiple">
    <Choice value="ambiguous"/>
  </Choices>
  <Rating name="confidence" toName="tuple" maxRating="5"/>
  <TextArea name="comment" toName="tuple" rows="3"/>
</View>
"""


class LabelStudioError(ValueError):
    """An annotation export that cannot be imported (the message names the task)."""


def _xml_attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def export_tasks(catalog: Catalog, out_dir: Path, seed_ids: list[str] | None = None) -> tuple[int, Path]:
    """Write ``episodes.json``/``episodes.xml`` (and ``tuples.*`` when the catalog has tuples).

    ``seed_ids``: only these seeds' episodes (default: every seed).
    """
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(
        loader=PackageLoader("escbench_inspect.review", "templates"), autoescape=select_autoescape()
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    episode_tasks = []
    for seed_id in catalog.seed_ids() if seed_ids is None else seed_ids:
        for view in catalog.seed_view(seed_id) or []:
            html = env.get_template("ls_episode.html").render(view=view)
            episode_tasks.append(
                {
                    "data": {
                        "item_id": view.item.item_id,
                        "kind": EPISODE,
                        "content_hash": view.item.content_hash,
                        "title": f"{view.episode.title} — surface {view.episode.surface}, "
                        f"{view.episode.variant.value}",
                        "html": html,
                    }
                }
            )
    (out_dir / "episodes.json").write_text(json.dumps(episode_tasks, indent=1), encoding="utf-8")
    choices = "".join(f'    <Choice value="{a}"/>\n' for a in ACTIONS)
    config = out_dir / "episodes.xml"
    config.write_text(_EPISODE_CONFIG.format(choices=choices), encoding="utf-8")
    tuple_tasks, directions = [], set()
    for tuple_id in catalog.tuple_ids():
        view = catalog.tuple_view(tuple_id)
        directions.update(view.options)
        tuple_tasks.append(
            {
                "data": {
                    "item_id": tuple_id,
                    "kind": TUPLE,
                    "content_hash": view.item.content_hash,
                    "title": view.title,
                    "html": env.get_template("ls_tuple.html").render(view=view),
                }
            }
        )
    if tuple_tasks:
        (out_dir / "tuples.json").write_text(json.dumps(tuple_tasks, indent=1), encoding="utf-8")
        ordered = sorted(directions - {NO_CHANGE}) + [NO_CHANGE]
        choices = "".join(f'    <Choice value="{_xml_attr(d)}"/>\n' for d in ordered)
        (out_dir / "tuples.xml").write_text(_TUPLE_CONFIG.format(choices=choices), encoding="utf-8")
    return len(episode_tasks) + len(tuple_tasks), config


def _reviewer_name(completed_by: Any) -> str:
    if isinstance(completed_by, dict):
        completed_by = completed_by.get("email") or completed_by.get("id")
    name = "ls-" + re.sub(r"[^A-Za-z0-9_.\-]", "_", str(completed_by))[:60]
    if not REVIEWER_NAME.match(name):
        raise LabelStudioError(f"annotator {completed_by!r} gives no usable reviewer name")
    return name


def _answer(kind: str, results: list[dict]) -> dict[str, Any]:
    answer: dict[str, Any] = {"agree": None, "ambiguous": False, "comment": "", "confidence": None}
    for result in results:
        name, value = result.get("from_name"), result.get("value") or {}
        if name == "actions":
            answer["actions"] = [a for a in ACTIONS if a in value.get("choices", [])]
        elif name == "direction":
            answer["direction"] = (value.get("choices") or [None])[0]
        elif name == "flags":
            answer["ambiguous"] = "ambiguous" in value.get("choices", [])
        elif name == "confidence":
            answer["confidence"] = value.get("rating")
        elif name == "comment":
            answer["comment"] = "\n".join(value.get("text", []))
    answer.setdefault("actions" if kind == EPISODE else "direction", [] if kind == EPISODE else None)
    return answer


def import_annotations(store: Store, path: Path) -> tuple[int, int]:
    """Store every annotation of a Label Studio JSON export as a blinded review; (added, already there)."""
    try:
        tasks = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise LabelStudioError(f"{path}: not a readable Label Studio JSON export ({error})") from None
    if not isinstance(tasks, list):
        raise LabelStudioError(f"{path}: expected a JSON list of tasks")
    known = {r.name for r in store.reviewers()}
    added = skipped = 0
    for number, task in enumerate(tasks):
        data = task.get("data", {}) if isinstance(task, dict) else {}
        item_id, kind, content_hash = data.get("item_id"), data.get("kind"), data.get("content_hash")
        if not (isinstance(item_id, str) and kind in (EPISODE, TUPLE) and isinstance(content_hash, str)):
            raise LabelStudioError(
                f"{path} task {number}: not exported by escbench (no item_id/kind/content_hash)"
            )
        for annotation in task.get("annotations", []):
            if annotation.get("was_cancelled"):
                continue
            reviewer = _reviewer_name(annotation.get("completed_by"))
            if reviewer not in known:
                store.add_reviewer(reviewer)  # its token is never shown: imported reviewers do not log in
                known.add(reviewer)
            stored = store.record(
                submission=f"label-studio:{annotation.get('id')}:{item_id}",
                reviewer=reviewer,
                item_id=item_id,
                item_kind=kind,
                content_hash=content_hash,
                round=BLINDED,
                answer=_answer(kind, annotation.get("result", [])),
                time_ms=int(float(annotation.get("lead_time") or 0) * 1000),
                source="label-studio",
                enforce_blinding=False,
            )
            added += stored
            skipped += not stored
    return added, skipped
