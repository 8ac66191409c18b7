"""Issue 22z round 26 (all three detectors): the mechanisms blind halves 34 and 35's misses and false
positives showed, read on this project's own wording (``detector_heldout_dev24.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module pattern replaced by one that never matches or by the
one before it, or one lexicon entry made to match nothing in a copy of the lexicon -- and its item must
flip."""

from __future__ import annotations

import pytest
import regex
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
)

from escbench_inspect.controller import detectors, heldout

pytestmark = pytest.mark.usefixtures("before_round30", "before_round31", "before_round39")
DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV24_FILE).items}
# the patterns as they were before round 26
SEGMENT_BREAK_ROUND_25 = regex.compile(r",\s|\s[-–—]\s|:\s")
SELF_NEGATED_ROUND_25 = regex.compile(
    r"\b(?:none|nothing|no|not)\s+(?:\w+\s+)?(?:missing|blank|absent|outstanding)$", detectors.FLAGS
)
ABO_ALONE_ROUND_25 = regex.compile(
    detectors._ABO_ALONE.pattern.split(r"|(?i:\bgroup)\b[^.;,\n]{1,60}?", 1)[0], detectors._ABO_ALONE.flags
)


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_the_round_25_patterns_rebuilt_here_differ_from_round_26() -> None:
    """The "before" patterns above are what round 26 changed, not copies of the current ones."""
    assert ABO_ALONE_ROUND_25.pattern != detectors._ABO_ALONE.pattern
    assert SEGMENT_BREAK_ROUND_25.pattern != detectors._SEGMENT_BREAK.pattern
    assert SELF_NEGATED_ROUND_25.pattern != detectors._SELF_NEGATED.pattern


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh26_non_prefix_n1", "_NON_PREFIX", NEVER),
    ("dh26_sentence_opens_past_n1", "_SENTENCE_OPENS_IN_PAST", NEVER),
    ("dh26_past_anchor_well_now_n1", "_WELL_NOW", NEVER),
    ("dh26_past_year_well_now_n1", "_PAST_ANCHOR", NEVER),
    ("dh26_threshold_n1", "_NAMES_A_THRESHOLD", NEVER),
    ("dh26_above_threshold", "_COMPARATIVE", NEVER),
    ("dm26_nothing_pending_n1", "_SELF_NEGATED", SELF_NEGATED_ROUND_25),
    ("dm26_no_obs_outstanding_n1", "_NONE_OUTSTANDING_AFTER", NEVER),
    ("dm26_bracket_segment", "_SEGMENT_BREAK", SEGMENT_BREAK_ROUND_25),
    ("dm26_and_her_segment", "_SEGMENT_BREAK", SEGMENT_BREAK_ROUND_25),
    ("dc26_group_clause_final", "_ABO_ALONE", ABO_ALONE_ROUND_25),
    ("dc26_shorter_form", "_SHARED_STEM", 10**6),
    ("dc26_past_year_pregnancy_n1", "_PREGNANCY_YEAR", NEVER),
]


test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)


class WholeEntry(str):
    """A replacement for the whole regular expression whose opening is given (its term before round 26)."""


# (the item, the lexicon file, the start of its entry -- a whole quoted term, or the opening of a regular
# expression -- and what replaces it: None makes the entry match nothing ("zzq" matches no text here))
LEXICON_ENTRIES: list[tuple[str, str, str, str | None]] = [
    # high risk, context
    ("dh26_relative_subject_n1", "modifiers.yaml", r'"re:\\b(?:his|her|their|whose)\\s+(?:late', None),
    (
        "dh26_now_and_then_n1",
        "modifiers.yaml",
        r'"re:\\bnow\\b(?!\\s*(?:and|&|\\+|n' + "'?)",
        WholeEntry('"now"'),
    ),
    ("dh26_now_and_then_n1", "modifiers.yaml", r'"re:\\bthen\\b(?<!\\bnow', WholeEntry('"then"')),
    ("dh26_now_and_then_n1", "modifiers.yaml", r'"re:\\bfor\\s+(?:many\\s+)?(?:years', None),
    ("dh26_now_and_then_n1", "high_risk.yaml", r'"re:\\bstreak\\w*\\s+', WholeEntry('"streak* .. red"')),
    ("dh26_unchanged_exertion_n1", "modifiers.yaml", r'"re:^[\\s,]*(?:on\\s+(?:exertion', None),
    ("dh26_normal_is_range", "modifiers.yaml", r'"re:\\bnormal\\b(?<!\\b(?:like', WholeEntry('"normal"')),
    ("dh26_like_normal", "modifiers.yaml", r'"re:\\bnormal\\b(?<!\\b(?:like', WholeEntry('"normal"')),
    # high risk, findings
    (
        "dh26_guarding",
        "high_risk.yaml",
        r'"re:\\b(?:abdominal|abdo|belly|tummy|epigastric|rif|ruq|luq|lif|suprapubic|periumbilical)\\s+pain\\b',
        None,
    ),
    ("dh26_band_like", "high_risk.yaml", r'"re:\\bband[\\s-]*like', None),
    (
        "dh26_progressively_weaker",
        "high_risk.yaml",
        r'"re:\\bprogressive(?:ly)?\\s+(?:weaker|weakness|weak)\\b(?<=',
        None,
    ),
    ("dh26_fall_vomiting", "high_risk.yaml", r'"re:\\bvomit(?:ed|ing|s)?\\s*(?:x', None),
    ("dh26_fall_gcs", "high_risk.yaml", r'"re:\\bgcs\\s*(?:of\\s+|is', None),
    (
        "dh26_vomiting_no_fall_n1",
        "high_risk.yaml",
        'requires_context: ["fall", "fell",',
        'requires_context: ["re:", "fall",',
    ),
    # (round 28 let a time stand between "found" and "with")
    ("dh26_found_with_tablets", "high_risk.yaml", r'"re:\\bfound\\s+(?:[~\\w]+\\s+){0,3}?with\\b', None),
    ("dh26_tablets_unaccounted", "high_risk.yaml", r'"re:\\bunaccounted\\s+for', None),
    ("dh26_finish_it_properly", "high_risk.yaml", r'"re:\\bfinish\\s+', None),
    ("dh26_curtain_coming_down", "high_risk.yaml", r'"re:\\bcurtain\\s+(?:(?:has|had|is|was)', None),
    ("dh26_sight_went", "high_risk.yaml", r'"re:\\b(?:sight|vision)\\s+(?:in|of|out', None),
    # missing
    ("dm26_not_assessed", "missing.yaml", r'"re:\\bnot\\s+(?:yet\\s+)?assessed', None),
    ("dm26_still_not_confirmed", "missing.yaml", r'"re:\\bstill\\s+not\\s+(?:confirmed', None),
    ("dm26_not_on_chart", "missing.yaml", r'"re:\\bnot\\s+on\\s+(?:chart', None),
    ("dm26_no_cpr_decision", "missing.yaml", r'"re:\\bno\\s+(?:cpr|resus', None),
    ("dm26_didnt_travel", "missing.yaml", r'"re:\\btravel(?:led)?\\s+with', None),
    ("dm26_havent_heard", "missing.yaml", r'"re:\\bheard\\s+(?:the', None),
    ("dm26_nobody_knows", "missing.yaml", r'"re:\\bnone\\s+of\\s+(?:us|them)\\s+(?:knows?', None),
    # conflict
    (
        "dc26_allergy_box_nil",
        "attributes.yaml",
        r'"re:\\ballerg(?:y|ies)\\s+(?:box|field|status|section|list|record)\\s+(?:says',
        None,
    ),
    ("dc26_printout", "attributes.yaml", '"printout/printouts", "print out", "print-out"', '"zzq"'),
    ("dc26_still_injecting", "attributes.yaml", '"still (injecting|using|inhaling|applying)"', None),
    (
        "dc26_own_dose_taken",
        "attributes.yaml",
        r'"re:\\b(?:has|have|had)\\s+(?:been\\s+)?taken\\s+(?:her',
        None,
    ),
    ("dc26_last_saw_normal", "attributes.yaml", r'"re:\\blast\\s+saw\\s+', None),
    (
        "dc26_dont_want_resus",
        "attributes.yaml",
        r"|never)\\s+(?:want|wants|wish|wishes)",
        r"|never)\\s+(?:zzq)",
    ),
    (
        "dc26_status_as_negative",
        "attributes.yaml",
        r"(?:is\\s+|was\\s+|as\\s+)?neg",
        r"(?:is\\s+|was\\s+)?neg",
    ),
    ("dc26_shows_pregnant", "attributes.yaml", "|has|have|show|say|read|list|record)", "|has|have)"),
    ("dc26_nobody_mixed_n1", "conflict.yaml", r'"re:\\bmixed\\s+', WholeEntry('"mixed .. up"')),
    ("dc26_band_fixed_n1", "attributes.yaml", "|entry|band|wristband|armband|chart|notes|form))", "|entry))"),
    ("dc26_everything_says_n1", "attributes.yaml", r'"re:\\b(?:everything|all\\s+(?:of', None),
    (
        "dc26_labelling_error_n1",
        "attributes.yaml",
        r"\\s+(?:a|an|their|our|his|her|my)\\s+(?:[\\w-]+\\s+)?(?:mistake",
        r"\\s+(?:a|an|their|our|his|her|my)\\s+(?:mistake",
    ),
    ("dc26_result_amended_n1", "attributes.yaml", r'"re:\\b(?:result|report|entry|record)\\s+(?:was', None),
    (
        "dc26_hyphenated_age",
        "attributes.yaml",
        r"(?:years?|yrs?|months?|mos?|weeks?|wks?|days?)[\\s-])",
        r"(?:years?|yrs?|months?|mos?|weeks?|wks?|days?)\\s)",
    ),
]


def _replacement(old: str, new: str | None) -> str:
    """None: the entry made to match nothing (a regular expression opening with "zzq", or the term "zzq")."""
    if new is None:
        return old.replace('"re:', '"re:zzq', 1) if old.startswith('"re:') else '"zzq"'
    return new


def _whole_entry(file: str, opening: str) -> str:
    """The whole quoted entry that opens with ``opening`` (to the end of its line, no trailing comma)."""
    text = (detectors.LEXICON_DIR / file).read_text(encoding="utf-8")
    start = text.index(opening)
    return text[start : text.index("\n", start)].rstrip().rstrip(",")


ROWS = [
    (i, file, _whole_entry(file, old), new)
    if isinstance(new, WholeEntry)
    else (i, file, old, _replacement(old, new))
    for i, file, old, new in LEXICON_ENTRIES
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, ROWS)


def test_a_device_inserted_is_a_dated_event_without_the_shared_stem(
    lexicon_without, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "inserted" / "insertion" share a stem, so the shared-stem reading alone also carries the item: with it
    taken out, the "inserted" / "insertion" entry still does, and taking that out too flips it."""
    monkeypatch.setattr(detectors, "_SHARED_STEM", 10**6)
    assert fires("dc26_inserted")
    assert not fires("dc26_inserted", lexicon_without("attributes.yaml", '"inserted", "insertion"', '"zzq"'))
