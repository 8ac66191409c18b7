"""The real server (uvicorn in a subprocess): concurrent reviewers, and SIGKILL in the middle of writes."""

from __future__ import annotations

import collections
import os
import signal
import sqlite3
import threading
import time

import pytest
from review_helpers import Submitter, start_server, stop

from escbench_inspect.review.store import Store

REVIEWERS = 4


def _reviewers(db, n: int) -> list[str]:
    store = Store(db)
    return [store.add_reviewer(f"reviewer{i}") for i in range(n)]


def _rows(db) -> list[tuple]:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT submission, reviewer, item_id, round FROM reviews").fetchall()


def test_concurrent_reviewers_lose_and_duplicate_nothing(db, catalog) -> None:
    tokens = _reviewers(db, REVIEWERS)
    process, base = start_server(db)
    try:
        seeds = catalog.seed_ids()
        submitters = [Submitter(base, token, catalog, seeds) for token in tokens]
        threads = [threading.Thread(target=s.run, kwargs={"resend_every": 7}) for s in submitters]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        stop(process)
    acknowledged = [sub for s in submitters for sub in s.acknowledged]
    rows = _rows(db)
    assert sum(s.failed for s in submitters) == 0
    assert len(acknowledged) == REVIEWERS * len(seeds)
    assert len(rows) == REVIEWERS * len(seeds) * 10  # 4 x 40 seeds x 10 episodes = 1,600 reviews
    per_answer = collections.Counter((r[1], r[2], r[3]) for r in rows)
    assert max(per_answer.values()) == 1  # no review stored twice, resent forms included
    stored_forms = {r[0].split(":", 1)[0] for r in rows}
    assert stored_forms == set(acknowledged)
    print(f"{len(rows)} reviews from {REVIEWERS} concurrent reviewers: 0 lost, 0 duplicated")


def test_sigkill_mid_write_keeps_every_acknowledged_review(db, catalog) -> None:
    tokens = _reviewers(db, REVIEWERS)
    process, base = start_server(db)
    seeds = catalog.seed_ids()
    submitters = [Submitter(base, token, catalog, seeds) for token in tokens]
    threads = [threading.Thread(target=s.run) for s in submitters]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while len(_rows(db)) < 200 and time.monotonic() < deadline:  # well into the writes
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    for thread in threads:
        thread.join()
    acknowledged = {sub for s in submitters for sub in s.acknowledged}
    assert 0 < len(acknowledged) < REVIEWERS * len(seeds), "the kill must land mid-run"
    process, base = start_server(db)  # restarted on the same file
    try:
        assert Store(db).integrity() == "ok"
        rows = _rows(db)
        forms = collections.Counter(r[0].split(":", 1)[0] for r in rows)
        assert acknowledged <= set(forms)  # every acknowledged form is there
        assert set(forms.values()) == {10}  # and no form is there in part
        # the restarted server goes on: a reviewer resumes where the kill stopped them
        resumed = Submitter(base, tokens[0], catalog, seeds)
        done = {r[2].split("__")[0] for r in rows if r[1] == "reviewer0"}
        resumed.seed_ids = [s for s in seeds if s not in done]
        resumed.run()
        assert resumed.failed == 0
    finally:
        stop(process)
    print(f"killed after {len(acknowledged)} acknowledged forms; all present after restart")


# about a minute each on two shared cores: CI runs them in its slow step
pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning"),
]
