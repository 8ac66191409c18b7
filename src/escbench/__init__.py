"""escbench: Inspect task names (``escbench/<task>``). The library lives in ``escbench_inspect``."""
