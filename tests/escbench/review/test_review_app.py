"""The review app in process (Starlette TestClient): access, blinding, hostile input, storage rules."""

from __future__ import annotations

import sqlite3

import pytest
from review_helpers import form_fields, seed_answers
from starlette.routing import Route
from starlette.testclient import TestClient

from escbench_inspect.review.analysis import export_rows
from escbench_inspect.review.app import MAX_BODY_BYTES, create_app
from escbench_inspect.review.cli import _is_loopback
from escbench_inspect.review.store import Store


@pytest.fixture
def app(db, catalog):
    return create_app(db, catalog)


def login(app, store: Store, name: str, role: str = "reviewer") -> TestClient:
    client = TestClient(app)
    token = store.add_reviewer(name, role)
    assert client.get(f"/login?token={token}", follow_redirects=False).status_code == 303
    return client


def test_without_a_token_every_route_refuses(app, db, catalog) -> None:
    store = Store(db)
    store.add_reviewer("alice")
    seed_id, tuple_id = catalog.seed_ids()[0], catalog.tuple_ids()[0]
    routes = [r for r in app.app.routes if isinstance(r, Route)]
    paths = {"/login", "/", f"/seed/{seed_id}", f"/tuple/{tuple_id}", "/stats", "/nowhere"}
    assert {r.path for r in routes} <= {p if "{" not in p else p for p in paths} | {
        "/seed/{seed_id}",
        "/tuple/{tuple_id}",
    }
    anonymous, forged = TestClient(app), TestClient(app, cookies={"escbench_review": "not-a-token"})
    for client in (anonymous, forged):
        for path in paths:
            assert client.get(path).status_code == 403, path
            assert client.post(path, data={"csrf": "x"}).status_code == 403, path
        assert client.get("/login?token=wrong").status_code == 403
    assert store.all_reviews() == []


def test_blinded_round_hides_the_reference_then_adjudication_shows_it(app, db, catalog) -> None:
    client = login(app, Store(db), "alice")
    seed_id = catalog.seed_ids()[0]
    episode = catalog.seed_episodes[seed_id][0]
    page = client.get(f"/seed/{seed_id}").text
    assert 'data-stage="1"' in page and episode.rationale not in page and 'data-role="reference"' not in page
    assert page.count('class="card"') == 10 and "<mark>" in page
    # adjudication before the blinded answer is refused
    early = {
        **form_fields(page),
        "round": "2",
        **{f"agree:{e.episode_id}": "on" for e in catalog.seed_episodes[seed_id]},
    }
    assert client.post(f"/seed/{seed_id}", data=early, follow_redirects=False).status_code == 409
    blinded = {**form_fields(page), **seed_answers(catalog, seed_id, "Ask_Clarification")}
    assert client.post(f"/seed/{seed_id}", data=blinded, follow_redirects=False).status_code == 303
    # the same form posted again is stored once; a new blinded answer is refused
    assert client.post(f"/seed/{seed_id}", data=blinded, follow_redirects=False).status_code == 303
    page = client.get(f"/seed/{seed_id}").text
    assert 'data-stage="2"' in page and episode.rationale in page
    again = {**form_fields(page), "round": "1", **seed_answers(catalog, seed_id)}
    assert client.post(f"/seed/{seed_id}", data=again, follow_redirects=False).status_code == 409
    adjudication = {
        **form_fields(page),
        **{f"agree:{e.episode_id}": "on" for e in catalog.seed_episodes[seed_id]},
    }
    assert client.post(f"/seed/{seed_id}", data=adjudication, follow_redirects=False).status_code == 303
    assert 'data-stage="3"' in client.get(f"/seed/{seed_id}").text
    rows = Store(db).all_reviews()
    assert [r["round"] for r in rows] == [1] * 10 + [2] * 10
    assert {r["answer"]["actions"][0] for r in rows if r["round"] == 1} == {"Ask_Clarification"}


def test_an_incomplete_or_invalid_answer_is_refused(app, db, catalog) -> None:
    client = login(app, Store(db), "alice")
    seed_id = catalog.seed_ids()[1]
    page = client.get(f"/seed/{seed_id}").text
    answers = seed_answers(catalog, seed_id)
    first = next(iter(answers))
    missing = {**form_fields(page), **{k: v for k, v in answers.items() if k != first}}
    response = client.post(f"/seed/{seed_id}", data=missing)
    assert response.status_code == 400 and "choose an answer" in response.text
    paired = {**form_fields(page), **answers, first: ["Escalate", "Answer"]}
    assert "never paired" in client.post(f"/seed/{seed_id}", data=paired).text
    assert Store(db).all_reviews() == []


def test_a_script_in_a_comment_is_shown_as_text(app, db, catalog) -> None:
    client = login(app, Store(db), "alice")
    seed_id = catalog.seed_ids()[0]
    page = client.get(f"/seed/{seed_id}").text
    first = catalog.seed_episodes[seed_id][0].episode_id
    payload = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    data = {**form_fields(page), **seed_answers(catalog, seed_id), f"comment:{first}": payload}
    assert client.post(f"/seed/{seed_id}", data=data, follow_redirects=False).status_code == 303
    page = client.get(f"/seed/{seed_id}").text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    assert payload not in page and "<img src=x" not in page
    assert "script-src 'nonce-" in client.get(f"/seed/{seed_id}").headers["content-security-policy"]


def test_an_oversized_body_is_refused(app, db, catalog) -> None:
    client = login(app, Store(db), "alice")
    seed_id = catalog.seed_ids()[0]
    fields = form_fields(client.get(f"/seed/{seed_id}").text)
    big = {**fields, **seed_answers(catalog, seed_id), "padding": "x" * (MAX_BODY_BYTES + 1)}
    assert client.post(f"/seed/{seed_id}", data=big).status_code == 413

    def chunks():  # no Content-Length: counted while it streams
        yield b"csrf=x&padding="
        for _ in range(MAX_BODY_BYTES // 1000 + 2):
            yield b"y" * 1000

    response = client.post(
        f"/seed/{seed_id}", content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 413
    assert Store(db).all_reviews() == []


def test_a_forged_or_missing_csrf_token_is_refused(app, db, catalog) -> None:
    store = Store(db)
    alice, bob = login(app, store, "alice"), login(app, store, "bob")
    seed_id = catalog.seed_ids()[0]
    alice_fields = form_fields(alice.get(f"/seed/{seed_id}").text)
    answers = seed_answers(catalog, seed_id)
    for csrf in ("0" * 64, "", None, alice_fields["csrf"]):  # alice's token is not bob's
        data = {**alice_fields, **answers}
        if csrf is None:
            data.pop("csrf")
        else:
            data["csrf"] = csrf
        response = bob.post(f"/seed/{seed_id}", data=data)
        assert response.status_code == 403 and "CSRF" in response.text
    assert store.all_reviews() == []


@pytest.mark.parametrize(
    "path",
    [
        "/seed/no_such_seed",
        "/seed/..%2F..%2Fetc%2Fpasswd",
        "/seed/x'%20OR%20'1'='1",
        "/tuple/breast-001__Z9_nothing",
        "/tuple/%3Cscript%3E",
        "/seed/" + "a" * 300,
    ],
)
def test_unknown_item_ids_are_refused(app, db, catalog, path) -> None:
    client = login(app, Store(db), "alice")
    assert client.get(path).status_code == 404
    fields = form_fields(client.get(f"/seed/{catalog.seed_ids()[0]}").text)
    assert client.post(path, data=fields).status_code == 404
    assert catalog.item("x'; DROP TABLE reviews;--") is None
    assert Store(db).all_reviews() == []


def test_reviewers_never_see_each_others_answers(app, db, catalog) -> None:
    store = Store(db)
    alice, bob = login(app, store, "alice"), login(app, store, "bob", "reviewer")
    seed_id = catalog.seed_ids()[0]
    first = catalog.seed_episodes[seed_id][0].episode_id
    data = {
        **form_fields(alice.get(f"/seed/{seed_id}").text),
        **seed_answers(catalog, seed_id),
        f"comment:{first}": "alice-private-note",
    }
    alice.post(f"/seed/{seed_id}", data=data)
    assert "alice-private-note" in alice.get(f"/seed/{seed_id}").text
    bob_page = bob.get(f"/seed/{seed_id}").text
    assert "alice-private-note" not in bob_page and 'data-stage="1"' in bob_page
    assert bob.get("/stats").status_code == 403
    admin = login(app, store, "boss", "admin")
    assert admin.get("/stats").status_code == 200


def test_a_tuple_page_marks_the_mutation_and_hides_the_direction_until_answered(app, db, catalog) -> None:
    client = login(app, Store(db), "alice")
    tuple_id = catalog.tuple_ids()[0]
    item = catalog.items[tuple_id]
    page = client.get(f"/tuple/{tuple_id}").text
    assert page.count('class="mutation" data-arm="mutated"') >= 1 and "<details open" in page
    assert 'id="consensus"' not in page
    view = catalog.tuple_view(tuple_id)
    data = {**form_fields(page), f"direction:{tuple_id}": view.options[0]}
    assert client.post(f"/tuple/{tuple_id}", data=data, follow_redirects=False).status_code == 303
    page = client.get(f"/tuple/{tuple_id}").text
    assert 'id="consensus"' in page and item.reference in page
    bad = {**form_fields(page), "round": "2", f"direction:{tuple_id}": "Invent a new direction"}
    assert client.post(f"/tuple/{tuple_id}", data=bad).status_code == 400


def test_storage_is_append_only_and_changed_content_is_stale(db, catalog) -> None:
    store = Store(db)
    store.add_reviewer("alice")
    item = catalog.items[catalog.tuple_ids()[0]]
    common = dict(reviewer="alice", item_id=item.item_id, item_kind=item.kind, round=1, time_ms=5)
    store.record(submission="old", content_hash="0" * 64, answer={"direction": "x"}, **common)
    store.record(submission="new", content_hash=item.content_hash, answer={"direction": "x"}, **common)
    with sqlite3.connect(db) as raw, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("UPDATE reviews SET answer = '{}'")
    with sqlite3.connect(db) as raw, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("DELETE FROM reviews")
    exported = export_rows(store.all_reviews(), catalog)
    assert [r["stale"] for r in exported] == [True, False]
    assert sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_only_loopback_hosts_count_as_local() -> None:
    assert _is_loopback("127.0.0.1") and _is_loopback("::1") and _is_loopback("localhost")
    assert not _is_loopback("0.0.0.0") and not _is_loopback("192.168.1.5")
