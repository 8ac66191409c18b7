"""Model-based C/M/H detector on the ``detector`` model role (opt-in).

One structured call per episode text: the model returns the three flags, each with evidence spans
copied from the text. Calls are cached per (detector model, text), so the controller variants of a
run and the epochs of an episode share one call.

A reply that cannot be used is never read as "no flag": an exception, a reply that is not one JSON
object, a reply that does not match the schema, or a flag whose evidence is missing or not found in
the text is a :class:`DetectorFailure`; the scorers record it as unscored (NaN) and count it in
``detector_failed``, as the CSS judges do.

Bind the role with ``--model-role detector=provider/model`` (Python: ``model_roles={"detector": …}``).
"""

from __future__ import annotations

import functools
import hashlib
import math
import weakref
from dataclasses import dataclass, field
from typing import Literal

import anyio
from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, ResponseSchema, get_model
from inspect_ai.scorer import Score, Scorer, Target, mean
from inspect_ai.solver import TaskState
from inspect_ai.util import json_schema
from pydantic import BaseModel, ConfigDict, ValidationError

from escbench.metrics import count
from escbench_inspect.controller.detectors import (
    DETECTORS,
    Detection,
    DetectorName,
    detect,
    sample_text,
    strip_headers_keep_offsets,
)
from escbench_inspect.css.scorer import JudgeFailure, parse_json_reply

DetectorSource = Literal["rule", "model", "both"]
DETECTOR_SOURCES: tuple[DetectorSource, ...] = ("rule", "model", "both")
ROLE = "detector"

DETECTOR_PROMPT = """\
You screen a clinical workflow episode for three workflow-state signals. Read the episode and \
answer with ONE JSON object and nothing else:

{{"conflict": {{"present": true|false, "evidence": ["..."]}},
  "missing": {{"present": true|false, "evidence": ["..."]}},
  "high_risk": {{"present": true|false, "evidence": ["..."]}}}}

- conflict: two sources (documents, people, systems) state the same fact differently — a dose, a \
side, a date, an allergy, whether a drug was stopped, a weight — or a patient plays down a \
concerning finding.
- missing: an item needed for the requested task is explicitly absent, blank, unreadable, pending \
or unknown.
- high_risk: a red-flag symptom or a critical value that needs urgent clinical attention now \
(not negated, resolved, hypothetical or historical).

For every signal that is present, copy one to three short evidence spans VERBATIM from the \
episode. For a signal that is absent, give an empty evidence list.

EPISODE:
{episode}"""


class DetectorFlag(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    present: bool
    evidence: list[str]


class DetectorReply(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    conflict: DetectorFlag
    missing: DetectorFlag
    high_risk: DetectorFlag


class DetectorFailure(JudgeFailure):
    """The detector model's reply could not be used; ``reason`` is machine-readable."""


@dataclass(frozen=True)
class ModelDetection:
    """Flags and evidence from the detector model, or the failure that left them unknown."""

    flags: dict[str, bool] = field(default_factory=dict)
    evidence: dict[str, list[str]] = field(default_factory=dict)
    model: str = ""
    failure: DetectorFailure | None = None

    @property
    def failed(self) -> bool:
        return self.failure is not None


def _squash(text: str) -> str:
    return " ".join(text.split()).casefold()


def parse_detector_reply(text: str, episode: str) -> ModelDetection:
    """Validate a reply against the schema and the episode (raises :class:`DetectorFailure`)."""
    try:
        data = parse_json_reply(text)
    except JudgeFailure as failure:
        raise DetectorFailure(failure.reason, failure.detail, failure.raw) from failure
    try:
        reply = DetectorReply.model_validate(data)
    except ValidationError as error:
        raise DetectorFailure("schema_invalid", str(error).splitlines()[0], text) from error
    haystack = _squash(episode)
    flags, evidence = {}, {}
    for name in DETECTORS:
        flag: DetectorFlag = getattr(reply, name)
        spans = [s for s in flag.evidence if s.strip()]
        if flag.present and not spans:
            raise DetectorFailure("evidence_missing", f"{name} is present without evidence", text)
        unseen = [s for s in spans if _squash(s) not in haystack]
        if unseen:
            raise DetectorFailure("evidence_not_in_text", f"{name}: {unseen[0][:80]!r}", text)
        flags[name], evidence[name] = flag.present, spans
    return ModelDetection(flags=flags, evidence=evidence)


def episode_text(text: str) -> str:
    """What the detector model reads: the text with block headers blanked, as the rules see it."""
    return strip_headers_keep_offsets(text)


# Per detector model instance (weakly held, so a finished eval's cache goes with its model):
# episode hash -> result, and one lock per episode so concurrent scorers wait for one call.
_cache: weakref.WeakKeyDictionary[Model, dict[str, ModelDetection]] = weakref.WeakKeyDictionary()
_locks: weakref.WeakKeyDictionary[Model, dict[str, anyio.Lock]] = weakref.WeakKeyDictionary()


async def model_detect(text: str) -> ModelDetection:
    """One structured detector call per (detector model, episode text); failures are returned."""
    detector = get_model(role=ROLE, required=True)
    episode = episode_text(text)
    key = hashlib.sha256(episode.encode("utf-8")).hexdigest()
    cache = _cache.setdefault(detector, {})
    lock = _locks.setdefault(detector, {}).setdefault(key, anyio.Lock())
    async with lock:
        if key in cache:
            return cache[key]
        config = GenerateConfig(
            response_schema=ResponseSchema(
                name="workflow_detectors", json_schema=json_schema(DetectorReply), strict=True
            )
        )
        try:
            output = await detector.generate(
                [ChatMessageUser(content=DETECTOR_PROMPT.format(episode=episode))], config=config
            )
            result = parse_detector_reply(output.completion, episode)
            result = ModelDetection(result.flags, result.evidence, model=str(detector))
        except DetectorFailure as failure:
            result = ModelDetection(model=str(detector), failure=failure)
        except Exception as error:  # any provider failure is a detector failure, not a flag
            failure = DetectorFailure("detector_error", f"{type(error).__name__}: {error}")
            result = ModelDetection(model=str(detector), failure=failure)
        cache[key] = result
        return result


def heldout_episode(text: str, task_class: str | None) -> str:
    """What the detector model reads for one held-out item: its text, after the task it serves (M is
    about the items that task needs, and an item alone does not say which task that is)."""
    return f"Requested task class: {task_class}.\n{text}" if task_class else text


async def _read_items(
    keys: list[tuple[str, str | None]], model: Model, max_connections: int
) -> dict[tuple[str, str | None], dict[str, bool] | None]:
    limit = anyio.Semaphore(max_connections)
    config = GenerateConfig(
        response_schema=ResponseSchema(
            name="workflow_detectors", json_schema=json_schema(DetectorReply), strict=True
        ),
        temperature=0.0,
    )
    out: dict[tuple[str, str | None], dict[str, bool] | None] = {}

    async def read(key: tuple[str, str | None]) -> None:
        episode = heldout_episode(*key)
        async with limit:
            try:
                output = await model.generate(
                    [ChatMessageUser(content=DETECTOR_PROMPT.format(episode=episode))], config=config
                )
                out[key] = parse_detector_reply(output.completion, episode).flags
            except DetectorFailure:
                out[key] = None
            except Exception:  # a provider failure leaves the item without a verdict, as a bad reply does
                out[key] = None

    async with anyio.create_task_group() as group:
        for key in keys:
            group.start_soon(read, key)
    return out


def heldout_model_flags(
    items: list, model: Model, max_connections: int = 1
) -> dict[tuple[str, str | None], dict[str, bool] | None]:
    """The detector model's C/M/H for each held-out item, keyed by (text, task class); None where the
    reply could not be used (counted as invalid by ``heldout.heldout_quality``, never as "not fired").
    One call per distinct key; greedy decoding, so a rerun on the same server reads the same."""
    keys = list(dict.fromkeys((item.text, item.task_class) for item in items))
    return anyio.run(_read_items, keys, model, max_connections)


@functools.lru_cache(maxsize=1024)
def rule_detection(text: str, task_class: str | None = None) -> Detection:
    """``detect(text, task_class=…)`` once per text and task class per process: the controllers
    applied to a sample (full, workflow_only, confidence_only) and the epochs of an episode share one
    detection. The task class is part of the key: M depends on it."""
    return detect(text, task_class=task_class)


async def combined_flags(
    text: str, source: DetectorSource, task_class: str | None = None
) -> tuple[dict[str, bool] | None, dict]:
    """C/M/H from the rules (M read for ``task_class``), the detector model, or both (a flag is set
    when either sets it).

    Returns ``(None, metadata)`` when the model was needed and failed.
    """
    rule = rule_detection(text, task_class) if source in ("rule", "both") else None
    meta: dict = {"detectors": source}
    if rule is not None:
        meta["rule_flags"] = rule.flags
        meta["evidence"] = [f"{e.detector}:{e.concept}:{e.text}" for e in rule.evidence]
    if source == "rule":
        assert rule is not None
        return rule.flags, meta
    found = await model_detect(text)
    meta["detector_model"] = found.model
    if found.failed:
        assert found.failure is not None
        meta |= {
            "detector_failure": found.failure.reason,
            "detector_detail": found.failure.detail,
            "detector_raw": found.failure.raw[:2000],
        }
        return None, meta
    meta["model_flags"] = found.flags
    meta["model_evidence"] = found.evidence
    if rule is None:
        return found.flags, meta
    return {name: rule.flags[name] or found.flags[name] for name in DETECTORS}, meta


def unscored_values(keys: tuple[str, ...] | list[str]) -> dict[str, float]:
    """A score value with every key unscored (NaN) and the failure counted."""
    return {**dict.fromkeys(keys, math.nan), "detector_failed": 1.0}


MODEL_DETECTOR_METRICS: dict[str, list] = {
    "conflict": [mean()],
    "missing": [mean()],
    "high_risk": [mean()],
    "detector_failed": [count()],
}


def model_detector_score() -> Scorer:
    """Record the detector model's C/M/H and evidence for each sample (``escbench tune`` reads them).

    Registered as ``escbench/model_detector`` (in the ``escbench`` package, like the controllers).
    """

    async def score(state: TaskState, target: Target) -> Score:

        found = await model_detect(sample_text(state))
        if found.failed:
            assert found.failure is not None
            return Score(
                value=unscored_values(DETECTORS),
                explanation=f"Detector failure ({found.failure.reason}); not scored. {found.failure.detail}",
                metadata={
                    "detector_model": found.model,
                    "detector_failure": found.failure.reason,
                    "detector_detail": found.failure.detail,
                    "detector_raw": found.failure.raw[:2000],
                },
            )
        flags: dict[DetectorName, bool] = found.flags  # type: ignore[assignment]
        return Score(
            value={**{n: float(flags[n]) for n in DETECTORS}, "detector_failed": 0.0},
            answer=",".join(n for n in DETECTORS if flags[n]) or "none",
            metadata={"detector_model": found.model, "model_flags": flags, "model_evidence": found.evidence},
        )

    return score
