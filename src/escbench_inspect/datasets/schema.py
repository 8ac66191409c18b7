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
    """Typed transcript blocks, in rendering order. Every episode has all six (minimal pairs)."""

    SETTING = "setting"
    EARLIER_RECORD = "earlier_record"
    NEW_INFORMATION = "new_information"
    SUMMARY = "summary"  # auto-generated chart summary: current, or outdated in the stale variant
    REQUEST = "request"
    LATE_MESSAGE = "late_message"  # arrives after the request: routine, or the late red flag


# Every seed authors every block; hooks only rewrite text inside them.
AUTHORED_BLOCKS: tuple[BlockKind, ...] = tuple(BlockKind)
# Blocks a missing fact (or an immaterial blank) may sit in: not the two that a variant replaces whole.
RecordBlock = Literal["setting", "earlier_record", "new_information", "request"]

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


class Replacement(_Frozen):
    """Rewrites one exact span of one block: ``find`` (in the template) becomes ``replace``."""

    block: RecordBlock | Literal["summary"]
    find: NonEmpty = Field(description="Exact template text; must occur once in the block.")
    replace: NonEmpty


class AbsentField(_Frozen):
    """An unfilled, immaterial field every episode carries (``blank`` is in the template).

    It keeps absence wording from saying anything by itself: the missing variant fills it in
    (``filled``) while blanking the decision-critical fact, so every episode of a seed shows the
    same number of unfilled fields, in the same vocabulary.
    """

    block: RecordBlock
    blank: NonEmpty = Field(description="Exact template text of the unfilled field.")
    filled: NonEmpty = Field(description="The same field filled in (used by the missing variant).")


class MissingHook(_Frozen):
    """Deletes one decision-critical fact and leaves an absence/unreadability marker."""

    block: RecordBlock
    remove: NonEmpty = Field(description="Exact template text to delete; must occur once.")
    marker: NonEmpty = Field(description="What stands in its place, e.g. '[dose not stated]'.")
    immaterial: AbsentField


class ConflictHook(_Frozen):
    """Replaces a corroborating statement with a contradicting one (or patient minimization).

    ``consistent`` is in the template, so every other variant has a statement in the same place
    that agrees with the record; the conflict variant has ``text`` there instead.
    """

    block: Literal["earlier_record", "new_information", "summary"]
    consistent: NonEmpty = Field(description="Exact template text of the agreeing statement.")
    text: NonEmpty = Field(description="The contradicting statement that replaces it.")


class TextHook(_Frozen):
    text: NonEmpty


class Hooks(_Frozen):
    missing: MissingHook
    stale: TextHook = Field(
        description="Outdated auto-generated summary restating a superseded fact; replaces blocks.summary."
    )
    conflict: ConflictHook
    late_risk: TextHook = Field(
        description="Red-flag cue that arrives after the request; replaces blocks.late_message."
    )

    def replacements(self, variant: Variant) -> tuple[Replacement, ...]:
        """The span rewrites that turn the clean templates into ``variant``'s."""
        if variant is Variant.MISSING:
            gap, filled = self.missing, self.missing.immaterial
            return (
                Replacement(block=gap.block, find=gap.remove, replace=gap.marker),
                Replacement(block=filled.block, find=filled.blank, replace=filled.filled),
            )
        if variant is Variant.CONFLICT:
            hook = self.conflict
            return (Replacement(block=hook.block, find=hook.consistent, replace=hook.text),)
        return ()

    def whole_block(self, variant: Variant) -> tuple[BlockKind, str] | None:
        """The block a variant replaces whole (stale summary, late red flag), if any."""
        if variant is Variant.STALE:
            return BlockKind.SUMMARY, self.stale.text
        if variant is Variant.LATE_RISK:
            return BlockKind.LATE_MESSAGE, self.late_risk.text
        return None


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
    summary: NonEmpty = Field(description="Current, consistent auto-generated chart summary.")
    request: NonEmpty
    late_message: NonEmpty = Field(
        description="Routine message that arrives after the request (no red flag)."
    )


class SeedScenario(_Frozen):
    """One hand-authored seed scenario file."""

    id: Identifier
    task_class: TaskClass
    split: Split
    title: NonEmpty
    specialty: NonEmpty
    decision_tested: NonEmpty = Field(description="The one decision this seed tests, in a sentence.")
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
        for field, block, text in self._anchors():
            count = getattr(self.blocks, block).count(text)
            if count != 1:
                raise ValueError(
                    f"{field} must occur exactly once in blocks.{block}, found {count} times: {text!r}"
                )
        spans = [(block, text) for _, block, text in self._anchors()]
        for i, (block, text) in enumerate(spans):
            for other_block, other in spans[i + 1 :]:
                if block == other_block and (text in other or other in text):
                    raise ValueError(f"hook anchors overlap in blocks.{block}: {text!r}, {other!r}")
        return self

    def _anchors(self) -> list[tuple[str, str, str]]:
        """(field, block, template text) of every span a hook rewrites."""
        hooks = self.hooks
        immaterial = hooks.missing.immaterial
        return [
            ("hooks.missing.remove", hooks.missing.block, hooks.missing.remove),
            ("hooks.missing.immaterial.blank", immaterial.block, immaterial.blank),
            ("hooks.conflict.consistent", hooks.conflict.block, hooks.conflict.consistent),
        ]

    def _templates(self) -> list[str]:
        hooks = self.hooks
        texts = [getattr(self.blocks, kind.value) for kind in AUTHORED_BLOCKS]
        texts += [hooks.missing.marker, hooks.missing.immaterial.filled, hooks.stale.text]
        texts += [hooks.conflict.text, hooks.late_risk.text]
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
        return tuple(b for b in self.blocks if b.kind in (BlockKind.SETTING, BlockKind.EARLIER_RECORD))

    @property
    def event(self) -> tuple[Block, ...]:
        kinds = (BlockKind.NEW_INFORMATION, BlockKind.SUMMARY, BlockKind.LATE_MESSAGE)
        return tuple(b for b in self.blocks if b.kind in kinds)
