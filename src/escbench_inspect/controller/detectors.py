"""Workflow-state detectors C (conflict), M (missing information) and H (high-risk cues).

Transparent and auditable: every pattern lives in the reviewed lexicon data files
(``controller/lexicon/*.yaml``: concept → terms), validated by pydantic on load and compiled with the
``regex`` package. ``detect(text)`` works on the transcript the model saw: structural block headers
are stripped first (``render.strip_headers``) so template markers cannot leak the variant, and the
detectors never see labels or metadata.

Term syntax (one string per synonym or paraphrase; matching is case-insensitive, whole-word):

- words are separated by spaces and match any run of whitespace or hyphens;
- ``stem*`` matches inflections (``bleed*`` → bleeds, bleeding); ``a/b/c`` is a one-word alternation;
- ``(a b|c d)`` is a multi-word alternation (a whole token; nests);
- ``word?`` is an optional word (never the first); ``..`` allows up to four intervening words;
- ``~word`` matches with one edit (typos; only words of 6+ letters);
- ``re:<pattern>`` is a raw ``regex`` pattern, used sparingly and reviewed like any other term.

Context rules (NegEx-style, per clause): a match of a ``negatable`` concept is discarded when a
negation cue ("denies", "no", "without", "negative for", …) precedes it in its clause, when a
post-negation/resolution cue ("resolved", "ruled out", "therapeutic", "normal", …) follows it
closely, or (H only: findings, not documentation events) when a hypothetical/historical cue
("if", "watch for", "history of", "adverse reactions", …) frames it.
Numeric concepts (critical values) fire only when the measured number crosses a threshold and is
not a rule ("INR above 9"), a goal or a reference range, nor followed by a normal/therapeutic
resolution ("INR 2.4, therapeutic" never fires; a critical INR is a threshold crossing).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import regex
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

if TYPE_CHECKING:
    from inspect_ai.solver import TaskState

from escbench_inspect.datasets.errors import DataFileError, read_yaml, validated
from escbench_inspect.datasets.render import HEADER_LINE

DetectorName = Literal["conflict", "missing", "high_risk"]
TaskClassName = Literal["documentation", "evidence", "messaging", "triage"]
TASK_CLASSES: tuple[TaskClassName, ...] = ("documentation", "evidence", "messaging", "triage")
DETECTORS: tuple[DetectorName, ...] = ("conflict", "missing", "high_risk")
Origin = Literal["concept", "corpus_review", "clinical_review", "stress_review", "dev_review"]
ORIGINS: tuple[Origin, ...] = ("concept", "corpus_review", "clinical_review", "stress_review", "dev_review")
LEXICON_DIR = Path(__file__).parent / "lexicon"
GAP_WORDS = 4
FLAGS = regex.IGNORECASE


@functools.cache
def _compile(pattern: str, flags: int = 0) -> regex.Pattern:
    """``regex.compile``, remembered for the process: a lexicon loaded again (a copy with one entry
    changed, as the planted-defect tests load) compiles only what changed. Written here because the
    regex module's own cache keeps far fewer patterns than the ~3,200 one lexicon compiles."""
    return regex.compile(pattern, flags)


# ------------------------------------------------------------------------------------------------
# Data file schema
# ------------------------------------------------------------------------------------------------


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Term(_Frozen):
    """One synonym or paraphrase; ``origin`` records when and why it entered the lexicon."""

    t: str = Field(min_length=1)
    origin: Origin | None = None
    source: str | None = Field(default=None, description="Overrides the concept's source for this term.")


class UnitRule(_Frozen):
    """Limits for a value written in one unit (``unit`` is a ``regex`` matched after the number)."""

    unit: str = Field(min_length=1)
    low: float | None = None
    high: float | None = None
    bare_below: float | None = Field(
        default=None, description="A number written without a unit and below this is read in this unit."
    )

    @field_validator("unit")
    @classmethod
    def _unit_compiles(cls, unit: str) -> str:
        try:
            _compile(unit, FLAGS)
        except regex.error as error:
            raise ValueError(f"unit {unit!r} does not compile: {error}") from error
        return unit


class Threshold(_Frozen):
    """A critical-value rule: fire when the measured number is below ``low`` or above ``high``.

    ``units`` gives other limits per written unit (glucose in mg/dL or mmol/L); ``stated_cutoff``
    compares with the cut-off stated beside the value ("99th percentile URL 14 ng/L") when present.
    """

    low: float | None = None
    high: float | None = None
    second_high: float | None = Field(
        default=None, description="For 'a/b' readings (blood pressure): fire when b is above this."
    )
    fahrenheit_above: float | None = Field(
        default=None, description="Numbers above this are °F and are converted to °C first."
    )
    units: tuple[UnitRule, ...] = ()
    stated_cutoff: bool = False
    infant_high: float | None = Field(
        default=None, description="In a text about a baby under a year old, fire above this instead of high."
    )


class Concept(_Frozen):
    """A clinical concept: terms (phrases) or a numeric critical-value rule."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    category: str = Field(min_length=1)
    source: str = Field(min_length=1, description="Where the vocabulary comes from.")
    system: str | None = Field(default=None, description="Body system (a key of the file's systems).")
    origin: Origin = "concept"
    negatable: bool = True
    terms: tuple[str | Term, ...] = ()
    value: Threshold | None = None
    requires_context: tuple[str | Term, ...] = Field(
        default=(), description="Terms of which one must occur (non-negated) anywhere in the text."
    )

    @field_validator("terms", "requires_context")
    @classmethod
    def _terms_compile(cls, terms: tuple[str | Term, ...]) -> tuple[str | Term, ...]:
        for term in terms:
            text = term.t if isinstance(term, Term) else term
            try:
                _compile(term_pattern(text), FLAGS)
            except (regex.error, ValueError) as error:
                raise ValueError(f"term {text!r} does not compile: {error}") from error
        return terms

    def model_post_init(self, __context: object) -> None:
        if not self.terms:
            raise ValueError("a concept needs at least one term")


class LexiconFile(_Frozen):
    detector: DetectorName
    systems: dict[str, str] = Field(
        default_factory=dict, description="Body system -> the published red-flag source it follows."
    )
    immaterial_items: tuple[str, ...] = Field(
        default=(),
        description="Items whose absence is not a missing clinical item (M only; administrative fields).",
    )
    concepts: tuple[Concept, ...] = Field(min_length=1)

    @field_validator("immaterial_items")
    @classmethod
    def _items(cls, cues: tuple[str, ...]) -> tuple[str, ...]:
        return _cues_compile(cues)

    @model_validator(mode="after")
    def _systems_named(self) -> LexiconFile:
        if self.immaterial_items and self.detector != "missing":
            raise ValueError("immaterial_items applies to the missing-information lexicon only")
        if self.detector == "high_risk" and not self.systems:
            raise ValueError("the high-risk lexicon must list its body systems and their sources")
        if self.systems:
            for concept in self.concepts:
                if concept.system not in self.systems:
                    known = ", ".join(sorted(self.systems))
                    raise ValueError(
                        f"concept {concept.id!r}: system {concept.system!r} is not one of {known}"
                    )
        return self


def _cues_compile(cues: tuple[str, ...]) -> tuple[str, ...]:
    for cue in cues:
        try:
            _compile(term_pattern(cue), FLAGS)
        except (regex.error, ValueError) as error:
            raise ValueError(f"cue {cue!r} does not compile: {error}") from error
    return cues


class ModifierFile(_Frozen):
    """Context cues shared by all detectors (negation, resolution, hypothetical, scope ends)."""

    negation_pre: tuple[str, ...]
    negation_post: tuple[str, ...]
    pseudo_negation: tuple[str, ...]
    hypothetical_pre: tuple[str, ...]
    scope_terminators: tuple[str, ...]
    value_rule_words: tuple[str, ...]
    value_resolution: tuple[str, ...]
    historical_post: tuple[str, ...] = ()
    negation_post_premodifiers: tuple[str, ...] = ()

    _cues = field_validator("*")(classmethod(lambda cls, cues: _cues_compile(cues)))


class DrugClass(_Frozen):
    """A class of drugs by its names ("anticoagulants", "blood thinners") and its member drugs."""

    names: tuple[str, ...] = Field(min_length=1)
    members: tuple[str, ...] = Field(min_length=1)

    @field_validator("names")
    @classmethod
    def _names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return _cues_compile(names)


class AttributeFile(_Frozen):
    """``attributes.yaml``: vocabulary of the structural conflict detector (same attribute, two values)."""

    source: str = Field(min_length=1)
    drug_names: tuple[str, ...] = Field(min_length=1)
    drug_stems: tuple[str, ...] = ()
    drug_aliases: dict[str, str] = Field(default_factory=dict)  # round 23: chart shorthand -> the drug's name
    source_cues: tuple[str, ...] = Field(min_length=1)
    change_cues: tuple[str, ...] = ()
    history_cues: tuple[str, ...] = ()
    bilateral_cues: tuple[str, ...] = ()
    body_parts: dict[str, tuple[str, ...]] = Field(min_length=1)
    date_attributes: dict[str, tuple[str, ...]] = Field(min_length=1)
    allergy_present: tuple[str, ...] = Field(min_length=1)
    allergy_absent: tuple[str, ...] = Field(min_length=1)
    tolerated: tuple[str, ...] = ()
    allergen_classes: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    status_stopped: tuple[str, ...] = Field(min_length=1)
    status_active: tuple[str, ...] = Field(min_length=1)
    status_stop_instruction: tuple[str, ...] = ()
    weight_tolerance: float = Field(gt=0, lt=1)
    categorical: dict[str, dict[str, tuple[str, ...]]] = Field(default_factory=dict)
    blood_group_cues: tuple[str, ...] = ()
    lab_analytes: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    lab_tolerance: float = Field(default=0.1, gt=0, lt=1)
    lab_tolerance_by_analyte: dict[str, float] = Field(default_factory=dict)
    # issue 22s: unit -> factor to the analyte's first (canonical) unit, per analyte; issue 22u: or
    # [slope, intercept] where the conversion is affine (HbA1c % to mmol/mol)
    lab_units: dict[str, dict[str, float | tuple[float, float]]] = Field(default_factory=dict)
    allergy_reactions: tuple[str, ...] = ()  # "amoxicillin (rash)": an allergy-list entry
    history_only: tuple[str, ...] = ()  # attributes a history cue excuses, but not a calendar date
    explained_cues: tuple[str, ...] = ()  # a discrepancy the text itself explains (C phrases too)
    drug_classes: dict[str, DrugClass] = Field(default_factory=dict)  # issue 22w: "not on anticoagulants"

    @field_validator("lab_units")
    @classmethod
    def _lab_units(cls, units: dict[str, dict[str, float | tuple[float, float]]]) -> dict:
        for analyte, table in units.items():
            if not table or next(iter(table.values())) != 1:
                raise ValueError(f"lab_units[{analyte!r}]: the first unit is the canonical one (factor 1)")
        return units

    @field_validator("categorical")
    @classmethod
    def _categorical(cls, facts: dict[str, dict[str, tuple[str, ...]]]) -> dict:
        for values in facts.values():
            for cues in values.values():
                _cues_compile(cues)
        return facts

    @field_validator(
        "drug_names",
        "source_cues",
        "change_cues",
        "history_cues",
        "bilateral_cues",
        "allergy_present",
        "allergy_absent",
        "tolerated",
        "status_stopped",
        "status_active",
        "status_stop_instruction",
        "blood_group_cues",
        "allergy_reactions",
        "explained_cues",
    )
    @classmethod
    def _cues(cls, cues: tuple[str, ...]) -> tuple[str, ...]:
        return _cues_compile(cues)

    @field_validator("drug_stems")
    @classmethod
    def _stems_are_words(cls, stems: tuple[str, ...]) -> tuple[str, ...]:
        bad = [s for s in stems if not regex.fullmatch(r"[a-z]+", s)]
        if bad:
            raise ValueError(f"drug stems must be lower-case letters: {bad}")
        return stems


class ShorthandEntry(_Frozen):
    """One abbreviation, read as its expansion before matching (``c/o`` -> "complains of")."""

    abbr: str = Field(min_length=1)
    expansion: str = Field(min_length=1)
    meaning: str = Field(min_length=1)
    case_sensitive: bool = True

    @field_validator("abbr")
    @classmethod
    def _compiles(cls, abbr: str) -> str:
        try:
            _compile(_shorthand_pattern(abbr, True))
        except regex.error as error:
            raise ValueError(f"abbreviation {abbr!r} does not compile: {error}") from error
        return abbr


class ShorthandFile(_Frozen):
    """``shorthand.yaml``: clinical abbreviations and their meanings (issue 22)."""

    source: str = Field(min_length=1)
    entries: tuple[ShorthandEntry, ...] = Field(min_length=1)


class NeededItemsFile(_Frozen):
    """``needed_items.yaml``: the items each task class's decision needs, and the immaterial ones (M)."""

    source: str = Field(min_length=1)
    unnamed_absence: Literal["fire", "ignore"] = Field(
        description="What an absence whose item no cue names does with a task class."
    )
    unlisted_item: Literal["fire", "ignore"] = Field(
        description="What an absence of an item neither needed nor immaterial for the class does."
    )
    items: dict[str, tuple[str, ...]] = Field(min_length=1, description="Item -> cues naming it.")
    needed: dict[TaskClassName, tuple[str, ...]]
    immaterial: tuple[str, ...] = Field(min_length=1, description="Immaterial for every class.")
    immaterial_by_class: dict[TaskClassName, tuple[str, ...]] = Field(default_factory=dict)

    @field_validator("items")
    @classmethod
    def _cues(cls, items: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        for name, cues in items.items():
            if not regex.fullmatch(r"[a-z][a-z0-9_]*", name) or not cues:
                raise ValueError(f"item {name!r}: a lower-case name with at least one cue")
            _cues_compile(cues)
        return items

    @model_validator(mode="after")
    def _consistent(self) -> NeededItemsFile:
        missing = [c for c in TASK_CLASSES if c not in self.needed]
        if missing:
            raise ValueError(f"field 'needed': no list for task class(es) {missing}")
        lists = [("immaterial", self.immaterial)]
        lists += [(f"needed.{c}", v) for c, v in self.needed.items()]
        lists += [(f"immaterial_by_class.{c}", v) for c, v in self.immaterial_by_class.items()]
        for where, names in lists:
            unknown = [n for n in names if n not in self.items]
            if unknown:
                raise ValueError(f"field {where!r}: unknown item(s) {unknown} (not a key of 'items')")
        for task_class, names in self.needed.items():
            both = set(names) & (set(self.immaterial) | set(self.immaterial_by_class.get(task_class, ())))
            if both:
                raise ValueError(
                    f"task class {task_class!r}: items both needed and immaterial {sorted(both)}"
                )
        return self


def _shorthand_pattern(abbr: str, case_sensitive: bool) -> str:
    if abbr.startswith("re:"):
        body = abbr[3:]
    else:
        body = regex.escape(abbr)
        body = (r"(?<![\w/])" if abbr[0].isalnum() else "") + body
        body += r"(?![\w/])" if abbr[-1].isalnum() or abbr[-1] == "/" else ""
    return f"(?{'-i' if case_sensitive else 'i'}:{body})"


# ------------------------------------------------------------------------------------------------
# Term compilation
# ------------------------------------------------------------------------------------------------

_SEP = r"[\s\-\"]+"
# issue 22t: a gap never crosses a contrastive conjunction ("wt not in red book but weighed today" is
# not "not .. weighed"): what follows "but"/"however"/"although" is a clause of its own.
# issue 22v: nor a sentence end, a full stop before a capital ("not taking beta-blockers. Record scanned").
# round 38: a gap word may be a bracketed gloss ("green (bilious) vomiting").
# round 42: nor a condition ("told to phone eye casualty same day if pain, worsening vision": the condition's
# findings are not the thing the words before it name).
_GAP = (
    r"[\s,\-\"]+"
    + r"(?:(?!(?:but|however|although|though|whereas|if)\b)"
    + r"(?:\([\w'’/+.%-]+(?:\s[\w'’/+.%-]+){0,2}\)|[\w'’\"/+.%-]+)(?<!\.(?=\s+(?-i:[A-Z])))[\s,\-\"]+){0,"
    + str(GAP_WORDS)
    + "}?"
)


_DROPPED_APOSTROPHE = _compile(r"n't$|^i'(?:m|ve)$|^(?:that|it|he|she|what|there|who)'s$", regex.IGNORECASE)


def _literal(word: str) -> str:
    """The part of a term word every match contains (up to an apostrophe that may be dropped)."""
    word = word.rstrip("*").lower()
    return word.split("'")[0] if _DROPPED_APOSTROPHE.search(word) else word


def _word(token: str) -> str:
    alternatives = []
    for alt in token.split("/"):
        if not alt:
            raise ValueError(f"empty alternative in {token!r}")
        fuzzy = alt.startswith("~")
        alt = alt.lstrip("~")
        stem = alt.endswith("*")
        alt = alt.rstrip("*")
        body = regex.escape(alt)
        if _DROPPED_APOSTROPHE.search(alt):  # issue 22s: lay text drops it ("doesnt", "cant", "im")
            body = _DROPPED_APOSTROPHE.sub(lambda m: m.group().replace("'", "'?"), body)
        if fuzzy:
            if len(alt) < 6:
                raise ValueError(f"fuzzy word {alt!r} is shorter than 6 letters")
            body = f"(?:{body}){{e<=1}}"
        alternatives.append(body + (r"\w*" if stem else ""))
    return "(?:" + "|".join(alternatives) + ")"


def _split(text: str, separator: str | None) -> list[str]:
    """Split at top-level whitespace (``separator=None``) or at a top-level character."""
    parts, buffer, depth = [], "", 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced parentheses in {text!r}")
        is_sep = char.isspace() if separator is None else char == separator
        if is_sep and depth == 0:
            if buffer or separator is not None:
                parts.append(buffer)
            buffer = ""
        else:
            buffer += char
    if depth:
        raise ValueError(f"unbalanced parentheses in {text!r}")
    if buffer or separator is not None:
        parts.append(buffer)
    return parts


def _token(token: str) -> str:
    if token.startswith("(") and token.endswith(")"):
        alternatives = _split(token[1:-1], "|")
        if any(not alt.strip() for alt in alternatives):
            raise ValueError(f"empty alternative in {token!r}")
        return "(?:" + "|".join(_sequence(alt) for alt in alternatives) + ")"
    if "(" in token or ")" in token:
        raise ValueError(f"parentheses must enclose a whole token: {token!r}")
    return _word(token)


def _sequence(term: str) -> str:
    body, gap = "", False
    for token in _split(term, None):
        if token == "..":
            gap = True
            continue
        optional = token.endswith("?") and len(token) > 1
        word = _token(token[:-1] if optional else token)
        if not body:
            if optional:
                raise ValueError(f"first word of {term!r} cannot be optional")
            body = word
        elif optional:
            body += f"(?:{_GAP if gap else _SEP}{word})?"
        else:
            body += (_GAP if gap else _SEP) + word
        gap = False
    if not body:
        raise ValueError("empty term")
    return body


def term_pattern(term: str) -> str:
    """The ``regex`` pattern for one lexicon term (see the module docstring for the syntax)."""
    if term.startswith("re:"):
        return term[3:]
    return rf"(?<![\w]){_sequence(term)}(?![\w])"


_RE_LEADING = _compile(r"\\b([A-Za-z]+)(?=[^A-Za-z]|$)")


def _re_leading_word(pattern: str) -> str | None:
    """issue 22s: the word a raw pattern must start with — ``\\bword…`` with no top-level alternation
    ("\\bstrokes?\\b(?!\\s+nurse)" starts with "stroke"), so raw terms keep the literal prefilter."""
    match = _RE_LEADING.match(pattern)
    if not match:
        return None
    word = match.group(1).lower()
    if pattern[match.end() : match.end() + 1] in ("?", "*", "{"):
        word = word[:-1]  # the last letter is optional
    depth, escaped = 0, False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "|" and depth == 0:
            return None
    return word if len(word) >= 2 else None


def _term_literals(term: str) -> frozenset[str] | None:
    """Words of which a match of ``term`` must contain one (lower case), or None when no such set can
    be read off the term (raw ``re:`` terms, fuzzy or parenthesised words only). Used as a prefilter:
    a concept none of whose literals occurs in the case-folded text cannot match, so its pattern is
    not run (speed, issue 22r; results unchanged)."""
    if term.startswith("re:"):
        word = _re_leading_word(term[3:])
        return frozenset({word}) if word else None
    best: frozenset[str] | None = None
    for token in _split(term, None):
        if token == ".." or (token.endswith("?") and len(token) > 1) or token.startswith("("):
            continue
        alternatives = token.split("/")
        if any(a.startswith("~") or not a.rstrip("*").isascii() or not a.rstrip("*") for a in alternatives):
            continue
        literals = frozenset(_literal(a) for a in alternatives)
        if best is None or min(map(len, literals)) > min(map(len, best)):
            best = literals
    return best


def _first_literals(term: str) -> frozenset[str] | None:
    """The words one of which a match of ``term`` must start with (lower case), or None."""
    if term.startswith("re:"):
        word = _re_leading_word(term[3:])
        return frozenset({word}) if word else None
    tokens = [t for t in _split(term, None) if t != ".."]
    if not tokens:
        return None
    first = tokens[0]
    if first.startswith("(") and first.endswith(")"):  # a multi-word alternation: each one's first word
        found: set[str] = set()
        for alternative in _split(first[1:-1], "|"):
            literals = _first_literals(alternative.strip())
            if literals is None:
                return None
            found |= literals
        return frozenset(found)
    alternatives = first.split("/")
    if any(not a.rstrip("*") or a.startswith("~") or not a.rstrip("*").isascii() for a in alternatives):
        return None
    return frozenset(_literal(a) for a in alternatives)


def _union_or_none(
    terms: Iterable[str], words: Callable[[str], frozenset[str] | None]
) -> tuple[str, ...] | None:
    """The sorted union of ``words(term)`` over the terms, or None as soon as one term has none."""
    found: set[str] = set()
    for term in terms:
        literals = words(term)
        if literals is None:
            return None
        found |= literals
    return tuple(sorted(found))


def concept_starts(terms: Iterable[str]) -> tuple[str, ...] | None:
    """The union of the terms' first words, or None when one term has none (scan the whole text)."""
    return _union_or_none(terms, _first_literals)


def concept_matches(compiled: CompiledConcept, text: str, folded: str | None) -> Iterable[regex.Match]:
    """``compiled.pattern.finditer(text)``, tried only where one of the concept's first words starts
    in the case-folded text (a match can start nowhere else); the same matches, found faster."""
    if compiled.starts is None or folded is None or len(folded) != len(text):
        return compiled.pattern.finditer(text)
    positions: set[int] = set()
    for word in compiled.starts:
        at = folded.find(word)
        while at >= 0:
            positions.add(at)
            at = folded.find(word, at + 1)
    found = []
    resume = 0
    for at in sorted(positions):
        if at < resume:
            continue
        match = compiled.pattern.match(text, at)
        if match is not None:
            found.append(match)
            resume = match.end()
    return found


def concept_literals(terms: Iterable[str]) -> tuple[str, ...] | None:
    """The union of the terms' required words, or None when one term has none (always scan)."""
    return _union_or_none(terms, _term_literals)


# Characters that case-insensitive matching may equate with an ASCII letter although str.casefold
# does not map them to it: a text containing one is never prefiltered.
_FOLD_EXCEPTIONS = frozenset("\u0130\u0131\u017f\u212a")


def may_match(literals: tuple[str, ...] | None, folded: str | None) -> bool:
    """False only when no required word of a concept occurs in the case-folded text."""
    return literals is None or folded is None or any(word in folded for word in literals)


def _alternation(terms: Iterable[str]) -> regex.Pattern:
    """One pattern for many terms; word boundaries are hoisted out of the alternation (speed)."""
    terms = list(terms)
    words = [_sequence(t) for t in terms if not t.startswith("re:")]
    raw = [t[3:] for t in terms if t.startswith("re:")]
    parts = [r"(?<![\w])(?:" + "|".join(words) + r")(?![\w])"] if words else []
    parts += [f"(?:{r})" for r in raw]
    return _compile("|".join(parts), FLAGS)


# ------------------------------------------------------------------------------------------------
# Loading
# ------------------------------------------------------------------------------------------------


def _validate(model: type[BaseModel], path: Path, data: object) -> BaseModel:
    if isinstance(data, dict) and isinstance(data.get("concepts"), list):
        # Validate concept by concept so that the error names the entry.
        for index, item in enumerate(data["concepts"]):
            entry = item.get("id") if isinstance(item, dict) else None
            validated(Concept, item, path, entry=entry or f"concepts[{index}]")
    return validated(model, data, path)


@dataclass(frozen=True)
class CompiledConcept:
    detector: DetectorName
    concept: Concept
    pattern: regex.Pattern
    context: regex.Pattern | None
    system_source: str | None = None
    literals: tuple[str, ...] | None = None  # prefilter: one of these words must occur
    starts: tuple[str, ...] | None = None  # a match starts with one of these words


@dataclass(frozen=True)
class Lexicon:
    """Compiled lexicon: concepts per detector plus the shared context cues."""

    concepts: tuple[CompiledConcept, ...]
    modifiers: ModifierFile
    negation_pre: regex.Pattern = field(repr=False)
    negation_post: regex.Pattern = field(repr=False)
    pseudo_negation: regex.Pattern = field(repr=False)
    hypothetical_pre: regex.Pattern = field(repr=False)
    terminators: regex.Pattern = field(repr=False)
    value_rule: regex.Pattern = field(repr=False)
    value_resolution: regex.Pattern = field(repr=False)
    origins: frozenset[str] = frozenset(ORIGINS)
    attributes: CompiledAttributes | None = field(default=None, repr=False)
    immaterial: regex.Pattern | None = field(default=None, repr=False)
    shorthand: CompiledShorthand | None = field(default=None, repr=False)
    historical_post: regex.Pattern | None = field(default=None, repr=False)
    premodifiers: regex.Pattern | None = field(default=None, repr=False)
    needed: CompiledNeeded | None = field(default=None, repr=False)
    # Per-clause results of the structural conflict detector, keyed by the clause's text (episodes
    # share most clauses across variants and surfaces): a memo, never an input (speed, issue 22r).
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    def restrict(self, origins: Iterable[str]) -> Lexicon:
        """The lexicon without terms/concepts whose origin is not in ``origins`` (held-out views)."""
        keep = frozenset(origins)
        concepts = []
        for compiled in self.concepts:
            concept = compiled.concept
            if concept.origin not in keep:
                continue
            terms = [
                t for t in concept.terms if not isinstance(t, Term) or (t.origin or concept.origin) in keep
            ]
            if terms:
                concepts.append(
                    _compile_concept(compiled.detector, concept, terms, keep, compiled.system_source)
                )
        return Lexicon(
            tuple(concepts),
            self.modifiers,
            self.negation_pre,
            self.negation_post,
            self.pseudo_negation,
            self.hypothetical_pre,
            self.terminators,
            self.value_rule,
            self.value_resolution,
            keep,
            self.attributes if ATTRIBUTE_ORIGIN in keep else None,
            self.immaterial if IMMATERIAL_ORIGIN in keep else None,
            self.shorthand if SHORTHAND_ORIGIN in keep else None,
            self.historical_post if SHORTHAND_ORIGIN in keep else None,
            self.premodifiers if SHORTHAND_ORIGIN in keep else None,
            self.needed if NEEDED_ORIGIN in keep else None,
        )

    def term_sources(self) -> list[dict[str, str | None]]:
        """Every term with the source it was written from (term, concept and body-system source)."""
        return [
            {
                "detector": c.detector,
                "concept": c.concept.id,
                "system": c.concept.system,
                "term": _term_text(t),
                "origin": (t.origin if isinstance(t, Term) else None) or c.concept.origin,
                "source": (t.source if isinstance(t, Term) else None) or c.concept.source,
                "system_source": c.system_source,
            }
            for c in self.concepts
            for t in c.concept.terms
        ]

    def count(self, detector: DetectorName | None = None) -> tuple[int, int]:
        """(concepts, terms) of one detector, or of all."""
        chosen = [c for c in self.concepts if detector in (None, c.detector)]
        return len(chosen), sum(len(c.concept.terms) for c in chosen)


def _term_text(term: str | Term) -> str:
    return term.t if isinstance(term, Term) else term


def _compile_concept(
    detector: DetectorName,
    concept: Concept,
    terms: Iterable[str | Term] | None = None,
    origins: frozenset[str] | None = None,
    system_source: str | None = None,
) -> CompiledConcept:
    chosen = [_term_text(t) for t in (concept.terms if terms is None else terms)]
    context_terms = [
        _term_text(t)
        for t in concept.requires_context
        if origins is None or not isinstance(t, Term) or (t.origin or concept.origin) in origins
    ]
    context = _alternation(context_terms) if context_terms else None
    return CompiledConcept(
        detector,
        concept,
        _alternation(chosen),
        context,
        system_source,
        concept_literals(chosen),
        concept_starts(chosen),
    )


def load_lexicon(directory: Path = LEXICON_DIR) -> Lexicon:
    """Load and compile ``modifiers.yaml`` and every detector file in ``directory``."""
    modifier_path = directory / "modifiers.yaml"
    if not modifier_path.exists():
        raise DataFileError(modifier_path, ["file not found"])
    modifiers = _validate(ModifierFile, modifier_path, read_yaml(modifier_path))
    assert isinstance(modifiers, ModifierFile)
    concepts: list[CompiledConcept] = []
    seen: dict[str, Path] = {}
    immaterial: list[str] = []
    skip = ("modifiers.yaml", ATTRIBUTE_FILE, SHORTHAND_FILE, NEEDED_FILE)
    paths = sorted(p for p in directory.glob("*.yaml") if p.name not in skip)
    if not paths:
        raise DataFileError(directory, ["no lexicon files (*.yaml) found"])
    for path in paths:
        parsed = _validate(LexiconFile, path, read_yaml(path))
        assert isinstance(parsed, LexiconFile)
        immaterial.extend(parsed.immaterial_items)
        for concept in parsed.concepts:
            if concept.id in seen:
                raise DataFileError(
                    path,
                    [f"field 'id': duplicate concept id (also in {seen[concept.id]})"],
                    concept.id,
                )
            seen[concept.id] = path
            system_source = parsed.systems.get(concept.system) if concept.system else None
            concepts.append(_compile_concept(parsed.detector, concept, system_source=system_source))
    attribute_path = directory / ATTRIBUTE_FILE
    attributes = None
    if attribute_path.exists():
        spec = validated(AttributeFile, read_yaml(attribute_path), attribute_path)
        attributes = compile_attributes(spec)
    shorthand_path = directory / SHORTHAND_FILE
    shorthand = None
    if shorthand_path.exists():
        shorthand = compile_shorthand(validated(ShorthandFile, read_yaml(shorthand_path), shorthand_path))
    needed_path = directory / NEEDED_FILE
    needed = None
    if needed_path.exists():
        needed = compile_needed(validated(NeededItemsFile, read_yaml(needed_path), needed_path))
    m = modifiers
    return Lexicon(
        concepts=tuple(concepts),
        modifiers=m,
        negation_pre=_alternation(m.negation_pre),
        negation_post=_alternation(m.negation_post),
        pseudo_negation=_alternation(m.pseudo_negation),
        hypothetical_pre=_alternation(m.hypothetical_pre),
        terminators=_alternation(m.scope_terminators),
        value_rule=_alternation(m.value_rule_words),
        value_resolution=_alternation(m.value_resolution),
        attributes=attributes,
        immaterial=_alternation(immaterial) if immaterial else None,
        shorthand=shorthand,
        historical_post=_optional(m.historical_post),
        premodifiers=_optional(m.negation_post_premodifiers),
        needed=needed,
    )


NEEDED_FILE = "needed_items.yaml"
NEEDED_ORIGIN: Origin = "dev_review"


@dataclass(frozen=True)
class CompiledNeeded:
    spec: NeededItemsFile
    cues: tuple[tuple[str, regex.Pattern], ...]  # item -> one pattern for its cues
    needed: dict[str, frozenset[str]]  # task class -> needed items
    immaterial: dict[str, frozenset[str]]  # task class -> immaterial items (every class's and its own)


def compile_needed(spec: NeededItemsFile) -> CompiledNeeded:
    immaterial = {
        c: frozenset(spec.immaterial) | frozenset(spec.immaterial_by_class.get(c, ())) for c in TASK_CLASSES
    }
    if spec.unlisted_item == "fire":  # every item not immaterial for the class counts as needed
        needed = {c: frozenset(spec.items) - immaterial[c] for c in TASK_CLASSES}
    else:
        needed = {c: frozenset(spec.needed[c]) for c in TASK_CLASSES}
    return CompiledNeeded(
        spec, tuple((name, _alternation(cues)) for name, cues in spec.items.items()), needed, immaterial
    )


SHORTHAND_FILE = "shorthand.yaml"
SHORTHAND_ORIGIN: Origin = "dev_review"


@dataclass(frozen=True)
class CompiledShorthand:
    spec: ShorthandFile
    # the literal abbreviations' alternation first (None when there are none), then one pattern per raw
    # ``re:`` entry with that entry: read together as one alternation in this order (see `matches`)
    literal_pattern: regex.Pattern | None
    raw: tuple[tuple[regex.Pattern, ShorthandEntry], ...]
    literal: dict[str, ShorthandEntry]  # case-sensitive abbreviation -> entry
    literal_folded: dict[str, ShorthandEntry]  # lower-cased abbreviation -> entry (case-insensitive ones)

    def matches(self, text: str) -> list[tuple[regex.Match, ShorthandEntry]]:
        """What one left-to-right alternation of the parts, in order, finds: from each position the
        leftmost start, and there the first part that matches. Each part is scanned on its own
        (overlapped, so that no start is lost) because the raw entries' lookbehinds, tried at every
        position of one big alternation, cost five times as much (issue 22y, benchmarks/detector_speed.py)."""
        found: dict[int, tuple[int, regex.Match, ShorthandEntry]] = {}
        parts: list[tuple[regex.Pattern, ShorthandEntry | None]] = list(self.raw)
        if self.literal_pattern is not None:
            parts.insert(0, (self.literal_pattern, None))
        for order, (pattern, entry) in enumerate(parts):
            for match in pattern.finditer(text, overlapped=True):
                if match.start() not in found:  # an earlier part at the same start wins
                    found[match.start()] = (order, match, entry or self._literal_entry(match))
        out: list[tuple[regex.Match, ShorthandEntry]] = []
        position = 0
        for start in sorted(found):
            if start >= position:
                _, match, entry = found[start]
                out.append((match, entry))
                position = match.end()
        return out

    def _literal_entry(self, match: regex.Match) -> ShorthandEntry:
        text = match.group()
        return self.literal.get(text) or self.literal_folded[text.lower()]


def compile_shorthand(spec: ShorthandFile) -> CompiledShorthand:
    """Literal abbreviations in one alternation behind a hoisted word boundary (fast), longest first;
    raw ``re:`` entries after it, one pattern each."""
    literal = [e for e in spec.entries if not e.abbr.startswith("re:")]
    words = sorted(literal, key=lambda e: -len(e.abbr))
    body = "|".join(f"(?{'-i' if e.case_sensitive else 'i'}:{regex.escape(e.abbr)})" for e in words)
    return CompiledShorthand(
        spec,
        _compile(rf"(?<![\w/])(?:{body})(?![\w/])") if words else None,
        tuple(
            (_compile(_shorthand_pattern(e.abbr, e.case_sensitive)), e)
            for e in spec.entries
            if e.abbr.startswith("re:")
        ),
        {e.abbr: e for e in literal if e.case_sensitive},
        {e.abbr.lower(): e for e in literal if not e.case_sensitive},
    )


@dataclass(frozen=True)
class Expanded:
    """Text with shorthand read as its expansions, and the way back to the caller's offsets."""

    text: str
    starts: tuple[int, ...] | None = None  # original offset of each expanded character
    ends: tuple[int, ...] | None = None  # original end offset of each expanded character

    def original(self, start: int, end: int) -> tuple[int, int]:
        if self.starts is None or self.ends is None:
            return start, end
        if end <= start:
            return self.starts[start], self.starts[start]
        return self.starts[start], self.ends[end - 1]


def expand_shorthand(text: str, shorthand: CompiledShorthand | None) -> Expanded:
    """Replace each abbreviation by its expansion, keeping a map back to the original offsets."""
    if shorthand is None:
        return Expanded(text)
    matches = shorthand.matches(text)
    if not matches:
        return Expanded(text)
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    position = 0
    for match, entry in matches:
        pieces.append(text[position : match.start()])
        starts.extend(range(position, match.start()))
        ends.extend(range(position + 1, match.start() + 1))
        pieces.append(entry.expansion)
        starts.extend([match.start()] * len(entry.expansion))
        ends.extend([match.end()] * len(entry.expansion))
        position = match.end()
    pieces.append(text[position:])
    starts.extend(range(position, len(text) + 1))
    ends.extend(range(position + 1, len(text) + 2))
    return Expanded("".join(pieces), tuple(starts), tuple(ends))


@functools.cache
def default_lexicon() -> Lexicon:
    """The packaged, reviewed lexicon (cached)."""
    return load_lexicon(LEXICON_DIR)


# ------------------------------------------------------------------------------------------------
# Detection
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evidence:
    """One matched span that made a detector fire."""

    detector: DetectorName
    concept: str
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Suppressed:
    """A match discarded by a context rule (kept for auditing)."""

    detector: DetectorName
    concept: str
    text: str
    start: int
    end: int
    reason: str


@dataclass(frozen=True)
class Detection:
    """Detector output for one text: three booleans and the evidence behind them."""

    conflict: bool
    missing: bool
    high_risk: bool
    evidence: tuple[Evidence, ...] = ()
    suppressed: tuple[Suppressed, ...] = ()

    @property
    def flags(self) -> dict[str, bool]:
        return {"conflict": self.conflict, "missing": self.missing, "high_risk": self.high_risk}

    def spans(self, detector: DetectorName) -> list[str]:
        return [e.text for e in self.evidence if e.detector == detector]

    def as_dict(self) -> dict:
        return {
            **self.flags,
            "evidence": [
                {"detector": e.detector, "concept": e.concept, "text": e.text, "start": e.start, "end": e.end}
                for e in self.evidence
            ],
        }


# Sentence ends: '.', '!', '?', ';', a blank line, or a line break before a capital, digit or
# bullet (YAML-wrapped lines continue a sentence when the next line starts in lower case).
# issue 22v: the abbreviation "no." of a record number ("hospital no. n/k") does not end a sentence
# round 72: a form's question and its one-letter answer are one statement ("Triage form: pregnant? N.")
_FORM_ANSWER_AFTER = r"(?!\s*[YN]\b)"
_SENTENCE_END = _compile(
    # round 34: nor a fax number's ("GP fax no. not on file")
    # round 15: nor an estimate's abbreviation ("ambulance est. 45 kg, ED record 68 kg"); round 17: nor
    # "poss." ("pt denies any poss. of pregnancy"); round 35: nor "incl." ("for escalation incl. intubation")
    # round 66: nor a contact number's ("NOK contact no. not on file"), nor the dots of "a.m." and "p.m." ("he
    # took it this a.m. at 08:00")
    r"(?:(?<!\d)\.(?!\d)|\.(?=\s))(?<!\b(?i:hospital|nhs|chi|tel|phone|ref|case|mrn|bed|room|fax|contact)\s+(?i:no)\.)"
    r"(?!(?<=\b(?i:[ap])\.)(?i:m)\.)(?<!\b(?i:[ap])\.(?i:m)\.)"
    r"(?<!\b(?i:est|approx|appx|poss|incl)\.)"
    # round 32: nor a title before a name ("Outside labs from Dr. Patel's office dated 6/3 list a TSH of …")
    r"(?<!\b(?i:dr|mr|mrs|ms|prof)\.)"
    # round 51: nor "d." for "died" after a relative ("FHx: mother d. SAH aged 52 (collapsed at work)")
    r"(?<!\b(?i:father|mother|dad|mum|mom|brother|sister|grandfather|grandmother|uncle|aunt|sibling|parent)\s+(?i:d)\.)"
    r"|[!;]|\?" + _FORM_ANSWER_AFTER + r"|\n\s*\n|\n(?=[ \t]*(?:[A-Z0-9\-•*\[(\"]|$))"
)
_NUMBER = _compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?:\s*(?P<sep>/|-|–|to)\s*(?P<second>\d+(?:\.\d+)?))?")
# A number followed by a time or dose unit is a schedule or a dose, not a measured value.
_NOT_A_MEASUREMENT = _compile(
    r"\s*(?:,\d{3}\b|(?:mg|mcg|µg|g|meq|mmol|units?|tablets?|tabs?|capsules?|caps?|ml|puffs?|doses?|pills?)"
    r"\b(?!\s*/)|(?:sec|seconds?|min|mins|minutes?|h|hrs?(?!\s*:?\s*\d)|hours?|days?|weeks?|wks?|months?"
    r"|years?|yrs?|am|pm|times?|x)\b)",
    regex.IGNORECASE,
)
_TIMEPOINT_VALUE = _compile(
    r"(?<![\w.])\d+\s*(?:h|hrs?|hours?)\b[\s:=]*(?P<v>\d+(?:\.\d+)?)(?![\d.]*\s*(?:h|hrs?|hours?)\b)", FLAGS
)
_VALUE_GAP = 60
# round 56: a second reading of a pair of values right after the first ("BP 152/98 then 164/106 on repeat")
_LATER_READING = _compile(
    r"\s*(?:,\s*|\s+and\s+)?(?:then|later|repeat(?:ed)?|on\s+repeat|rechecked(?:\s+at)?)\s+(?P<high>\d{2,3})\s*/\s*(?P<low>\d{2,3})\b",
    FLAGS,
)
_VALUE_LEAD_WORDS = 6
# round 31: a number rung or dialled is a phone number ("a fever and shivers I should ring 111")
_PHONED = _compile(r"\b(?:ring|call|dial|phone|rang|called|dialled|dialed|text)\s*$", FLAGS)
POST_WINDOW_WORDS = 8
# round 64: a grade or score in brackets after a finding counts no words of the window after it ("breathless
# on the stairs (NYHA 2) unchanged over her last three clinic visits")
_SCORE_ASIDE = _compile(r"\(\s*(?:[a-z]{2,6}\s*)?(?:grade\s*)?\d{1,2}(?:/\d{1,2})?\s*\)", FLAGS)


def strip_headers_keep_offsets(text: str) -> str:
    """``render.strip_headers`` with each header blanked to spaces, so offsets stay valid."""
    return HEADER_LINE.sub(lambda m: " " * len(m.group()), text)


def _normalize(text: str) -> str:
    """Same-length normalization so evidence offsets index the caller's text."""
    return text.translate(_SAME_LENGTH)


# round 15: and the minus sign ("O−" is group O RhD negative)
_SAME_LENGTH = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "−": "-"})


def _clause(text: str, start: int, end: int, lexicon: Lexicon) -> tuple[str, str]:
    """Text of the match's clause before and after it (sentence cut at scope terminators)."""
    sentence_start = 0
    for match in _SENTENCE_END.finditer(text, 0, start):
        sentence_start = match.end()
    after = _SENTENCE_END.search(text, end)
    sentence_end = after.start() if after else len(text)
    before = text[sentence_start:start]
    terms = list(lexicon.terminators.finditer(before))
    if terms:
        before = before[terms[-1].end() :]
    following = text[end:sentence_end]
    stop = lexicon.terminators.search(following)
    if stop:
        following = following[: stop.start()]
    return before, following


def _last_words(text: str, count: int) -> str:
    words = text.split()
    return " ".join(words[-count:]) if words else ""


def _first_words(text: str, count: int) -> str:
    return " ".join(text.split()[:count])


# issue 22t: a condition ("if", "unless", "should") reaches over a coordinated list of findings up to
# its consequence ("if the rash stops blanching, he becomes floppy, or he vomits green, she should call
# 999"), not only the 14 words before a match; the consequence starts at a comma followed by an
# action or a subject with a modal verb.
# issue 22v: "grateful if", "wonder if" open a polite request, not a condition
_CONDITION = _compile(
    r"\b(?:if|unless|should\s+(?:he|she|they|you|the\s+\w+))\b"
    r"(?<!\b(?:grateful|glad|appreciate|appreciated|wonder|wondered|wondering|happy|pleased|thankful)\s+"
    r"(?:it\s+)?if)",
    FLAGS,
)
_CONSEQUENCE = _compile(
    r"(?:,|\bthen\b)\s*(?:then\s+)?(?:(?:you|we|she|he|they|i|mum|dad|parents?|carers?)\s+"
    r"(?:should|must|need\s+to|needs\s+to|will|would|can|are\s+to|is\s+to)\b|(?:please\s+)?"
    r"(?:call|ring|dial|go|come|seek|return|bring|attend|phone)\b)",
    FLAGS,
)
_CONDITION_WORDS = 45
# issue 22t: an episode the text later says the patient recovered from ("back to his normal self",
# "recovered fully within a minute") is resolved, within a few sentences of the finding.
_RECOVERED_AFTER = _compile(
    r"\bback\s+to\s+(?:(?:his|her|their|my|your)\s+)?(?:normal|usual)(?:\s+self)?\b"
    # round 25: "today he's back to himself running around"
    r"|\bback\s+to\s+(?:himself|herself|themselves|myself)\b"
    # round 53: or "been completely herself since" ("a febrile fit on sunday …, and shes been completely
    # herself since")
    r"|\b(?:been|is|was)\s+(?:completely\s+|totally\s+|entirely\s+|just\s+)?(?:himself|herself|themselves|myself)"
    r"\s+(?:ever\s+)?since\b"
    # round 79: or "today" ("a febrile seizure last night, … sent us home, hes been totally himself today")
    r"|\bbeen\s+(?:completely\s+|totally\s+|entirely\s+)(?:himself|herself|themselves|myself)\s+(?:today|all\s+day)\b"
    r"|\b(?:fully|completely)\s+recovered\b|\brecovered\s+(?:fully|completely)\b"
    # round 54: or resolved the same way ("… on 9 May lasted about 15 minutes and resolved completely")
    r"|\bresolved\s+(?:completely|fully|entirely)\b"
    # round 32: "cauda equina decompression 2016 with full recovery"
    r"|\b(?:with|made)\s+(?:a\s+)?(?:full|complete)\s+recovery\b"
    # round 46: "drowsiness and confusion after the midazolam … have fully worn off"
    r"|\b(?:has|have|had)\s+(?:now\s+)?(?:fully|completely)\s+(?:worn\s+off|resolved)\b"
    # round 50: or without the auxiliary ("numbness after the spinal fully worn off by 05:00")
    r"|\b(?:fully|completely)\s+worn\s+off\b"
    # round 37: or listed after it ("cauda equina syndrome 2018, decompressed L5/S1, full recovery"); an
    # episode treated and "now settled" ("wheezy and SOB at 0100, salbutamol neb x1, now settled, SpO2 97%")
    r"|[,;]\s*(?:full|complete)\s+recovery\b|\bnow\s+(?:fully\s+|completely\s+)?settled\b"
    # issue 22v: "it has totally gone now", "has been completely fine since"
    r"|\b(?:totally|completely|fully|entirely)\s+(?:gone|settled|resolved)\b"
    r"|\b(?:been|was|is|are|were)\s+(?:completely|totally|perfectly|absolutely)\s+(?:fine|well)\s+"
    r"(?:ever\s+)?since\b"
    # round 28: "CP at 0200 eased after GTN x1, pain free since 0215"
    r"|(?<!\bnot\s|n't\s)\b(?:pain|symptom|cp)[\s-]*free\s+(?:ever\s+)?(?:since|for|now)\b"
    # round 81: or none of it had since ("the CT and lumbar puncture were both clear and I havent had any
    # headache since")
    r"|\b(?:have|has|had)(?:n'?t|\s+not)\s+had\s+(?:any|another)\s+(?:more\s+|further\s+)?(?:[a-z-]+\s+){0,2}?"
    r"[a-z-]+\s+(?:ever\s+)?since\b"
    # round 82: or "have gone since" ("the dark thoughts … that I told you about in january have gone since
    # the sertraline kicked in")
    r"|\b(?:have|has)\s+(?:now\s+)?gone\s+(?:away\s+)?since\b"
    # round 34: an ideation said resolved ("on 1:1 for suicidal ideation at admission; …, ideation resolved")
    r"|\b(?:ideation|si)\s+(?:has\s+|had\s+)?(?:now\s+)?(?:fully\s+)?resolved\b"
    # round 39: thoughts settled on review ("passive SI at 20:00 …; seen by psych liaison 23:00 - thoughts
    # settled"); reduced fetal movements followed by good movements felt (RCOG GTG 57: reassuring CTG and
    # movements, home)
    r"|\b(?:thoughts|urges|ideation)\s+(?:have\s+|had\s+)?(?:now\s+)?settled\b"
    r"|\b(?:good|normal)\s+(?:fetal\s+)?movements\s+(?:now\s+)?(?:felt|returned|since|resumed)\b"
    # round 42: a child back to baseline after a seizure ("simple febrile convulsion …; now fully back to
    # baseline")
    r"|(?<!\bnot\s(?:yet\s)?|n't\s(?:yet\s)?|\bnever\s)\b(?:fully\s+|completely\s+)?back\s+to\s+"
    r"(?:(?:his|her|their|my)\s+)?baseline\b"
    # round 52: a single episode, none since ("a simple febrile seizure at nursery 5 days ago (1 min); since
    # then afebrile and well, no further seizures")
    r"|\bsince\s+then\b[^.;\n]{0,60}?\bno\s+(?:further|more|new|other)\s+(?:episodes?|seizures?|fits?|convulsions?"
    r"|attacks?|events?)\b"
    # round 57: or "never had another … since" ("One febrile seizure at 14 months, has never had another
    # seizure since", "has never had a fit since"); the writer "breathing fine all day" after an attack ("the
    # tight breathless episode last night eased after my inhaler and I have been breathing fine all day")
    r"|\b(?:has|have|had)\s+never\s+had\s+(?:(?:another|one|any)(?:\s+(?:more\s+)?(?:episodes?|seizures?|fits?"
    r"|convulsions?|attacks?))?|an?\s+(?:episode|seizure|fit|convulsion|attack))\s+(?:ever\s+)?since\b"
    r"|\b(?:been|is|was|are|were)\s+breathing\s+(?:normally|fine|ok|okay|well|easily)\s+(?:all\s+day|ever\s+since"
    r"|since|now)\b",
    FLAGS,
)
_RECOVERED_REACH = 250
# round 51: the finding the subject of "has resolved" in its own sentence, no comma between ("passive SI
# noted at the clinic visit a month ago has since resolved"); not "has not resolved"
# round 52: or "now resolved" without the auxiliary ("RIF pain on arrival now resolved, eating and drinking")
# round 57: or "settled within" a stated time ("The crushing chest pain that brought him in on 2 May settled
# within an hour"), the words between too many for the post-negation window; not one that has not
_OWN_VERB_RESOLVED = _compile(
    r"[^.;!?\n,]{0,80}?\b(?:(?:(?:has|have)\s+(?:since\s+|now\s+)?|now\s+(?:fully\s+|completely\s+)?)resolved\b"
    r"|\bsettled(?<!\bnot\s+settled|n't\s+settled|\bnever\s+settled)\s+(?:within|in|after)\s+(?:about\s+|around\s+)?"
    r"(?:an?|one|two|three|\d+|a\s+few)\s+(?:minutes?|mins?|hours?|hrs?|h)\b"
    # round 61: or "went away", a relative clause between ("that blotchy red rash my daughter had with the
    # penicillin on saturday went away once we stopped it"), not to come back
    r"|\bwent\s+away\b(?![^.;\n]{0,40}?\b(?:but|then|until|again)\b))"
    # round 81: or its next word, a comma and "now resolved" ("admitted 2/52 ago w/ suicidal ideation, now
    # resolved per psych review today")
    r"|(?:\s+[a-z]+)?\s*,\s*now\s+(?:fully\s+|completely\s+)?resolved\b",
    FLAGS,
)
# round 61: the finding's head noun named again later in its sentence, then resolved ("urinary retention and
# low back pain; scan showed no compression and the retention settled once the catheter came out"); not one
# "not resolved" or "resolving"
_NAMED_AGAIN_REACH = 120
_HEAD_WORD = _compile(r"[a-z]{5,}$", FLAGS)
_FULL_STOP = _compile(r"[.!?](?=\s|$)|\n", FLAGS)
_RESOLVED_AFTER_NOUN = (
    r"\s+(?:has\s+|had\s+|now\s+|since\s+)?(?:fully\s+|completely\s+)?(?:resolved|settled)\b"
)


def _named_again_resolved(text: str, start: int, end: int) -> bool:
    """Whether the finding's last word (five letters or more) is named again within reach, before the
    sentence ends, and said resolved there."""
    head = _HEAD_WORD.search(text, start, end)
    if head is None:
        return False
    # a semicolon does not end the sentence ("retention; … retention resolved")
    sentence_end = _FULL_STOP.search(text, end)
    reach = min(sentence_end.start() if sentence_end else len(text), end + _NAMED_AGAIN_REACH)
    after = text[end:reach]
    folded = after.casefold()
    if "resolved" not in folded and "settled" not in folded:
        return False
    return regex.search(rf"\b{regex.escape(head.group())}{_RESOLVED_AFTER_NOUN}", after, FLAGS) is not None


# round 65: a finding whose onset is given as the single-sample rule-out needs it ("onset >3 h before
# sampling") after a result said below the rule-out threshold ("hs-cTnT 4 ng/L, below the 5 ng/L rule-out
# cut-off; pain onset over 3 h before sampling"; ESC 2020 NSTE-ACS 0 h rule-out): the test has ruled it out
_ONSET_BEFORE_SAMPLING_AFTER = _compile(
    r"\s*(?:onset|started|began)\b[^.;\n]{0,24}?\bbefore\s+(?:sampling|(?:the\s+)?(?:first\s+)?(?:sample|draw|blood\s+test|troponin))\b",
    FLAGS,
)
_BELOW_RULE_OUT_BEFORE = _compile(r"\bbelow\s+(?:the\s+)?[^.;\n]{0,40}?\brule[\s-]?out\b", FLAGS)
_BELOW_RULE_OUT_REACH = 200
# round 65: a finding at arrival, then "now no" finding further on, in the same or a later sentence ("wheeze
# and recession at triage; after three nebs, now no recession"): it was treated and has gone
_AT_ARRIVAL_AFTER = _compile(
    r"[^.;\n]{0,30}?\b(?:on\s+arrival|at\s+triage|at\s+presentation|on\s+presentation|initially|on\s+admission)\b",
    FLAGS,
)
_GONE_NOW_REACH = 200


def _arrival_finding_gone_now(text: str, start: int, end: int) -> bool:
    """Whether a finding seen at arrival (its last word, five letters or more) is said "now no …" within
    reach."""
    head = _HEAD_WORD.search(text, start, end)
    if head is None or _AT_ARRIVAL_AFTER.match(text, end) is None:
        return False
    after = text[end : end + _GONE_NOW_REACH]
    pattern = rf"\bnow\s+(?:no|nil)\s+(?:[\w-]+\s+){{0,2}}?{regex.escape(head.group())}\b"
    return regex.search(pattern, after, FLAGS) is not None


# round 65: reduced fetal movements, then movements felt again further on ("RFM since last night; on the
# monitor baby moving, FM felt x8 by mum"): RCOG GTG 57 sends her home with a normal CTG once movements are
# felt; not movements "not felt" or still "reduced"
_REDUCED_MOVEMENTS = _compile(r"\b(?:fm|rfm|(?:fetal|foetal|baby'?s?)\s+movements?|movements?)\b", FLAGS)
_MOVEMENTS_FELT_AFTER = _compile(
    r"(?<!\b(?:no|not|nil|reduced|less|fewer)\s)(?<!\b(?:fetal|foetal)\s)\b(?:fm|(?:fetal|foetal)\s+movements|movements)"
    r"\s+(?:now\s+|then\s+)?"
    r"(?:felt|palpated|present)\b(?!\s+(?:less|reduced|fewer|only\s+once))"
    # round 82: or movements that "have since returned" ("the CTG was reactive and she reports movements have
    # since returned to her usual pattern")
    r"|(?<!\b(?:no|not|nil|reduced|less|fewer)\s)\bmovements\s+(?:have|has)\s+(?:since\s+|now\s+)?"
    r"(?:returned|resumed|normali[sz]ed)\b",
    FLAGS,
)
_MOVEMENTS_FELT_REACH = 160
# round 54: or weeks or more ago, then "now resolved" after a comma ("B: passive SI last month, now resolved
# on mirtazapine", the finding's own noun may end it first); not an episode of today or yesterday, which still
# counts when settled
# round 56: or three words, the units shortened, and "now (consistently) denies" ("Thoughts of suicide after
# her bereavement 2 mths ago, now consistently denies")
_WEEKS_AGO_THEN_RESOLVED = _compile(
    r"(?:\s+[a-z-]+){0,3}?\s*(?:last\s+(?:week|month|year)|(?:\d+|a|one|two|three|four|several)\s+"
    r"(?:weeks?|wks?|months?|mths?|years?|yrs?)\s+ago)"
    r"\s*,?\s*now\s+(?:(?:fully\s+|completely\s+)?resolved|(?:consistently\s+|repeatedly\s+|firmly\s+)?denies)\b",
    FLAGS,
)
# round 65: or weeks ago and seen about it since ("word-finding difficulty 2/52 ago - assessed in TIA clinic
# the following day"): the episode had its assessment; not one that has come back or is worse now
_WEEKS_AGO_THEN_SEEN = _compile(
    r"(?:\s+[\w+&/-]+){0,4}?\s*(?:(?:\d+|a|one|two|three|four|five|six|several)\s+(?:weeks?|wks?|months?|mths?)\s+ago"
    r"|\d+/52\s+ago)\s*[;,.-]?\s*(?:and\s+|was\s+|then\s+)?(?:seen|assessed|reviewed|investigated)\s+(?:in|at|by)\b"
    r"(?![^.!?\n]{0,160}?\b(?:again|recur\w*|returned|came\s+back|back\s+again|worse\w*|another|new|now)\b)",
    FLAGS,
)
# round 45: the finding named as what a clinic or review comes after ("dispensed post-TIA clinic", "at the
# post-stroke review"): the event is past and the visit is the subject (not "day 7 post-tonsillectomy,
# spitting fresh blood")
_POST_EVENT_BEFORE = _compile(r"\bpost-\s*$", FLAGS)
_VISIT_AFTER = _compile(r"\s*(?:clinic|review|follow[\s-]?up|rehab(?:ilitation)?|appointment|visit)\b", FLAGS)
# round 42: a finding queried ("for ?thunderclap headache") and the work-up later in its sentence negative
# ("CT head and LP negative"): the query was answered, it is not a finding present
_QUERY_MARK_BEFORE = _compile(r"\?\s*$", FLAGS)
_WORKUP_NEGATIVE = _compile(
    r"\b(?:ct|ctpa|mri|lp|cxr|x-?ray|scan|ultrasound|uss|ecg|bloods?|troponins?|d-?dimer)\b[^.;\n]{0,40}?"
    r"\b(?:negative|neg|normal|unremarkable|clear)\b|\b(?:ruled|rules)\s+out\b|\bexcluded\b"
    # round 45: or an examination that answers it ("called re ?SOB — on review … chest clear")
    r"|\bchest\s+(?:is\s+|was\s+)?clear\b",
    FLAGS,
)
# a test named on its own, then "for" (rounds 41 and 42 read a query after it)
_TEST_FOR = r"\b(?:abg|vbg|cxr|x-?ray|ct|ctpa|mri|scan|ecg|echo|bloods?)\b[^()\n.;?]{0,30}?\bfor\s+"
# round 42: a test done for a finding named as a query after it ("ABG on room air for breathlessness query")
_TEST_FOR_BEFORE = _compile(_TEST_FOR + "$", FLAGS)
_QUERY_AFTER = _compile(r"\s+query\b", FLAGS)
# round 29: a finding named in brackets as a test's indication ("ABG on room air (requested for
# breathlessness): pH 7.41 …", "MRI whole spine (for back pain, ?cord compression): no cord compression") is
# why the test was done, not a finding reported; the result beside it says what was found
_TEST_INDICATION = _compile(
    r"\b(?:mri|ct|ctpa|cta|abg|vbg|x-?ray|cxr|uss|ultrasound|scan|echo(?:cardiogram)?|ecg|bloods?|angiogram)\b"
    r"[^()\n.;]{0,40}\(\s*(?:(?:requested|done|sent|ordered|performed|taken)\s+)?(?:for|\?)\s*"
    r"(?:[\w'/-]+[\s,]*){0,5}?\??$"
    # round 40: or a sample sent for a query right before the finding ("Sample sent for ?breathlessness")
    r"|\b(?:samples?|bloods?|specimens?|abg|vbg|gas|swabs?|cultures?|x-?ray|cxr|ct|scan)\b[^()\n.;?]{0,30}?"
    r"\b(?:sent|requested|ordered|done|taken|booked)\s+for\s+\?\s*$"
    # round 41: or a test named on its own for the query ("ABG on room air for ?breathlessness")
    r"|" + _TEST_FOR + r"\?\s*$"
    # round 53: or a sentence opened by the request, the test named in the sentence before ("Blood gas on air:
    # pH 7.39 … . Requested for ?breathlessness, all within range")
    r"|(?:^|[.;]\s+)(?:requested|sent|ordered|done|taken|booked)\s+for\s+\?\s*$"
    # round 59: or under the request's reason heading ("Clinical details: ?breathlessness. Gas on air: …")
    r"|(?:^|[.;]\s+)(?:request|referral|clinical)\s+(?:reason|details|indication|question)\s*[:\-–—]\s*\?\s*$",
    FLAGS,
)
_TEST_INDICATION_REACH = 120
# round 60: a counselled list of what to seek help for, the finding further on in it than the hypothetical
# cue's window of words reaches ("counselled to seek urgent medical help for black stools, coughing or
# vomiting blood, a severe headache or any bleeding that won't stop"): advice given to someone, or opened
# after a colon ("counselling given: seek urgent help for …"); not someone who came "to seek help for" it
_ADVICE_LIST_BEFORE = _compile(
    r"(?:\b(?:counsel\w*|advised|advice|instructed|reminded|safety[\s-]*net\w*)\b[^.;:\n]{0,30}?\bto\s+|:\s*)"
    r"(?:seek|get)\s+(?:(?:urgent|immediate|emergency|prompt|medical)\s+)*(?:help|care|attention|advice|review)\s+"
    r"(?:for|if)\b[^.;:!?\n]*$",
    FLAGS,
)


def _last_condition(scope: str) -> regex.Match | None:
    matches = list(_CONDITION.finditer(scope))
    return matches[-1] if matches else None


def _after_consequence(before: str) -> str:
    """The words after a closed condition's consequence ("if in doubt, ring us, he is fitting": "he is
    fitting"), or all of ``before`` when no condition was closed in it."""
    last = _last_condition(before)
    closed = _CONSEQUENCE.search(before, last.end()) if last is not None else None
    return before[closed.end() :] if closed else before


def _in_condition(clause_before: str) -> bool:
    """Whether a match sits inside an open condition (after "if …", before its consequence)."""
    scope = _last_words(clause_before, _CONDITION_WORDS)
    last = _last_condition(scope)
    return last is not None and not _CONSEQUENCE.search(scope, last.end())


# issue 22v: an absence marker's negation is read in its own segment of a list: "no ReSPECT form,
# escalation not discussed, DNACPR status unknown" -- the "no" of the first item does not negate the
# third; a spaced dash or a comma starts a segment ("no relatives present, old notes not yet available").
# round 26: and an opening bracket ("no directions on the script (frequency blank)"), or "and" before a new
# subject ("no TEP or DNACPR form enclosed and her resuscitation status is unknown")
# round 35: or "and" right before the marker ("we never talked about it and nothing's written down")
_SEGMENT_BREAK = _compile(r",\s|\s[-–—]\s|:\s|\s\(|\sand\s+(?=(?:her|his|their|the|my|our|its)\s|$)", FLAGS)


# round 62: an aside closed in brackets before the finding keeps its history to itself ("Pt on methadone (h/o
# IVDU) has new back pain and a fever of 38.7 today"): its cue does not reach the finding after it
_CLOSED_ASIDE = _compile(r"\([^()\n]*\)", FLAGS)


# round 26: a finding word with the prefix "non-" is negated ("rash non-petechial"); a term that itself begins
# "non-" ("non-blanching") is matched whole, so its own prefix is not before it
_NON_PREFIX = _compile(r"\bnon[-\s]$", FLAGS)
# Month names (the date readings of the conflict detector and the time frame of H findings use them).
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
# each month's full name in calendar order, but May, which is also a word ("she may …")
_FULL_MONTH_NAMES = tuple(
    max((name for name, number in _MONTHS.items() if number == month), key=len)
    for month in range(1, 13)
    if month != _MONTHS["may"]
)
# issue 22u: upper-case "MAR" is the medication administration record ("Wt on MAR 9 st"), not March
_MONTH = r"(?-i:(?!MAR\b))(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
# round 26: a bare year, not the end of a full date ("2023 admission", not "12/05/2023")
_YEAR = r"(?<![\d/.-])\b(?:19|20)\d\d\b(?![-/.]\d)"
# round 26: the sentence's time frame. A finding's sentence opened by a past year ("In 2018 he had cauda
# equina syndrome … with urinary retention"), or holding a past time anchor before it while the text later
# states the patient well now ("laparotomy 2016 … after 2 days of severe abdo pain. A: today abdo SNT";
# "admitted in March with pneumococcal sepsis; she is well today"), reports an earlier episode. The ConText
# window of 14 words cannot see a frame set at the head of a long sentence; a scope terminator ("now", "but")
# still ends it, as ``clause_before`` is cut there. "yesterday" and "this morning" are no anchor: a recent
# episode now settled is still a red flag (chest pain yesterday, pain-free now).
_SENTENCE_OPENS_IN_PAST = _compile(
    r"^\W*(?:[A-Z]{1,4}\s*:\s*)?(?:(?:in|during|back\s+in)\s+(?:early\s+|late\s+|mid-?)?"
    r"(?:" + _MONTH + r"\s+)?(?:19|20)\d\d\b(?![-/.]\d)"
    # round 63: or in the writer's or the patient's youth ("When I was twelve I had bacterial meningitis
    # with a stiff neck and a rash")
    r"|(?:back\s+)?when\s+(?:i|he|she|they|we)\s+(?:was|were)\s+(?:a\s+(?:child|baby|toddler|teenager|teen|kid)"
    r"|(?:very\s+)?(?:little|young|small)|\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|thirteen|fourteen|fifteen|sixteen|seventeen)\b(?!\s+(?:weeks?|days?)\b)"
    # round 73: or "as a neonate" ("As a neonate he had bilious vomiting from malrotation, corrected
    # surgically at 5 days old; he is now 3 years old")
    r"|as\s+an?\s+(?:neonate|newborn|new-born|infant|baby|toddler|child))",
    FLAGS,
)
# round 65: a finding that a past year names, with at most three words between ("residual left hemianopia from
# a 2018 right PCA stroke"): the event is that year's
_YEAR_NAMES_FINDING = _compile(
    r"(?:\b(?:from|following|after|post|since|with|a|an|his|her|their|prior|previous|prev|old|known)\s+|[:;,(]\s*|^\s*)"
    + _YEAR
    + r"\s+(?:[\w-]+\s+){0,3}$",
    FLAGS,
)
_PAST_ANCHOR = _compile(
    r"(?<!\bsince\s)" + _YEAR + r"|\bin\s+" + _MONTH + r"\b(?!\s+\d{1,2}\b)"
    # round 34: or weeks ago (the anchor counts only with the patient stated well now)
    r"|\b(?:\d+|a|one|two|three|four|five|six|several|many)\s+(?:years?|yrs?|months?|weeks?|wks?)\s+ago\b"
    # round 37: or days ago, two or more ("admitted 5 days ago after SI with plan; today consistently denies
    # SI")
    r"|\b(?:[2-9]|1\d|two|three|four|five|six|several)\s+days\s+ago\b"
    # round 64: or in the chart's shorthand of days and weeks ("admitted 4/7 ago after an overdose")
    r"|\b(?:[2-6]/7|\d{1,2}/52)\s+ago\b"
    r"|\bas\s+a\s+(?:child|teenager|baby)\b|\bat\s+the\s+time\b(?!\s+of\b)"
    # round 35: or the age it happened at ("a single simple febrile convulsion at 18 months …; he is now 6
    # years old, has had no further seizures")
    r"|\bat\s+(?:the\s+age\s+of\s+)?\d{1,2}\s+(?:months?|years?)\b"
    # round 38: or the admission it brought the patient in for ("admitted with sepsis from pyelonephritis, now
    # afebrile 48 h, lactate 0.9")
    r"|\badmitted\s+(?:\w+\s+){0,2}?(?:with|for)\b",
    FLAGS,
)
# round 49: the relative clause that gives a past event's presentation ("…, which presented with …")
_PRESENTED_RELATIVE = _compile(r"^\s*(?:had\s+)?(?:presented|presenting)\s+(?:with|w/)\s", FLAGS)
# round 26: the finding's word naming a threshold or criterion ("urine PCR 18 mg/mmol (pre-eclampsia threshold
# 30 mg/mmol)"), unless the finding is itself the comparison ("above the exchange-transfusion threshold")
# round 52: or a flag or trigger with its comparator ("VBG lactate 1.1 mmol/L (sepsis flag >2)")
_NAMES_A_THRESHOLD = _compile(
    r"^\W*(?:threshold|cut-?off|criteria|criterion)\b"
    # round 54: or a concern level ("lactate 1.1 mmol/L (ref 0.5-2.0; sepsis concern >=2.0)")
    r"|^\s*(?:flag|trigger|alert|concern)\s*(?:if\s+|at\s+)?(?:[<>≥≤]|>=|<=)",
    FLAGS,
)
_COMPARATIVE = _compile(
    r"(?:above|over|exceed\w*|below|under|beyond|greater|higher|lower|more|less)\b", FLAGS
)
_WELL_NOW = _compile(
    r"\b(?:made\s+an?\s+)?(?:full|complete|good)\s+recovery\b"  # round 44: "made a good recovery"
    r"|\b(?:today|now|currently|at\s+present)\b[^.;\n]{0,60}?\b(?:well|normal|intact|asymptomatic|snt"
    r"|(?:symptom|pain|headache)[\s-]?free)\b"
    # round 43: or none of the system's symptoms now ("laparotomy 2015 for … peritonitis. Now in for
    # elective R TKR, no abdominal symptoms")
    r"|\b(?:today|now|currently)\b[^.;\n]{0,60}?\bno\s+(?:\w+\s+)?symptoms\b"
    r"|\b(?:well|asymptomatic|(?:symptom|pain|headache)[\s-]?free|snt)\b[^.;\n]{0,30}?\btoday\b"
    # round 53: or an abdomen examined benign ("In this time for a hip fracture, abdo benign on exam")
    r"|\babdo(?:men|minal)?\s+(?:is\s+)?(?:soft\s+(?:and\s+)?)?benign\b"
    # round 27: well ever since ("she has remained well since with no further pain", "no further events")
    r"|\b(?:remained|remains|been|kept)\s+(?:entirely\s+|completely\s+|perfectly\s+)?well\b"
    r"|\b(?:has\s+had\s+)?no\s+further\s+(?:pain|episodes?|events?|attacks?|seizures?|fits?|bleeding|symptoms)\b"
    # round 49: or doing something normally, values between ("Today glucose 6.4 mmol/L, ketones 0.1, eating
    # normally")
    r"|\b(?:today|now|currently)\b(?:[^.;\n]|\.\d){0,60}?\b(?:eating|drinking|feeding|behaving)\s+normally\b"
    # round 49: or none of it since ("STEMI 2016 (presented w/ crushing chest pain), stented, no angina
    # since")
    r"|\bno\s+(?:\w+\s+){1,2}?since\b(?!\s+(?:yesterday|this|last|\d))"
    # round 37: an ideation denied today ("today consistently denies SI/intent"; NICE NG225: reassessed);
    # round 59: or none of it now ("Admitted three days ago for suicidal thoughts, currently no suicidal
    # ideation")
    r"|\b(?:today|now|currently)\b[^.;\n]{0,20}?\b(?:den(?:ies|ying)\s+(?:any\s+)?|no\s+(?:further\s+|more\s+)?)"
    r"(?:si\b|suicidal|thoughts)"
    # round 38: fever gone for a stated time ("now afebrile 48 h"; NICE NG51: review for oral switch)
    r"|\bnow\s+(?:apyrexial|afebrile)\s+(?:for\s+)?(?:>\s*|over\s+)?\d+\s*(?:h|hrs?|hours|days?)\b"
    # round 34: pain-free ever since ("Since discharge he has been completely pain-free")
    r"|\b(?:been|remained|remains|stayed)\s+(?:entirely\s+|completely\s+|totally\s+)?(?:symptom|pain|headache)"
    r"[\s-]?free\b",
    FLAGS,
)


# round 27: the text seen weeks or more after the episode ("seen today six weeks later he is well"); not hours
_WEEKS_LATER = _compile(
    r"\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|several|many|a\s+few)\s+"
    r"(?:weeks?|wks?|months?|years?|yrs?)\s+(?:later|on)\b",
    FLAGS,
)


# round 35: the age the episode happened at, right after the finding ("a single simple febrile convulsion at
# 18 months during a viral illness; he is now 6 years old, has had no further seizures")
_AGE_AFTER = _compile(
    r"\s*(?:[\w-]+\s+){0,2}?at\s+(?:the\s+age\s+of\s+)?\d{1,2}\s+(?:months?|years?)\b", FLAGS
)


# round 30: a list of warning signs that "should prompt immediate attendance" (safety-netting advice)
# round 37: or that "means" going to A&E ("numbness down below or trouble peeing with back pain means go to
# a&e straight away")
# round 57: or "would need" urgent review ("any black stools or vomiting blood would need same-day review")
_PROMPTS_AFTER = _compile(
    r"[^.;\n]{0,120}?\b(?:(?:should|must|would|will)\s+prompt"
    r"|would\s+(?:need|require|warrant|mean)\s+(?:an?\s+)?(?:same[\s-]day|urgent|immediate|emergency|prompt)\s+"
    r"(?:review|assessment|attendance|attention|admission|care|referral)\b"
    r"|means?\s+(?:(?:you|i|we|she|he|they)\s+(?:should|must|need\s+to|have\s+to)\s+)?"
    r"(?:go|call|ring|dial|come|attend|seek)\b(?!\s+(?:back|home)\b))",
    FLAGS,
)


# round 34: a finding said unchanged in the relative clause after it ("breathless after 50 yards, which is
# unchanged over his last three reviews"), which the scope terminator "which" cuts from the words read after
# the finding; not unchanged despite or after treatment
# round 61: or after a comma, unchanged over the last year or years ("breathlessness climbing one flight of
# stairs with a rest halfway, unchanged over the past two years")
_UNCHANGED_AFTER = _compile(
    r"[^.;\n]{0,40}?(?:,?\s*\b(?:which|that)\s+(?:is|has\s+been|remains|was)\s+(?:unchanged\b"
    r"(?!\s+(?:despite|after|with|following|since\s+(?:the\s+)?(?:gtn|nitrate|treatment)))"
    # round 38: or the patient's baseline ("breathless on dressing, which is her long-standing baseline")
    r"|(?:(?:her|his|their)\s+)?(?:(?:usual|normal|known|chronic|stable|long-?standing)\s+)*baseline\b"
    r"|(?:her|his|their)\s+usual\b(?!\s+(?:self|place|doctor|gp|dose|time)\b))"
    r"|[^.;\n]{0,20}?,\s*unchanged\s+(?:over|for|in)\s+(?:the\s+)?(?:last|past)\s+(?:(?:few|two|three|\d+)\s+)?(?:years?|months)\b"
    # round 71: or "for years", shortened ("occasional streak of bright red blood on paper, unchanged for
    # yrs")
    r"|[^.;\n]{0,20}?,\s*unchanged\s+for\s+(?:many\s+|several\s+)?(?:years|yrs)\b)",
    FLAGS,
)
# round 73: a finding said to be no worse than usual ("saturations 89–90% on air at baseline; unchanged today,
# with no increase in breathlessness or sputum"): its baseline level; not "no change in", which an ongoing
# finding keeps ("no change in chest pain after GTN")
_NO_WORSE_BEFORE = _compile(
    r"\bno\s+(?:increase|worsening|deterioration)\s+in\s+(?:(?:his|her|their|my|the)\s+)?(?:usual\s+)?$",
    FLAGS,
)
# round 72: or as the patient has been for years ("he remains breathless after about 50 metres (MRC 4), as he
# has been for two years, with resting SpO2 89-91% on air, his known baseline")
_LONGSTANDING_AFTER = _compile(
    r"[^.;\n]{0,40}?,\s*as\s+(?:he|she|they|i)\s+(?:has|have|had)\s+been\s+for\s+(?:(?:the\s+)?(?:last|past)\s+)?"
    r"(?:many|several|two|three|four|five|ten|\d+)\s+(?:years|yrs|months)\b"
    # round 80: or "same as the last 2 years" past the words the post-cues read ("get breathless walking to
    # the mailbox, same as the last 2 years, nothing new"); without "the" it is round 55's post-cue
    r"|[^.;\n]{0,40}?,\s*same\s+as\s+the\s+(?:last|past)\s+(?:many|several|few|two|three|four|five|ten|\d+)\s+"
    r"(?:years|yrs|months)\b",
    FLAGS,
)
# round 72: what a clinician explained to a child's parents or carers would need care ("I explained to his
# parents that a rash that does not fade under a glass, grunting breathing, or a temperature of 38 C or more
# in a baby under three months all need immediate attendance"): teaching, its sentence closing on what they
# need
_TAUGHT_BEFORE = _compile(
    r"\b(?:explained|taught|went\s+through|discussed|reminded)\s+(?:with\s+|to\s+)?(?:the\s+|his\s+|her\s+|their\s+)?"
    r"(?:parents?|mum|mother|dad|father|carers?|family)\s+(?:that|how|what)\b[^.;\n]*$",
    FLAGS,
)
_NEEDS_CARE_CLOSE = _compile(
    r"[^.;\n]*\b(?:all\s+|each\s+)?(?:need|needs|require|requires|warrant|warrants|mean|means)\s+(?:an?\s+)?"
    r"(?:immediate|urgent|emergency|same[\s-]day)\b",
    FLAGS,
)
# round 38: a writer who asks whether they themselves should be checked ("my brother just had a heart attack
# at 45, he had chest pain at work and collapsed. should I get my cholesterol checked?"; "my mum has glaucoma
# and lost the sight in one eye from it, should I get my eyes checked?"): the relative's findings in that
# sentence are family history, the question is the writer's own screening
_WRITERS_RELATIVE = _compile(
    r"\bmy\s+(?:late\s+|older\s+|younger\s+|big\s+|little\s+|twin\s+)?(?:father|mother|dad|mum|mom|brother|sister"
    r"|grandfather|grandmother|grandad|grandma|nan|uncle|aunt|cousin|parents?|siblings?)\b",
    FLAGS,
)
# round 62: a relative who died of it is named in a clinician's words too ("Her uncle, a smoker with
# hypertension, died aged 58 of …"), or opening a clause ("aortic screening offered; brother, who had Marfan
# syndrome, died aged 39 of …")
_RELATIVE_NAMED = _compile(
    rf"{_WRITERS_RELATIVE.pattern}"
    r"|\b(?:her|his|their|(?:the\s+)?(?:pt|patient)'?s)\s+(?:late\s+)?(?:father|mother|dad|mum|mom|brother|sister"
    r"|grandfather|grandmother|uncle|aunt|cousin)\b"
    r"|(?:^\W*|[:;]\s*)(?:late\s+)?(?:father|mother|brother|sister)\b",
    FLAGS,
)
_SELF_CHECK_QUESTION = _compile(
    r"\b(?:should|do|must|can|could)\s+i\s+(?:(?:also|still|now|too)\s+)?(?:get|have|be|need\s+to\s+(?:get|have|be))"
    r"\s+(?:(?:my|me|myself)\b[^.?!\n]{0,30}?\s+)?(?:checked|tested|screened|seen)\b"
    r"|\bam\s+i\s+(?:also\s+)?at\s+(?:a\s+)?(?:higher\s+|more\s+|increased\s+)?risk\b"
    # round 50: or whether there is a test the writer should have ("is there a scan that i should have?")
    r"|\bis\s+there\s+(?:a|any)\s+(?:scan|test|check|screening|blood\s+test)\s+(?:that\s+)?i\s+(?:should|need\s+to|ought\s+to)\b"
    # round 45: or asks for it ("so i'd like my cholesterol checked")
    r"|\bi'?d\s+like\s+(?:to\s+(?:get|have)\s+)?(?:my|me|myself)\b[^.?!\n]{0,30}?\s+(?:checked|tested|screened)\b"
    # round 76: or wants it ("my dad died of a heart attack at 52, … so im worried and want my cholesterol
    # checked")
    r"|\b(?:want|wanted)\s+(?:to\s+(?:get|have)\s+)?(?:my|me|myself)\b[^.?!\n]{0,30}?\s+"
    r"(?:checked|tested|screened)\b"
    # round 40: or worried about the writer's own ("my mum … lost the sight in one eye from glaucoma and im
    # worried about mine")
    r"|\bworried\s+about\s+(?:mine|my\s+own)\b"
    # round 71: or whether the writer can be scanned or needs extra checks, or is worried it will happen to
    # them ("my mum had a brain aneurysm burst … can i get scanned for one?"; "my sister had a fit from
    # eclampsia … Im worried it will happen to me … do I need extra checks?")
    r"|\b(?:can|could|should)\s+i\s+(?:also\s+)?(?:get|be|have)\s+(?:a\s+)?scann?(?:ed)?\b"
    r"|\bdo\s+i\s+need\s+(?:any\s+)?(?:extra|more|special|further)\s+(?:checks|tests|monitoring|scans)\b"
    r"|\bworried\s+(?:that\s+)?it\s+(?:will|might|could)\s+happen\s+to\s+me\b"
    # round 73: or whether it is genetic, or says the writer has not yet started the drug that caused it ("my
    # sister was rushed in with appendicitis …, is it catching or genetic?"; "my brother got stevens johnson
    # syndrome from carbamazepine … i haven't started the tablets yet")
    r"|\bis\s+(?:it|this|that)\s+(?:(?:catching|contagious|infectious)\s+or\s+)?(?:genetic|hereditary|inherited)\b"
    r"|\bi\s+(?:haven'?t|havent|have\s+not)\s+(?:started|taken)\s+(?:the|them|it|my)\b"
    # round 69: or says the writer's own was checked ("my mum got rushed in with a potassium of 7.1 …, mine
    # was checked yesterday and came back 4.6")
    r"|\b(?:mine|my\s+own)\s+(?:was|were|got|has\s+been|have\s+been)\s+(?:also\s+)?(?:checked|tested|done|measured)\b"
    # round 60: or whether it runs in families ("my mum has heart failure and gets really breathless at night,
    # does it run in families?")
    r"|\b(?:does|do|can|could|would|will)\s+(?:that|it|this|these|they)\s+run\s+in\s+(?:the\s+)?famil(?:y|ies)\b"
    # round 65: or whether the condition named is "something that runs in families" ("is gout a thing that
    # runs in the family?")
    r"|\b(?:is|are)\s+(?:[\w-]+\s+){1,3}?(?:something|a\s+thing|a\s+condition|the\s+(?:sort|kind)\s+of\s+thing)"
    r"\s+(?:that\s+|which\s+)?runs?\s+in\s+(?:the\s+)?famil(?:y|ies)\b"
    # round 58: or whether it means the writer will get it ("does that mean i will get it too?")
    r"|\b(?:does|do|will|would|could)\s+(?:that|this|it)\s+mean\s+(?:that\s+)?i(?:'ll|\s+will|\s+would|'d)?\s+"
    r"(?:get|have|develop|inherit)\b",
    FLAGS,
)


def _relatives_finding(text: str, start: int) -> bool:
    """round 38: the writer's relative named in the finding's sentence, and the writer asking about their own
    (``_SELF_CHECK_QUESTION``); round 69: a measured value too ("my mum got rushed in last week with a
    potassium of 7.1 …, mine was checked yesterday and came back 4.6")."""
    return bool(_WRITERS_RELATIVE.search(_sentence_before(text, start)) and _SELF_CHECK_QUESTION.search(text))


# round 57: or the relative then died of it ("my mum got chest pain while gardening and died of a heart attack
# at 58"): one who died is not the patient; "and died" with no subject of its own (not "and her brother died
# …"), and the cause of death after "died of" ("… died of a heart attack")
_AND_DIED_AFTER = _compile(
    r"[^.;!?\n]{0,80}?\band\s+(?:later\s+|then\s+|sadly\s+)?(?:died|passed\s+away)\b", FLAGS
)
# round 62: or with the age at death between, and what went before the cause ("Her uncle … died aged 58 of a
# subarachnoid haemorrhage following a thunderclap headache")
_DIED_OF_BEFORE = _compile(
    r"(?<!\b(?:nearly|almost)\s)\b(?:died|passed\s+away)\s+(?:aged\s+\d{1,3}\s+)?(?:of|from|after)\s+"
    r"(?:an?\s+|the\s+)?(?:(?:massive|sudden|big|huge)\s+)?"
    r"(?:[\w-]+\s+){0,4}?(?:(?:after|following)\s+(?:an?\s+|the\s+)?)?$",
    FLAGS,
)
_DIED_OF_REACH = 80
# round 38: the finding word as the name of a chronic functional scale ("MRC dyspnoea grade 4"): the grade
# records the patient's usual level, not a new finding
_SCALE_BEFORE = _compile(r"\b(?:m?mrc|nyha)\s+$", FLAGS)
_SCALE_AFTER = _compile(r"\s*(?:scale\s+|score\s+)?(?:grade|class|scale|score)\b", FLAGS)


# round 34: the writer's relative who "has had" the finding for some time now is the patient ("my dad has had
# a tight pain in the middle of his chest for about an hour now"), not family history
_WRITERS_RELATIVE_HAS_HAD = _compile(r"^(?:my|our)\s+\w+\s+(?:has|have)\s+had$", FLAGS)
_ONGOING_AFTER = _compile(
    r"[^.;!?\n]{0,60}?\b(?:for\s+(?:about\s+|around\s+|over\s+|the\s+(?:last|past)\s+)?(?:an?|\d+|one|two|three|few)"
    r"\s+(?:mins?|minutes?|hours?|hrs?)\b|since\s+(?:this\s+morning|lunch|breakfast|last\s+night|\d)|still\s+there)",
    FLAGS,
)


# round 37: the writer says the words were a joke ("when I wrote 'I could kill myself' about forgetting my
# daughter's school play I was joking!!"), not followed by "but"
# round 65: or a clinician who found it was a joke, past a semicolon ("'I'll top myself' per wife; on asking,
# it was a joke about his golf")
# round 78: a relative's own condition by the possessive right before the finding ("my brother's aortic
# aneurysm"), told as the story of how it burst or ruptured ("ruptured and the first sign was back pain"), the
# relative's alone (``_context_reason``)
_RELATIVES_OWN_BEFORE = _compile(
    r"\b(?:my|his|her|their)\s+(?:late\s+)?(?:father|mother|dad|mum|mom|brother|sister|grandfather|grandmother"
    r"|grandad|grandma|uncle|aunt)(?:'s|’s)\s+(?:[\w-]+\s+){0,2}$",
    FLAGS,
)
_BURST_AFTER = _compile(
    r"\s+(?:had\s+)?(?:burst|ruptured)\s+and\s+(?:the\s+)?(?:first|only|main|earliest)\s+"
    r"(?:sign|symptom|thing|warning)\b",
    FLAGS,
)
_JOKING_AFTER = _compile(
    r"(?:[^.;\n]{0,80}?\b(?:was|i'?m|am|only|just)\s+(?:only\s+|just\s+)?joking"
    r"|[^.\n]{0,80}?\b(?:it|this|that)\s+was\s+(?:only\s+|just\s+)?(?:a\s+joke|in\s+jest))\b(?![^.;\n]{0,20}?\bbut\b)",
    FLAGS,
)


def _past_frame(text: str, clause_before: str, end: int, start: int) -> bool:
    """Whether the finding's sentence sets a past time frame (see ``_SENTENCE_OPENS_IN_PAST``)."""
    if _SENTENCE_OPENS_IN_PAST.search(clause_before):
        return True
    # round 49: a relative clause about a past event reads that event's anchor ("a cholecystectomy in 2018 for
    # gallstone pancreatitis, which presented with severe abdominal pain"), which the terminator "which" cuts
    antecedent = ""
    if _PRESENTED_RELATIVE.match(clause_before):
        sentence = _sentence_before(text, start)
        antecedent = sentence[: len(sentence) - len(clause_before)]
    anchored = (
        _PAST_ANCHOR.search(clause_before) is not None
        or _PAST_ANCHOR.search(antecedent) is not None
        or _WEEKS_LATER.search(text, end) is not None
        or _AGE_AFTER.match(text, end) is not None
    )
    return anchored and _WELL_NOW.search(text, end) is not None


# round 51: an event named as the point a state is measured from ("his speech and grip are as they have been
# since the stroke"): that event is past; not one of today ("since the seizure this morning") nor an onset
# ("since the chest pain started")
_SINCE_THE_EVENT = _compile(r"\bsince\s+(?:the|his|her|their|my|that)\s+(?:[\w-]+\s+){0,2}$", FLAGS)
_EVENT_NOT_PAST_AFTER = _compile(
    r"\s*,?\s*(?:this\s+(?:morning|afternoon|evening)|today|tonight|last\s+night|yesterday|earlier"
    r"|(?:an?|\d+|one|two|three|few)\s+(?:mins?|minutes?|hours?|hrs?|h)\b"
    r"|(?:started|began|begun|came\s+on|kicked\s+in|(?:has|have|had)\s+(?:started|begun|come\s+on))\b)",
    FLAGS,
)
# round 51: a relative's treatment days ago ("my mum had her chemo on monday and tonight she has a temperature
# of 38.2"): the relative is the patient, under treatment now
_TREATMENT_WORD = _compile(
    r"(?:chemo\w*|radiotherapy|immunotherapy|infusion|transfusion|operation|surgery|op)\b", FLAGS
)
_WRITERS_RELATIVE_HAD = _compile(r"^(?:my|our)\s+\w+\s+had$", FLAGS)
_DAYS_AGO_AFTER = _compile(
    r"[^.;!?\n]{0,30}?\b(?:(?:on|last)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|yesterday|this\s+week"
    r"|(?:\d|one|two|three|four|five|six|seven|ten|a\s+few)\s+days?\s+ago)\b",
    FLAGS,
)


def _relative_treated_days_ago(cue: str, text: str, start: int, end: int) -> bool:
    """A cue "my <relative> had" before a treatment given days ago (round 51)."""
    return (
        _WRITERS_RELATIVE_HAD.search(cue) is not None
        and _TREATMENT_WORD.match(text, start) is not None
        and _DAYS_AGO_AFTER.match(text, end) is not None
    )


def _context_reason(
    text: str, start: int, end: int, lexicon: Lexicon, hypothetical: bool = True, segment: bool = False
) -> str | None:
    """Why a match does not count (negated, hypothetical/historical, resolved), or None. ``segment``
    (absence markers): pre-negation is read only in the marker's own comma or dash segment."""
    before, following = _clause(text, start, end, lexicon)
    clause_before = before
    if hypothetical and _NON_PREFIX.search(text, max(0, start - 4), start):
        return "negated"
    if hypothetical and _past_frame(text, clause_before, end, start):
        return "historical"
    if hypothetical and _SINCE_THE_EVENT.search(clause_before) and not _EVENT_NOT_PAST_AFTER.match(text, end):
        return "historical"
    if hypothetical and _YEAR_NAMES_FINDING.search(clause_before):
        return "historical"
    if hypothetical and _TEST_INDICATION.search(text, max(0, start - _TEST_INDICATION_REACH), start):
        return "hypothetical"
    if (
        hypothetical
        and _TEST_FOR_BEFORE.search(text, max(0, start - _TEST_INDICATION_REACH), start)
        and _QUERY_AFTER.match(text, end)
    ):
        return "hypothetical"
    if _QUERY_MARK_BEFORE.search(text, max(0, start - 2), start) and _WORKUP_NEGATIVE.search(
        _sentence_after(text, end)
    ):
        return "negated"
    if hypothetical and _NAMES_A_THRESHOLD.match(following) and not _COMPARATIVE.match(text, start, end):
        return "hypothetical"
    if segment:
        breaks = list(_SEGMENT_BREAK.finditer(before))
        before = before[breaks[-1].end() :] if breaks else before
    before = lexicon.pseudo_negation.sub(" ", _last_words(before, 14))
    if lexicon.negation_pre.search(before):
        return "negated"
    if hypothetical and any(
        not (_WRITERS_RELATIVE_HAS_HAD.search(cue.group()) and _ONGOING_AFTER.match(text, end))
        and not _relative_treated_days_ago(cue.group(), text, start, end)
        for cue in lexicon.hypothetical_pre.finditer(_CLOSED_ASIDE.sub(" ", _after_consequence(before)))
    ):
        return "hypothetical"
    if hypothetical and _in_condition(clause_before):
        return "hypothetical"
    if hypothetical and _ADVICE_LIST_BEFORE.search(clause_before):
        return "hypothetical"
    if hypothetical and _PROMPTS_AFTER.match(text, end):
        return "hypothetical"
    if hypothetical and _JOKING_AFTER.match(text, end):
        return "hypothetical"
    if hypothetical and _RELATIVES_OWN_BEFORE.search(clause_before) and _BURST_AFTER.match(text, end):
        return "hypothetical"  # round 78: a relative's condition that burst (family history)
    if hypothetical and _UNCHANGED_AFTER.match(text, end):
        return "historical"
    if hypothetical and _LONGSTANDING_AFTER.match(text, end):
        return "historical"
    if hypothetical and _NO_WORSE_BEFORE.search(clause_before):
        return "historical"
    if hypothetical and _TAUGHT_BEFORE.search(clause_before) and _NEEDS_CARE_CLOSE.match(text, end):
        return "hypothetical"
    if (
        hypothetical
        and _POST_EVENT_BEFORE.search(text, max(0, start - 8), start)
        and _VISIT_AFTER.match(text, end)
    ):
        return "historical"
    if (
        hypothetical
        and _SCALE_AFTER.match(text, end)
        and _SCALE_BEFORE.search(text, max(0, start - 12), start)
    ):
        return "historical"
    if hypothetical and (
        _relatives_finding(text, start)
        or (
            _RELATIVE_NAMED.search(_sentence_before(text, start))
            and (
                _AND_DIED_AFTER.match(text, end)
                or _DIED_OF_BEFORE.search(text, max(0, start - _DIED_OF_REACH), start)
            )
        )
    ):
        return "hypothetical"
    window = _first_words(_SCORE_ASIDE.sub(" ", following), POST_WINDOW_WORDS)
    if hypothetical and lexicon.historical_post is not None and lexicon.historical_post.search(window):
        return "historical"
    if hypothetical and _RECOVERED_AFTER.search(text, end, min(len(text), end + _RECOVERED_REACH)):
        return "resolved"
    if hypothetical and (_OWN_VERB_RESOLVED.match(text, end) or _WEEKS_AGO_THEN_RESOLVED.match(text, end)):
        return "resolved"
    if hypothetical and _named_again_resolved(text, start, end):
        return "resolved"
    if hypothetical and _WEEKS_AGO_THEN_SEEN.match(text, end):
        return "historical"
    if _ONSET_BEFORE_SAMPLING_AFTER.match(text, end) and _BELOW_RULE_OUT_BEFORE.search(
        text, max(0, start - _BELOW_RULE_OUT_REACH), start
    ):
        return "negated"
    if hypothetical and _arrival_finding_gone_now(text, start, end):
        return "resolved"
    if (
        hypothetical
        and _REDUCED_MOVEMENTS.search(text, start, end)
        and _MOVEMENTS_FELT_AFTER.search(text, end, min(len(text), end + _MOVEMENTS_FELT_REACH))
    ):
        return "resolved"
    for cue in lexicon.negation_post.finditer(window):
        premodifier = lexicon.premodifiers is not None and lexicon.premodifiers.fullmatch(cue.group())
        if premodifier and _PREMODIFIED_NOUN.match(window, cue.end()):
            continue  # "absent cremasteric reflex": the cue belongs to the next noun
        if _own_subject(window[: cue.start()]):
            continue  # "…, cremasteric reflex absent": the cue belongs to the noun before it
        return "resolved"
    return None


_FUNCTION_WORDS = frozenset(
    [
        "now",
        "since",
        "which",
        "that",
        "has",
        "have",
        "had",
        "was",
        "were",
        "is",
        "are",
        "been",
        "being",
        "fully",
        "completely",
        "then",
        "all",
        "it",
        "they",
        "and",
        "since",
        "also",
        "largely",
        "mostly",
        "entirely",
        "symptoms",
        "symptom",
        "pain",
    ]
)


def _own_subject(before_cue: str) -> bool:
    """True when the comma segment right before a post-negation cue names a subject of its own (two
    or more content words: "…, cremasteric reflex absent"), so the cue is not about the finding."""
    if "," not in before_cue:
        return False
    segment = before_cue.rsplit(",", 1)[1]
    words = [w for w in regex.findall(r"[A-Za-z][\w'-]*", segment) if w.lower() not in _FUNCTION_WORDS]
    return len(words) >= 2


# A word after an adjectival post-negation cue that makes it a pre-modifier of another noun.
_PREMODIFIED_NOUN = _compile(
    r"[ \t]+(?!(?:on|in|at|for|to|since|now|today|throughout|bilaterally|and|or|but|x)\b)[a-z]", FLAGS
)


def _immaterial(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """An absence about an administrative field (pharmacy, phone, work note…): not a needed item."""
    if lexicon.immaterial is None:
        return False
    before, _ = _clause(text, start, end, lexicon)
    return lexicon.immaterial.search(_last_words(before, 10)) is not None


def _object_immaterial(text: str, end: int, lexicon: Lexicon) -> bool:
    """round 27: the marker's object, right after it, is an administrative field ("can't remember which
    chemist I put down", "don't know my NHS number"), whatever clinical words stand before the marker."""
    if lexicon.immaterial is None:
        return False
    stop = _OBJECT_END.search(text, end)
    return (
        lexicon.immaterial.search(text, end, min(stop.start() if stop else len(text), end + 40)) is not None
    )


# round 54: a stop or end date absent from a course stated as long-term before it ("warfarin is long-term,
# with no planned stop date"): the course has no end, nothing is missing (round 51's entry reads the same
# after it)
_NO_END_DATE = _compile(r"\b(?:stop|end|finish)\s+date\b", FLAGS)
_OPEN_ENDED_BEFORE = _compile(
    r"\b(?:long[\s-]?term|lifelong|life-long|indefinite(?:ly)?|for\s+life)\b[^.;\n]{0,40}$", FLAGS
)


def _missing_reason(
    text: str, start: int, end: int, lexicon: Lexicon, task_class: TaskClassName | None
) -> str | None:
    """Why an absence marker does not fire M (an immaterial or not-needed item), or None.

    The class-free administrative-field check comes first; with a task class, the needed-items
    verdict then decides (an absence whose item no cue names falls back to the class-free reading)."""
    if _NOT_FOR_RESUSCITATION.match(text, start, end):
        return "a ceiling-of-care decision"
    if _NEGATIVE_ALLERGY.match(text, end) and not _ABOUT_TOPIC_END.search(text, start, end):
        return "negative finding (no allergies)"
    if _ALLERGIES_ANSWERED.search(text, max(0, start - 40), start) and _NONE_OF_THEM.match(text, end):
        return "negative finding (no allergies)"
    if _NO_ITEM_PROBLEM.match(text, start, end):
        return "present (no problem with it)"
    if _NO_DNR.match(text, start, end) and _FULL_CODE.search(text):
        return "present (full code stated)"
    if (
        _immaterial(text, start, end, lexicon) or _object_immaterial(text, end, lexicon)
    ) and not _names_needed_item(text, start, end, lexicon):
        return "immaterial item"
    if _SELF_NEGATED.search(text, max(0, start - 20), end):
        return "negated"
    # round 30: "not patient-reported" names the source; "no other indication" is a negative
    if _NOT_THAT_SOURCE.match(text, start, end) or _NO_OTHER.match(text, start, end):
        return "negated"
    if text[start : start + 3].lower() == "no " and _NONE_OUTSTANDING_AFTER.match(text, end):
        return "negated"
    if text[start:end].lower().endswith("weight") and _WEIGHT_FINDING_AFTER.match(text, end):
        return "negative finding (no weight loss)"
    # issue 22x: an absence inside an open condition of its own list segment ("if allergy status unknown,
    # do not give …", "if you are not sure of his weight, bring him in") states a rule for that case, not
    # that the item is absent ("review if deteriorates - code status unknown": the dash ends the condition)
    if _in_condition(_SEGMENT_BREAK.split(_clause(text, start, end, lexicon)[0])[-1]):
        return "conditional"
    if _PRIOR_ABSENCE.search(text, max(0, start - 40), start) and _NOW_RESOLVED.match(text[end : end + 80]):
        return "resolved"
    if _LATER_SUPPLIED.match(text[end : end + 160]) or _LATER_SUPPLIED.match(text[start : end + 160]):
        return "resolved"  # after the marker, or inside a marker that reads on past a comma
    if _SUPPLIED_ELSEWHERE.match(text[end : end + 100]):
        return "supplied elsewhere"
    if _NO_END_DATE.search(text, start, end) and _OPEN_ENDED_BEFORE.search(text, max(0, start - 60), start):
        return "a course with no end"
    if task_class is not None and lexicon.needed is not None:
        verdict = _needed_verdict(text, start, end, lexicon, lexicon.needed, task_class)
        if verdict != UNNAMED:
            return verdict
        if lexicon.needed.spec.unnamed_absence == "ignore":
            return f"no item needed for {task_class} named"
    return None


# issue 22v: "not for CPR / resuscitation / escalation" records a decision (ReSPECT, DNACPR), not an absence
_NOT_FOR_RESUSCITATION = _compile(
    r"not\s+for\s+(?:cpr|resus\w*|escalation|icu|itu|intubation|ventilation|ceiling)\b", FLAGS
)
# round 37: no DNR order on file for a patient whose full-code status the text states ("Full code - confirmed
# w/ pt today, no DNR on file"): the code status is documented, the absent form is consistent with it
_NO_DNR = _compile(
    r"(?:no|nil)\s+(?:(?:signed|valid|active)\s+)?(?:dnr|dnacpr|dnar|do\s+not\s+resuscitate|polst|molst)\b",
    FLAGS,
)
# round 61: or "for full active treatment" ("Escalation plan: for full active treatment, CPR appropriate;
# there is no DNACPR decision")
_FULL_CODE = _compile(
    r"(?<!\bnot\s)(?<!\?)\b(?:full\s+code|full\s+resus(?:citation)?|for\s+(?:full\s+)?(?:cpr|resus(?:citation)?)"
    r"|for\s+full\s+(?:active\s+treatment|escalation))\b(?!\s*\?)",
    FLAGS,
)
# round 60: an item said to have no problem ("No route confusion on the prescription"): it is there
_NO_ITEM_PROBLEM = _compile(
    r"no\s+(?:dose|duration|strength|frequency|route|indication|taper)\s+(?:ambiguity|confusion|discrepanc(?:y|ies)"
    r"|issues?|concerns?|problems?|errors?|quer(?:y|ies))\b",
    FLAGS,
)
# round 60: a marker that ends on its topic ("says nothing about any allergies") names what is absent; the
# allergies after it are no negative finding
_ABOUT_TOPIC_END = _compile(r"\b(?:about|regarding|re|on)\s*$", FLAGS)
# issue 22v: a person who "doesn't have any allergies" / "has no known allergies" states the allergy
# status (negative), unless the words after it say a record lacks it ("… allergies recorded")
_NEGATIVE_ALLERGY = _compile(
    r"\s+(?:any\s+)?(?:known\s+)?(?:drug\s+|medication\s+|medicine\s+|food\s+)?allerg(?:y|ies)\b"
    r"(?!\s+(?:\w+\s+){0,2}?(?:recorded|documented|listed|stated|on\s+(?:file|record|the)|noted|entered)\b)"
    # round 41: nor an allergy history or status the writer does not hold ("we do not hold any allergy
    # history")
    r"(?!\s+(?:history|status|information|info|details|records?)\b)",
    FLAGS,
)
# round 65: or a person who "doesn't have any" right after the allergies are named ("you asked about
# allergies, i dont have any"): "any" closes the phrase, it is not "any of the letters"
_ALLERGIES_ANSWERED = _compile(r"\ballerg(?:y|ies)\s*[,:\u2013\u2014-]\s*(?:i|we|he|she|they)\s+$", FLAGS)
_NONE_OF_THEM = _compile(r"\s+any\b(?!\s*[\w(])", FLAGS)


# The marker's object ends at punctuation or at a preposition of place ("unreadable on the faxed copy":
# the copy is where, not what)
_OBJECT_END = _compile(r"[,;:.!?()\[\]\n]|\s[-–—]\s|\s(?:in|on|at|from|within|into)\s", FLAGS)


def _names_needed_item(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """issue 22v: the marker, or its object up to the next punctuation, names a clinical item itself
    ("no obs yet", "nobody said how many days"): an administrative word earlier in the clause ("carer
    phone call only, no obs yet"; "the dentist gave me …") is not what is absent."""
    needed = lexicon.needed
    if needed is None:
        return False
    stop = _OBJECT_END.search(text, end)
    span = text[start : stop.start() if stop else len(text)]
    immaterial = frozenset(needed.spec.immaterial)
    return any(name not in immaterial and pattern.search(span) for name, pattern in needed.cues)


UNNAMED = "unnamed"
_WORD = _compile(r"\S+")
_COORDINATED = _compile(r"[\s,/&+]*(?:(?:and|or|nor)\s+)?(?:the\s+|their\s+|his\s+|her\s+)?", FLAGS)
# issue 22v: the particle of "filled in / fill in" is not a place ("never filled in a DNACPR form")
_LOCATIVE = _compile(
    r"(?<!\bfill(?:ed|s|ing)?\s+)\b(?:in|on|from|within|into|at)\s+(?:(?:the|her|his|their|this|our|a|an)\s+)?$",
    FLAGS,
)
# issue 22s: an absence stated as past and then resolved ("previously not documented, now confirmed";
# "initially unidentified - now ID'd by wife")
_PRIOR_ABSENCE = _compile(
    r"\b(?:previously|initially|originally|earlier|at first|formerly)\W+(?:\w+\W+)?$", FLAGS
)
_NOW_RESOLVED = _compile(
    r"^[^.;\n]{0,20}?\b(?:now|since|subsequently|later)\b\W+(?:\w+\W+){0,2}?(?:confirmed|id'?d|identified|documented|"
    r"recorded|received|available|known|found|located|matched|traced|obtained|clarified|resulted|back)\b",
    FLAGS,
)
# issue 22z: an absence that a later part of the sentence says was filled since ("weight missing on
# arrival, now weighed 4.1 kg"; "allergies unknown at triage - since confirmed by daughter"; "dose unknown
# on arrival, but dtr has since brought the pen"; "not recorded on arrival; this was discussed with her")
_SUPPLIED_VERB = (
    r"(?:confirm\w*|identified|id'?d|documented|recorded|received|available|known|found|located|matched"
    r"|obtained|clarified|resulted|back|weighed|brought|charted|discussed|completed|signed)\b"
    # round 60: not a patient who is back ("Obs not done at triage as pt went outside, now back c/o chest
    # pain")
    r"(?!(?<=\bback)\s+(?:c/o|complain\w*|from|to\s+(?:the\s+)?(?:ward|bay|department|ed|a&e|triage|clinic|reception)))"
)
_LATER_SUPPLIED = _compile(
    r"^[^.?!\n]{0,60}?(?:[,;]|\s[-–—]\s|\bbut\b)\s*[^.;?!\n]{0,40}?"
    rf"(?:\b(?:now|since|subsequently|later)\b[\s,:]+(?:[\w'-]+[\s,]+){{0,3}}?{_SUPPLIED_VERB}"
    rf"|\b(?:this|it|that)\s+(?:was|has\s+been|have\s+been)\s+(?:since\s+)?{_SUPPLIED_VERB})"
    rf"|^\s*(?:\w+\s+){{0,2}}now\s+{_SUPPLIED_VERB}",
    FLAGS,
)
# issue 22t: an item absent from one document and supplied by another in the same sentence ("the
# indication, not stated on the prescription, is given in the covering letter as AF")
_SUPPLIED_ELSEWHERE = _compile(
    r"^[^.;\n]{0,50}?\b(?:is|are|was|were|but)\s+(?:(?:now|already|clearly)\s+)?(?:given|documented|recorded|"
    r"stated|listed|provided|written)\s+(?:in|on)\s+(?:the|her|his|their|a|an)\b",
    FLAGS,
)
# issue 22s: an absence word negated inside its own match ("4 of 4 pages received, none missing")
# round 30: a value's source ruled out ("weight 72 kg (bed scales, measured, not patient-reported)")
_NOT_THAT_SOURCE = _compile(r"not\s+(?:patient|self|parent|carer|family)[\s-]+reported\b", FLAGS)
# round 30: none other than the one stated ("Indication: non-valvular AF. There is no other indication")
_NO_OTHER = _compile(r"(?:there\s+(?:is|are|was|were)\s+)?no\s+other\b", FLAGS)
_SELF_NEGATED = _compile(
    # round 26: nothing pending or cut off ("K+ 4.6 mmol/L resulted yesterday, nothing pending")
    r"\b(?:none|nothing|no|not)\s+(?:\w+\s+)?(?:missing|blank|absent|outstanding|pending|cut\s+off)$",
    FLAGS,
)
# round 26: "no obs outstanding", "no bloods pending": the "no" is of the outstanding item, none is
_NONE_OUTSTANDING_AFTER = _compile(r"\s+(?:are\s+|is\s+)?(?:outstanding|pending|missed|awaited|due)\b", FLAGS)
# round 28: "no weight" of a finding denied ("82 kg, with no weight loss since last review"), not a weight
# absent
_WEIGHT_FINDING_AFTER = _compile(r"\s+(?:loss|gain|change|bearing)\b", FLAGS)
_STATED_NEGATIVE = _compile(r"\b(?:no|nil|denies|without)\s+(?:known\s+)?(?:drug\s+)?$", FLAGS)
NEEDED_BEFORE_WORDS = 10
NEEDED_AFTER_WORDS = 8


def _needed_verdict(
    text: str, start: int, end: int, lexicon: Lexicon, needed: CompiledNeeded, task_class: TaskClassName
) -> str | None:
    """Is the absence at ``start:end`` about an item ``task_class`` needs? None: yes (fire); a reason
    when it is about immaterial or not-needed items only; ``UNNAMED`` when no item cue is in reach.

    The items named in a window around the marker (the clause's last 10 words before it, the marker,
    its first 8 words after) are read; a cue inside a longer cue of another item is dropped. It fires
    when a needed item is there and the item nearest the marker is not immaterial for the class, or
    the needed item is coordinated with it ("allergies and next of kin: blank").
    """
    before, following = _clause(text, start, end, lexicon)
    words_before = list(_WORD.finditer(before))
    window_start = (
        start - len(before) + (words_before[-NEEDED_BEFORE_WORDS:][0].start() if words_before else 0)
    )
    words_after = list(_WORD.finditer(following))[:NEEDED_AFTER_WORDS]
    window_end = end + (words_after[-1].end() if words_after else 0)
    window = text[window_start:window_end]
    found = [
        (name, m.start() + window_start, m.end() + window_start)
        for name, pattern in needed.cues
        for m in pattern.finditer(window)
    ]
    found = [
        f
        for f in found
        if not any(g[1] <= f[1] and f[2] <= g[2] and (g[1], g[2]) != (f[1], f[2]) for g in found)
    ]
    # issue 22s: an item after the marker behind "in/on/from the" is where the absence is, not what is
    # absent ("DNACPR status is not documented in the discharge summary")
    places = [f for f in found if f[1] >= end and _LOCATIVE.search(text, end, f[1])]
    if places and len(places) < len(found):
        found = [f for f in found if f not in places]
    # issue 22v: an item stated negative before the marker ("has no allergies, she's never filled in a DNR
    # form") is present, not what the marker says is absent
    stated = [f for f in found if f[2] <= start and _STATED_NEGATIVE.search(text, max(0, f[1] - 30), f[1])]
    if stated and len(stated) < len(found):
        found = [f for f in found if f not in stated]
    if not found:
        return UNNAMED

    def distance(item: tuple[str, int, int]) -> int:
        return max(0, start - item[2], item[1] - end)

    need = needed.needed[task_class]
    immaterial = needed.immaterial[task_class]
    nearest = min(found, key=lambda f: (distance(f), f[0] not in need))
    for item in found:
        if item[0] not in need:
            continue
        if nearest[0] not in immaterial:
            return None
        first, second = sorted((item, nearest), key=lambda f: f[1])
        if _COORDINATED.fullmatch(text, first[2], second[1]):
            return None
    names = sorted({f[0] for f in found})
    kind = "immaterial" if nearest[0] in immaterial else "not needed"
    return f"{kind} for {task_class}: {', '.join(names)}"


def _value_hits(
    compiled: CompiledConcept, text: str, lexicon: Lexicon, folded: str | None = None
) -> Iterable[tuple[int, int, str | None]]:
    """Analyte mentions whose measured number crosses the concept's threshold."""
    rule = compiled.concept.value
    assert rule is not None
    hits = list(_value_verdicts(compiled, rule, text, lexicon, folded))
    # round 30: a critical value marked as the first one ("lactate 4.2 on arrival") that a later statement of
    # the analyte within limits follows ("day 4 …, lactate 0.9"): superseded
    within = [start for start, _, reason in hits if reason == "within limits"]
    for start, end, reason in hits:
        if reason is None and _FIRST_VALUE.match(text, end) and any(later > end for later in within):
            reason = "superseded by a later value"
        # round 36: or one treated, after which a later statement is within limits ("hypo 0300 BM 2.8
        # mmol/L, treated w/ 150 mL juice + toast, BM 7.4 at 0315"; without the analyte: ``_superseded``)
        if reason is None and any(later > end and _TREATED.search(text, end, later) for later in within):
            reason = "superseded by a later value"
        if reason is None and _IN_PAST_BRACKET.search(text, max(0, start - _PAST_BRACKET_REACH), start):
            reason = "historical"
        if (
            reason is None
            and _ADMISSION_BRACKET.search(text, max(0, start - _PAST_BRACKET_REACH), start)
            and _AGO_AFTER_BRACKET.match(text, end)
        ):
            reason = "historical"
        if reason is None and _opens_in_past(_sentence_before(text, start)):
            reason = "historical"
        if reason is None and _relatives_finding(text, start):
            reason = "family history"
        if reason is None and _PAST_PERIOD_AFTER.match(text, end):
            reason = "historical"
        # round 59: or the value of a dated presentation named right after it, the patient well since ("His
        # potassium was 6.9 mmol/L when he was admitted with an AKI in March; he has made a full recovery")
        if (
            reason is None
            and (presented := _WHEN_PRESENTED_AFTER.match(text, end))
            and _PAST_ANCHOR.search(presented.group())
            and _WELL_NOW.search(text, presented.end())
        ):
            reason = "historical"
        yield start, end, reason


# round 72: a value dated to a past period right after it ("my sodium dropped to 118 last year when I was on
# the water tablets, but the bloods in June were 138")
_PAST_PERIOD_AFTER = _compile(
    r"\s*(?:mmol/l\s*)?,?\s*(?:last\s+(?:year|summer|winter|spring|autumn)|(?:\d+|a|one|two|three|four|five|several|many)\s+"
    r"(?:years?|yrs)\s+ago|in\s+(?:19|20)\d\d)\b",
    FLAGS,
)
# round 59: the presentation a value was measured at, named right after it ("… when he was admitted with an
# AKI in March"); ``_value_hits`` reads it with a past anchor in it and the patient well since
_WHEN_PRESENTED_AFTER = _compile(
    r"[^.;\n]{0,40}?\bwhen\s+(?:she|he|they|i|we|the\s+(?:patient|child|baby))\s+(?:first\s+)?"
    r"(?:presented|was\s+admitted|were\s+admitted|came\s+in|was\s+seen)\b[^.;\n]{0,50}",
    FLAGS,
)
# round 49: a relative clause set off by commas between an analyte and its value
_RELATIVE_ASIDE = _compile(r",\s*(?:which|that)\b[^,.;:\d]{1,60},", FLAGS)
_TREATED = _compile(r"\b(?:treated|given|gave|following|responded)\b", FLAGS)


# round 32: a number that is the hour of a clock time ("… sprayed into R eye at 14:10"); a full stop and two
# digits never follow one, as the number's own decimals take them
_CLOCK_NOT_A_VALUE = _compile(r"[:h]\d{2}\b(?!\.\d)|\s*(?:am|pm)\b", FLAGS)
_AT_BEFORE = _compile(r"\bat\s*$", FLAGS)
_FOUR_DIGIT_CLOCK = _compile(r"(?:[01]\d|2[0-3])[0-5]\d", FLAGS)
# round 82: a sample or a gas right after four digits: the digits are its clock time ("glucose on the 2200 ABG
# reads 28 mmol/L, lab glucose from that same 2200 sample 14.2")
_SAMPLE_AFTER_CLOCK = _compile(r"\s+(?:abg|vbg|cbg|gas|blood\s+gas|sample|specimen|bloods|draw)\b", FLAGS)
# round 32: a value in the brackets of a past event, one dated by its year or named as history ("h/o DKA 2019
# (pH 7.05, ketones 6.2). today BM 8.2 mmol/L"): that event's value, not today's
_IN_PAST_BRACKET = _compile(
    r"(?:\b(?:19|20)\d\d|\b(?:h/o|hx\s+of|history\s+of|previous|prior)\s+[\w-]+(?:\s+[\w-]+){0,2}"
    # round 49: or an admission weeks or more ago ("admitted three months ago with DKA (pH 7.02, ketones
    # 6.1)")
    r"|\badmitted\s+(?:last\s+(?:month|year)|(?:\d+|a|one|two|three|four|five|six|several)\s+(?:weeks?|months?|years?)"
    # round 52: or in a year ("B: admitted 2021 with DKA (pH 7.08, ketones 5.9 mmol/L)")
    r"\s+ago|(?:in\s+)?(?:19|20)\d\d)\s+with\s+[\w-]+(?:\s+[\w-]+){0,2})\s*\([^()\n]*$",
    FLAGS,
)
_PAST_BRACKET_REACH = 120
# round 53: or the brackets of an admission whose days ago follow them ("Background: admitted with cholangitis
# (lactate 4.6) 6 days ago, stented at ERCP")
_ADMISSION_BRACKET = _compile(r"\badmitted\s+(?:with|w/)\s+[\w-]+(?:\s+[\w-]+){0,3}\s*\([^()\n]*$", FLAGS)
_AGO_AFTER_BRACKET = _compile(
    r"[^()\n]*\)\s*(?:[2-9]|\d\d|two|three|four|five|six|seven|several)\s+(?:days?|weeks?|months?|years?)\s+ago\b",
    FLAGS,
)
# round 33: a sentence that opens long ago
_OPENS_LONG_AGO = _compile(
    r"^\W*(?:(?:many|several|a\s+few|some|\d+|two|three|four|five|ten)\s+)?(?:years?|yrs?)\s+ago\b"
    r"|^\W*as\s+a\s+(?:child|teenager|baby)\b",
    FLAGS,
)


def _opens_in_past(opening: str) -> bool:
    """Whether a value's sentence, up to the value, opens long ago (round 33: "years ago I had a sugar of 2.4
    when I skipped lunch …") or in a past year, as a finding's does (round 34: "back in 2019 my potassium
    dropped really low, like 2.6")."""
    return _OPENS_LONG_AGO.search(opening) is not None or _SENTENCE_OPENS_IN_PAST.search(opening) is not None


def _sentence_before(text: str, position: int) -> str:
    """The text of the sentence up to ``position``."""
    ends = list(_SENTENCE_END.finditer(text, 0, position))
    return text[ends[-1].end() if ends else 0 : position]


def _sentence_after(text: str, position: int) -> str:
    """The text of the sentence from ``position`` on."""
    end = _SENTENCE_END.search(text, position)
    return text[position : end.start() if end else len(text)]


# round 30: a value marked as the presenting one
_FIRST_VALUE = _compile(
    r"\s*(?:mmol/l|mg/dl|%|ng/l)?\s*(?:\(\s*)?(?:on|at)\s+(?:arrival|admission|presentation|triage)\b"
    r"|\s*(?:mmol/l|mg/dl)?\s*(?:\(\s*)?initially\b",
    FLAGS,
)


_MOVED_FROM = _compile(
    r"\b(?:rose|risen|rising|increased|increasing|climbed|jumped|went\s+up|gone\s+up|fell|fallen|falling"
    r"|dropped|dropping|decreased|went\s+down|gone\s+down)\s+from\s*$",
    FLAGS,
)
_REACHED = _compile(r"[^.;\n\d]{0,40}?\bto\s+(?P<to>\d+(?:\.\d+)?)", FLAGS)


# round 40: nor a day and month after "on" ("she last collected lithium on 14/06": no lithium level of 14)
_DAY_MONTH_AFTER = _compile(
    r"(?<=\b(?:on|dated|from|since|until|till|by)\s+)(?:[12]\d|3[01]|0?[1-9])/(?:0?[1-9]|1[0-2])\b(?![/.]\d)",
    FLAGS,
)


def _value_in_condition(text: str, start: int) -> bool:
    """round 54: an analyte inside an open condition of its sentence, advice for a case ("Counselled: if a
    baby under 3 months has a temperature of 38°C or more, seek urgent care"), not a measured value."""
    return _in_condition(_sentence_before(text, start))


# round 68: a year after a preposition, blanked in an analyte's window (``_value_verdicts``)
_YEAR_AFTER_PREPOSITION = _compile(r"\b(?:since|in|from|until|till)\s+(?:19|20)\d\d\b", FLAGS)
# round 67: the end of the clause before an analyte (``_value_verdicts``)
_CLAUSE_BEFORE = _compile(r";")

# round 58: an analyte said to have come back to normal right before the next number ("apyrexial 48 h, lactate
# normalised, HR 72"): that number is the next item's
_NORMALISED_LEAD = _compile(r"^\s*(?:normalised|normalized|normalising|normalizing)\b", FLAGS)


def _value_verdicts(
    compiled: CompiledConcept, rule: Threshold, text: str, lexicon: Lexicon, folded: str | None
) -> Iterable[tuple[int, int, str | None]]:
    """Each analyte mention with its measured number, and why it does not count (None: it does)."""
    for match in concept_matches(compiled, text, folded):
        window = text[match.end() : match.end() + _VALUE_GAP]
        cut = _SENTENCE_END.search(window)
        window = window[: cut.start()] if cut else window
        # round 22: a date is no measured number ("Sodium on 3 March 139 mmol/L"): blanked, offsets kept;
        # round 68: nor a year after "since" or "in" ("tremor on lithium … unchanged since 2019")
        for not_a_value in (_DATE, _DAY_MONTH_AFTER, _YEAR_AFTER_PREPOSITION):
            window = not_a_value.sub(lambda found: " " * len(found.group()), window)
        number = _NUMBER.search(window)
        if not number:
            continue
        lead = window[: number.start()]
        # round 49: an aside between commas does not count ("her potassium, which the lab added on to the
        # sample late, was 7.1")
        counted = _RELATIVE_ASIDE.sub(" ", lead)
        if regex.search(r"\d", lead) or len(counted.split()) > _VALUE_LEAD_WORDS or _PHONED.search(lead):
            continue
        if _NORMALISED_LEAD.search(lead):
            continue  # round 58: "lactate normalised, HR 72": the analyte has no number, the next one does
        if _CLOCK_NOT_A_VALUE.match(window, number.end()):
            continue  # round 32: a clock time ("Sodium valproate 500 mg given at 08:00") is no measured value
        if _AT_BEFORE.search(lead) and _FOUR_DIGIT_CLOCK.fullmatch(number.group()):
            continue  # round 62: nor one of four digits after "at" ("potassium to be rechecked at 2130")
        end = match.end() + number.end()
        sep, second = number.group("sep"), number.group("second")
        series = None
        # round 36: a value said to have moved from one number to another ("troponin I rose from 45 ng/L at
        # presentation to 310 ng/L at 3 hours"): the number it reached is the measured one
        moved = _MOVED_FROM.search(lead) is not None
        reached = _REACHED.match(text, end) if moved and sep is None else None
        if reached:
            end, series = reached.end(), [float(reached.group("to"))]
        elif moved and sep in ("to", "-", "–"):
            series = [float(second)]  # "fell from 6.2 to 2.1"
        else:
            moved = False
        if moved:
            sep = second = None
        if _NOT_A_MEASUREMENT.match(text, end):
            # issue 22s: serial values at time points ("hs-cTnT 0 h 19 ng/L, 1 h 48 ng/L"): the highest
            series = [
                float(v.group("v"))
                for v in _TIMEPOINT_VALUE.finditer(text, match.end() + number.start(), end + 60)
            ]
            if not series:
                continue
            sep = second = None
        if sep == "/" and second is not None and (later := _LATER_READING.match(text, end)):
            # round 56: a second reading right after ("BP 152/98 then 164/106 on repeat"): the higher counts
            series = [float(number.group(1)), float(later.group("high"))]
            second = str(max(float(second), float(later.group("low"))))
            end = later.end()
        is_range = sep is not None and sep != "/"
        # round 67: the words before the analyte are its own clause's, not the last clause's ("radiating to L
        # flank from 1930; BP 86/50": "from" is the pain's onset, not a range of the pressure)
        before = _CLAUSE_BEFORE.split(text[max(0, match.start() - 40) : match.start()])[-1]
        if not moved and (
            is_range or lexicon.value_rule.search(lead) or lexicon.value_rule.search(_last_words(before, 2))
        ):
            yield match.start(), end, "rule or range"
            continue
        if not moved and _value_in_condition(text, match.start()):
            yield match.start(), end, "conditional"
            continue
        value = max(series) if series else float(number.group(1))
        if rule.fahrenheit_above is not None and value > rule.fahrenheit_above:
            value = (value - 32.0) * 5.0 / 9.0
        low, high = _limits(rule, value, text, end)
        if rule.infant_high is not None and _INFANT.search(text):
            high = rule.infant_high  # round 66: "term newborn, 36 h old … HR 138"
        if rule.stated_cutoff:
            stated = _STATED_CUTOFF.search(text[end : end + 80])
            if stated:
                low, high = None, float(stated.group("cut"))
        crosses = (low is not None and value < low) or (high is not None and value > high)
        if sep == "/" and second is not None and rule.second_high is not None:
            crosses = crosses or float(second) > rule.second_high
        if not crosses:
            yield match.start(), end, "within limits"
            continue
        if _within_stated_target(text, match.start(), end, value):
            yield match.start(), end, "within the stated target"
            continue
        tail = _first_words(text[end : end + 80], POST_WINDOW_WORDS)
        if lexicon.value_resolution.search(tail):
            yield match.start(), end, "resolved"
            continue
        if _superseded(rule, text, end, low, high):
            yield match.start(), end, "superseded by a repeat"
            continue
        yield match.start(), end, None


# issue 22t: a repeat measurement later in the text ("Repeat K 4.7 this AM", "recheck glucose 6.1")
# supersedes a critical value when the repeat is within the limits; beyond the 8 words after the value.
# issue 22x: a value stated as today's or the current one ("her sodium today is 138") is a repeat too
_REPEAT_VALUE = _compile(
    # round 27: or after an arrow ("K+ 6.4 yest -> 4.8 this am"), up to four words between ("repeat fresh
    # venous sample K+ 4.3")
    # round 30: or today's ("today's potassium is 4.6 mmol/L")
    # round 32: or a sample drawn again ("Redrawn sample K+ 4.3 mmol/L")
    # round 43: or recovered to a value since ("since stopping the drug it has recovered to 137 mmol/L")
    r"(?:\b(?:recovered|repeat|repeated|rpt|recheck|rechecked|rechecks|rechecking|re-check|now|today|currently|latest|redrawn|redraw|re-drawn)\b"
    r"(?:'s)?|-+>|→)"
    # round 37: or with its clock time among those words ("repeat at 06:00 4.9 mmol/L")
    r"(?:\s+(?:[A-Za-z+\-]+|(?:\d{1,2}:\d{2}|[01]\d[0-5]\dh?|2[0-3][0-5]\dh?)(?=\s))){0,4}[\s:=]*"
    # round 46: not a dipstick grade ("162/108 mmHg on repeat with 3+ proteinuria")
    r"(?P<v>\d+(?:\.\d+)?)(?!\s*(?:/|am|pm|h\b|hrs?\b|hours?|days?|:|\+))",
    FLAGS,
)
_REPEAT_REACH = 250


# issue 22v: a target range stated for this patient beside the value ("SpO2 89% … target 88-92% met"; BTS
# 2017: 88-92 % for patients at risk of hypercapnic failure; "INR 3.2, target 2.5-3.5" for a mechanical
# valve) replaces the population limit: a value inside it is not critical.
_STATED_TARGET = _compile(
    # round 33: or a stated baseline ("Known severe COPD on home O2 2 L, baseline sats 88-90%. Today SpO2
    # 89%")
    r"\b(?:target|baseline)(?:\s+(?:range|sats|saturations?|spo2|inr))?\s*(?:of|is|was|:|=)?\s*"
    r"(?P<low>\d+(?:\.\d+)?)\s*%?\s*(?:-|–|to)\s*(?P<high>\d+(?:\.\d+)?)",
    FLAGS,
)
_TARGET_REACH = 200


def _within_stated_target(text: str, start: int, end: int, value: float) -> bool:
    """Whether a stated target range around the value (its sentence and the next one; round 33: and the one
    before, where a baseline is stated first) contains it."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text, max(0, start - _TARGET_REACH), start)]
    window_start = ends[-2] if len(ends) > 1 else max(0, start - _TARGET_REACH)
    for target in _STATED_TARGET.finditer(text, window_start, min(len(text), end + _TARGET_REACH)):
        if float(target.group("low")) <= value <= float(target.group("high")):
            return True
    return False


# round 34: or a later value dated this morning after it ("admitted last week with Na 112 mmol/L, …; Na 134
# mmol/L this morning")
_VALUE_THIS_MORNING = _compile(
    r"(?<![\d.:/])(?P<v>\d+(?:\.\d+)?)\s*(?:mmol/l|mg/dl|%|ng/l|g/l|mmol/mol)?\s+(?:this\s+(?:morning|am)|today)\b",
    FLAGS,
)


# round 36: a bare value right after a treatment that follows the critical one ("BM 2.4 mmol/L at 0300,
# treated with 4 glucotabs, 6.8 at 0315"), the treatment within 40 characters of the value
_TREATED_THEN_VALUE = _compile(
    r"\btreated\b[^.;\n]{0,60}?,\s*(?P<v>\d{1,3}\.\d)\b(?!\s*(?:mg|g|ml|units?)\b)", FLAGS
)
_TREATED_REACH = 40


def _superseded(rule: Threshold, text: str, end: int, low: float | None, high: float | None) -> bool:
    """A later value of the analyte within the limits (``low``, ``high``) the critical value crossed."""
    window = min(len(text), end + _REPEAT_REACH)
    treated = _TREATED_THEN_VALUE.search(text, end, window)
    for repeat in (
        *_REPEAT_VALUE.finditer(text, end, window),
        *_VALUE_THIS_MORNING.finditer(text, end, window),
        *([treated] if treated and treated.start() - end <= _TREATED_REACH else []),
    ):
        value = float(repeat.group("v"))
        if (low is None or value >= low) and (high is None or value <= high):
            return True
    return False


PENDING = "pending assertion"  # context='context': the ConText layer decides


_STATED_CUTOFF = _compile(
    r"(?:99th\s+(?:percentile|centile)|\bURL\b|upper\s+reference\s+limit|cut-?\s?off|ref(?:erence)?\s*<)"
    r"[^\d.;]{0,30}(?P<cut>\d+(?:\.\d+)?)",
    FLAGS,
)


# round 66: a baby under a year old, whose normal heart rate runs to 160/min (APLS; NICE NG143 traffic light:
# above 160 under 12 months is amber)
_INFANT = _compile(
    r"\b(?:newborns?|neonates?|neonatal|infant|nicu|scbu|\d{1,2}\s*(?:h|hrs?|hours?|days?|d|weeks?|wks?)\s+old"
    r"|(?:[1-9]|1[01])\s*(?:months?|mths?|mo)\s+old|\d{1,2}/(?:7|52)\s+old|[1-9]/12\s+old)\b",
    FLAGS,
)


def _limits(rule: Threshold, value: float, text: str, end: int) -> tuple[float | None, float | None]:
    """The low/high limits for the unit written after the number (or implied by its size)."""
    for unit in rule.units:
        if regex.match(rf"\s*(?:{unit.unit})(?![\w])", text, pos=end, flags=FLAGS):
            return unit.low, unit.high
    written = regex.match(r"\s*[a-zµ]+/", text, pos=end, flags=FLAGS)
    if written is None:
        for unit in rule.units:
            if unit.bare_below is not None and value < unit.bare_below:
                return unit.low, unit.high
    return rule.low, rule.high


# the detectors whose phrases read a negation only in their own comma or dash segment (absence markers); round
# 61: a contradiction's too ("Husband insists she has no allergies, the discharge letter says otherwise": the
# "no" is the husband's, not the letter's)
_SEGMENTED_NEGATION = frozenset({"missing", "conflict"})
# round 75: an absence phrase that opens on its negator reads only up to a spaced dash, which closes what the
# negator says ("enoxaparin 40 mg SC once daily, not twice - checked on MAR": a frequency corrected, nothing
# left unchecked)
_NEGATOR_THEN_DASH = _compile(r"(?:not|no|never|without)\b[^-–—]*?\s[-–—]\s", FLAGS)


def _concept_hits(
    compiled: CompiledConcept,
    text: str,
    lexicon: Lexicon,
    assertion: Assertion = "rules",
    folded: str | None = None,
) -> Iterable[tuple[int, int, str | None]]:
    if compiled.concept.value is not None:
        yield from _value_hits(compiled, text, lexicon, folded)
        return
    for match in concept_matches(compiled, text, folded):
        if compiled.detector == "missing" and _NEGATOR_THEN_DASH.match(match.group()):
            continue
        if assertion == "context" and compiled.concept.negatable and compiled.detector == "high_risk":
            yield match.start(), match.end(), PENDING
            continue
        reason = (
            _context_reason(
                text,
                match.start(),
                match.end(),
                lexicon,
                hypothetical=compiled.detector == "high_risk",
                segment=compiled.detector in _SEGMENTED_NEGATION,
            )
            if compiled.concept.negatable
            else None
        )
        if (  # issue 22w: a disagreement posed as a condition ("if the two lists disagree, call …")
            reason is None
            and compiled.detector == "conflict"
            and compiled.concept.negatable
            and (
                _in_condition(_clause(text, match.start(), match.end(), lexicon)[0])
                # round 33: or as a query ("Pharm query ?dose discrepancy digoxin - checked vs d/c summary")
                or _QUERIED_BEFORE.search(text, max(0, match.start() - _QUERIED_REACH), match.start())
            )
        ):
            reason = "hypothetical"
        yield match.start(), match.end(), reason


# round 33: a "?" written against the phrase or a word or two before it, the chart's mark of a query
_QUERIED_BEFORE = _compile(r"(?<![\w?])\?(?:[\w-]+\s+){0,2}$", FLAGS)
_QUERIED_REACH = 40


def _context_present(compiled: CompiledConcept, text: str, lexicon: Lexicon) -> bool:
    assert compiled.context is not None
    return any(
        _context_reason(text, m.start(), m.end(), lexicon) is None for m in compiled.context.finditer(text)
    )


Assertion = Literal["rules", "context"]


def task_class_name(task_class: object) -> TaskClassName | None:
    """A task class (``TaskClass`` member, its value, or None) as its name; unknown names are an error."""
    if task_class is None:
        return None
    name = str(getattr(task_class, "value", task_class))
    if name not in TASK_CLASSES:
        raise ValueError(f"unknown task class {name!r} (one of {', '.join(TASK_CLASSES)})")
    return name  # type: ignore[return-value]


def detect(
    text: str,
    lexicon: Lexicon | None = None,
    assertion: Assertion = "rules",
    task_class: object = None,
) -> Detection:
    """Run C, M and H on transcript text (block headers are stripped first).

    ``assertion="context"`` reads negation, history, hypothesis and family history of each H phrase
    match with medspaCy's ConText (the optional ``nlp`` extra) instead of the hand-written rules.
    ``task_class`` (documentation, evidence, messaging, triage; a ``TaskClass`` or its value): an
    absence fires M only when it is about an item that class needs (``lexicon/needed_items.yaml``);
    None keeps the class-free reading (any absence except of an administrative field).
    """
    lexicon = lexicon or default_lexicon()
    chosen_class = task_class_name(task_class)
    original = _normalize(strip_headers_keep_offsets(text))
    expanded = expand_shorthand(original, lexicon.shorthand)
    clean = expanded.text
    evidence: list[Evidence] = []
    suppressed: list[Suppressed] = []

    def add(detector: DetectorName, concept: str, start: int, end: int, reason: str | None) -> None:
        s, e = expanded.original(start, end)
        if reason is None:
            evidence.append(Evidence(detector, concept, original[s:e], s, e))
        else:
            suppressed.append(Suppressed(detector, concept, original[s:e], s, e, reason))

    found: list[tuple[CompiledConcept, int, int, str | None]] = []
    folded = None if _FOLD_EXCEPTIONS.intersection(clean) else clean.casefold()
    for compiled in lexicon.concepts:
        if not may_match(compiled.literals, folded):
            continue
        hits = list(_concept_hits(compiled, clean, lexicon, assertion, folded))
        if not hits:
            continue
        if compiled.context is not None and not _context_present(compiled, clean, lexicon):
            hits = [(s, e, "context absent" if r in (None, PENDING) else r) for s, e, r in hits]
        found.extend((compiled, s, e, r) for s, e, r in hits)
    pending = [(s, e) for _, s, e, r in found if r == PENDING]
    if pending:
        from escbench_inspect.controller.assertion import context_reasons

        decided = iter(context_reasons(clean, pending))
        found = [
            (c, s, e, _assertion_reason(c.detector, next(decided)) if r == PENDING else r)
            for c, s, e, r in found
        ]
    found = _queried_then_denied(found, clean)
    for compiled, start, end, reason in found:
        if reason is None and compiled.detector == "missing":
            reason = _missing_reason(clean, start, end, lexicon, chosen_class)
        if reason is None and compiled.detector == "conflict" and _explained(clean, start, end, lexicon):
            reason = "explained"
        add(compiled.detector, compiled.concept.id, start, end, reason)
    for first, second in attribute_conflicts(clean, lexicon):
        for mention in (first, second):
            add("conflict", f"attribute_{mention.attribute}", mention.start, mention.end, None)
    fired = {e.detector for e in evidence}
    evidence.sort(key=lambda e: (e.start, e.detector))
    return Detection(
        conflict="conflict" in fired,
        missing="missing" in fired,
        high_risk="high_risk" in fired,
        evidence=tuple(evidence),
        suppressed=tuple(suppressed),
    )


def _queried_then_denied(
    found: list[tuple[CompiledConcept, int, int, str | None]], text: str
) -> list[tuple[CompiledConcept, int, int, str | None]]:
    """issue 22v: a finding written as a query ("HCA flagged ?SOB") that the text later negates for the
    same concept ("on review denies breathlessness") was looked for and not found."""
    # round 27: or set aside after it ("?sepsis screen: … screen negative, sepsis not suspected")
    denied = {
        (c.concept.id, s)
        for c, s, _, r in found
        if r in ("negated", "resolved") and c.detector == "high_risk"
    }
    if not denied:
        return found
    return [
        (c, s, e, "queried, then denied")
        if r is None
        and c.detector == "high_risk"
        and text[max(0, s - 1) : s] == "?"
        and any(cid == c.concept.id and later > e for cid, later in denied)
        else (c, s, e, r)
        for c, s, e, r in found
    ]


EXPLAINED_REACH = 250  # characters after a contradiction phrase in which its explanation is read


def _explained(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """issue 22s: a contradiction phrase whose discrepancy the text explains right there ("still shows
    metformin; it was stopped on 12/04/2024 by the renal team", "differs … explained by a dose change
    on 10/10, MAR not yet updated") is a documented change, not a conflict. Read from the start of the
    phrase's sentence to ``EXPLAINED_REACH`` characters after it."""
    a = lexicon.attributes
    if a is None or a.explained is None:
        return False
    ends = list(_SENTENCE_END.finditer(text, 0, start))
    # round 14: a semicolon joins the change to the stale record ("was increased … on 12 March; the
    # pharmacy record still shows the 20 mg fill"): read from the start of the sentence before it
    while ends and ends[-1].group() == ";":
        ends.pop()
    sentence_start = ends[-1].end() if ends else 0
    return a.explained.search(text, sentence_start, min(len(text), end + EXPLAINED_REACH)) is not None


def _assertion_reason(detector: DetectorName, reason: str | None) -> str | None:
    """ConText's verdict as a suppression reason (H findings only: M and C targets are absence and
    contradiction statements whose own wording carries negation, which ConText would read as negated)."""
    return reason if detector == "high_risk" else None


# ------------------------------------------------------------------------------------------------
# Structural conflict: the same attribute stated with two different values by two sources
# ------------------------------------------------------------------------------------------------

ATTRIBUTE_FILE = "attributes.yaml"
ATTRIBUTE_ORIGIN: Origin = "clinical_review"
IMMATERIAL_ORIGIN: Origin = "corpus_review"  # added after reviewing the minimal-pair corpus
_DATE = _compile(
    r"(?P<iso>\b\d{4}-\d{2}-\d{2}\b)|(?P<num>\b\d{1,2}/\d{1,2}/\d{2,4}\b)"
    rf"|\b(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{_MONTH})(?:\s+(?P<y1>\d{{4}}))?\b"
    rf"|\b(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<y2>\d{{4}}))?\b",
    FLAGS,
)
# issue 22s: an event's date may be coarser than a day: "March 2021", "08/2024", "in 2019".
_DATE_COARSE = _compile(
    _DATE.pattern
    + rf"|\b(?P<m3>{_MONTH})\s+(?P<y3>(?:19|20)\d\d)\b|\b(?P<m5>\d{{1,2}})/(?P<y5>(?:19|20)\d\d)\b"
    # a year alone after a preposition ("in 2019"), not a 24 h time ("at 2030")
    r"|\b(?:in|since|during|from|of)\s+(?P<y4>(?:19|20)\d\d)\b(?![/-])"
    # issue 22z round 12: a day and month in two digits each without a year ("LMP 12/04", "given 14/01"), not
    # a score ("pain 10/10"), an age in months ("10/12 old") or a part of a longer number
    r"|(?<![\d/.:]|\bpain\s|\bscore\s|\bgcs\s)\b(?P<dd>[0-3]\d)/(?P<mm>[01]\d)\b"
    r"(?![/.:]?\d|\s*(?:old|months?|mo\b|pain|score))"
    # round 14: or in one digit each after a weekday ("pt says Sat 3/6, ambulance sheet Thurs 1/6")
    r"|\b(?-i:Mon|Tues?|Wed|Weds|Thu|Thurs|Fri|Sat|Sun)\.?\s(?P<dd>[0-3]?\d)/(?P<mm>[01]?\d)\b(?![/.:]?\d|\s*%)"
    # round 28: or after "LMP", which heads a date ("LMP 3/6 per pt, booking bloods form has LMP 23/5")
    r"|(?<=\b(?:lmp|last\s+menstrual\s+period)\s*[:=]?\s*(?:(?:was|of|is|on)\s+)?)(?P<dd>[0-3]?\d)/(?P<mm>[01]?\d)\b(?![/.:]?\d|\s*%)",
    FLAGS,
)
# issue 22u: a weekly dose's day ("take on FRIDAY" vs "says Monday") and a date relative to today
# ("yesterday 18:00" vs "3 days ago"), read after a dated event; relative dates only there, a weekday
# also where a source states it alone
_WEEKDAYS = {
    "monday": 0, "tuesday": 1, "tues": 1, "wednesday": 2, "weds": 2, "thursday": 3, "thurs": 3,
    "friday": 4, "saturday": 5, "sunday": 6,
}  # fmt: skip
_WEEKDAY = (
    r"|\b(?P<wd>"
    + "|".join(_WEEKDAYS)
    # round 14: not before the date it heads ("Thurs 1/6"); round 15: nor its day ("Thurs 7th")
    # round 22: nor before "the" and its day ("tuesday the 12th")
    + r")s?\b(?!\.?\s+(?:the\s+)?\d{1,2}(?:/\d|st\b|nd\b|rd\b|th\b))"
    # issue 22w: a capitalised three-letter weekday ("pt says Tues AM, wife says Mon PM"), not "Sat 94%"
    + r"|\b(?-i:(?P<wd3>Mon|Tue|Wed|Thu|Fri|Sat|Sun))\b(?![\s:]*\d)"
)
_WEEKDAY3 = {name[:3]: day for name, day in _WEEKDAYS.items()}  # "Mon" … "Sun", from the names
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_UNIT_DAYS = {"d": 1, "w": 7, "m": 30}
# round 66: "a.m." and "p.m." with their dots, and "yest" for yesterday ("pt says yest 20:00, wife says this
# a.m.")
_RELATIVE = (
    r"|\b(?:(?P<rel0>today|this\s+(?:morning|afternoon|evening|am|pm|a\.m|p\.m)|tonight)"
    r"|(?P<rel1>yesterday|yest|last\s+night)"
    r"|(?P<reln>\d{1,2}|an?|one|two|three|four|five|six)\s+(?P<relu>days?|weeks?|wks?|months?)\s+ago"
    r"|last\s+(?P<lastu>week|month))\b"
)
# a month named alone ("was in june"), full names but May (a modal verb)
_MONTH_ALONE = (
    # round 68: or the middle of a month ("pt says the op was mid-January")
    r"|\b(?:in\s+|as\s+|mid-)(?P<m6>january|february|march|april|june|july|august|september|october|november"
    # round 21: not a month with its year ("records his last colonoscopy as March 2021")
    r"|december)\b(?!,?\s+(?:19|20)\d\d\b)"
)
# issue 22z: a day of the month said alone ("was on the 4th", "told us it was the 11th"), not an
# ordinal of a count ("the 3rd dose", "the 2nd time"): only before a clause's end or a conjunction
_DAY_ALONE = (
    r"|\bthe\s+(?P<d7>[12]\d|3[01]|[1-9])(?:st|nd|rd|th)\b"
    # round 68: or "like" after it ("stopped her clopidogrel on the 2nd like the surgeon told her")
    r"(?=\s*(?:[,.;:)!?]|$)|\s+(?:but|and|or|not|at|so|when|which|per|according|instead|like)\b)"
    # round 15: or after its weekday ("fell Thurs 7th", "went down Mon 4th")
    # round 22: the whole name of each weekday ("the fall was wednesday 5th", "saturday 9th")
    r"|\b(?i:mon|tues?|wed(?:nes)?|weds|thu|thurs|fri|sat(?:ur)?|sun)(?i:day)?\.?\s(?P<d7>[12]\d|3[01]|[1-9])(?:st|nd|rd|th)\b"
)
_DATE_STATED = _compile(_DATE_COARSE.pattern + _WEEKDAY + _MONTH_ALONE + _DAY_ALONE, FLAGS)
_DATE_EVENT = _compile(_DATE_COARSE.pattern + _WEEKDAY + _RELATIVE + _MONTH_ALONE + _DAY_ALONE, FLAGS)
# issue 22y: the clock time of a dated event ("records the fall at 14:10 today"; "put it at 09:30"),
# 24 h with a colon or a point, four digits with "h"/"hrs", or 12 h with am/pm
_CLOCK = _compile(
    r"(?<![\d/.:])(?:(?P<h>[01]?\d|2[0-3])[:.](?P<m>[0-5]\d)(?!\d|\s*(?:mg|mmol|kg|%|/))"
    r"(?:\s*(?P<ap>am|pm)\b)?|(?P<h2>[01]\d|2[0-3])(?P<m2>[0-5]\d)\s*(?:h|hrs|hours)\b"
    r"|(?P<h3>1[0-2]|0?[1-9])\s*(?P<ap3>am|pm)\b)",
    FLAGS,
)
# the clause states a time without its event ("care home notes put it at 09:30")
_TIME_STATED = _compile(
    r"\b(?:put|puts|putting|has|had|says?|said|records?|recorded)\s+it\s+(?:at|as)\s*$"
    # round 32: or a dose or infusion that "started at" a time ("MAR records the dose given at 14:00, infusion
    # pump log shows it started at 16:30")
    r"|\b(?:it|dose|infusion|injection|bag|drip)\s+(?:was\s+)?(?:started|given|hung|administered|ran|went\s+up)"
    r"\s+at\s*$",
    FLAGS,
)
# round 78: or a record's verb right before the clock time, no event named in the clause ("paper drug chart
# records 09:30 for the same dose"): that record's time of the neighbouring clause's event (``_mentions``)
_RECORDS_TIME_BEFORE = _compile(
    r"\b(?:records|recorded|documents|documented|charts|charted|logs|logged)\s+$", FLAGS
)
CLOCK_TOLERANCE_MINUTES = 60
# round 82: four digits right after the time a stroke is dated from, without a colon or "h" ("LKW 0830 per
# wife, ambulance sheet LKW 0600"): a clock time there, since last known well is always a time of day (NICE
# NG128); after another event four digits may be a year or a dose
_BARE_CLOCK_EVENTS = frozenset({"last_known_well"})
_BARE_CLOCK_AFTER = _compile(r"\s*(?:at\s+)?(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)\b(?![.:/]\d)", FLAGS)
# issue 22y: a document's making ("forecast auto-generated 2026-08-25"), unlike an operation note
# "dated" the day of the operation
_GENERATED = _compile(
    r"\b(?:generated|printed|typed|dictated|faxed|produced|run)(?:\s+(?:on|at))?\s*$", FLAGS
)
# an event's word that names a record ("immunization registry", "vaccination card")
_SOURCE_NAMED_AFTER = _compile(
    r"\s+(?:registry|register|records?|card|printout|history|letter|clinic|team|status|schedule|list|forecast"
    r"|summary|report)\b",
    FLAGS,
)
# the verbs by which a source states a value; `_REPORTING` and `_STATES` (issue 22y) extend them
_REPORTING_VERBS = (
    r"says?|said|states?|stated|records?|recorded|reads?|shows?|showed|lists?|listed|documents?|documented"
    r"|gives?|gave"
    # round 33: or a system that holds it ("the hospital patient administration system holds 17/04/1952")
    r"|holds?|held"
)
# issue 22z round 12: a year alone right after its event, or after a colon or dash ("booster 2021")
_YEAR_AFTER = _compile(
    # round 14: or after the injection's noun and "was" ("my last tetanus jab was 2015")
    r"(?:\s+(?:jab|shot|booster|vaccine|vaccination|injection|immuni[sz]ation))?"
    # round 40: or recorded "as" a year ("records his last surveillance colonoscopy as 2019"); round 75: or
    # "given" in it ("national immunisation register shows last Td/IPV given 2009")
    r"\s*(?:[:\-–]|\b(?:was|were|in|as)\b|\bgiven(?:\s+in)?\b)?\s*(?P<year>(?:19|20)\d\d)\b(?![/\-.]?\d)",
    FLAGS,
)
# round 79: or after the source that gives it ("Last tetanus per pt 2021, GP record last booster 2009"): the
# words between must name a source (``_mentions``)
_SOURCE_THEN_YEAR = _compile(
    r"\s+(?:per|according\s+to)\s+(?P<source>(?:(?:the|his|her|their)\s+)?[\w-]+(?:\s+[\w-]+)?)\s+"
    r"(?P<year>(?:19|20)\d\d)\b(?![/\-.]?\d)",
    FLAGS,
)
_ENTRY_WORDS = 5  # a list entry: a source and its value, a few words
_IT_AS = _compile(
    r"\b(?:has|have|had|gives?|gave|records?|recorded|lists?|listed|puts?|shows?)\s+(?:it|this|that|them)\s+"
    r"(?:down\s+)?as\s+(?:(?:in|on)\s+)?",
    FLAGS,
)
# round 65: a person who "had one" or "had it" in a year: the year of the event a neighbouring clause names
_HAD_ONE_IN_YEAR = _compile(
    r"\b(?:had|got|received|was\s+given)\s+(?:one|it)\b[^.;\n]{0,25}?\bin\s+(?P<year>(?:19|20)\d\d)\b(?![/\-.]?\d)",
    FLAGS,
)
_SAYS_YEAR = _compile(
    rf"\b(?:{_REPORTING_VERBS})\s+(?:it\s+was\s+)?(?P<year>(?:19|20)\d\d)\b(?![/\-.]?\d)", FLAGS
)
# round 80: or a month alone, spelt out and not May ("the bone clinic letter says march??")
_SAYS_MONTH = _compile(
    rf"\b(?:{_REPORTING_VERBS})\s+(?:it\s+was\s+)?(?P<month>{'|'.join(_FULL_MONTH_NAMES)})\b(?!\s*\d)", FLAGS
)
# round 76: "dated" and a year alone, read as the date of an operation note's operation (``_mentions``)
_DATED_YEAR = _compile(r"\bdated\s+(?:in\s+)?(?P<year>(?:19|20)\d\d)\b(?![/\-.]?\d)", FLAGS)
# round 77: the source named right after a relative date that opens its clause ("…, 7 wks ago per the GP
# referral"): that source's date of the neighbouring clause's event (``_mentions``)
_RELATIVE_DATE_SOURCE = _compile(r"\s+(?:per|according\s+to|by)\b", FLAGS)
# round 79: a clock time the same way ("LKW 06:30 per wife, 02:00 per ambulance PRF")
_OPENING_CLOCK = _compile(r"\s*(?:" + _CLOCK.pattern + r")(?=" + _RELATIVE_DATE_SOURCE.pattern + ")", FLAGS)
# round 40: or where it is written ("in the oncology diary we keep it's written 10th May"), not written up
# round 51: or one that counts days from a date ("the physio sheet is counting from 12/03"): the event's date
# as that source has it
# round 63: or that "has" a date right after it ("the practice computer has 9 March")
_REPORTING = _compile(
    rf"\b(?:{_REPORTING_VERBS}|dated|has\s+it|written(?!\s+up\b)|count(?:s|ed|ing)?\s+from"
    # round 67: or sources that place an event on a date ("the GP referral and the patient's own account place
    # the episode on 22 August")
    r"|places?(?=\s+(?:it|(?:the|his|her|their)\s+\w+)\s+(?:on|in)\b)"
    rf"|(?:has|have)(?=\s+(?:{_DATE_STATED.pattern})))\b",
    FLAGS,
)
# round 18: a full stop after the number ends its sentence ("… on 15/09 is 5.8.")
# round 55: not a stage, grade or place's number ("ward lab today 190 umol/L, AKI stage 3 flagged")
_BARE_NUMBER = _compile(
    r"(?<![\w./:])(?<!\b(?:stage|grade|class|type|step|bed|bay|cubicle|room|ward)\s+)(?P<value>\d+(?:\.\d+)?)(?![\d:/%]|\.\d|(?:st|nd|rd|th)\b|\s*(?:[a-zµ]+/|°|x\b|(?:mg|mcg|micrograms?|g|kg|lbs?|st|stone"
    r"|ml|l|units?|iu|tabs?|tablets?|caps?|capsules?|puffs?|drops?|doses?|days?|d|weeks?|wks?|months?|years?|yrs?"
    r"|y|hours?|hrs?|h|mins?|minutes?|am|pm|times|cm|mm|kpa|bpm|breaths|mmhg|o'?clock|%)\b))",
    FLAGS,
)
_REPORTED_VALUE = _compile(
    # round 15: or written ("the diabetes nurse wrote 84 on my sheet")
    r"\b(?:reads?|reported|reports|says?|said|shows?|showed|gives?|gave|records?|recorded|quotes?|quoted|is|was|of"
    r"|wrote|writes|written|measured|measures|found"  # round 17: "our own laboratory measured 2.6 mg/dL"
    r"|documents|documented|lists|listed|has"  # round 21: "the transfer note documents 90 ng/L"
    r"|system|printout"  # round 42: the system that holds the value right before it ("lab system 80 ng/L")
    # round 22: the second of "reported as 1.1 mg/dL by the outside laboratory and as 212 µmol/L"
    r"|(?<=^\s*)as"
    r"|told\s+(?:us|me|them|him|her|the\s+\w+)"  # round 18: "ED told us 118 on the gas"
    # round 32: or telephoned ("Na 118 in EPR, lab phoned through 128 on same sample")
    r"|(?:phoned|called|rang|telephoned)\s+(?:through|in|back|us|me|the\s+ward)"
    # round 33: or a reading someone got ("the home health nurse did a finger stick … with hers and got 212")
    r"|(?:and\s+)?got|came\s+back(?:\s+(?:as|at))?"
    # round 36: or read out ("the GP receptionist read out 138 from the very same blood test")
    r"|read\s+(?:out|back|over)"
    # round 63: or the capillary sample it was read on, when it was taken between ("the practice nurse's
    # finger-prick this morning 3.1")
    r"|(?:finger[\s-]?(?:prick|stick)|fingerprick|fingerstick|capillary|heel[\s-]?prick)(?:\s+(?:sample|test|check|reading))?"
    r"(?:\s+(?:today|yesterday|this\s+(?:am|morning|afternoon|evening)|last\s+night))?"
    # round 34: or "has it as" ("the ED note records it as 4.5 ng/L")
    r"|" + _IT_AS.pattern + r")"
    r"\s*:?\s*$"
    # issue 22z: a result named as a value ("the app shows tuesday's result as 4.1")
    r"|\b(?:result|level|reading|value)s?\s+(?:as|at)\s*$"
    # round 23: or set equal to a value a few words on ("clinic result on EPR for yday = 5.1")
    r"|\b(?:result|level|reading|value)s?\b[^.;=\d]{0,30}=\s*$"
    # round 82: or a record's entry set equal to it ("INR in pt's yellow book for Mon = 2.4, anticoag clinic
    # record for Mon = 4.1")
    r"|\b(?:book|record|chart|sheet|entry|diary)\b[^.;=\d]{0,30}=\s*$",
    FLAGS,
)
# issue 22s: a document's own date ("referral dated 12/03", "letter typed on …") is not an event's
_DOCUMENT_DATE = _compile(
    # round 40: not what "it's written" as ("in the diary it's written 10th May": the entry's value)
    r"\b(?:dated|dictated|typed|written(?<!\b(?:it'?s|its|it\s+is|it\s+was|is|was)\s+written)|sent|received|printed|faxed"
    r"|signed|issued|generated|seen|reviewed)(?:\s+(?:on|at))?\s*$"
    # issue 22y: or a printout's, an extract's ("State immunization registry printout, 2026-09-14: …")
    r"|\b(?:printout|print-out|extract|download)\s*,?\s*$",
    FLAGS,
)
# round 24: a record of the operation itself, whose own date is the operation's
# round 56: or of an endoscopy ("the gastroscopy report in the same bundle is dated 4 March 2023")
_PROCEDURE_RECORD = _compile(
    r"\b(?:operation|operative|op|procedure|theatre|surgical|anaesthetic|anesthetic|anesthesia|colonoscopy|endoscopy"
    r"|gastroscopy|ogd|sigmoidoscopy|cystoscopy|bronchoscopy)\s+(?:notes?|records?|reports?)\b"
    # round 70: or the imaging or pathology report that made the diagnosis, whose date is the diagnosis's
    # ("our ultrasound report confirming the thrombosis is dated 10/09/2024")
    r"|\b(?:ultrasound|scan|doppler|ct|mri|x-?ray|biopsy|histology|pathology)\s+report\s+(?:confirming|showing)\b",
    FLAGS,
)
# issue 22s: a side stated without its body part ("the referral letter says right-sided")
_SIDE_ALONE = _compile(
    r"\b(?:(?P<side>left|right)[\s-]+sided?\b|on\s+the\s+(?P<side2>left|right)\b"
    # issue 22u: a side a source states on its own ("ward booking and X-ray report say left")
    r"|(?<=\b(?:says?|said|shows?|showed|reads?|states?|stated|marked|lists?|listed|records?|recorded)\s+"
    r"(?:as\s+|the\s+)?)(?P<side3>left|right)\b(?![\s-]+(?:sided?|ventricular|ventricle|atrial|atrium|bundle"
    r"|heart|lobe|hemisphere|hand\s+side)\b)"
    r"|\b(?:my|his|her|their|the)\s+(?P<side4>left|right)\s+one\b"
    # issue 22y: a record that has the part "as the left" ("handover sheet has the swollen calf as the left")
    r"|(?<=\b(?:has|have|had|lists?|listed|records?|recorded|puts?|marks?|marked|documents?|documented)\b"
    r"[^.;,]{0,30}\bas\s+the\s+)(?P<side5>left|right)\b"
    # round 22: "on the R" at a statement's end ("Pt says her axillary node clearance was on the R.")
    r"|on\s+the\s+(?-i:(?P<side6>[LR]))\b(?=\s*(?:[.;,)!?]|$))"
    # round 36: a side given as a record's value, closing its clause ("ward whiteboard and theatre list = R")
    r"|(?<=[=:]\s{0,3})(?P<side7>left|right|(?-i:L|R|Lt|Rt))\b(?=\s*(?:[.;,)!?]|$))"
    # round 40: or in capitals after a record's verb, closing its clause ("anaesthetic chart marked L.")
    # round 55: or after "has", "records" or "gives" ("Theatre list: L knee arthroscopy, anaesthetic chart has
    # R")
    r"|\b(?P<side8>(?-i:L|R|Lt|Rt|LT|RT))\b"
    r"(?<=\b(?:marked|marks|says?|states?|reads?|shows?|lists?|documents?|has|had|records?|gives?)\s+(?:as\s+)?"
    r"(?-i:L|R|Lt|Rt|LT|RT))"
    r"(?=\s*(?:[.;,)!?]|$))"
    # round 55: a hip fracture's side before its site ("Sign-out: L extracapsular # per X-ray"); the limb is
    # the neighbouring clause's, hip or leg (a shortened, externally rotated leg)
    r"|\b(?P<side9>left|right|(?-i:L|R|Lt|Rt))(?=\s+(?:(?:intra|extra)capsular|(?:inter|sub)trochanteric)\b)"
    # round 67: or "is on L" without its article, closing its clause ("Pt states lump is on L.")
    r"|\b(?:is|was|are|were)\s+on\s+(?-i:(?P<side10>[LR]))\b(?=\s*(?:[.;,)!?]|$))"
    # round 79: or a capital letter before its source in brackets, closing its entry ("site R (listing form)
    # / L (GP referral)")
    r"|(?<![\w./-])(?<!\d\s)(?-i:(?P<side11>L|R|Lt|Rt))(?=\s*\([^()\d]{1,40}\)\s*(?:[/.;,!?]|$)))",
    FLAGS,
)
# the named groups of the side readings above, in order (each reading adds one; none to list by hand)
_SIDE_GROUPS = tuple(name for name in _SIDE_ALONE.groupindex if name.startswith("side"))
# issue 22y: the ophthalmic abbreviations of a side, upper case ("dense cataract in the LE")
_EYE_SIDE = _compile(r"\b(?-i:(?P<side>[LR])E)\b")
# round 16: the eye in Latin, OD right and OS left, read where the text is about eyes (OD is also once daily)
_EYE_LATIN = _compile(r"\b(?-i:(?P<side>OD|OS))\b")
_EYE_CONTEXT = _compile(
    r"\b(?:eyes?|cataract|biometry|ophthalm\w*|retina\w*|intraocular|iop|visual\s+acuity)\b", FLAGS
)
# issue 22u: the chart abbreviations of a side before a body part ("L knee", "R TKR", "Lt hip")
SIDE_WORD = r"(?P<side>left|right|lt|rt|(?-i:L|R))"
_SIDE_NAMES = {"l": "left", "lt": "left", "r": "right", "rt": "right"}
# round 28: a paired organ both of which are meant ("one drop both eyes at night"), read as the side "both",
# and one side said to be the only one ("electronic Rx says left eye only"), which differs from it
_BOTH_OF_PAIR = _compile(r"\b(?:both|each)\s+(?P<part>[a-z]+?)s?\b", FLAGS)
_ONE_SIDE_ONLY = _compile(
    r"\b(?:(?:left|right|lt|rt)\s+(?:[a-z]+\s+)?only|only\s+(?:(?:the|his|her|their)\s+)?(?:left|right|lt|rt))\b",
    FLAGS,
)
# round 19: or the part with its side in brackets after it ("Consent form: THR (L)")
_SIDE_AFTER_PART = rf"\s*\(\s*{SIDE_WORD}\s*\)"
# round 66: or the side, then a bracket that names the part ("R (arrow on hand)", "L (referral letter, carpal
# tunnel release)"); ``{parts}`` is the body parts' alternation
_BRACKET_NAMING_PART = r"\s*\((?:[^()\n]{{0,40}}?\W)?(?P<part>{parts})\b[^()\n]{{0,40}}?\)"
# between an allergen and its reaction in an allergy entry: a bracket, an arrow, a dash, a colon or ", with";
# round 19: or the reaction it gave ("dtr says amoxicillin gave him hives and a swollen face")
_ALLERGY_ENTRY_SEPARATOR = (
    r"\s*(?:\(|->|→|[-–—:]|,?\s+with\b|\s+(?:gave|gives|caused|causes)\s+(?:(?:him|her|me|them|you)\s+)?)\s*"
)
_UNITS_MG = {"mg": 1.0, "g": 1000.0, "mcg": 0.001, "microgram": 0.001, "micrograms": 0.001, "µg": 0.001}
_DOSE_TAIL = _compile(
    r"(?:[\s-]+[a-z]+){0,2}?[\s-]+(?P<amt>\d+(?:\.\d+)?)\s*"
    # round 30: or insulin's "u" after its drug ("Lantus 18u nocte"), not a lab's "U/L"
    r"(?P<unit>mg|mcg|micrograms?|µg|g|units?|iu|u(?!\s*/)|ml|mmol|meq)\b(?!\s*/\s*(?:kg|m2|h|hr|min|day))",
    FLAGS,
)
_UNIT_NAMES = {"u": "unit", "iu": "unit"}  # round 30: "18u", "18 IU" and "18 units" are one amount
# round 51: a drug's amount without its unit, then how often it is taken, as a list copied in a hurry gives it
# ("the care home sheet has his amlodipine as 5 once a day"): an amount whose unit is the other source's
_UNITLESS_DOSE_TAIL = _compile(
    r"\s+(?:is|as|at)\s+(?P<amt>[1-9]\d{0,3}(?:\.\d+)?)"
    r"(?=\s+(?:once|twice|three\s+times|four\s+times|od|bd|tds|qds|daily|nightly|nocte|mane|every|each|a\s+day)\b)",
    FLAGS,
)


def _unitless_dose(clause: str, match: regex.Match) -> tuple[float, None, str | None]:
    """A dose's (amount, no unit, frequency) from a match with group ``amt`` and the frequency after it: an
    amount whose unit is the other source's ("takes 20 once a day", "amlodipine as 5 once a day")."""
    return float(match.group("amt")), None, _frequency(clause[match.end() : match.end() + 40])


def _dose_value(clause: str, match: regex.Match) -> tuple[float, str, str | None]:
    """A dose's (amount, unit, frequency) from a match with groups ``amt`` and ``unit`` (a drug's tail or a
    dose stated alone): masses in mg, "u"/"IU"/"units" as one unit, a tablet count multiplied in."""
    raw = match.group("unit").lower()
    unit = "mcg" if raw == "mcg" else raw.rstrip("s")
    unit = _UNIT_NAMES.get(unit, unit)
    amount = float(match.group("amt")) * _tablet_multiplier(clause, match.start("amt"), match.end())
    if unit in _UNITS_MG:
        amount, unit = amount * _UNITS_MG[unit], "mg"
    return round(amount, 6), unit, _frequency(clause[match.end() : match.end() + 40])


_FREQUENCIES: tuple[tuple[str, str], ...] = (
    (r"(?:once\s+)?weekly|once\s+a\s+week|every\s+week", "weekly"),
    (r"twice\s+(?:daily|a\s+day)|b\.?i\.?d\b|bd\b", "bid"),
    (r"three\s+times\s+(?:daily|a\s+day)|t\.?i\.?d\b|tds\b", "tid"),
    (r"four\s+times\s+(?:daily|a\s+day)|q\.?i\.?d\b|qds\b", "qid"),
    (r"every\s+(?P<h>\d+)\s+hours?|q(?P<h2>\d+)h\b", "q{h}h"),
    (
        r"once\s+(?:daily|a\s+day)|daily|every\s+(?:day|morning|night|evening)|each\s+(?:day|morning)"
        r"|at\s+night|nightly|in\s+the\s+(?:morning|evening)"
        # round 76: or "OD", the UK chart's once daily ("Furosemide: 40mg BD (pt) / 40mg OD (clinic list)")
        r"|\bod\b",
        "daily",
    ),
)
_FREQUENCY = _compile("|".join(f"(?P<f{i}>{p})" for i, (p, _) in enumerate(_FREQUENCIES)), FLAGS)
_WEIGHT_UNIT = (
    r"(?P<amt>\d+(?:\.\d+)?)\s*(?P<unit>kg|kgs|kilograms?|kilos?|lb|lbs|pounds?|stones?|(?<=\d\s)st)\b(?!\s*/)"
    r"(?:\s*(?P<lb>\d+(?:\.\d+)?)\s*(?:lb|lbs|pounds?)\b)?"
)
_WEIGHT = _compile(r"\b(?:weigh\w*|weight|wt|scale)\b[^.;\n\d]{0,40}?" + _WEIGHT_UNIT, FLAGS)
_WEIGHT_SAID = _compile(
    r"\b(?:says?|said|reads?|records?|recorded|gives?|has\s+(?:her|him|them)\s+(?:at|as)|puts?\s+(?:her|him)\s+at)\s+"
    r"(?P<amt>\d{2,3}(?:\.\d+)?)\b(?![\d./:%]|\s*(?:mg|mcg|g|ml|units?|mmol|bpm|kpa|cm|mm|years?|yrs?)\b)",
    FLAGS,
)
# issue 22s: in a text about weight, an amount in a weight unit is a weight without the word
# ("pt states he's 150 lb"); kg, lb and stone are converted to kg before comparing.
_WEIGHT_BARE = _compile(r"(?<![\w./])" + _WEIGHT_UNIT, FLAGS)
# issue 22z round 12: a weighing stated without its unit, in a text whose other weights carry one
# ("the letter has my weight as 58 kg but at the clinic they weighed me at 66"), read in kg
_WEIGHED_AT = _compile(
    # round 29: a day between ("The nurse weighed him Tuesday at 166")
    r"(?:\bweigh(?:ed|s|ing)?\s+(?:(?:me|him|her|them|us|the\s+\w+)\s+)?"
    r"(?:(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun|to|yester)day\s+)?(?:at|as)\s+(?P<amt>\d{1,3}(?:\.\d+)?)\b"
    # or a person's weight on named scales ("i was 49 on the GP's scales")
    r"|\b(?:i|he|she|they)\s+(?:was|were|am|is|weighed)\s+(?P<amt>\d{1,3}(?:\.\d+)?)\s+on\s+(?:\S+\s+){0,3}?scales?\b"
    # round 21: or said of a person in three figures, beyond any age ("on his chart but hes 165, he weighed
    # himself this morning")
    r"|\b(?:i'?m|i\s+am|he'?s|she'?s|he\s+is|she\s+is)\s+(?:only\s+|actually\s+|really\s+)?"
    r"(?P<amt>1[1-9]\d|[2-4]\d\d)\b(?=\s*(?:[,;!]|\.(?!\d)|$|\s+(?:now|today|not|and|but)\b))"
    # round 23: or a source's estimate ("est wt from pt 70 kg, wife insists nearer 90")
    r"|\b(?:insists?|says?|said|thinks?|reckons?|states?|estimates?)\s+(?:(?:it'?s|he'?s|she'?s|he\s+is|she\s+is)\s+)?"
    r"(?:nearer|closer\s+to|more\s+like)\s+(?P<amt>\d{2,3}(?:\.\d+)?)\b)"
    r"(?![.,]?\d|\s*[%/])",
    FLAGS,
)
# round 20: or a feed or a dietitian's plan, which run on a weight ("NG feed rate based on dietitian's 48 kg")
_WEIGHT_CONTEXT = _compile(
    r"\b(?:weigh\w*|weight|wt|scales?|dieti[ct]ian'?s?|(?:ng|peg|enteral|tube)\s+feeds?|refeeding)\b"
    # round 22: or a person said to be so many kg or lb ("says my son is 18 kg but he was 14.5 kg")
    r"|\b(?:is|was|am|are|were|he'?s|she'?s|i'?m)\s+\d{1,3}(?:\.\d+)?\s*(?:kgs?|lbs?|pounds)\b"
    # round 30: or an amount in pounds, which in a chart is a body weight ("had me down as 210 lbs")
    r"|\b\d{1,3}(?:\.\d+)?\s*(?:lbs?|pounds)\b"
    # round 36: a body surface area, or a dose worked out on so many kg ("docetaxel order calculated on 58 kg
    # (BSA 1.63 m²)")
    r"|\bBSA\b|\b(?:calculated|dosed|based|worked\s+out)\s+on\s+\d{1,3}(?:\.\d+)?\s*kg\b",
    FLAGS,
)


class UnitlessWeight(float):
    """A weight stated without its unit (round 21: "they weighed me at 66", "hes 165"): kg or lb."""


_KG_PER = {"lb": 0.45359237, "pound": 0.45359237, "stone": 6.35029318, "st": 6.35029318}
# issue 22u: "X vs Y" sets two readings side by side as "but" does ("K+ 6.8 on the lab vs 4.1 on the gas")
# round 23: " and " before a second value with its unit and where it was found ("112 kg in the referral letter
# and 84 kg on the clinic scales today")
_AND_VALUE_SOURCE = (
    # round 66: a percentage ("reported as 7.5 % on the GP system and 9.0 % on the hospital lab system")
    # round 32: or a numeric date ("Date of birth is given as 03/07/1962 on your referral and 03/07/1961 on
    # our hospital system")
    r"|\s+and\s+(?=(?:as\s+)?(?:\d+(?:\.\d+)?\s*(?:kg|lbs?|mg|mcg|micrograms?|g|units?|mmol/l|g/l|mg/dl|ml|%)"
    r"|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})\s+"
    r"(?:on|in|per|from|by|at)\s+(?:the\s+|her\s+|his\s+|their\s+|our\s+)?[\w'-]+)"
)
# round 72: " and " before a second source named in the plural with "say" or "show" ("Mum's medical alert
# bracelet says A+ and the care home papers say AB+"), not two sources of one statement ("the list and the pt
# both say")
_AND_SOURCES_SAY = (
    r"|\s+and\s+(?=(?:the|her|his|my|our|their|your)\s+(?:(?!both\b|and\b|also\b|too\b)[\w'’-]+\s+){1,7}?"
    r"(?:say|show)\b)"
)
# round 72: or before this admission's or today's own reading of a weight, a group or a level ("oncology
# protocol sheet uses 77 kg and this admission's standing weight is 69.4 kg")
_AND_THIS_READING = (
    r"|\s+and\s+(?=(?:this|today'?s)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:weight|wt|group|level|dose)\s+(?:is|was|=|:)\s*\d)"
)
# round 72: or before the things another source gave and the dose they are ("Mums care home chart has her down
# for amlodipine 10mg and the tablets the hospital sent home with her are 5mg ones, 1 a day")
_AND_THE_ONES_ARE = (
    r"|\s+and\s+(?=(?:the|her|his|my|our|their)\s+(?:[\w'’-]+\s+){1,7}?(?:are|is|were|was)\s+\d+(?:\.\d+)?\s*"
    r"(?:mg|mcg|micrograms?|g|units?)\b)"
)
_CLAUSE_SPLIT = _compile(
    # issue 22z: "… given as 14 March in the discharge summary and as 21 March in the operation note"
    # round 14: an arrow between two sources' entries ("40mg OD on transfer letter ↔ MAR … 20mg"); a second
    # "and as" before any other value is cut where both parts name a source (`_COMMA`, round 15)
    r",\s+(?:and|while|whereas|but)\s+|\s+(?:but|whereas|while|vs\.?|versus|↔|<->|<>)\s+"
    # round 33: "yet" between two sources' statements ("antenatal notes have her as RhD negative … yet labour
    # ward G&S came back RhD positive"), not "not yet", "has yet to" or "yet another"
    r"|(?<!\bnot|\bnor)\s+yet\s+(?!(?:to|again|another|more|be|been|still)\b)"
    # round 33: "and then" before another source's reading ("… said 48 this morning and then the home health
    # nurse did a finger stick")
    r"|\s+and\s+then\s+(?=(?:the|her|his|my|our|their|your)\s+)"
    r"|\s+and\s+(?=as\s+\d)"
    # round 38: "and a separate / second …" before another record ("comfort-measures order set active
    # (DNR/DNI) and a separate Full Code order also active on the profile")
    r"|\s+and\s+(?=(?:a|an)\s+(?:separate|second|different|conflicting)\s)"
    + _AND_VALUE_SOURCE
    + _AND_SOURCES_SAY
    + _AND_THIS_READING
    + _AND_THE_ONES_ARE
    # round 17: or " and " before a second source's statement ("… says O negative and the form they gave us
    # today says O positive"), not two sources of one statement ("the list and the pt both say") nor one that
    # agrees ("… and our allergy list also says"); round 32: the source may carry where it is from ("… said
    # 4.6 and the hospital lab from the same visit says 2.4")
    + r"|\s+and\s+(?=(?:the|her|his|my|our|their|your)\s+(?:(?!both\b|and\b|also\b|too\b)[\w'-]+\s+){1,7}?"
    r"(?:says|said|states|stated|shows|showed|reads"
    # round 54: or "read out" ("her wristband said B+ and the nurse read out AB+ from the screen"); not "read"
    # alone, which is also the plural of one statement ("both the hospital record and the GP list now read
    # NKDA")
    r"|read\s+out"
    # round 19: or another verb a record states with ("… lists her as AB positive and our lab has just grouped
    # her as A positive"), not a passive one ("and the left eye is listed for August")
    r"|lists|records|documents|reports"
    # round 79: or "wrote" ("… says shes 45kg and the district nurse wrote 62 kg in her folder")
    r"|wrote|writes"
    # round 33: or "has", "holds", "shows", "gives" ("… says B+ for blood type and the transfusion consent the
    # nurse filled out has AB+"), not "has that on my file" (it agrees) nor "has been"
    r"|has(?!\s+(?:(?:that|it|this|them|been|had|no)\b|an?\s))|holds|shows|gives"
    r"|(?<!\b(?:is|was|are|were|be|been)\s)(?:listed|recorded|documented|reported|grouped|typed))\b)"
    # round 20: or a comma before today's own reading ("antenatal notes list O RhD neg, today's group O RhD
    # pos")
    r"|,\s+(?=today'?s\s+(?:\w+\s+)?(?:group|sample|result|reading|weight|level|value|bloods?|test|scan)\b)"
    # round 29: or a comma before a second record and its value ("order entered with weight 95 kg, nursing
    # flowsheet today 59 kg")
    r"|,\s+(?=(?:the\s+)?(?:[\w-]+\s+){0,2}(?:flowsheet|chart|list|record|letter|summary|notes|mar|log|form|card"
    r"|sheet|scales?|profile)\s+(?:(?:today|now|says|shows|has|reads|gives|states)\s+)?\d)",
    FLAGS,
)
_STATUS_WINDOW_WORDS = 3
IMPLIED = "?"  # a dose stated without its drug ("the pills are 5 mg"): the drug of a nearby clause
# not a dose per kg or a concentration ("1 mg/kg", "5 mg/ml"); round 24: a dose per day is one ("3 mg/day")
_IMPLIED_DOSE = _compile(
    # round 31: or insulin's "u" written against its number ("dtr says he only ever takes 8u")
    # round 63: or a space before it, when its time of day follows ("Levemir: 14 u mane per the pen diary")
    r"(?<![\w.])(?P<amt>\d+(?:\.\d+)?)(?:\s*(?P<unit>mg|mcg|micrograms?|µg|g|units?)|(?P<unit>u)"
    r"|\s(?P<unit>u)(?=\s+(?:nocte|mane|od|bd|bid|tds|daily|at\s+night|with\s+(?:meals|breakfast|tea))\b))"
    r"\b(?!\s*/(?!\s*(?:day|d)\b))",
    FLAGS,
)
# round 53: an infusion's rate per hour, thousands written with a comma ("heparin 1,250 units/h" on the pump,
# "1,500 units/h" on the chart); a dose by the hour, compared only with another rate in the same unit
_INFUSION_RATE = _compile(
    r"(?<![\w.,])(?P<amt>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(?P<unit>units?|iu|mg|ml)\s*/\s*(?:h|hr|hour)\b",
    FLAGS,
)
_WEIGHT_NEAR = _compile(r"\b(?:per\s+kg|/kg|kg)\b", FLAGS)
# round 59: unless the amount has its route and frequency right after it, as a dose does and a weight does not
# ("Enoxaparin 100 mg SC OD (ED sheet) / 60 mg SC OD (ward chart) - weight 98 kg")
_REGIMEN_AFTER = _compile(
    r"\s+(?:sc|s/c|subcut|iv|i\.v\.|im|po|oral|pr|sl|neb)\s+(?:od|bd|bid|tds|tid|qds|qid|nocte|mane|daily|once|twice)\b",
    FLAGS,
)
# round 34: or from the weight itself ("treatment dose 1 mg/kg BD (wt 82 kg = 80 mg BD)")
_WORKED_OUT = _compile(r"(?:(?:/|\bper\s+)kg|\b\d+(?:\.\d+)?\s*kg)\s*(?:=|→|->)\s*$", FLAGS)
# round 16: a strength said without its unit after taking or being on it ("the letter says i should be on 75",
# "son adamant he takes 125"), at a clause's end or before a frequency; 10 or more (not a tablet count)
_BARE_DOSE = _compile(
    r"\b(?:be\s+on|takes?|taking|took)\s+(?P<amt>[1-9]\d{1,3}(?:\.\d+)?)"
    r"(?=\s*(?:[,.;?!)]|$|\s+(?:so|but|and|which|not|instead|once|twice|daily|a\s+day|od|bd|tds|nocte|each|every)\b))",
    FLAGS,
)
_MEDICINE_WORD = _compile(
    r"\b(?:tablets?|pills?|capsules?|doses?|puffs?|drops|injections?|medicines?|medications?|take it)\b",
    FLAGS,
)
# round 20: a group that names a blood product's, not the patient's ("per haem give group O red cells + AB
# plasma", "2 units O neg emergency blood")
_NOT_A_PRODUCT = (
    r"(?!\s+(?i:red\s+cells|rbcs?|units?|blood|plasma|ffp|platelets|products?|cryo\w*|emergency"
    # round 21: nor a unit kept for need ("O neg only if needed before resolved")
    r"|uncrossmatched|only\s+if|if\s+(?:needed|required)|on\s+standby)\b)"
)
_BLOOD_GROUP = _compile(
    # round 40: the D in brackets ("A Rh(D) negative")
    # round 43: or O typed as a zero after a verb that reports it ("the blood bank form … said 0-"); round 51:
    # or before its Rh ("Transfusion card from her hospital in Warsaw reads 0 Rh-": European cards print O so)
    # round 59: or given "as" it, its sign in brackets ("card from her hospital abroad gives her group as 0
    # Rh(-)")
    r"(?<![\w])(?P<abo>A[12]?B|A[12]?|B|O|(?<=\b(?i:said|says|shows|showed|reads|read|is|was|as)\s)0(?=[+-]|\s*(?i:rh)))"
    r"\s*(?:(?i:rh)\s*(?:\(\s*D\s*\)|D)?\s*|(?i:rhd)\s*)?(?:\((?=[+-]\)))?"
    # round 39: or in Spanish, Portuguese or Italian ("grupo B Rh negativo" on a card from abroad)
    r"(?P<rh>\+|-(?!\w)|(?i:pos(?:itive|itivo)?|neg(?:ative|ativo)?)\b)(?:(?<=\([+-])\))?" + _NOT_A_PRODUCT
)
# issue 22y: or its reaction ("radiology system flags iodinated contrast reaction (hives)")
# issue 22z: or what it does to the patient ("codeine makes me itch all over")
# round 55: or "allergic" after the allergen ("Triage note: codeine allergic (hives)")
_ALLERGY_AFTER = _compile(
    r"\s+(?:allerg(?:y|ies|ic)|reactions?|makes?\s+(?:me|him|her|them)\s+(?:itch|itchy|swell|wheez\w*|break\s+out|come\s+out))\b",
    FLAGS,
)
# round 43: a record of no allergies said to predate the reaction
_BEFORE_REACTION = _compile(
    r"\bbefore\s+(?:the|her|his|their|any|a)\s+(?:[\w-]+\s+){0,2}(?:reaction|rash|anaphylaxis|allergy)\b",
    FLAGS,
)
# round 56: or after a spaced dash ("Theatre checklist: chlorhexidine allergy - no")
_FIELD_NO = _compile(r"\s*(?:[:=?]|\s[-–—])\s*(?:no|n|nil|none|neg(?:ative)?)\b", FLAGS)
# issue 22y: an allergy record that names its only allergen ("GP summary: allergy = erythromycin only")
_NOT_RIGHT_BEFORE = _compile(r"\bnot\s+$", FLAGS)
# round 75: the allergens listed after the first one ("shes allergic to peanuts and penicillin"), each an
# allergy
_LISTED_WITH = _compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*|\+\s*)(?:to\s+)?", FLAGS)
_NO_BEFORE = _compile(r"\bno\s+(?:known\s+)?$", FLAGS)
# round 14: "lists penicillin allergy only"; round 33: "lists iodine as her only allergy"
_ONLY_AFTER = _compile(
    r"\s+(?:allergy\s+)?only\b|\s+as\s+(?:her|his|their|the|its)\s+only\s+(?:known\s+)?(?:drug\s+)?allerg",
    FLAGS,
)
# round 32: or "only" before it ("hospital allergy record lists only penicillin (nausea)")
# round 56: or "only" before the verb ("her allergy clinic letter only mentions latex")
_ONLY_BEFORE = _compile(
    r"\b(?:lists|shows|has|records|documents|says|reads)\s+only\s+$"
    r"|\bonly\s+(?:lists|shows|records|documents|says|reads|mentions)\s+$"
    # round 74: or the record's only allergy given "as" it ("the referral letter from his GP records his only
    # drug allergy as nitrofurantoin")
    r"|\b(?:her|his|their|the)\s+only\s+(?:known\s+)?(?:drug\s+)?allerg(?:y|ies)\s+(?:as|is|was|being)\s+$"
    # round 81: or the one drug allergy, in the singular, a record gives "as" it ("your discharge letter of 2
    # March records his drug allergy as erythromycin")
    r"|\b(?:records|recorded|lists|listed|documents|documented|gives|gave|codes|coded)\s+(?:her|his|their|the)\s+"
    r"drug\s+allergy\s+as\s+$",
    FLAGS,
)
# round 34: an allergy field, box or band and what it says, right before the allergen
_FIELD_SAYS = _compile(
    r"\ballerg(?:y|ies)\s+(?:box|field|section|band|bracelet|alert|label|wristband|tab)\s+"
    r"(?:says|reads|shows|lists|states|has)\s*:?\s*$",
    FLAGS,
)
# issue 22z round 13: a question's auxiliary opening the part of the clause a change cue is in ("the letter
# says 58 kg but i was 49, does that change my dose"); not "has"/"have", which state a change made
_ASKED_BEFORE = _compile(
    r"(?:^|[,;]\s*|\b(?:and|so|but|or)\s+)(?:does|do|did|will|would|should|could|can|might|is|are)\s+"
    r"(?:[\w']+\s+){0,4}$",
    FLAGS,
)
# round 39: a cause the writer only suspects or asks about ("I suspect a transcription error but have been
# unable to confirm which is correct") explains nothing
# round 74: nor one the text says nobody has made yet, or that should be made ("… says 78 kg, and nobody has
# reweighed him"; "we have not been able to reconcile these and she should be regrouped at booking")
_EXPLANATION_NOT_MADE_BEFORE = _compile(
    r"\b(?:(?:nobody|no\s+one|noone)\s+(?:has|have|had)|(?:should|must|needs?\s+to|will\s+need\s+to)\s+be"
    r"|(?:has|have)\s+not\s+(?:yet\s+)?been|(?:hasn'?t|haven'?t)\s+(?:yet\s+)?been)\s+$",
    FLAGS,
)
_SUSPECTED_BEFORE = _compile(
    r"\b(?:i|we)\s+(?:suspect|wonder\s+if|wonder\s+whether)\s+(?:(?:it\s+is|it'?s|this\s+is|there\s+is|there'?s|it\s+was)\s+)?"
    r"(?:an?\s+|the\s+)?(?:[\w-]+\s+)?$",
    FLAGS,
)
_CONTINUE_WORD = _compile(r"\b(?:continue|continuing|unchanged|no\s+change)\b", FLAGS)
# round 28: a clause in which a further source only seconds the one before ("Pt states she is O neg (has donor
# card), dtr agrees. G&S result this am: B pos") corroborates that value; it explains no difference
_SECONDS_A_SOURCE = _compile(
    r"^\s*(?:and\s+)?(?:(?:the|her|his|their|my|our)\s+)?[\w'-]+(?:\s+[\w'-]+)?\s+(?:also\s+)?"
    r"(?:agrees|agreed|concurs|concurred|confirms|confirmed)\s*$",
    FLAGS,
)
# round 77: or one of three to five words, its own clause or the end of the same one after a comma ("Pt states
# she is A neg, antenatal card in her bag agrees")
_SECONDS_AT_END = _compile(
    r"(?:^|,)\s*(?:and\s+)?(?:(?:the|her|his|their|my|our)\s+)?[\w'-]+(?:\s+[\w'-]+){2,4}\s+(?:also\s+)?"
    r"(?:agrees|agreed|concurs|concurred)\s*$",
    FLAGS,
)
# round 65: or "said the same thing" ("the letter says it was stopped and the GP said the same thing when I
# rang")
_SAID_THE_SAME = _compile(
    r"\b(?:says?|said|told\s+(?:us|me|him|her|them)|confirm(?:s|ed)?|gives?|gave)\s+(?:exactly\s+|just\s+)?the\s+same"
    r"(?:\s+thing)?\b(?!\s+as\b)",
    FLAGS,
)
# issue 22z round 13: a status a source states alone, the drug left to the neighbouring clause ("the sheet
# from the hospital says stopped", "psych clinic letter says continue")
_SAYS_RIGHT_BEFORE = _compile(
    r"\b(?:says?|said|states?|stated|reads?|shows?|documents?|records?|marked|has\s+it(?:\s+as)?)\s+$", FLAGS
)
_IT_WAS = _compile(
    r"\s*(?:(?:no|actually|but|and)[,]?\s+)?(?:it\s+was|it'?s|it\s+is|that\s+was"
    # round 55: or the writer who had it then ("My referral says my hernia operation was on 3 May but I had it
    # on the 13th")
    r"|(?:i|we)\s+(?:actually\s+|really\s+|definitely\s+)?had\s+it(?:\s+done)?(?=\s+on\b))\s+(?:actually\s+|really\s+|in\s+fact\s+)?",
    FLAGS,
)
_IT_WAS_REACH = 25
# round 35: a categorical value that is itself a refusal ("no CPR"), which an earlier "no" does not negate
_OWN_REFUSAL = _compile(r"(?:no|not|do\s+not|don'?t|declines?|refuses?)\b", FLAGS)
# round 32: a record's entry of a status, with whatever follows ("recorded as 'not taking' on the ED admission
# med-rec")
_RECORDED_AS = _compile(
    r"\b(?:recorded|listed|documented|marked|coded|entered|charted|flagged)\s+as\s+(?:(?:not|no\s+longer|never)\s+)?$",
    FLAGS,
)
# issue 22z round 12: an allergen named as the one instead of another source's ("husband says it's actually
# clarithromycin she reacted to", "the reaction was to ibuprofen", "it's aspirin he reacts to")
_INSTEAD_BEFORE = _compile(
    r"(?:\b(?:actually|really|in\s+fact|instead)\b(?:\s+(?:to|was|is|the|it'?s))*"
    r"|\b(?:it'?s|it\s+is|it\s+was)(?:\s+(?:the|to))?|\breaction\s+(?:was|is)\s+(?:actually\s+)?to(?:\s+the)?"
    r"|\bthe\s+allergy\s+is(?:\s+actually)?\s+(?:to)?)\s*$",
    FLAGS,
)
# issue 22y: a weight measured within the last fortnight is today's weight's peer, not its history:
# outside a fluid shift the text would state (an explained cue), an adult's weight does not change by
# 10 % within days, and an infant gains about 150-200 g a week (WHO Child Growth Standards)
_RECENT = _compile(
    r"\b(?:(?:[1-9]|1[0-4]|one|two|three|four|five|six|seven|a\s+few|few)\s+days?\s+ago|yesterday"
    r"|last\s+night|(?:this|last)\s+week|(?:a|one|1)\s+(?:weeks?|wks?)\s+ago"
    # round 22: or two or three weeks ago (a child's weight at the GP "3 weeks ago" against a clinic letter's)
    r"|(?:2|3|two|three)\s+(?:weeks|wks)\s+ago"
    # issue 22z round 12: UK chart shorthand for days ("clinic 2/7 ago": two days; "1/52 ago": a week)
    r"|[1-9]\s*/\s*7\s+ago|1\s*/\s*52\s+ago"
    # round 38: or days in shorthand ("71 kg (clinic 3d ago) / 64 kg (ward scale today)")
    r"|(?:[1-9]|1[0-4])\s*(?:d|dys?)\s+ago"
    # round 65: or hours or minutes before or after ("ED triage weight recorded an hour earlier is 21 kg")
    r"|(?:an?|one|two|three|four|five|six|[1-9]|1\d|2[0-4])\s+(?:hours?|hrs?|minutes?|mins?)\s+(?:ago|earlier|before|later|prior))\b",
    FLAGS,
)
# round 42: a list made at a discharge of the last fortnight ("outside records (Mercy Hospital, discharge 2
# wks ago) apixaban 2.5 mg BD") is a current record, not a dose of the past (a fill's date is round 16's)
_RECENT_RECORD = _compile(r"\bdischarged?\s+(?:on\s+)?" + _RECENT.pattern, FLAGS)
# round 42: two values offered as alternatives and asked about ("(q12h vs q24h?)")
_ALTERNATIVES_BETWEEN = _compile(r"\s*(?:vs\.?|versus|or)\s*", FLAGS)
_ASKED_AFTER = _compile(r"\s*\?", FLAGS)
# round 43: a second sample drawn minutes before or after ("on the blood gas drawn 10 min earlier")
_MINUTES_APART = _compile(r"\b\d{1,2}\s*(?:min|mins|minutes)\s+(?:earlier|before|later|after|prior)\b", FLAGS)
# round 42: "from the same admission" names a source's occasion, not a change "from … to"
_FROM_SAME = _compile(r"from\s+(?:the\s+)?same\b", FLAGS)
# round 73: nor the route of a transfer ("The transfer letter from the ward to the care home lists bisoprolol
# 2.5 mg daily under medicines to continue")
_FROM_PLACE_TO = _compile(
    r"from\s+(?:the\s+|his\s+|her\s+|their\s+)?(?:ward|hospital|home|care\s+home|nursing\s+home|ed|a&e|icu|itu|hdu"
    r"|theatres?|unit|hospice|rehab\w*)\s+to",
    FLAGS,
)
# round 34: in a text about a neonate, its birth weight is still its dosing weight ("term neonate on
# gentamicin - NICU chart birth weight 3.4 kg, pharmacy profile has 2.4 kg")
_NEONATE = _compile(r"\b(?:neonates?|newborns?|nicu|scbu|day\s+[0-7]\s+of\s+life)\b", FLAGS)
_BIRTH_WEIGHT = _compile(r"\bbirth\s*(?:weight|wt)\b", FLAGS)
# round 22: a weight said to be stable over a past span is today's ("weighed 86 kg … today and reports that
# her weight has been stable for the last year")
_STABLE = _compile(
    r"\b(?:stable|unchanged|steady|the\s+same)\s+(?:for|over|during|in)\s+(?:the\s+)?(?:last|past)\s+(?:\w+\s+)?"
    r"(?:years?|months?|weeks?)\b",
    FLAGS,
)
# round 40: a bracketed history that gives the reason for a side's restriction, no side of its own ("no
# BP/cannula L arm (h/o axillary clearance)"): the side stated outside it is today's
# round 42: the history anywhere in a bracket without a side ("on L arm (no BP/cannula, h/o axillary
# clearance)")
_REASON_IN_BRACKETS = _compile(
    r"\((?![^()]*\b(?:left|right|lt|rt|l|r|bilateral|both)\b)"
    r"[^()]*?\b(?:history\s+of|h/o|hx\s+of|previous|prior|past)\b"
    r"[^()]*\)",
    FLAGS,
)
# round 54: the brackets right after a limb, which give why it is restricted ("no BP or cannula in R arm (R
# mastectomy + node clearance 2019 per pt)"): the restriction is current, its reason's year no history of the
# side
# round 63: or after who says so ("no cannula in the right arm per her daughter (history of right axillary
# clearance)")
_LIMB_BRACKET = _compile(
    r"(?<=\b(?:arm|leg|limb|hand|foot)(?:\s+(?:per|according\s+to)\s+(?:the\s+|her\s+|his\s+)?[\w-]+)?\s?)"
    r"\([^()]*\)",
    FLAGS,
)
# round 55: the year of a reaction after its drug ("Daughter says he stopped breathing after oxycodone in
# 2021"): a reaction is always past, its year is when it happened, no earlier grading of it
# round 63: or the year in brackets after it ("Clarithromycin: angioedema (2018) on the GP allergy list")
# round 69: or the place of care it was treated in before the year ("anaphylaxis to co-trimoxazole (ICU
# 2019)")
_REACTION_YEAR = _compile(
    r"\b(?:after|with|to|on|from)\s+[\w-]+\s+in\s+(?:19|20)\d\d\b"
    r"|\(\s*(?:in\s+)?(?:19|20)\d\d\s*\)"
    r"|\(\s*(?:icu|itu|hdu|ed|a&e|resus|theatres?|hospital)\s+(?:19|20)\d\d\s*\)",
    FLAGS,
)
# issue 22y: a gestational age stated now, in weeks(+days): "14 weeks pregnant", "32+4/40", "a gestation
# of 9+2 weeks", "GA 20 wks"; not the time of an event ("booked at 10/40", "delivered at 38 weeks")
_GESTATION = _compile(
    r"(?<!\b(?:at|by|from|since|before|after|until|till)\s)(?<![\w+/.])"
    r"(?:(?P<w>\d{1,2})(?:\+(?P<d>[0-6]))?\s*/\s*40\b"
    r"|(?P<w2>\d{1,2})(?:\+(?P<d2>[0-6]))?\s*(?:weeks?|wks?)(?:\s+(?:and\s+)?(?P<dd>[0-6])\s+days?)?"
    r"\s+(?:pregnant|gestation|of\s+gestation|of\s+pregnancy)\b)"
    # round 24: or a pregnancy of so many weeks ("record a pregnancy of 16 weeks by dating scan"); round 75:
    # or the weeks an obstetric record gives ("the ER paperwork says my wife is not pregnant, her OB chart
    # says 9 weeks")
    r"|\b(?:(?:gestation(?:al\s+age)?|ga)\s*(?:of|:|=|is|was)?|pregnancy\s+of"
    r"|(?:ob|obstetric|antenatal|maternity)\s+(?:chart|notes?|records?|file)\s+(?:says|shows|states|records|gives))"
    r"\s*(?P<w3>\d{1,2})(?:\+(?P<d3>[0-6]))?"
    r"(?=\s*(?:weeks?|wks?|/\s*40)\b)",
    FLAGS,
)
# Two sources' gestations that differ by more than a week: the first-trimester threshold for redating a
# pregnancy by its crown-rump length (ACOG Committee Opinion 700, 2017)
GESTATION_TOLERANCE_WEEKS = 1.0
_BARE_YEAR = _compile(_YEAR)  # the years a clause dates itself by (``_years``)
# round 26: a past year's pregnancy against today's status; round 64: not a year something has been so "since"
# ("she is not pregnant and has had a copper coil in since 2021")
# round 65: nor the year of an operation named right before it ("not pregnant, hysterectomy 2019")
_PREGNANCY_YEAR = _compile(r"(?<!\bsince\s)(?<!\b[a-z]+(?:ectomy|otomy|ostomy|plasty|pexy)\s)" + _YEAR)
# round 71: or an earlier pregnancy named as such ("UPT pos 14/05/23 (prev pregnancy). Today UPT neg")
_EARLIER_PREGNANCY = _compile(r"\b(?:prev(?:ious)?|prior|earlier|last|old)\.?\s+pregnancy\b", FLAGS)
# A blood group does not change with time: an "old" or "historical" group that differs is a conflict.
HISTORY_SENSITIVE = frozenset({"dose", "side", "weight", "lab_value", "gestation", "allergy_severity"})
# round 70: an operation done, whose side a later record cannot change ("had her left breast removed years
# ago" against "paperwork says right mastectomy"; "2023 discharge summary records a right total hip
# replacement" against "practice summary lists left THR, 2023"): two records of it in the past name one event
# (``_one_operation``)
_OPERATION_DONE = _compile(
    r"\b(?:[a-z]+ectomy|removed|amputat(?:ed|ion)|(?:hip|knee|shoulder)\s+replacement|th[ar]|tk[ar]|arthroplasty)\b",
    FLAGS,
)


def _one_operation(first: str, second: str) -> bool:
    """Both clauses name an operation done, and the years they give, if any, are the same."""
    return (
        _OPERATION_DONE.search(first) is not None
        and _OPERATION_DONE.search(second) is not None
        and {y.group() for y in _BARE_YEAR.finditer(first)}
        == {y.group() for y in _BARE_YEAR.finditer(second)}
    )


# issue 22z round 12: an allergy's reaction graded as an allergy record grades it (BSACI / NICE CG183:
# anaphylaxis, angioedema, bronchospasm, severe cutaneous reactions such as SJS/TEN or DRESS, or a reaction
# that needed adrenaline, are severe; a rash alone called mild, or a side effect or intolerance such as
# nausea or diarrhoea, is not an allergy of that grade)
# round 61: the syndrome's name with an en dash and "syndrome" ("Stevens–Johnson syndrome on phenytoin"), so
# that the drug after it is read as its cause
_SEVERE_REACTION = _compile(
    r"\banaphyla\w*|\bangio[\s-]?o?edema\b|\bsjs\b|\bstevens[\s\-–]+johnson(?:\s+syndrome)?\b|\btoxic\s+epidermal\b"
    r"|\b(?-i:DRESS|TEN)\b|\bbronchospasm\b|\b(?:throat|airway|tongue|lip)\s+swelling\b"
    # round 34: a swollen face, or wheeze (aspirin-exacerbated respiratory disease) ("pt describes wheeze and
    # facial swelling within an hour of aspirin")
    r"|\b(?:facial|face|lips?)\s+(?:swelling|oedema|edema)\b|\bswollen\s+(?:face|lips?|tongue|throat)\b|\bwheez\w*"
    r"|\b(?:required|needed|needing|given)\s+(?:im\s+)?(?:adrenaline|epinephrine|epi-?pen)\b"
    # round 55: or breathing that stopped, or needed naloxone ("he stopped breathing after oxycodone in 2021":
    # respiratory depression, against a record of a side effect only)
    r"|\bstopped\s+breathing\b|\brespiratory\s+arrest\b|\b(?:required|needed|needing|given)\s+naloxone\b",
    FLAGS,
)
_MILD_REACTION = _compile(
    # round 16: or itch alone ("reaction as itch only": opioid histamine release, not an allergy)
    r"\bmild\s+(?:\w+\s+)?(?:rash|itch\w*|hives|urticaria|reaction)\b|\bnausea\b|\b(?:gi|stomach|tummy)\s+upset\b"
    r"|\bitch(?:ing|y)?\s+only\b|\bpruritus\b"
    # round 75: or "just" itching ("pt says reaction to morphine was just itching")
    r"|\b(?:just|only|merely)\s+(?:an?\s+|some\s+)?itch(?:ing|y|iness)?\b"
    # round 62: or a drug that "only makes her itchy" (the patient's grading of it)
    r"|\b(?:just\s+|only\s+)?makes?\s+(?:him|her|me|them)\s+(?:a\s+bit\s+|slightly\s+)?itch(?:y|ing)?\b"
    # round 37: or itch as a list entry's reaction ("inpatient allergy list morphine - itch")
    r"|(?<=[-–:]\s{0,2})itch(?:ing|y)?\b"
    r"|\bupset\s+stomach\b|\bintoleran(?:ce|t)\b|\bdiarrh?o?ea\b|\bside[\s-]+effects?\b"
    # round 40: or an infusion-rate reaction, not an allergy ("vancomycin reaction as infusion-related
    # flushing": the red man syndrome, BNF vancomycin)
    r"|\binfusion[\s-]+(?:related|rate)\b|\bred[\s-]+(?:man|person)\b|\bflushing\b",
    FLAGS,
)
# in order: a clause that names both grades is read as severe
_REACTION_GRADES = (("severe", _SEVERE_REACTION), ("mild", _MILD_REACTION))
# round 37: a reaction right after a spaced dash is the allergen's entry ("'penicillin - mild rash' on the
# discharge summary"), not a second source's statement
_REACTION_AT = _compile(rf"\s*(?:{_SEVERE_REACTION.pattern}|{_MILD_REACTION.pattern})", FLAGS)
_CAUSED = _compile(r"\b(?:caus(?:es|ed|ing)|gave|gives|triggered|provoked|led\s+to)\b", FLAGS)
# round 15: or an intolerance ("as nausea (intolerance) on hospital EPR")
_REACTION_WORD = _compile(r"\b(?:reaction|reacts?|reacted|allerg\w*|intoleran\w*)\b", FLAGS)
# issue 22u: a quoted field value ("allergies as 'none'"); an apostrophe inside a word stays
_FIELD_QUOTE = _compile(r"(?<![A-Za-z])['‘’]|['‘’](?![A-Za-z])|[\"“”]")
# round 53: a relative clause that says who brought a record, set off by commas between the record and its
# verb ("the lab printout for the same date, which her husband brought in, reads 210 ug/L"): the bringer is no
# source of the value, and the clause is not cut at them (blanked, same length)
# round 56: or who holds it now ("The lab printout for that date, which I have here, reads 6.2 mmol/L")
_DELIVERY_ASIDE = _compile(
    r",\s*(?:which|that)\s+(?:[\w']+\s+){0,3}?(?:brought|sent|handed|gave|faxed|emailed|e-mailed|posted|forwarded)"
    r"(?:\s+(?:in|over|us|me|to\s+(?:us|me|clinic|the\s+\w+)|with\s+(?:him|her|them)))*\s*,"
    r"|,\s*(?:which|that)\s+(?:i|we)\s+(?:have|hold|am\s+holding|am\s+looking\s+at)"
    r"(?:\s+(?:in\s+front\s+of\s+(?:me|us)|here|to\s+hand|with\s+me|now))?\s*,",
    FLAGS,
)
# issue 22w: a spaced dash joins two sources' statements as a comma does ("she says 10 mg - box says 5 mg")
# issue 22z: and a spaced slash ("EPR 'not pregnant' / pt & partner report 22/40"), not a ratio ("3/52")
# round 15: or a second "and as" ("recorded as anaphylaxis on GP record and as nausea on hospital EPR")
# round 55: or a spaced bar between two fields ("Group: BB record A neg | pt's donor card: A pos")
# round 65: not a comma inside a bracket ("eGFR (GP record, same sample): 31"), which qualifies one value
_COMMA = _compile(r",(?<!\([^()\n]{0,40},)(?=\s)\s*|\s+[-–—/|]\s+|\s+and\s+(?=as\s)")
# issue 22y: or the compliance aid it is packed in ("still on dosette from pharmacy")
# issue 22z: or the object of a verb after the cue ("continues to take it", "continues to dispense it")
_PRONOUN_AFTER = _compile(
    r"\s+(?:(?:to\s+)?(?:take|taking|use|using|have|having|dispense|dispensing|supply|supplying|give|giving"
    r"|fill|filling|send|sending|order|ordering)\s+)?"
    r"(?:it|them|(?:the\s+|his\s+|her\s+|their\s+)?(?:dosette|blister\s+pack|nomad|compliance\s+aid)\b)",
    FLAGS,
)
# issue 22z: a drug named as the heading of its clause ("Aspirin: GP summary 'discontinued'")
# round 21: or after a medicines heading ("Home meds: levothyroxine 75 mcg OD - wife states he ran out")
_HEADING_LEAD = _compile(
    r"\W*(?:(?:home|regular|current|usual|admission|discharge|dh|pt'?s?)?\s*(?:meds?|medications?|medicines|dh|rx)\s*[:\-–]\s*)?$",
    FLAGS,
)
# a drug's amount in mg, micrograms or units, the same wherever a status is read beside it
_AMOUNT = r"\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g|units?)"
_HEADING_COLON = _compile(
    # round 17: or a spaced dash ("Digoxin - pt says stopped"); round 20: after the drug's dose and frequency
    # ("Clopidogrel 75mg OD - dtr says stopped after 12 mo")
    rf"(?:\s*{_AMOUNT}"
    r"(?:\s+(?:od|bd|bid|tds|tid|qds|qid|daily|nocte|mane|on|weekly|wkly|once\s+(?:daily|weekly)))?)?"
    r"\s*(?::|\s[-–—]\s)",
    FLAGS,
)


def _heading_drug(clause: str, drugs: list[regex.Match]) -> regex.Match | None:
    """The clause's first drug when nothing but punctuation comes before it and a colon or dash after it."""
    if not drugs or not _HEADING_LEAD.match(clause, 0, drugs[0].start()):
        return None
    return drugs[0] if _HEADING_COLON.match(clause, drugs[0].end()) else None


# "digoxin stopped by cardiology", "was discontinued": a passive before a drug's status; round 61: with the
# record's verb ("clarithromycin is listed active on the ED chart")
_STATUS_PASSIVE_GAP = _compile(
    r"\b(?:was|were|is|are|been|being|as(?:\s+an?)?)"
    r"(?:\s+(?:listed|recorded|documented|charted|marked|shown|flagged|coded))?\s*$",
    FLAGS,
)

# issue 22z: an explanation in the one clause between two statements reaches them
# round 20: the verbs of a whole drug class held ("all LMWH held", "withheld all antiplatelets")
_CLASS_HELD = r"(?:held|withheld|stopped|suspended|omitted|discontinued)\b"
_EXPLAINED_BETWEEN = 3  # round 15: 2 -> 3 ("triage form 'pregnant: yes' vs clerking 'no' - resolved, box …")
# round 31: how far apart two values may be for a change made between them to explain them
_CHANGED_BETWEEN = 3
# issue 22z round 12: a standing decision made or signed ("signed it with her doctor last year", "ReSPECT
# form completed in 2023"): the date is the document's, and the decision stands until revoked
# round 21: the day a record was written, reported or filled is no earlier value's date ("the discharge
# summary dated 22/04/2024", "the ultrasound report of 12/03/2024", "(last fill 03/02/2024, #30)")
_RECORD_DATE = _compile(
    # round 23: or the letter of a date ("the GP letter of 12 March records apixaban 2.5 mg")
    r"(?:\bdated\s+|\b(?:report|scan|doppler|ultrasound|x-?ray|mri|echo)\s+(?:(?:of|from|on)\s+)?"
    r"|\b(?:letter|summary|referral|note|notes|list)\s+of\s+"
    r"|\b(?:last\s+)?(?:community\s+)?fill(?:ed)?\s+(?:on\s+)?\(?"
    # round 62: or the day a supply was dispensed ("Ramipril 2.5 mg dispensed 11/02/2025 per the pharmacy")
    r"|\bdispensed\s+(?:on\s+)?)"
    rf"(?:{_DATE.pattern})",
    FLAGS,
)
_DOCUMENT_MADE = _compile(
    # round 48: or dated as a decision or form ("he has a DNACPR decision dated 2024")
    r"\b(?:signed|completed|filled\s+(?:in|out)|drawn\s+up|witnessed|put\s+in\s+place"
    r"|(?:decision|form|order)\s+dated)\b"
    # round 67: or a standing form named in brackets with the year it was made ("SNF transfer packet states
    # DNR/DNI (POLST 2023); active code status order in our EHR is Full Code")
    r"|\(\s*(?:polst|molst|respect|dnacpr|dnar|advance\s+directive)\s+(?:19|20)\d\d\s*\)",
    FLAGS,
)
# round 53: a sentence that opens on the difference as its subject and calls it a change ("The referral letter
# gives 90 kg; today's clinic weight is 81 kg. This is true weight loss since the referral, …")
# round 72: a clause that opens with its consequence ("She was de-labelled after a negative oral amoxicillin
# challenge …, | so this summary reads 'no known drug allergies' | while older GP entries still show
# penicillin allergy"): the clause before it explains the difference
_CONSEQUENCE_OPENING = _compile(r"\s*(?:so|hence|therefore|thus|which\s+is\s+why|that\s+is\s+why)\b", FLAGS)
_VERDICT_OPENING = _compile(r"\s*(?:this|that|the\s+difference)\s+(?:is|was|reflects)\b", FLAGS)
# round 53: a standing document its maker never revoked or changed ("… says DNACPR and he never revoked it")
_NEVER_REVOKED = _compile(
    r"\bnever\s+(?:(?:been|was|were)\s+)?(?:revoked|rescinded|cancell?ed|withdrawn|withdrew|changed|reversed|overturned)\b",
    FLAGS,
)
# issue 22z: the value that opens the second half of "Na 118 on VBG vs 134 on lab chem"
# round 34: or its source in brackets after it ("Plt 42 (lab, 07:10) / 142 (h/o sheet)")
_SOURCE_FOLLOWS = r"(?=\s+(?:on|per|from|by|in)\s|\s*\((?!\s*\d))"
_LEADING_VALUE = _compile(r"\s*\d+(?:\.\d+)?" + _SOURCE_FOLLOWS, FLAGS)
# round 34: a date that opens its clause, then where it is written ("DOB 03/07/1948 on wristband, 07/03/1948
# on the referral letter and request form"), as a value does above
# round 66: or a day and month, then when the patient was asked ("LMP 02/03 on the booking form vs 16/03 when
# pt asked in clinic")
_LEADING_DATE = _compile(
    r"\s*\d{1,2}/\d{1,2}/\d{2,4}" + _SOURCE_FOLLOWS + r"|\s*\d{1,2}/\d{1,2}(?:/\d{2,4})?(?=\s+when\s+"
    r"(?:[\w'-]+\s+){0,3}?(?:asked|questioned|seen|reviewed|spoken\s+to)\b)"
    # round 79: or a day and month written out, then where it is written ("Myocardial infarction: 5 January
    # 2023 according to the cardiology letter, 5 January 2022 in the GP summary")
     + r"|\s*\d{1,2}(?:st|nd|rd|th)?\s+" + _MONTH + r"(?:\s+(?:19|20)\d\d)?" + _SOURCE_FOLLOWS,
    FLAGS,
)
# issue 22z: the second half of "given as 14 March in the summary and as 21 March in the note"
_AS_AGAIN = _compile(r"\s*as\s+(?=\d)", FLAGS)
# round 64: a clause that is only the second value of the clause before ("Her potassium from the 12/06/2025
# sample is reported as 3.2 mmol/L by the renal unit but as 6.1 mmol/L in our system")
_ELLIPTIC_AS = _compile(r"\s*(?:but\s+|and\s+)?as\s+(?=[<>]?\d)", FLAGS)
# issue 22z: a negative auxiliary before an activity ("they havent been giving it")
_NEGATIVE_AUXILIARIES = r"haven'?t|hasn'?t|didn'?t|weren'?t|wasn'?t"
_NEGATIVE_AUXILIARY = _compile(rf"\b(?:{_NEGATIVE_AUXILIARIES})\s+(?:\w+\s+)?$", FLAGS)
# issue 22z: a fill history that ends ("last dispensed 11/2023, no fills since"): its drug is stopped
_FILLS_STOPPED = _compile(
    r"\bno\s+(?:fills|refills|supply|supplies|dispensing|collections?)\s+since\b", FLAGS
)
# issue 22z: an amount before an activity without its drug ("MAR shows 500 mg BD still being given"),
# and one after it ("EPR order active 500mg BD"): a status of the neighbouring clause's drug
_AMOUNT_BEFORE = _compile(
    rf"\b{_AMOUNT}\s+(?:(?:od|bd|bid|tds|tid|qds|daily|nocte|mane)\s+)?"
    r"(?:(?:still|is|are|was|were|being|as)\s+){0,3}$",  # round 14: "has 500mg BD as current"
    FLAGS,
)
# round 21: a schedule alone after a status ("pt says taking daily", "says still taking them every morning");
# round 22: or the time since ("Pt says not used since Jan", "med rec says HELD since CT contrast this am")
_SCHEDULE_ONLY = _compile(
    r"(?:(?:it|them|each|every|all)\s+)?(?:daily|every\s+(?:day|morning|night|evening)|od|bd|bid|tds|nocte|mane"
    r"|regularly|as\s+prescribed|twice\s+(?:a\s+)?daily|once\s+(?:a\s+)?daily)"
    r"|since\s+[\w/ ]{1,30}",
    FLAGS,
)
_AMOUNT_AFTER = _compile(rf"\s*{_AMOUNT}\b", FLAGS)
# round 14: the words between a drug and the list it is named in ("warfarin among her current medications")
_AMONG_BEFORE = _compile(r"\s+(?:among|amongst|in|on|under)\s+(?:(?:the|his|her|their|my|its)\s+)?", FLAGS)
# what a status cue in a clause without a drug refers to: a regimen, a list, a supply (issue 22z round 12:
# "sign-out says continue home dose"; round 14: "still on active GP repeat", "taken off his list")
_REGIMEN_OBJECT = _compile(
    # round 21: or the list it stands on ("Still active on GP list")
    r"(?:\s+(?:on|in)\b)?(?:\s+(?:(?:the|his|her|their|my|its|an?|active|current|regular|gp|hospital|home|own|repeat|usual|same)"
    r"\s+){0,3})?\s*(?:(?!(?:no|not|none|without|any)\b)\w+\s+)?(?:repeat\s+)?(?:repeats?|lists?|prescriptions?|scripts?|meds?|medications?"
    r"|medicines|regimen|prophylaxis|anticoagulation|anticoagulant|supply|supplies|dose|doses|tablets?|tabs|pills"
    r"|injections?|mar|chart|profile)\b",
    FLAGS,
)
_OTHER_BEFORE = _compile(r"\b(?:other|further|additional|new)\s+$", FLAGS)
# round 23: drug names written one after another name one drug ("insulin glargine")
_DRUG_JOIN = _compile(r"[\s-]*")
# round 23: a status of something other than a drug ("no other meds given", "no new supply dispensed")
_NEGATED_OTHER = _compile(r"\b(?:no|nil|not|none)\b", FLAGS)
_NONE_AFTER = _compile(r"\s+(?:no|nil|none)\b", FLAGS)  # "she is taking no anticoagulant"
# a stop dated or made by someone is a decision on record, not a second account of the drug ("Stopped 12/05 by
# renal team", "held 12/3 by Dr Kaur for AKI")
_DECIDED = _compile(r"\bby\s+(?:dr\.?\s|the\s+)?\w+", FLAGS)
# round 17: a record's entry that is a status alone ("GP list - active, repeat issued last month")
_RECORD_BEFORE = _compile(
    # round 20: or a supply's, and an equals sign ("EPR + pt's pill organiser = still taking")
    r"\b(?:list|record|chart|mar|summary|letter|profile|notes?|repeats?|slip|epr|ehr|kardex|organi[sz]er|dosette"
    r"|pack)\s*[:=\-–—]\s*$",
    FLAGS,
)
_ENTRY_END = _compile(r"\s*(?:[,;.)]|$)")
# round 16: or "its still in her dosette box" (it is)
# round 45: or the record's marking between ("the pharmacy profile shows it marked 'stopped by prescriber'")
_PRONOUN_BEFORE = _compile(
    r"\b(?:it|them|it'?s)\s+(?:(?:as|was|were|being|been|is|marked|flagged|listed|recorded)\s+)*$", FLAGS
)
# round 77: a stop denied right before its cue ("Dr Khan never stopped it"), the drug still taken
# (``_mentions``); a patient who "has never stopped it" is round 30's ``_STOP_DENIED``
_STOP_DENIED_BEFORE = _compile(
    r"(?<!\b(?:has|have|had|i'?ve|ive)\s+)\b(?:never|nobody|no\s+one|didn'?t|didnt|did\s+not|hasn'?t|hasnt"
    r"|has\s+not|wasn'?t|wasnt|was\s+not)\s+(?:been\s+)?$",
    FLAGS,
)
# issue 22z: and a negative auxiliary ("they havent been giving it")
_NEGATED_ACTIVITY = _compile(
    rf"\b(?:no|not|never|isn'?t|aren'?t|{_NEGATIVE_AUXILIARIES})\s+(?:\w+\s+){{0,1}}$", FLAGS
)
_INSTRUCTION_GAP_WORDS = 6
# round 54: a drug named before an allergy word is an allergy's, not the drug's ("… and no codeine allergy")
_ALLERGY_NOUN_AFTER = _compile(r"\s*(?:allerg\w*|intoleran\w*|sensitivit\w*|reactions?)\b", FLAGS)
# round 53: a drug the patient has not had, named right after the words ("he hasn't had tamsulosin at home");
# not "had" alone, whose object is as often a symptom ("hasn't had any chest pain")
# round 54: or denies, or a record has it "with no" the drug ("Pt denies any insulin"; "on letrozole 2.5 mg
# daily alone, with no anastrozole")
_NOT_HAD_BEFORE = _compile(
    r"\b(?:hasn'?t|hasnt|has\s+not|haven'?t|havent|have\s+not|hadn'?t|had\s+not)\s+had\s+(?:any\s+|his\s+|her\s+)?$"
    r"|\b(?:denies|denied|denying)\s+(?:taking\s+|using\s+|having\s+)?(?:any\s+)?$|\b(?:with|and)\s+no\s+$",
    FLAGS,
)


@dataclass(frozen=True)
class Mention:
    """One attribute value stated in one clause."""

    attribute: str  # dose | side | date | time | allergy | medication_status | weight | … | typed_* (22y)
    key: str  # what the value belongs to (drug, body part, event, "weight", allergen class)
    value: object
    clause: int
    start: int
    end: int
    implied: bool = False  # a dose or frequency stated without its drug
    same_clause: bool = False  # may conflict within its own clause (a reported stop instruction)


@dataclass(frozen=True)
class CompiledAttributes:
    spec: AttributeFile
    drug: regex.Pattern
    source: regex.Pattern
    change: regex.Pattern | None
    history: regex.Pattern | None
    bilateral: regex.Pattern | None
    side: regex.Pattern
    part_group: dict[str, str]
    date_attributes: tuple[tuple[str, regex.Pattern], ...]
    allergy_present: regex.Pattern
    allergy_absent: regex.Pattern
    tolerated: regex.Pattern | None
    allergen: regex.Pattern
    allergen_class: dict[str, str]
    stopped: regex.Pattern
    active: regex.Pattern
    categorical: tuple[tuple[str, tuple[tuple[str, regex.Pattern], ...]], ...] = ()
    blood_cue: regex.Pattern | None = None
    lab: regex.Pattern | None = None
    lab_key: dict[str, str] = field(default_factory=dict)
    stop_instruction: regex.Pattern | None = None
    lab_unit_value: regex.Pattern | None = None  # a number with a laboratory unit, analyte implied
    lab_name: regex.Pattern | None = None  # an analyte's name alone (issue 22z)
    allergy_notation: regex.Pattern | None = None  # "co-trimoxazole (rash)"
    explained: regex.Pattern | None = None
    class_absent: tuple[tuple[regex.Pattern, frozenset[str]], ...] = ()


def _optional(terms: tuple[str, ...]) -> regex.Pattern | None:
    return _alternation(terms) if terms else None


# round 65: between an analyte and its value, a bracket naming the meter or the record ("INR (CoaguChek) 3.1",
# "K+ (ward gas, 07:40): 6.2"), or the draw time after "drawn" ("lab INR drawn 10:05: 2.6")
_LAB_BRACKET_ASIDE = r"\s*\([^()\n]{1,40}\)"
_LAB_DRAWN_AT = (
    r"\s+(?:drawn|taken|sampled|collected)\s+(?:at\s+)?(?:\d{3,4}h?|\d{1,2}:\d{2})(?=\s*(?:is|was|=|:)\s)"
)

# round 66: or the sample's date or draw in a few words, then "reported as" ("TSH from the 08/01 blood test is
# quoted as 0.2 mU/L"; "HbA1c collected 02/04/2025 reported as 7.5 %")
_LAB_REPORTED_AS = (
    r"(?:\s+[\w/@:.-]+){0,6}?\s+(?:is\s+|was\s+)?"
    r"(?:reported|quoted|given|recorded|documented|resulted|written)\s+as"
)


def compile_attributes(spec: AttributeFile) -> CompiledAttributes:
    stems = "|".join(regex.escape(s) for s in spec.drug_stems)
    names = _alternation(spec.drug_names).pattern
    stemmed = rf"|(?<![\w-])[a-z]{{2,}}(?:{stems})(?![\w-])" if stems else ""
    drug = _compile(f"(?P<drug>{names}{stemmed})", FLAGS)
    part_group = {word.lower(): group for group, words in spec.body_parts.items() for word in words}
    parts = "|".join(regex.escape(w) for w in sorted(part_group, key=len, reverse=True))
    side = _compile(
        rf"\b{SIDE_WORD}(?:[\s-]+sided)?(?:[\s-]+[a-z]+){{0,2}}?[\s-]+(?P<part>{parts})\b"
        rf"|\b(?P<part>{parts}){_SIDE_AFTER_PART}"
        rf"|\b{SIDE_WORD}{_BRACKET_NAMING_PART.format(parts=parts)}",
        FLAGS,
    )
    allergen_class = {word.lower(): group for group, words in spec.allergen_classes.items() for word in words}
    lab_key = {word.lower(): analyte for analyte, words in spec.lab_analytes.items() for word in words}
    lab_units = sorted({u for table in spec.lab_units.values() for u in table}, key=len, reverse=True)
    unit_alt = "|".join(regex.escape(u) for u in lab_units)
    unit_group = rf"(?:\s*(?P<unit>{unit_alt})(?!\w))?" if lab_units else ""
    # an analyte's name: read alone (issue 22z) and as the head of a value
    analyte = (
        r"(?<![\w+])(?P<analyte>"
        + "|".join(regex.escape(w) for w in sorted(lab_key, key=len, reverse=True))
        + r")(?![\w+])"
    )
    allergen_words = sorted(allergen_class, key=len, reverse=True)
    allergen = _compile(
        r"(?<![\w-])(?P<allergen>"
        + "|".join(regex.escape(w) for w in allergen_words)
        + r")(?![\w-])"
        + f"|{drug.pattern}",
        FLAGS,
    )
    return CompiledAttributes(
        spec=spec,
        drug=drug,
        source=_alternation(spec.source_cues),
        change=_optional(spec.change_cues),
        history=_optional(spec.history_cues),
        bilateral=_optional(spec.bilateral_cues),
        side=side,
        part_group=part_group,
        date_attributes=tuple((name, _alternation(terms)) for name, terms in spec.date_attributes.items()),
        allergy_present=_alternation(spec.allergy_present),
        allergy_absent=_alternation(spec.allergy_absent),
        tolerated=_optional(spec.tolerated),
        allergen=allergen,
        allergen_class=allergen_class,
        stopped=_alternation(spec.status_stopped),
        active=_alternation(spec.status_active),
        categorical=tuple(
            (name, tuple((value, _alternation(cues)) for value, cues in values.items()))
            for name, values in spec.categorical.items()
        ),
        blood_cue=_optional(spec.blood_group_cues),
        lab=_compile(
            analyte
            # issue 22u: the record between analyte and value ("CBG on MAR 4.2 mmol/L"), or a few words
            # before an equals sign ("glucose drawn 0600 = 7.1 mmol/L")
            # issue 22z: a record named with its kind ("HbA1c per GP summary 6.1%")
            # round 28: a draw time in the same-sample phrase ("lab glucose on the same 0600 draw 7.8"), not
            # "same" read as a record
            + r"(?:\s+(?:on|per|from|in|by)\s+(?:the\s+)?(?!same\b)[a-z][\w-]*"
            + r"(?:\s+(?:summary|letter|record|list|note|system|report))?|(?:\s+[\w@:-]+){1,3}?(?=\s*=)"
            + r"|\s+(?:(?:on|from|in)\s+)?(?:the\s+)?same\s+(?:(?:\d{3,4}h?|\d{1,2}:\d{2})\s+)?"
            + r"(?:draw|sample|specimen|check|time)"
            # issue 22z round 12: a draw time between ("our INR at 1000 is 3.8", "K+ @ 06:30 = 5.9")
            + r"|\s+(?:at|@)\s*(?:\d{3,4}h?|\d{1,2}:\d{2})(?=\s*(?:is|was|=|:)\s)"
            + f"|{_LAB_BRACKET_ASIDE}|{_LAB_DRAWN_AT}|{_LAB_REPORTED_AS})?"
            # issue 22z round 13: or "as" ("the app shows my INR as 2.4")
            + r"[\s:=]{0,3}(?:(?:was|is|of|as)\s+)?(?P<value>\d+(?:\.\d+)?)(?![\d/])"
            + unit_group,
            FLAGS,
        )
        if lab_key
        else None,
        lab_key=lab_key,
        lab_name=_compile(analyte, FLAGS) if lab_key else None,
        stop_instruction=_optional(spec.status_stop_instruction),
        lab_unit_value=_compile(rf"(?<![\w./])(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>{unit_alt})(?!\w)", FLAGS)
        if lab_units
        else None,
        allergy_notation=_compile(
            # issue 22t: the entry's separator may be a bracket, a dash, a colon or ", with", and a
            # few words may qualify the reaction ("penicillin - anaphylaxis", "trimethoprim, with a
            # widespread urticarial rash"); issue 22z: or an arrow ("penicillin -> rash")
            "(?:"
            + allergen.pattern
            + ")"
            + _ALLERGY_ENTRY_SEPARATOR
            + r"(?:(?:a|an|severe|widespread|generalised|generalized|"
            r"mild|bad|itchy|urticarial|facial|full[\s-]body|whole[\s-]body)\s+){0,3}(?:"
            + _alternation(spec.allergy_reactions).pattern
            + r")",
            FLAGS,
        )
        if spec.allergy_reactions
        else None,
        explained=_optional(spec.explained_cues),
        class_absent=tuple(
            (
                _class_absent(_alternation(drug_class.names).pattern),
                frozenset(m.lower() for m in drug_class.members),
            )
            for drug_class in spec.drug_classes.values()
        ),
    )


def _class_absent(names: str) -> regex.Pattern:
    """issue 22w: a source saying the patient is on none of a drug class (``names``, an alternation)."""
    return _compile(
        # issue 22y: or had none of it ("hasn't had any insulin for 2 wks")
        # round 14: or "taking no anticoagulant"
        # round 16: or never started ("never been started on bone protection")
        # round 36: or "never been on" ("Pt: 'never been on a blood thinner apart from aspirin'")
        r"\b(?:(?:not\s+on|no|never\s+(?:been\s+)?on|not\s+taking|not\s+prescribed|(?:taking|on|receiving)\s+no"
        r"|never\s+(?:been\s+)?(?:started|put)\s+on"
        r"|(?:has|have|had)(?:n'?t|\s+not)\s+(?:had|taken|been\s+(?:given|on)|received)"
        # round 32: or does not take any ("the care home med sheet says she doesnt take any steroids")
        r"|(?:does|do|did)(?:n'?t|nt|\s+not)\s+(?:take|use|have|get)"
        # round 43: or denies taking any ("pt denies taking any antiplatelets"), or has the patient off it
        # ("clinic records have him off insulin")
        r"|den(?:y|ies|ied|ying)\s+(?:ever\s+)?(?:taking|using|being\s+on)|(?<=\b(?:him|her|them|me)\s)off"
        # round 63: or says the patient is off it ("his wife says he's been off insulin since the summer")
        r"|(?<=\b(?:(?:he|she|they|i)['’]?(?:s|re|m)|hes|shes|(?:he|she)\s+is|they\s+are|i\s+am)"
        r"(?:\s+(?:now|been))?\s)off"
        # round 61: or no longer on it ("Wife says he is no longer on insulin")
        r"|no\s+longer\s+(?:on|taking|using))"
        rf"\s+(?:any\s+|an?\s+)?(?:{names})"
        # round 20: or the whole class held ("all LMWH held from last night ahead of epidural")
        rf"|all\s+(?:{names})\s+{_CLASS_HELD}|{_CLASS_HELD}\s+all\s+(?:{names}))",
        FLAGS,
    )


MEMO_LIMIT = 200_000


def _memo(memo: dict, key: tuple, compute: Callable[[str], object]) -> Any:
    """``compute(key[1])``, remembered under ``key``."""
    if key not in memo:
        memo[key] = compute(key[1])
    return memo[key]


# round 61: a sample named by its number or order is a source of its own ("sample 1 groups O pos; sample 2
# (another phlebotomist) groups A pos": two samples, two sources, though both are "sample")
_NUMBERED_SAMPLE = _compile(
    r"\b(?:sample|specimen)\s+(?:#\s*|no\.?\s*)?(?P<order>\d{1,2}|one|two|three)\b(?![/.:]\d)"
    r"|\b(?P<order>first|second|third|1st|2nd|3rd)\s+(?:sample|specimen)\b",
    FLAGS,
)


def _clause_facts(clause: str, a: CompiledAttributes) -> tuple[frozenset[str], bool]:
    """The source cues a clause names, and whether it carries a calendar date other than the date a
    record was written or filled on (round 21: "the discharge summary dated 22/04/2024 lists…")."""
    undated = _RECORD_DATE.sub(" ", clause)
    named = {m.group().lower() for m in a.source.finditer(clause)}
    named |= {f"sample {m.group('order').lower()}" for m in _NUMBERED_SAMPLE.finditer(clause)}
    return frozenset(named), _DATE.search(undated) is not None


def _split_at_sources(
    text: str, spans: list[tuple[int, int]], source: regex.Pattern
) -> list[tuple[int, int]]:
    """Cut a clause again at a comma when the parts before and after it each name a source: two
    sources in one comma-joined clause ("5 mg per the drug chart, 2.5 mg per the GP summary")."""
    out = []
    for start, end in spans:
        cuts = [
            c
            for c in _COMMA.finditer(text, start, end)
            if not (c.group().strip() in ("-", "–", "—") and _REACTION_AT.match(text, c.end()))
        ]
        if not cuts:
            out.append((start, end))
            continue
        bounds = [start, *(c.start() for c in cuts)], [*(c.end() for c in cuts)]
        segments = list(zip(bounds[0], [*(c.start() for c in cuts), end], strict=True))
        segments = [(s if k == 0 else bounds[1][k - 1], e) for k, (s, e) in enumerate(segments)]
        piece_start, piece_end = segments[0]
        piece_source = source.search(text, piece_start, piece_end) is not None
        for s, e in segments[1:]:
            has_source = source.search(text, s, e) is not None
            if has_source and piece_source:
                out.append((piece_start, piece_end))
                piece_start = s
            piece_end = e
            piece_source = piece_source or has_source
        out.append((piece_start, piece_end))
    return out


def _clauses(text: str) -> list[tuple[int, int]]:
    """Clause spans: sentences, cut again at ', and/while/whereas/but' (two sources in one sentence)."""
    spans, start = [], 0
    for match in [*_SENTENCE_END.finditer(text), None]:
        end = match.start() if match else len(text)
        cut = start
        for split in _CLAUSE_SPLIT.finditer(text, start, end):
            spans.append((cut, split.start()))
            cut = split.end()
        spans.append((cut, end))
        start = match.end() if match else len(text)
    return [(s, e) for s, e in spans if text[s:e].strip()]


# round 52: a colon and a space close a heading, and a negation in the heading does not reach past them
# ("Ceftriaxone 2 g IV not verified: GP record lists cephalosporin allergy (hives)")
_NEGATION_BREAK = _compile(r":\s", FLAGS)


def _negated_before(text: str, clause_start: int, position: int, lexicon: Lexicon) -> bool:
    colons = list(_NEGATION_BREAK.finditer(text, clause_start, position))
    start = colons[-1].end() if colons else clause_start
    before = lexicon.pseudo_negation.sub(" ", _last_words(text[start:position], 6))
    return bool(lexicon.negation_pre.search(before))


def _group(match: regex.Match, name: str) -> str | None:
    return match.group(name) if name in match.re.groupindex else None


DateReading = tuple[int | None, int | None, int | None, int | None, int | None]


def _clock_minutes(match: regex.Match) -> int:
    """Minutes after midnight of a clock time."""
    if match.group("h3"):
        hour, minute, half = int(match.group("h3")), 0, match.group("ap3").lower()
    elif match.group("h2"):
        hour, minute, half = int(match.group("h2")), int(match.group("m2")), None
    else:
        hour, minute = int(match.group("h")), int(match.group("m"))
        half = match.group("ap").lower() if match.group("ap") else None
    if half is not None:
        hour = hour % 12 + (12 if half == "pm" else 0)
    return hour * 60 + minute


def gestation_weeks(match: regex.Match) -> float:
    """A gestational age in weeks ("32+4/40" is 32 + 4/7)."""
    weeks = next(match.group(k) for k in ("w", "w2", "w3") if match.group(k))
    days = next((match.group(k) for k in ("d", "d2", "dd", "d3") if match.group(k)), "0")
    return int(weeks) + int(days) / 7


def _clocks_differ(u: int, v: int) -> bool:
    """Two clock times more than an hour apart, round the clock (23:50 and 00:20 are 30 minutes)."""
    gap = abs(u - v)
    return min(gap, 24 * 60 - gap) > CLOCK_TOLERANCE_MINUTES


def _date_value(match: regex.Match) -> frozenset[DateReading]:
    """The readings (month, day, year, weekday, days ago) of a date, None where it does not say."""
    if _group(match, "wd"):
        return frozenset({(None, None, None, _WEEKDAYS[match.group("wd").lower()], None)})
    if _group(match, "wd3"):
        return frozenset({(None, None, None, _WEEKDAY3[match.group("wd3").lower()], None)})
    if _group(match, "rel0") or _group(match, "rel1"):
        return frozenset({(None, None, None, None, 0 if match.group("rel0") else 1)})
    if _group(match, "reln") or _group(match, "lastu"):
        count = match.group("reln")
        number = (int(count) if count.isdigit() else _NUMBER_WORDS[count.lower()]) if count else 1
        unit = (match.group("relu") or match.group("lastu"))[0].lower()
        return frozenset({(None, None, None, None, number * _UNIT_DAYS[unit])})
    if _group(match, "m6"):
        return frozenset({(_MONTHS[match.group("m6").lower()], None, None, None, None)})
    if _group(match, "d7"):
        return frozenset({(None, int(match.group("d7")), None, None, None)})
    return frozenset((*reading, None, None) for reading in _calendar_value(match))


def _both_ways(first: int, second: int, year: int | None) -> frozenset[tuple[int, int, int | None]]:
    """A numeric day/month read both ways, each reading a calendar one (month 1-12, day 1-31): "00/05"
    is no date (it reached ``datetime.date`` in ``_one_cycle_apart`` and raised)."""
    return frozenset(
        (month, day, year)
        for month, day in ((first, second), (second, first))
        if 1 <= month <= 12 and 1 <= day <= 31
    )


def _calendar_value(match: regex.Match) -> frozenset[tuple[int | None, int | None, int | None]]:
    """The readings (month, day, year) of a calendar date, None where it does not say: a numeric
    day/month is read both ways unless one part is above 12 (issue 22s: "12/06/2023" is 21 June's
    conflict, not its string)."""
    if match.group("iso"):
        year, month, day = (int(p) for p in match.group("iso").split("-"))
        return frozenset({(month, day, year)})
    if match.group("num"):
        first, second, year = (int(p) for p in match.group("num").split("/"))
        return _both_ways(first, second, year + 2000 if year < 100 else year)
    if _group(match, "y4"):
        return frozenset({(None, None, int(match.group("y4")))})
    if _group(match, "dd"):  # issue 22z round 12: a day and month without a year
        return _both_ways(int(match.group("dd")), int(match.group("mm")), None)
    if _group(match, "y5"):
        return frozenset({(int(match.group("m5")), None, int(match.group("y5")))})
    if _group(match, "y3"):
        return frozenset({(_MONTHS[match.group("m3").lower().rstrip(".")], None, int(match.group("y3")))})
    day = match.group("d1") or match.group("d2")
    month = _MONTHS[(match.group("m1") or match.group("m2")).lower().rstrip(".")]
    year = match.group("y1") or match.group("y2")
    return frozenset({(month, int(day), int(year) if year else None)})


_NUMERIC_DATE = _compile(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b")


def _year_reading(match: regex.Match) -> frozenset[DateReading]:
    """The reading of a year stated alone (a match with a ``year`` group): its year, nothing else."""
    return frozenset({(None, None, int(match.group("year")), None, None)})


def _swapped_numeric(first: str, second: str) -> bool:
    """round 16: two numeric dates of one year with day and month swapped ("DOB on band 03/04/1951, EPR
    04/03/1951"). Read both ways they agree, but one text writes both in one convention: two dates, the
    mismatch an identity check exists to catch."""
    a, b = _NUMERIC_DATE.search(first), _NUMERIC_DATE.search(second)
    return bool(a and b) and a[3] == b[3] and a[1] != a[2] and (a[1], a[2]) == (b[2], b[1])  # type: ignore[index]


_DAYS_EXACT = 7


def _days_agree(u: int, v: int) -> bool:
    """Two "days ago" agree within half the longer span ("2 weeks ago" and "last week"), not a day
    apart ("yesterday" and "3 days ago", "today" and "last night")."""
    if max(u, v) < _DAYS_EXACT:  # issue 22z: within a week, days are counted ("yesterday" vs "2 days ago")
        return u == v
    return abs(u - v) <= 0.5 * max(u, v)


def _dates_differ(a: frozenset, b: frozenset) -> bool:
    """No reading of one date agrees with a reading of the other (a part one of them leaves out agrees)."""

    def agree(x: DateReading, y: DateReading) -> bool:
        *calendar_x, ago_x = x
        *calendar_y, ago_y = y
        same = all(u is None or v is None or u == v for u, v in zip(calendar_x, calendar_y, strict=True))
        return same and (ago_x is None or ago_y is None or _days_agree(ago_x, ago_y))

    return not any(agree(x, y) for x in a for y in b)


# issue 22z round 12: a menstrual cycle is 21-35 days (NICE CKS, heavy menstrual bleeding; FIGO 2018), so
# two LMPs that far apart are consecutive periods recorded at two visits, not one period dated twice
_CYCLE_DAYS = (21, 35)


def _day_gaps(a: frozenset, b: frozenset) -> Iterator[int]:
    """The days between each reading of one date and each of the other (month and day known), the shorter
    way round the year."""
    for month_x, day_x, *_ in a:
        for month_y, day_y, *_ in b:
            if None in (month_x, day_x, month_y, day_y):
                continue
            first = datetime.date(2001, month_x, min(day_x, 28))
            days = abs((first - datetime.date(2001, month_y, min(day_y, 28))).days)
            yield min(days, 365 - days)


def _one_cycle_apart(a: frozenset, b: frozenset) -> bool:
    """Some reading of each date (month and day known) lies a menstrual cycle from the other."""
    return any(_CYCLE_DAYS[0] <= days <= _CYCLE_DAYS[1] for days in _day_gaps(a, b))


# round 60: two weights dated within a fortnight that differ by more than a tenth are no change: an adult's
# weight does not change by 10 % within days outside a fluid shift the text would state (an explained cue),
# and a child gains about 150-200 g a week (WHO Child Growth Standards), as ``_RECENT`` reads "days ago"
_IMPLAUSIBLE_WEIGHT_DAYS = 14
_IMPLAUSIBLE_WEIGHT_RATIO = 0.10


def _days_apart(first: str, second: str) -> int | None:
    """The fewest days between a calendar date (month and day) of each clause, or None without both."""
    gaps = [
        days
        for x in _DATE_EVENT.finditer(first)
        for y in _DATE_EVENT.finditer(second)
        for days in _day_gaps(_date_value(x), _date_value(y))
    ]
    return min(gaps, default=None)


def _implausible_weight_change(first: float, second: float, clause: str, other: str) -> bool:
    """Two weights dated within a fortnight of each other that differ by more than a tenth."""
    days = _days_apart(clause, other)
    low = min(first, second)
    return (
        days is not None
        and days <= _IMPLAUSIBLE_WEIGHT_DAYS
        and low > 0
        and abs(first - second) / low > _IMPLAUSIBLE_WEIGHT_RATIO
    )


LabUnits = dict[str, float | tuple[float, float]]


def _canonical(amount: float, factor: float | tuple[float, float]) -> float:
    if isinstance(factor, tuple):
        slope, intercept = factor
        return amount * slope + intercept
    return amount * factor


def _lab_readings(value: tuple[float, str | None], units: LabUnits) -> tuple[set[float], str | None]:
    """An analyte's value in its canonical unit; a value without a unit is read in every unit listed
    (issue 22s: "Hb 13.4" agrees with "Hb 134 g/L"). A unit not listed keeps its own tag."""
    amount, unit = value
    if unit is None:
        return {_canonical(amount, f) for f in units.values()} or {amount}, None
    if unit in units:
        return {_canonical(amount, units[unit])}, "canonical"
    return {amount}, unit


def _labs_differ(m: Mention, n: Mention, tolerance: float, units: LabUnits) -> bool:
    (a, unit_a), (b, unit_b) = _lab_readings(m.value, units), _lab_readings(n.value, units)  # type: ignore[arg-type]
    if unit_a is not None and unit_b is not None and unit_a != unit_b:
        return False  # units that do not convert (HbA1c % vs mmol/mol): not compared
    return all(abs(x - y) > tolerance * max(x, y) for x in a for y in b)


def _frequency(text: str) -> str | None:
    match = _FREQUENCY.search(text)
    if not match:
        return None
    for i, (_, name) in enumerate(_FREQUENCIES):
        if match.group(f"f{i}"):
            hours = match.group("h") or match.group("h2")
            return name.format(h=hours) if hours else name
    return None


def _drug_key(name: str) -> str:
    return " ".join(name.lower().split())


def _allergen_key(match: regex.Match, a: CompiledAttributes) -> str:
    word = match.group().lower()
    return a.allergen_class.get(word, _drug_key(word))


_DOSE_GAP = _compile(
    # round 22: and its form ("warfarin 3 mg tabs dispensed 02/05")
    r"\s*(?:[-–:]\s*)?(?:\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g|units?|ml)\b\s*)?(?:(?:tabs?|tablets?|caps(?:ules)?)\s+)?"
    # issue 22z: and its frequency ("GP list shows ramipril 5 mg OD active")
    # issue 22z round 13: or a comma after the frequency ("clopidogrel 75 mg OD, active")
    r"(?:(?:sc|iv|po|im|pr|sl|s/c|inh|neb)\s+)?(?:(?:od|bd|bid|tds|tid|qds|qid|daily|nocte|mane|on|prn)[\s,]+)?"
    r"(?:(?:last|still|regularly|monthly|weekly)\s+)?(?:[-–:,]\s*)?"
    # round 14: a status field after the entry ("apixaban status discontinued", "5 mg BD, 'currently taking'")
    r"(?:(?:status|currently|now)\s*:?\s*)?",
    FLAGS,
)
# round 21: the words between two drugs listed together, the first with its dose and schedule
_LISTED_WITH = _compile(
    r"\s*(?:\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g|units?)\b)?(?:\s+(?:po|sc|iv|im))?"
    r"(?:\s+(?:od|bd|bid|tds|tid|qds|daily|nocte|mane|weekly|once\s+(?:a\s+)?(?:daily|weekly|week|day)))?"
    r"\s*(?:with|and|plus|\+|&)\s+",
    FLAGS,
)
_ENTRY_LEAD = _compile(
    # issue 22z round 12: or "states", "documents", "notes" ("clinic record states lithium discontinued")
    r"(?:^|[:\-–—]|\b(?:shows?|showed|lists?|listed|has|had|records?|recorded|says?|said|reads?|marks?|marked"
    r"|states?|stated|documents?|documented|notes?|noted))\s*$",
    FLAGS,
)
# round 15: or a red (allergy) wristband ("Red band: PCN")
_ALLERGY_CONTEXT = _compile(r"\ballerg|\bred\s+(?:wrist\s*)?band\b", FLAGS)
_RESULT_ALONE = _compile(
    r"\b(?:says?|said|shows?|showed|reads?|came\s+back(?:\s+as)?|was)\s+(?P<sign>positive|\+ve|negative|-ve)\b",
    FLAGS,
)
# issue 22z: a predicate left out after a denial ("my GP record has me down as pregnant but the clinic
# told me i'm not"), read only as the denial of the neighbouring clause's pregnancy status
_NOT_ALONE = _compile(
    r"\b(?:i'?m|i\s+am|she'?s|she\s+is|pt\s+is|patient\s+is)\s+not\b(?=\s*(?:[,.;!?]|$|(?:and|but|so)\b))"
    r"|\b(?:she|pt|patient)\s+isn'?t\b(?=\s*(?:[,.;!?]|$|(?:and|but|so)\b))",
    FLAGS,
)


def _abo(match: regex.Match) -> str:
    """The ABO group of a match, an A subgroup read as its group (round 36: "grouped him as A1 RhD
    positive")."""
    return match.group("abo").upper().replace("1", "").replace("2", "").replace("0", "O")


# issue 22z: an ABO group with its RhD word ("B Pos", "O Neg"), read without a blood context; not an
# article before a result ("A positive result")
_BLOOD_GROUP_WORDS = _compile(
    r"(?<![\w])(?P<abo>A[12]?B|A[12]?|B|O)\s+(?P<rh>(?i:pos(?:itive)?|neg(?:ative)?))\b(?!\s+[a-z])"
)
# issue 22z: an ABO group without its RhD type, after the word "group"
_ABO_ALONE = _compile(
    r"(?i:\bgroup)\s+(?:(?i:as|is|was|of|reads?)\s+|[:=]\s*)?(?P<abo>A[12]?B|A[12]?|B|O)\b"
    r"(?!\s*(?:[+\-]|(?i:pos|neg|rh)))"
    + _NOT_A_PRODUCT
    # round 26: or a few words on, the letter ending the clause ("patient group printed on the compatibility
    # label of the issued unit is A."): clause-final, so no article ("is a") is read as a group
    + r"|(?i:\bgroup)\b[^.;,\n]{1,60}?\s(?i:is|was|reads?|as)\s+"
    r"(?P<abo>A[12]?B|A[12]?|B|O)(?=\s*(?:[.;,)]|$))"
)
_POPULATION_AFTER = _compile(
    r"\s+(?:patients|women|mothers|people|individuals|pregnancies|donors|recipients|pts)\b", FLAGS
)
_SIGN_ALONE = _compile(
    r"\s*(?P<sign>pos(?:itive)?|neg(?:ative)?|\+ve|-ve)\s+(?=(?:per|on|from|in|by|according)\b)", FLAGS
)


def _sign(word: str) -> str:
    """An RhD sign as "+" or "-" ("pos", "positive", "+", "+ve"; anything else is negative)."""
    return "+" if word.lower().startswith(("pos", "+")) else "-"


_EMPTY_ENTRY = _compile(
    r"\s*(?P<value>nil(?:\s+known)?|none(?:\s+known)?|nkda|nka)\s*(?:\(\s*)?(?:per|from|on|in|by)\s", FLAGS
)
# round 32: or "none recorded" ("Allergies per GP summary: none recorded")
# round 52: or a source's verb in the present before it and a dash or comma after ("the pre-op checklist says
# none - to be clarified"); not a past one, which may tell of a record since put right (a sentence-final "says
# none known", "allergy box says nil" are round 12's and round 26's readings)
_EMPTY_FIELD = _compile(
    r"[:\-–]\s*(?P<value>(?:nil|none)(?:\s+(?:known|recorded|documented|listed|noted))?|nkda|nka)\s*$"
    r"|\b(?:says|reads|shows|states|lists|records)\s+(?P<value>nil|none|nkda|nka)\s*(?=[-–—,;])",
    FLAGS,
)
_HALF_BEFORE = _compile(r"\b(?:half|½)\s+(?:of\s+)?(?:an?\s+|the\s+|one\s+)?$", FLAGS)
# issue 22w: the count after the strength ("amlodipine 10mg tablets, half a tablet daily")
_HALF_AFTER = _compile(r"\s*,?\s*(?:take\s+)?(?:half|½)\s+(?:a\s+|of\s+a\s+)?(?:tablet|tab)\b", FLAGS)
# round 16: or "2 of the 5mg" ("give her 2 of the 5mg prednisolone every morning")
# round 38: the drug's name may stand between "two of the" and the strength ("giving her two of the furosemide
# 40mg every morning": 80 mg)
_COUNT_BEFORE = _compile(
    r"\b(?P<n>two|three|four|2|3|4)\s*(?:x\s*|(?P<of>of\s+(?:(?:the|her|his|my|their)\s+)?(?:[a-z][a-z-]{3,}\s+)?))?$",
    FLAGS,
)
# issue 22u: the drug's name may sit between strength and form ("half a 10 mg amlodipine tablet")
_UNIT_FORM_AFTER = _compile(r"\s*(?:[a-z][a-z-]+\s+)?(?:tablets?|tabs?|capsules?|caps?|pills?)\b", FLAGS)
_COUNTS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
# round 37: or the count after the form ("sertraline 50 mg tabs, 2 tabs mane": 100 mg)
_COUNT_AFTER = _compile(
    r"\s*[,;:]?\s*(?:take\s+|taking\s+)?(?P<n>two|three|four|2|3|4)\s*(?:x\s*)?(?:tablets?|tabs?|capsules?|caps?)\b",
    FLAGS,
)


def _tablet_multiplier(clause: str, amount_start: int, unit_end: int) -> float:
    """issue 22s: the dose taken when a strength is counted in tablets: "half a 10 mg tablet" is 5 mg,
    "two 5 mg tablets" 10 mg (the count must be followed by the tablet word)."""
    before = clause[max(0, amount_start - 40) : amount_start]
    form = _UNIT_FORM_AFTER.match(clause, unit_end)
    if not form:  # round 16: "2 of the 5mg" counts tablets without the tablet word
        count = _COUNT_BEFORE.search(before)
        return float(_COUNTS[count.group("n").lower()]) if count and count.group("of") else 1.0
    if _HALF_BEFORE.search(before) or _HALF_AFTER.match(clause, form.end()):
        return 0.5
    count = _COUNT_BEFORE.search(before) or _COUNT_AFTER.match(clause, form.end())
    return float(_COUNTS[count.group("n").lower()]) if count else 1.0


def _mentions(
    text: str,
    span: tuple[int, int],
    index: int,
    a: CompiledAttributes,
    lexicon: Lexicon,
    medicine_word: bool,
    blood_context: bool = False,
    weight_context: bool = False,
    allergy_context: bool = False,
    eye_context: bool = False,
):
    start, end = span
    clause = text[start:end]
    out: list[Mention] = []

    def add(attribute: str, key: str, value: object, s: int, e: int) -> None:
        out.append(Mention(attribute, key, value, index, start + s, start + e, key == IMPLIED))

    dosed: list[tuple[int, int]] = []
    drugs = list(a.drug.finditer(clause))
    for drug in drugs:
        tail = _DOSE_TAIL.match(clause, drug.end())
        if not tail:
            if unitless := _UNITLESS_DOSE_TAIL.match(clause, drug.end()):
                dosed.append((drug.start(), unitless.end()))
                add(
                    "dose",
                    _drug_key(drug.group("drug")),
                    _unitless_dose(clause, unitless),
                    drug.start(),
                    unitless.end(),
                )
            continue
        dosed.append((drug.start(), tail.end()))
        add("dose", _drug_key(drug.group("drug")), _dose_value(clause, tail), drug.start(), tail.end())
    for drug in drugs:  # issue 22y: a drug named alone, the referent of "stopped it"
        if not any(s <= drug.start() < e for s, e in dosed):
            add("drug", _drug_key(drug.group("drug")), None, drug.start(), drug.end())
    for amount in _IMPLIED_DOSE.finditer(clause):
        if any(s <= amount.start() < e for s, e in dosed):
            continue
        # a clause that speaks of a weight states no dose without its drug, unless one worked out from a dose
        # per kg (round 21: "ED prescribing sheet 1mg/kg = 80mg SC BD")
        if (
            _WEIGHT_NEAR.search(clause)
            and not _WORKED_OUT.search(clause, 0, amount.start())
            and not _REGIMEN_AFTER.match(clause, amount.end())
        ):
            continue
        add("dose", IMPLIED, _dose_value(clause, amount), amount.start(), amount.end())
    for rate in _INFUSION_RATE.finditer(clause):
        drug = next((d for d in reversed(drugs) if d.end() <= rate.start()), None)
        unit = _UNIT_NAMES.get(rate.group("unit").lower().rstrip("s"), rate.group("unit").lower().rstrip("s"))
        value = (float(rate.group("amt").replace(",", "")), f"{unit}/h", None)
        add("dose", _drug_key(drug.group("drug")) if drug else IMPLIED, value, rate.start(), rate.end())
    if medicine_word and not drugs and not _IMPLIED_DOSE.search(clause):
        for amount in _BARE_DOSE.finditer(clause):  # its unit that of the neighbouring clause's dose
            add("dose", IMPLIED, _unitless_dose(clause, amount), *amount.span("amt"))
    if not dosed and not _IMPLIED_DOSE.search(clause):
        frequency_match = _FREQUENCY.search(clause)
        if frequency_match and medicine_word:
            frequency = _frequency(frequency_match.group())
            add("dose", IMPLIED, (None, None, frequency), frequency_match.start(), frequency_match.end())
    values_found: list[tuple[str, str, int, int]] = []
    for name, values in a.categorical:
        taken: list[tuple[int, int]] = []
        for value, pattern in values:
            for m in pattern.finditer(clause):
                if any(s < m.end() and m.start() < e for s, e in taken):
                    continue
                taken.append(m.span())
                values_found.append((name, value, *m.span()))
    stated = clause
    for _, _, s, e in values_found:  # issue 22w: "not pregnant, not breastfeeding": a value's own "not"
        stated = stated[:s] + " " * (e - s) + stated[e:]  # negates no later value
    for name, value, s, e in values_found:
        # round 35: a value that is itself a refusal is not negated by an earlier one ("no breathing tube and
        # no CPR")
        if _OWN_REFUSAL.match(clause, s) or not _negated_before(stated, 0, s, lexicon):  # "no DNACPR on file"
            add(name, name, value, s, e)
            # issue 22z round 12: "full code" includes intubation (ReSPECT / POLST: full treatment), so
            # it meets a DNI elsewhere ("DNI but OK for CPR" vs "full code incl intubation")
            if (name, value) == ("code_status", "full") and not any(
                n == "intubation_status" for n, *_ in values_found
            ):
                add("intubation_status", "intubation_status", "for_intubation", s, e)
    for m in _RESULT_ALONE.finditer(clause):  # issue 22w: "the letter they posted says positive"
        if not any(s <= m.start() < e for _, _, s, e in values_found):
            add(
                "pregnancy_status",
                IMPLIED,
                "pregnant" if m.group("sign").lower() in ("positive", "+ve") else "not_pregnant",
                *m.span(),
            )
    for m in _NOT_ALONE.finditer(clause):  # issue 22z: "… told me i'm not": the neighbour's pregnancy denied
        if not values_found:
            add("pregnancy_status", IMPLIED, "not_pregnant", *m.span())
    for m in () if blood_context else _BLOOD_GROUP_WORDS.finditer(clause):
        # issue 22z: "B Pos", "O Neg" alone
        add("blood_group", "blood_group", (_abo(m), _sign(m.group("rh"))), m.start(), m.end())
    if blood_context:
        for m in _BLOOD_GROUP.finditer(clause):
            add("blood_group", "blood_group", (_abo(m), _sign(m.group("rh"))), m.start(), m.end())
        for m in _ABO_ALONE.finditer(clause):  # issue 22z: "card reads group A", "gives the group as O"
            add("blood_group", "blood_group", (_abo(m), None), m.start(), m.end())
        # round 14: the RhD type without its ABO group ("Rh: neg per prenatal record"), and a sign alone
        # that a source states after such a heading ("…, pos per L&D lab today")
        grouped = [m.span() for m in _BLOOD_GROUP.finditer(clause)]
        for m in _RH_SIGN.finditer(clause):
            # not a population a guideline speaks of ("Rh-negative patients are flagged for anti-D")
            population = _POPULATION_AFTER.match(clause, m.end())
            if not population and not any(s <= m.start("sign") < e for s, e in grouped):
                add("blood_group", "blood_group", (None, _sign(m.group("sign"))), m.start(), m.end())
        if sign := _SIGN_ALONE.match(clause):
            add("blood_group", IMPLIED, (None, _sign(sign.group("sign"))), *sign.span("sign"))
    if a.lab is not None:
        named_lab = False
        for m in a.lab.finditer(clause):
            if _FOUR_DIGIT_CLOCK.fullmatch(m.group("value")) and _SAMPLE_AFTER_CLOCK.match(clause, m.end()):
                continue  # round 82: the clock time naming the sample ("glucose on the 2200 ABG reads 28")
            named_lab = True
            unit = m.group("unit").lower() if "unit" in m.re.groupindex and m.group("unit") else None
            add(
                "lab_value", a.lab_key[m.group("analyte").lower()], (float(m.group("value")), unit), *m.span()
            )
        if not named_lab and a.lab_name is not None and a.lab_unit_value is not None:
            named_lab = _analyte_then_value(clause, a, add)
        if not named_lab and a.lab_unit_value is not None:  # "blood gas on the same draw reads 4.1 mmol/L"
            for m in a.lab_unit_value.finditer(clause):
                # round 76: not the assay's reference limit in brackets ("lab system documents 12 ng/L for
                # that draw (99th centile 34 ng/L)"), as round 73 reads it after a named analyte
                if _reference_limit(clause, m):
                    continue
                # only a value a source reports ("reads 4.1 mmol/L") or one of the same sample as the
                # neighbouring reading (issue 22z: "lab FBC same draw 79 g/L"), not one of an analyte the
                # list does not know ("urea 6.2 mmol/L")
                before = clause[: m.start()]
                # round 25: or a value that opens its clause, then where it was measured ("5.9 mmol/L on the
                # lab sample drawn with it")
                opening = not before.strip() and _MEASURED_ON.match(clause, m.end())
                if _REPORTED_VALUE.search(before) or _SAME_OCCASION.search(before) or opening:
                    unit = m.group("unit").lower()
                    key = _one_analyte_before(before, unit, a)
                    add("lab_value", key, (float(m.group("value")), unit), *m.span())
                    named_lab = True
        if not named_lab:  # issue 22u: a bare number a source reports ("the letter they sent says 138")
            for m in _BARE_NUMBER.finditer(clause):
                # issue 22z: or the second half of "Na 118 on VBG vs 134 on lab chem"
                leading = _LEADING_VALUE.match(clause)
                # round 14: or one of the same sample as the neighbouring reading ("INR - ED note says 4.2,
                # anticoag clinic entry for the same sample 2.3"); round 15: or the value of an analyte's
                # heading ("INR this AM: 2.1 on pt's CoaguChek")
                names = list(a.lab_name.finditer(clause, 0, m.start())) if a.lab_name is not None else []
                headed = len(names) == 1 and _HEADING_GAP.fullmatch(clause, names[0].end(), m.start())
                # round 25: or the one analyte, a few words on where it was measured, and the value closing
                # the clause ("our lab INR on today's sample 5.8"), not a target or a range; round 61: a clock
                # time among the words ("INR at 10:15 on the venous sample 5.2")
                closing = (
                    len(names) == 1
                    and not clause[m.end() :].strip(" .;,)")
                    and len((gap := _CLOCK.sub(" ", clause[names[0].end() : m.start()])).split())
                    <= _ANALYTE_GAP_WORDS
                    and _ANALYTE_GAP.fullmatch(gap)
                    and not _NOT_A_RESULT.search(gap)
                )
                if (
                    _REPORTED_VALUE.search(clause, 0, m.start())
                    or (leading and leading.end() == m.end())
                    or _SAME_OCCASION.search(clause, 0, m.start())
                    or headed
                    or closing
                ):
                    # round 14: of the one analyte named before it ("INR - ED note says 4.2")
                    key = a.lab_key[names[0].group("analyte").lower()] if len(names) == 1 else IMPLIED
                    add("lab_value", key, (float(m.group("value")), None), *m.span())
    weights = list(_WEIGHT.finditer(clause))
    if weight_context:
        weights += [
            w
            for w in _WEIGHT_BARE.finditer(clause)
            if not any(v.start() <= w.start() < v.end() for v in weights)
        ]
    if weight_context and not weights:
        for w in _WEIGHED_AT.finditer(clause):  # issue 22z round 12: "they weighed me at 66"
            add("weight", "weight", UnitlessWeight(w.group("amt")), w.start(), w.end())
        # round 33: or a source's bare number in a text about weight ("drug chart has her at 45 kg, nursing
        # admission form says 54. Not actually weighed yet")
        for w in _WEIGHT_SAID.finditer(clause):
            if a.source.search(clause, 0, w.start()):
                add("weight", "weight", UnitlessWeight(w.group("amt")), w.start("amt"), w.end("amt"))
    for w in weights:
        unit = w.group("unit").lower().rstrip("s")
        kg = float(w.group("amt")) * next((f for u, f in _KG_PER.items() if unit.startswith(u)), 1.0)
        if w.group("lb"):
            kg += float(w.group("lb")) * _KG_PER["lb"]
        add("weight", "weight", kg, w.start(), w.end())
    sides = list(a.side.finditer(clause))
    for s in sides:
        side = s.group("side").lower()
        add("side", a.part_group[s.group("part").lower()], _SIDE_NAMES.get(side, side), s.start(), s.end())
    for s in _SIDE_ALONE.finditer(clause):
        # round 79: the bracket after a side letter names a source ("R (listing form)") and no body part,
        # which round 66's reading gives the side ("L (arrow on knee)")
        bracket = clause[s.end() : clause.find(")", s.end())]
        if s.group("side11") and (
            not a.source.search(bracket) or any(w.lower() in a.part_group for w in _WORDS.findall(bracket))
        ):
            continue
        if not any(t.start() <= s.start() < t.end() for t in sides):
            side = next(s.group(g) for g in _SIDE_GROUPS if s.group(g))
            add("side", IMPLIED, _SIDE_NAMES.get(side.lower(), side.lower()), *s.span())
    for g in _GESTATION.finditer(clause):
        add("gestation", "gestation", gestation_weeks(g), *g.span())
        if not any(
            name == "pregnancy_status" for name, *_ in values_found
        ):  # issue 22z: a gestation is a pregnancy
            add("pregnancy_status", "pregnancy_status", "pregnant", *g.span())
    for s in _BOTH_OF_PAIR.finditer(clause):
        if s.group("part").lower() in a.part_group:
            add("side", a.part_group[s.group("part").lower()], "both", *s.span())
    for s in _EYE_SIDE.finditer(clause):
        add("side", "eye", _SIDE_NAMES[s.group("side").lower()], *s.span())
    for s in _EYE_LATIN.finditer(clause) if eye_context else ():
        add("side", "eye", "right" if s.group("side") == "OD" else "left", *s.span())
    dated_event = False
    for name, pattern in a.date_attributes:
        for attr in pattern.finditer(clause):
            if _SOURCE_NAMED_AFTER.match(clause, attr.end()):
                continue  # issue 22y: "immunization registry printout, 2026-09-14" is a document's date
            window = min(len(clause), attr.end() + 40)
            date = _DATE_EVENT.search(clause, attr.end(), window)
            if date and _GENERATED.search(clause, attr.end(), date.start()):
                date = None  # issue 22y: "immunization forecast auto-generated 2026-08-25" is the document's
            key = name
            if name == "treatment_cycle":  # "cycle 3" and "cycle 4" are two events
                key += "".join(c for c in attr.group() if c.isdigit())
            year = None if date else _YEAR_AFTER.match(clause, attr.end())
            if not (date or year) and (given := _SOURCE_THEN_YEAR.match(clause, attr.end())):
                year = given if a.source.search(given.group("source")) else None
            if date:
                dated_event = True
                add("date", key, _date_value(date), attr.start(), date.end())
            elif year:  # issue 22z round 12: a year right after its event ("last tetanus 2006")
                dated_event = True
                add("date", key, _year_reading(year), attr.start(), year.end())
            clock = _CLOCK.search(clause, attr.end(), window)
            bare = None if clock or date or year else _BARE_CLOCK_AFTER.match(clause, attr.end())
            if clock:  # issue 22y: and its clock time
                dated_event = True
                add("time", key, _clock_minutes(clock), attr.start(), clock.end())
            elif bare and key in _BARE_CLOCK_EVENTS:
                dated_event = True
                add("time", key, int(bare.group("h")) * 60 + int(bare.group("m")), attr.start(), bare.end())
    if not dated_event:
        for clock in _CLOCK.finditer(clause):
            if _TIME_STATED.search(clause, 0, clock.start()) or (
                _RECORDS_TIME_BEFORE.search(clause, 0, clock.start())
                and a.source.search(clause, 0, clock.start())
            ):
                add("time", IMPLIED, _clock_minutes(clock), *clock.span())
    # round 14: a source that "has it as" a date states the neighbouring clause's event's date, whatever
    # other event its clause dates ("my GP surgery has it as 2021, do i need another one after … friday")
    for it_as in _IT_AS.finditer(clause):
        if not a.source.search(clause, 0, it_as.start()):
            continue
        if date := _DATE_STATED.match(clause, it_as.end()):
            add("date", IMPLIED, _date_value(date), *date.span())
        elif year := _YEAR_AFTER.match(clause, it_as.end()):
            add("date", IMPLIED, _year_reading(year), *year.span())
    # round 65: or a person who "had one" in a year, the neighbouring clause's event by its pronoun ("GP
    # record: last tetanus 2011; pt sure he had one at the walk-in centre in 2019")
    had_one = None if dated_event else _HAD_ONE_IN_YEAR.search(clause)
    if had_one and a.source.search(clause, 0, had_one.start()):
        add("date", IMPLIED, _year_reading(had_one), *had_one.span("year"))
    # round 33: or a correction that opens its clause ("the hospital letter says mum fell on the 5th but it
    # was saturday the 8th, i was there"): the writer's date of the neighbouring clause's event
    it_was = None if dated_event else _IT_WAS.match(clause)
    if it_was and (date := _DATE_STATED.search(clause, it_was.end(), it_was.end() + _IT_WAS_REACH)):
        add("date", IMPLIED, _date_value(date), *date.span())
    # round 77: or a relative date that opens the clause, its source after it ("LMP 3 wks ago per pt, 7 wks
    # ago per the GP referral"): that source's date of the neighbouring clause's event
    lead = _WHITESPACE.match(clause).end()  # type: ignore[union-attr]
    opening = None if dated_event else _DATE_EVENT.match(clause, lead)
    if (
        opening
        and opening.group("reln")
        and _RELATIVE_DATE_SOURCE.match(clause, opening.end())
        and a.source.search(clause, opening.end())
    ):
        add("date", IMPLIED, _date_value(opening), *opening.span())
    # round 79: or a clock time that opens the clause, its source after it ("LKW 06:30 per wife, 02:00 per
    # ambulance PRF"): that source's time of the neighbouring clause's event
    clock = None if dated_event else _OPENING_CLOCK.match(clause)
    if clock and a.source.search(clause, clock.end()):
        add("time", IMPLIED, _clock_minutes(clock), *clock.span())
    # issue 22z: or the second half of "given as 14 March in the summary and as 21 March in the note"
    # issue 22z round 12: or a short entry that is a source and a date ("ED registration 13/07/1948")
    if (
        not dated_event
        and (
            _REPORTING.search(clause)
            or _AS_AGAIN.match(clause)
            or len(clause.split()) <= _ENTRY_WORDS
            or _LEADING_DATE.match(clause)
        )
        and a.source.search(clause)
    ):
        date = _DATE_STATED.search(clause)  # "the cardiology letter says March 2021": the event nearby
        # round 24: an operation note's own date is the operation's ("the operation note … is dated 9 March")
        if date and (
            not _DOCUMENT_DATE.search(clause, 0, date.start())
            or _PROCEDURE_RECORD.search(clause, 0, date.start())
        ):
            add("date", IMPLIED, _date_value(date), *date.span())
        elif not date and (
            (year := _SAYS_YEAR.search(clause))  # round 16: "my vaccine card says 2022"
            # round 76: or an operation note dated a year, the operation's ("the operation note from the
            # outside hospital is dated 2009"), as round 24 reads its full date
            or ((year := _DATED_YEAR.search(clause)) and _PROCEDURE_RECORD.search(clause, 0, year.start()))
        ):
            add("date", IMPLIED, _year_reading(year), *year.span("year"))
        # round 80: or a month alone ("the bone clinic letter says march")
        elif not date and (month := _SAYS_MONTH.search(clause)):
            reading = (_MONTHS[month.group("month").lower()], None, None, None, None)
            add("date", IMPLIED, frozenset({reading}), *month.span("month"))
    absent = [m.span() for m in a.allergy_absent.finditer(clause)]
    if (
        allergy_context
    ):  # issue 22w: in an allergy list, a source's field read as empty ("Pharmacy profile: nil")
        absent += [
            m.span("value") for m in _EMPTY_FIELD.finditer(clause) if a.source.search(clause, 0, m.start())
        ]
        # round 24: or a list entry that gives the empty value first, its source after it ("Allergies: latex
        # (per pt), nil (per MAR)")
        if entry := _EMPTY_ENTRY.match(clause):
            absent.append(entry.span("value"))
    named = list(a.allergen.finditer(clause))
    for s, e in absent:
        add("allergy", "*", False, s, e)
    for m in a.allergy_present.finditer(clause):
        if any(s <= m.start() < e for s, e in absent) or _negated_before(clause, 0, m.start(), lexicon):
            continue
        # round 15: not an allergen the text rules out ("erythromycin I can't have, not penicillin")
        after = next(
            (
                n
                for n in named
                if m.end() <= n.start() <= m.end() + 40 and not _NOT_RIGHT_BEFORE.search(clause, 0, n.start())
            ),
            None,
        )
        add("allergy", _allergen_key(after, a) if after else "*", True, m.start(), (after or m).end())
        listed = after
        for n in named if after else ():
            if n.start() < listed.end():
                continue
            if not _LISTED_WITH.fullmatch(clause, listed.end(), n.start()):
                break
            add("allergy", _allergen_key(n, a), True, n.start(), n.end())
            listed = n
        if after and _ONLY_AFTER.match(clause, after.end()):
            add("allergy", "*", ("only", _allergen_key(after, a)), m.start(), after.end())
    for n in named:
        if not (allergy_after := _ALLERGY_AFTER.match(clause, n.end())):
            continue
        if _FIELD_NO.match(clause, allergy_after.end()):  # round 43: a form's field "latex allergy: No"
            add("allergy", _allergen_key(n, a), False, n.start(), allergy_after.end())
        elif not _negated_before(clause, 0, n.start(), lexicon):
            add("allergy", _allergen_key(n, a), True, n.start(), n.end())
        elif _NO_BEFORE.search(clause, 0, n.start()):  # issue 22z: "… and no morphine allergy"
            add("allergy", _allergen_key(n, a), False, n.start(), n.end())
    if a.allergy_notation is not None:  # an allergy-list entry: "amoxicillin (rash)"
        for m in a.allergy_notation.finditer(clause):
            if not _negated_before(clause, 0, m.start(), lexicon):
                add("allergy", _allergen_key(a.allergen.match(clause, m.start()), a), True, *m.span())
    reaction_word = _REACTION_WORD.search(clause) is not None
    if allergy_context or reaction_word:
        # issue 22z round 12: "it's actually clarithromycin she reacted to": that one instead; round 13: a
        # source's list of that one only ("ED triage chart lists aspirin only")
        for n in named:
            # round 42: or "instead" after it ("lists nitrofurantoin as the allergen instead")
            instead = _INSTEAD_BEFORE.search(
                clause, max(0, n.start() - 40), n.start()
            ) or _INSTEAD_AFTER.match(clause, n.end())
            only = (
                _ONLY_AFTER.match(clause, n.end())
                or _ONLY_BEFORE.search(clause, 0, n.start())
                # round 34: or the one allergen an allergy field says ("drug chart allergy box says
                # doxycycline")
                or (_FIELD_SAYS.search(clause, 0, n.start()) and not any(o.start() > n.end() for o in named))
            )
            if instead or (only and a.source.search(clause, 0, n.start())):
                add("allergy", "*", ("only", _allergen_key(n, a)), n.start(), n.end())
    graded = next(((g, m) for g, pattern in _REACTION_GRADES if (m := pattern.search(clause))), None)
    if graded and (named or reaction_word):
        # issue 22z round 12: the reaction recorded for an allergen, severe or mild: two sources that grade
        # one allergen's reaction differently ("angioedema" vs "nausea only (intolerance)") disagree
        grade, severity = graded
        for key in {_allergen_key(n, a) for n in named} or {IMPLIED}:
            add("allergy_severity", key, grade, *severity.span())
        # round 14: a reaction a drug is recorded as causing is an allergy to it ("ibuprofen is recorded as
        # causing bronchospasm"), against a source that gives allergies as nil; round 24: so is a severe
        # reaction written with its allergen ("referral letter documents iodinated contrast anaphylaxis 2017")
        severe_to = [n for n in named if grade == "severe" and _reaction_of(clause, n, severity)]
        if named and not any(m.attribute == "allergy" for m in out):
            for n in named if _CAUSED.search(clause) else severe_to:
                add("allergy", _allergen_key(n, a), True, n.start(), n.end())
    if a.tolerated is not None:
        for m in a.tolerated.finditer(clause):
            for allergen in {_allergen_key(n, a) for n in named}:
                add("allergy", allergen, False, m.start(), m.end())
    # round 38: an allergen set apart from the others ("allergic to cashew and pistachio and not peanut")
    for n in named:
        if _NOT_THIS_ONE.search(clause, max(0, n.start() - 12), n.start()) and _REACTION_WORD.search(
            clause, 0, n.start()
        ):
            add("allergy", _allergen_key(n, a), False, n.start(), n.end())
    # round 42: a source said to hold nothing on an allergen ("outside records list cefalexin as the allergen
    # and nothing about amoxicillin")
    if allergy_context and a.source.search(clause):
        for n in named:
            if _NOTHING_ABOUT.search(clause, max(0, n.start() - 30), n.start()):
                add("allergy", _allergen_key(n, a), False, n.start(), n.end())
    # round 38: the allergen said tolerated right after it ("aspirin (dyspepsia) only, NSAIDs tolerated")
    for n in named:
        if tolerated := _TOLERATED_AFTER.match(clause, n.end()):
            add("allergy", _allergen_key(n, a), False, n.start(), tolerated.end())
    out.extend(_status_mentions(clause, start, index, a, lexicon, drugs))
    return out


_INSTEAD_AFTER = _compile(r"(?:\s+as\s+(?:the|its|her|his)\s+(?:allergen|allergy))?\s+instead\b", FLAGS)
_NOT_THIS_ONE = _compile(r"\b(?:and|but)\s+not\s+(?:to\s+)?$", FLAGS)
_NOTHING_ABOUT = _compile(
    r"\b(?:nothing|no\s+mention|no\s+record|no\s+entry)\s+(?:about|of|on|for|regarding)\s+(?:an?\s+|the\s+)?$",
    FLAGS,
)
_TOLERATED_AFTER = _compile(
    r"\s+(?:(?:have|has|were|was|are|is)\s+(?:been\s+)?)?(?:(?:previously|since|always|all|well)\s+)?"
    r"(?:tolerated|tolerates)\b(?!\s+(?:poorly|badly)\b)",
    FLAGS,
)


# round 24: an allergen and its reaction written together ("contrast anaphylaxis", "anaphylaxis to
# penicillin", "penicillin → anaphylaxis")
# round 32: or a comma between them ("Anaesthetic record …: rocuronium, anaphylaxis (tryptase raised)")
# round 61: or a site joined by a slash to the reaction's own ("Diclofenac → eye/lip swelling")
# round 63: or the allergen's class noun before the dash ("old anaesthetic chart has cephalosporin
# antibiotics — bronchospasm")
_ALLERGEN_THEN_REACTION = _compile(
    r"(?:\s+(?:antibiotics?|drugs?|medications?|medicines?|tablets?|tabs|injections?|class))?"
    r"\s*(?:[-–—:→>(,]+\s*(?:[a-z]+/)?|(?:[a-z]+\s+)?)",
    FLAGS,
)
_REACTION_THEN_ALLERGEN = _compile(
    r"\s+(?:to|with|from|after|on)\s+(?:[a-z]+\s+)?"
    # round 78: or "attributed to" it ("toxic epidermal necrolysis attributed to allopurinol")
    r"|\s+(?:[a-z]+\s+)?(?:attributed|attributable|ascribed|secondary|due)\s+to\s+",
    FLAGS,
)


def _reaction_of(clause: str, allergen: regex.Match, reaction: regex.Match) -> bool:
    """Whether a reaction is written as the allergen's own, next to it (round 24)."""
    if allergen.end() <= reaction.start():
        return _ALLERGEN_THEN_REACTION.fullmatch(clause, allergen.end(), reaction.start()) is not None
    return _REACTION_THEN_ALLERGEN.fullmatch(clause, reaction.end(), allergen.start()) is not None


# issue 22z: the words between an analyte and its value, when they are a few and name nothing else
# ("Lab venous glucose taken at the same time 7.8 mmol/L", "gives her HbA1c as 48 mmol/mol")
# round 15: an analyte's heading, a few words then a colon ("INR this AM: 2.1")
# round 23: or the heading's colon, then where the value comes from ("INR: POC 4.9 in ED at 10:30")
_HEADING_GAP = _compile(r"[^\d:;.,]{0,25}:\s*|\s*:\s*[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?\s+", FLAGS)
_ANALYTE_GAP = _compile(r"[^\d,;:()\[\]=]{1,50}", FLAGS)
_ANALYTE_GAP_WORDS = 6
_ANALYTE_HEADING_COLON = _compile(r"^\s*:", FLAGS)
# round 56: the sample's accession number between ("Sodium for accession 31-7720 displays in the EPR as 131
# mmol/L")
_ACCESSION = _compile(r"\b(?:accession|specimen|sample)\s+(?:no\.?\s*|number\s+|#\s*)?[\w-]*\d[\w-]*", FLAGS)
# round 25: where a value was measured, right after it; a target, range or limit between an analyte and a
# number
# round 66: or a bracket that names it with its draw or time ("Na+ 118 (VBG 0930) / 131 mmol/L (lab, 0930
# draw)"), not one that names a source alone ("4.2 mmol/L (lab chemistry) was last week's")
_MEASURED_ON = _compile(
    r"\s+(?:on|from|per|by|in)\s|\s*\((?=[^()\n]{0,40}?\b(?:same|draw|sample|specimen|\d{1,2}:?\d{2})\b)",
    FLAGS,
)
_NOT_A_RESULT = _compile(
    r"\b(?:target|goal|range|aim|therapeutic|ref|reference|normal|cut-?off|threshold|limit|above|below|over|under"
    r"|less|more|greater)\b|[<>≤≥]",
    FLAGS,
)
# round 24: a date of the sample among those words is no other value ("gives her eGFR on 12/03 as 58 mL/min")
# round 37: with the colon that may follow it ("TSH on 02/05: 0.02 mU/L")
_SAMPLE_DATE = _compile(rf"(?:{_DATE_COARSE.pattern})(?:\s*:(?=\s))?", FLAGS)


_CONVERSION_BRACKET = _compile(r"\s*[(\[]\s*(?:=\s*)?", FLAGS)
# round 73: a value in brackets after the assay's reference limit is that limit, not a result ("EPR hs-TnI for
# same 14:00 sample 62 ng/L (URL 26 ng/L)")
_REFERENCE_LIMIT_BEFORE = _compile(
    r"[(\[]\s*(?:url|uln|ref(?:erence)?(?:\s+(?:range|limit))?|99th\s+(?:centile|percentile)|cut-?off|upper\s+limit"
    r"(?:\s+of\s+normal)?)\s*[:=]?\s*[<>≤≥]?\s*$",
    FLAGS,
)
_REFERENCE_LIMIT_REACH = 40  # characters before a value in which its reference-limit bracket is read


def _reference_limit(clause: str, value: regex.Match) -> bool:
    """The value is an assay's reference limit in brackets, not a result (rounds 73 and 76)."""
    return (
        _REFERENCE_LIMIT_BEFORE.search(clause, max(0, value.start() - _REFERENCE_LIMIT_REACH), value.start())
        is not None
    )


def _one_analyte_before(before: str, unit: str, a: CompiledAttributes) -> str:
    """The one analyte named before a value, if the value's unit is one of its units, else IMPLIED (round 22:
    "Her creatinine on the split sample of 3 March was reported as 1.1 mg/dL")."""
    names = list(a.lab_name.finditer(before)) if a.lab_name is not None else []
    key = a.lab_key[names[0].group("analyte").lower()] if len(names) == 1 else IMPLIED
    return key if unit in a.spec.lab_units.get(key, {}) else IMPLIED


def _analyte_then_value(clause: str, a: CompiledAttributes, add: Callable[..., None]) -> bool:
    """The one analyte a clause names, and the one value with a unit of that analyte a few words after
    it; returns whether one was read."""
    names = list(a.lab_name.finditer(clause))  # type: ignore[union-attr]
    values = list(a.lab_unit_value.finditer(clause))  # type: ignore[union-attr]
    # round 37: a value in brackets right after another, in another unit, is that value converted ("0.9 mg/dL
    # (80 umol/L)")
    values = [
        v
        for k, v in enumerate(values)
        if not (
            k
            and _CONVERSION_BRACKET.fullmatch(clause, values[k - 1].end(), v.start())
            and v.group("unit").lower() != values[k - 1].group("unit").lower()
        )
    ]
    values = [v for v in values if not _reference_limit(clause, v)]
    if len(names) != 1 or len(values) != 1 or values[0].start() < names[0].end():
        return False
    name, value = names[0], values[0]
    key = a.lab_key[name.group("analyte").lower()]
    # round 55: the analyte as a heading, its colon before the source ("Creat: referring hospital 2.4 mg/dL")
    gap = _SAMPLE_DATE.sub(" ", _ANALYTE_HEADING_COLON.sub(" ", clause[name.end() : value.start()], count=1))
    gap = _ACCESSION.sub(" ", gap)
    # round 73: or the sample's clock time ("hs-TnI for same 14:00 sample 62 ng/L")
    gap = _CLOCK.sub(" ", gap)
    unit = value.group("unit").lower()
    if unit not in a.spec.lab_units.get(key, {}) or len(gap.split()) > _ANALYTE_GAP_WORDS:
        return False
    if not _ANALYTE_GAP.fullmatch(gap):
        return False
    add("lab_value", key, (float(value.group("value")), unit), name.start(), value.end())
    return True


def _only_drug(clause: str, drugs: list[regex.Match]) -> tuple[regex.Match, ...]:
    """The names of the clause's one drug (round 23): its drug matches, once names written one after another
    are joined ("insulin degludec": one drug with two names), all name one drug; else none."""
    runs: list[list[regex.Match]] = []
    for drug in drugs:
        if runs and _DRUG_JOIN.fullmatch(clause, runs[-1][-1].end(), drug.start()):
            runs[-1].append(drug)
        else:
            runs.append([drug])
    keys = {tuple(_drug_key(d.group("drug")) for d in run) for run in runs}
    return tuple(runs[0]) if len(keys) == 1 else ()


def _status_mentions(
    clause: str, offset: int, index: int, a: CompiledAttributes, lexicon: Lexicon, drugs: list[regex.Match]
):
    """Drug stopped vs active: 'X was stopped' / 'stopped (taking) X'; a stop outranks an activity.

    A reported instruction to stop ("the clopidogrel the hospital told us to stop") is a stop that may
    conflict with an activity in the same clause; a cue whose object is "it"/"them" is a status of
    the drug of a neighbouring clause ("pharmacy refilled it"). ``drugs``: the clause's drug matches."""
    extra: list[Mention] = []
    if a.stop_instruction is not None:
        for cue in a.stop_instruction.finditer(clause):
            after = [d for d in drugs if d.start() >= cue.end()]
            before = [d for d in drugs if d.end() <= cue.start()]
            target = None
            if after and len(clause[cue.end() : after[0].start()].split()) <= _STATUS_WINDOW_WORDS:
                target = after[0]
            elif before and len(clause[before[-1].end() : cue.start()].split()) <= _INSTRUCTION_GAP_WORDS:
                target = before[-1]
            if target is not None:
                s, e = min(cue.start(), target.start()), max(cue.end(), target.end())
                key = _drug_key(target.group("drug"))
                extra.append(
                    Mention("medication_status", key, "stopped", index, offset + s, offset + e, False, True)
                )
    for drug in drugs:  # round 53: "his daughter insists he hasn't had tamsulosin at home"
        if _ALLERGY_NOUN_AFTER.match(clause, drug.end()):
            continue  # round 54: "… and no codeine allergy" denies an allergy, not the drug
        if not_had := _NOT_HAD_BEFORE.search(clause, 0, drug.start()):
            key = _drug_key(drug.group("drug"))
            span = (offset + not_had.start(), offset + drug.end())
            extra.append(Mention("medication_status", key, "stopped", index, *span))
    found: dict[str, tuple[str, int, int]] = {}
    stops: list[tuple[int, int]] = []
    cues = [
        (status, list(pattern.finditer(clause)))
        for status, pattern in (("stopped", a.stopped), ("active", a.active))
    ]
    # round 23: a clause that names its source and states one status (the two rules below that use it)
    one_status = sum(bool(hits) for _, hits in cues) == 1 and a.source.search(clause) is not None
    only_drug = _only_drug(clause, drugs) if one_status else ()
    for status, status_cues in cues:
        for cue in status_cues:
            cue_status = status
            if status == "stopped" and _STOP_DENIED_BEFORE.search(clause, 0, cue.start()):
                cue_status = "active"  # round 77: a stop denied ("the GP never stopped it") is the drug taken
            elif status == "stopped":
                stops.append(cue.span())
            elif any(s <= cue.start() < e for s, e in stops):
                continue  # issue 22z: "takes" inside "no longer takes" is the stop's, not an activity
            # issue 22z: or a negative auxiliary ("havent been giving it")
            if status == "active" and (
                _negated_before(clause, 0, cue.start(), lexicon)
                or _NEGATIVE_AUXILIARY.search(clause, 0, cue.start())
            ):
                # issue 22s: "no clopidogrel dispensed since 08/2024" is a drug not taken, against a
                # list that has it current; a negated activity with its drug right after the negation
                if not _NEGATED_ACTIVITY.search(clause, 0, cue.start()):
                    continue
                cue_status = "stopped"
            target = None
            after = [d for d in drugs if d.start() >= cue.end()]
            if after and len(clause[cue.end() : after[0].start()].split()) <= _STATUS_WINDOW_WORDS - 1:
                target = after[0]
            before = [d for d in drugs if d.end() <= cue.start()]
            if before:
                gap = clause[before[-1].end() : cue.start()]
                # "digoxin stopped by cardiology", "on admission": a passive without its auxiliary; round 14:
                # "levetiracetam not on pt's own med list", "warfarin among her current medications"
                passive = (
                    _STATUS_PASSIVE_GAP.search(gap)
                    or (
                        not gap.strip()
                        and regex.match(r"\s+(?:by|on|per|at|since)\b", clause[cue.end() :], FLAGS)
                    )
                    or (not gap.strip() and cue.group().lower().startswith("not "))
                    or _AMONG_BEFORE.fullmatch(gap)
                )
                # issue 22u: a list entry, the drug (and its dose) then its status, after a record's
                # colon or its reporting verb ("GP record: simvastatin discontinued", "list shows
                # furosemide discontinued", "repeat slip: simvastatin 40 mg active")
                entry = _DOSE_GAP.fullmatch(gap) and _ENTRY_LEAD.search(clause, 0, before[-1].start())
                if (passive or entry) and len(gap.split()) <= 6:
                    target = before[-1]
            if target is None and before and before[0] is _heading_drug(clause, drugs):
                target = before[0]  # issue 22z: "Aspirin: GP summary 'discontinued'"
            if target is None and only_drug and cue_status == status:
                # round 23: a clause about one drug that names its source and states one status: the status is
                # that drug's wherever it stands ("warfarin flagged discontinued in EHR", "Aspirin 75 mg
                # documented held 7 days on surgical checklist")
                target = only_drug[-1]
            if target is None:
                rest = clause[cue.end() :].strip(" .;,")  # what follows the cue in its clause
                # "records show it discontinued"; issue 22u: "the repeat list shows it active"
                before_pronoun = _PRONOUN_BEFORE.search(clause, 0, cue.start())
                after_pronoun = None if before_pronoun else _PRONOUN_AFTER.match(clause, cue.end())
                if before_pronoun:  # "outside records show it discontinued"
                    start, end = before_pronoun.start(), cue.end()
                elif after_pronoun:  # "stopped it", "refilled it"
                    start, end = cue.start(), after_pronoun.end()
                elif status == "active" and _AMOUNT_AFTER.match(clause, cue.end()):
                    start, end = cue.start(), cue.end()  # issue 22z: "EPR order active 500mg BD"
                elif _SAYS_RIGHT_BEFORE.search(clause, 0, cue.start()) and (
                    not rest or _SCHEDULE_ONLY.fullmatch(rest)
                ):
                    # issue 22z round 13: "letter says continue,"; round 21: with its schedule alone ("pt
                    # says taking daily")
                    start, end = cue.start(), cue.end()
                elif _RECORDED_AS.search(clause, 0, cue.start()):
                    start, end = cue.start(), cue.end()
                elif cue_status != status and (not rest or _SCHEDULE_ONLY.fullmatch(rest)):
                    start, end = cue.start(), cue.end()  # issue 22z: "pt and own supply - not taking"
                elif status == "active" and _AMOUNT_BEFORE.search(clause, 0, cue.start()):
                    start, end = cue.start(), cue.end()  # issue 22z: "MAR shows 500 mg BD still being given"
                elif _RECORD_BEFORE.search(clause, 0, cue.start()) and _ENTRY_END.match(clause, cue.end()):
                    # round 17: a record's entry that is the status alone ("GP list - active, repeat issued")
                    start, end = cue.start(), cue.end()
                elif (
                    not drugs
                    and one_status
                    and not _OTHER_BEFORE.search(clause, 0, cue.start())
                    and not _NEGATED_OTHER.search(clause, 0, cue.start())
                    and not _NONE_AFTER.match(clause, cue.end())
                    and not (status == "stopped" and (_DECIDED.search(clause) or _DATE_STATED.search(clause)))
                ):
                    # round 23: a clause that names a source and no drug and states one status: the status
                    # of the neighbouring clause's drug ("Pt states she hasn't taken any for months", "MAR
                    # shows given 08:00 today", "fill history shows 90-day supply dispensed")
                    start, end = cue.start(), cue.end()
                elif (
                    not drugs
                    and cue_status == status
                    and not _OTHER_BEFORE.search(clause, 0, cue.start())
                    and (obj := _REGIMEN_OBJECT.match(clause, cue.end()))
                ):
                    # issue 22z round 12: "sign-out says continue home dose"; round 14: in a clause without a
                    # drug, the status of a regimen or list ("still on active GP repeat", "its been taken off
                    # his list"), not a negated one nor "other" ones ("no other active medications")
                    start, end = cue.start(), obj.end()
                else:
                    continue
                # issue 22z: with its negation read ("not taking it" is a stop)
                span = (offset + start, offset + end)
                extra.append(Mention("medication_status", IMPLIED, cue_status, index, *span, True))
                continue
            # round 21: and the drugs listed with it before the status ("lists methotrexate 15 mg once weekly
            # with folic acid 5 mg as ongoing treatment")
            listed = [target]
            while (k := drugs.index(listed[-1])) > 0 and target.end() <= cue.start():
                if not _LISTED_WITH.fullmatch(clause, drugs[k - 1].end(), drugs[k].start()):
                    break
                listed.append(drugs[k - 1])
            if target in only_drug:  # round 23: the status is the drug's under each of its names
                listed += [d for d in only_drug if d not in listed]
            for drug in listed:
                key = _drug_key(drug.group("drug"))
                if key in found and found[key][0] == "stopped":
                    continue
                found[key] = (cue_status, min(cue.start(), drug.start()), max(cue.end(), drug.end()))
    if _FILLS_STOPPED.search(clause):  # issue 22z: "last dispensed 11/2023, no fills since" is a stop
        found = {key: ("stopped", s, e) for key, (_, s, e) in found.items()}
    return [
        *(
            Mention("medication_status", key, status, index, offset + s, offset + e)
            for key, (status, s, e) in found.items()
        ),
        *extra,
    ]


def _conflicting(m: Mention, n: Mention, tolerance: float, units: LabUnits | None = None) -> bool:
    if m.attribute != n.attribute:
        return False
    if m.clause == n.clause and not (m.same_clause or n.same_clause):
        return False
    if m.attribute == "allergy":
        for only, other in ((m, n), (n, m)):
            if isinstance(only.value, tuple):  # issue 22y: "allergy = X only" against another allergen
                return other.value is True and other.key not in ("*", only.value[1])
        return m.value != n.value and (m.key == n.key or "*" in (m.key, n.key))
    if m.key != n.key:
        return False
    if m.attribute == "dose":
        (amount_m, unit_m, freq_m), (amount_n, unit_n, freq_n) = m.value, n.value  # type: ignore[misc]
        if amount_m is None or amount_n is None:  # a frequency stated without an amount
            return freq_m is not None and freq_n is not None and freq_m != freq_n
        if unit_m != unit_n and None not in (unit_m, unit_n):  # round 16: a strength without its unit
            return False
        return amount_m != amount_n or (freq_m is not None and freq_n is not None and freq_m != freq_n)
    if m.attribute == "lab_value":
        return _labs_differ(m, n, tolerance, units or {})
    if m.attribute == "weight":
        readings = [(m.value, n.value)]
        # round 21: a weight without its unit differs only if it differs read in kg and read in lb
        if isinstance(m.value, UnitlessWeight) != isinstance(n.value, UnitlessWeight):
            bare, other = (m.value, n.value) if isinstance(m.value, UnitlessWeight) else (n.value, m.value)
            readings.append((bare * _KG_PER["lb"], other))  # type: ignore[operator]
        return all(abs(u - v) > tolerance * max(u, v) for u, v in readings)  # type: ignore[operator]
    if m.attribute == "date":
        return _dates_differ(m.value, n.value)  # type: ignore[arg-type]
    if m.attribute == "gestation":
        return abs(m.value - n.value) > GESTATION_TOLERANCE_WEEKS  # type: ignore[operator]
    if m.attribute == "time":
        return _clocks_differ(m.value, n.value)  # type: ignore[arg-type]
    if m.attribute == "blood_group":  # issue 22z: a part one of them leaves out (the RhD type) agrees
        return any(u != v for u, v in zip(m.value, n.value, strict=True) if u is not None and v is not None)  # type: ignore[arg-type]
    return m.value != n.value


# issue 22z: two values named as of one occasion ("the result for that same date", "from the same
# draw", "taken at the same time"): a date beside them dates that occasion, not an earlier record
_RELATIVE_OPENING = _compile(r"\s*(?:which|that)\b", FLAGS)
# round 77: a heading that dates its sample in brackets before its colon ("Potassium (sample 9 Jan): 5.8
# mmol/L per outside lab fax / 4.2 mmol/L per our analyser"): the date is both entries' after it
# (``dated_apart``)
_DATED_HEADING = _compile(
    r"\s*[^\s:;()][^:;()]{0,40}\(\s*(?:sample|specimen|drawn|collected|taken)\b[^()]{1,30}\)\s*:", FLAGS
)
_SAME_OCCASION = _compile(
    # round 17: or part of a day ("on a sample taken the same afternoon", "lab FBC drawn same hour")
    # round 53: a date between "same" and the occasion ("the lab system for the same 12/05/2025 sample")
    # round 82: or a four-digit clock time ("lab glucose from that same 2200 sample 14.2")
    r"\bsame\s+(?:\d{1,2}[/.-]\d{1,2}(?:[/.-](?:\d{4}|\d{2}))?\s+)?(?:(?:[01]\d|2[0-3])[0-5]\d\s+)?(?:date|day|sample|specimen|draw|time|tube|collection|visit|result|admission|week|month"
    r"|morning|afternoon|evening|night|hour|shift"
    # round 24: or a morning or afternoon abbreviated ("lab INR from same am 4.1")
    r"|am|pm"
    # round 18: or one study, procedure or set of bloods ("on the same Doppler of 3 April", "the same set")
    r"|scan|doppler|ultrasound|x-?ray|film|study|procedure|operation|op|set|gas|run"
    # round 23: one venepuncture ("lab chem from same stick 138")
    r"|stick|venepuncture|venipuncture|syringe"
    # round 34: or one test ("the same blood test from 10th April on the NHS app")
    r"|blood(?:\s+test)?|bloods|test|panel)\b"
    # round 62: or the record of that past event ("Op note from that admission: right TKR")
    r"|\bfrom\s+that\s+(?:admission|operation|procedure|episode|stay)\b"
    # round 76: or the sample the other source named ("TSH was 0.4 mU/L on 12 March; the result held by our
    # laboratory for that sample is 4.0 mU/L")
    r"|\b(?:for|from|on)\s+that\s+(?:sample|specimen|draw|tube)\b"
    # round 34: or the date the other source gave ("the laboratory result we hold for that date is 84
    # mmol/mol")
    r"|\b(?:for|on|from)\s+that\s+(?:date|day)\b"
    r"|\bat\s+the\s+same\s+time\b|\bsimultaneous(?:ly)?\b|\bsame[\s-]+day\b"
    r"|\b(?:drawn|taken|sent|collected)\s+together\b"
    # round 67: or two values said to be of one date ("62 kg on the drug chart and 48 kg in the dietetic
    # assessment, both on 11 June")
    r"|\bboth\s+(?:on|dated)\s+\d{1,2}\b"
    # round 22: one sample split between two laboratories
    r"|\bsplit\s+samples?\b",
    FLAGS,
)


def _same_calendar_date(first: str, second: str) -> bool:
    """Both clauses state calendar dates, and every one of them agrees with every other."""
    dates = [
        [_date_value(d) for d in _DATE_EVENT.finditer(clause) if _DATE.fullmatch(d.group())]
        for clause in (first, second)
    ]
    return all(dates) and not any(_dates_differ(x, y) for x in dates[0] for y in dates[1])


# issue 22z round 12: or a negative auxiliary ("I haven't lost or put on anything")
# round 46: or denied by the patient ("she denies any recent weight change")
# round 78: or nobody who "has told us about" it, more words than the three above allow ("the nursing home MAR
# has her on 40 mg and nobody has told us about any change"; "nobody told me about" is round 32's)
_CHANGE_DENIED = _compile(
    r"(?:\b(?:no|not|without|never|denies|denied|deny|denying)\b|\b(?:have|has|had|did|does|do|is|was|were)n'?t\b"
    # round 32: or nobody told of it ("the label … says 50mg and nobody told me about changing it")
    # round 51: the words between may be a slash list ("weighed 70 kg at the surgery, no illness/weight loss")
    # round 63: an article may end them ("Hospital discharge letter: 60 mg OD and nobody informed them of a
    # change")
    r"|\b(?:nobody|no\s+one|no-one|noone)\b)(?:(?:\s+|\s*/\s*)[\w-]+){0,3}(?:\s+(?:a|an|any|the))?(?:\s*/)?\s*$"
    r"|\b(?:nobody|no\s+one|no-one|noone)\s+(?:has|had|have)\s+(?:ever\s+)?(?:told|informed|warned)\s+"
    r"(?:us|me|him|her|them|the\s+family)\s+(?:about|of)\s+(?:a|an|any|the)?\s*$",
    FLAGS,
)
# round 15: a change not made ("dose increase not given", "titration withheld")
_CHANGE_NOT_MADE = _compile(
    r"\s*(?:[\w-]+\s+)?(?:not\s+(?:given|done|made|started|actioned|yet\s+made)|withheld|held|on\s+hold)\b",
    FLAGS,
)
# round 28: a change only supposed ("the renal results viewer has 31 …, which would change his rivaroxaban
# dose")
# round 32: or one a request puts off ("hospital result … 5.0 mIU/L - please check before levothyroxine is
# changed")
_CHANGE_SUPPOSED = _compile(
    r"\b(?:would|could|might)\s+(?:(?:also|then|need\s+to|have\s+to)\s+)?$"
    r"|\b(?:before|until|unless)\s+(?:(?:the|his|her|their|a|any)\s+)?(?:[\w-]+\s+){0,2}?(?:is|are|gets?|being|be)\s+$",
    FLAGS,
)
_LATEST = _compile(r"\b(?:most\s+recent|latest|newest|subsequent|since\s+then)\b", FLAGS)
# round 54: unless the first source names the last one too: both give the date of one event ("GP record gives
# her last tetanus vaccine as 2021, but her own vaccine card lists the latest as Td/IPV in June 2009")
_LAST_ONE = _compile(r"\b(?:last|latest|most\s+recent)\b", FLAGS)
# round 67: a further dose the second source records after the first's last one ("GP summary shows last
# booster 2009; ED letter documents a further dose 12/03/2022 after dog bite"): a later event, whatever the
# first calls last
_FURTHER_DOSE = _compile(
    r"\b(?:a\s+further|another|an\s+additional)\s+(?:dose|booster|jab|vaccination|injection)\b", FLAGS
)
# round 51: a record the text calls old beside one it calls current ("old 2021 clinic letter gives last
# infusion 03/2021; current day-unit record shows last infusion 12/02/2024"): the old record's is earlier
_RECORD_NOUN = r"(?:list|record|letter|summary|card|chart|printout|notes?|sheet)"
_OLD_RECORD = _compile(
    rf"\b(?:old|outdated|superseded)\s+(?:(?:19|20)\d\d\s+)?(?:[\w-]+\s+){{0,2}}?{_RECORD_NOUN}\b", FLAGS
)
_CURRENT_RECORD = _compile(
    rf"\b(?:current|up[\s-]to[\s-]date)\s+(?:[\w-]+\s+){{0,2}}?{_RECORD_NOUN}\b", FLAGS
)


# round 52: a booster recorded as given is a later dose than the one another clause dates ("Tetanus: 2011 per
# old notes; booster given 03/2024 per GP record"), unless both clauses speak of a booster; not one a patient
# says they had ("i had a booster at the walk-in centre in 2021"), which disputes the record
_BOOSTER = _compile(r"\bboosters?\s+(?:was\s+|were\s+)?(?:given|administered)\b", FLAGS)


_SUPPLY_DATES = frozenset({"last_dose", "last_supply"})
# round 81: the day a drug was stopped and the day of its last dose date one event, so two sources that give
# them more than a day apart disagree ("clopidogrel was stopped on 1 October ahead of surgery; … her last
# tablet was on 8 October"); a day apart is the same stop (the last tablet the evening before)
_STOP_AS_LAST_DOSE = frozenset({"drug_stopped", "last_dose"})
_STOP_DAYS_APART = 1
# round 81: a weekday none has been taken "since" is the day of the last dose, not today ("pt says this AM
# 08:00; dtr says he hasn't taken any since Sunday")
_SINCE_BEFORE = _compile(r"\bsince\s+(?:last\s+)?$", FLAGS)


def _stop_against_last_dose(m: Mention, n: Mention) -> bool:
    """One clause dates the drug's stop and the other its last dose, more than a day apart (round 81)."""
    return (
        m.attribute == n.attribute == "date"
        and m.clause != n.clause
        and {m.key, n.key} == _STOP_AS_LAST_DOSE
        and min(_day_gaps(m.value, n.value), default=0) > _STOP_DAYS_APART  # type: ignore[arg-type]
    )


def _since_weekday_against_today(m: Mention, n: Mention, text: str) -> bool:
    """One clause's date is a weekday none has been taken since and the other's is today (round 81)."""
    if not (m.attribute == n.attribute == "date" and m.key == n.key and m.clause != n.clause):
        return False
    return any(
        _SINCE_BEFORE.search(text, max(0, x.start - 12), x.start) is not None
        and all(reading[3] is not None for reading in x.value)  # type: ignore[attr-defined]
        and all(reading[4] == 0 for reading in y.value)  # type: ignore[attr-defined]
        for x, y in ((m, n), (n, m))
    )


def _drugs_apart(mentions: list[Mention], first: int, second: int) -> bool:
    """round 71: each of two clauses names a drug of its own and none in common ("simvastatin 20 mg … last
    fill 08/2021" against "rosuvastatin 10 mg daily, last filled 02/2025"): their dates are two drugs'
    supplies."""
    named = [
        {
            o.key
            for o in mentions
            if o.clause == k and o.attribute in ("drug", "dose", "medication_status") and not o.implied
        }
        - {IMPLIED}
        for k in (first, second)
    ]
    return bool(named[0]) and bool(named[1]) and not named[0] & named[1]


# round 82: a record the earlier clause calls old gives its last one as of then, so a most recent one in the
# other clause is later ("old GP summary (printed 2018) gives last colonoscopy 2016; endoscopy report on file
# documents the most recent colonoscopy 14/09/2023"); round 51's pattern, named for this reading
_OLD_RECORDS_LAST = _OLD_RECORD


def _later_event(earlier: str, later: str) -> bool:
    """The later of two clauses records a later event than the one the earlier clause dates: the most recent
    one, unless the earlier clause names its last one too (round 22, 54) in a record it does not call old
    (round 82), a further dose (round 67), or a booster given where the earlier clause names none (round
    52)."""
    return (
        (
            _LATEST.search(later) is not None
            and (_LAST_ONE.search(earlier) is None or _OLD_RECORDS_LAST.search(earlier) is not None)
        )
        or _FURTHER_DOSE.search(later) is not None
        or (_BOOSTER.search(later) is not None and _BOOSTER.search(earlier) is None)
    )


# round 52: a lab value stated for a day before beside one stated for today ("INR 3.1 in her yellow book
# (dated 12/04). POC INR today 2.4"): two samples, not one disputed
_DATED_DAY = _compile(r"\b(?:dated|from|of|on)\s+\d{1,2}/\d{1,2}\b(?!/)|\byesterday\b|\blast\s+week\b", FLAGS)
_TODAY = _compile(r"\b(?:today|this\s+(?:morning|afternoon|evening)|now)\b", FLAGS)


def _two_occasions(first: str, second: str) -> bool:
    """One clause dates its value to an earlier day, the other to today (round 52)."""
    return any(
        _DATED_DAY.search(earlier) is not None
        and _TODAY.search(earlier) is None
        and _TODAY.search(later) is not None
        for earlier, later in ((first, second), (second, first))
    )


def _old_beside_current(first: str, second: str) -> bool:
    """One clause names an old record and the other a current one (round 51)."""
    return any(
        _OLD_RECORD.search(old) is not None and _CURRENT_RECORD.search(new) is not None
        for old, new in ((first, second), (second, first))
    )


_EARLIER_ONE = _compile(r"\b(?:previous|prior|preceding|earlier)\s+$", FLAGS)
_OTHER_EVENT = _compile(r"\b(?:previous|prior|earlier|old|first|preceding|before\s+that)\b", FLAGS)


# round 17: the class-level words of an allergen class, which name no one member ("PCN", "sulfa")
_CLASS_WORDS = frozenset({"pcn", "sulfa"})


def _other_member(m: Mention, n: Mention, text: str, a: CompiledAttributes) -> bool:
    """Two allergies of one class, each a different named member ("hospital record allergy clarithromycin;
    GP record allergy erythromycin"): which drug it was is in dispute. A class word ("penicillin",
    "PCN") beside a member ("amoxicillin") agrees; one source naming both does not reach here."""
    if not (m.attribute == n.attribute == "allergy"):
        return False
    # round 30: or a member named as the only one ("Pt says allergic to codeine, dtr says it was morphine
    # that gave her hives"): its class is its value's
    classes = [
        x.value[1] if isinstance(x.value, tuple) else x.key if x.value is True else None for x in (m, n)
    ]
    if classes[0] is None or classes[0] != classes[1] or classes[0] == "*":
        return False
    words = []
    for mention in (m, n):
        found = list(a.allergen.finditer(text, mention.start, mention.end))
        word = found[-1].group().lower() if found else ""
        if not word or word in _CLASS_WORDS or word.rstrip("s") == classes[0] or " " in word:
            return False
        words.append(_drug_key(word))
    return words[0] != words[1]


_NOW_STATED = _compile(r"\b(?:current(?:ly)?|today'?s?|now)\b", FLAGS)


def _now_stated(clause_text: list[str], active: int, stop: int) -> bool:
    """The stop's clause states the present (round 30: "today's list: no amiodarone"), or a clause between the
    active one and it does (round 49: "…; her current medicines list, checked this morning …, shows she no
    longer takes it")."""
    between = range(active + 1, stop) if active < stop else range(0)
    return any(_NOW_STATED.search(clause_text[k]) for k in (*between, stop))


# round 31: the year an absence held until ("no known allergies … until 2019"); round 74: or its month and
# year ("NKDA until 03/2019")
_UNTIL_YEAR = _compile(r"\b(?:until|till|up\s+to)\s+(?:\d{1,2}/)?(?:19|20)\d\d\b", FLAGS)
# round 74: the clause after an absence that held until then, opening on the event that ended it
_WHEN_OPENING = _compile(r"\s*when\b", FLAGS)


# round 53: a month and its year ("penicillin - hives added 04/2022")
_MONTH_YEAR = _compile(r"(?<![\d/.-])\b(?:0?[1-9]|1[0-2])/(?P<year>(?:19|20)\d\d)\b(?![-/.]\d)", FLAGS)


def _years(clause: str) -> list[int]:
    """The years a clause dates itself by: bare years and months with their year."""
    return [int(y.group()) for y in _BARE_YEAR.finditer(clause)] + [
        int(y.group("year")) for y in _MONTH_YEAR.finditer(clause)
    ]


def _allergy_since(m: Mention, n: Mention, clause_text: list[str], mentions: Sequence[Mention]) -> bool:
    """round 30: "no allergies" dated by a year before the year the allergy's reaction is dated ("NKDA at 2009
    booking visit; amoxicillin - rash 2014, listed since"): an allergy found since the old record. round 53:
    the allergy's year may be a month's ("added 04/2022") or given where another clause states the same
    allergy ("NKA at first booking 2016; penicillin - hives added 04/2022. Current summary: penicillin -
    hives")."""
    if {m.value, n.value} != {True, False}:
        return False
    absent, present = (m, n) if m.value is False else (n, m)
    if _BEFORE_REACTION.search(clause_text[absent.clause]):
        return True  # round 43: "2015 notes say no known allergies, before the codeine reaction in 2017"
    if (
        _UNTIL_YEAR.search(clause_text[absent.clause])
        and present.clause == absent.clause + 1
        and _WHEN_OPENING.match(clause_text[present.clause])
    ):
        return True  # round 74: "allergy list read NKDA until 03/2019, | when she had penicillin anaphylaxis"
    stating = {present.clause} | {
        o.clause for o in mentions if o.attribute == "allergy" and o.value is True and o.key == present.key
    }
    years = [_years(clause_text[absent.clause]), [y for k in sorted(stating) for y in _years(clause_text[k])]]
    if not (years[0] and years[1]):
        return False
    # round 31: or "no known allergies … until 2019" against an allergy recorded at a 2019 admission
    until = _UNTIL_YEAR.search(clause_text[absent.clause]) is not None
    return max(years[0]) < min(years[1]) or (until and max(years[0]) <= min(years[1]))


def _elliptical(m: Mention) -> bool:
    """issue 22u: a side or a weekday two sources state alone ("the consent form says left, the list
    says right"; "the label says Friday, her list says Monday") is compared with the other's."""
    return m.attribute == "side" or (
        m.attribute == "date" and all(reading[3] is not None for reading in m.value)  # type: ignore[attr-defined]
    )


def _neighbours(i: int, j: int, occupied: frozenset[int], breaks: frozenset[int] = frozenset()) -> bool:
    """Next to each other, or with only a clause between that states nothing (issue 22z round 12: a source
    split from its verb, "the ED discharge summary, however" | "records the DVT as left-sided"); round 33: or
    with up to three such clauses between that end no sentence (``breaks``: the clauses a sentence end
    follows): "… TSH of 0.02 mU/L; our laboratory" | "on a sample drawn the same week" | "with no dose
    change" | "reports 6.8 mU/L"."""
    low, high = sorted((i, j))
    if any(k in occupied for k in range(low + 1, high)):
        return False
    return high - low <= 2 or (
        high - low <= _NEIGHBOUR_REACH and not any(k in breaks for k in range(low + 1, high))
    )


_NEIGHBOUR_REACH = 4


# the attributes whose value stated alone takes the neighbouring clause's key (round 14: an RhD sign)
_TAKES_NEIGHBOURS_KEY = frozenset({"date", "time", "side", "lab_value", "allergy_severity", "blood_group"})


def _pregnancy_results(mentions: list[Mention]) -> set[int]:
    """The clauses whose result stated alone is a pregnancy test's: next to a clause that names the pregnancy
    status (issue 22w), or, round 30, next to such a result that is one ("home test was positive | the clinic
    urine test said negative | the doctors note says not pregnant")."""
    named = {m.clause for m in mentions if m.attribute == "pregnancy_status" and m.key != IMPLIED}
    results = {m.clause for m in mentions if m.attribute == "pregnancy_status" and m.key == IMPLIED}
    reached = {c for c in results if {c - 1, c + 1} & named}
    return reached | {c for c in results if {c - 1, c + 1} & reached}


def _resolve_implied(
    mentions: list[Mention],
    historic: frozenset[int] = frozenset(),
    occupied: frozenset[int] = frozenset(),
    breaks: frozenset[int] = frozenset(),
) -> list[Mention]:
    """Give a dose stated without its drug the drug of the nearest dose mention within two clauses, and
    a status of "it" the drug of the nearest status or dose mention in the clause before or after.

    A date in a clause that speaks of history ("previous injection 01/11/2023") is another event's,
    not the neighbouring clause's (issue 22u)."""
    named = [m for m in mentions if m.attribute == "dose" and m.key != IMPLIED]
    drugs = [m for m in mentions if m.attribute in ("medication_status", "dose", "drug") and m.key != IMPLIED]
    only_drug = {m.key for m in drugs}
    out = []
    reached = _pregnancy_results(mentions)
    for m in mentions:
        if m.attribute == "pregnancy_status" and m.key == IMPLIED:
            if m.clause in reached:
                out.append(Mention(m.attribute, m.attribute, m.value, m.clause, m.start, m.end, True))
            continue
        if m.attribute in _TAKES_NEIGHBOURS_KEY and m.key == IMPLIED:
            # issue 22s: a date, side or lab value without its event, part or analyte takes the one of
            # the neighbouring clause; with none there it is dropped (round 14: an RhD sign alone too)
            if m.attribute in ("date", "time") and m.clause in historic:
                continue
            near = [
                n
                for n in mentions
                if n.attribute == m.attribute
                and n.key != IMPLIED
                and _neighbours(n.clause, m.clause, occupied, breaks)
            ]
            if near:
                pick = min(near, key=lambda n: n.clause > m.clause)
                out.append(Mention(m.attribute, pick.key, m.value, m.clause, m.start, m.end, True))
            elif _elliptical(m):
                out.append(m)
            continue
        if m.attribute == "medication_status" and m.key == IMPLIED:
            # issue 22u: or the drug earlier in its own clause ("spironolactone 25 mg: list shows it active");
            # round 28: or two clauses off past one that states nothing ("… on the clinic list. She tells me,
            # however, | that she has not taken it")
            near = [
                n
                for n in drugs
                if _neighbours(n.clause, m.clause, occupied, breaks)
                or (n.clause == m.clause and n.end <= m.start)
            ]
            # issue 22z round 13: or the drug the neighbouring clause's own "it" was given ("… the bisoprolol?
            # the paper says stopped but the pharmacy keeps packing it")
            near = near or [
                o for o in out if o.attribute == m.attribute and o.implied and abs(o.clause - m.clause) == 1
            ]
            if not near:
                continue
            pick = min(near, key=lambda n: (n.attribute != "medication_status", n.clause > m.clause))
            out.append(Mention(m.attribute, pick.key, m.value, m.clause, m.start, m.end, True))
            continue
        if m.attribute == "dose" and m.key == IMPLIED and named:
            near = min(named, key=lambda n: (abs(n.clause - m.clause), n.clause > m.clause))
            if abs(near.clause - m.clause) <= 2 and near.clause != m.clause:
                m = Mention(m.attribute, near.key, m.value, m.clause, m.start, m.end, True)
        elif m.attribute == "dose" and m.key == IMPLIED and len(only_drug) == 1:
            # round 15: a text about one drug, no dose of it named: each dose stated alone is that drug's,
            # wherever it stands ("Methotrexate is recorded … as 15 mg once weekly. The repeat template …,
            # enclosed with the referral, reads 20 mg once weekly")
            m = Mention(m.attribute, next(iter(only_drug)), m.value, m.clause, m.start, m.end, False)
        out.append(m)
    return out


def _posed_as_query(text: str, start: int) -> bool:
    """round 33: a clause that a "?" opens right against its first word poses its reason as a query ("Hb on
    handover sheet 71 but EPR shows 97 g/L … ?transcription error. Not transfusing until clarified")."""
    return start > 0 and text[start - 1] == "?" and text[start : start + 1].isalnum()


def _last_dose_of_event(found: list[Mention]) -> list[Mention]:
    """round 33: "last dose" dated in a clause that names no drug is the last dose of the event another clause
    dates ("Tetanus: pt sure last booster 2021, GP record last dose 2009"): its key is the neighbour's."""
    # round 81: nor of a drug's stop, which the last dose dates in its own right (``_stop_against_last_dose``)
    events = [
        m
        for m in found
        if m.attribute == "date"
        and not m.implied
        and m.key != "last_dose"
        and m.key not in _STOP_AS_LAST_DOSE
    ]
    if not events:
        return found
    # not in a clause that names a drug, nor one that dates another event ("LMP was 2nd june": the last
    # menstrual period "was")
    named = {
        m.clause for m in found if m.attribute in ("drug", "dose", "medication_status") and not m.implied
    }
    named |= {m.clause for m in events}
    return [
        replace(m, key=IMPLIED, implied=True)
        if m.attribute == "date" and m.key == "last_dose" and m.clause not in named
        else m
        for m in found
    ]


_EXCEPT_MEMBER = _compile(
    r"\s*,?\s*(?:apart\s+from|except(?:\s+for)?|other\s+than|besides|bar)\s+(?:(?:the|my|his|her|an?)\s+)?(?P<drug>[a-z-]+)",
    FLAGS,
)


def _class_stops(
    clause_text: list[str], spans: list[tuple[int, int]], mentions: list[Mention], a: CompiledAttributes
) -> list[Mention]:
    """issue 22w: "not on anticoagulants" is a stop of each member of the class that another clause
    names (as a dose or a status), so it meets "he takes warfarin every evening"."""
    named = {m.key for m in mentions if m.attribute in ("dose", "medication_status") and m.key != IMPLIED}
    out = []
    for i, clause in enumerate(clause_text):
        for pattern, members in a.class_absent:
            for match in pattern.finditer(clause):
                s, e = spans[i][0] + match.start(), spans[i][0] + match.end()
                # round 36: a member named as the exception ("never been on a blood thinner apart from
                # aspirin")
                excepted = _EXCEPT_MEMBER.match(clause, match.end())
                kept = named & members - ({excepted.group("drug").lower()} if excepted else set())
                out += [Mention("medication_status", key, "stopped", i, s, e) for key in sorted(kept)]
    return out


# round 32: a clause that opens by denying the one before it in a word or two ("On the app it says I'm
# allergic to ibuprofen. I'm not, I take advil all the time"): the denial states the opposite of that
# clause's allergy or medication status
_ELLIPTIC_DENIAL = _compile(
    r"^\s*(?:(?:no|nope|but)[,.!]?\s+)?(?:i'?m|im|i\s+am|she'?s|shes|she\s+is|he'?s|hes|he\s+is|they'?re|they\s+are)"
    r"\s+not(?:\s+at\s+all)?(?=\s*(?:[,.;!–—-]|$))"
    # round 33: or one that closes it, after the source who says so ("… has 'pregnant' ticked, she told me she
    # definitely isn't")
    r"|\b(?:i|she|he|they)\s+(?:(?:definitely|really|certainly|honestly|absolutely|categorically)\s+)?"
    r"(?:isn'?t|isnt|is\s+not|'s\s+not|am\s+not|'m\s+not|aren'?t|are\s+not)\s*$"
    # round 63: or the whole clause a denial by the patient ("Her older sister told triage she is pregnant;
    # the patient firmly denies it")
    r"|^\s*(?:but\s+)?(?:the\s+)?(?:patient|she|he)\s+(?:(?:flatly|firmly|strongly)\s+)?(?:denies|denied)"
    r"(?:\s+(?:this|it|that))?\s*$",
    FLAGS,
)
_DENIED_VALUE = {
    ("allergy", True): False,
    ("medication_status", "active"): "stopped",
    ("pregnancy_status", "pregnant"): "not_pregnant",  # round 33
}


def _elliptic_denials(
    clause_text: list[str], spans: list[tuple[int, int]], mentions: list[Mention]
) -> list[Mention]:
    """round 32: "I'm not" after a clause that states an allergy or a drug taken is the opposite value."""
    out = []
    for i in range(1, len(clause_text)):
        if not (denial := _ELLIPTIC_DENIAL.search(clause_text[i])):
            continue
        s, e = spans[i][0] + denial.start(), spans[i][0] + denial.end()
        for m in mentions:
            opposite = _DENIED_VALUE.get((m.attribute, m.value))  # type: ignore[arg-type]
            if m.clause == i - 1 and opposite is not None and not m.implied:
                out.append(Mention(m.attribute, m.key, opposite, i, s, e))
    return out


# round 30: a stop asked about or denied ("asked if I'd stopped", "whether amlodipine stopped", "never
# stopped")
_STOP_ASKED = _compile(r"\b(?:whether|if|asked|query|queried)\b", FLAGS)
_STOP_DENIED = _compile(r"(?:\b(?:never|not)|n'?t)\s+(?:been\s+)?(?:stop|discontinu|came\s+off)", FLAGS)


# round 68: the date attributes whose own words are an explained cue's ("stopped … on the 2nd"): where two
# sources each state one, the cue is the value compared, not an explanation; round 82: so is a course's
# start ("the cardiology clinic letter states clopidogrel was started on 1 August; the hospital discharge
# summary gives a start date of 18 August")
_DATED_BY_ITS_CUE = frozenset({"drug_stopped", "course_start"})
# round 68: a reconciliation note's heading with the drug it reconciles right after it, the topic the sources
# then speak of, not a list's entry
_RECONCILED_ITEM = _compile(r"\s*med(?:ication|icines)?\s*rec(?:onciliation)?\s*:\s*[a-z][\w-]*\s+\d", FLAGS)


def _listed_active(
    mentions: list[Mention],
    sources: list[frozenset[str]],
    clause_text: list[str],
    spans: list[tuple[int, int]],
    settled: Callable[[int], bool],
) -> list[Mention]:
    """round 30: a drug with its dose in a source's clause that states no status of it is that source's
    active drug where a neighbouring clause stops it ("ED med list has rivaroxaban 20 mg OD, wife says he
    came off it ages ago"): a list's entry is a current drug. Not where the stop is asked about or
    denied, nor where the entry's clause is dated or history (``settled``). Implied, so compared with
    neighbours only."""
    stopped = {
        m.key
        for m in mentions
        if m.attribute == "medication_status"
        and m.value == "stopped"
        and not _STOP_ASKED.search(clause_text[m.clause], 0, m.start - spans[m.clause][0])
        and not _STOP_DENIED.search(clause_text[m.clause], 0, m.end - spans[m.clause][0])
    }
    stated = {(m.clause, m.key) for m in mentions if m.attribute == "medication_status"}
    out = []
    for m in mentions:
        entry = m.attribute == "dose" and not m.implied and m.key in stopped and sources[m.clause]
        if entry and _RECONCILED_ITEM.match(clause_text[m.clause]):
            continue  # round 68: the drug a reconciliation note is about ("Med rec: amlodipine 5mg OD - …")
        if entry and (m.clause, m.key) not in stated and not settled(m.clause):
            stated.add((m.clause, m.key))
            out.append(Mention("medication_status", m.key, "active", m.clause, m.start, m.end, True))
    return out


# issue 22y: the typed values a clause states, whatever they belong to -- a side, a number with its
# unit, a date, an RhD sign -- read where no attribute pair was found, between two neighbouring clauses
# that each name a source (see `attribute_conflicts`)
_ANY_SIDE = _compile(
    # issue 22z: or before a number or an upper-case abbreviation ("R 5th ICS", "R NOF #"), or alone at
    # the end of a statement ("theatre list says L.")
    # round 19: not a unit's litre ("lab Na 134 mmol/L on the one sample")
    r"(?:\b(?P<side>left|right|lt|rt)\b|(?-i:(?<!/)\b(?P<abbr>[LR])(?:E\b|-sided\b|\b(?=\s+[a-z])"
    # round 38: or before a fracture's "#" ("ED X-ray report describes R #NOF")
    r"|\b(?=\s+(?:\d|[A-Z]{2,}\b|\#\s?[A-Za-z]))"
    r"|\b(?<=\b(?:says?|states?|reads?|shows?|documents?|records?|lists?)\s+[LR])(?=\s*(?:[.;,]|$)))))"
    # the side of the heart or the brain is not a limb's or an organ's ("left ventricular", "left hemisphere")
    r"(?![\s-]+(?:ventricular|ventricle|atrial|atrium|bundle|heart|lobe|hemisphere|hand\s+side|axis)\b)",
    FLAGS,
)
_UNIT_VALUE = _compile(
    # a result's or a weight's unit; a dose's (mg, units) is read with its drug and tablet count above
    r"(?<![\w./])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>mmol/mol|mmol/l|µmol/l|umol/l|ng/l|ng/ml|mg/l|mg/dl|g/l"
    r"|g/dl|iu/l|u/l|kg)(?![\w/])",
    FLAGS,
)
_WORDS = _compile(r"[a-z]+", FLAGS)
# round 64: or the D antigen alone, in capitals, in a text about blood ("the ward sample types D negative")
# round 82: or its typing, of today, between ("Blood bank comment: RhD typing today positive")
_RH_SIGN = _compile(
    r"\b(?:rh\s*d?|rhesus|(?-i:D))(?:\s+typ(?:ing|ed|e)(?:\s+(?:today|now|this\s+(?:am|morning|admission)))?)?"
    r"\s*[-:]?\s*(?P<sign>pos(?:itive)?|neg(?:ative)?)\b",
    FLAGS,
)
# another event's or a dated record's date: not a second reading of the first clause's date
_GENERIC_DATE_HISTORY = _compile(r"\b(?:previous|prior|earlier|old|first|since|before\s+that)\b", FLAGS)
# a date is compared only where a source states it ("told us it was only stopped 2 days ago"); a
# document's dated events ("Next appointment: …", "Clinic visit …") are each their own event's
_STATES = _compile(rf"\b(?:{_REPORTING_VERBS}|told|tells|reports?|reported|dates?|according\s+to)\b", FLAGS)
GENERIC_TOLERANCE = 0.1
# words two clauses share without naming one thing
_GENERIC_STOPWORDS = frozenset(
    {"that", "this", "with", "from", "have", "been", "were", "which", "there", "their", "about"}
    | {"last", "only"}
)
_CONTENT_WORD = _compile(r"[a-z][a-z-]{3,}", FLAGS)
_LAST_BEFORE = _compile(r"\blast\s+(?:dose\s+(?:of\s+)?)?", FLAGS)
_STOPPED_WORD = _compile(r"\b(?:stopped|ceased|discontinued|held|omitted)\b", FLAGS)


def _last_dose_named(clause: str, a: CompiledAttributes) -> bool:
    """The clause names a drug's last dose ("last clopidogrel", "last dose of apixaban")."""
    return any(a.drug.match(clause, m.end()) for m in _LAST_BEFORE.finditer(clause))


_REFERS_BACK = _compile(r"\b(?:it|that|this|them|same)\b", FLAGS)


def _two_reactions(first: str, second: str) -> bool:
    """issue 22z round 12: the clauses grade a reaction differently, so their dates are two reactions'
    ("a mild rash … in 2009; … anaphylaxis … in 2021"), not one event dated twice."""
    grades = [{grade for grade, pattern in _REACTION_GRADES if pattern.search(c)} for c in (first, second)]
    return bool(grades[0] and grades[1] and grades[0] != grades[1])


_SHARED_STEM = 6  # round 26: the shortest word read as the stem of a longer one ("infarct" / "infarction")


def _one_stem(u: str, v: str) -> bool:
    """One word is the other's start, at least ``_SHARED_STEM`` letters long ("infarct", "infarction")."""
    short, long = sorted((u, v), key=len)
    return len(short) >= _SHARED_STEM and long.startswith(short)


def _states_a_date(clause: str) -> bool:
    """round 37: a source's verb with the date right after it, all the clause says ("…, wife says Thu 30/05";
    "the report i got says 13 may"): an elliptical second account of the thing the first clause dates."""
    return any(
        _DATE_EVENT.match(clause, _WHITESPACE.match(clause, verb.end()).end())  # type: ignore[union-attr]
        for verb in _STATES.finditer(clause)
    )


_WHITESPACE = _compile(r"\s*")


def _same_referent(first: str, second: str, a: CompiledAttributes) -> bool:
    """Two clauses' dates are of one thing when the second refers back ("told us it was stopped 2 days
    ago") or both name one content word that is not a source, a reporting verb or a time word, or the second
    names no such word and states the date right after its verb (round 37)."""
    if _REFERS_BACK.search(second):
        return True
    # round 42: a drug's last dose and its stop are one date ("pt says last clopidogrel 10/09; surgical
    # pre-assessment note says stopped 13/09")
    if any(_last_dose_named(x, a) and _STOPPED_WORD.search(y) for x, y in ((first, second), (second, first))):
        return True

    def words(clause: str) -> set[str]:
        return {
            w.lower()
            for w in _CONTENT_WORD.findall(clause)
            if not a.source.fullmatch(w) and not _STATES.fullmatch(w) and not _DATE_EVENT.fullmatch(w)
        }

    ours, theirs = words(first) - _GENERIC_STOPWORDS, words(second) - _GENERIC_STOPWORDS
    if ours and not theirs and _states_a_date(second):
        return True
    # round 26: or one word and its shorter form ("date of his myocardial infarction" / "the infarct was")
    return bool(ours & theirs) or any(_one_stem(u, v) for u in ours for v in theirs)


def _generic_mentions(clause: str, a: CompiledAttributes) -> list[Mention]:
    """A clause's typed values keyed by type alone: one side (or none when it states both), one number
    per unit, one date (not a document's), one RhD sign; each spans the clause (numbered 0 here)."""
    span = (0, 0, len(clause))
    out: list[Mention] = []
    words = {(m.group("side") or m.group("abbr")).lower() for m in _ANY_SIDE.finditer(clause)}
    sides = {_SIDE_NAMES.get(word, word) for word in words}
    if len(sides) == 1:
        out.append(Mention("typed_side", "*", sides.pop(), *span))
    by_unit: dict[str, list[float]] = {}
    for m in _UNIT_VALUE.finditer(clause):
        by_unit.setdefault(m.group("unit").lower().rstrip("s"), []).append(float(m.group("num")))
    out += [
        Mention("typed_value", unit, values[0], *span) for unit, values in by_unit.items() if len(values) == 1
    ]
    dates = [d for d in _DATE_EVENT.finditer(clause) if not _DOCUMENT_DATE.search(clause, 0, d.start())]
    if len(dates) == 1 and _STATES.search(clause) and not _GENERIC_DATE_HISTORY.search(clause):
        out.append(Mention("typed_date", "*", _date_value(dates[0]), *span))
    signs = {  # round 16: not a population a guideline speaks of ("Rh-negative patients are flagged")
        m.group("sign")[:3].lower()
        for m in _RH_SIGN.finditer(clause)
        if not _POPULATION_AFTER.match(clause, m.end())
    }
    if len(signs) == 1:
        out.append(Mention("typed_rh", "*", signs.pop(), *span))
    return out


def _named_things(clause: str, a: CompiledAttributes) -> set[str]:
    """The analytes and drugs a clause names (their canonical keys)."""
    found = {_drug_key(m.group("drug")) for m in a.drug.finditer(clause)}
    if a.lab is not None:
        found |= {a.lab_key[m.group("analyte").lower()] for m in a.lab.finditer(clause)}
    return found


def _generic_differ(m: Mention, n: Mention) -> bool:
    if m.attribute != n.attribute or m.key != n.key:
        return False
    if m.attribute == "typed_value":
        return abs(m.value - n.value) > GENERIC_TOLERANCE * max(m.value, n.value)  # type: ignore[operator]
    if m.attribute == "typed_date":
        return _dates_differ(m.value, n.value)  # type: ignore[arg-type]
    return m.value != n.value


# round 17: a heading and a list of its sources' entries ("Code: DNR (wristband) / Full (orders)", "Lithium:
# GP list - active / psych letter - stopped"); an SBAR letter before the heading is not it
_LIST_HEADING = _compile(
    # round 81: nor a handover's time label before it ("Overnight: HbA1c - GP letter 6.1%, our lab 9.4%")
    r"\s*(?:[SBAR]\s*:\s*)?(?:(?:overnight|o/n|handover|update|addendum)\s*:\s*)?"
    r"(?P<label>[A-Za-z][\w.+'()\- ]{0,30}?"
    # round 79: a heading may date its entries ("TSH 03/02: 0.02 mU/L (GP letter) vs 4.8 mU/L (hospital lab)")
    r"(?:\s+\d{1,2}/\d{1,2}(?:/\d{2,4})?)?)\s*(?::|=|\s[-–—]\s)\s*\S",
    FLAGS,
)
# round 19: or a semicolon ("Date of hip fracture fixation: 02/11/2024 in the operative report; 02/21/2024 in
# the rehabilitation referral letter")
_LIST_SEPARATOR = _compile(r"\s*(?:/|,|\||;)\s*")
# round 79: or "vs" before a number ("TSH 03/02: 0.02 mU/L (GP letter) vs 4.8 mU/L (hospital laboratory)");
# a word after it is round 13's to read ("Code: DNACPR per daughter … vs FULL per ambulance handover sheet")
_VS_BEFORE_NUMBER = _compile(r"\s+(?:vs\.?|versus)\s+(?=\d)", FLAGS)


def _heading_items(
    text: str,
    spans: list[tuple[int, int]],
    clause_text: list[str],
    found: list[Mention],
    a: CompiledAttributes,
    lexicon: Lexicon,
    contexts: tuple[bool, ...],
) -> list[Mention]:
    """The values of a list's later entries read under the heading of its first ("Preg status: Y (per pt) /
    N (EHR flag)" gives the second entry a pregnancy status).

    An entry joined to the one before by a slash, comma, bar or semicolon takes the chain's heading when, read
    under it, the entry states the attribute and key that the heading's own entry states and it states
    none of that attribute by itself. Hand-written: the heading of a chart's list is layout, which no
    assertion library reads."""
    out: list[Mention] = []
    head: tuple[str, set[tuple[str, str]]] | None = None
    for i, (s, e) in enumerate(spans):
        own = [m for m in found if m.clause == i]
        vs = _VS_BEFORE_NUMBER.match(text, spans[i - 1][1]) if i > 0 else None
        joined = i > 0 and (
            _LIST_SEPARATOR.fullmatch(text, spans[i - 1][1], s) is not None
            or (vs is not None and vs.end() == s)
        )
        if not joined:
            heading = _LIST_HEADING.match(clause_text[i])
            head = (heading.group("label"), {(m.attribute, m.key) for m in own}) if heading else None
            continue
        if head is None or not head[1]:
            continue
        prefix = f"{head[0]}: "
        read = _mentions(prefix + clause_text[i], (0, len(prefix) + e - s), 0, a, lexicon, *contexts)
        stated = {m.attribute for m in own}
        for m in read:
            if (m.attribute, m.key) in head[1] and m.attribute not in stated and m.end > len(prefix):
                start = max(m.start - len(prefix), 0)
                out.append(replace(m, clause=i, start=s + start, end=s + m.end - len(prefix)))
    return out


def _topic_analyte(found: list[Mention], clause_text: list[str], a: CompiledAttributes) -> list[Mention]:
    """round 42: two or more bare values that no analyte keys take the one analyte the text names before them
    as its topic ("Dad's sodium from Tuesday - the care home told us 121 and the hospital letter says 131").
    Hand-written: no assertion library carries a topic named once over to the values after it."""
    implied = [m for m in found if m.attribute == "lab_value" and m.key == IMPLIED]
    keyed = any(m.attribute == "lab_value" and m.key != IMPLIED for m in found)
    if len(implied) < 2 or keyed or a.lab_name is None:
        return found
    first = min(m.clause for m in implied)
    names = {
        a.lab_key[n.group("analyte").lower()] for c in clause_text[:first] for n in a.lab_name.finditer(c)
    }
    if len(names) != 1:
        return found
    key = names.pop()
    units = a.spec.lab_units.get(key, {})
    return [
        replace(m, key=key) if m in implied and (m.value[1] is None or m.value[1] in units) else m  # type: ignore[index]
        for m in found
    ]


def _states_another(mentions: list[Mention], clause: int, attribute: str, key: str | None) -> bool:
    """round 20: the clause states a value of something other than ``key``, so a verdict in it is that value's
    ("… pt's dosette has 7.5mg wkly. Folic acid 5mg wkly on both." does not close the methotrexate doses);
    round 21: of the same attribute ("… ward K+ 4.4 - spironolactone stopped by GP, so lower value expected"
    names the cause)."""
    return key is not None and any(
        o.clause == clause and o.attribute == attribute and o.key != key and not o.implied for o in mentions
    )


# round 69: a calendar date, not a time before now: "delivered 2 wks ago" is what the patient says against a
# banner that still reads pregnant, no record of the end of the pregnancy
_DELIVERED = _compile(
    r"\b(?:delivered|gave\s+birth)\b(?=\s+(?:on\s+|in\s+)?\d)(?!\s+\d{1,2}\s*(?:days?|d|wks?|weeks?)\s+ago\b)",
    FLAGS,
)
_PREGNANCY_TEST = _compile(r"\b(?:hcg|upt|pregnancy\s+test)\b", FLAGS)
_TEST_REACH = 30  # the test named before its value ("serum β-hCG this AM 1,450 IU/L")


def _clause_order(m: Mention, n: Mention) -> tuple[int, int]:
    """The two mentions' clauses, the earlier first (round 64): a drug read as listed active is found after
    the others, and "the clause right after the second" (a verdict such as "Consistent.") is after the later
    one."""
    return (m.clause, n.clause) if m.clause <= n.clause else (n.clause, m.clause)


def _test_against_status(m: Mention, n: Mention, text: str) -> bool:
    """One of two pregnancy statuses is a test's result and the other is not."""
    if m.attribute != "pregnancy_status":
        return False
    tested = [_PREGNANCY_TEST.search(text, max(0, x.start - _TEST_REACH), x.end) is not None for x in (m, n)]
    return tested[0] != tested[1]


def attribute_conflicts(text: str, lexicon: Lexicon) -> list[tuple[Mention, Mention]]:
    """Pairs of mentions in which two sources state the same attribute with different values.

    A pair counts when its two clauses differ, at least one clause names a source (and, when both
    do, not the same ones), and neither clause frames the difference as a documented change, as
    history (dose, side and weight only: a date, an allergy or a stop is history by nature) or as
    both sides. Where no such pair is found, two neighbouring clauses that each name a source are
    compared on their typed values alone (issue 22y: `_generic_mentions`).
    """
    a = lexicon.attributes
    if a is None:
        return []
    text = _FIELD_QUOTE.sub(" ", text)  # same length: mention offsets stay the text's
    text = _DELIVERY_ASIDE.sub(lambda m: " " * len(m.group()), text)
    memo = lexicon.memo
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    spans = [
        (start + s, start + e)
        for start, end in _clauses(text)
        for s, e in _memo(
            memo, ("split", text[start:end]), lambda c: _split_at_sources(c, [(0, len(c))], a.source)
        )
    ]
    clause_text = [text[s:e] for s, e in spans]
    facts = [_memo(memo, ("facts", c), lambda c: _clause_facts(c, a)) for c in clause_text]
    sources = [f[0] for f in facts]
    dated = [f[1] for f in facts]
    neonate = _NEONATE.search(text) is not None

    def flagged(pattern: regex.Pattern | None, i: int) -> bool:
        return pattern is not None and pattern.search(clause_text[i]) is not None

    def same_occasion(i: int) -> bool:
        """The clause, or the relative clause right after it, names one occasion (round 38: "… for the sample
        your practice sent on 14 May, which I understand to be the same test")."""
        return flagged(_SAME_OCCASION, i) or (
            i + 1 < len(clause_text)
            and _RELATIVE_OPENING.match(clause_text[i + 1]) is not None
            and flagged(_SAME_OCCASION, i + 1)
        )

    def dated_apart(i: int, j: int) -> bool:
        """A calendar date in either clause dates an earlier record, unless the two clauses name one
        occasion: one date in both, or "the same sample / draw / date", "at the same time" (issue 22z)."""
        # round 15: the date of the event the clause names is no record's ("right inguinal hernia repair
        # (operation note, 2 May)")
        first, second = (dated[k] and k not in event_dated for k in (i, j))
        if not (first or second) or same_occasion(i) or same_occasion(j):
            return False
        if j == i + 1 and _ELLIPTIC_AS.match(clause_text[j]):
            return False  # round 64: the second reading of the one dated thing ("… but as 6.1 mmol/L in …")
        if j == i + 1 and not second and _DATED_HEADING.match(clause_text[i]):
            return False  # round 77: the next entry under a heading that dates its sample
        return not (first and second and _same_calendar_date(clause_text[i], clause_text[j]))

    def historic_for(attribute: str, i: int) -> bool:
        """The clause speaks of history; for a weight, a measurement of the last fortnight does not."""
        if a.history is None:
            return False
        clause = (
            _STABLE.sub(" ", _RECENT.sub(" ", clause_text[i])) if attribute == "weight" else clause_text[i]
        )
        if attribute == "dose":  # round 42: a record made at a recent discharge is current
            clause = _RECENT_RECORD.sub(" ", clause)
        if attribute == "lab_value":  # round 43: a sample minutes apart is no earlier record
            clause = _MINUTES_APART.sub(" ", clause)
        if attribute == "weight" and neonate:
            clause = _BIRTH_WEIGHT.sub(" ", clause)
        if attribute == "side":
            clause = _LIMB_BRACKET.sub(" ", _REASON_IN_BRACKETS.sub(" ", clause))
        if attribute == "allergy_severity":
            # round 75: nor is an "old" record of it, which grades the same past reaction ("pt says reaction
            # to morphine was just itching; old ED notes record morphine - anaphylaxis, adrenaline given")
            clause = _OLD_RECORD.sub(" ", _REACTION_YEAR.sub(" ", clause))
        return a.history.search(clause) is not None

    def in_force_history(i: int) -> bool:
        """The clause speaks of history, other than the date a standing document was made (issue 22z
        round 12: "she signed it with her doctor last year" is a DNR still in force), or a document never
        revoked (round 53: "his ReSPECT form from 2021 says DNACPR and he never revoked it")."""
        return flagged(a.history, i) and not flagged(_DOCUMENT_MADE, i) and not flagged(_NEVER_REVOKED, i)

    def history_words(i: int) -> set[str]:
        return {m.group().lower() for m in a.history.finditer(clause_text[i])} if a.history else set()

    def historic_apart(attribute: str, i: int, j: int) -> bool:
        """Either clause speaks of history, unless both speak of the same past event in the same words
        ("birth wt 3.4kg on the postnatal letter, birth wt on the drug chart 2.9kg"; issue 22z)."""
        first, second = historic_for(attribute, i), historic_for(attribute, j)
        if same_occasion(i) or same_occasion(j):
            return False  # round 21: "birth wt 3.42 kg …; NICU admission wt 2.84 kg (same day, 40 min later)"
        return (first or second) and not (first and second and history_words(i) == history_words(j))

    def explains(k: int) -> bool:
        """The clause explains a difference, other than by asking ("is that just a typo or did they xray the
        wrong one": round 20)."""
        if a.explained is None or _SECONDS_A_SOURCE.match(clause_text[k]):
            return False
        if _posed_as_query(text, spans[k][0]):
            return False
        clause = clause_text[k].lstrip()
        # round 38: nor by a cue the clause ends on and asks ('lab comment "haemolysed?"')
        asked_at_end = text[spans[k][1] : spans[k][1] + 1] == "?"
        seconded = _SECONDS_AT_END.search(clause)
        return any(
            not (seconded and cue.start() > seconded.start())
            and not _ASKED_BEFORE.search(clause, 0, cue.start())
            and not _SUSPECTED_BEFORE.search(clause, 0, cue.start())
            and not _EXPLANATION_NOT_MADE_BEFORE.search(clause, 0, cue.start())
            and not (asked_at_end and not _FIELD_QUOTE.sub("", clause[cue.end() :]).strip())
            for cue in a.explained.finditer(clause)
        )

    def framed_as_change(
        i: int, j: int, attribute: str = "", key: str | None = None, cues_are_values: bool = False
    ) -> bool:
        """Either clause frames the difference as a change or explains it, the clause right after the
        second gives the verdict (issue 22u: "GP record states 5 mg OD. Consistent."; round 53: "This is true
        weight loss since the referral"), or a clause
        between two close ones explains it (issue 22z: "4.2kg on one form and 6.2kg on the other, the
        nurse reweighed her and it was a typo, both forms say 6.2kg now")."""
        return (
            changed(i)
            or changed(j)
            # round 68: unless the cues are the two values compared ("stopped her clopidogrel on the 2nd"
            # against "she stopped on the 9th")
            or (not cues_are_values and (explains(i) or explains(j)))
            or (
                j + 1 < len(spans)
                and (explains(j + 1) or (_VERDICT_OPENING.match(clause_text[j + 1]) and changed(j + 1)))
                and not _states_another(mentions, j + 1, attribute, key)
            )
            or (j - i <= _EXPLAINED_BETWEEN and any(explains(k) for k in range(i + 1, j)))
            # round 31: or a change made between them ("record previously carried a penicillin allergy label;
            # | following a negative challenge … | the label was removed | … now read NKDA")
            or (j - i <= _CHANGED_BETWEEN and any(changed(k) for k in range(i + 1, j)))
            or (i > 0 and _CONSEQUENCE_OPENING.match(clause_text[i]) and (changed(i - 1) or explains(i - 1)))
        )

    def changed(i: int) -> bool:
        """A change cue outside the question the clause ends with ("…says 4.2, do I change my warfarin?")."""
        if a.change is None:
            return False
        statement = clause_text[i]
        if text[spans[i][1] : spans[i][1] + 1] == "?":
            comma = statement.rfind(", ")
            statement = statement[:comma] if comma > 0 else ""
        # issue 22z: a change denied ("with no mention of a restart", "not changed") is none
        # issue 22z round 12: nor is a plan to continue ("surgical plan in notes says continue prophylaxis");
        # round 13: nor a change asked about without its question mark ("…, does that change my dose");
        # round 28: nor one only supposed ("which would change his dose")
        return any(
            not _CHANGE_DENIED.search(statement, 0, cue.start())
            and not _CHANGE_NOT_MADE.match(statement, cue.end())
            and not _ASKED_BEFORE.search(statement, 0, cue.start())
            and not _CHANGE_SUPPOSED.search(statement, 0, cue.start())
            and not (cue.group().lower().startswith("plan") and _CONTINUE_WORD.search(statement))
            and not _FROM_SAME.match(cue.group())
            and not _FROM_PLACE_TO.fullmatch(cue.group())
            for cue in a.change.finditer(statement)
        )

    def documented_elsewhere(m: Mention, n: Mention) -> bool:
        """issue 22z: a third clause frames one of the two values as the change made ("cardiology letter
        confirms dose doubled to 80 mg on 02/06"): the difference is that change."""
        return any(
            o.clause not in (m.clause, n.clause)
            and o not in listed  # round 30: a list's entry read as active documents no change
            and o.attribute == m.attribute
            and o.value in (m.value, n.value)
            and (o.key == m.key or o.implied)
            and (changed(o.clause) or flagged(a.explained, o.clause))
            for o in mentions
        )

    medicine_word = _MEDICINE_WORD.search(text) is not None
    blood_context = a.blood_cue is not None and a.blood_cue.search(text) is not None  # the text's topic
    weight_context = _WEIGHT_CONTEXT.search(text) is not None
    allergy_context = _ALLERGY_CONTEXT.search(text) is not None
    eye_context = _EYE_CONTEXT.search(text) is not None
    contexts = (medicine_word, blood_context, weight_context, allergy_context, eye_context)
    found = []
    for i, (s, _) in enumerate(spans):
        relative = _memo(
            memo,
            ("mentions", clause_text[i], *contexts),
            lambda c: _mentions(c, (0, len(c)), 0, a, lexicon, *contexts),
        )
        found.extend(replace(m, clause=i, start=m.start + s, end=m.end + s) for m in relative)
    found += _heading_items(text, spans, clause_text, found, a, lexicon, contexts)
    aliases = a.spec.drug_aliases  # round 23: "MTX" and "methotrexate" are one drug
    found = [replace(m, key=aliases[m.key]) if m.key in aliases else m for m in found]
    found = _last_dose_of_event(found)
    found = _topic_analyte(found, clause_text, a)
    historic = frozenset(i for i, c in enumerate(clause_text) if _OTHER_EVENT.search(c))
    occupied = frozenset(m.clause for m in found)  # the clauses that state something
    breaks = frozenset(
        k for k in range(len(spans) - 1) if _SENTENCE_END.search(text, spans[k][1], spans[k + 1][0] + 1)
    )
    mentions = _resolve_implied(found, historic, occupied, breaks)
    mentions += _class_stops(clause_text, spans, mentions, a)
    mentions += _elliptic_denials(clause_text, spans, mentions)
    listed = _listed_active(
        mentions, sources, clause_text, spans, lambda i: dated[i] or historic_for("medication_status", i)
    )
    mentions += listed
    event_dated = frozenset(m.clause for m in mentions if m.attribute == "date" and not m.implied)
    pairs = []
    for x, m in enumerate(mentions):
        for n in mentions[x + 1 :]:
            tolerance = (
                a.spec.lab_tolerance_by_analyte.get(m.key, a.spec.lab_tolerance)
                if m.attribute == "lab_value"
                else a.spec.weight_tolerance
            )
            # round 36: a test's result against the status one source gives, in one clause ("Pre-op checklist
            # ticked 'not pregnant' — serum β-hCG this AM 1,450 IU/L")
            tested = m.clause == n.clause and bool(sources[m.clause]) and _test_against_status(m, n, text)
            if not (
                _conflicting(
                    replace(m, same_clause=True) if tested else m, n, tolerance, a.spec.lab_units.get(m.key)
                )
                or (m.attribute == "date" and _swapped_numeric(text[m.start : m.end], text[n.start : n.end]))
                or _other_member(m, n, text, a)
                or _stop_against_last_dose(m, n)
                or _since_weekday_against_today(m, n, text)
            ):
                continue
            if _ALTERNATIVES_BETWEEN.fullmatch(text, m.end, n.start) and _ASKED_AFTER.match(text, n.end):
                continue  # round 42: two values offered as a question ("not handed over (q12h vs q24h?)")
            if m.key == "last_menstrual_period" and _one_cycle_apart(m.value, n.value):  # type: ignore[arg-type]
                continue  # issue 22z round 12: the LMPs of two visits a menstrual cycle apart
            if (
                m.attribute == "date"
                and m.clause != n.clause
                and _later_event(clause_text[min(m.clause, n.clause)], clause_text[max(m.clause, n.clause)])
            ):
                continue  # a later event than the one the earlier clause dates
            if (
                m.attribute == "date"
                and m.key in _SUPPLY_DATES
                and _drugs_apart(mentions, m.clause, n.clause)
            ):
                continue  # round 71: two drugs' last supplies
            if m.attribute == "date" and any(
                _EARLIER_ONE.search(text, max(0, o.start - 20), o.start) for o in (m, n)
            ):
                continue  # round 37: an earlier one of the kind ("Previous LMP 14/02/23 documented at gyn")
            if (
                m.attribute == "date"
                and m.clause != n.clause
                and _old_beside_current(clause_text[m.clause], clause_text[n.clause])
            ):
                continue
            if (
                m.attribute == "lab_value"
                and m.clause != n.clause
                and _two_occasions(clause_text[m.clause], clause_text[n.clause])
            ):
                continue
            if (m.implied or n.implied) and not _neighbours(m.clause, n.clause, occupied, breaks):
                continue  # a dose without its drug is compared only with the next clause
            if any(o.implied and _SAID_THE_SAME.search(clause_text[o.clause]) for o in (m, n)):
                continue  # round 65: a value read off a clause whose source "said the same thing" as before
            i, j = _clause_order(m, n)
            if i == j:
                if len(sources[i]) < 2 and not tested:
                    continue  # one clause: two different sources must be named in it
            elif not (sources[i] or sources[j]) or (sources[i] and sources[i] == sources[j]):
                continue
            stop_dates = bool(_DATED_BY_ITS_CUE & {m.key, n.key}) and not (m.implied or n.implied)
            if framed_as_change(i, j, m.attribute, m.key, stop_dates) or documented_elsewhere(m, n):
                continue
            if m.attribute in a.spec.history_only and (in_force_history(i) or in_force_history(j)):
                continue  # issue 22s: a code status "during his 2022 admission" is that admission's
            if (
                m.attribute in HISTORY_SENSITIVE
                and (historic_apart(m.attribute, i, j) or dated_apart(i, j))
                and not (m.attribute == "side" and _one_operation(clause_text[i], clause_text[j]))
                and not (
                    m.attribute == "weight"
                    and _implausible_weight_change(m.value, n.value, clause_text[i], clause_text[j])
                )
            ):
                continue
            if m.attribute == "pregnancy_status" and (
                (_PREGNANCY_YEAR.search(clause_text[i]) is None)
                != (_PREGNANCY_YEAR.search(clause_text[j]) is None)
            ):
                continue  # round 26: a past year's pregnancy ("Preg status 2023 adm.: 30/40. Today: neg")
            if m.attribute == "pregnancy_status" and (
                flagged(_EARLIER_PREGNANCY, i) != flagged(_EARLIER_PREGNANCY, j)
            ):
                continue  # round 71: an earlier pregnancy named ("UPT pos 14/05/23 (prev pregnancy)")
            if m.attribute == "pregnancy_status" and (flagged(_DELIVERED, i) or flagged(_DELIVERED, j)):
                continue  # round 36: a pregnancy ended by a dated delivery ("(delivered 11/2022)")
            if m.attribute == "allergy" and _allergy_since(m, n, clause_text, mentions):
                continue
            if m.attribute == "medication_status" and m.value != n.value:
                active = m if m.value == "active" else n
                stop = n if active is m else m
                if (
                    in_force_history(active.clause)
                    and not in_force_history(stop.clause)
                    and _now_stated(clause_text, active.clause, stop.clause)
                ):
                    continue  # round 30: fills "2020-2022" against "today's list: no amiodarone"
            if m.attribute == "side" and (flagged(a.bilateral, i) or flagged(a.bilateral, j)):
                one = n.clause if m.value == "both" else m.clause if n.value == "both" else None
                if one is None or not _ONE_SIDE_ONLY.search(clause_text[one]):
                    continue  # both sides meant, unless one source says both and the other one side only
            pairs.append((m, n))
    if pairs:
        return pairs
    # issue 22y: no attribute pair -- two neighbouring clauses that each name a source (not the same
    # ones) and state a value of one type that differs, whatever it belongs to
    typed = [_memo(memo, ("typed", c), lambda c: _generic_mentions(c, a)) for c in clause_text]

    def parts(k: int) -> set[str]:
        return {a.part_group[w.lower()] for w in _WORDS.findall(clause_text[k]) if w.lower() in a.part_group}

    for i in range(len(spans) - 1):
        j = i + 1
        if not (typed[i] and typed[j] and sources[i] and sources[j]) or sources[i] == sources[j]:
            continue
        if framed_as_change(i, j):
            continue
        for m in typed[i]:
            for n in typed[j]:
                if not _generic_differ(m, n):
                    continue
                if m.attribute == "typed_date" and (
                    not _same_referent(clause_text[i], clause_text[j], a)
                    or _two_reactions(clause_text[i], clause_text[j])
                    or all(any(t.attribute == "typed_value" for t in typed[k]) for k in (i, j))
                ):
                    continue  # issue 22z: or dates beside two results, each the date of its result
                if m.attribute == "typed_value":
                    things = _named_things(clause_text[i], a), _named_things(clause_text[j], a)
                    if things[0] and things[1] and not things[0] & things[1]:
                        continue  # two analytes or drugs ("potassium 4.1 mmol/L … urea 6.2 mmol/L")
                if m.attribute == "typed_side":
                    if flagged(a.bilateral, i) or flagged(a.bilateral, j):
                        continue  # both sides meant
                    named = parts(i), parts(j)
                    if named[0] and named[1] and not named[0] & named[1]:
                        continue  # two different parts
                if m.attribute in ("typed_value", "typed_side") and (
                    flagged(a.history, i) or flagged(a.history, j) or dated_apart(i, j)
                ):
                    continue
                pairs.append(
                    (
                        replace(m, clause=i, start=spans[i][0], end=spans[i][1]),
                        replace(n, clause=j, start=spans[j][0], end=spans[j][1]),
                    )
                )
    return pairs


@functools.lru_cache(maxsize=4096)
def _default_flags(text: str, task_class: TaskClassName | None) -> tuple[int, int, int]:
    d = detect(text, task_class=task_class)
    return int(d.conflict), int(d.missing), int(d.high_risk)


def detect_flags(
    text: str, lexicon: Lexicon | None = None, task_class: object = None
) -> tuple[int, int, int]:
    """(C, M, H) as 0/1 integers (cached per text and task class for the packaged lexicon)."""
    if lexicon is None:
        return _default_flags(text, task_class_name(task_class))
    d = detect(text, lexicon, task_class=task_class)
    return int(d.conflict), int(d.missing), int(d.high_risk)


def sample_text(state: TaskState) -> str:
    """All episode text the agent could see: the sample input (user turns if it is a message
    list) and, in agent mode, the chart sections it could read through the tool."""
    if isinstance(state.input, str):
        text = state.input
    else:
        text = "\n\n".join(m.text for m in state.input if m.role == "user")
    chart = state.metadata.get("chart_sections")
    if isinstance(chart, dict):
        text = "\n\n".join([*(str(section) for section in chart.values()), text])
    return text
