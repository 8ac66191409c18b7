"""Minimality of a counterfactual pair: the mutated chart differs from the baseline only where the
intervention reaches.

A paired design measures the effect of one change; any other difference between the two arms is a
confound. Two rules, checked on the rendered text of both arms:

* **traced**: every line that differs between the arms either belongs to a dated document dated on
  or after the *divergence date* (the first date on which the two patients' histories differ), or
  carries a sentence the renderer recorded under a fact key the mutation changed (the events graph:
  :meth:`ChartRenderer.fact` declares what each rendered span depends on);
* **past is fixed**: every dated document before the divergence date appears in both arms, with the
  same date and the same text (no re-dated lab panel, no re-drawn value, no note added or dropped).

The divergence date is structural (:func:`divergence_date`): the diagnostic biopsy for a biomarker
result, the staging scan for metastases, the consultation where a resection is planned, a week
before a line's first cycle (port placement), the progression scan of a line, and the earlier
pre-board review when the board date moves.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass

from escbench_inspect.css.chart_check import dated_documents
from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.render import IUPD_DAYS_BEFORE_CONFIRMATION, ChartRenderer, fact_values
from escbench_inspect.css.schema import Case

_HEADER_RE = re.compile(r"^\s*\[(\d{4}-\d{2}-\d{2})\]")
CONSULTATION_DAYS = 12  # the consultation (diagnosis + 12 days) plans a resection
STAGING_DAYS = 9


@dataclass(frozen=True)
class MinimalityViolation:
    reason: str  # untraced_change | pre_divergence_document_changed
    section: str
    detail: str


def changed_keys(baseline: Case, mutated: Case) -> set[str]:
    before, after = fact_values(baseline), fact_values(mutated)
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def divergence_date(baseline: Case, mutated: Case, data: CssData | None = None) -> dt.date:
    """The first date on which the two arms' histories differ (see the module docstring)."""
    data = data or packaged_data()
    dx = baseline.diagnosis_date
    dates: list[dt.date] = []
    if baseline.biomarkers != mutated.biomarkers or baseline.rebiopsy != mutated.rebiopsy:
        dates.append(dx)
    if (baseline.m, baseline.metastatic_sites) != (mutated.m, mutated.metastatic_sites):
        dates.append(dx + dt.timedelta(days=STAGING_DAYS))
    if baseline.surgery != mutated.surgery:
        dates.append(dx + dt.timedelta(days=CONSULTATION_DAYS))
    for i in range(max(len(baseline.lines), len(mutated.lines))):
        a = baseline.lines[i] if i < len(baseline.lines) else None
        b = mutated.lines[i] if i < len(mutated.lines) else None
        if a == b:
            continue
        if a is None or b is None or (a.regimen, a.start) != (b.regimen, b.start):
            dates += [line.start - dt.timedelta(days=7) for line in (a, b) if line is not None]
        else:
            scans = [line.progression_scan for line in (a, b) if line.progression_scan is not None]
            if "pd1_inhibitor" in data.regimens[a.regimen].classes:  # unconfirmed progression first
                scans = [scan - dt.timedelta(days=IUPD_DAYS_BEFORE_CONFIRMATION) for scan in scans]
            days = data.regimens[a.regimen].cycle_days
            dates += scans or [a.start + dt.timedelta(days=min(a.cycles, b.cycles) * days)]
    boards = {ChartRenderer(case, "short", data).board_date() for case in (baseline, mutated)}
    if len(boards) > 1:
        dates.append(min(boards) - dt.timedelta(days=3))
    return min(dates) if dates else dt.date.max


def _dated_lines(text: str) -> list[tuple[str, dt.date | None]]:
    """Each line with the date of the dated document it belongs to (as :func:`dated_documents`
    reads them: a ``[YYYY-MM-DD]`` header and the lines after it, up to a blank line)."""
    out: list[tuple[str, dt.date | None]] = []
    date: dt.date | None = None
    for line in text.splitlines():
        header = _HEADER_RE.match(line)
        if header:
            date = dt.date.fromisoformat(header.group(1))
        elif not line.strip():
            date = None
        out.append((line, date))
    return out


def minimality_violations(
    baseline: Case, mutated: Case, chart_length: str, data: CssData | None = None
) -> list[MinimalityViolation]:
    """Every difference between the two arms' charts that the intervention does not explain."""
    data = data or packaged_data()
    before, after = ChartRenderer(baseline, chart_length, data), ChartRenderer(mutated, chart_length, data)
    sections_b, sections_m = before.render(), after.render()
    keys = changed_keys(baseline, mutated)
    traced = {text for key in keys for text in before.facts.get(key, set()) | after.facts.get(key, set())}
    cut = divergence_date(baseline, mutated, data)
    problems: list[MinimalityViolation] = []
    for name in sections_b:
        pairs_b = Counter(p for p in _dated_lines(sections_b[name]) if p[0].strip())
        pairs_m = Counter(p for p in _dated_lines(sections_m[name]) if p[0].strip())
        for (line, date), _count in sorted(((pairs_b - pairs_m) + (pairs_m - pairs_b)).items(), key=str):
            if date is not None and date >= cut:
                continue
            if any(text in line for text in traced):
                continue
            problems.append(MinimalityViolation("untraced_change", name, line[:160]))
    docs_b = {(s, d, t) for s, d, t in dated_documents(sections_b) if d < cut}
    docs_m = {(s, d, t) for s, d, t in dated_documents(sections_m) if d < cut}
    for section, date, text in sorted(docs_b ^ docs_m):
        problems.append(
            MinimalityViolation("pre_divergence_document_changed", section, f"[{date}] {text[:120]}")
        )
    return problems


def minimality_audit(plans: list, lengths: list[str] | tuple[str, ...], data: CssData | None = None) -> dict:
    """Minimality violations (by reason) over emitted tuple plans, per chart length."""
    from escbench_inspect.css.catalog import mutate
    from escbench_inspect.css.generator import case_by_id

    data = data or packaged_data()
    ivs = {iv.id: iv for iv in data.catalog.interventions}
    found: dict[str, Counter] = {length: Counter() for length in lengths}
    for plan in plans:
        baseline = case_by_id(plan.case_id)
        mutated = mutate(ivs[plan.intervention_id], baseline, data)
        for length in lengths:
            found[length].update(v.reason for v in minimality_violations(baseline, mutated, length, data))
    return found
