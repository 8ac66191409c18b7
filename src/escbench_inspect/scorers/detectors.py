"""Workflow-state detectors C (conflict), M (missing information) and H (high-risk cues).

Transparent and auditable: every pattern lives in the reviewed lexicon data files
(``scorers/lexicon/*.yaml``: concept → terms), validated by pydantic on load and compiled with the
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
from typing import Literal

import regex
from pydantic import BaseModel, ConfigDict, Field, field_validator

from escbench_inspect.datasets.errors import DataFileError, read_yaml, validated
from escbench_inspect.datasets.render import HEADER_LINE

DetectorName = Literal["conflict", "missing", "high_risk"]
DETECTORS: tuple[DetectorName, ...] = ("conflict", "missing", "high_risk")
Origin = Literal["concept", "corpus_review", "stress_review"]
ORIGINS: tuple[Origin, ...] = ("concept", "corpus_review", "stress_review")
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
    concepts: tuple[Concept, ...] = Field(min_length=1)


class ModifierFile(_Frozen):
    """Context cues shared by all detectors (negation, resolution, hypothetical, scope ends)."""

    negation_pre: tuple[str, ...]
    negation_post: tuple[str, ...]
    pseudo_negation: tuple[str, ...]
    hypothetical_pre: tuple[str, ...]
    scope_terminators: tuple[str, ...]
    value_rule_words: tuple[str, ...]
    value_resolution: tuple[str, ...]

    @field_validator("*")
    @classmethod
    def _cues_compile(cls, cues: tuple[str, ...]) -> tuple[str, ...]:
        for cue in cues:
            try:
                regex.compile(term_pattern(cue), FLAGS)
            except (regex.error, ValueError) as error:
                raise ValueError(f"cue {cue!r} does not compile: {error}") from error
        return cues


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
                concepts.append(_compile_concept(compiled.detector, concept, terms, keep))
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
        )

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
) -> CompiledConcept:
    chosen = [_term_text(t) for t in (concept.terms if terms is None else terms)]
    context_terms = [
        _term_text(t)
        for t in concept.requires_context
        if origins is None or not isinstance(t, Term) or (t.origin or concept.origin) in origins
    ]
    context = _alternation(context_terms) if context_terms else None
    return CompiledConcept(detector, concept, _alternation(chosen), context)


def load_lexicon(directory: Path = LEXICON_DIR) -> Lexicon:
    """Load and compile ``modifiers.yaml`` and every detector file in ``directory``."""
    modifier_path = directory / "modifiers.yaml"
    if not modifier_path.exists():
        raise DataFileError(modifier_path, ["file not found"])
    modifiers = _validate(ModifierFile, modifier_path, read_yaml(modifier_path))
    assert isinstance(modifiers, ModifierFile)
    concepts: list[CompiledConcept] = []
    seen: dict[str, Path] = {}
    paths = sorted(p for p in directory.glob("*.yaml") if p.name != "modifiers.yaml")
    if not paths:
        raise DataFileError(directory, ["no lexicon files (*.yaml) found"])
    for path in paths:
        parsed = _validate(LexiconFile, path, read_yaml(path))
        assert isinstance(parsed, LexiconFile)
        for concept in parsed.concepts:
            if concept.id in seen:
                raise DataFileError(
                    path,
                    [f"field 'id': duplicate concept id (also in {seen[concept.id]})"],
                    concept.id,
                )
            seen[concept.id] = path
            concepts.append(_compile_concept(parsed.detector, concept))
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
POST_WINDOW_WORDS = 6


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
            if reason is None:
                evidence.append(Evidence(compiled.detector, compiled.concept.id, span, start, end))
            else:
                suppressed.append(
                    Suppressed(compiled.detector, compiled.concept.id, span, start, end, reason)
                )
    fired = {e.detector for e in evidence}
    evidence.sort(key=lambda e: (e.start, e.detector))
    return Detection(
        conflict="conflict" in fired,
        missing="missing" in fired,
        high_risk="high_risk" in fired,
        evidence=tuple(evidence),
        suppressed=tuple(suppressed),
    )


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
