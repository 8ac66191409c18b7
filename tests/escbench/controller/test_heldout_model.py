"""The held-out halves read by a detector model (``heldout --detector-model``): the model detector's
prompt and schema, a task class given with each M item, and an unusable reply counted as invalid --
never as "not fired". Scripted with mockllm (a reply chosen from the prompt it receives)."""

from __future__ import annotations

import json

from inspect_ai.model import ModelOutput, get_model

from escbench_inspect.controller.heldout import HeldoutItem, format_quality, heldout_quality
from escbench_inspect.controller.model_detector import heldout_episode, heldout_model_flags


def _item(item_id: str, text: str, label: str, detector: str = "conflict", **extra: str) -> HeldoutItem:
    family = {"conflict": "weight", "missing": "weight"}[detector]
    return HeldoutItem.model_validate(
        {
            "id": item_id,
            "detector": detector,
            "family": family,
            "register": "nurse",
            "label": label,
            "text": text,
            **extra,
        }  # fmt: skip
    )


ITEMS = [
    _item("c1", "Clinic weighed him at 80 kg, ward scale says 64 kg.", "positive"),
    _item("c2", "Clinic weighed him at 80 kg, ward scale says 80 kg.", "near_miss", kind="agreement"),
    _item("c3", "GARBLE clinic 80 kg, ward 64 kg.", "positive"),
    _item("m1", "Weight not recorded before enoxaparin.", "positive", "missing", task_class="triage"),
]


def _reply(flag: dict) -> str:
    empty = {"present": False, "evidence": []}
    return json.dumps({"conflict": empty, "missing": empty, "high_risk": empty} | flag)


def _scripted(seen: list[str]):
    """Fires C on '64 kg' with that span, M on 'not recorded', and answers prose to 'GARBLE'."""

    def policy(messages, tools, tool_choice, config) -> ModelOutput:
        prompt = messages[-1].text
        seen.append(prompt)
        if "GARBLE" in prompt:
            content = "I think there is a conflict here."
        elif "64 kg" in prompt:
            content = _reply({"conflict": {"present": True, "evidence": ["64 kg"]}})
        elif "not recorded" in prompt:
            content = _reply({"missing": {"present": True, "evidence": ["Weight not recorded"]}})
        else:
            content = _reply({})
        return ModelOutput.from_content("mockllm/model", content)

    return policy


def test_model_reads_each_item_once_with_its_task_class() -> None:
    seen: list[str] = []
    model = get_model("mockllm/model", custom_outputs=_scripted(seen))
    verdicts = heldout_model_flags([*ITEMS, ITEMS[0]], model)
    assert len(seen) == len(ITEMS)  # one call per distinct (text, task class)
    assert verdicts[(ITEMS[0].text, None)] == {"conflict": True, "missing": False, "high_risk": False}
    assert verdicts[(ITEMS[1].text, None)] == {"conflict": False, "missing": False, "high_risk": False}
    assert verdicts[(ITEMS[2].text, None)] is None  # prose: no verdict
    assert any(heldout_episode(ITEMS[3].text, "triage") in prompt for prompt in seen)
    assert heldout_episode(ITEMS[3].text, "triage").startswith("Requested task class: triage.")


def test_an_unusable_reply_is_invalid_not_a_miss() -> None:
    model = get_model("mockllm/model", custom_outputs=_scripted([]))
    verdicts = heldout_model_flags(ITEMS, model)
    table = heldout_quality(ITEMS, lambda text, task_class: verdicts[(text, task_class)])
    conflict = table["conflict"]
    assert (conflict["positives"], conflict["recall"], conflict["invalid"]) == (1, 1.0, 1)
    assert (conflict["near_misses"], conflict["fpr"]) == (1, 0.0)
    assert (conflict["missed"], conflict["false_positives"], conflict["invalid_ids"]) == ([], [], ["c3"])
    assert (table["missing"]["recall"], table["missing"]["invalid"]) == (1.0, 0)
    assert "(1 invalid, left out)" in format_quality(table, "scripted")
