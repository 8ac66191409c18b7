"""Issue 22z round 47 (all three detectors): the mechanisms blind half 56's misses and false positives
showed, read on this project's own wording (``detector_heldout_dev45.yaml``). Every item is read as
labelled; then each mechanism is taken out -- one lexicon entry made to match nothing (or as it was) in a copy
of the lexicon -- and its item must flip."""

from __future__ import annotations

import pytest
from mechanism_helpers import all_detector_dev_tests, dev_fires, lexicon_entry_test

from escbench_inspect.controller import heldout

DEV = {i.id: i for i in heldout.load_heldout(heldout.DEV45_FILE).items}
pytestmark = pytest.mark.usefixtures("before_round61")

fires = dev_fires(DEV)
(
    test_dev_file_is_in_the_dev_half_with_each_detector,
    test_each_item_reads_as_labelled,
) = all_detector_dev_tests(DEV, fires)

# (the item, the lexicon file, the exact text replaced, what replaces it)
LEXICON_ENTRIES = [
    (
        "dc47_corrected_same_n1",
        "conflict.yaml",
        r"(?![^.\\n]{0,80}?\\bnow\\s+(?:shows?|says?|reads?|has|lists?)\\s+(?:exactly\\s+)?the\\s+same\\b)",
        "",
    ),
    ("dc47_dont_reconcile", "conflict.yaml", "((do|did) not|don't|didn't) reconcile", "zzq"),
    (
        "dc47_before_day",
        "attributes.yaml",
        r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|next\\s+week)\\b)",
        r"zzq)",
    ),
    ("dh47_went_away_n1", "modifiers.yaml", r"\\bwent\\s+away\\b(?!", r"\\bzzq\\b(?!"),
    ("dh47_pv_loss", "high_risk.yaml", r"(?:ebl|blood\\s+loss|vaginal\\s+loss)", r"(?:ebl|blood\\s+loss)"),
    (
        "dh47_epistaxis_minutes",
        "high_risk.yaml",
        r"(?:about\\s+)?|(?<![a-z])[x×]\\s*)(?:[2-9]\\d|[1-9]\\d\\d)\\s*(?:minutes|mins?)",
        ")zzq",
    ),
    (
        "dh47_enough_to_finish",
        "high_risk.yaml",
        r"\\benough\\s+to\\s+(?:finish|end)",
        r"\\bzzq\\s+to\\s+(?:finish|end)",
    ),
    ("dm47_nothing_on_app", "missing.yaml", r"(?:app|portal|system|results?)\\s+(?:yet|so\\s+far)", "zzq"),
    ("dm47_seen_normal", "modifiers.yaml", r"(?<!\\b(?:seen|known)\\s+normal)", ""),
    (
        "dm47_unable_give_obs",
        "missing.yaml",
        r"\\s+(?:give|provide|state|report)\\s+(?:a\\s+|any\\s+|the\\s+|current",
        r"\\s+(?:zzq)\\s+(?:a\\s+|any\\s+|the\\s+|current",
    ),
]

test_each_lexicon_entry_carries_its_item = lexicon_entry_test(DEV, fires, LEXICON_ENTRIES)
