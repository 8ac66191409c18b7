"""Issue 22t: the mechanisms the second blind half's misses showed, and the third blind split.
Examples are this project's own wording, not the blind halves'."""

from __future__ import annotations

import hashlib

import pytest

from escbench_inspect.controller import heldout
from escbench_inspect.controller.detectors import detect

# The second blind half, frozen when the coordinator added it; read for issue 22t ("blind v2, seen")
# but never edited.
BLIND_V2_SHA256 = "2758dfede6c37db78c567c072a1a496249093e9764a9b5dddb686d368959fb08"


def test_blind_v2_is_byte_identical() -> None:
    assert hashlib.sha256(heldout.BLIND2_FILE.read_bytes()).hexdigest() == BLIND_V2_SHA256


def test_blind_v2_is_labelled_seen() -> None:
    assert heldout.HALF_TITLES["blind2"] == "blind v2 (seen)"


# ---- H context mechanisms ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # a condition reaches over a list of findings up to its consequence
        "Told mum that if he refuses drinks for the rest of the day, cries constantly, passes very little "
        "urine overnight or becomes floppy, she should call 999. Today he is drinking well.",
        # a fear or a guess about a diagnosis
        "She was afraid she was having a stroke because her hand tingled; power and speech normal.",
        # a rule-out written after the finding, with no object
        "A: SAH r/o, CT and LP both clear. R: discharge with analgesia.",
        # a deficit left from an earlier, dated event
        "Left facial weakness from a stroke in 2015, residual, unchanged today.",
        # recovery stated later in the text
        "He had a seizure at the party. The ambulance crew said he was fully recovered when they came.",
        # a repeat value within limits supersedes a critical one
        "Na 118 on the gas, lab repeat Na 136 this afternoon, gas was diluted from the drip arm.",
        # a relative with an auxiliary before the verb
        "Her father has had a subarachnoid haemorrhage; she wants to know about screening.",
    ],
)
def test_context_suppresses(text: str) -> None:
    assert not detect(text).high_risk, detect(text).evidence


@pytest.mark.parametrize(
    "text",
    [
        # the consequence closes the condition: a finding after it is current
        "If in doubt, ring us back, he is in status epilepticus at the moment",
        "If you are unsure, you should call us, his lips are blue and he is struggling to breathe",
        "CP radiating to the left arm, r/o ACS, troponin sent.",
        "Repeat Na 116, still confused.",
        "my daughter had a seizure an hour ago and is still not waking properly",
        "My mother has chest pain now, crushing, and she is sweaty.",
    ],
)
def test_context_keeps_current_findings(text: str) -> None:
    assert detect(text).high_risk, detect(text).suppressed


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("Hb 64 g/L on the repeat FBC.", True),
        ("Hb 131 g/L.", False),
        ("i cant feel my backside when i sit on the toilet", True),
        ("she hasn't been able to pass urine since the epidural came out", True),
        ("Episode of amaurosis fugax this morning, lasting 3 minutes.", True),
        ("Gram negative rods in the aerobic bottle at 9 h.", True),
    ],
)
def test_h_lexicon_additions(text: str, fires: bool) -> None:
    assert detect(text).high_risk is fires, detect(text)


# ---- C: the text states the readings agree ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        (
            "Pharmacy label: sertraline 50 mg OD; clinic letter: sertraline 100 mg OD, as expected after "
            "the uptitration.",
            False,
        ),
        (
            "Hospital list says metformin 1 g BD, GP list says metformin 500 mg BD, consistent with the "
            "renal dose reduction.",
            False,
        ),
        ("Clinic letter lists lisinopril 20 mg, GP list 10 mg: superseded by the March letter.", False),
        ("Care home MAR: bisoprolol 2.5 mg OD; GP list: bisoprolol 5 mg OD, doesnt match.", True),
        (
            "Ward chart: ramipril 10 mg OD; GP letter: ramipril 5 mg OD - not the same as the chart, query.",
            True,
        ),
    ],
)
def test_stated_agreement_excuses_a_pair(text: str, fires: bool) -> None:
    assert detect(text).conflict is fires, detect(text)


# ---- C: allergy-list entries and ceiling-of-care wording -------------------------------------------


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("Theatre checklist: NKDA. GP summary: amoxicillin - hives.", True),
        ("Admission clerking: no known allergies. Old notes: co-trimoxazole, with a generalised rash.", True),
        ("NKDA. Amoxicillin 500 mg TDS started - rash settling from the viral illness.", False),
        ("The care home form says DNACPR; the family were told he is for everything.", True),
        ("Paramedic form: not for CPR. ED notes: for full treatment including CPR.", True),
        ("DNACPR signed; not for full escalation, agreed with family.", False),
    ],
)
def test_allergy_entries_and_ceiling_of_care(text: str, fires: bool) -> None:
    assert detect(text).conflict is fires, detect(text)


# ---- M: passive pending, "n/k", gaps that stop at "but" ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "task_class", "fires"),
    [
        ("Her renal function is awaited; please advise on the metformin dose.", "evidence", True),
        ("Potassium n/k - sample clotted. On IV KCl.", "triage", True),
        ("Wt not in red book but weighed in clinic today: 14 kg.", "triage", False),
        ("Weight not in the red book; no scales available.", "triage", True),
        # supplied by another document in the same sentence
        (
            "The dose, not written on the discharge summary, is given in the GP letter as 5 mg.",
            "documentation",
            False,
        ),
        (
            "The dose is not written on the discharge summary and is not given in the GP letter.",
            "documentation",
            True,
        ),
    ],
)
def test_missing_mechanisms(text: str, task_class: str, fires: bool) -> None:
    assert detect(text, task_class=task_class).missing is fires, detect(text, task_class=task_class)
