"""Loading and validating the CSS data files (``data/*.yaml``), with cross-file checks.

Every problem raises :class:`DataFileError` naming the file, the entry and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from escbench_inspect.css.rules import BASE_FACTS, condition_problems
from escbench_inspect.css.schema import (
    CANCERS,
    Background,
    CancerSpec,
    Catalog,
    ConsensusFile,
    ConsensusRule,
    Intervention,
    Regimen,
    StagingTable,
)
from escbench_inspect.css.staging import main_n
from escbench_inspect.datasets.errors import DataFileError, read_yaml, validated

DATA_DIR = Path(__file__).parent / "data"


@dataclass(frozen=True)
class CssData:
    """All validated CSS data, plus the raw parsed catalog (hashed into the task metadata)."""

    cancers: dict[str, CancerSpec]
    regimens: dict[str, Regimen]
    consensus: tuple[ConsensusRule, ...]
    catalog: Catalog
    background: Background
    catalog_raw: Any
    staging: dict[str, StagingTable]


def _entries(raw: Any, path: Path, model: type[BaseModel]) -> dict[str, Any]:
    if not isinstance(raw, dict) or not raw:
        raise DataFileError(path, ["expected a non-empty mapping of id -> entry"])
    return {key: validated(model, value, path, entry=str(key)) for key, value in raw.items()}


def load_data(data_dir: Path | str | None = None) -> CssData:
    """Load and cross-validate every data file in ``data_dir`` (default: the packaged files)."""
    root = Path(data_dir) if data_dir is not None else DATA_DIR
    cancers_path = root / "cancers.yaml"
    cancers = _entries(read_yaml(cancers_path), cancers_path, CancerSpec)
    unknown = sorted(set(cancers) - set(CANCERS))
    if unknown:
        raise DataFileError(cancers_path, [f"unknown cancer id(s) {unknown}; known: {CANCERS}"])
    regimens_path = root / "regimens.yaml"
    regimens = _entries(read_yaml(regimens_path), regimens_path, Regimen)
    biomarker_states: dict[str, set[str]] = {}
    for spec in cancers.values():
        for name, marker in spec.biomarkers.items():
            biomarker_states.setdefault(name, set()).update(marker.states)
    for rid, regimen in regimens.items():
        for field_name in ("requires", "contraindicated"):
            for name, states in getattr(regimen, field_name).items():
                bad = sorted(set(states) - biomarker_states.get(name, set()))
                if name not in biomarker_states or bad:
                    raise DataFileError(
                        regimens_path,
                        [f"field '{field_name}.{name}': unknown biomarker or state(s) {bad or name}"],
                        entry=rid,
                    )
    known_facts = set(BASE_FACTS) | set(biomarker_states)

    consensus_path = root / "consensus.yaml"
    raw_consensus = read_yaml(consensus_path)
    rules_raw = raw_consensus.get("rules") if isinstance(raw_consensus, dict) else None
    if not isinstance(rules_raw, list):
        raise DataFileError(consensus_path, ["field 'rules': expected a list"])
    rules = []
    for i, raw_rule in enumerate(rules_raw):
        entry = str(raw_rule.get("id", f"rules[{i}]")) if isinstance(raw_rule, dict) else f"[{i}]"
        rule = validated(ConsensusRule, raw_rule, consensus_path, entry)
        problems = [f"field 'when': {p}" for p in condition_problems(rule.when, known_facts)]
        if rule.standard_first_line and rule.standard_first_line not in regimens:
            problems.append(f"field 'standard_first_line': unknown regimen '{rule.standard_first_line}'")
        if problems:
            raise DataFileError(consensus_path, problems, entry=entry)
        rules.append(rule)
    validated(ConsensusFile, {"rules": rules_raw}, consensus_path)
    ids = [r.id for r in rules]
    if len(set(ids)) != len(ids):
        raise DataFileError(consensus_path, ["duplicate rule ids"])

    consensus_tags = {tag for rule in rules for item in rule.items for tag in item.tags}
    catalog_path = root / "catalog.yaml"
    catalog_raw = read_yaml(catalog_path)
    if not isinstance(catalog_raw, dict):
        raise DataFileError(catalog_path, ["expected a mapping with version/families/interventions"])
    for i, raw_iv in enumerate(catalog_raw.get("interventions") or []):
        entry = str(raw_iv.get("id", f"interventions[{i}]")) if isinstance(raw_iv, dict) else str(i)
        iv: Intervention = validated(Intervention, raw_iv, catalog_path, entry)
        problems = [f"field 'applies_if': {p}" for p in condition_problems(iv.applies_if, known_facts)]
        for cancer, marker in iv.change.targets.items():
            if cancer not in cancers or marker not in cancers[cancer].biomarkers:
                problems.append(f"field 'change.targets.{cancer}': '{marker}' is not a biomarker of {cancer}")
        signed = iv.reflected_by if isinstance(iv.reflected_by, list) else sum(iv.reflected_by.values(), [])
        unknown_tags = sorted({tag[1:] for tag in signed} - consensus_tags)
        if unknown_tags:
            problems.append(f"field 'reflected_by': tag(s) {unknown_tags} are on no consensus.yaml item")
        for marker, mapping in iv.change.map.items():
            for old, new in mapping.items():
                bad = {old, new} - biomarker_states.get(marker, set())
                if bad:
                    problems.append(f"field 'change.map.{marker}': unknown state(s) {sorted(bad)}")
        if problems:
            raise DataFileError(catalog_path, problems, entry=entry)
    catalog = validated(Catalog, catalog_raw, catalog_path)

    background_path = root / "background.yaml"
    background = validated(Background, read_yaml(background_path), background_path)
    staging = _load_staging(root / "staging.yaml", cancers)
    return CssData(
        cancers=cancers,
        regimens=regimens,
        consensus=tuple(rules),
        catalog=catalog,
        background=background,
        catalog_raw=catalog_raw,
        staging=staging,
    )


def _load_staging(path: Path, cancers: dict[str, CancerSpec]) -> dict[str, StagingTable]:
    """The AJCC tables, one per cancer; every stage preset of cancers.yaml must resolve in them."""
    staging = _entries(read_yaml(path), path, StagingTable)
    missing = sorted(set(cancers) - set(staging))
    if missing:
        raise DataFileError(path, [f"no staging table for cancer(s) {missing}"])
    for cancer, spec in cancers.items():
        table = staging[cancer]
        t_known = {c.t for c in table.t.categories}
        for i, preset in enumerate(spec.stages):
            n_known = {main_n(r.n) for r in table.n.clinical} & {main_n(r.n) for r in table.n.pathologic}
            if preset.t not in t_known or main_n(preset.n) not in n_known:
                raise DataFileError(
                    path,
                    [f"cancers.yaml {cancer}.stages[{i}] ({preset.t} {preset.n}) is not in this table"],
                    entry=cancer,
                )
    return staging


@lru_cache(maxsize=1)
def packaged_data() -> CssData:
    """The packaged data files, loaded once per process."""
    return load_data()
