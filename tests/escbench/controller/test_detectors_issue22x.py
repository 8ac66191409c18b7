"""Issue 22x (M and H, round 6): the mechanisms the fourth blind half's M and H misses showed, read on this
project's own wording (``detector_heldout_dev7.yaml``), and the pieces behind them."""

from __future__ import annotations

import pytest

from escbench_inspect.controller import heldout
from escbench_inspect.controller.detectors import default_lexicon, detect, expand_shorthand

DEV7 = heldout.load_heldout(heldout.DEV7_FILE).items


@pytest.mark.parametrize("item", DEV7, ids=[i.id for i in DEV7])
def test_dev7_item_reads_as_labelled(item: heldout.HeldoutItem) -> None:
    detection = detect(item.text, task_class=item.task_class)
    fired = getattr(detection, item.detector)
    assert fired == (item.label == "positive"), (detection.evidence, detection.suppressed)


def test_dev7_is_m_and_h_with_a_near_miss_for_each() -> None:
    assert {i.detector for i in DEV7} == {"missing", "high_risk"}
    for detector in ("missing", "high_risk"):
        labels = {i.label for i in DEV7 if i.detector == detector}
        assert labels == {"positive", "near_miss"}


def test_dev7_is_in_the_development_half() -> None:
    dev_ids = {i.id for i in heldout.half_items("dev")}
    assert {i.id for i in DEV7} <= dev_ids


@pytest.mark.parametrize(
    ("text", "expansion"),
    [("unable to PU since 0400", "unable to pass urine"), ("RIF pain x1d", "right iliac fossa pain")],
)
def test_nursing_shorthand_expands(text: str, expansion: str) -> None:
    assert expansion in expand_shorthand(text, default_lexicon().shorthand).text


@pytest.mark.parametrize(
    "text",
    [
        "her face has dropped on one side",
        "his right arm is weak since 0900",
        "his words are coming out all wrong",
        "Concern for Guillain–Barré syndrome.",
        "rapidly ascending weakness of both legs",
        "now numb in the saddle area",
        "both his legs feel heavy today",
        "guarding and rebound in the RIF",
        "vomited fresh red blood",
        "black sticky tar like poo since yesterday",
        "spitting fresh blood a week after tonsillectomy",
    ],
)
def test_lay_and_shorthand_red_flags_fire(text: str) -> None:
    assert detect(text).high_risk


def test_saddle_term_does_not_cross_a_comma() -> None:
    text = "LBP shooting down the L leg with numbness over the calf, saddle sensation intact, PU normally."
    assert not detect(text).high_risk


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("32/40, vaginal bleed since 0600.", True),
        ("32+4/40, vaginal bleed since 0600.", True),
        ("BP 130/40, vaginal bleed since 0600.", False),  # a diastolic of 40 is not a gestation
        ("vaginal bleed since 0600.", False),
    ],
)
def test_gestation_in_weeks_over_forty_is_pregnancy_context(text: str, fires: bool) -> None:
    assert detect(text).high_risk is fires


def test_presenting_complaint_duration_is_not_past_history() -> None:
    assert detect("A three-week history of new jaw claudication.").high_risk
    assert not detect("History of jaw claudication, on prednisolone for GCA.").high_risk


def test_dated_past_admission_is_history() -> None:
    assert not detect("During her 2017 admission she had haematemesis; seen today for a rash.").high_risk
    assert detect("Today she had haematemesis twice.").high_risk


def test_todays_value_supersedes_an_earlier_critical_one() -> None:
    assert not detect("Sodium fell to 118 mmol/L in March; sodium today is 137 mmol/L.").high_risk
    assert detect("Sodium 118 mmol/L; sodium today is 119 mmol/L.").high_risk


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("If you are not sure of her weight, please bring her to be weighed.", False),
        ("Teaching point: if allergy status unknown, ask the patient first.", False),
        ("Review if NEWS rises - allergy status unknown.", True),  # the dash ends the condition
        ("Allergy status unknown, please check before prescribing.", True),
    ],
)
def test_absence_inside_an_open_condition_is_a_rule(text: str, fires: bool) -> None:
    assert detect(text, task_class="triage").missing is fires


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("hs-TnT 8 ng/L (cut-off 14), resulted.", False),
        ("The cut off is 500 ng/mL.", False),
        ("Fax cut off after page 1.", True),
    ],
)
def test_assay_cut_off_is_not_a_truncation(text: str, fires: bool) -> None:
    assert detect(text).missing is fires


def test_recent_result_unavailable_and_records_not_arrived_fire() -> None:
    assert detect("no recent digoxin level or potassium result is available", task_class="evidence").missing
    assert detect("The referral notes have not arrived yet.", task_class="evidence").missing


def test_a_lay_question_is_not_a_normal_finding() -> None:
    assert detect("heavy bleeding after the operation, is that normal?").high_risk
    assert not detect("heavy bleeding after the operation, clotting normal, bleeding settled.").high_risk
