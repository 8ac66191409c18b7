"""Causal Sensitivity Score (CSS): counterfactual tumor-board cases, paired recommendations, judge.

Layout: ``schema`` (typed case + data-file models), ``data`` (validated loading of the YAML files in
``data/``), ``rules`` (condition grammar), ``generator`` (seeded case corpus), ``render`` (ten chart
sections), ``consensus`` (guideline-style reference items), ``catalog`` (pre-registered
interventions), ``coherence`` (validator), ``dataset`` (tuples, audit API, Inspect dataset),
``solver`` / ``scorer`` / ``task`` (Inspect pieces), ``agreement`` and ``cli`` (replication).
"""

from __future__ import annotations

SECTION_NAMES: tuple[str, ...] = (
    "history",
    "presenting_problem",
    "pathology",
    "molecular",
    "imaging",
    "procedures",
    "treatment_history",
    "medications",
    "labs",
    "tumor_board_question",
)
"""The ten chart sections, in chart order (the ``read_chart_section`` tool's vocabulary)."""

SECTION_TITLES: dict[str, str] = {
    "history": "History (past medical, social and family history; prior clinic notes)",
    "presenting_problem": "Presenting problem and oncology clinic notes",
    "pathology": "Pathology",
    "molecular": "Molecular and biomarker results",
    "imaging": "Imaging",
    "procedures": "Procedures and surgery",
    "treatment_history": "Oncologic treatment history",
    "medications": "Medications and allergies",
    "labs": "Laboratory results",
    "tumor_board_question": "Tumor-board question",
}

__all__ = ["SECTION_NAMES", "SECTION_TITLES"]
