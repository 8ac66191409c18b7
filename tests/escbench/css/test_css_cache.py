"""The on-disk cache of the built CSS corpus: stale and corrupt files are rebuilt, concurrent builders
agree, and what the cache holds is what a fresh build of the current code gives."""

from __future__ import annotations

import json
import multiprocessing
import time
from pathlib import Path

import pytest

from escbench_inspect.css import cache

KEY_A, KEY_B = "a" * 64, "b" * 64
VALUE = {"plans": [{"case_id": "nsclc-001", "n": 3}], "text": "Tumor-board question: é"}


class Builder:
    """A counting builder (the cache must call it exactly when it has no usable file)."""

    def __init__(self, value: object = VALUE) -> None:
        self.value, self.calls = value, 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ESCBENCH_CSS_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_second_load_reads_the_file_without_building(folder: Path) -> None:
    build = Builder()
    assert cache.load_or_build("thing", KEY_A, build) == VALUE
    assert cache.load_or_build("thing", KEY_A, build) == VALUE
    assert build.calls == 1
    assert [p.name for p in folder.iterdir()] == [f"thing-{KEY_A[:16]}.json"]


def test_cache_folder_follows_escbench_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ESCBENCH_CSS_CACHE", raising=False)
    monkeypatch.setenv("ESCBENCH_CACHE", str(tmp_path))
    assert cache.cache_folder() == tmp_path / "css"


def test_stale_key_is_rebuilt_and_the_old_file_removed(folder: Path) -> None:
    old, new = Builder({"version": "old"}), Builder({"version": "new"})
    cache.load_or_build("thing", KEY_A, old)
    assert cache.load_or_build("thing", KEY_B, new) == {"version": "new"}
    assert new.calls == 1
    assert [p.name for p in folder.iterdir()] == [f"thing-{KEY_B[:16]}.json"]
    # a file renamed to the new key's name still carries the old key in its header: not used
    cache.write_cached(cache.cache_path("thing", KEY_B), KEY_A, cache.encode({"version": "old"}))
    assert cache.load_or_build("thing", KEY_B, new) == {"version": "new"}
    assert new.calls == 2


def test_key_changes_with_any_source_or_data_file(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "data").mkdir(parents=True)
    (package / "generator.py").write_text("SEED = 1\n")
    (package / "data" / "catalog.yaml").write_text("version: 1\n")
    first = cache.source_sha256(package)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "generator.cpython-311.pyc").write_bytes(b"\0")
    assert cache.source_sha256(package) == first  # byte caches are not sources
    (package / "data" / "catalog.yaml").write_text("version: 2\n")
    second = cache.source_sha256(package)
    assert second != first
    (package / "render.py").write_text("")
    assert cache.source_sha256(package) != second
    assert cache.source_sha256(package, {"pydantic": "2.0"}) != cache.source_sha256(package)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda raw: raw[: len(raw) // 2], id="truncated"),
        pytest.param(lambda raw: raw.replace(b"nsclc", b"NSCLC"), id="altered-body"),
        pytest.param(lambda raw: raw.replace(b"\n", b"", 1), id="no-header"),
        pytest.param(lambda raw: b"", id="empty"),
        pytest.param(lambda raw: b"\xff\xfe garbage\n{}", id="garbage"),
    ],
)
def test_corrupt_or_partial_file_is_rebuilt_never_used(folder: Path, damage) -> None:
    build = Builder()
    cache.load_or_build("thing", KEY_A, build)
    path = cache.cache_path("thing", KEY_A)
    path.write_bytes(damage(path.read_bytes()))
    assert cache.read_cached(path, KEY_A) is None
    assert cache.load_or_build("thing", KEY_A, build) == VALUE
    assert build.calls == 2
    assert cache.read_cached(path, KEY_A) == VALUE  # repaired


def test_unwritable_folder_still_gives_the_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ESCBENCH_CSS_CACHE", str(blocker / "cache"))
    assert cache.load_or_build("thing", KEY_A, Builder()) == VALUE


def slow_build() -> dict:
    time.sleep(0.5)  # long enough that every process misses the cache before any writes it
    return {"items": list(range(20_000)), "name": "built"}


def build_in_process(folder: str, barrier) -> str:
    import os

    os.environ["ESCBENCH_CSS_CACHE"] = folder
    barrier.wait()
    return json.dumps(cache.load_or_build("shared", KEY_A, slow_build))


def test_processes_building_at_once_all_get_the_same_whole_value(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = 4
    with context.Manager() as manager, context.Pool(workers) as pool:
        barrier = manager.Barrier(workers)
        results = pool.starmap(build_in_process, [(str(tmp_path), barrier)] * workers)
    expected = slow_build()
    assert [json.loads(r) for r in results] == [expected] * workers
    assert cache.read_cached(tmp_path / f"shared-{KEY_A[:16]}.json", KEY_A) == expected
    assert [p.name for p in tmp_path.iterdir()] == [f"shared-{KEY_A[:16]}.json"]  # no temporary left


# --- the CSS corpus itself ---------------------------------------------------------------------


def test_cached_corpus_is_a_fresh_build_of_the_current_code() -> None:
    """The cached plans, exclusions, questions and case JSON of a few cases equal a fresh build."""
    from escbench_inspect.css.data import packaged_data
    from escbench_inspect.css.dataset import BuiltCorpus, _corpus, build_corpus
    from escbench_inspect.css.generator import corpus

    cases = [c for c in corpus() if c.case_id in ("nsclc-001", "breast-002", "melanoma-003")]
    fresh = build_corpus(cases, packaged_data())
    assert fresh.plans, "the chosen cases must emit tuples"
    assert cache.encode(build_corpus(cases, packaged_data()).to_json()) == cache.encode(fresh.to_json())
    assert BuiltCorpus.from_json(json.loads(json.dumps(fresh.to_json()))) == fresh
    cached = _corpus()
    ids = {c.case_id for c in cases}
    assert tuple(p for p in cached.plans if p.case_id in ids) == fresh.plans
    assert tuple(e for e in cached.excluded if e[0] in ids) == fresh.excluded
    assert {k: v for k, v in cached.questions.items() if k.split("__")[0] in ids} == fresh.questions
    assert {k: v for k, v in cached.case_json.items() if k.split("__")[0] in ids} == fresh.case_json


def test_parallel_build_joins_to_the_serial_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks built in two worker processes, joined in order, equal the one-process build."""
    from escbench_inspect.css import dataset
    from escbench_inspect.css.data import packaged_data
    from escbench_inspect.css.generator import corpus

    few = corpus()[:14]
    monkeypatch.setattr(dataset, "corpus", lambda: few)
    monkeypatch.setattr(dataset, "CASES_PER_CHUNK", 4)  # 4 chunks over 2 workers
    parallel = dataset.build_packaged_corpus(workers=2)
    serial = dataset.build_corpus(few, packaged_data()).to_json()
    assert cache.encode(parallel) == cache.encode(serial)
    assert len({p["case_id"] for p in serial["plans"]}) >= 4  # several chunks contribute tuples


@pytest.mark.parametrize("chart_length", ["short", "xlong"])
def test_dataset_hash_from_cached_pieces_equals_the_hash_of_the_whole(chart_length: str) -> None:
    """The streamed hash is the content hash of every tuple's metadata and both arms' cases."""
    from escbench_inspect.css.catalog import mutate
    from escbench_inspect.css.dataset import (
        _interventions,
        dataset_sha256,
        plan_tuples,
        sample_metadata,
        validate_params,
    )
    from escbench_inspect.css.generator import case_by_id
    from escbench_inspect.integrity import content_hash

    selection = validate_params(cases=12, chart_length=chart_length)
    plans, _ = plan_tuples(selection)
    ivs = _interventions()
    whole = {
        "chart_length": chart_length,
        "tuples": [
            {
                "meta": sample_metadata(p, chart_length),
                "baseline": case_by_id(p.case_id).model_dump(mode="json"),
                "mutated": mutate(ivs[p.intervention_id], case_by_id(p.case_id)).model_dump(mode="json"),
            }
            for p in plans
        ],
    }
    assert dataset_sha256(selection) == content_hash(whole)


def test_sample_input_shows_the_rendered_question_of_both_arms() -> None:
    from escbench_inspect.css.dataset import (
        QUESTION_SECTION,
        chart_sections,
        plan_tuples,
        sample_input,
        validate_params,
    )

    plans, _ = plan_tuples(validate_params(cases=4, chart_length="medium"))
    for plan in plans[:6]:
        text = sample_input(plan, "medium")
        original, changed = text.split("Original chart:", 1)[1].split("Changed chart:", 1)
        assert chart_sections(plan.case_id, None, "medium")[QUESTION_SECTION] in original
        assert chart_sections(plan.case_id, plan.intervention_id, "medium")[QUESTION_SECTION] in changed


@pytest.mark.slow
def test_two_processes_building_the_real_corpus_at_once(tmp_path: Path) -> None:
    """Cold cache, two fresh processes building the whole corpus concurrently (minutes)."""
    import os
    import subprocess
    import sys

    code = (
        "from escbench_inspect.css.dataset import _corpus, corpus_key\n"
        "import hashlib, json\n"
        "c = _corpus().to_json()\n"
        "print(corpus_key(), hashlib.sha256(json.dumps(c, sort_keys=True).encode()).hexdigest())\n"
    )
    env = {**os.environ, "ESCBENCH_CSS_CACHE": str(tmp_path)}
    procs = [
        subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [p.communicate()[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outputs[0] == outputs[1]
    from escbench_inspect.css.dataset import corpus_key

    assert outputs[0][0] == corpus_key()
    assert [p.name for p in tmp_path.iterdir()] == [f"css-corpus-{corpus_key()[:16]}.json"]
    # a third process reads what they wrote, without rewriting it
    [written] = tmp_path.iterdir()
    before = written.stat().st_mtime_ns
    third = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert third.stdout.split() == outputs[0]
    assert written.stat().st_mtime_ns == before
