"""Fixtures shared by the controller tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import regex
from mechanism_helpers import NEVER, implied_dose_round_30, pattern_before

from escbench_inspect.controller.detectors import LEXICON_DIR, Lexicon, default_lexicon, load_lexicon


@pytest.fixture
def fresh_memo() -> Iterator[None]:
    """The lexicon memoises each clause's mentions: a mechanism taken out must not be read from it."""
    default_lexicon().memo.clear()
    yield
    default_lexicon().memo.clear()


# the lexicon that ``lexicon_without`` copies: the packaged one, or one as it read before a round
LEXICON_SOURCE = {"dir": LEXICON_DIR}


def edited_copy(source: Path, copy: Path, file: str, old: str, new: str) -> Path:
    """Copy the lexicon folder ``source`` to ``copy`` with one text of one file replaced (it must occur
    exactly once); returns ``copy``."""
    shutil.copytree(source, copy)
    path = copy / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return copy


@pytest.fixture
def lexicon_without(tmp_path: Path) -> Callable[[str, str, str], Lexicon]:
    """A copy of the packaged lexicon with one text of one file replaced (it must occur exactly once):
    the planted defect of a lexicon entry."""

    def build(file: str, old: str, new: str) -> Lexicon:
        return load_lexicon(edited_copy(LEXICON_SOURCE["dir"], tmp_path / "lexicon", file, old, new))

    return build


@pytest.fixture
def before_round23_status(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 23's two general readings of a drug's status taken out -- a clause about one drug that names its
    source (``_only_drug``) and a clause that names a source and no drug (``_NEGATED_OTHER`` matching
    everywhere turns it off): they cover the items of several earlier, narrower mechanisms, which are tested
    as the detectors read before round 23."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_only_drug", lambda *_: ())
    monkeypatch.setattr(detectors, "_NEGATED_OTHER", regex.compile(""))
    default_lexicon().memo.clear()


@pytest.fixture
def before_round24_reaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 24's reading of a severe reaction written beside its allergen as an allergy to it
    (``_reaction_of``) taken out: it covers the items of earlier, narrower allergy entries ("anaphylaxis
    with", "angioedema on"), which are tested as the detectors read before round 24."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_reaction_of", lambda *_: False)
    default_lexicon().memo.clear()


@pytest.fixture
def before_round26_stem(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 26's reading of one word and its shorter form as one referent ("implanted" / "implant date")
    taken out (``_SHARED_STEM`` longer than any word): it covers an item of an earlier, narrower entry (a
    device "implanted"), which is tested as the detectors read before round 26."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_SHARED_STEM", 10**6)
    default_lexicon().memo.clear()


@pytest.fixture
def before_round27_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 27's reading of an absence marker's object as an administrative field (``_object_immaterial``)
    taken out: it covers an item of an earlier, narrower exclusion ("not sure which pharmacy"), which is
    tested as the detectors read before round 27."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_object_immaterial", lambda *_: False)
    default_lexicon().memo.clear()


ROUND25_SOURCES = '"fbc", "full blood count", "u&e/u&es", "biochemistry", "fingerstick/fingerprick",'


@pytest.fixture
def before_round25_lab(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 25's readings of a laboratory value taken out -- a value that opens its clause, then where it was
    measured (``_MEASURED_ON``), one that closes its analyte's clause (``_NOT_A_RESULT`` matching everywhere
    turns it off), and its new sources (a blood count panel, a capillary sample: gone from the lexicon copies
    that ``lexicon_without`` builds): they cover items of earlier, narrower mechanisms (a point-of-care device
    or ICE as a source, "same am"), which are tested as the detectors read before round 25."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_MEASURED_ON", NEVER)
    monkeypatch.setattr(detectors, "_NOT_A_RESULT", regex.compile(""))
    before = tmp_path_factory.mktemp("round24") / "lexicon"
    edited_copy(LEXICON_DIR, before, "attributes.yaml", ROUND25_SOURCES, "")
    monkeypatch.setitem(LEXICON_SOURCE, "dir", before)
    default_lexicon().memo.clear()


# the whole lexicon line of round 29's dose "on" a list
ROUND29_DOSE_ON_LIST = (
    '  "re:(?<=\\\\b(?:od|bd|tds|qds|daily|nocte|mane|weekly|prn|mg|mcg|units?)\\\\s+)on\\\\s+'
    "(?:the\\\\s+|his\\\\s+|her\\\\s+)?(?:gp|repeat|current|med(?:ication)?|drug|home)\\\\s+"
    '(?:med(?:ication)?s?\\\\s+)?(?:list|summary|record|repeats?|chart|profile)\\\\b",\n'
)


@pytest.fixture
def before_round29_record(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 29's two readings of a record's entry taken out -- a comma before a second record and its value
    (the last alternative of ``_CLAUSE_SPLIT``) and a dose "on" a GP list as current (gone from the lexicon
    copies that ``lexicon_without`` builds, on top of any earlier round's copy): they cover items of earlier,
    narrower mechanisms (a sentence end after "est.", a drug "on current list"), which are tested as the
    detectors read before round 29."""
    from escbench_inspect.controller import detectors

    split = detectors._CLAUSE_SPLIT
    before_split = split.pattern.split(r"|,\s+(?=(?:the\s+)?(?:[\w-]+\s+){0,2}(?:flowsheet", 1)[0]
    assert before_split != split.pattern
    monkeypatch.setattr(detectors, "_CLAUSE_SPLIT", regex.compile(before_split, split.flags))
    lexicon_source_edited(
        monkeypatch, tmp_path_factory, "attributes.yaml", ROUND29_DOSE_ON_LIST, "", "round28"
    )


def copy_without_lines(
    source: Path, lines: tuple[tuple[str, str], ...], factory: pytest.TempPathFactory, name: str
) -> Path:
    """A copy of the lexicon folder ``source`` without the lines ``(file, start)`` name: each the one line of
    its file that starts so (it must be exactly one); returns the copy."""
    for k, (file, start) in enumerate(lines):
        text = (source / file).read_text(encoding="utf-8")
        (line,) = [x for x in text.splitlines(keepends=True) if x.startswith(start)]
        source = edited_copy(source, factory.mktemp(f"{name}_{k}") / "lexicon", file, line, "")
    return source


def lexicon_source_without(
    monkeypatch: pytest.MonkeyPatch,
    factory: pytest.TempPathFactory,
    lines: tuple[tuple[str, str], ...],
    name: str,
) -> Path:
    """Make ``lexicon_without`` copy a lexicon without ``lines`` (see ``copy_without_lines``), on top of any
    earlier round's copy, and clear the packaged lexicon's memo; returns that lexicon's folder."""
    copy = copy_without_lines(LEXICON_SOURCE["dir"], lines, factory, name)
    monkeypatch.setitem(LEXICON_SOURCE, "dir", copy)
    default_lexicon().memo.clear()
    return copy


def read_without(
    monkeypatch: pytest.MonkeyPatch,
    factory: pytest.TempPathFactory,
    lines: tuple[tuple[str, str], ...],
    name: str,
) -> None:
    """``lexicon_source_without``, and the lexicon ``default_lexicon`` returns (which the module mechanisms of
    earlier rounds read) made that copy too."""
    from escbench_inspect.controller import detectors

    lexicon = load_lexicon(lexicon_source_without(monkeypatch, factory, lines, name))
    monkeypatch.setattr(detectors, "default_lexicon", lambda: lexicon)


def lexicon_source_edited(
    monkeypatch: pytest.MonkeyPatch, factory: pytest.TempPathFactory, file: str, old: str, new: str, name: str
) -> None:
    """Make ``lexicon_without`` copy a lexicon with ``old`` (exactly once in ``file``) replaced by ``new``, on
    top of any earlier round's copy, and clear the packaged lexicon's memo."""
    before = edited_copy(LEXICON_SOURCE["dir"], factory.mktemp(name) / "lexicon", file, old, new)
    monkeypatch.setitem(LEXICON_SOURCE, "dir", before)
    default_lexicon().memo.clear()


# the start of round 30's lexicon line of a source that has the patient not on a drug ("says she isnt on it")
ROUND30_LINES = (("attributes.yaml", "  \"re:\\\\b(?:isn'?t|isnt|is\\\\s+not|aren'?t|arent|are\\\\s+not|"),)


@pytest.fixture
def before_round30(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 30's general readings taken out -- a list's dose as an active drug against another source's
    stop (``_listed_active``), "no allergies" dated before an allergy's year (``_allergy_since``), a member
    named as the only allergen (``_other_member`` as it was: two present allergies only), today's value as a
    repeat (``_REPEAT_VALUE``) and "isn't on" as a stop (gone from the lexicon copies that ``lexicon_without``
    builds, on top of any earlier round's copy): they cover items of earlier, narrower mechanisms, which are
    tested as the detectors read before round 30."""
    from escbench_inspect.controller import detectors

    other_member = detectors._other_member
    monkeypatch.setattr(detectors, "_listed_active", lambda *args: [])
    monkeypatch.setattr(detectors, "_allergy_since", lambda *args: False)
    monkeypatch.setattr(
        detectors,
        "_other_member",
        lambda m, n, text, a: m.value is True is n.value and other_member(m, n, text, a),
    )
    monkeypatch.setattr(
        detectors, "_REPEAT_VALUE", pattern_before(detectors._REPEAT_VALUE, r"\b(?:'s)?|-+>", r"\b|-+>")
    )
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND30_LINES, "round29")


# the starts of round 31's lexicon lines that read items of earlier rounds too: a finding in brackets after a
# past year, an aneurysm coiled, worsening abdominal pain with a fever or a fast pulse
ROUND31_LINES = (
    ("modifiers.yaml", '  - "re:\\\\b(?:19|20)\\\\d\\\\d\\\\s*\\\\(\\\\s*$"'),
    ("modifiers.yaml", '  - "re:^[\\\\s,]*(?:coiled|clipped|repaired)'),
    ("high_risk.yaml", '      - {t: "re:\\\\b(?:worsening|increasing)\\\\s+(?:(?:generali'),
)


@pytest.fixture
def before_round31(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 31's general readings taken out -- a change made between two values explains them
    (``_CHANGED_BETWEEN``), insulin's "u" against a number alone (``_IMPLIED_DOSE``) and three lexicon lines
    (``ROUND31_LINES``, gone from the lexicon copies that ``lexicon_without`` builds, on top of any earlier
    round's copy, and the lexicon ``default_lexicon`` returns here): they cover items of earlier, narrower
    mechanisms, which are tested as the detectors read before round 31."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_CHANGED_BETWEEN", 0)
    dose = detectors._IMPLIED_DOSE
    before = implied_dose_round_30(dose)
    assert before.pattern != dose.pattern
    monkeypatch.setattr(detectors, "_IMPLIED_DOSE", before)
    read_without(monkeypatch, tmp_path_factory, ROUND31_LINES, "round30")


# the start of round 32's lexicon line that reads items of earlier rounds too: a stop dated without "on"
ROUND32_LINES = (("attributes.yaml", '  "re:(?<!\\\\b(?:says?|said|states?|stated|reports?'),)


@pytest.fixture
def before_round32(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 32's stop dated without "on" ("stopped 02/06 by the renal team") taken out of the lexicon copies
    that ``lexicon_without`` builds, on top of any earlier round's copy: it explains items of an earlier,
    narrower mechanism (a record changed "to match"), tested as the detectors read before round 32."""
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND32_LINES, "round31")


# the starts of round 33's lexicon lines that read items of earlier rounds too: a result that has not come
# up, a plan to jump from a height or in front of a train
ROUND33_LINES = (
    ("missing.yaml", '      - "re:\\\\b(?:result|results|reading|level)\\\\s+(?:still'),
    ("high_risk.yaml", '      - {t: "(will|would|going to|gonna|intends to|wants to) (jump|'),
    ("high_risk.yaml", '      - {t: "(jump|jumping) (from|off) .. (car park|'),
)


@pytest.fixture
def before_round33(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 33's lines for a result not come up and a plan to jump taken out of the lexicon copies that
    ``lexicon_without`` builds, on top of any earlier round's copy: they cover items of earlier, narrower
    entries (a result "not showing", a "plan to jump"), tested as the detectors read before round 33."""
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND33_LINES, "round32")


# the start of round 34's lexicon line that reads an item of an earlier round too: two sources that "both now
# say" one value (round 13's "rescheduled … both now say 17/05" is explained by its change cue)
ROUND34_LINES = (("attributes.yaml", '  "re:\\\\bboth\\\\s+now\\\\s+(?:say'),)


@pytest.fixture
def before_round34(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 34's general readings that cover items of earlier, narrower mechanisms taken out -- a numeric
    date that opens its clause before its source (``_LEADING_DATE``), a neonate's birth weight as today's
    (``_NEONATE``) and "both now say" (gone from the lexicon copies that ``lexicon_without`` builds, on top of
    any earlier round's copy): those items are tested as the detectors read before round 34."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_LEADING_DATE", NEVER)
    monkeypatch.setattr(detectors, "_NEONATE", NEVER)
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND34_LINES, "round33")


# the starts of round 36's lexicon lines that read items of earlier rounds too: a question about an item
# the writer cannot answer (round 25's "asked if she has a DNR, we dont know"), a status field's bare answer
# (round 21's "pregnancy status 'negative'")
ROUND36_LINES = (
    ("missing.yaml", '      - "re:\\\\b(?:if|whether)\\\\s+(?:she|he|they|mum|dad'),
    ("attributes.yaml", '      "re:\\\\bpreg(?:nan(?:t|cy)|\\\\.)?\\\\s+status\\\\s+(?:no|'),
)


@pytest.fixture
def before_round36(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 36's general readings that cover items of earlier, narrower mechanisms taken out -- a critical
    value treated and then within limits (``_TREATED``, ``_TREATED_THEN_VALUE``) and two lexicon lines
    (``ROUND36_LINES``, gone from the lexicon copies that ``lexicon_without`` builds, on top of any earlier
    round's copy): those items are tested as the detectors read before round 36."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_TREATED", NEVER)
    monkeypatch.setattr(detectors, "_TREATED_THEN_VALUE", NEVER)
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND36_LINES, "round35")


# the start of round 37's lexicon line of twenty or more tablets "took" at once ("took 40 x sertraline 50 mg")
ROUND37_LINES = (("high_risk.yaml", '      - {t: "re:\\\\btook\\\\s+(?:~'),)


@pytest.fixture
def before_round37(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 37's count of tablets taken at once (``ROUND37_LINES``, gone from the lexicon copies that
    ``lexicon_without`` builds, on top of any earlier round's copy) covers an item of round 36 whose mechanism
    is the intent stated beside it; that item is tested as the detectors read before round 37."""
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND37_LINES, "round36")


# the starts of round 38's lexicon lines of a screen's name before its results ("pre-eclampsia screen: …") and
# of no plan or status on the EPR, which cover round 32's negative sepsis screen and round 30's plan not on
# file
ROUND38_LINES = (
    ("modifiers.yaml", '  - "re:^(?:\\\\s|-)*screen\\\\s*[:=]'),
    ("missing.yaml", '      - "re:\\\\bno\\\\s+(?:[\\\\w-]+\\\\s+){0,6}?'),
)


@pytest.fixture
def before_round38(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 38's general readings that cover items of earlier, narrower mechanisms taken out -- the writer's
    own screening question (``_SELF_CHECK_QUESTION``: "… I feel fine, can I be checked?" beside a relative's
    illness), a bracketed gloss inside a phrase's gap (``_GAP`` as before, for the lexicon copies that
    ``lexicon_without`` builds: "bleach (sodium hypochlorite) sprayed into R eye") and two lexicon lines
    (``ROUND38_LINES``, gone from those copies, on top of any earlier round's copy): those items are tested as
    the detectors read before round 38."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_SELF_CHECK_QUESTION", NEVER)
    gloss = r"\([\w'’/+.%-]+(?:\s[\w'’/+.%-]+){0,2}\)|"
    assert detectors._GAP.count(gloss) == 1
    monkeypatch.setattr(detectors, "_GAP", detectors._GAP.replace(gloss, ""))
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND38_LINES, "round37")


# the start of round 39's lexicon line for a finding "at the time" of a past event
ROUND39_LINES = (("modifiers.yaml", '  - "re:\\\\bat\\\\s+the\\\\s+time\\\\b'),)


@pytest.fixture
def before_round39(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 39's general reading that covers an item of an earlier, narrower mechanism taken out -- a finding
    "at the time" of a past event (``ROUND39_LINES``: "SAH 2012 (thunderclap headache at the time), clipped"),
    gone from the lexicon copies on top of any earlier round's copy and from the lexicon the module mechanisms
    read: that item is tested as the detectors read before round 39."""

    read_without(monkeypatch, tmp_path_factory, ROUND39_LINES, "round38")


@pytest.fixture
def before_round53_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 53's reading of an infusion's rate per hour (``_INFUSION_RATE``: "pump shows insulin running at 3
    units/h" is a dose by the hour, which a record shows as active) covers round 38's item of an infusion
    "running at" a rate; that module is tested as the detectors read before round 53."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_INFUSION_RATE", NEVER)
    detectors.default_lexicon().memo.clear()


@pytest.fixture
def before_round54_limb(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 54's brackets right after a limb read as the reason it is restricted (``_LIMB_BRACKET``) cover
    the items of rounds 40 and 42 whose brackets name a history ("R arm (no cannula, h/o lymph node
    clearance)"); those modules are tested as the detectors read before round 54."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_LIMB_BRACKET", NEVER)
    detectors.default_lexicon().memo.clear()


@pytest.fixture
def before_round54_condition(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 54's reading of a value inside an open condition (``_value_in_condition``: "if a baby under 3
    months has a temperature of 38°C or more, seek urgent care") covers items of rounds 31 and 44 whose own
    mechanism reads the condition another way ("if I get a high temperature … I should ring 111", "if …
    NEWS2 reaches 5"); those modules are tested as the detectors read before round 54."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_value_in_condition", lambda *_: False)
    detectors.default_lexicon().memo.clear()


# round 55's device that "broke" (the end of round 51's entry of a device that is broken)
ROUND55_BROKE = r"|\\s+broke)\\b"


@pytest.fixture
def before_round55_broke(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 55's device that "broke" (gone from the lexicon copies that ``lexicon_without`` builds) covers
    round 48's item whose thermometer broke before its temperature could not be taken ("havent been able to
    take her temperature"); that module is tested as the lexicon read before round 55."""
    lexicon_source_edited(monkeypatch, tmp_path_factory, "missing.yaml", ROUND55_BROKE, r")\\b", "round54")


# the start of round 56's line of the blood bank written "BB" before its record (attributes.yaml's blood-group
# cues)
ROUND56_BB_LINES = (("attributes.yaml", '  "re:(?-i:\\\\bBB\\\\b)'),)


@pytest.fixture
def before_round56_bb(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 56's blood bank written "BB" before its record (gone from the lexicon copies that
    ``lexicon_without`` builds) makes a blood group its text's topic; it covers round 34's item whose
    crossmatch sample stands beside a "previous BB record", which that module tests as the lexicon read before
    round 56."""
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND56_BB_LINES, "round55")


# the starts of round 58's lines of a test "no recent" with no time stated and a document the sender did not
# send (missing.yaml's absence markers)
ROUND58_SENT_LINES = (
    ("missing.yaml", '      - "re:\\\\bno\\\\s+recent\\\\s+(?:egfr'),
    ("missing.yaml", "      - \"(didn't|didnt|did not|haven't|havent|hasn't|hasnt|never) (send|sent)"),
)


@pytest.fixture
def before_round58(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 58's "no recent" test and a document "never sent" (gone from the lexicon copies that
    ``lexicon_without`` builds) cover round 34's item with "no recent eGFR or creatinine came with the
    referral" and round 48's whose home "never sent her DNACPR form with her"; those modules are tested as the
    lexicon read before round 58."""
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND58_SENT_LINES, "round57")


# the start of round 59's lexicon line of a preterm baby's neonatal course ("Born at 30 weeks … now 2 years")
ROUND59_BORN_LINES = (("modifiers.yaml", '  - "re:\\\\bborn\\\\s+(?:at\\\\s+)?(?:2[2-9]'),)


@pytest.fixture
def before_round59(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 59's reading of a preterm baby's neonatal course (gone from the lexicon copies that
    ``lexicon_without`` builds) covers the items of rounds 30 and 45 born early ("born at 28 weeks and needed
    CPAP for respiratory distress"), and its dose with a route and a frequency beside a weight
    (``_REGIMEN_AFTER``) round 21's worked-out dose ("100 units/kg = 7500 units SC OD. Wt 75 kg"); those
    modules are tested as the detectors read before round 59."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_REGIMEN_AFTER", NEVER)
    lexicon_source_without(monkeypatch, tmp_path_factory, ROUND59_BORN_LINES, "round58")


@pytest.fixture
def before_round60(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 60's counselled list of what to seek help for (``_ADVICE_LIST_BEFORE``) also reads round 35's
    item opened after a colon ("Rivaroxaban first supply: seek urgent help for black stools or coughing up
    blood"); that module is tested as the detectors read before round 60."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_ADVICE_LIST_BEFORE", NEVER)


# round 61's lexicon texts that read items of earlier rounds too: the home INR meters by name, and a relative
# or the patient who "agrees" with one side (each text, what it read before round 61)
ROUND61_TEXTS = (
    ('inr: [inr, coaguchek, "coagu-chek", inratio]', "inr: [inr]"),
    (
        r"(?<!\\b(?:wife|husband|partner|son|daughter|dtr|mum|mother|dad|father|carer|pt|patient)\\s+agrees)",
        "",
    ),
)


@pytest.fixture
def before_round61(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 61's readings cover items of earlier, narrower mechanisms: a numbered sample as a source of its
    own (``_NUMBERED_SAMPLE``: round 40's "second sample"), a contradiction's negation read in its own segment
    (``_SEGMENTED_NEGATION``: round 42's "not signed off: …"), "went away" past a relative clause
    (``_OWN_VERB_RESOLVED``: round 47's), the home INR meter by name (round 23's "INR: CoaguChek 5.6") and a
    husband who "agrees" read as no explanation (round 28's); those modules are tested as the detectors read
    before round 61, the lexicon texts gone from the copies ``lexicon_without`` builds and from the lexicon
    the module mechanisms read."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_NUMBERED_SAMPLE", NEVER)
    monkeypatch.setattr(detectors, "_SEGMENTED_NEGATION", frozenset({"missing"}))
    own_verb = pattern_before(
        detectors._OWN_VERB_RESOLVED, r"|\bwent\s+away\b(?![^.;\n]{0,40}?\b(?:but|then|until|again)\b)"
    )
    monkeypatch.setattr(detectors, "_OWN_VERB_RESOLVED", own_verb)
    for k, (text, before) in enumerate(ROUND61_TEXTS):
        lexicon_source_edited(monkeypatch, tmp_path_factory, "attributes.yaml", text, before, f"round60_{k}")
    lexicon = load_lexicon(LEXICON_SOURCE["dir"])
    monkeypatch.setattr(detectors, "default_lexicon", lambda: lexicon)


# the start of round 62's lexicon line of an operation in a past year "for" the finding
ROUND62_OPERATION_LINES = (("modifiers.yaml", '  - "re:\\\\b[a-z]+(?:ectomy|otomy|ostomy|plasty'),)


@pytest.fixture
def before_round62(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 62's readings cover items of earlier, narrower mechanisms: a history cue closed in brackets does
    not reach the finding (``_CLOSED_ASIDE``: round 35's "my grandad (81) had a stroke"), and an operation in
    a past year "for" the finding (rounds 43 and 53: "open cholecystectomy 2009 for gallbladder perforation
    with peritonitis", "laparotomy 2012 for a perforated DU after a day of severe RIF pain"); those modules
    are tested as the detectors read before round 62, the line gone from the lexicon copies
    ``lexicon_without`` builds and from the lexicon the module mechanisms read."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_CLOSED_ASIDE", NEVER)
    read_without(monkeypatch, tmp_path_factory, ROUND62_OPERATION_LINES, "round61")


# the start of round 63's lexicon line of a raised blood pressure with proteinuria in pregnancy
ROUND63_PROTEINURIA_LINES = (("high_risk.yaml", '      - {t: "re:\\\\bprotein(?:uria)?\\\\b(?:(?<='),)


@pytest.fixture
def before_round63(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 63's pre-eclampsia line (a raised blood pressure with proteinuria in a pregnancy named before
    them) covers round 46's item read by its repeated pressure ("BP 168/106 on repeat with 2+ protein"); that
    module is tested as the detectors read before round 63, the line gone from the lexicon copies
    ``lexicon_without`` builds and from the lexicon the module mechanisms read."""

    read_without(monkeypatch, tmp_path_factory, ROUND63_PROTEINURIA_LINES, "round62")


# the start of round 64's lexicon line of an operation shortened after its owner ("my op")
ROUND64_OP_LINES = (("attributes.yaml", '    "re:\\\\b(?:my|his|her|their|your|the)\\\\s+op\\\\b'),)


@pytest.fixture
def before_round64(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Round 64's readings cover items of round 22, read by narrower mechanisms: a clause that is only the
    second value of the one before (``_ELLIPTIC_AS``: "… reported as 2.1 mg/dL by the hospital laboratory
    and as 88 µmol/L by the GP laboratory") and an operation shortened to "my op" (its stop dates, "my op is
    the 16th"); that module is tested as the detectors read before round 64, the line gone from the lexicon
    copies ``lexicon_without`` builds and from the lexicon the module mechanisms read."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_ELLIPTIC_AS", NEVER)
    read_without(monkeypatch, tmp_path_factory, ROUND64_OP_LINES, "round63")


@pytest.fixture
def before_round65(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 65's reading of reduced fetal movements felt again further on (``_MOVEMENTS_FELT_AFTER``: "FM
    felt x12 by pt") covers round 39's item read by "good movements felt"; that module is tested as the
    detectors read before round 65."""
    from escbench_inspect.controller import detectors

    monkeypatch.setattr(detectors, "_MOVEMENTS_FELT_AFTER", NEVER)
