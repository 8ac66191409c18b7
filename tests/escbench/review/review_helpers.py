"""Helpers of the review tests: a review page's form fields and answers."""

from __future__ import annotations

import re

from escbench_inspect.review.items import Catalog


def form_fields(html: str) -> dict[str, str]:
    """The hidden csrf, round and submission fields of a review page."""
    return {
        name: re.search(rf'name="{name}" value="([^"]*)"', html).group(1)
        for name in ("csrf", "round", "submission")
    }


def seed_answers(catalog: Catalog, seed_id: str, action: str = "Answer") -> dict[str, list[str]]:
    return {f"actions:{e.episode_id}": [action] for e in catalog.seed_episodes[seed_id]}


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db, css_cases: int = 0, timeout: float = 120.0):
    """``escbench review serve`` in a subprocess on a free port; (process, base URL) once it answers."""
    import subprocess
    import sys
    import time

    import httpx

    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "escbench_inspect.cli",
            "review",
            "serve",
            "--db",
            str(db),
            "--port",
            str(port),
        ]
        + ["--css-cases", str(css_cases)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {process.stdout.read().decode()[-2000:]}")
        try:
            if httpx.get(base + "/", timeout=1).status_code == 403:
                return process, base
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("server did not start")


def stop(process) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except Exception:
        process.kill()
        process.wait()


class Submitter:
    """One reviewer posting blinded answers for seed after seed over HTTP; records what was acknowledged."""

    def __init__(self, base: str, token: str, catalog: Catalog, seed_ids: list[str]):
        import httpx

        self.client = httpx.Client(base_url=base, timeout=60)
        assert self.client.get(f"/login?token={token}", follow_redirects=False).status_code == 303
        self.catalog, self.seed_ids = catalog, seed_ids
        self.acknowledged: list[str] = []  # submission ids answered with 303
        self.failed = 0

    def run(self, resend_every: int = 0) -> None:
        import httpx

        for n, seed_id in enumerate(self.seed_ids):
            try:
                fields = form_fields(self.client.get(f"/seed/{seed_id}").text)
                data = {**fields, **seed_answers(self.catalog, seed_id)}
                response = self.client.post(f"/seed/{seed_id}", data=data, follow_redirects=False)
                if response.status_code == 303:
                    self.acknowledged.append(fields["submission"])
                    if resend_every and n % resend_every == 0:  # the same form again: stored once
                        assert (
                            self.client.post(
                                f"/seed/{seed_id}", data=data, follow_redirects=False
                            ).status_code
                            == 303
                        )
                else:
                    self.failed += 1
            except httpx.TransportError:
                self.failed += 1
                return
