"""Typed models: the structured tumor-board case, and the data files that drive generation.

Everything is frozen. A case is the single source of truth for a chart: every section is rendered
from it, and interventions change the case (never the text), so a mutation reaches every section.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

CancerId = Literal["breast", "nsclc", "colorectal", "gastroesophageal", "melanoma"]
CANCERS: tuple[str, ...] = ("breast", "nsclc", "colorectal", "gastroesophageal", "melanoma")
Family = Literal["A", "B", "C", "D", "E"]
NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Ident = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- the case model


class Surgery(_Frozen):
    """A completed curative-intent resection of the primary tumor."""

    procedure: NonEmpty
    date: dt.date
    intent: Literal["curative", "palliative"] = "curative"
    margin: Literal["R0", "R1", "R2"] = "R0"
    nodes_examined: int = Field(ge=0)
    nodes_positive: int = Field(ge=0)


class PrimaryTumor(_Frozen):
    """Measurements of the primary that the T category is computed from (``staging.yaml``)."""

    size_cm: float = Field(gt=0, lt=30)
    depth: Ident | None = None  # deepest layer invaded (colon, stomach)
    breslow_mm: float | None = Field(default=None, gt=0)  # melanoma
    ulceration: bool | None = None  # melanoma


class RegionalNodes(_Frozen):
    """Involved regional lymph nodes (the N category is computed from them, ``staging.yaml``)."""

    involved: int = Field(ge=0)
    station: Ident | None = None  # highest involved station where N is by station (NSCLC)


class TreatmentLine(_Frozen):
    """One line of systemic therapy."""

    setting: Literal["neoadjuvant", "adjuvant", "metastatic"]
    line: int = Field(ge=1)
    regimen: Ident
    start: dt.date
    cycles: int = Field(ge=1)
    status: Literal["ongoing", "progressed", "completed"]
    best_response: Literal["complete response", "partial response", "stable disease", "progressive disease"]
    end: dt.date | None = None
    progression_scan: dt.date | None = None  # the restaging scan that showed progression (before ``end``)


class Rebiopsy(_Frozen):
    """Biopsy of a metastasis at progression whose receptor result differs from the diagnostic one.

    ``Case.biomarkers`` holds the current (re-biopsy) results; ``diagnostic`` the diagnostic-biopsy
    results that differ, which were the basis of the regimens chosen before ``date``.
    """

    date: dt.date
    site: NonEmpty
    diagnostic: dict[Ident, Ident] = Field(min_length=1)


class Case(_Frozen):
    """One tumor-board case. ``biomarkers`` maps name -> state key; ``None`` = no result in chart."""

    case_id: NonEmpty
    cancer: CancerId
    histology: NonEmpty
    histology_group: Ident
    site: NonEmpty
    side: Ident
    age: int = Field(ge=18, le=100)
    sex: Literal["female", "male"]
    diagnosis_date: dt.date
    primary: PrimaryTumor
    nodes: RegionalNodes
    m: Literal["M0", "M1"]
    metastatic_sites: tuple[str, ...] = ()
    biomarkers: dict[str, str | None]
    surgery: Surgery | None = None
    lines: tuple[TreatmentLine, ...] = ()
    rebiopsy: Rebiopsy | None = None
    ecog: int = Field(ge=0, le=4)
    comorbidities: tuple[Ident, ...] = ()
    allergy: int = Field(ge=0)
    social: int = Field(ge=0)
    family_history: int = Field(ge=0)
    presentation: int = Field(ge=0)
    weight_kg: float = Field(gt=30, lt=200)
    height_cm: float = Field(gt=120, lt=220)

    @property
    def setting(self) -> str:
        return "metastatic" if self.m == "M1" else "early"

    def biomarker_on(self, name: str, date: dt.date) -> str | None:
        """The result of ``name`` that was known on ``date`` (diagnostic result before a re-biopsy)."""
        if self.rebiopsy is not None and date < self.rebiopsy.date and name in self.rebiopsy.diagnostic:
            return self.rebiopsy.diagnostic[name]
        return self.biomarkers.get(name)

    @property
    def status(self) -> str:
        """naive | on_treatment | progressed (of the most recent metastatic line)."""
        met = [line for line in self.lines if line.setting == "metastatic"]
        if not met:
            return "naive"
        return "on_treatment" if met[-1].status == "ongoing" else "progressed"


# --------------------------------------------------------------------------- staging tables (AJCC 8)


class TCategory(_Frozen):
    """One T category: a size/Breslow interval ``(above, up_to]`` or a named depth of invasion."""

    t: NonEmpty
    above: float | None = Field(default=None, ge=0)
    up_to: float | None = Field(default=None, gt=0)
    depth: Ident | None = None
    text: NonEmpty | None = None
    ulceration: bool | None = None


class TRules(_Frozen):
    basis: Literal["size_cm", "depth", "breslow"]
    categories: list[TCategory] = Field(min_length=1)

    @model_validator(mode="after")
    def _basis_fields(self) -> TRules:
        for cat in self.categories:
            if self.basis == "depth" and (cat.depth is None or cat.text is None):
                raise ValueError(f"T category {cat.t}: basis 'depth' needs 'depth' and 'text'")
            if self.basis != "depth" and cat.above is None:
                raise ValueError(f"T category {cat.t}: basis '{self.basis}' needs 'above'")
            if self.basis == "breslow" and cat.ulceration is None:
                raise ValueError(f"T category {cat.t}: basis 'breslow' needs 'ulceration'")
            if cat.above is not None and cat.up_to is not None and cat.up_to <= cat.above:
                raise ValueError(f"T category {cat.t}: up_to must exceed above")
        return self


class NRule(_Frozen):
    """An N category: ``min``-``max`` involved regional nodes (and, for NSCLC, the highest station)."""

    n: NonEmpty
    min: int = Field(ge=0)
    max: int | None = Field(default=None, ge=0)
    station: Ident | None = None


class NRules(_Frozen):
    clinical: list[NRule] = Field(min_length=1)
    pathologic: list[NRule] = Field(min_length=1)


class StageGroupRow(_Frozen):
    group: NonEmpty
    t: list[NonEmpty] = Field(min_length=1)
    n: list[NonEmpty] = Field(min_length=1)


class StageGroups(_Frozen):
    clinical: list[StageGroupRow] = Field(min_length=1)
    pathologic: list[StageGroupRow] = Field(min_length=1)


class StagingTable(_Frozen):
    """AJCC 8th-edition T, N and stage-group rules of one cancer (``data/staging.yaml``)."""

    chapter: NonEmpty
    clinical_t_prefix: Literal["c", "p"] = "c"  # melanoma: pT from the excisional biopsy (microstaging)
    t: TRules
    n: NRules
    groups: StageGroups

    @model_validator(mode="after")
    def _groups_reference_known_categories(self) -> StagingTable:
        t_known = {c.t for c in self.t.categories}
        for basis in ("clinical", "pathologic"):
            n_known = {r.n for r in getattr(self.n, basis)}
            seen: set[tuple[str, str]] = set()
            for row in getattr(self.groups, basis):
                bad = sorted((set(row.t) - t_known) | (set(row.n) - n_known))
                if bad:
                    raise ValueError(f"groups.{basis} row {row.group}: unknown categories {bad}")
                pairs = {(t, n) for t in row.t for n in row.n}
                if pairs & seen:
                    raise ValueError(f"groups.{basis}: {sorted(pairs & seen)} listed twice")
                seen |= pairs
        return self


# --------------------------------------------------------------------------- data files


class BiomarkerState(_Frozen):
    label: NonEmpty
    detail: NonEmpty


class BiomarkerSpec(_Frozen):
    display: NonEmpty
    method: NonEmpty
    states: dict[Ident, BiomarkerState] = Field(min_length=2)


class Histology(_Frozen):
    name: NonEmpty
    group: Ident


class Site(_Frozen):
    name: NonEmpty
    side: Ident
    procedure: NonEmpty | None = None


class StagePreset(_Frozen):
    """A target T category and main N category (N0-N3); the measurements are drawn to match."""

    t: NonEmpty
    n: Annotated[str, StringConstraints(pattern=r"^N[0-3]$")]


class NodalText(_Frozen):
    """How a cancer's charts describe regional nodes: imaging wording and nodal biopsy findings."""

    imaging_none: NonEmpty
    imaging_involved: NonEmpty  # may use {nodes} ("lymph node"/"lymph nodes")
    biopsy: dict[Annotated[str, StringConstraints(pattern=r"^N[0-3]$")], NonEmpty] = Field(
        default_factory=dict
    )


class SurgerySpec(_Frozen):
    procedure: NonEmpty
    nodes: tuple[int, int]


class TumorMarker(_Frozen):
    name: NonEmpty
    unit: NonEmpty
    normal: tuple[float, float]


class Profile(_Frozen):
    weight: int = Field(ge=1)
    biomarkers: dict[Ident, Ident | None]
    histology_group: Ident | None = None


class CancerSpec(_Frozen):
    display: NonEmpty
    sex: Literal["female", "male", "any"]
    age: tuple[int, int]
    histologies: list[Histology] = Field(min_length=1)
    sites: list[Site] = Field(min_length=1)
    stages: list[StagePreset] = Field(min_length=1)
    metastatic_sites: list[NonEmpty] = Field(min_length=1)
    biopsy: NonEmpty
    surgery: SurgerySpec
    nodal_text: NodalText
    microscopic: NonEmpty
    size_cm: tuple[float, float] = (2.0, 6.0)  # primary size range when T is not by size
    imaging_shows_primary: bool = True
    postoperative_imaging: NonEmpty | None = None  # default: local_imaging
    unresected_status: NonEmpty = "primary tumor in situ (no resection performed)"
    no_surgery_note: NonEmpty = "No cancer-directed surgery has been performed."
    local_imaging: NonEmpty
    local_imaging_days_before_biopsy: int = Field(default=6, ge=0)
    staging_imaging: NonEmpty
    presentations: list[NonEmpty] = Field(min_length=1)
    tumor_markers: list[TumorMarker] = Field(min_length=1)
    biomarkers: dict[Ident, BiomarkerSpec] = Field(min_length=1)
    profiles: list[Profile] = Field(min_length=1)
    # histology group -> biomarker -> states that do not occur in that histology (e.g. EGFR in squamous)
    histology_incompatible: dict[Ident, dict[Ident, list[Ident]]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _profiles_known(self) -> CancerSpec:
        for i, profile in enumerate(self.profiles):
            if set(profile.biomarkers) != set(self.biomarkers):
                raise ValueError(f"profiles[{i}] must list exactly the biomarkers {sorted(self.biomarkers)}")
            for name, state in profile.biomarkers.items():
                if state is not None and state not in self.biomarkers[name].states:
                    raise ValueError(f"profiles[{i}].biomarkers.{name}: unknown state '{state}'")
        return self


class Regimen(_Frozen):
    name: NonEmpty
    components: list[NonEmpty] = Field(min_length=1)
    cycle_days: int = Field(ge=7, le=42)
    classes: list[Ident] = Field(min_length=1)
    requires: dict[Ident, list[Ident]] = Field(default_factory=dict)
    # biomarker states for which the regimen is not a fit first choice (e.g. ET + CDK4/6i when HER2+)
    contraindicated: dict[Ident, list[Ident]] = Field(default_factory=dict)


class ConsensusItem(_Frozen):
    id: Ident
    text: NonEmpty
    weight: int = Field(ge=1, le=3)
    tags: list[Ident] = Field(default_factory=list)


class ConsensusRule(_Frozen):
    id: Ident
    when: dict[str, Any]
    items: list[ConsensusItem] = Field(min_length=1)
    standard_first_line: Ident | None = None


class ConsensusFile(_Frozen):
    rules: list[ConsensusRule] = Field(min_length=1)


Op = Literal[
    "set_biomarker",
    "delete_biomarker",
    "add_progressed_first_line",
    "progress_current_line",
    "remove_surgery",
    "add_surgery",
    "add_metastases",
    "remove_metastases",
]


class Change(_Frozen):
    op: Op
    targets: dict[CancerId, Ident] = Field(default_factory=dict)
    map: dict[Ident, dict[Ident, Ident]] = Field(default_factory=dict)
    couple: list[Ident] = Field(default_factory=list)

    @model_validator(mode="after")
    def _op_fields(self) -> Change:
        if self.op in ("set_biomarker", "delete_biomarker") and not self.targets:
            raise ValueError(f"op '{self.op}' needs 'targets' (cancer -> biomarker)")
        if self.op == "set_biomarker":
            missing = sorted(set(self.targets.values()) - set(self.map))
            if missing:
                raise ValueError(f"op 'set_biomarker' needs a 'map' entry for {missing}")
        return self


SignedTag = Annotated[str, StringConstraints(pattern=r"^[+-][a-z][a-z0-9_]*$")]


class Intervention(_Frozen):
    id: Annotated[str, StringConstraints(pattern=r"^[A-E][0-9]_[a-z0-9_]+$")]
    family: Family
    title: NonEmpty
    applies_if: dict[str, Any]
    change: Change
    expected_direction: NonEmpty | dict[Ident, NonEmpty]
    # consensus-change tags that show the direction ("+tag" added item, "-tag" removed item; any of)
    reflected_by: list[SignedTag] | dict[Ident, list[SignedTag]]
    # what happens when the change makes a regimen already in the chart unfit for the new profile
    regimen_conflict: Literal["exclude", "rebiopsy_at_progression"] | None = None

    def reflected_by_for(self, new_state: str | None) -> list[str]:
        if isinstance(self.reflected_by, list):
            return self.reflected_by
        return self.reflected_by.get(new_state or "", [])

    @model_validator(mode="after")
    def _family_prefix(self) -> Intervention:
        if not self.id.startswith(self.family):
            raise ValueError(f"id '{self.id}' must start with its family letter '{self.family}'")
        if isinstance(self.expected_direction, dict):
            targets = {v for m in self.change.map.values() for v in m.values()}
            missing = sorted(targets - set(self.expected_direction))
            if missing:
                raise ValueError(f"expected_direction lacks the new state(s) {missing}")
        if isinstance(self.expected_direction, dict) != isinstance(self.reflected_by, dict) or (
            isinstance(self.reflected_by, dict) and set(self.reflected_by) != set(self.expected_direction)  # type: ignore[arg-type]
        ):
            raise ValueError("reflected_by must have the same shape (and new states) as expected_direction")
        if self.change.op in ("set_biomarker", "delete_biomarker") and self.regimen_conflict is None:
            raise ValueError(
                f"op '{self.change.op}' needs 'regimen_conflict' (what happens to an unfit regimen)"
            )
        return self


class Catalog(_Frozen):
    version: NonEmpty
    families: dict[Family, NonEmpty]
    interventions: list[Intervention] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> Catalog:
        ids = [i.id for i in self.interventions]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate intervention ids {dupes}")
        return self


class Comorbidity(_Frozen):
    id: Ident
    name: NonEmpty
    meds: list[NonEmpty]
    plan: NonEmpty


class Operation(_Frozen):
    """Typical length of stay and blood loss of an operation (matched by name)."""

    match: NonEmpty
    stay_days: tuple[int, int]
    blood_loss_ml: tuple[int, int]


class NoteKind(_Frozen):
    title: NonEmpty
    template: NonEmpty
    interval_days: int | None = Field(default=None, ge=30)  # stated cadence ("Return in 12 months")


class SocialTemplate(_Frozen):
    """Social history; ``{smoking}`` and ``{children}`` are computed from the patient's age."""

    text: NonEmpty
    ages: tuple[int, int]  # patient ages the text fits (e.g. "retired" from 58)
    smoking: Literal["never", "former", "current"]
    children: int = Field(default=0, ge=0, le=3)


class FamilyTemplate(_Frozen):
    """Family history with fixed relatives' ages; ``ages`` = patient ages for which they are possible."""

    text: NonEmpty
    ages: tuple[int, int]


class Background(_Frozen):
    comorbidities: list[Comorbidity] = Field(min_length=1)
    operations: list[Operation] = Field(min_length=1)
    allergies: list[NonEmpty] = Field(min_length=1)
    social: list[SocialTemplate] = Field(min_length=1)
    family_history: list[FamilyTemplate] = Field(min_length=1)
    note_kinds: list[NoteKind] = Field(min_length=1)
    phrasings: dict[Ident, list[NonEmpty]] = Field(default_factory=dict)  # sentence role -> variants

    def operation(self, procedure: str) -> Operation | None:
        return next((op for op in self.operations if op.match in procedure), None)

    @model_validator(mode="after")
    def _three_phrasings(self) -> Background:
        few = sorted(role for role, variants in self.phrasings.items() if len(variants) < 3)
        if few:
            raise ValueError(f"phrasings {few}: at least three variants per sentence role")
        return self
