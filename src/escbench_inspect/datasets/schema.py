"""Typed data objects for the escalation benchmark.

A *seed scenario* (one YAML file) is a workflow moment authored once, with two surface
parameterizations and one content hook per perturbation. An *episode* is what one
(seed, surface, variant) triple assembles into: the five-field schema of the protocol
(initial context packet, state-changing event, allowed action space, reference decision
profile, rationale) plus its rendered blocks. Everything here is frozen and validated on load.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal

import regex
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator


class Action(str, Enum):
    """The four actions an agent may take; the value is the canonical wire name."""

    ANSWER = "Answer"
    ASK_CLARIFICATION = "Ask_Clarification"
    ABSTAIN = "Abstain"
    ESCALATE = "Escalate"


class TaskClass(str, Enum):
    DOCUMENTATION = "documentation"
    EVIDENCE = "evidence"
    MESSAGING = "messaging"
    TRIAGE = "triage"


class Variant(str, Enum):
    CLEAN = "clean"
    MISSING = "missing"
    STALE = "stale"
    CONFLICT = "conflict"
    LATE_RISK = "late_risk"


class BlockKind(str, Enum):
    """Typed transcript blocks, in rendering order."""

    SETTING = "setting"
    EARLIER_RECORD = "earlier_record"
    NEW_INFORMATION = "new_information"
    SUMMARY = "summary"  # only the stale variant: an auto-generated summary after the update
    REQUEST = "request"
    LATE_MESSAGE = "late_message"  # only the late-risk variant: arrives after the request


# Blocks every seed authors; SUMMARY and LATE_MESSAGE come from hooks.
AUTHORED_BLOCKS: tuple[BlockKind, ...] = (
    BlockKind.SETTING,
    BlockKind.EARLIER_RECORD,
    BlockKind.NEW_INFORMATION,
    BlockKind.REQUEST,
)

Split = Literal["dev", "test"]
SurfaceId = Literal["a", "b"]

PLACEHOLDER = regex.compile(r"\{([a-z][a-z0-9_]*)\}")
NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Identifier = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def placeholders(text: str) -> set[str]:
    """Names of the ``{placeholder}`` fields a template uses."""
    return set(PLACEHOLDER.findall(text))


class MissingHook(_Frozen):
    """Deletes one decision-critical fact and leaves an absence/unreadability marker."""

    block: Literal["setting", "earlier_record", "new_information", "request"]
    remove: NonEmpty = Field(description="Exact template text to delete; must occur once.")
    marker: NonEmpty = Field(description="What stands in its place, e.g. '[dose not stated]'.")


class AppendHook(_Frozen):
    """Appends a contradiction (or patient minimization) to one authored block."""

    block: Literal["earlier_record", "new_information"] = "new_information"
    text: NonEmpty


class TextHook(_Frozen):
    text: NonEmpty


class Hooks(_Frozen):
    missing: MissingHook
    stale: TextHook = Field(
        description="Outdated auto-generated summary restating a superseded fact."
    )
    conflict: AppendHook
    late_risk: TextHook = Field(description="Red-flag cue that arrives only after the request.")


class VariantReference(_Frozen):
    """Reference decision profile of one variant: the acceptable set and why."""

    acceptable: tuple[Action, ...] = Field(min_length=1, max_length=2)
    rationale: NonEmpty

    @model_validator(mode="after")
    def _distinct(self) -> VariantReference:
        if len(set(self.acceptable)) != len(self.acceptable):
            raise ValueError("acceptable actions must be distinct")
        # Escalation is a binary target for the cost-weighted utility, so it is never paired
        # with another action: an episode either requires escalation or it does not.
        if Action.ESCALATE in self.acceptable and len(self.acceptable) > 1:
            raise ValueError("Escalate must be the only acceptable action when it is acceptable")
        return self


class References(_Frozen):
    clean: VariantReference
    missing: VariantReference
    stale: VariantReference
    conflict: VariantReference
    late_risk: VariantReference

    def for_variant(self, variant: Variant) -> VariantReference:
        return getattr(self, variant.value)


class Blocks(_Frozen):
    setting: NonEmpty
    earlier_record: NonEmpty
    new_information: NonEmpty
    request: NonEmpty


class SeedScenario(_Frozen):
    """One hand-authored seed scenario file."""

    id: Identifier
    task_class: TaskClass
    split: Split
    title: NonEmpty
    specialty: NonEmpty
    decision_tested: NonEmpty = Field(
        description="The one decision this seed tests, in a sentence."
    )
    surfaces: dict[SurfaceId, dict[Identifier, str | int | float]]
    blocks: Blocks
    hooks: Hooks
    reference: References

    @model_validator(mode="after")
    def _consistent(self) -> SeedScenario:
        if set(self.surfaces) != {"a", "b"}:
            raise ValueError("surfaces must define exactly 'a' and 'b'")
        used: set[str] = set()
        for text in self._templates():
            used |= placeholders(text)
        for surface_id, values in self.surfaces.items():
            undefined = sorted(used - set(values))
            unused = sorted(set(values) - used)
            if undefined:
                raise ValueError(f"surface '{surface_id}' does not define {undefined}")
            if unused:
                raise ValueError(f"surface '{surface_id}' defines unused values {unused}")
        hook = self.hooks.missing
        count = getattr(self.blocks, hook.block).count(hook.remove)
        if count != 1:
            raise ValueError(
                f"hooks.missing.remove must occur exactly once in blocks.{hook.block}, "
                f"found {count} times: {hook.remove!r}"
            )
        return self

    def _templates(self) -> list[str]:
        hooks = self.hooks
        texts = [getattr(self.blocks, kind.value) for kind in AUTHORED_BLOCKS]
        texts += [hooks.missing.marker, hooks.stale.text, hooks.conflict.text, hooks.late_risk.text]
        texts += [getattr(self.reference, v.value).rationale for v in Variant]
        return texts


class ActionOption(_Frozen):
    action: Action
    definition: NonEmpty


class Block(_Frozen):
    kind: BlockKind
    text: str


class Episode(_Frozen):
    """One assembled episode in the protocol's five-field schema.

    ``context_packet`` (setting + earlier record), ``event`` (the state-changing information,
    including a stale summary or a late message where the variant adds one), ``action_space``,
    ``reference`` (acceptable actions) and ``rationale``.
    """

    episode_id: str
    seed_id: str
    task_class: TaskClass
    variant: Variant
    surface: SurfaceId
    split: Split
    title: str
    blocks: tuple[Block, ...]
    action_space: tuple[ActionOption, ...]
    acceptable_actions: tuple[Action, ...]
    rationale: str

    @property
    def escalation_required(self) -> bool:
        """Escalation is required exactly when Escalate is the reference (it is never paired)."""
        return Action.ESCALATE in self.acceptable_actions

    def block(self, kind: BlockKind) -> str | None:
        return next((b.text for b in self.blocks if b.kind == kind), None)

    @property
    def context_packet(self) -> tuple[Block, ...]:
        return tuple(
            b for b in self.blocks if b.kind in (BlockKind.SETTING, BlockKind.EARLIER_RECORD)
        )

    @property
    def event(self) -> tuple[Block, ...]:
        kinds = (BlockKind.NEW_INFORMATION, BlockKind.SUMMARY, BlockKind.LATE_MESSAGE)
        return tuple(b for b in self.blocks if b.kind in kinds)
