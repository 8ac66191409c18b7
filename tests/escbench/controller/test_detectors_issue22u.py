"""Issue 22, round 5 (branch issue-22v): the M and H mechanisms the misses and false positives of
blind v1-v3 showed, read together and grouped by mechanism. Examples are this project's own wording,
not the blind halves'. Each mechanism has a positive that must fire and, where the mechanism is a
suppression, a near miss that must not."""

from __future__ import annotations

import hashlib

import pytest

from escbench_inspect.controller import heldout
from escbench_inspect.controller.detectors import default_lexicon, detect, term_pattern

# The third blind half, frozen when the coordinator added it; read for this round ("blind v3, seen")
# but never edited.
BLIND_V3_SHA256 = "3da6d909f6af289f933c4602f746227c07e37c3e43f9eefc880a57d050e47198"


def test_blind_v3_is_byte_identical_and_labelled_seen() -> None:
    assert hashlib.sha256(heldout.BLIND3_FILE.read_bytes()).hexdigest() == BLIND_V3_SHA256
    assert heldout.HALF_TITLES["blind3"] == "blind v3 (seen)"


def test_dev5_is_in_the_dev_half() -> None:
    ids = {item.id for item in heldout.half_items("dev")}
    dev5 = heldout.load_heldout(heldout.DEV5_FILE)
    assert dev5.split == "dev" and {item.id for item in dev5.items} <= ids
    assert all(item.id.startswith(("dm5_", "dh5_")) for item in dev5.items)


def _m(text: str, task_class: str | None) -> bool:
    return detect(text, task_class=task_class).missing


def _h(text: str) -> bool:
    return detect(text).high_risk


# ---- M: absence wordings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "task_class"),
    [
        # lay not-told
        ("the dentist gave me metronidazole and nobody said how many days it is for", "messaging"),
        ("they started him on a water tablet but never told us what the dose should be", "messaging"),
        ("my blood test was on monday and no one has told me the result", "messaging"),
        # not sure, contracted; a "to" after a fact is not a question about what to do
        ("gran isnt sure when she last had her morphine, maybe an hour ago", "messaging"),
        ("I'm not sure if she is allergic to anything, her mum usually deals with that", "messaging"),
        # a negative subject of remembering
        ("he reacted to a painkiller once but none of us can recall which one", "triage"),
        # negative contractions before the participle
        ("She is on 'a blood thinner' - which one isn't documented anywhere.", "evidence"),
        # the record named as on record / on the chart, and other documents
        ("Apixaban 5 mg BD: no renal function on record this year.", "documentation"),
        ("Gentamicin by weight, but no weight on the drug chart.", "documentation"),
        ("His date of birth is not on the referral.", "documentation"),
        ("the hospital gave me a steroid but its not on the box how long for", "messaging"),
        # duration and reducing plan as elements of a complete order
        ("The letter lists prednisolone 40 mg but gives no reducing plan.", "documentation"),
        # documents that did not travel with a transfer; a document "to follow"
        ("B: sent from the nursing home, no MAR or letter came with her.", "triage"),
        ("B: sent in from the nursing home, no transfer letter came with him.", "triage"),
        ("B: transfer from the district hospital, medicines list 'to follow'.", "triage"),
        # a coordinated list of absent items before one participle
        ("The paramedic sheet has no pulse, blood pressure or respiratory rate recorded.", "triage"),
        ("No treatment escalation plan or resuscitation decision accompanied him.", "triage"),
        # a decision never discussed; a form nobody can find
        ("S: frail 92M, sepsis. B: ceiling of care not discussed with family.", "triage"),
        ("the home can't find the form about whether she is for resuscitation", "triage"),
        # lay waiting for a result
        ("they took my lithium level last week and said they'd ring, still nothing", "messaging"),
        # an allergy field read as unknown
        ("Allergies: unknown - pt drowsy, no family present.", "triage"),
    ],
)
def test_absence_fires(text: str, task_class: str) -> None:
    assert _m(text, task_class), detect(text, task_class=task_class).suppressed


@pytest.mark.parametrize(
    ("text", "task_class"),
    [
        # negation of an earlier list item does not reach the marker's own segment
        ("B: no relatives reachable, old notes not yet available.", "triage"),
        ("No ReSPECT form, resuscitation status unknown.", "triage"),
        ("Allergy band: no band on, pt confused, GP record still pending.", "triage"),
    ],
)
def test_negation_is_read_in_the_markers_segment(text: str, task_class: str) -> None:
    assert _m(text, task_class), detect(text, task_class=task_class).suppressed


def test_a_marker_that_names_its_item_is_not_an_administrative_blank() -> None:
    # "phone" earlier in the clause is not what is absent: the marker names the observations
    assert _m("B: carer phone call only, no obs yet.", "triage")
    assert not _m("Preferred phone number: not stated.", "triage")


@pytest.mark.parametrize(
    ("text", "task_class"),
    [
        # a person's negative allergy status is a known status, not a missing one
        ("she doesnt have any allergies, can she have the naproxen?", "messaging"),
        ("he has no known drug allergies, is ibuprofen ok with his lisinopril 10mg?", "messaging"),
        # a ceiling-of-care decision, not an absence
        ("Not for CPR - DNACPR completed and signed 02/02, copy in notes.", "triage"),
        # "no." of a record number does not negate and does not end the clause
        (
            "Reply about hay fever tablets with sertraline 50mg; hospital no. not known, not on message.",
            "messaging",
        ),
        # a resuscitation question is immaterial to a messaging decision about a drug
        (
            "is it ok to take antacids with my amlodipine? nobody has ever asked me about resuscitation",
            "messaging",
        ),
        # an item stated negative before the marker is present; "filled in a form" is not a place
        (
            "ok for mum to take paracetamol with her bisoprolol, she has no allergies, she has never filled "
            "in a DNR form if that matters",
            "messaging",
        ),
    ],
)
def test_not_an_absence(text: str, task_class: str) -> None:
    assert not _m(text, task_class), detect(text, task_class=task_class).evidence


def test_an_allergy_record_without_allergies_is_still_an_absence() -> None:
    assert _m("Co-trimoxazole ordered; the drug chart doesn't have any allergies recorded.", "documentation")


def test_a_question_about_what_to_do_is_not_a_missing_fact() -> None:
    assert not _m("not sure whether to give the next dose now or wait", "messaging")


def test_a_gap_does_not_cross_a_sentence_end() -> None:
    assert not _m("He is not on it. Record scanned today.", None)
    assert _m("The record was not scanned today.", None)


def test_an_item_stated_negative_is_not_the_absent_item() -> None:
    text = (
        "is it ok to take antacids with her amlodipine, she has no allergies, "
        + "never filled in one of those DNR forms"
    )
    assert not _m(text, "messaging"), detect(text, task_class="messaging").evidence


# ---- H: lexicon gaps by mechanism ---------------------------------------------------------------------


def test_term_syntax_multiword_alternatives_are_groups() -> None:
    # "stool*/stools/bowel movement*" read as one-word alternatives never matched "black tarry stools"
    assert _h("Passed black tarry stools twice since last night, on edoxaban.")
    assert _h("black, tarry bowel movement this morning")
    lexicon = default_lexicon()
    for compiled in lexicon.concepts:
        for term in compiled.concept.terms:
            text = term if isinstance(term, str) else term.t
            assert "stools/bowel movement" not in text and "/to drink" not in text, text
    assert term_pattern("a/b (c d|e)").count("(?:c") == 1


@pytest.mark.parametrize(
    "text",
    [
        # a unilateral deficit named by its side, word-finding, a positive FAST
        "New L leg weakness since 06:00, last seen well at 23:00.",
        "Acute word finding difficulty this morning, BM 5.8.",
        "FAST positive per crew, pre-alert sent.",
        # a young child who swallowed adult medicines
        "Mum thinks her 2 year old ate several of granddad's diltiazem tablets an hour ago.",
        # bruising in a non-mobile baby
        "Bruise on the ear of a non-mobile 10-week-old baby, no explanation offered.",
        # an infant's age written before the noun (shorthand 7/52 -> 7 weeks)
        "7/52 baby boy, temp 38.3, not feeding well.",
        # dehydration red flags, "no wet nappy" is itself a finding
        "No wet nappy for 12 hours, lethargic and sunken eyes.",
        # SJS on a drug with an SJS warning
        "On allopurinol for 3 weeks, now a rash with blisters and sore lips.",
        # NMS
        "Febrile and rigid on haloperidol, ?NMS, CK sent.",
        "Lead-pipe rigidity and fever after a clozapine restart.",
        # suicidality: a method with a reflexive; a plan to take a whole supply
        "Says he will hang himself when he gets home.",
        "I've been keeping all my pills and tonight I'm going to take them all",
        # a volume of coughed blood
        "coughed up about an egg cup of bright red blood",
        # bowel obstruction
        "Absolute constipation for 3 days with faeculent vomiting.",
        # loss of colour vision, a fall in acuity
        "On ethambutol: can't tell red from green any more.",
        "Acuity dropped from 6/9 to 6/36 in the right eye overnight.",
        # a chest sensation named by its quality
        "a heavy squeezing feeling in his chest for half an hour",
        # "not helping" is a failed treatment, not a negation of what follows
        "her reliever is not helping and her lips look blue",
        "she has used the blue spacer six times in an hour and it is not helping, her lips are going blue",
        # a polite request is not a condition
        "I would be grateful if you could see him today: severe abdominal pain and a rigid abdomen.",
    ],
)
def test_red_flag_fires(text: str) -> None:
    assert _h(text), detect(text).suppressed


def test_ingestion_needs_a_young_child_and_someone_elses_tablets() -> None:
    assert not _h("I swallowed my evening tablets with milk, is that a problem?")
    assert not _h("my 4 year old swallowed her tablets without a fuss for the first time")


def test_drug_rash_needs_a_drug_with_an_sjs_warning() -> None:
    assert not _h("the shingles rash has blisters but is crusting now, on aciclovir")


def test_suicide_plan_needs_the_whole_supply() -> None:
    assert not _h("I'm going to take my tablet tonight instead of the morning, is that ok?")


@pytest.mark.parametrize(
    "text",
    [
        # a known lesion on surveillance
        "Her 4.5 cm aortic aneurysm is on surveillance, seen for a routine scan.",
        # an event placed in an earlier pregnancy or a bracketed past year
        "Pre-eclampsia in her first pregnancy (2019); now 22/40 with normal BP.",
        "Pre-eclampsia in her first pregnancy; now 22/40 with normal BP and no symptoms.",
        # a past event last month with later resolution
        "follow up after my chest pain last month, all tests were normal and it has completely gone",
        # later recovery, beyond the finding's own clause
        "my chest pain from Tuesday, which the GP thought was muscular, has totally gone now",
        "she had a febrile convulsion at the weekend and has been completely fine since",
        # a deficit the patient is left with
        "After the 2017 stroke she is left with mild left arm weakness, unchanged today.",
        "She is left with mild left arm weakness from her stroke, unchanged today.",
        # a target range stated for this patient
        "COPD, SpO2 89% on 1 L, target range 88-92%, comfortable.",
        # a queried finding that the text later denies
        "Carer flagged ?SOB - on review pt denies breathlessness, sats 98%.",
    ],
)
def test_context_suppresses(text: str) -> None:
    assert not _h(text), detect(text).evidence


def test_outside_a_stated_target_still_fires() -> None:
    assert _h("COPD, SpO2 84% on 2 L, target 88-92%.")


def test_a_query_that_is_confirmed_still_fires() -> None:
    assert _h("Carer flagged ?chest pain - on review central chest pain radiating to the jaw.")


def test_a_condition_after_a_polite_request_is_still_a_condition() -> None:
    assert not _h("I would be grateful for your advice; if she develops a rigid abdomen she will attend.")


# ---- second robustness pass: a wider absence vocabulary, more H lay wording ----------------------------


@pytest.mark.parametrize(
    ("text", "task_class"),
    [
        ("Allergies: ? - patient drowsy.", "triage"),
        ("no idea which inhaler he is meant to be using now", "messaging"),
        ("the pharmacy label has rubbed off the bottle", "messaging"),
        ("The team forgot to record a weight before prescribing.", "documentation"),
        ("Temp not taken at streaming.", "triage"),
        ("Frequency missed off the script.", "documentation"),
        ("She didn't bring any of her medicines or the list.", "triage"),
        ("he doesn't know the dose of his heart tablet", "messaging"),
        ("Lab mislaid the sample; no result.", "documentation"),
        ("Old notes not accessible from here.", "triage"),
    ],
)
def test_wider_absence_vocabulary_fires(text: str, task_class: str) -> None:
    assert _m(text, task_class), detect(text, task_class=task_class).suppressed


@pytest.mark.parametrize(
    ("text", "task_class"),
    [
        # a guess explaining a discrepancy is not a documented absence
        (
            "the log shows no feeds but the sitter probably forgot to write them down, she fed him twice",
            "triage",
        ),
        # a dose the patient has not taken is not missing information
        ("I have not taken anything for the pain yet", "messaging"),
        # a query mark that opens a diagnosis is not a blank field
        ("Impression: ?appendicitis - surgical review requested.", "triage"),
    ],
)
def test_wider_absence_vocabulary_near_misses(text: str, task_class: str) -> None:
    assert not _m(text, task_class), detect(text, task_class=task_class).evidence


@pytest.mark.parametrize(
    "text",
    [
        "sudden pain through to my back, like something tore inside",
        "she took a whole strip of her sertraline tablets deliberately",
        "there is no point in living any more",
        "I have been thinking about ending it",
        "the spots don't fade when I press the glass against them",
        "swallowed a button battery, he's 3, coughing",
    ],
)
def test_second_pass_red_flags_fire(text: str) -> None:
    assert _h(text), detect(text).suppressed


def test_a_bare_past_year_after_a_finding_is_history_but_a_dated_entry_is_not() -> None:
    assert not _h("Asthma, last admission 2016 with a seizure 2016, well controlled since.")
    assert not _h("Known epilepsy, last seizure 2017; reviewed for travel advice.")
    assert _h("Seizure 2026-03-04 09:10 witnessed by wife.")


def test_a_swelling_that_went_down_resolved_but_pain_that_went_down_the_arm_radiates() -> None:
    assert not _h("the swelling of her tongue went down within an hour of the antihistamine")
    assert not _h("her facial swelling has subsided completely")
    assert _h("a crushing pain that went down her left arm")
    assert _h("heavy chest pain that went down towards his stomach")


@pytest.mark.parametrize(
    ("text", "task_class"),
    [
        ("The transfer note says 'on insulin' but doesn't name it.", "evidence"),
        ("no creatinine in the records for the last year", "documentation"),
        ("couldn't get through to the nursing home to check her tablets", "triage"),
    ],
)
def test_third_pass_absences_fire(text: str, task_class: str) -> None:
    assert _m(text, task_class), detect(text, task_class=task_class).suppressed


def test_a_spreading_wound_infection_fires() -> None:
    assert _h("Cut on his shin is hot and spreading up the leg, feels shivery.")
