"""Issue 22z round 25 (all three detectors): the mechanisms blind halves 31-33's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev23.yaml``). Every item is read as
labelled; then each mechanism is taken out -- a module pattern replaced by one that never (or always) matches
or by the one before it, or one lexicon entry made to match nothing in a copy of the lexicon -- and its item
must flip."""

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

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV23_FILE).items}
# these mechanisms are tested as the detectors read before round 27's reading of an absence's object
pytestmark = pytest.mark.usefixtures(
    "before_round27_object", "before_round30", "before_round33", "before_round36", "before_round38"
)
ALWAYS = regex.compile(r"")
RECOVERED_AFTER_ROUND_24 = regex.compile(
    detectors._RECOVERED_AFTER.pattern.replace(
        r"|\bback\s+to\s+(?:himself|herself|themselves|myself)\b", "", 1
    ),
    detectors._RECOVERED_AFTER.flags,
)


fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)


# (the item, the module name behind its mechanism, what replaces it)
MODULE_MECHANISMS = [
    ("dc25_opening_value", "_MEASURED_ON", NEVER),
    ("dc25_closing_value", "_NOT_A_RESULT", ALWAYS),
    ("dc25_closing_value_n1", "_NOT_A_RESULT", NEVER),
    ("dh25_back_to_himself_n1", "_RECOVERED_AFTER", RECOVERED_AFTER_ROUND_24),
]


test_each_module_mechanism_carries_its_item = module_mechanism_test(DEV, fires, MODULE_MECHANISMS)


# (the item, the lexicon file, the start of its entry -- a whole quoted term, or the opening of a regular
# expression -- and what replaces it: None makes the entry match nothing ("zzq" matches no text here))
LEXICON_ENTRIES: list[tuple[str, str, str, str | None]] = [
    # high risk, findings
    ("dh25_gcs_dropped", "high_risk.yaml", r'"re:\\bgcs\\b\\s*(?:has', None),
    ("dh25_pupil_sluggish", "high_risk.yaml", r'"re:\\bpupils?\\b[^.;', None),
    ("dh25_status_between", "high_risk.yaml", r'"re:\\b(?:not|without|never)\\s+(?:regaining', None),
    ("dh25_papilloedema", "high_risk.yaml", '"papilloedema/papilledema"', None),
    ("dh25_rising_headache", "high_risk.yaml", r'"re:\\bheadache\\b(?<=(?:↑', None),
    ("dh25_testis_first", "high_risk.yaml", r'"re:\\b(?:testis|testicle)\\s+(?:is\\s+)?high', None),
    ("dh25_torsion_query", "high_risk.yaml", r'"re:\\btorsion', None),
    ("dh25_coughed_blood", "high_risk.yaml", '"(coughed|coughing|coughs|cough) up .. blood"', None),
    (
        "dh25_neck_swelling",
        "high_risk.yaml",
        '"(enlarging|expanding|growing|increasing) .. neck .. (swelling|haematoma|hematoma)"',
        None,
    ),
    ("dh25_corneal_infiltrate", "high_risk.yaml", '"corneal infiltrate/infiltrates"', None),
    (
        "dh25_fm_shorthand",
        "high_risk.yaml",
        r'"re:(?:↓|\\b(?:decreased|reduced|less|no)\\b)\\s*(?:fms?',
        None,
    ),
    (  # round 34 added more words after "felt"; the whole lookahead goes
        "dh25_none_felt",
        "modifiers.yaml",
        r'"re:\\bnone\\b(?!\\s+(?:felt|accompanied|came|arrived|was\\s+(?:sent|enclosed|attached)|enclosed|attached'
        r'|on\\s+file|is\\s+(?:on|in|available|held|recorded))\\b)"',  # round 62: "none is in" a record
        '"none"',
    ),
    ("dh25_stockpiled", "high_risk.yaml", '"stockpil*"', None),
    ("dh25_saving_counted", "high_risk.yaml", r'"re:\\bsaving\\s+(?:up', None),
    ("dh25_take_tonight", "high_risk.yaml", r'"re:\\bgoing\\s+to\\s+take', None),
    ("dh25_wont_matter", "high_risk.yaml", r"|will\\s+not)\\s+(?:matter|be", r"|will\\s+not)\\s+(?:zzq|be"),
    (
        "dh25_keep_going",
        "high_risk.yaml",
        r"\\s+think\\s+i\\s+can\\s+(?:keep",
        r"\\s+think\\s+i\\s+can\\s+(?:zzq",
    ),
    (
        "dh25_letters_family",
        "high_risk.yaml",
        r'"re:\\b(?:written|wrote|writing|left)\\s+(?:an?\\s+)?(?:(?:goodbye',
        None,
    ),
    ("dh25_legs_heavy", "high_risk.yaml", r'"re:\\blegs?\\s+(?:feel', None),
    (
        "dh25_calcium_salt_n1",
        "high_risk.yaml",
        r'"re:\\bcalcium\\b(?!\\s+(?:gluconate|carbonate|chloride|acetate|resonium|channel|supplements?|tablets?|and\\s+vitamin))"',
        '"calcium"',
    ),
    # high risk, context
    ("dh25_past_history_n1", "modifiers.yaml", '"past history"', None),
    ("dh25_stable_angina_n1", "modifiers.yaml", '"stable angina"', None),
    # (round 32 extended the entry with a trigger between: "stable exertional angina")
    (
        "dh25_stable_angina_n1",
        "modifiers.yaml",
        r'"re:\\bstable(?:\\s+(?:exertional|effort|exercise[\\s-]+induced))?\\s*$"',
        None,
    ),
    ("dh25_chronic_n1", "modifiers.yaml", r'"re:(?<!\\bon\\s)\\bchronic(?:\\s+[a-z]+)?\\s*$"', None),
    (
        "dh25_first_baby_n1",
        "modifiers.yaml",
        '"(first|previous|last|earlier|other|older) (baby|child|delivery)"',
        None,
    ),
    ("dh25_relative_just_n1", "modifiers.yaml", r'"re:\\b(?:his|her|their|my|a|whose)\\s+(?:late', None),
    ("dh25_relative_has_with_n1", "modifiers.yaml", r'"re:\\b(?:his|her|their|my|a|whose)\\s+(?:late', None),
    (
        "dh25_relative_presented_n1",
        "modifiers.yaml",
        r"|was\\s+diagnosed|presented)\\b",
        r"|was\\s+diagnosed)\\b",
    ),
    ("dh25_unchanged_from_usual_n1", "modifiers.yaml", r'"re:\\bunchanged\\s+(?:from', None),
    ("dh25_equals_usual_n1", "modifiers.yaml", r'"re:(?:=|\\bis|\\bat|\\bas)\\s*(?:(?:his', None),
    ("dh25_same_for_years_n1", "modifiers.yaml", r'"re:\\bsame\\s+(?:for|over)', None),
    ("dh25_pattern_unchanged_n1", "modifiers.yaml", r'"re:\\b(?:same\\s+pattern|pattern', None),
    # (round 61 read "at the age of" beside it)
    ("dh25_aged_n1", "modifiers.yaml", r'"re:\\b(?:aged|at\\s+the\\s+age\\s+of)\\s+', None),
    ("dh25_back_in_month_n1", "modifiers.yaml", r'"re:\\bback\\s+in\\s+', None),
    ("dh25_risk_named_n1", "modifiers.yaml", r'"re:^\\W*risk', None),
    ("dh25_no_growth_n1", "modifiers.yaml", '"no growth"', None),
    ("dh25_pain_free_n1", "modifiers.yaml", r'"re:^\\s*-?\\s*free', None),
    ("dh25_settled_n1", "modifiers.yaml", r'"re:\\bsettled\\b(?<!', None),
    ("dh25_pathway_n1", "modifiers.yaml", r'"re:^\\s*(?:pathway', None),
    ("dh25_screen_negative_n1", "modifiers.yaml", r'"re:^[\\s-]*screen\\s*', None),  # (round 33: or a hyphen)
    # missing
    ("dm25_without_dose", "missing.yaml", r'"re:\\bwithout\\s+(?:any|a)\\s+(?:dose', None),
    ("dm25_dont_actually_know", "missing.yaml", r"(?:actually|really|even)\\s+know\\b", r"zzq\\s+know\\b"),
    ("dm25_havent_weighed", "missing.yaml", r"|has\\s+not)\\s+weighed\\b", r"|has\\s+not)\\s+zzq\\b"),
    ("dm25_no_weight_today", "missing.yaml", r'"re:\\bno\\s+(?:weight|wt)\\s+(?:today', None),
    ("dm25_obs_none_since", "missing.yaml", r'"re:\\blast\\s+(?:full\\s+)?(?:obs', None),
    ("dm25_news_not_calculated", "missing.yaml", r'"re:\\b(?:news2?|score)\\s+(?:can', None),
    ("dm25_not_yet_established", "missing.yaml", r'"re:\\bnot\\s+yet\\s+(?:established', None),
    ("dm25_neither_nor", "missing.yaml", r'"re:\\bneither\\b[^.;\\n]{0,60}?', None),
    (
        "dm25_result_not_showing",
        "missing.yaml",
        r'"re:\\b(?:result|results|level)\\b[^.;\\n]{0,20}?\\b(?:still',
        None,
    ),
    (
        "dm25_no_renal_since",
        "missing.yaml",
        r'"re:\\bno\\s+(?:(?:recent|repeat|new)\\s+)?(?:creatinine',
        None,
    ),
    ("dm25_not_yet_arrived", "missing.yaml", r'"re:\\b(?:has|have)\\s+not\\s+(?:yet\\s+)?(?:arrived', None),
    (
        "dm25_hasnt_arrived",
        "missing.yaml",
        r"(?:hasn'?t|haven'?t|hasnt|havent)\\s+(?:yet\\s+)?(?:arrived",
        "zzq(?:",
    ),
    ("dm25_nothing_came_through", "missing.yaml", r'"re:\\bnothing\\s+(?:came', None),
    # (round 62 read "with no" beside them)
    (
        "dm25_without_letter",
        "missing.yaml",
        r'"re:\\b(?:w/o|without|with\\s+no)\\s+(?:a\\s+|any\\s+|the\\s+|his\\s+|her\\s+|their\\s+)?(?:transfer',
        None,
    ),
    ("dm25_not_in_the_note", "missing.yaml", r"(?:isn'?t|is\\s+not)\\s+in\\s+the\\s+(?:op", "zzq(?:op"),
    ("dm25_no_dnacpr_on_file", "missing.yaml", r'"re:\\bno\\s+(?:dnacpr|dnar', None),
    ("dm25_we_dont_know", "missing.yaml", r"(?:we|i)\\s+(?:don'?t|dont|do\\s+not)\\s+know\\b", "zzq"),
    (
        "dm25_usual_pharmacy_n1",
        "missing.yaml",
        r'"re:\\b(?:which|usual|nominated|regular)\\s+(?:pharmacy|chemist)\\b"',
        None,
    ),
    ("dm25_portal_reply_n1", "missing.yaml", '"portal reply"', None),
    # the "not sure" expression's exclusions: "not sure if that matters", "not sure which pharmacy"
    (
        "dm25_if_that_matters_n1",
        "missing.yaml",
        r"\\s+(?:if|whether)\\s+(?:that|this|it)\\s+(?:matters|is\\s+relevant|is\\s+important)\\b|",
        "",
    ),
    ("dm25_which_pharmacy_n1", "missing.yaml", r"\\s+(?:which|what)\\s+(?:pharmacy|chemist)\\b|", ""),
    # conflict
    ("dc25_panel_source", "attributes.yaml", '"fbc", "full blood count", "u&e/u&es", "biochemistry", ', ""),
    ("dc25_allergy_since_year_n1", "attributes.yaml", r'"re:\\bsince\\s+(?:(?:jan', None),
    (
        "dc25_reaction_since_n1",
        "attributes.yaml",
        r'"re:\\b(?:rash|reaction|anaphylaxis|angioedema|urticaria)\\s+since',
        None,
    ),
]


def _nothing(old: str) -> str:
    """The entry made to match nothing: a regular expression that opens with "zzq", or the term "zzq"."""
    return old.replace('"re:', '"re:zzq', 1) if old.startswith('"re:') else '"zzq"'


test_each_lexicon_entry_carries_its_item = lexicon_entry_test(
    DEV,
    fires,
    [(i, file, old, _nothing(old) if new is None else new) for i, file, old, new in LEXICON_ENTRIES],
)
