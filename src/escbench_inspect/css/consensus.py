"""Consensus recommendation items of a case, from the rules in ``data/consensus.yaml``."""

from __future__ import annotations

from escbench_inspect.css.data import CssData, packaged_data
from escbench_inspect.css.rules import case_facts, matches
from escbench_inspect.css.schema import Case, ConsensusItem
from escbench_inspect.css.staging import case_tnm, main_n


def facts_of(case: Case, data: CssData | None = None) -> dict:
    data = data or packaged_data()
    tnm = case_tnm(case, data)
    facts = case_facts(case, tnm.t, main_n(tnm.n), tnm.group)
    given = {cls for line in case.lines for cls in data.regimens[line.regimen].classes}
    facts["her2_pretreated"] = "her2_directed" in given
    facts["endocrine_pretreated"] = "endocrine" in given
    return facts


def consensus_items(case: Case, data: CssData | None = None) -> tuple[ConsensusItem, ...]:
    """Union of the items of every matching rule, in file order (first occurrence of an id wins)."""
    data = data or packaged_data()
    facts = facts_of(case, data)
    seen: dict[str, ConsensusItem] = {}
    for rule in data.consensus:
        if matches(facts, rule.when):
            for item in rule.items:
                seen.setdefault(item.id, item)
    return tuple(seen.values())


def standard_first_line(case: Case, data: CssData | None = None) -> str | None:
    """Regimen id of the first matching rule with ``standard_first_line`` (evaluated as naive)."""
    data = data or packaged_data()
    naive = case.model_copy(update={"lines": ()})
    facts = facts_of(naive, data)
    for rule in data.consensus:
        if rule.standard_first_line and matches(facts, rule.when):
            return rule.standard_first_line
    return None
