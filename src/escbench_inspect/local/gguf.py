"""Minimal GGUF header reader: magic, version and the key/value metadata (no tensor data).

Enough to check that a file is a GGUF model of the expected architecture with a chat template before
handing it to ``llama-server``. Large arrays (the tokenizer vocabulary) are skipped, not stored.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

GGUF_MAGIC = b"GGUF"
SUPPORTED_VERSIONS = (2, 3)

# GGUF value types -> struct format (fixed size ones)
_SCALARS: dict[int, str] = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}
_STRING, _ARRAY = 8, 9
_MAX_KV = 100_000
_MAX_STRING = 64 * 1024 * 1024


class GGUFError(ValueError):
    """The file is not a readable GGUF model."""


@dataclass
class GGUFHeader:
    version: int
    tensor_count: int
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def architecture(self) -> str | None:
        return self.metadata.get("general.architecture")

    @property
    def name(self) -> str | None:
        return self.metadata.get("general.name")

    @property
    def has_chat_template(self) -> bool:
        return bool(self.metadata.get("tokenizer.chat_template"))

    def context_length(self) -> int | None:
        arch = self.architecture
        value = self.metadata.get(f"{arch}.context_length") if arch else None
        return int(value) if value is not None else None


def _read(f: BinaryIO, n: int) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise GGUFError("truncated GGUF header")
    return data


def _unpack(f: BinaryIO, fmt: str) -> Any:
    return struct.unpack(fmt, _read(f, struct.calcsize(fmt)))[0]


def _string(f: BinaryIO) -> str:
    n = _unpack(f, "<Q")
    if n > _MAX_STRING:
        raise GGUFError(f"implausible string length {n}")
    return _read(f, n).decode("utf-8", errors="replace")


def _value(f: BinaryIO, vtype: int, keep: bool) -> Any:
    if vtype in _SCALARS:
        return _unpack(f, _SCALARS[vtype])
    if vtype == _STRING:
        return _string(f)
    if vtype == _ARRAY:
        item_type = _unpack(f, "<I")
        count = _unpack(f, "<Q")
        if item_type in _SCALARS and not keep:
            f.seek(struct.calcsize(_SCALARS[item_type]) * count, 1)
            return f"<array of {count}>"
        items = [_value(f, item_type, keep) for _ in range(count)]
        return items if keep else f"<array of {count}>"
    raise GGUFError(f"unknown GGUF value type {vtype}")


def read_header(path: Path | str) -> GGUFHeader:
    """Parse the GGUF header of ``path``; raise GGUFError if it is not GGUF v2/v3."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            if _read(f, 4) != GGUF_MAGIC:
                raise GGUFError(f"{path}: not a GGUF file (bad magic)")
            version = _unpack(f, "<I")
            if version not in SUPPORTED_VERSIONS:
                raise GGUFError(f"{path}: unsupported GGUF version {version}")
            tensor_count = _unpack(f, "<Q")
            kv_count = _unpack(f, "<Q")
            if kv_count > _MAX_KV:
                raise GGUFError(f"{path}: implausible metadata count {kv_count}")
            header = GGUFHeader(version=version, tensor_count=tensor_count)
            for _ in range(kv_count):
                key = _string(f)
                vtype = _unpack(f, "<I")
                header.metadata[key] = _value(f, vtype, keep=False)
            return header
    except GGUFError as err:
        if str(path) in str(err):
            raise
        raise GGUFError(f"{path}: {err}") from err
    except OSError as err:
        raise GGUFError(f"{path}: cannot read ({err})") from err
