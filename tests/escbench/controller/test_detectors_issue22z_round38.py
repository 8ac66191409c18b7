"""Issue 22z round 38 (all three detectors): the mechanisms blind half 47's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev36.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 38 or by a pattern that
never matches, or one lexicon entry made to match nothing (or as it was) in a copy of the lexicon -- and its
item must flip."""

from __future__ import annotations

import pytest
from mechanism_helpers import (
    NEVER,
    all_detector_dev_tests,
    dev_fires,
    lexicon_entry_test,
    module_mechanism_test,
    pattern_before,
)

from escbench_inspect.controller import detectors, heldout
from escbench_inspect.controller.detectors import LEXICON_DIR, load_lexicon

pytestmark = pytest.mark.usefixtures("before_round53_rate")

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV36_FILE).items}


# the patterns as they were before round 38
UNCHANGED_AFTER_ROUND_37 = pattern_before(
    detectors._UNCHANGED_AFTER,
    r"|(?:(?:her|his|their)\s+)?(?:(?:usual|normal|known|chronic|stable|long-?standing)\s+)*baseline\b"
    r"|(?:her|his|their)\s+usual\b(?!\s+(?:self|place|doctor|gp|dose|time)\b)",
)
PAST_ANCHOR_ROUND_37 = pattern_before(detectors._PAST_ANCHOR, r"|\badmitted\s+(?:\w+\s+){0,2}?(?:with|for)\b")
WELL_NOW_ROUND_37 = pattern_before(
    detectors._WELL_NOW,
    r"|\bnow\s+(?:apyrexial|afebrile)\s+(?:for\s+)?(?:>\s*|over\s+)?\d+\s*(?:h|hrs?|hours|days?)\b",
)
COUNT_BEFORE_ROUND_37 = pattern_before(
    detectors._COUNT_BEFORE,
    r"(?P<of>of\s+(?:(?:the|her|his|my|their)\s+)?(?:[a-z][a-z-]{3,}\s+)?)",
    r"(?P<of>of\s+(?:the\s+)?)",
)
ANY_SIDE_ROUND_37 = pattern_before(detectors._ANY_SIDE, r"|\#\s?[A-Za-z]")
CLAUSE_SPLIT_ROUND_37 = pattern_before(
    detectors._CLAUSE_SPLIT, r"|\s+and\s+(?=(?:a|an)\s+(?:separate|second|different|conflicting)\s)"
)
RECENT_ROUND_37 = pattern_before(detectors._RECENT, r"|(?:[1-9]|1[0-4])\s*(?:d|dys?)\s+ago")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_a_gap_word_may_be_a_bracketed_gloss(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 38: a phrase's gap reads over a bracketed gloss ("green (bile coloured) vomit"), a whole bracket
    only: a closing bracket does not join a phrase to what follows the bracket."""
    assert fires("dh38_bracket_gloss")
    assert not detectors.detect("wt 14 kg on the triage scale (not estimated), paracetamol given").missing
    monkeypatch.setattr(
        detectors, "_GAP", detectors._GAP.replace(r"\([\w'’/+.%-]+(?:\s[\w'’/+.%-]+){0,2}\)|", "")
    )
    assert not fires("dh38_bracket_gloss", load_lexicon(LEXICON_DIR))


def test_the_writers_own_screening_question_needs_the_writer_as_its_object() -> None:
    """Round 38: "should I get her seen" asks about the relative, who is the patient; only a question about
    the writer's own check makes the relative's findings family history."""
    assert detectors.detect(
        "my mum has sudden loss of vision in her right eye, should I get her seen today?"
    ).high_risk
    assert not detectors.detect(
        "my mum lost the sight in one eye from glaucoma, should I get my eyes tested?"
    ).high_risk


def test_a_haemolysed_sample_explains_only_when_it_is_stated() -> None:
    """Round 38: a sample said not to be haemolysed, or queried as haemolysed, explains nothing."""
    pair = "Lab K 6.8 mmol/L on the 06:00 sample; ward gas K 4.1 mmol/L at the same time."
    assert detectors.detect(f"{pair} Sample not reported as haemolysed.").conflict
    assert detectors.detect(f'{pair} Lab comment "haemolysed?".').conflict
    assert not detectors.detect(f"{pair} Lab sample haemolysed, repeat 4.2.").conflict


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dh38_self_check_n1", "_SELF_CHECK_QUESTION", NEVER),
    ("dh38_self_check_n1", "_WRITERS_RELATIVE", NEVER),
    ("dh38_which_baseline_n1", "_UNCHANGED_AFTER", UNCHANGED_AFTER_ROUND_37),
    ("dh38_mrc_grade_n1", "_SCALE_AFTER", NEVER),
    ("dh38_mrc_grade_n1", "_SCALE_BEFORE", NEVER),
    ("dh38_admitted_afebrile_n1", "_PAST_ANCHOR", PAST_ANCHOR_ROUND_37),
    ("dh38_admitted_afebrile_n1", "_WELL_NOW", WELL_NOW_ROUND_37),
    ("dc38_two_of_the_drug", "_COUNT_BEFORE", COUNT_BEFORE_ROUND_37),
    ("dc38_fracture_side", "_ANY_SIDE", ANY_SIDE_ROUND_37),
    ("dc38_tolerated", "_TOLERATED_AFTER", NEVER),
    ("dc38_and_not_that_one", "_NOT_THIS_ONE", NEVER),
    ("dc38_separate_record", "_CLAUSE_SPLIT", CLAUSE_SPLIT_ROUND_37),
    ("dc38_days_shorthand_weight", "_RECENT", RECENT_ROUND_37),
    ("dc38_same_test_after", "_RELATIVE_OPENING", NEVER),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dh38_headache_eases_flat_n1",
        "high_risk.yaml",
        r"(?!(?:better|eases?|eased|easing|relieved|relief|resolved|resolves|improved?|improves|settled?|settles"
        r"|helped|helps|goes|went|gone)\\b)",
        "",
    ),
    (
        "dh38_screen_colon_n1",
        "modifiers.yaml",
        r'"re:^(?:\\s|-)*screen\\s*[:=]',
        r'"re:^(?:\\s|-)*zzq\\s*[:=]',
    ),
    (
        "dh38_sent_for_query_n1",
        "modifiers.yaml",
        r"(?:sent|referred|requested|ordered|booked|done|performed)\\s+(?:\\w+\\s+)?for\\s+(?:query",
        r"(?:zzq)\\s+(?:\\w+\\s+)?for\\s+(?:query",
    ),
    (
        "dh38_belly_really_bad",
        "high_risk.yaml",
        r"(?:really|very|so|extremely|terribly|awfully)\\s+(?:badly|bad)",
        r"(?:zzq)",
    ),
    ("dh38_distended_belly", "high_risk.yaml", '"distended/swollen (abdomen|belly|tummy|stomach)"', '"zzq"'),
    ("dm38_left_empty", "missing.yaml", r"left\\s+(?:empty|unfilled|unanswered)", r"zzq"),
    (
        "dm38_not_reached",
        "missing.yaml",
        r'"re:\\bnot\\s+(?:yet\\s+)?(?:reached',
        r'"re:\\bzzq\\s+(?:yet\\s+)?(?:reached',
    ),
    ("dm38_never_arrived", "missing.yaml", r"\\bnever\\s+(?:arrived|came", r"\\bzzq\\s+(?:arrived|came"),
    ("dm38_never_got_round", "missing.yaml", r"never\\s+got\\s+(?:round", r"zzq\\s+got\\s+(?:round"),
    ("dm38_none_available", "missing.yaml", r"{1,5}?(?:available|to\\s+hand)", r"{1,5}?(?:zzq)"),
    (
        "dm38_no_plan_on_epr",
        "missing.yaml",
        r"(?:epr|ehr|emr|electronic\\s+record|system",
        r"(?:ehr|emr|electronic\\s+record|system",
    ),
    (
        "dc38_kidney_ureter_side",
        "attributes.yaml",
        "renal, nephrostomy, ureter, ureteric,",
        "renal, nephrostomy]\n  ureter: [ureter, ureteric,",
    ),
    (
        "dc38_discharge_meds_source",
        "attributes.yaml",
        r'"re:\\bdischarge\\s+(?:medications?|meds|medicines|drugs)\\b", ',
        "",
    ),
    ("dc38_running_at", "attributes.yaml", r'"re:\\b(?:running|infusing)\\s+at\\s+\\d",', ""),
    (
        "dc38_cant_be_pregnant",
        "attributes.yaml",
        r"(?:can'?t|cant|cannot|couldn'?t|could\\s+not)\\s+(?:possibly\\s+)?be\\s+pregnant",
        r"zzq\\s+pregnant",
    ),
    (
        "dc38_home_tests_then_result",
        "attributes.yaml",
        r'"re:\\bhome\\s+(?:preg(?:nancy)?\\s+)?tests?\\b[^.;]{0,40}?',
        r'"re:\\bzzq\\s+(?:preg(?:nancy)?\\s+)?tests?\\b[^.;]{0,40}?',
    ),
    ("dc38_chem_source", "attributes.yaml", '"chem/chems", ', ""),
    (
        "dc38_and_not_that_one",
        "attributes.yaml",
        "peanut: [peanut, peanuts, groundnut, groundnuts]",
        "peanut: [zzq]",
    ),
    ("dc38_partial_d_n1", "attributes.yaml", r'"re:\\bpartial\\s+d\\b(?<!', r'"re:\\bzzq\\b(?<!'),
    (
        "dc38_haemolysed_n1",
        "attributes.yaml",
        r"(?:haemoly[sz]ed|hemoly[sz]ed|haemolysis|hemolysis)\\b(?<!",
        r"(?:zzq)\\b(?<!",
    ),
    (
        "dc38_flag_from_birth_n1",
        "attributes.yaml",
        r"\\bwhen\\s+(?:i|she|we)\\s+(?:had|delivered",
        r"\\bzzq\\s+(?:i|she|we)\\s+(?:had|delivered",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
