"""On-disk cache of built artefacts, keyed by a content hash of the code and data that built them.

Building the CSS corpus (generate, mutate, render every chart at four lengths and validate it) takes
tens of seconds; loading the result takes milliseconds. :func:`load_or_build` keeps one JSON file
per artefact under ``$ESCBENCH_CACHE/css`` (default ``~/.cache/escbench/css``;
``ESCBENCH_CSS_CACHE`` overrides that folder alone, which the tests use so that they never touch a
user's cache):

- **stale is impossible**: the key is :func:`source_sha256` of every file of the package that
  builds the artefact (code and data), so any edit gives a new key and the old file is ignored;
- **corrupt or partial files are rebuilt, never used**: the first line holds the key and the sha256
  of the body, checked on every load;
- **concurrent builders do not corrupt it**: each writes a private temporary file in the same folder
  and renames it over the target (atomic on POSIX and Windows), so a reader sees the old file, no
  file or a whole new one.

A plain lock-free cache is enough here: two processes that miss at once both build the same bytes
(the build is deterministic) and the last rename wins.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMAT = "escbench-cache/1"
SOURCE_SUFFIXES = (".py", ".yaml", ".yml", ".json", ".csv", ".txt")


def cache_folder() -> Path:
    """``$ESCBENCH_CSS_CACHE``, else ``$ESCBENCH_CACHE/css``, else ``~/.cache/escbench/css``."""
    override = os.environ.get("ESCBENCH_CSS_CACHE")
    if override:
        return Path(override).expanduser()
    root = os.environ.get("ESCBENCH_CACHE")
    return (Path(root).expanduser() if root else Path.home() / ".cache" / "escbench") / "css"


def source_sha256(package_dir: Path, extra: dict[str, Any] | None = None) -> str:
    """sha256 over the relative path and bytes of every source and data file under ``package_dir``.

    ``extra`` (e.g. library versions that shape the output) is hashed in too. Byte caches
    (``__pycache__``) and other suffixes are skipped, so the key changes exactly when code or data do.
    """
    digest = hashlib.sha256(json.dumps(extra or {}, sort_keys=True).encode("utf-8"))
    files = sorted(
        p
        for p in package_dir.rglob("*")
        if p.is_file() and p.suffix in SOURCE_SUFFIXES and "__pycache__" not in p.parts
    )
    for path in files:
        relative = path.relative_to(package_dir).as_posix().encode("utf-8")
        content = path.read_bytes()
        digest.update(b"%d:%s%d:" % (len(relative), relative, len(content)))
        digest.update(content)
    return digest.hexdigest()


def cache_path(name: str, key: str) -> Path:
    return cache_folder() / f"{name}-{key[:16]}.json"


def _header(key: str, body: bytes) -> bytes:
    return f"{FORMAT} {key} {hashlib.sha256(body).hexdigest()}\n".encode("ascii")


def read_cached(path: Path, key: str) -> Any | None:
    """The cached value at ``path`` if it is whole and was built under ``key``; otherwise ``None``."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    header, newline, body = raw.partition(b"\n")
    if not newline or header + newline != _header(key, body):
        return None  # another key, another format, truncated or altered
    try:
        return json.loads(body)
    except ValueError:  # cannot happen with a matching sha256 unless the writer was broken
        return None


def encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def write_cached(path: Path, key: str, body: bytes) -> None:
    """Write the JSON ``body`` after its checksum header, atomically (temporary file + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(_header(key, body))
            out.write(body)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _prune(name: str, keep: Path) -> None:
    """Remove this artefact's files of other keys (best effort: another process may hold them)."""
    for old in keep.parent.glob(f"{name}-*.json"):
        if old != keep:
            old.unlink(missing_ok=True)


def load_or_build(name: str, key: str, build: Callable[[], Any]) -> Any:
    """The cached value of artefact ``name`` under ``key``, building and caching it on a miss.

    ``build`` must return JSON-serializable data; the caller gets the JSON round trip of it, so a
    fresh build and a cache hit return equal values. An unwritable cache folder only costs speed.
    """
    path = cache_path(name, key)
    cached = read_cached(path, key)
    if cached is not None:
        return cached
    body = encode(build())
    try:
        write_cached(path, key, body)
        _prune(name, path)
    except OSError:
        pass  # read-only home or full disk: still correct, just rebuilt next time
    return json.loads(body)
