"""Append-only SQLite store of reviewers and reviews (WAL mode; a backup is a file copy).

Every review row keeps who answered, the item id, the hash of the item's content when it was
answered, the round (1: blinded, 2: adjudication after the reference is shown), the answer as JSON
and the time spent. Rows are never updated or deleted (triggers refuse it); a later answer for the
same item and round supersedes an earlier one when labels are computed, and an answer given to older
content is kept and reported as stale. ``submission`` is unique: a form posted twice is stored once.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BLINDED, ADJUDICATION = 1, 2
REVIEWER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
ROLES = ("reviewer", "admin")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reviewers (
    name TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('reviewer', 'admin')),
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reviews (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    submission TEXT NOT NULL UNIQUE,
    reviewer TEXT NOT NULL REFERENCES reviewers(name),
    item_id TEXT NOT NULL,
    item_kind TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    round INTEGER NOT NULL CHECK (round IN (1, 2)),
    answer TEXT NOT NULL,
    time_ms INTEGER NOT NULL CHECK (time_ms >= 0),
    created TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT 'web'
);
CREATE INDEX IF NOT EXISTS reviews_by_reviewer ON reviews (reviewer, item_id, round);
CREATE TRIGGER IF NOT EXISTS reviews_no_update BEFORE UPDATE ON reviews
    BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
CREATE TRIGGER IF NOT EXISTS reviews_no_delete BEFORE DELETE ON reviews
    BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
"""


class ReviewRefused(ValueError):
    """A review that the workflow does not allow (e.g. a second blinded answer)."""


@dataclass(frozen=True)
class Reviewer:
    name: str
    role: str


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Store:
    """The review database at ``path`` (created on first use)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        with self.connect() as db:
            db.executescript(SCHEMA)
            db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('csrf_secret', ?)", (secrets.token_hex(32),)
            )

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A connection in WAL mode; commits on success (``synchronous=FULL``: a commit is on disk)."""
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.row_factory = sqlite3.Row
            yield db
        finally:
            db.close()

    # ------------------------------------------------------------------ reviewers
    def csrf_secret(self) -> bytes:
        with self.connect() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'csrf_secret'").fetchone()
        return bytes.fromhex(row["value"])

    def add_reviewer(self, name: str, role: str = "reviewer") -> str:
        """Register ``name`` and return its personal token (shown once; only its hash is stored)."""
        if not REVIEWER_NAME.match(name):
            raise ReviewRefused(f"reviewer name {name!r}: use 1-64 letters, digits, '.', '_' or '-'")
        if role not in ROLES:
            raise ReviewRefused(f"role {role!r}: one of {', '.join(ROLES)}")
        token = secrets.token_urlsafe(32)
        with self.connect() as db:
            try:
                db.execute(
                    "INSERT INTO reviewers (name, token_sha256, role, created) VALUES (?, ?, ?, ?)",
                    (name, token_digest(token), role, _now()),
                )
            except sqlite3.IntegrityError as error:
                raise ReviewRefused(f"reviewer {name!r} already exists") from error
        return token

    def reviewer_for_token(self, token: str | None) -> Reviewer | None:
        if not token or len(token) > 200:
            return None
        with self.connect() as db:
            row = db.execute(
                "SELECT name, role FROM reviewers WHERE token_sha256 = ?", (token_digest(token),)
            ).fetchone()
        return Reviewer(row["name"], row["role"]) if row else None

    def reviewers(self) -> list[Reviewer]:
        with self.connect() as db:
            return [Reviewer(r["name"], r["role"]) for r in db.execute("SELECT name, role FROM reviewers")]

    # ------------------------------------------------------------------ reviews
    def record(self, **review: Any) -> bool:
        """Append one review (see :meth:`record_many`); False when its submission was already stored."""
        enforce = review.pop("enforce_blinding", True)
        return self.record_many([review], enforce_blinding=enforce) == 1

    def record_many(self, reviews: list[dict[str, Any]], enforce_blinding: bool = True) -> int:
        """Append reviews in one transaction (all or none); returns how many were new.

        Each review has ``submission``, ``reviewer``, ``item_id``, ``item_kind``, ``content_hash``,
        ``round``, ``answer``, ``time_ms`` and optionally ``source``. A review whose ``submission`` is
        already stored is skipped (a form posted twice). With ``enforce_blinding`` a blinded answer is
        refused once the reviewer has one for this content (they may have seen the reference since),
        and an adjudication before it; a refusal stores nothing.
        """
        stored = 0
        with self.connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                for review in reviews:
                    seen = db.execute("SELECT 1 FROM reviews WHERE submission = ?", (review["submission"],))
                    if seen.fetchone():
                        continue
                    if enforce_blinding:
                        self._check_blinding(db, review)
                    db.execute(
                        "INSERT INTO reviews (submission, reviewer, item_id, item_kind, content_hash, round, "
                        "answer, time_ms, created, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            review["submission"],
                            review["reviewer"],
                            review["item_id"],
                            review["item_kind"],
                            review["content_hash"],
                            review["round"],
                            json.dumps(review["answer"], sort_keys=True, ensure_ascii=False),
                            int(review["time_ms"]),
                            _now(),
                            review.get("source", "web"),
                        ),
                    )
                    stored += 1
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return stored

    @staticmethod
    def _check_blinding(db: sqlite3.Connection, review: dict[str, Any]) -> None:
        blinded = db.execute(
            "SELECT 1 FROM reviews WHERE reviewer = ? AND item_id = ? AND round = 1 AND content_hash = ?",
            (review["reviewer"], review["item_id"], review["content_hash"]),
        ).fetchone()
        if review["round"] == BLINDED and blinded:
            raise ReviewRefused(f"{review['item_id']}: the blinded answer is already recorded")
        if review["round"] == ADJUDICATION and not blinded:
            raise ReviewRefused(f"{review['item_id']}: give the blinded answer first")

    def rounds_done(self, reviewer: str, hashes: dict[str, str]) -> dict[str, set[int]]:
        """For each item id in ``hashes``: the rounds ``reviewer`` answered for that content."""
        done: dict[str, set[int]] = {item_id: set() for item_id in hashes}
        with self.connect() as db:
            rows = db.execute(
                "SELECT item_id, content_hash, round FROM reviews WHERE reviewer = ?", (reviewer,)
            )
            for row in rows:
                if hashes.get(row["item_id"]) == row["content_hash"]:
                    done[row["item_id"]].add(row["round"])
        return done

    def own_answers(self, reviewer: str, item_id: str, content_hash: str) -> dict[int, dict[str, Any]]:
        """The reviewer's latest answer per round for this content (never another reviewer's)."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT round, answer FROM reviews WHERE reviewer = ? AND item_id = ? AND content_hash = ? "
                "ORDER BY seq",
                (reviewer, item_id, content_hash),
            ).fetchall()
        return {row["round"]: json.loads(row["answer"]) for row in rows}

    def all_reviews(self) -> list[dict[str, Any]]:
        """Every review row in insertion order, the answer parsed."""
        with self.connect() as db:
            rows = db.execute("SELECT * FROM reviews ORDER BY seq").fetchall()
        return [{**dict(row), "answer": json.loads(row["answer"])} for row in rows]

    def integrity(self) -> str:
        with self.connect() as db:
            return db.execute("PRAGMA integrity_check").fetchone()[0]
