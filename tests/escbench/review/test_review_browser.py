"""The review app in a real browser: Debian's Chromium driven by playwright (no browser download).

Marked slow (CI runs them in its slow step). Skipped with a reason when /usr/bin/chromium or
playwright is missing; CI installs both and sets ESCBENCH_REQUIRE_BROWSER=1, which turns the skip
into a failure so the tests cannot silently not run. Screenshots go to $ESCBENCH_SCREENSHOTS.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from review_helpers import start_server, stop

from escbench_inspect.review.store import Store

CHROMIUM = Path("/usr/bin/chromium")
# a server subprocess and a browser: ~1 min on two shared cores; CI's slow step runs them
pytestmark = pytest.mark.slow


def _browser_or_skip():
    problem = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problem = "playwright is not installed (pip install playwright; the dev extra has it)"
    if problem is None and not CHROMIUM.exists():
        problem = f"{CHROMIUM} is missing (apt-get install -y chromium)"
    if problem:
        if os.environ.get("ESCBENCH_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests are required here: {problem}")
        pytest.skip(problem)
    return sync_playwright


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    sync_playwright = _browser_or_skip()
    db = tmp_path_factory.mktemp("browser") / "review.sqlite3"
    store = Store(db)
    tokens = {"alice": store.add_reviewer("alice"), "boss": store.add_reviewer("boss", "admin")}
    process, base = start_server(db, css_cases=1)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield {"db": db, "base": base, "tokens": tokens, "browser": browser}
        finally:
            browser.close()
            stop(process)


def _shot(page, name: str) -> None:
    folder = os.environ.get("ESCBENCH_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=False)


def _page(server, name: str):
    context = server["browser"].new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.goto(f"{server['base']}/login?token={server['tokens'][name]}")
    return page


def test_a_reviewer_logs_in_reviews_a_seed_blinded_then_adjudicates_by_keyboard(server, catalog) -> None:
    page = _page(server, "alice")
    assert page.url == server["base"] + "/"
    seed_id = catalog.seed_ids()[0]
    page.click(f"text={seed_id}")
    assert page.locator("#stage").get_attribute("data-stage") == "1"
    assert page.locator("[data-role=reference]").count() == 0
    assert page.locator(".card").count() == 10 and page.locator(".card mark").count() > 0
    for index in range(10):  # per episode: Ask_Clarification, confidence 3 then 4, next
        assert page.locator(".card").nth(index).get_attribute("class") == "card focus"
        page.keyboard.press("2")
        page.keyboard.press("]")
        page.keyboard.press("]")
        if index == 0:
            page.keyboard.press("x")
            page.keyboard.press("c")
            page.keyboard.type("Late message wording is <b>odd</b> & vague")
            page.keyboard.press("Escape")
        page.keyboard.press("j")
    page.wait_for_timeout(300)  # some time on the page
    page.keyboard.press("s")
    page.wait_for_selector("#stage[data-stage='2']")
    assert page.locator("[data-role=reference]").count() == 10
    _shot(page, "seed_adjudication")
    assert (
        "Late message wording is <b>odd</b> & vague"
        in page.locator("[data-role=own-comment]").first.inner_text()
    )
    for _ in range(10):
        page.keyboard.press("y")
        page.keyboard.press("j")
    page.keyboard.press("s")
    page.wait_for_selector("#stage[data-stage='3']")
    page.keyboard.press("n")
    page.wait_for_url(f"**/seed/{catalog.seed_ids()[1]}")
    rows = [r for r in Store(server["db"]).all_reviews() if r["item_id"].startswith(seed_id + "__")]
    blinded = [r for r in rows if r["round"] == 1]
    adjudicated = [r for r in rows if r["round"] == 2]
    assert len(blinded) == 10 and len(adjudicated) == 10
    assert {tuple(r["answer"]["actions"]) for r in blinded} == {("Ask_Clarification",)}
    assert {r["answer"]["confidence"] for r in blinded} == {4}
    assert sum(r["answer"]["ambiguous"] for r in blinded) == 1
    assert all(r["answer"]["agree"] for r in adjudicated)
    assert all(r["time_ms"] > 0 for r in rows)  # time per item is measured in the page


def test_a_css_tuple_shows_its_highlighted_mutation(server, catalog) -> None:
    page = _page(server, "alice")
    tuple_id = catalog.tuple_ids()[0]
    page.goto(f"{server['base']}/tuple/{tuple_id}")
    mutated = page.locator("mark.mutation[data-arm=mutated]")
    assert mutated.count() >= 1 and mutated.first.is_visible()
    background = mutated.first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background == "rgb(255, 180, 162)"
    changed = " ".join(mutated.all_inner_texts())
    view = catalog.tuple_view(tuple_id)
    assert any(
        s.changed and s.text.strip() in changed for _, _, m, _ in view.sections for s in m if s.text.strip()
    )
    page.locator("details.changed-section summary").first.click()  # sections collapse
    assert page.locator("details.changed-section").first.get_attribute("open") is None
    page.locator("details.changed-section summary").first.click()
    _shot(page, "css_tuple")
    assert page.locator("#consensus").count() == 0
    page.keyboard.press("1")
    page.keyboard.press("s")
    page.wait_for_selector("#consensus")
    assert view.item.reference in page.locator("#consensus").inner_text()


def test_the_stats_page_for_an_admin(server, catalog) -> None:
    page = _page(server, "boss")
    page.goto(f"{server['base']}/seed/{catalog.seed_ids()[0]}")
    for _ in range(10):
        page.keyboard.press("1")
        page.keyboard.press("j")
    page.keyboard.press("s")
    page.wait_for_selector("#stage[data-stage='2']")
    page.goto(f"{server['base']}/stats")
    assert "Fleiss" in page.content() and page.locator("#contested tr").count() > 1
    _shot(page, "stats")
