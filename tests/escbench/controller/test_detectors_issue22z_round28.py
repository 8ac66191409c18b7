"""Issue 22z round 28 (all three detectors): the mechanisms blind half 37's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev26.yaml``). Every item is read as labelled;
then each mechanism is taken out -- a module name replaced by what it was before round 28 or by a pattern that
never matches, or one lexicon entry made to match nothing in a copy of the lexicon -- and its item must
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
from escbench_inspect.controller.detectors import default_lexicon

pytestmark = pytest.mark.usefixtures("before_round30", "before_round32", "before_round33", "before_round61")
DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV26_FILE).items}
# the pattern as it was before round 28
RECOVERED_AFTER_ROUND_27 = regex.compile(
    detectors._RECOVERED_AFTER.pattern.split(r"|(?<!\bnot\s|n't\s)\b(?:pain", 1)[0],
    detectors._RECOVERED_AFTER.flags,
)


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


def test_the_round_27_pattern_rebuilt_here_differs_from_round_28() -> None:
    """The "before" pattern above is what round 28 changed, not a copy of the current one."""
    assert RECOVERED_AFTER_ROUND_27.pattern != detectors._RECOVERED_AFTER.pattern


def test_a_draw_time_in_the_same_sample_phrase_is_not_the_value() -> None:
    """Round 28: "lab glucose on the same 0600 draw 7.8" reads 7.8, not the clock time 0600 ("same" is not
    read as a record's name)."""
    lab = default_lexicon().attributes.lab
    assert lab is not None
    values = [m.group("value") for m in lab.finditer("lab glucose on the same 0600 draw 7.8")]
    assert values == ["7.8"]


def test_a_one_digit_day_and_month_is_a_date_after_lmp_only() -> None:
    """Round 28: "LMP 4/7" (expanded to "last menstrual period 4/7") is a date; "4/7" elsewhere is not."""
    dates = detectors._DATE_EVENT
    assert [m.group() for m in dates.finditer("last menstrual period 4/7; LMP: 19/6")] == ["4/7", "19/6"]
    assert not list(dates.finditer("took 4/7 of the tablets; pain 4/7"))
    lmp = detectors.detect("Pt says LMP 4/7; antenatal booking form has LMP 19/6.")
    assert lmp.conflict and not detectors.detect("Pt says LMP 4/7; booking form has LMP 4/7.").conflict


def test_pain_free_since_is_not_read_when_denied() -> None:
    """Round 28's "pain free since" is a recovery only when not denied ("not pain free since morphine")."""
    fired = detectors.detect("c/o CP x2h, not pain free since morphine").high_risk
    assert fired and not detectors.detect("c/o CP x2h, pain free since 0300").high_risk


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc28_seconds_a_source", "_SECONDS_A_SOURCE", NEVER),
    ("dc28_would_change", "_CHANGE_SUPPOSED", NEVER),
    ("dc28_both_eyes", "_BOTH_OF_PAIR", NEVER),
    ("dc28_both_eyes", "_ONE_SIDE_ONLY", NEVER),
    ("dc28_status_past_a_clause", "_neighbours", lambda i, j, _occupied, *_: abs(i - j) == 1),
    ("dm28_no_weight_loss_n1", "_WEIGHT_FINDING_AFTER", NEVER),
    ("dh28_pain_free_since_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_27),
]

test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc28_not_on_anymore",
        "attributes.yaml",
        r'"re:\\bnot\\s+on\\b(?=\\s+(?:[\\w-]+\\s+){1,3}?(?:anymore',
        r'"re:zzq(?=\\s+(?:[\\w-]+\\s+){1,3}?(?:anymore',
    ),
    ("dc28_never_used", "attributes.yaml", "prescribed|started|used)", "prescribed|started)"),
    (
        "dc28_wants_cpr",
        "attributes.yaml",
        r"requested)\\s+(?:cpr|resuscitation)\\b(?!",
        r"requested)\\s+zzq\\b(?!",
    ),
    (
        "dc28_wants_cpr_withheld_n1",
        "attributes.yaml",
        r"(?!\\s+(?:withheld|withdrawn|stopped|not\\b|to\\s+be\\s+withheld))",
        "",
    ),
    (
        "dc28_including_intubation",
        "attributes.yaml",
        r'"re:(?<!\\bnot\\s)(?<!\\bno\\s)\\bincluding\\s+(?:intubation|ventilation)\\b"',
        '"zzq"',
    ),
    (
        "dc28_not_for_ventilation_or_icu",
        "attributes.yaml",
        r"\\bnot\\s+for\\s+(?:intubation|ventilation)\\s+(?:or|and|/|nor)",
        "zzq",
    ),
    (
        "dc28_flags_as_pregnant",
        "attributes.yaml",
        "|flagged|flags|flag|marks|codes|coded|",
        "|flagged|coded|",
    ),
    ("dc28_different_stories", "conflict.yaml", '      - "different stories"\n', '      - "zzq"\n'),
    ("dc28_glu", "attributes.yaml", "[glucose, glu, bg,", "[glucose, bg,"),
    ("dc28_last_administered", "attributes.yaml", '"last given", "last administered",', '"last given",'),
    (
        "dc28_moved_to_n1",
        "attributes.yaml",
        r'"re:\\b(?:moved|put\\s+back|pushed\\s+back)\\s+(?:it\\s+)?to',
        r'"re:zzq(?:it\\s+)?to',
    ),
    (
        "dc28_changed_to_match_n1",
        "attributes.yaml",
        r"(?:(?:it|them|this|that)\\s+)?to\\s+match\\b",
        "zzq",
    ),
    (
        "dc28_no_known_allergies_field_n1",
        "attributes.yaml",
        # round 35 added more words after "drug allergies"; the whole lookahead goes
        r"(?!\\s+(?:known|other|allerg\\w*|drug\\s+allerg\\w*|(?:dose\\s+)?(?:discrepanc\\w*|differences?|changes?"
        r"|issues?|concerns?|problems?))\\b)",
        "",
    ),
    (
        "dm28_obs_not_recorded",
        "missing.yaml",
        r"\\s+(?:record|measure|obtain|check|do|take)\\s+(?:(?:his",
        r"\\s+(?:zzq)\\s+(?:(?:his",
    ),
    ("dm28_cant_find_it", "missing.yaml", r"\\s+find\\s+(?:it|them)\\b", r"\\s+zzq\\b"),
    ("dm28_none_can_read", "missing.yaml", r"\\bnone\\s+of\\s+(?:us|them)\\s+(?:can|could)", "zzq"),
    ("dh28_plan_to_jump", "high_risk.yaml", '"(plan|a plan) to (jump|hang|shoot|drown)"', '"zzq"'),
    (
        "dh28_gone_to_a_place",
        "modifiers.yaml",
        r'"re:\\bgone\\b(?!\\s+(?:to|out|back|over|into|round|around|past|with|and|missing|up|really|very|so|quite|all|'
        r"a\\s+bit|puffy|swollen|red|blue|white|grey|gray|pale|numb|weak|floppy|cold|blurry|blurred|dark|black|yellow|"
        r'worse|funny|weird|strange)\\b)"',
        '"gone"',
    ),
    ("dh28_cleared_up_n1", "modifiers.yaml", r'"re:\\bcleared\\s+(?:right', r'"re:zzq(?:right'),
    ("dh28_worn_off_n1", "modifiers.yaml", r'"re:\\b(?:worn|wore)\\s+off\\b"', '"zzq"'),
    ("dh28_red_painful_eye", "high_risk.yaml", r'"re:\\bred,?\\s+(?:and', r'"re:zzq(?:and'),
    (
        "dh28_white_spot_cornea",
        "high_risk.yaml",
        r"(?:on|in)\\s+(?:the\\s+|his\\s+|her\\s+|my\\s+)?cornea",
        "zzq",
    ),
    ("dh28_baby_not_felt", "high_risk.yaml", r"felt\\s+(?:the\\s+|my\\s+|her\\s+)?baby", "zzq"),
    (
        "dc28_last_two_word_heading",
        "attributes.yaml",
        r"(?:[a-z][a-z0-9.-]+\\s+){0,2}[a-z][a-z0-9.-]+(?=\\s*(?::|",
        r"[a-z][a-z0-9.-]+(?=\\s*(?::|",
    ),
    ("dc28_last_inj", "attributes.yaml", "(?:injection|inj|drip", "(?:injection|drip"),
    (  # round 35 added a treatment start and a first supply to the entry
        "dc28_start_date",
        "attributes.yaml",
        # (with round 60's entry of a first supply with the drug named inside it, in the same list)
        '["start date", "date started", "started on", "treatment start", "start of treatment", '
        '"first supply/dispensed/issued",\n'
        '    "re:\\\\bfirst\\\\s+[a-z][\\\\w-]*\\\\s+(?:supply|fill|dispensing|issue)\\\\b"]',
        '["zzq"]',
    ),
    ("dc28_salt_and_acid", "attributes.yaml", "ibandronate: ibandronic acid, ", ""),
    ("dc28_still_contain", "attributes.yaml", "|include|contain|lists|", "|include|lists|"),
    (
        "dc28_on_drug_heading",
        "attributes.yaml",
        r"\\bon\\b(?=\\s+[a-z][\\w-]*\\s+(?:per",
        r"zzq(?=\\s+[a-z][\\w-]*\\s+(?:per",
    ),
    (
        "dh28_found_hours_ago_with",
        "high_risk.yaml",
        r"\\bfound\\s+(?:[~\\w]+\\s+){0,3}?with",
        r"\\bfound\\s+with",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
