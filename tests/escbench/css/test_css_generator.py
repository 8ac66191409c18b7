"""Case corpus: size, coverage, coherence, determinism, chart lengths."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

from escbench_inspect.css import SECTION_NAMES
from escbench_inspect.css.coherence import coherence_problems
from escbench_inspect.css.consensus import consensus_items
from escbench_inspect.css.generator import corpus, generate_cases
from escbench_inspect.css.render import render_chart, render_sections


def test_corpus_size_and_coverage() -> None:
    cases = corpus()
    assert len(cases) >= 224
    assert len({c.case_id for c in cases}) == len(cases)
    cancers = {c.cancer for c in cases}
    assert cancers == {"breast", "nsclc", "colorectal", "gastroesophageal", "melanoma"}
    situations = {(c.cancer, c.setting, c.surgery is not None, c.status) for c in cases}
    assert len(situations) == 25  # 5 cancers x 5 clinical situations


def test_every_baseline_case_is_coherent_and_has_consensus() -> None:
    for case in corpus():
        assert coherence_problems(case) == [], case.case_id
        items = consensus_items(case)
        assert items and any(item.weight == 3 for item in items), case.case_id


def test_generation_and_rendering_are_deterministic() -> None:
    first, second = generate_cases(), generate_cases()
    assert [c.model_dump_json() for c in first] == [c.model_dump_json() for c in second]
    for case in first[:10]:
        assert render_sections(case, "long") == render_sections(case, "long")


def test_dataset_hash_is_stable_across_processes() -> None:
    code = (
        "from escbench_inspect.css.dataset import dataset_sha256, validate_params;"
        "print(dataset_sha256(validate_params(cases=30)))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.strip()
    from escbench_inspect.css.dataset import dataset_sha256, validate_params

    assert other == dataset_sha256(validate_params(cases=30))


def test_ten_sections_and_lengths() -> None:
    cases = corpus()[:25]
    medians = {}
    for length in ("short", "medium", "long"):
        sizes = []
        for case in cases:
            sections = render_sections(case, length)
            assert tuple(sections) == SECTION_NAMES
            assert all(text.strip() for text in sections.values())
            sizes.append(len(render_chart(sections)))
        medians[length] = statistics.median(sizes)
    assert 3000 <= medians["short"] <= 6500
    assert medians["short"] < medians["medium"] < medians["long"]
    assert medians["long"] >= 25000
