"""``escbench review serve``: the Starlette application clinicians review items in.

Every route needs the reviewer's token (from their personal link, then an HttpOnly SameSite=Strict
cookie); every form carries a CSRF token derived from it; bodies over ``MAX_BODY_BYTES`` are refused
before they are read; item ids are checked against a strict pattern and the catalog before any
lookup; Jinja2 escapes everything rendered. A reviewer only ever sees their own answers.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from escbench_inspect.review.analysis import agreement_stats
from escbench_inspect.review.items import (
    ACTIONS,
    EPISODE,
    NO_CHANGE,
    Catalog,
    ReviewItem,
    valid_action_set,
)
from escbench_inspect.review.store import ADJUDICATION, BLINDED, Reviewer, ReviewRefused, Store

COOKIE = "escbench_review"
MAX_BODY_BYTES = 200_000
MAX_COMMENT_CHARS = 4000
MAX_TIME_MS = 24 * 3600 * 1000
CONFIDENCE = (1, 2, 3, 4, 5)

_templates = Environment(
    loader=PackageLoader("escbench_inspect.review", "templates"),
    autoescape=select_autoescape(["html"], default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


class BodyTooLarge(Exception):
    pass


class Guard:
    """ASGI middleware: refuse oversized bodies, then any request without a valid reviewer token."""

    def __init__(self, app: ASGIApp, store: Store, max_body: int = MAX_BODY_BYTES):
        self.app, self.store, self.max_body = app, store, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _plain(413, "request body too large")(scope, receive, send)
            return
        token = (
            request.query_params.get("token") if scope["path"] == "/login" else request.cookies.get(COOKIE)
        )
        reviewer = self.store.reviewer_for_token(token)
        if reviewer is None:
            await _plain(403, "a personal review link is required (escbench review add-reviewer NAME)")(
                scope, receive, send
            )
            return
        scope.setdefault("state", {})["reviewer"] = reviewer
        scope["state"]["token"] = token
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_body:
                raise BodyTooLarge
            return message

        started = False

        async def tracked_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracked_send)
        except BodyTooLarge:
            if not started:
                await _plain(413, "request body too large")(scope, receive, send)


def _plain(status: int, text: str) -> Response:
    return PlainTextResponse(text, status_code=status)


class ReviewApp:
    """Routes and rendering over a store and a catalog."""

    def __init__(self, store: Store, catalog: Catalog, priority: dict[str, int] | None = None):
        self.store, self.catalog = store, catalog
        self.priority = priority or {}
        self.secret = store.csrf_secret()

    # ------------------------------------------------------------------ helpers
    def csrf(self, token: str) -> str:
        return hmac.new(self.secret, token.encode(), hashlib.sha256).hexdigest()

    def render(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        nonce = secrets.token_urlsafe(16)
        reviewer: Reviewer = request.state.reviewer
        html = _templates.get_template(template).render(
            reviewer=reviewer, csrf=self.csrf(request.state.token), nonce=nonce, **context
        )
        response = HTMLResponse(html, status_code=status)
        response.headers["Content-Security-Policy"] = (
            f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response

    def problem(self, request: Request, status: int, message: str) -> HTMLResponse:
        return self.render(request, "error.html", status=status, status_code=status, message=message)

    async def checked_form(self, request: Request) -> FormData | Response:
        try:
            form = await request.form(max_files=0, max_fields=400, max_part_size=MAX_BODY_BYTES)
        except BodyTooLarge:
            return _plain(413, "request body too large")
        sent = form.get("csrf")
        if not isinstance(sent, str) or not hmac.compare_digest(sent, self.csrf(request.state.token)):
            return self.problem(request, 403, "the form's CSRF token is missing or wrong; reload the page")
        return form

    # ------------------------------------------------------------------ routes
    async def login(self, request: Request) -> Response:
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(COOKIE, request.state.token, httponly=True, samesite="strict", path="/")
        return response

    async def index(self, request: Request) -> Response:
        me: Reviewer = request.state.reviewer
        hashes = {i: item.content_hash for i, item in self.catalog.items.items()}
        done = self.store.rounds_done(me.name, hashes)
        seeds = []
        for seed_id in self.catalog.seed_ids():
            ids = [e.episode_id for e in self.catalog.seed_episodes[seed_id]]
            seeds.append(
                {
                    "id": seed_id,
                    "title": self.catalog.seed_episodes[seed_id][0].title,
                    "class": self.catalog.seed_episodes[seed_id][0].task_class.value,
                    "blinded": sum(BLINDED in done[i] for i in ids),
                    "adjudicated": sum(ADJUDICATION in done[i] for i in ids),
                    "total": len(ids),
                    "priority": sum(self.priority.get(i, 0) for i in ids),
                }
            )
        tuples = [
            {
                "id": tuple_id,
                "blinded": BLINDED in done[tuple_id],
                "adjudicated": ADJUDICATION in done[tuple_id],
                "priority": self.priority.get(tuple_id, 0),
            }
            for tuple_id in self.catalog.tuple_ids()
        ]
        if self.priority:
            seeds.sort(key=lambda s: -s["priority"])
            tuples.sort(key=lambda t: -t["priority"])
        return self.render(request, "index.html", seeds=seeds, tuples=tuples, prioritised=bool(self.priority))

    def _state(self, reviewer: str, items: list[ReviewItem]) -> tuple[int, dict[str, dict[int, dict]]]:
        answers = {i.item_id: self.store.own_answers(reviewer, i.item_id, i.content_hash) for i in items}
        blinded_done = all(BLINDED in a for a in answers.values())
        adjudicated = all(ADJUDICATION in a for a in answers.values())
        page_round = BLINDED if not blinded_done else ADJUDICATION
        return (3 if adjudicated else page_round), answers

    def _neighbours(self, ids: list[str], current: str, prefix: str) -> dict[str, str | None]:
        position = ids.index(current)
        return {
            "previous": f"{prefix}{ids[position - 1]}" if position > 0 else None,
            "next": f"{prefix}{ids[position + 1]}" if position + 1 < len(ids) else None,
        }

    async def seed_page(self, request: Request) -> Response:
        seed_id = request.path_params["seed_id"]
        views = self.catalog.seed_view(seed_id)
        if views is None:
            return self.problem(request, 404, "unknown seed id")
        if request.method == "POST":
            return await self.submit(request, [v.item for v in views], request.url.path)
        stage, answers = self._state(request.state.reviewer.name, [v.item for v in views])
        return self.render(
            request,
            "seed.html",
            seed=views[0].episode,
            views=views,
            stage=stage,
            answers=answers,
            actions=ACTIONS,
            confidence=CONFIDENCE,
            submission=uuid.uuid4().hex,
            **self._neighbours(self.catalog.seed_ids(), seed_id, "/seed/"),
        )

    async def tuple_page(self, request: Request) -> Response:
        tuple_id = request.path_params["tuple_id"]
        view = self.catalog.tuple_view(tuple_id)
        if view is None:
            return self.problem(request, 404, "unknown tuple id")
        if request.method == "POST":
            return await self.submit(request, [view.item], request.url.path)
        stage, answers = self._state(request.state.reviewer.name, [view.item])
        return self.render(
            request,
            "tuple.html",
            view=view,
            stage=stage,
            answers=answers[view.item.item_id],
            confidence=CONFIDENCE,
            no_change=NO_CHANGE,
            submission=uuid.uuid4().hex,
            **self._neighbours(self.catalog.tuple_ids(), tuple_id, "/tuple/"),
        )

    async def submit(self, request: Request, items: list[ReviewItem], page: str) -> Response:
        form = await self.checked_form(request)
        if isinstance(form, Response):
            return form
        round_text, submission = form.get("round"), form.get("submission")
        if round_text not in ("1", "2") or not isinstance(submission, str) or not submission.isalnum():
            return self.problem(request, 400, "the form lacks its round or submission id")
        round = int(round_text)
        parsed, problems = [], []
        for item in items:
            answer, problem = self.parse_answer(form, item, round)
            if problem:
                problems.append(f"{item.item_id}: {problem}")
            parsed.append((item, answer))
        if problems:
            return self.problem(request, 400, "; ".join(problems))
        me: Reviewer = request.state.reviewer
        reviews = [
            {
                "submission": f"{submission}:{item.item_id}",
                "reviewer": me.name,
                "item_id": item.item_id,
                "item_kind": item.kind,
                "content_hash": item.content_hash,
                "round": round,
                "time_ms": answer.pop("time_ms"),
                "answer": answer,
            }
            for item, answer in parsed
        ]
        try:
            # one transaction: a form is stored whole or not at all, and acknowledged only once on disk
            self.store.record_many(reviews)
        except ReviewRefused as refused:
            return self.problem(request, 409, str(refused))
        return RedirectResponse(page, status_code=303)

    def parse_answer(self, form: FormData, item: ReviewItem, round: int) -> tuple[dict[str, Any], str | None]:
        """One item's answer from the form, or why it is incomplete or invalid."""
        key = item.item_id
        agree = round == ADJUDICATION and form.get(f"agree:{key}") == "on"
        ambiguous = form.get(f"ambiguous:{key}") == "on"
        comment = form.get(f"comment:{key}") or ""
        if not isinstance(comment, str) or len(comment) > MAX_COMMENT_CHARS:
            return {}, f"comment longer than {MAX_COMMENT_CHARS} characters"
        confidence_text = form.get(f"confidence:{key}") or ""
        if confidence_text and confidence_text not in {str(c) for c in CONFIDENCE}:
            return {}, "confidence must be 1-5"
        time_text = form.get(f"time_ms:{key}") or "0"
        time_ms = min(int(time_text), MAX_TIME_MS) if str(time_text).isdigit() else 0
        answer: dict[str, Any] = {
            "agree": agree if round == ADJUDICATION else None,
            "ambiguous": ambiguous,
            "comment": comment.strip(),
            "confidence": int(confidence_text) if confidence_text else None,
            "time_ms": time_ms,
        }
        if item.kind == EPISODE:
            actions = [a for a in form.getlist(f"actions:{key}") if isinstance(a, str)]
            answer["actions"] = [a for a in ACTIONS if a in actions]
            if actions and (problem := valid_action_set(actions)):
                return {}, problem
            given = bool(actions)
        else:
            direction = form.get(f"direction:{key}") or ""
            view = self.catalog.tuple_view(key)
            if direction and (view is None or direction not in view.options):
                return {}, "unknown direction"
            answer["direction"] = direction or None
            given = bool(direction)
        if not (given or agree or ambiguous):
            return {}, "choose an answer, agree with the reference, or mark it ambiguous"
        return answer, None

    async def stats_page(self, request: Request) -> Response:
        if request.state.reviewer.role != "admin":
            return self.problem(request, 403, "the statistics show every reviewer's answers: admins only")
        stats = agreement_stats(self.store.all_reviews(), self.catalog, n_boot=500)
        return self.render(request, "stats.html", stats=stats)

    async def not_found(self, request: Request, exc: Exception) -> Response:
        return self.problem(request, 404, "no such page")


def create_app(
    db: Path | str, catalog: Catalog, priority: dict[str, int] | None = None, max_body: int = MAX_BODY_BYTES
) -> ASGIApp:
    """The ASGI application (wrapped in :class:`Guard`) for a database and a catalog."""
    store = Store(db)
    review = ReviewApp(store, catalog, priority)
    routes = [
        Route("/login", review.login),
        Route("/", review.index),
        Route("/seed/{seed_id}", review.seed_page, methods=["GET", "POST"]),
        Route("/tuple/{tuple_id}", review.tuple_page, methods=["GET", "POST"]),
        Route("/stats", review.stats_page),
    ]
    app = Starlette(routes=routes, exception_handlers={404: review.not_found, 405: review.not_found})
    return Guard(app, store, max_body)
