"""AJCC 8th-edition staging from measurements, with the tables in ``data/staging.yaml``.

The generator, the renderer and the text-level chart validator all call these functions, so a T,
N or stage group is always *computed* (from a size, a depth of invasion, a Breslow thickness and
ulceration, a count and station of involved nodes), never written independently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from escbench_inspect.css.schema import Case, PrimaryTumor, StagingTable

if TYPE_CHECKING:
    from escbench_inspect.css.data import CssData

Basis = Literal["clinical", "pathologic"]


class StagingError(ValueError):
    """A measurement or a T/N combination that the staging table does not cover."""


def t_from_size(table: StagingTable, size_cm: float) -> str:
    """T category of a primary with greatest dimension ``size_cm`` (intervals ``(above, up_to]``)."""
    for cat in table.t.categories:
        if cat.above is not None and size_cm > cat.above and (cat.up_to is None or size_cm <= cat.up_to):
            return cat.t
    raise StagingError(f"no T category for a {size_cm} cm primary")


def t_from_depth(table: StagingTable, depth: str) -> str:
    for cat in table.t.categories:
        if cat.depth == depth:
            return cat.t
    raise StagingError(f"no T category for depth '{depth}'")


def depth_text(table: StagingTable, depth: str) -> str:
    for cat in table.t.categories:
        if cat.depth == depth and cat.text:
            return cat.text
    raise StagingError(f"no text for depth '{depth}'")


def t_from_breslow(table: StagingTable, breslow_mm: float, ulceration: bool) -> str:
    for cat in table.t.categories:
        above, up_to = cat.above or 0.0, cat.up_to
        if breslow_mm > above and (up_to is None or breslow_mm <= up_to) and cat.ulceration == ulceration:
            return cat.t
    raise StagingError(f"no T category for Breslow {breslow_mm} mm, ulceration {ulceration}")


def n_category(table: StagingTable, basis: Basis, involved: int, station: str | None = None) -> str:
    """N category of ``involved`` regional nodes (highest involved ``station`` where N is by station)."""
    for rule in getattr(table.n, basis):
        in_range = involved >= rule.min and (rule.max is None or involved <= rule.max)
        if in_range and (rule.station is None or rule.station == station):
            return rule.n
    raise StagingError(f"no {basis} N category for {involved} involved node(s) (station {station})")


def stage_group(table: StagingTable, basis: Basis, t: str, n: str, m: str) -> str:
    """AJCC stage group; M1 is stage IV (subgroups IVA-IVC are out of scope, see staging.yaml)."""
    if m == "M1":
        return "IV"
    for row in getattr(table.groups, basis):
        if t in row.t and n in row.n:
            return row.group
    raise StagingError(f"no {basis} stage group for {t} {n} {m}")


def main_n(n: str) -> str:
    """N0/N1/N2/N3 without the subcategory letter (what the consensus rules condition on)."""
    return n[:2]


@dataclass(frozen=True)
class Tnm:
    """The computed stage of a case: categories, basis (clinical/pathologic) and stage group."""

    t: str
    n: str
    m: str
    basis: Basis
    group: str


def t_of(table: StagingTable, primary: PrimaryTumor) -> str:
    basis = table.t.basis
    if basis == "size_cm":
        return t_from_size(table, primary.size_cm)
    if basis == "depth":
        if primary.depth is None:
            raise StagingError("T by depth of invasion needs primary.depth")
        return t_from_depth(table, primary.depth)
    if primary.breslow_mm is None or primary.ulceration is None:
        raise StagingError("T by Breslow thickness needs primary.breslow_mm and primary.ulceration")
    return t_from_breslow(table, primary.breslow_mm, primary.ulceration)


def case_tnm(case: Case, data: CssData) -> Tnm:
    """T, N, M and stage group of ``case``: pathologic after a resection, clinical before."""
    table = data.staging[case.cancer]
    basis: Basis = "pathologic" if case.surgery is not None else "clinical"
    t = t_of(table, case.primary)
    n = n_category(table, basis, case.nodes.involved, case.nodes.station)
    return Tnm(t, n, case.m, basis, stage_group(table, basis, t, n, case.m))
