"""Optional assertion layer from medspaCy's ConText (``pip install escbench[nlp]``), evaluated in issue 22.

``context_reasons(text, spans)`` reads each lexicon target span with medspaCy's own sentence splitter
(PyRuSH) and its default ConText rules (negated, historical, hypothetical, family, possible) in a blank
English spaCy pipeline — no model download. It returns, per span, why the span does not count, or None.
"possible" (uncertain) does not discard a red flag: a possible emergency still needs escalation.

The hand-written NegEx-style handling in ``detectors`` stays the default: on the development half
ConText did not beat it (numbers in docs/controller.md), and medspaCy pins spaCy < 3.8 on Python < 3.12,
whose thinc build needs numpy < 2 — which conflicts with pandas >= 3 in this project's environment.
medspaCy is imported lazily, only when ``detect(..., assertion="context")`` is asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

REASONS = (
    ("is_negated", "negated"),
    ("is_family", "family"),
    ("is_historical", "historical"),
    ("is_hypothetical", "hypothetical"),
)


class AssertionUnavailable(RuntimeError):
    """medspaCy is not installed (it is the optional ``nlp`` extra)."""


@functools.cache
def _pipeline():  # noqa: ANN202 - spaCy types only exist when the extra is installed
    try:
        import medspacy
        from loguru import logger
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise AssertionUnavailable(
            "assertion='context' needs medspaCy: pip install 'escbench[nlp]' (see docs/controller.md)"
        ) from error
    logger.disable("PyRuSH")  # PyRuSH logs every sentence at DEBUG level
    nlp = medspacy.load()  # blank English + PyRuSH sentences + target matcher + ConText (default rules)
    for name in ("medspacy_target_matcher", "medspacy_context"):
        if name in nlp.pipe_names:
            nlp.remove_pipe(name)
    nlp.add_pipe("medspacy_context", config={"input_span_type": "group", "span_group_name": "targets"})
    return nlp


def context_reasons(text: str, spans: Sequence[tuple[int, int]]) -> list[str | None]:
    """Per (start, end) character span: "negated", "family", "historical", "hypothetical" or None."""
    if not spans:
        return []
    nlp = _pipeline()
    doc = nlp.make_doc(text)
    targets = []
    for start, end in spans:
        span = doc.char_span(start, end, label="TARGET", alignment_mode="expand")
        targets.append(span)
    doc.spans["targets"] = [s for s in targets if s is not None]
    for _, component in nlp.pipeline:
        doc = component(doc)
    by_offsets = {(s.start_char, s.end_char): s for s in doc.spans["targets"]}
    out: list[str | None] = []
    for target in targets:
        if target is None:
            out.append(None)
            continue
        span = by_offsets.get((target.start_char, target.end_char), target)
        out.append(next((reason for attr, reason in REASONS if getattr(span._, attr, False)), None))
    return out
