"""Issue 22y (conflict): the mechanisms the fifth blind half's misses showed, read on this project's own
wording (``detector_heldout_dev9.yaml``, whose items are read one by one with dev6's and dev8's in
``test_detectors_issue22u_conflict.py``), and the pieces behind them."""

from __future__ import annotations

import pytest

from escbench_inspect.controller import heldout
from escbench_inspect.controller.detectors import (
    _CLOCK,
    _GESTATION,
    _clock_minutes,
    _clocks_differ,
    attribute_conflicts,
    default_lexicon,
    detect,
    gestation_weeks,
)

DEV9 = heldout.load_heldout(heldout.DEV9_FILE).items  # read item by item in test_detectors_issue22u_conflict


def test_dev9_is_conflict_in_the_dev_half_with_every_kind() -> None:
    ids = {i.id for i in heldout.half_items("dev")}
    assert {i.id for i in DEV9} <= ids
    assert all(i.detector == "conflict" for i in DEV9)
    assert {"agreement", "documented_change", "dated_history"} <= {i.kind for i in DEV9 if i.kind}


@pytest.mark.parametrize(
    ("text", "minutes"),
    [("at 14:10", 850), ("at 09.30", 570), ("at 0645 hrs", 405), ("at 8pm", 1200), ("at 12 am", 0)],
)
def test_clock_readings(text: str, minutes: int) -> None:
    match = _CLOCK.search(text)
    assert match is not None and _clock_minutes(match) == minutes


@pytest.mark.parametrize("text", ["K+ 5.60 mmol/L", "dated 12/03/2024", "BP 140/90", "5.25 mg"])
def test_not_a_clock(text: str) -> None:
    assert _CLOCK.search(text) is None


def test_clock_times_differ_round_the_clock() -> None:
    assert _clocks_differ(850, 570)
    assert not _clocks_differ(1430, 20)  # 23:50 and 00:20: half an hour apart
    assert not _clocks_differ(400, 440)


@pytest.mark.parametrize(
    ("text", "weeks"),
    [
        ("14 weeks pregnant", 14.0),
        ("32+4/40", 32 + 4 / 7),
        ("a gestation of 9+2 weeks", 9 + 2 / 7),
        ("GA 20 wks", 20.0),
        ("12 weeks and 3 days pregnant", 12 + 3 / 7),
    ],
)
def test_gestation_readings(text: str, weeks: float) -> None:
    match = _GESTATION.search(text)
    assert match is not None and gestation_weeks(match) == pytest.approx(weeks)


@pytest.mark.parametrize("text", ["booked at 10/40", "delivered at 38 weeks pregnant", "the 12 week scan"])
def test_not_a_gestation_now(text: str) -> None:
    assert _GESTATION.search(text) is None


def test_allergy_record_only_allergen() -> None:
    lexicon = default_lexicon()
    other = "Son says she reacts to co-trimoxazole; care home record: allergy = penicillin only."
    member = "GP record: allergy = penicillin only; pt says amoxicillin gave her a rash."
    assert attribute_conflicts(other, lexicon)
    assert attribute_conflicts(member, lexicon) == []


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("Wt 80 kg today. Clinic 5 days ago: 65 kg measured.", True),
        ("Wt 80 kg today. Clinic 5 months ago: 65 kg measured.", False),
        ("Wt 80 kg today. Clinic last year: 65 kg measured.", False),
    ],
)
def test_a_recent_weight_is_no_history(text: str, fires: bool) -> None:
    assert detect(text).conflict is fires


def test_both_before_a_verb_is_two_sources_not_both_sides() -> None:
    sources = "Consent form says left knee; the list and the patient both say right knee."
    sides = "Consent form says left knee; the physio notes both knees are painful, right worse."
    assert detect(sources).conflict
    assert not detect(sides).conflict


def _one_alternation_matches(text: str) -> list[tuple[int, int, str]]:
    """The reference reading: every shorthand part in ONE alternation, in order (the pre-22y scan)."""
    import regex

    shorthand = default_lexicon().shorthand
    assert shorthand is not None
    parts = [shorthand.literal_pattern.pattern] if shorthand.literal_pattern is not None else []
    parts += [f"(?P<s{i}>{pattern.pattern})" for i, (pattern, _) in enumerate(shorthand.raw)]
    combined = regex.compile("|".join(parts))
    out = []
    for match in combined.finditer(text):
        if match.lastgroup and match.lastgroup.startswith("s"):
            entry = shorthand.raw[int(match.lastgroup[1:])][1]
        else:
            entry = shorthand._literal_entry(match)
        out.append((match.start(), match.end(), entry.abbr))
    return out


def test_shorthand_parts_scanned_apart_read_as_one_alternation() -> None:
    """issue 22y (speed): each part is scanned on its own; the matches are those of one alternation."""
    from escbench_inspect.controller.quality import corpus_samples

    shorthand = default_lexicon().shorthand
    assert shorthand is not None
    texts = [text for text, _ in corpus_samples()] + [i.text for i in heldout.half_items("dev")]
    texts += ["Pt c/o SOB x2/52, h/o MI; 3 wks ago T 38.2, R knee, 34yo, 2yrs ago, ambulance h/o: L arm"]
    for text in texts:
        got = [(m.start(), m.end(), entry.abbr) for m, entry in shorthand.matches(text)]
        assert got == _one_alternation_matches(text), text[:80]


def test_a_part_that_overlaps_itself_keeps_every_start() -> None:
    """A raw part may match again inside its own match ("a bc" at 1, "bcdef" at 3); after the literal
    "za" (0-2) one alternation resumes at 2 and finds "bcdef", so every start of every part is kept."""
    from escbench_inspect.controller.detectors import ShorthandEntry, ShorthandFile, compile_shorthand

    spec = ShorthandFile(
        source="test",
        entries=(
            ShorthandEntry(abbr="za", expansion="Z", meaning="literal"),
            ShorthandEntry(abbr="re:a bc|bcdef", expansion="R", meaning="raw, overlapping itself"),
        ),
    )
    matches = compile_shorthand(spec).matches("za bcdef")
    assert [(m.start(), m.end(), e.expansion) for m, e in matches] == [(0, 2, "Z"), (3, 8, "R")]


KEYED = ["dc9_same_draw", "dc9_eye_abbrev", "dc9_as_the_left", "dc9_thigh", "dc9_lactate", "dc9_one_limb"]


@pytest.mark.parametrize("item_id", KEYED)
def test_keyed_reading_before_the_generic_one(item_id: str) -> None:
    """These items would also fire on the generic typed values; their own attribute reading must find them
    (a side of the eye, a leg, an analyte), so that a lost mechanism is not hidden by the fallback."""
    text = next(i.text for i in DEV9 if i.id == item_id)
    pairs = attribute_conflicts(text, default_lexicon())
    assert pairs and not any(m.attribute.startswith("typed_") for pair in pairs for m in pair), pairs


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("Theatre note records a left femoral line; ICU chart says right femoral line in situ.", True),
        ("Theatre note records a left femoral line; ICU chart says left femoral line in situ.", False),
        ("Pt says the left knee hurts; the X-ray request is for the right hip.", False),
        ("Vanc level phoned as 8 mg/L; the lab system shows 28 mg/L.", True),
        ("Vanc level phoned as 8 mg/L in 2023; the lab system shows 28 mg/L today.", False),
    ],
)
def test_generic_typed_values(text: str, fires: bool) -> None:
    assert bool(attribute_conflicts(text, default_lexicon())) is fires
