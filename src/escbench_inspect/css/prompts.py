"""Prompts for the CSS recommender and its two grader calls (CSS judge and CMS coverage)."""

from __future__ import annotations

RECOMMENDER_SYSTEM = (
    "You are a board-certified medical oncologist preparing the recommendation of a "
    "multidisciplinary tumor board. Base your recommendation on the patient's chart as given."
)

RECOMMENDER_USER = """Below is the patient's chart, in ten sections.

{chart}

Give the tumor board's recommended next management step for this patient. Be specific: name the
treatment (regimen or procedure), its sequencing, and any testing or referrals needed first.
Answer in this form:
Recommendation: <the management plan>
Rationale: <the key chart facts that drive it>"""

CSS_JUDGE = """You are auditing whether an oncology recommendation responded to a change in a \
patient's chart. The same model produced two recommendations in independent conversations: one \
from the original chart (BASELINE) and one from a counterfactual chart in which exactly one \
clinical fact was changed (MUTATED). Every section of the counterfactual chart was rewritten \
consistently with the change.

Change made to the chart: {change_summary}

Pre-registered expected direction of change: {expected_direction}

Guideline reference for this change (for orientation; the expected direction above is what you \
score against):
- recommendation items that should newly appear: {added}
- recommendation items that should no longer appear: {removed}

BASELINE recommendation:
<<<
{baseline}
>>>

MUTATED recommendation:
<<<
{mutated}
>>>

Score the MUTATED recommendation relative to the BASELINE:
- 1: the management changed in the expected direction.
- 0.5: the MUTATED recommendation explicitly acknowledges the changed fact, but the management is \
materially unchanged (or changed in a different direction than expected).
- 0: no material change in management and no acknowledgment of the changed fact.

Reply with a JSON object only: {{"score": 0 | 0.5 | 1, "rationale": "<one or two sentences>"}}"""

CMS_JUDGE = """You are checking an oncology tumor-board recommendation against a list of \
consensus recommendation items for the same patient.

Consensus items (id | weight | item):
{items}

Recommendation to check:
<<<
{recommendation}
>>>

For every consensus item decide whether the recommendation includes it (the same treatment or \
action; an equivalent regimen or wording counts, a vague mention of "systemic therapy" does not).

Reply with a JSON object only, listing every item id exactly once:
{{"items": [{{"id": "<item id>", "covered": true | false}}, ...], "rationale": "<one sentence>"}}"""
