"""Determinism and integrity: builds are byte-identical; logs carry content hashes and the version.

Two results are comparable when their logs record the same ``dataset_hash`` (escalation) or
``css_catalog_sha256``/``css_dataset_sha256`` (CSS) — checkable from the logs alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from inspect_ai import eval

from escbench.tasks import triage
from escbench_inspect.datasets.assembly import default_seeds
from escbench_inspect.datasets.export import episodes_jsonl
from escbench_inspect.datasets.schema import SeedScenario
from escbench_inspect.integrity import content_hash
from escbench_inspect.tasks import escalation_task

# Run in fresh interpreters with different hash seeds: set/dict ordering or id()-dependent code
# would show up as a different build.
PROBE = """
import hashlib, json, sys
from escbench_inspect.cli import main
main(["build", "--split", "all", "--out", sys.argv[1]])
from escbench_inspect.tasks import escalation_task
result = {"dataset_hash": escalation_task(split="all").metadata["dataset_hash"]}
try:
    from escbench_inspect.css.catalog import catalog_sha256
    result["catalog_sha256"] = catalog_sha256()
except ImportError:
    pass
print(json.dumps(result))
"""


def _probe(tmp_path: Path, hash_seed: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = tmp_path / f"episodes_{hash_seed}.jsonl"
    return subprocess.Popen(
        [sys.executable, "-c", PROBE, str(out)],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_build_and_hashes_are_identical_across_processes(tmp_path: Path) -> None:
    # A fresh interpreter whose hash seed differs from this one's (random unless set).
    seed = "4242" if os.environ.get("PYTHONHASHSEED") != "4242" else "7"
    probes = {seed: _probe(tmp_path, seed)}  # runs while this process builds its own
    here = episodes_jsonl("all").encode("utf-8")
    expected = {"dataset_hash": escalation_task(split="all").metadata["dataset_hash"]}
    try:
        from escbench_inspect.css.catalog import catalog_sha256

        expected["catalog_sha256"] = catalog_sha256()
    except ImportError:
        pass
    for seed, probe in probes.items():
        stdout, stderr = probe.communicate(timeout=120)
        assert probe.returncode == 0, stderr
        assert json.loads(stdout.strip().splitlines()[-1]) == expected, seed
        built = (tmp_path / f"episodes_{seed}.jsonl").read_bytes()
        assert hashlib.sha256(built).hexdigest() == hashlib.sha256(here).hexdigest(), seed
    assert here.count(b"\n") == len(default_seeds()) * 10
    assert episodes_jsonl("all") == here.decode("utf-8")  # and across runs in one process


def _with(seed: SeedScenario, change: dict) -> SeedScenario:
    data = seed.model_dump(mode="json")
    for dotted, value in change.items():
        *parents, last = dotted.split(".")
        node = data
        for key in parents:
            node = node[key]
        node[last] = value
    return SeedScenario.model_validate(data)


@pytest.mark.parametrize(
    "change",
    [
        {"title": "A retitled scenario"},
        {"surfaces.b.age": 71},
        {"reference.late_risk.rationale": "Changed rationale."},
        {"hooks.stale.text": "A different outdated summary."},
    ],
    ids=["title", "surface_value", "rationale", "hook_text"],
)
def test_a_changed_seed_changes_the_dataset_hash(change: dict) -> None:
    seeds = [s for s in default_seeds() if s.task_class.value == "triage"]
    original = escalation_task(classes="triage", split="all", seeds=seeds).metadata["dataset_hash"]
    assert escalation_task(classes="triage", split="all").metadata["dataset_hash"] == original
    target = next(s for s in seeds if "age" in s.surfaces["b"])
    changed = [_with(s, change) if s.id == target.id else s for s in seeds]
    after = escalation_task(classes="triage", split="all", seeds=changed).metadata["dataset_hash"]
    assert after != original


def test_logs_record_hash_and_version_and_identical_runs_agree(faults, tmp_path: Path) -> None:
    logs = [
        eval(triage(variants="clean"), model=faults.MODEL, log_dir=str(tmp_path / str(i)), display="none")[0]
        for i in range(2)
    ]
    first, second = (log.eval.metadata for log in logs)
    assert first["dataset_hash"] == second["dataset_hash"]
    assert first["escbench_version"] == second["escbench_version"] == metadata.version("escbench")
    # Checkable from the log alone: the recorded hash is the hash of what the samples contain.
    for log in logs:
        assert log.status == "success" and log.samples is not None
        order = {sample_id: i for i, sample_id in enumerate(log.eval.dataset.sample_ids)}
        samples = sorted(log.samples, key=lambda s: order[s.id])  # the dataset's own order
        fingerprint = [
            {"id": s.id, "input": s.input, "target": s.target, "metadata": s.metadata} for s in samples
        ]
        assert content_hash(fingerprint) == log.eval.metadata["dataset_hash"]


def test_catalog_hash_tracks_the_catalog_content(tmp_path: Path) -> None:
    data_module = pytest.importorskip("escbench_inspect.css.data")
    from escbench_inspect.css.catalog import catalog_sha256

    copy = tmp_path / "css"
    import shutil

    shutil.copytree(data_module.DATA_DIR, copy)
    assert catalog_sha256(data_module.load_data(copy)) == catalog_sha256()
    path = copy / "catalog.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["interventions"][0]["title"] += " (edited)"
    path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True), encoding="utf-8")
    assert catalog_sha256(data_module.load_data(copy)) != catalog_sha256()
