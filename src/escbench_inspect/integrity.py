"""Content hashes and version stamps recorded in every log's task metadata.

Two results are comparable only if they were produced from the same benchmark content; the hash of
the canonical JSON of what the model saw (and of the catalog the judge scored against) makes that
checkable from the logs alone.
"""

from __future__ import annotations

import hashlib
import json
from importlib import metadata
from typing import Any


def canonical_json(obj: Any) -> str:
    """Deterministic JSON: sorted keys, no whitespace variance, UTF-8 kept as is."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def content_hash(obj: Any) -> str:
    """sha256 (hex) of the canonical JSON of ``obj``."""
    return hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()


def package_version() -> str:
    try:
        return metadata.version("escbench")
    except metadata.PackageNotFoundError:  # running from a source tree without install
        return "0+unknown"
