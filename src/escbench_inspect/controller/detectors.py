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

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import regex
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

if TYPE_CHECKING:
    from inspect_ai.solver import TaskState

from escbench_inspect.datasets.errors import DataFileError, read_yaml, validated
from escbench_inspect.datasets.render import HEADER_LINE

DetectorName = Literal["conflict", "missing", "high_risk"]
DETECTORS: tuple[DetectorName, ...] = ("conflict", "missing", "high_risk")
Origin = Literal["concept", "corpus_review", "clinical_review", "stress_review"]
ORIGINS: tuple[Origin, ...] = ("concept", "corpus_review", "clinical_review", "stress_review")
LEXICON_DIR = Path(__file__).parent / "lexicon"
GAP_WORDS = 4
FLAGS = regex.IGNORECASE


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


class Threshold(_Frozen):
    """A critical-value rule: fire when the measured number is below ``low`` or above ``high``."""

    low: float | None = None
    high: float | None = None
    second_high: float | None = Field(
        default=None, description="For 'a/b' readings (blood pressure): fire when b is above this."
    )
    fahrenheit_above: float | None = Field(
        default=None, description="Numbers above this are °F and are converted to °C first."
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
                regex.compile(term_pattern(text), FLAGS)
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
            regex.compile(term_pattern(cue), FLAGS)
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

    _cues = field_validator("*")(classmethod(lambda cls, cues: _cues_compile(cues)))


class AttributeFile(_Frozen):
    """``attributes.yaml``: vocabulary of the structural conflict detector (same attribute, two values)."""

    source: str = Field(min_length=1)
    drug_names: tuple[str, ...] = Field(min_length=1)
    drug_stems: tuple[str, ...] = ()
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
    weight_tolerance: float = Field(gt=0, lt=1)

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


# ------------------------------------------------------------------------------------------------
# Term compilation
# ------------------------------------------------------------------------------------------------

_SEP = r"[\s\-\"]+"
_GAP = r"[\s,\-\"]+" + r"(?:[\w'’\"/+.%-]+[\s,\-\"]+){0," + str(GAP_WORDS) + "}?"


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


def _alternation(terms: Iterable[str]) -> regex.Pattern:
    """One pattern for many terms; word boundaries are hoisted out of the alternation (speed)."""
    terms = list(terms)
    words = [_sequence(t) for t in terms if not t.startswith("re:")]
    raw = [t[3:] for t in terms if t.startswith("re:")]
    parts = [r"(?<![\w])(?:" + "|".join(words) + r")(?![\w])"] if words else []
    parts += [f"(?:{r})" for r in raw]
    return regex.compile("|".join(parts), FLAGS)


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
    return CompiledConcept(detector, concept, _alternation(chosen), context, system_source)


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
    paths = sorted(p for p in directory.glob("*.yaml") if p.name not in ("modifiers.yaml", ATTRIBUTE_FILE))
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
    )


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
_SENTENCE_END = regex.compile(r"(?<!\d)\.(?!\d)|\.(?=\s)|[!?;]|\n\s*\n|\n(?=[ \t]*(?:[A-Z0-9\-•*\[(\"]|$))")
_NUMBER = regex.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?:\s*(?P<sep>/|-|–|to)\s*(?P<second>\d+(?:\.\d+)?))?")
# A number followed by a time or dose unit is a schedule or a dose, not a measured value.
_NOT_A_MEASUREMENT = regex.compile(
    r"\s*(?:,\d{3}\b|(?:mg|mcg|µg|g|meq|mmol|units?|tablets?|tabs?|capsules?|caps?|ml|puffs?|doses?|pills?)"
    r"\b(?!\s*/)|(?:sec|seconds?|min|mins|minutes?|h|hrs?|hours?|days?|weeks?|wks?|months?"
    r"|years?|yrs?|am|pm|times?|x)\b)",
    regex.IGNORECASE,
)
_VALUE_GAP = 60
_VALUE_LEAD_WORDS = 6
POST_WINDOW_WORDS = 8


def strip_headers_keep_offsets(text: str) -> str:
    """``render.strip_headers`` with each header blanked to spaces, so offsets stay valid."""
    return HEADER_LINE.sub(lambda m: " " * len(m.group()), text)


def _normalize(text: str) -> str:
    """Same-length normalization so evidence offsets index the caller's text."""
    return text.translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-"}))


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


def _context_reason(
    text: str, start: int, end: int, lexicon: Lexicon, hypothetical: bool = True
) -> str | None:
    """Why a match does not count (negated, hypothetical/historical, resolved), or None."""
    before, following = _clause(text, start, end, lexicon)
    before = lexicon.pseudo_negation.sub(" ", _last_words(before, 14))
    if lexicon.negation_pre.search(before):
        return "negated"
    if hypothetical and lexicon.hypothetical_pre.search(before):
        return "hypothetical"
    if lexicon.negation_post.search(_first_words(following, POST_WINDOW_WORDS)):
        return "resolved"
    return None


def _immaterial(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """An absence about an administrative field (pharmacy, phone, work note…): not a needed item."""
    if lexicon.immaterial is None:
        return False
    before, _ = _clause(text, start, end, lexicon)
    return lexicon.immaterial.search(_last_words(before, 10)) is not None


def _value_hits(
    compiled: CompiledConcept, text: str, lexicon: Lexicon
) -> Iterable[tuple[int, int, str | None]]:
    """Analyte mentions whose measured number crosses the concept's threshold."""
    rule = compiled.concept.value
    assert rule is not None
    for match in compiled.pattern.finditer(text):
        window = text[match.end() : match.end() + _VALUE_GAP]
        cut = _SENTENCE_END.search(window)
        window = window[: cut.start()] if cut else window
        number = _NUMBER.search(window)
        if not number:
            continue
        lead = window[: number.start()]
        if regex.search(r"\d", lead) or len(lead.split()) > _VALUE_LEAD_WORDS:
            continue
        end = match.end() + number.end()
        if _NOT_A_MEASUREMENT.match(text, end):
            continue
        sep, second = number.group("sep"), number.group("second")
        is_range = sep is not None and sep != "/"
        if (
            is_range
            or lexicon.value_rule.search(lead)
            or lexicon.value_rule.search(_last_words(text[max(0, match.start() - 40) : match.start()], 2))
        ):
            yield match.start(), end, "rule or range"
            continue
        value = float(number.group(1))
        if rule.fahrenheit_above is not None and value > rule.fahrenheit_above:
            value = (value - 32.0) * 5.0 / 9.0
        crosses = (rule.low is not None and value < rule.low) or (rule.high is not None and value > rule.high)
        if sep == "/" and second is not None and rule.second_high is not None:
            crosses = crosses or float(second) > rule.second_high
        if not crosses:
            yield match.start(), end, "within limits"
            continue
        tail = _first_words(text[end : end + 80], POST_WINDOW_WORDS)
        if lexicon.value_resolution.search(tail):
            yield match.start(), end, "resolved"
            continue
        yield match.start(), end, None


def _concept_hits(
    compiled: CompiledConcept, text: str, lexicon: Lexicon
) -> Iterable[tuple[int, int, str | None]]:
    if compiled.concept.value is not None:
        yield from _value_hits(compiled, text, lexicon)
        return
    for match in compiled.pattern.finditer(text, overlapped=False):
        reason = (
            _context_reason(
                text,
                match.start(),
                match.end(),
                lexicon,
                hypothetical=compiled.detector == "high_risk",
            )
            if compiled.concept.negatable
            else None
        )
        yield match.start(), match.end(), reason


def _context_present(compiled: CompiledConcept, text: str, lexicon: Lexicon) -> bool:
    assert compiled.context is not None
    return any(
        _context_reason(text, m.start(), m.end(), lexicon) is None for m in compiled.context.finditer(text)
    )


def detect(text: str, lexicon: Lexicon | None = None) -> Detection:
    """Run C, M and H on transcript text (block headers are stripped first)."""
    lexicon = lexicon or default_lexicon()
    clean = _normalize(strip_headers_keep_offsets(text))
    evidence: list[Evidence] = []
    suppressed: list[Suppressed] = []
    for compiled in lexicon.concepts:
        hits = list(_concept_hits(compiled, clean, lexicon))
        if not hits:
            continue
        if compiled.context is not None and not _context_present(compiled, clean, lexicon):
            hits = [(s, e, r or "context absent") for s, e, r in hits]
        for start, end, reason in hits:
            span = clean[start:end]
            if reason is None and compiled.detector == "missing" and _immaterial(clean, start, end, lexicon):
                reason = "immaterial item"
            if reason is None:
                evidence.append(Evidence(compiled.detector, compiled.concept.id, span, start, end))
            else:
                suppressed.append(
                    Suppressed(compiled.detector, compiled.concept.id, span, start, end, reason)
                )
    for first, second in attribute_conflicts(clean, lexicon):
        for mention in (first, second):
            concept = f"attribute_{mention.attribute}"
            span = clean[mention.start : mention.end]
            evidence.append(Evidence("conflict", concept, span, mention.start, mention.end))
    fired = {e.detector for e in evidence}
    evidence.sort(key=lambda e: (e.start, e.detector))
    return Detection(
        conflict="conflict" in fired,
        missing="missing" in fired,
        high_risk="high_risk" in fired,
        evidence=tuple(evidence),
        suppressed=tuple(suppressed),
    )


# ------------------------------------------------------------------------------------------------
# Structural conflict: the same attribute stated with two different values by two sources
# ------------------------------------------------------------------------------------------------

ATTRIBUTE_FILE = "attributes.yaml"
ATTRIBUTE_ORIGIN: Origin = "clinical_review"
IMMATERIAL_ORIGIN: Origin = "corpus_review"  # added after reviewing the minimal-pair corpus
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
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DATE = regex.compile(
    r"(?P<iso>\b\d{4}-\d{2}-\d{2}\b)|(?P<num>\b\d{1,2}/\d{1,2}/\d{2,4}\b)"
    rf"|\b(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{_MONTH})(?:\s+(?P<y1>\d{{4}}))?\b"
    rf"|\b(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<y2>\d{{4}}))?\b",
    FLAGS,
)
_UNITS_MG = {"mg": 1.0, "g": 1000.0, "mcg": 0.001, "microgram": 0.001, "micrograms": 0.001, "µg": 0.001}
_DOSE_TAIL = regex.compile(
    r"(?:[\s-]+[a-z]+){0,2}?[\s-]+(?P<amt>\d+(?:\.\d+)?)\s*"
    r"(?P<unit>mg|mcg|micrograms?|µg|g|units?|iu|ml|mmol|meq)\b(?!\s*/\s*(?:kg|m2|h|hr|min|day))",
    FLAGS,
)
_FREQUENCIES: tuple[tuple[str, str], ...] = (
    (r"(?:once\s+)?weekly|once\s+a\s+week|every\s+week", "weekly"),
    (r"twice\s+(?:daily|a\s+day)|b\.?i\.?d\b|bd\b", "bid"),
    (r"three\s+times\s+(?:daily|a\s+day)|t\.?i\.?d\b|tds\b", "tid"),
    (r"four\s+times\s+(?:daily|a\s+day)|q\.?i\.?d\b|qds\b", "qid"),
    (r"every\s+(?P<h>\d+)\s+hours?|q(?P<h2>\d+)h\b", "q{h}h"),
    (
        r"once\s+(?:daily|a\s+day)|daily|every\s+(?:day|morning|night|evening)|each\s+(?:day|morning)"
        r"|at\s+night|nightly|in\s+the\s+(?:morning|evening)",
        "daily",
    ),
)
_FREQUENCY = regex.compile("|".join(f"(?P<f{i}>{p})" for i, (p, _) in enumerate(_FREQUENCIES)), FLAGS)
_WEIGHT = regex.compile(
    r"\b(?:weigh\w*|weight|wt|scale)\b[^.;\n\d]{0,40}?(?P<amt>\d+(?:\.\d+)?)\s*"
    r"(?P<unit>kg|kgs|kilograms?|kilos?|lb|lbs|pounds?)\b(?!\s*/)",
    FLAGS,
)
_CLAUSE_SPLIT = regex.compile(r",\s+(?:and|while|whereas|but)\s+|\s+(?:but|whereas|while)\s+", FLAGS)
_STATUS_WINDOW_WORDS = 3
_ALLERGY_AFTER = regex.compile(r"\s+allerg(?:y|ies)\b", FLAGS)
HISTORY_SENSITIVE = frozenset({"dose", "side", "weight"})


@dataclass(frozen=True)
class Mention:
    """One attribute value stated in one clause."""

    attribute: str  # dose | side | date | allergy | medication_status | weight
    key: str  # what the value belongs to (drug, body part, event, "weight", allergen class)
    value: object
    clause: int
    start: int
    end: int


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


def _optional(terms: tuple[str, ...]) -> regex.Pattern | None:
    return _alternation(terms) if terms else None


def compile_attributes(spec: AttributeFile) -> CompiledAttributes:
    stems = "|".join(regex.escape(s) for s in spec.drug_stems)
    names = _alternation(spec.drug_names).pattern
    stemmed = rf"|(?<![\w-])[a-z]{{2,}}(?:{stems})(?![\w-])" if stems else ""
    drug = regex.compile(f"(?P<drug>{names}{stemmed})", FLAGS)
    part_group = {word.lower(): group for group, words in spec.body_parts.items() for word in words}
    parts = "|".join(regex.escape(w) for w in sorted(part_group, key=len, reverse=True))
    side = regex.compile(
        rf"\b(?P<side>left|right)(?:[\s-]+sided)?(?:[\s-]+[a-z]+){{0,2}}?[\s-]+(?P<part>{parts})\b", FLAGS
    )
    allergen_class = {word.lower(): group for group, words in spec.allergen_classes.items() for word in words}
    allergen_words = sorted(allergen_class, key=len, reverse=True)
    allergen = regex.compile(
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
    )


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


def _negated_before(text: str, clause_start: int, position: int, lexicon: Lexicon) -> bool:
    before = lexicon.pseudo_negation.sub(" ", _last_words(text[clause_start:position], 6))
    return bool(lexicon.negation_pre.search(before))


def _date_value(match: regex.Match) -> tuple:
    if match.group("iso"):
        year, month, day = (int(p) for p in match.group("iso").split("-"))
        return (month, day, year)
    if match.group("num"):
        return (match.group("num"),)
    day = match.group("d1") or match.group("d2")
    month = _MONTHS[(match.group("m1") or match.group("m2")).lower().rstrip(".")]
    year = match.group("y1") or match.group("y2")
    return (month, int(day), int(year) if year else None)


def _dates_differ(a: tuple, b: tuple) -> bool:
    if len(a) == 1 or len(b) == 1:
        return a != b
    if (a[0], a[1]) != (b[0], b[1]):
        return True
    return a[2] is not None and b[2] is not None and a[2] != b[2]


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


def _mentions(text: str, span: tuple[int, int], index: int, a: CompiledAttributes, lexicon: Lexicon):
    start, end = span
    clause = text[start:end]
    out: list[Mention] = []

    def add(attribute: str, key: str, value: object, s: int, e: int) -> None:
        out.append(Mention(attribute, key, value, index, start + s, start + e))

    for drug in a.drug.finditer(clause):
        tail = _DOSE_TAIL.match(clause, drug.end())
        if not tail:
            continue
        unit = tail.group("unit").lower().rstrip("s") if tail.group("unit").lower() != "mcg" else "mcg"
        amount = float(tail.group("amt"))
        if unit in _UNITS_MG:
            amount, unit = amount * _UNITS_MG[unit], "mg"
        frequency = _frequency(clause[tail.end() : tail.end() + 40])
        value = (round(amount, 6), unit, frequency)
        add("dose", _drug_key(drug.group("drug")), value, drug.start(), tail.end())
    for w in _WEIGHT.finditer(clause):
        pounds = w.group("unit").lower().startswith(("lb", "pound"))
        kg = float(w.group("amt")) * (0.45359237 if pounds else 1.0)
        add("weight", "weight", kg, w.start(), w.end())
    for s in a.side.finditer(clause):
        add("side", a.part_group[s.group("part").lower()], s.group("side").lower(), s.start(), s.end())
    for name, pattern in a.date_attributes:
        for attr in pattern.finditer(clause):
            date = _DATE.search(clause, attr.end(), min(len(clause), attr.end() + 40))
            if date:
                key = name + "".join(c for c in attr.group() if c.isdigit())
                add("date", key, _date_value(date), attr.start(), date.end())
    absent = [m.span() for m in a.allergy_absent.finditer(clause)]
    named = list(a.allergen.finditer(clause))
    for s, e in absent:
        add("allergy", "*", False, s, e)
    for m in a.allergy_present.finditer(clause):
        if any(s <= m.start() < e for s, e in absent) or _negated_before(clause, 0, m.start(), lexicon):
            continue
        after = next((n for n in named if m.end() <= n.start() <= m.end() + 40), None)
        add("allergy", _allergen_key(after, a) if after else "*", True, m.start(), (after or m).end())
    for n in named:
        if _ALLERGY_AFTER.match(clause, n.end()) and not _negated_before(clause, 0, n.start(), lexicon):
            add("allergy", _allergen_key(n, a), True, n.start(), n.end())
    if a.tolerated is not None:
        for m in a.tolerated.finditer(clause):
            for allergen in {_allergen_key(n, a) for n in named}:
                add("allergy", allergen, False, m.start(), m.end())
    out.extend(_status_mentions(clause, start, index, a, lexicon))
    return out


def _status_mentions(clause: str, offset: int, index: int, a: CompiledAttributes, lexicon: Lexicon):
    """Drug stopped vs active: 'X was stopped' / 'stopped (taking) X'; a stop outranks an activity."""
    drugs = list(a.drug.finditer(clause))
    found: dict[str, tuple[str, int, int]] = {}
    for status, pattern in (("stopped", a.stopped), ("active", a.active)):
        for cue in pattern.finditer(clause):
            if status == "active" and _negated_before(clause, 0, cue.start(), lexicon):
                continue
            target = None
            after = [d for d in drugs if d.start() >= cue.end()]
            if after and len(clause[cue.end() : after[0].start()].split()) <= _STATUS_WINDOW_WORDS - 1:
                target = after[0]
            before = [d for d in drugs if d.end() <= cue.start()]
            if before:
                gap = clause[before[-1].end() : cue.start()]
                passive = regex.search(r"\b(?:was|were|is|are|been|being|as)\s*$", gap, FLAGS)
                if passive and len(gap.split()) <= 6:
                    target = before[-1]
            if target is None:
                continue
            key = _drug_key(target.group("drug"))
            if key in found and found[key][0] == "stopped":
                continue
            found[key] = (status, min(cue.start(), target.start()), max(cue.end(), target.end()))
    return [
        Mention("medication_status", key, status, index, offset + s, offset + e)
        for key, (status, s, e) in found.items()
    ]


def _conflicting(m: Mention, n: Mention, tolerance: float) -> bool:
    if m.attribute != n.attribute or m.clause == n.clause:
        return False
    if m.attribute == "allergy":
        return m.value != n.value and (m.key == n.key or "*" in (m.key, n.key))
    if m.key != n.key:
        return False
    if m.attribute == "dose":
        (amount_m, unit_m, freq_m), (amount_n, unit_n, freq_n) = m.value, n.value  # type: ignore[misc]
        if unit_m != unit_n:
            return False
        return amount_m != amount_n or (freq_m is not None and freq_n is not None and freq_m != freq_n)
    if m.attribute == "weight":
        return abs(m.value - n.value) > tolerance * max(m.value, n.value)  # type: ignore[operator]
    if m.attribute == "date":
        return _dates_differ(m.value, n.value)  # type: ignore[arg-type]
    return m.value != n.value


def attribute_conflicts(text: str, lexicon: Lexicon) -> list[tuple[Mention, Mention]]:
    """Pairs of mentions in which two sources state the same attribute with different values.

    A pair counts when its two clauses differ, at least one clause names a source (and, when both
    do, not the same ones), and neither clause frames the difference as a documented change, as
    history (dose, side and weight only: a date, an allergy or a stop is history by nature) or as
    both sides.
    """
    a = lexicon.attributes
    if a is None:
        return []
    spans = _clauses(text)
    clause_text = [text[s:e] for s, e in spans]
    sources = [frozenset(m.group().lower() for m in a.source.finditer(c)) for c in clause_text]
    dated = [_DATE.search(c) is not None for c in clause_text]

    def flagged(pattern: regex.Pattern | None, i: int) -> bool:
        return pattern is not None and pattern.search(clause_text[i]) is not None

    mentions = [m for i, span in enumerate(spans) for m in _mentions(text, span, i, a, lexicon)]
    pairs = []
    for x, m in enumerate(mentions):
        for n in mentions[x + 1 :]:
            if not _conflicting(m, n, a.spec.weight_tolerance):
                continue
            i, j = m.clause, n.clause
            if not (sources[i] or sources[j]) or (sources[i] and sources[i] == sources[j]):
                continue
            if flagged(a.change, i) or flagged(a.change, j):
                continue
            if m.attribute in HISTORY_SENSITIVE and (
                flagged(a.history, i) or flagged(a.history, j) or dated[i] or dated[j]
            ):
                continue
            if m.attribute == "side" and (flagged(a.bilateral, i) or flagged(a.bilateral, j)):
                continue
            pairs.append((m, n))
    return pairs


@functools.lru_cache(maxsize=4096)
def _default_flags(text: str) -> tuple[int, int, int]:
    d = detect(text)
    return int(d.conflict), int(d.missing), int(d.high_risk)


def detect_flags(text: str, lexicon: Lexicon | None = None) -> tuple[int, int, int]:
    """(C, M, H) as 0/1 integers (cached per text for the packaged lexicon)."""
    if lexicon is None:
        return _default_flags(text)
    d = detect(text, lexicon)
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
