"""Issue 22z rounds 12 and 13 (conflict): the mechanisms the twelfth and thirteenth blind halves' misses
showed, read on this project's own wording (``detector_heldout_dev12.yaml``, ``detector_heldout_dev13.yaml``,
whose items are read one by one with the other C development items in
``test_detectors_issue22u_conflict.py``). Each mechanism is then taken out -- a module pattern replaced, or
one lexicon entry deleted from a copy of the lexicon -- and its item must flip."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import regex
from mechanism_helpers import NEVER, lexicon_entry_test

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import (
    LEXICON_DIR,
    Lexicon,
    attribute_conflicts,
    default_lexicon,
    detect,
)

DEV12 = {
    i.id: i for path in (heldout.DEV12_FILE, heldout.DEV13_FILE) for i in heldout.load_heldout(path).items
}
# the change denial as it was before round 12: no negative auxiliary ("hasn't gained")
WITHOUT_AUXILIARY = regex.compile(r"\b(?:no|not|without|never)\b(?:\s+[\w-]+){0,3}\s*$")


# these mechanisms are tested as the detectors read before round 23's general status readings
pytestmark = pytest.mark.usefixtures(
    "before_round23_status",
    "before_round24_reaction",
    "before_round26_stem",
    "before_round30",
    "before_round34",
)


def fires(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """C's verdict on the item (the attribute pairs and the contradiction phrases)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    return detect(DEV12[item_id].text, lexicon).conflict


def fires_keyed(item_id: str, lexicon: Lexicon | None = None) -> bool:
    """A pair of one attribute's mentions, not only of the generic typed values (the fallback that
    would hide a lost mechanism)."""
    lexicon = lexicon or default_lexicon()
    lexicon.memo.clear()
    pairs = attribute_conflicts(DEV12[item_id].text, lexicon)
    return any(not m.attribute.startswith("typed_") for pair in pairs for m in pair)


UNPAIRED = {"dc12_plan_continue", "dc13_keeps_packing", "dc13_band_dash", "dc13_flag_yes", "dc13_field_no"}


def test_dev12_dev13_are_conflict_in_the_dev_half_with_every_kind() -> None:
    assert set(DEV12) <= {i.id for i in heldout.half_items("dev")}
    assert all(i.detector == "conflict" for i in DEV12.values())
    kinds = {i.kind for i in DEV12.values() if i.kind}
    assert {"agreement", "resolved", "dated_history", "documented_change"} <= kinds
    for item in DEV12.values():  # a positive has its near miss in the same words but the fact
        if item.label == "positive" and item.id not in UNPAIRED:
            assert f"{item.id}_n1" in DEV12, item.id


# (the positive item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc12_days_shorthand", "_RECENT", NEVER),
    ("dc12_weighed_at", "_WEIGHED_AT", NEVER),
    ("dc12_weighed_at", "_CHANGE_DENIED", WITHOUT_AUXILIARY),
    ("dc12_year_after_event", "_YEAR_AFTER", NEVER),
    ("dc12_source_date_entry", "_ENTRY_WORDS", 0),
    ("dc12_severity", "_REACTION_GRADES", (("mild", detectors._MILD_REACTION),)),  # no severe grade
    ("dc12_severity", "_REACTION_GRADES", (("severe", detectors._SEVERE_REACTION),)),  # no mild grade
    ("dc12_instead", "_INSTEAD_BEFORE", NEVER),
    ("dc12_continue_dose", "_REGIMEN_OBJECT", NEVER),
    ("dc12_plan_continue", "_CONTINUE_WORD", NEVER),
    ("dc12_signed_last_year", "_DOCUMENT_MADE", NEVER),
    ("dc12_dvt_vein", "_neighbours", lambda i, j, occupied, *_: abs(i - j) == 1),
    # round 13
    ("dc13_says_alone", "_SAYS_RIGHT_BEFORE", NEVER),
    ("dc13_scales", "_WEIGHED_AT", NEVER),
    ("dc13_scales", "_ASKED_BEFORE", NEVER),
    (
        "dc13_keeps_packing",
        "_resolve_implied",
        lambda mentions, historic=frozenset(), occupied=frozenset(), breaks=frozenset(): [
            m for m in mentions if m.key != detectors.IMPLIED
        ],
    ),
]


@pytest.mark.parametrize(
    ("item_id", "name", "replacement"), MODULE_MECHANISMS, ids=[f"{i}-{n}" for i, n, _ in MODULE_MECHANISMS]
)
def test_each_module_mechanism_carries_its_item(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    assert DEV12[item_id].label == "positive"
    assert fires(item_id)
    monkeypatch.setattr(detectors, name, replacement)
    assert not fires(item_id)


# (the near miss, the module name that keeps it quiet, what replaces it)
QUIETING = [
    ("dc12_lmp_next_cycle_n1", "_one_cycle_apart", lambda a, b: False),
    ("dc12_severity_dated_n1", "_two_reactions", lambda first, second: False),
]


@pytest.mark.parametrize(("item_id", "name", "replacement"), QUIETING, ids=[i for i, _, _ in QUIETING])
def test_each_quieting_mechanism_keeps_its_near_miss(
    item_id: str, name: str, replacement: object, monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    assert DEV12[item_id].label == "near_miss"
    assert not fires(item_id)
    monkeypatch.setattr(detectors, name, replacement)
    assert fires(item_id)


# (the item, the exact lexicon text deleted from a copy of attributes.yaml, what it is replaced by):
# with the entry gone the item must flip
LEXICON_ENTRIES = [
    ("dc12_not_reconciled", r"(?<!\\b(?:not|never|yet)\\s)", ""),
    ("dc12_both_report", "|describe|describes|described", ""),
    ("dc12_declines_cpr", r'"re:\\b(?:declines?|declined|refuses?|refused|', '"re:\\\\bzz(?:'),
    ("dc12_bisphosphonate", '"ibandronic acid", ibandronate,', ""),
    ("dc12_states_stopped", '"dispensed", "supplied",', '"dispensed",'),
    ("dc12_em_dash_allergy", '"none known", "nil known",', ""),
    ("dc12_sorted_n1", r"\\bsorted\\b(?<!\\b(?:nobody", r"\\bzzsorted\\b(?<!\\b(?:nobody"),
    ("dc12_error_corrected_n1", r'"re:\\bin\\s+error\\b[^.\\n]{0,30}?', r'"re:\\bzz\\b[^.\\n]{0,30}?'),
    ("dc12_predates_n1", r'"re:\\bpre-?dat(?:es|ed|e)\\b"', r'"re:\\bzz\\b"'),
    # round 13
    ("dc13_prescribed_on", r'"re:\\bprescribed(?=\\s+(?:on|in)\\b)",', ""),
    (
        "dc13_given_daily",
        r'"re:\\bgiven\\s+(?:daily|nightly|weekly|od|bd|tds|once|twice|each|every)\\b",',
        "",
    ),
    ("dc13_full_caps", r'"re:(?-i:\\bFULL\\b)(?=\\s+(?:per|on|in|from|according|as)\\b)",', ""),
    ("dc13_abo_ts", '"abo", "t&s",\n', '"zz",\n'),  # (round 32 added cues after it)
    ("dc13_abo_ts", '"calculator", "t&s",', '"calculator",'),
    ("dc13_td_ipv", '"td/ipv", "tdap", "dtap/ipv"', '"tdap"'),
    ("dc13_implanted", '"implanted", "implant date",', ""),
    (
        "dc13_reaction_with",
        "|angioedema|angiooedema|anaphylaxis|urticaria|bronchospasm) (all over)?",
        ") (all over)?",
    ),
    ("dc13_band_dash", r"band\\s*[-–—:]?", r"band\\s*[-–:]"),  # round 17 made the mark optional
    (
        "dc13_flag_yes",
        # (round 33 added a field and a box to the entry)
        "(?:status|flag|field|box)?(?:\\\\s+on\\\\s+\\\\w+)?\\\\s*(?:[:=?]|\\\\s-)\\\\s*(?:yes|",
        "(?:status)?\\\\s*[:=?]\\\\s*(?:yes|",
    ),
    # (round 20 added "preg" to the entry)
    (
        "dc13_home_test",
        r'"re:(?:\\+ve|\\bpositive|\\bpos)\\s+home\\s+(?:pregnancy\\s+|preg\\s+)?tests?\\b",',
        "",
    ),
    ("dc13_those_match_n1", r"(?:those|these|they|both|the\\s+two)\\s+", r"(?:zz)\\s+"),
    ("dc13_before_change_n1", r"\\bbefore\\s+(?:that|the|this)\\s+", r"\\bzz\\s+(?:that|the|this)\\s+"),
    (
        "dc13_rescheduled_n1",
        '"rescheduled/rebooked/re-booked/postponed", "brought forward",',
        '"rescheduled/rebooked/re-booked/postponed/brought forward",',
    ),
]


test_each_lexicon_entry_carries_its_item = lexicon_entry_test(
    DEV12,
    fires,
    [(i, "attributes.yaml", old, new) for i, old, new in LEXICON_ENTRIES],
    ids=[i for i, _, _ in LEXICON_ENTRIES],
)


def test_a_drug_level_in_its_unit(lexicon_without: Callable[[str, str, str], Lexicon]) -> None:
    """A gentamicin level in mg/L is an analyte's value (a keyed pair); without the unit entry only the
    generic typed-value reading is left to find it."""
    assert fires_keyed("dc12_level_entered")
    old = "  gentamicin_level: {mg/l: 1.0, µg/ml: 1.0, ug/ml: 1.0, mcg/ml: 1.0}\n"
    assert not fires_keyed("dc12_level_entered", lexicon_without("attributes.yaml", old, ""))
    assert not fires("dc12_level_entered_n1")


def test_a_list_entry_after_an_em_dash_with_a_comma(
    monkeypatch: pytest.MonkeyPatch, fresh_memo: None
) -> None:
    """ "practice list — ticagrelor 90 mg BD, active": the dash leads the entry, the comma ends its dose."""
    assert fires("dc13_entry_comma")
    before = r"\s*(?:[-–:]\s*)?(?:\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g|units?|ml)\b\s*)?"
    before += r"(?:(?:sc|iv|po|im|pr|sl|s/c|inh|neb)\s+)?"
    before += r"(?:(?:od|bd|bid|tds|tid|qds|qid|daily|nocte|mane|on|prn)\s+)?"
    before += r"(?:(?:last|still|regularly|monthly|weekly)\s+)?(?:[-–:]\s*)?"
    monkeypatch.setattr(detectors, "_DOSE_GAP", regex.compile(before, regex.IGNORECASE))
    assert not fires("dc13_entry_comma")


def test_a_source_that_lists_one_allergen_only(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    assert fires("dc13_only") and not fires("dc13_only_n1")
    monkeypatch.setattr(detectors, "_ONLY_AFTER", NEVER)
    assert not fires("dc13_only")


def test_em_dash_allergy_entry(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    """The em dash is one separator of an allergy-list entry ("amoxicillin — urticaria")."""
    text = DEV12["dc12_em_dash_allergy"].text
    assert fires("dc12_em_dash_allergy")
    default_lexicon().memo.clear()
    assert not attribute_conflicts(text.replace("—", "and then"), default_lexicon())


def test_full_code_includes_intubation() -> None:
    """ "Full code" meets a DNI elsewhere; two full codes do not conflict."""
    pairs = attribute_conflicts(DEV12["dc12_full_code_dni"].text, default_lexicon())
    assert {m.attribute for pair in pairs for m in pair} == {"intubation_status"}
    assert not fires("dc12_full_code_dni_n1")


@pytest.mark.parametrize(
    ("text", "fired"),
    [
        ("Pt tells triage she is pregnant; ED urine hCG 0915 NEG.", True),
        ("Pt tells triage she is not pregnant; ED urine hCG 0915 NEG.", False),
        ("K+ on the gas 4.0 mmol/L; our K+ at 0640 is 6.1 mmol/L on the lab sample.", True),
    ],
)
def test_a_clock_time_between_test_and_result(text: str, fired: bool) -> None:
    default_lexicon().memo.clear()
    assert bool(attribute_conflicts(text, default_lexicon())) is fired


@pytest.mark.parametrize(
    "text",
    [
        "pain 10/10 per pt",  # a score, not a date
        "Pt says 1/2 tab at night, label says 1/4 tab.",  # fractions
        "baby is 10/12 old per mum",  # an age in months
        "GCS 14/15 on arrival",  # a score of fifteen
        "BP 120/80, repeat 118/76",  # a blood pressure
    ],
)
def test_a_day_and_month_is_not_a_score_a_fraction_an_age_or_a_pressure(text: str) -> None:
    assert not any(m.group("dd") for m in detectors._DATE_COARSE.finditer(text))


def _plain_terms(node: object) -> Iterator[str]:
    """Every plain (not ``re:``) lexicon term in a parsed YAML tree: strings and ``{t: …}`` entries."""
    if isinstance(node, str):
        if not node.startswith("re:"):
            yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            if key in ("t", "terms", "names") or not isinstance(value, str):
                yield from _plain_terms(value)
    elif isinstance(node, list):
        for value in node:
            yield from _plain_terms(value)


def _repeats_a_neighbour(term: str) -> bool:
    """A slash alternates single words, so "blood thinner/blood thinners" reads "blood blood thinners"
    and "x ray/xray" reads "x xray": an alternative that repeats the word before it (or ends with
    the word after it, "crossmatch/cross match") is a phrase alternation written as a word one."""
    tokens = term.lower().split()
    for k, token in enumerate(tokens):
        if "/" not in token or token.startswith("("):
            continue
        for alternative in token.split("/"):
            if k > 0 and alternative.startswith(tokens[k - 1].rstrip("?")):
                return True
            if k + 1 < len(tokens) and alternative.endswith(tokens[k + 1]):
                return True
    return False


def test_no_slash_alternative_repeats_its_neighbour() -> None:
    """Round 12 found ten such terms ("self-harm" and "headache … worse" never matched, "wristband" was no
    needed-item word); none may come back. (A last slot read as a phrase, "rescheduled/…/brought
    forward", is not of this shape: it was found by reading, and fixed.)"""
    import yaml

    offenders = [
        f"{path.name}: {term}"
        for path in sorted(LEXICON_DIR.glob("*.yaml"))
        for term in _plain_terms(yaml.safe_load(path.read_text(encoding="utf-8")))
        if _repeats_a_neighbour(term)
    ]
    assert offenders == []


@pytest.mark.parametrize(
    ("term", "bad"),
    [("blood thinner/blood thinners", True), ("x ray/xray", True), ("crossmatch/cross match", True),
     ("self harm/self-harm/selfharm", True), ("headache .. worse/worsening/getting worse", True),
     ("blood thinner/thinners", False), ("collection time/date", False),
     ("remains/remain/stays/stay on", False)],
)  # fmt: skip
def test_the_slash_lint_itself(term: str, bad: bool) -> None:
    assert _repeats_a_neighbour(term) is bad


@pytest.mark.parametrize(
    "text",
    ["LMP per pt 00/05/2024; LMP on booking form 12/05/2024.", "LMP 31/00 per pt; LMP 02/06 on the form."],
)
def test_an_impossible_day_or_month_is_no_reading(text: str) -> None:
    """A numeric date is read both ways only into calendar readings: "00/05" once reached
    ``datetime.date`` through the LMP cycle check and raised."""
    assert all(
        1 <= month <= 12 and 1 <= day <= 31
        for m in detectors._DATE_COARSE.finditer(text)
        for month, day, _ in detectors._calendar_value(m)
        if month is not None and day is not None
    )
    detect(text)  # reads without raising
