"""CSS and CMS differences between models, paired by case (``css.report.compare_css_runs``).

Synthetic per-tuple CSS and per-case CMS with a planted difference: model B scores 1.0 higher
CSS on every tuple of 8 of 10 cases and the same CMS; the comparison recovers the sign, size and
significance of the CSS difference and finds no CMS difference.
"""

from __future__ import annotations

import pandas as pd
import pytest

from escbench_inspect.css.report import MIN_COMMON_CASES, compare_css_runs, css_pairs_markdown

CASES = [f"case-{i:02d}" for i in range(10)]


def run(model: str, lift: set[str], setting: str = "prompt", cases: list[str] = CASES):
    rows = [
        {"id": f"{case}-m{m}", "case": case, "css": 1.0 + (m % 2) + (1.0 if case in lift else 0.0)}
        for case in cases
        for m in range(3)
    ]
    cms = {case: 0.5 + 0.01 * i for i, case in enumerate(cases)}
    return (model, setting, pd.DataFrame(rows), cms)


def test_planted_css_difference_is_recovered_and_equal_cms_is_not() -> None:
    table = compare_css_runs([run("m/b", set(CASES[:8])), run("m/a", set())], n_boot=500)
    css = table[table["measure"] == "css"].iloc[0]
    assert (css["model_a"], css["model_b"]) == ("m/a", "m/b")  # ordered by name: b − a
    assert css["difference"] == pytest.approx(8 / 10) and css["ci_low"] > 0
    assert css["p_value"] == pytest.approx(2 / 2**8)  # 8 positive cases, 2 zero
    cms = table[table["measure"] == "cms"].iloc[0]
    assert cms["difference"] == 0 and cms["p_value"] == 1.0
    assert "+0.800" in css_pairs_markdown(table)


def test_other_settings_and_too_few_cases_are_not_compared() -> None:
    assert compare_css_runs([run("m/a", set()), run("m/b", set(), setting="agent")]).empty
    few = CASES[: MIN_COMMON_CASES - 1]
    table = compare_css_runs([run("m/a", set(), cases=few), run("m/b", set(few), cases=few)])
    assert table["note"].str.startswith(f"{MIN_COMMON_CASES - 1} case(s) in common").all()
    assert "p_value" not in table or table["p_value"].isna().all()
