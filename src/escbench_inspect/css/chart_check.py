"""Text-level chart validator: reads the rendered sections back and checks them as a reviewer would.

It never looks at the structured case. From the text of the ten sections it extracts the stated
T/N/M categories and stage groups, the measurements they rest on (primary size, depth of invasion,
Breslow thickness and ulceration, involved and examined nodes, nodal stations), the biomarker results,
the histology, the regimens, and every dated document and event. It then checks them against each
other, against the AJCC tables in ``data/staging.yaml`` (via :mod:`escbench_inspect.css.staging`)
and against the timeline rules (see docs/css.md). Each problem is a :class:`ChartViolation` with a
machine-readable reason; the dataset builder excludes every tuple whose baseline or mutated chart
has one, at any chart length, and counts it by reason.

The patterns below are the chart's own phrasings (the renderer is templated), so a change of
wording in ``render.py`` must be mirrored here; the planted-defect tests in tests/escbench/css check that
each check still fires.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from escbench_inspect.css.coherence import EXCLUSIVE_DRIVERS, MAX_DAYS_PROGRESSION_TO_DISCONTINUATION
from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.schema import CancerSpec, StagingTable
from escbench_inspect.css.staging import (
    StagingError,
    main_n,
    n_category,
    stage_group,
    t_from_breslow,
    t_from_size,
)

_DATE = r"\d{4}-\d{2}-\d{2}"
_DATE_RE = re.compile(_DATE)
_HEADER_RE = re.compile(rf"^\s*\[({_DATE})\]")
_STAGE_RE = re.compile(
    r"\b([cp])(T[0-4][a-d]?)\s+([cp])(N[0-3][a-c]?)\s+([cp]?)M([01])\b"
    r"(?:,? \(?(clinical|pathologic) stage ([IV]+[A-D]?[0-9]?)\)?|, stage ([IV]+[A-D]?))?"
)
_PATH_STAGE_RE = re.compile(r"pathologic stage p(T[0-4][a-d]?) p(N[0-3][a-c]?)")
# (also the wording of the pre-2.0 generator, so one validator measured the charts before and after)
_REGIONAL_N_RE = re.compile(r"regional findings consistent with (N[0-3][a-c]?)")
_SIZE_RE = re.compile(r"(\d+(?:\.\d+)?) cm in greatest dimension")
_PATH_SIZE_RE = re.compile(r"Invasive tumor size (\d+(?:\.\d+)?) cm")
_NODES_RE = re.compile(r"lymph nodes (\d+)/(\d+) positive(?: \(highest involved station: ([a-z_]+)\))?")
_NODAL_IMAGING_RE = re.compile(r"regional lymph nodes: (none involved|(\d+) involved)(?: \(([a-z_]+)\))?")
_BRESLOW_RE = re.compile(r"Breslow thickness (\d+(?:\.\d+)?) mm")
_ULCERATION_RE = re.compile(r"ulceration (present|absent)")
_BOARD_RE = re.compile(rf"Multidisciplinary tumor board, ({_DATE})")
_DISCONTINUED_RE = re.compile(rf"discontinued ({_DATE}) for radiographic disease progression")
_STARTED_RE = re.compile(rf"-line (.+?) started ({_DATE})")
_CYCLE_LOG_RE = re.compile(rf"Cycle \d+ \(({_DATE})\): administered")
_CYCLE_NOTE_RE = re.compile(rf"^\[({_DATE})\] Medical oncology - Cycle \d+ day 1", re.MULTILINE)
_OPERATIVE_RE = re.compile(rf"^\[({_DATE})\] Operative note: (.+?) \(", re.MULTILINE)
_SPECIMEN_A_RE = re.compile(rf"Specimen A \(({_DATE})\)")
_STAGING_SCAN_RE = re.compile(rf"Staging: .+? completed ({_DATE})")
_METASTASIS_SPECIMEN_RE = re.compile(
    rf"Specimen C \(({_DATE})\): core biopsy of the (.+?) metastasis|"
    rf"Specimen: core biopsy of the (.+?) metastasis \(({_DATE})\)"
)
_CYCLE_COUNTS_RE = re.compile(
    rf"Cycle \d+ \(({_DATE})\): administered.*?pre-treatment ANC (\d+(?:\.\d+)?) x10\^9/L, platelets (\d+)"
)
_CBC_RE = re.compile(
    rf"^\[({_DATE})\] Complete blood count: .*?ANC (\d+(?:\.\d+)?)\b.*?platelets (\d+)", re.MULTILINE
)
_POSITIVE_NODAL_TEXT = (
    "nodal aspirates contain metastatic carcinoma",
    "regional nodal core with metastatic melanoma",
    "aspirate: metastatic carcinoma",
    "metastatic carcinoma in the axillary node",
    "nodal core: metastatic melanoma",
)
_NEGATIVE_METASTATIC_TEXT = ("no evidence of distant metastatic disease", "no distant metastases")
_POSITIVE_METASTATIC_TEXT = ("distant metastatic disease in the", "distant metastases to")
_PLACEHOLDERS = ("per T category", "{", "}", "TODO", "XXX")


@dataclass(frozen=True)
class ChartViolation:
    reason: str
    section: str
    detail: str


@dataclass(frozen=True)
class _Stated:
    section: str
    t: str
    n: str
    m: str | None
    basis: str  # c | p, from the N prefix
    label: str | None  # "clinical" | "pathologic" | None
    group: str | None
    text: str


def _compatible(stated: str, derived: str) -> bool:
    """``pN1`` is a correct (less specific) statement of ``N1a``; ``T2`` of ``T2a``."""
    return stated == derived or (len(stated) == 2 and derived.startswith(stated))


def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def dated_documents(sections: dict[str, str]) -> list[tuple[str, dt.date, str]]:
    """(section, date, text) of every dated document: a ``[YYYY-MM-DD]`` header and its body."""
    docs: list[tuple[str, dt.date, str]] = []
    for name, text in sections.items():
        current: list[str] | None = None
        date: dt.date | None = None
        for line in text.splitlines() + [""]:
            header = _HEADER_RE.match(line)
            if header or not line.strip():
                if current is not None and date is not None:
                    docs.append((name, date, "\n".join(current)))
                current, date = (None, None)
                if header:
                    current, date = [line], _date(header.group(1))
                continue
            if current is not None:
                current.append(line)
    return docs


class ChartChecker:
    """Checks the ten rendered sections of one chart of a ``cancer``."""

    def __init__(self, cancer: str, data: CssData | None = None):
        self.data = data or packaged_data()
        self.cancer = cancer
        self.spec: CancerSpec = self.data.cancers[cancer]
        self.table: StagingTable = self.data.staging[cancer]

    # ------------------------------------------------------------------ extraction
    def stated_stages(self, sections: dict[str, str]) -> list[_Stated]:
        out: list[_Stated] = []
        for name, text in sections.items():
            for m in _STAGE_RE.finditer(text):
                group = m.group(8) or m.group(9)
                # the N prefix carries the basis (melanoma states pT from the biopsy in clinical staging)
                out.append(
                    _Stated(
                        name, m.group(2), m.group(4), f"M{m.group(6)}", m.group(3), m.group(7), group, m[0]
                    )
                )
            for m in _PATH_STAGE_RE.finditer(text):
                out.append(_Stated(name, m.group(1), m.group(2), None, "p", "pathologic", None, m[0]))
        return out

    def biomarker_states(self, sections: dict[str, str], rebiopsy: bool = True) -> dict[str, str | None]:
        """Biomarker -> state read from the molecular and pathology sections (None = stated absent):
        the current results (a re-biopsy's where there is one) or, ``rebiopsy=False``, the diagnostic."""
        states: dict[str, str | None] = {}
        text = sections.get("molecular", "") + "\n" + sections.get("pathology", "")
        for name, marker in self.spec.biomarkers.items():
            prefixes = [f"- {marker.display}:", f"{marker.display} ("]
            if rebiopsy:
                prefixes.insert(0, f"- {marker.display} (re-biopsy):")
            for prefix in prefixes:
                found = [line for line in text.splitlines() if line.startswith(prefix)]
                for line in found:
                    if "no result in the available record" in line or "not reported on this specimen" in line:
                        states.setdefault(name, None)
                    for state, spec in marker.states.items():
                        if spec.detail in line:
                            states.setdefault(name, state)
        return states

    def histology_group(self, sections: dict[str, str]) -> str | None:
        text = sections.get("pathology", "")
        for histology in self.spec.histologies:
            if f"Diagnosis: {histology.name}" in text:
                return histology.group
        return None

    # ------------------------------------------------------------------ checks
    def check(self, sections: dict[str, str]) -> list[ChartViolation]:
        problems: list[ChartViolation] = []
        problems += self._staging(sections)
        problems += self._timeline(sections)
        problems += self._biomarkers(sections)
        problems += self._wording(sections)
        problems += self._documents(sections)
        unique = {(p.reason, p.section, p.detail): p for p in problems}
        return sorted(unique.values(), key=lambda p: (p.reason, p.section, p.detail))

    def _measured_t(self, sections: dict[str, str]) -> list[tuple[str, str, str]]:
        """(section, T derived from a measurement in the text, evidence)."""
        out: list[tuple[str, str, str]] = []
        basis = self.table.t.basis
        for name, text in sections.items():
            if basis == "size_cm":
                sizes = [float(x) for x in _SIZE_RE.findall(text)] + [
                    float(x) for x in _PATH_SIZE_RE.findall(text)
                ]
                for size in sizes:
                    try:
                        out.append((name, t_from_size(self.table, size), f"{size} cm"))
                    except StagingError as error:
                        out.append((name, "?", str(error)))
            elif basis == "depth":
                for cat in self.table.t.categories:
                    if cat.text and f"tumor {cat.text}" in text:
                        out.append((name, cat.t, cat.text))
            else:
                for line in text.splitlines():
                    breslow, ulceration = _BRESLOW_RE.search(line), _ULCERATION_RE.search(line)
                    if breslow and ulceration:
                        mm, ulcerated = float(breslow.group(1)), ulceration.group(1) == "present"
                        try:
                            out.append((name, t_from_breslow(self.table, mm, ulcerated), breslow[0]))
                        except StagingError as error:
                            out.append((name, "?", str(error)))
        return out

    def _measured_nodes(self, sections: dict[str, str]) -> list[tuple[str, str, int, str | None, str]]:
        """(section, basis, involved nodes, station, evidence) read from imaging and pathology."""
        out: list[tuple[str, str, int, str | None, str]] = []
        for name, text in sections.items():
            for m in _NODES_RE.finditer(text):
                out.append((name, "pathologic", int(m.group(1)), m.group(3), m[0]))
            for m in _NODAL_IMAGING_RE.finditer(text):
                count = 0 if m.group(1) == "none involved" else int(m.group(2))
                out.append((name, "clinical", count, m.group(3), m[0]))
        return out

    def _groups(self, basis: str, t: str, n: str, m: str) -> set[str]:
        """Stage groups the table gives for a stated T/N/M (a main category covers its subcategories)."""
        t_options = [c.t for c in self.table.t.categories if _compatible(t, c.t)]
        n_options = [r.n for r in getattr(self.table.n, basis) if _compatible(n, r.n)]
        groups = set()
        for t_option in t_options:
            for n_option in n_options:
                try:
                    groups.add(stage_group(self.table, basis, t_option, n_option, m))  # type: ignore[arg-type]
                except StagingError:
                    continue
        return groups

    def _staging(self, sections: dict[str, str]) -> list[ChartViolation]:
        problems: list[ChartViolation] = []
        stated = self.stated_stages(sections)
        text_all = "\n".join(sections.values())
        for name, text in sections.items():
            for m in _REGIONAL_N_RE.finditer(text):
                stated.append(_Stated(name, "", m.group(1), None, "c", None, None, m[0]))
        resected = bool(_NODES_RE.search(text_all))
        # 1) T vs the measurement it rests on
        measured_t = self._measured_t(sections)
        for st in stated:
            for section, t, evidence in measured_t:
                if st.t and not _compatible(st.t, t):
                    problems.append(
                        ChartViolation(
                            "t_contradicts_measurement",
                            st.section,
                            f"{st.text} vs {evidence} ({section}) -> {t}",
                        )
                    )
        # 2) N vs the node count (and station) it rests on
        by_station = any(r.station for r in self.table.n.pathologic)
        for section, basis, count, station, evidence in self._measured_nodes(sections):
            if by_station and count > 0 and station is None:
                continue  # N rests on the station, which this statement does not give
            try:
                expected = n_category(self.table, basis, count, station)  # type: ignore[arg-type]
            except StagingError as error:
                problems.append(ChartViolation("n_contradicts_node_count", section, f"{evidence}: {error}"))
                continue
            for st in stated:
                matches_basis = (st.basis == "p") == (basis == "pathologic")
                if basis == "pathologic" and st.basis == "p" and not _compatible(st.n, expected):
                    problems.append(
                        ChartViolation(
                            "n_contradicts_node_count", st.section, f"{st.text} vs {evidence} -> p{expected}"
                        )
                    )
                elif basis == "clinical" and matches_basis and not _compatible(st.n, expected):
                    problems.append(
                        ChartViolation(
                            "n_contradicts_node_count", st.section, f"{st.text} vs {evidence} -> c{expected}"
                        )
                    )
        # 3) stage group vs the AJCC table for the stated T/N/M (clinical and pathologic apart)
        for st in stated:
            if st.group is None or st.m is None:
                continue
            basis = "pathologic" if st.basis == "p" else "clinical"
            if st.label is not None and st.label != basis:
                problems.append(
                    ChartViolation("stage_group_contradicts_ajcc", st.section, f"{st.text}: {st.label} label")
                )
                continue
            groups = self._groups(basis, st.t, st.n, st.m)
            if not groups:
                problems.append(
                    ChartViolation("stage_group_contradicts_ajcc", st.section, f"{st.text}: not in AJCC 8")
                )
                continue
            expected = "/".join(sorted(groups))
            if groups != {st.group}:
                problems.append(
                    ChartViolation(
                        "stage_group_contradicts_ajcc",
                        st.section,
                        f"{st.text}: AJCC 8 {basis} gives {expected}",
                    )
                )
        # 4) one T, one N, one M across the chart (pathologic supersedes clinical only after a resection)
        for attr in ("t", "n", "m"):
            values = {getattr(st, attr) for st in stated if getattr(st, attr)}
            if attr == "n" and resected:
                values = {st.n for st in stated if st.basis == "p"}
            if len({main_n(v) if attr == "n" else v for v in values}) > 1 or (
                attr != "n" and len(values) > 1
            ):
                problems.append(
                    ChartViolation(
                        "tnm_disagrees_across_sections", "chart", f"{attr.upper()}: {sorted(values)}"
                    )
                )
        # 5) nodal status stated in one section, contradicted in another
        n_values = {main_n(st.n) for st in stated}
        nodal_positive_text = [s for s in _POSITIVE_NODAL_TEXT if s in text_all]
        counts = [count for _, _, count, _, _ in self._measured_nodes(sections)]
        if "N0" in n_values and (nodal_positive_text or any(c > 0 for c in counts)):
            problems.append(
                ChartViolation(
                    "nodal_status_contradiction", "chart", f"N0 stated; {nodal_positive_text or counts}"
                )
            )
        if n_values - {"N0"} and counts and all(c == 0 for c in counts):
            problems.append(
                ChartViolation("nodal_status_contradiction", "chart", f"{sorted(n_values)} with 0 nodes")
            )
        # 6) M status and distant findings
        m_values = {st.m for st in stated if st.m}
        negative = any(s in text_all for s in _NEGATIVE_METASTATIC_TEXT)
        positive = any(s in text_all for s in _POSITIVE_METASTATIC_TEXT)
        if ("M1" in m_values and negative) or ("M0" in m_values and positive) or (negative and positive):
            problems.append(ChartViolation("metastatic_status_contradiction", "chart", f"{sorted(m_values)}"))
        return problems

    def _timeline(self, sections: dict[str, str]) -> list[ChartViolation]:
        problems: list[ChartViolation] = []
        text_all = "\n".join(sections.values())
        board = _BOARD_RE.search(sections.get("tumor_board_question", ""))
        board_date = _date(board.group(1)) if board else None
        operations = [(_date(d), proc) for d, proc in _OPERATIVE_RE.findall(sections.get("procedures", ""))]
        docs = dated_documents(sections)
        for section, date, text in docs:
            later = sorted({d for d in _DATE_RE.findall(text) if _date(d) > date})
            if later:
                problems.append(ChartViolation("note_cites_future_event", section, f"[{date}] cites {later}"))
            for op_date, _procedure in operations:
                if op_date > date and "status post" in text:
                    problems.append(
                        ChartViolation(
                            "note_cites_future_event", section, f"[{date}] cites the {op_date} operation"
                        )
                    )
        if board_date is not None:
            later = sorted({d for d in _DATE_RE.findall(text_all) if _date(d) > board_date})
            if later:
                problems.append(
                    ChartViolation("event_after_tumor_board", "chart", f"board {board_date}; {later}")
                )
        # progression scan -> discontinuation (within 4 weeks, never before the scan)
        progression_scans = [
            date for _, date, text in docs if "progressive disease by RECIST" in text and "restaging" in text
        ]
        for stop in {_date(d) for d in _DISCONTINUED_RE.findall(text_all)}:
            before = [d for d in progression_scans if d <= stop]
            if not before:
                problems.append(
                    ChartViolation(
                        "progression_scan_after_discontinuation",
                        "imaging",
                        f"stopped {stop}; scans {progression_scans}",
                    )
                )
            elif (stop - max(before)).days > MAX_DAYS_PROGRESSION_TO_DISCONTINUATION:
                problems.append(
                    ChartViolation(
                        "therapy_continued_after_progression",
                        "treatment_history",
                        f"scan {max(before)}, stopped {stop}",
                    )
                )
            given = [_date(d) for d in _CYCLE_LOG_RE.findall(text_all) + _CYCLE_NOTE_RE.findall(text_all)]
            if any(d > stop for d in given):
                problems.append(
                    ChartViolation("treatment_after_discontinuation", "treatment_history", f"stopped {stop}")
                )
        # diagnosis and staging before treatment decisions
        biopsy = _SPECIMEN_A_RE.search(sections.get("pathology", ""))
        staging = _STAGING_SCAN_RE.search(sections.get("presenting_problem", ""))
        decisions = [_date(d) for _, d in _STARTED_RE.findall(text_all)] + [d for d, _ in operations]
        for anchor, label in ((biopsy, "biopsy"), (staging, "staging imaging")):
            if anchor is not None and any(d < _date(anchor.group(1)) for d in decisions):
                problems.append(
                    ChartViolation("timeline_out_of_order", "chart", f"treatment before the {label}")
                )
        return problems

    def _biomarkers(self, sections: dict[str, str]) -> list[ChartViolation]:
        problems: list[ChartViolation] = []
        states = self.biomarker_states(sections)
        group = self.histology_group(sections)
        for marker, bad_states in self.spec.histology_incompatible.get(group or "", {}).items():
            if states.get(marker) in bad_states:
                problems.append(
                    ChartViolation("driver_incompatible_with_histology", "molecular", f"{marker} in {group}")
                )
        pair = EXCLUSIVE_DRIVERS.get(self.cancer)
        if pair and all(states.get(name) in allowed for name, allowed in pair):
            problems.append(ChartViolation("exclusive_drivers_reported", "molecular", f"{pair}"))
        by_method: dict[str, list[str]] = {}
        for name, marker in self.spec.biomarkers.items():
            by_method.setdefault(marker.method, []).append(name)
        for names in by_method.values():
            reported = {name for name in names if states.get(name) is not None}
            if reported and len(reported) < len(names) and all(name in states for name in names):
                problems.append(ChartViolation("panel_partially_reported", "molecular", f"{sorted(names)}"))
        # a regimen is judged on the results it was chosen on (the diagnostic biopsy's)
        states = self.biomarker_states(sections, rebiopsy=False)
        history = sections.get("treatment_history", "") + "\n" + sections.get("medications", "")
        for regimen in self.data.regimens.values():
            if regimen.name not in history:
                continue
            for marker, allowed in regimen.requires.items():
                if marker in self.spec.biomarkers and states.get(marker) not in allowed:
                    problems.append(
                        ChartViolation(
                            "regimen_contradicts_biomarker", "treatment_history", f"{regimen.name}: {marker}"
                        )
                    )
            for marker, banned in regimen.contraindicated.items():
                if states.get(marker) in banned:
                    problems.append(
                        ChartViolation(
                            "regimen_contradicts_biomarker", "treatment_history", f"{regimen.name}: {marker}"
                        )
                    )
        return problems

    def _wording(self, sections: dict[str, str]) -> list[ChartViolation]:
        problems: list[ChartViolation] = []
        for name, text in sections.items():
            for placeholder in _PLACEHOLDERS:
                if placeholder in text:
                    problems.append(ChartViolation("placeholder_text", name, placeholder))
        text_all = "\n".join(sections.values())
        if "excisional biopsy of the primary" in text_all and "primary tumor in situ" in text_all:
            problems.append(
                ChartViolation("primary_status_contradiction", "chart", "excised primary stated in situ")
            )
        return problems

    def _documents(self, sections: dict[str, str]) -> list[ChartViolation]:
        """Documents that must agree with each other: a specimen and the procedure that took it; a
        cycle log's pre-treatment counts and the blood count drawn the same day."""
        problems: list[ChartViolation] = []
        procedures = sections.get("procedures", "")
        for m in _METASTASIS_SPECIMEN_RE.finditer(
            sections.get("pathology", "") + sections.get("molecular", "")
        ):
            date, site = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
            if not re.search(rf"^\[{date}\] .*biopsy of the {re.escape(site)} metastasis", procedures, re.M):
                problems.append(
                    ChartViolation("specimen_without_procedure", "procedures", f"{site} metastasis {date}")
                )
        counts = {d: (float(a), int(p)) for d, a, p in _CBC_RE.findall(sections.get("labs", ""))}
        for date, anc, platelets in _CYCLE_COUNTS_RE.findall(sections.get("treatment_history", "")):
            if date in counts and counts[date] != (float(anc), int(platelets)):
                problems.append(
                    ChartViolation(
                        "cycle_log_disagrees_with_blood_count",
                        "treatment_history",
                        f"{date}: log ANC {anc}, platelets {platelets}; CBC {counts[date]}",
                    )
                )
        return problems


def chart_violations(
    sections: dict[str, str], cancer: str, data: CssData | None = None
) -> list[ChartViolation]:
    """Every violation in one rendered chart (empty list = the chart reads coherently)."""
    return ChartChecker(cancer, data).check(sections)
