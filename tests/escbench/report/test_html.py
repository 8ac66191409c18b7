"""``escbench report --html`` in a real browser (headless Chromium via playwright, offline).

The report of the scripted models of ``report_helpers`` is opened with every network request
blocked and recorded: it must render without console errors, attempt no request besides its own
file, show every figure (inline data URIs that decode), sort its tables on a header click, and link
every sample reference to Inspect View. A page with a planted remote image and a planted script
error shows that the same checks catch both.

Needs ``chromium`` (``apt-get install chromium``; never downloaded by playwright) and the
``playwright`` Python package (dev extra); skipped with that reason otherwise.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from report_helpers import write_paired_logs

from escbench_inspect.analysis.html import render_html
from escbench_inspect.cli import main as cli_main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the environment
    sync_playwright = None

needs_browser = pytest.mark.skipif(
    CHROMIUM is None or sync_playwright is None,
    reason="browser check of the HTML report needs chromium (apt-get install -y chromium) and "
    "playwright (pip install -e '.[dev]')",
)


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    logs = write_paired_logs(tmp_path_factory.mktemp("html_logs"))
    out = tmp_path_factory.mktemp("html_report")
    assert cli_main(["report", *logs.values(), "--out", str(out), "--html", "--bootstrap", "200"]) == 0
    return out


def test_html_is_self_contained(report_dir: Path) -> None:
    page = (report_dir / "report.html").read_text()
    figures = sorted(p.name for p in (report_dir / "figures").glob("*.png"))
    assert len(figures) == 4 and page.count('<img src="data:image/png;base64,') == 4
    assert not re.search(r"""(src|href)=["'](?!data:|#|http://127\.0\.0\.1:7575/)""", page)
    assert "default-src 'none'" in page  # the browser itself would refuse any fetch
    for heading in ("Leaderboard", "Table I", "Table II", "Table III", "Calibration", "Model vs model"):
        assert f">{heading}" in page, heading
    assert "Warning: partial coverage" in page


def test_remote_and_missing_images_are_never_fetched(tmp_path: Path) -> None:
    page = render_html("![x](https://example.com/x.png) ![y](figures/none.png)", tmp_path)
    assert "example.com" not in page.split("<body>")[1].split("data-missing")[0]
    assert page.count("data-missing=") == 2 and "<img src=" not in page


# --------------------------------------------------------------------------- in the browser


@pytest.fixture(scope="module")
def browser(report_dir: Path):
    """The browser, opened after the report is written: playwright's sync API keeps an event loop running in
    this thread while it is open, and writing the report runs Inspect's own loop, which cannot start inside it
    (under xdist a browser test could otherwise come first on a worker)."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield browser
        browser.close()


def open_offline(browser, path: Path):
    """Open ``path`` with every request but the page itself blocked; returns the page, the
    requests it attempted and its console errors."""
    context = browser.new_context(offline=True)
    page = context.new_page()
    own = path.resolve().as_uri()
    attempted: list[str] = []
    errors: list[str] = []

    def block(route) -> None:
        if route.request.url == own:
            route.continue_()
        else:
            if route.request.url not in attempted:  # the request event may have recorded it
                attempted.append(route.request.url)
            route.abort()

    context.route("**/*", block)
    page.on("request", lambda r: r.url not in (own, *attempted) and attempted.append(r.url))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(own, wait_until="load")
    return page, attempted, errors


def column(page, table_index: int, header: str) -> list[str]:
    return page.evaluate(
        """([t, header]) => {
            const table = document.querySelectorAll("table")[t];
            const i = [...table.tHead.rows[0].cells].findIndex(c => c.textContent.trim() === header);
            return [...table.tBodies[0].rows].map(r => r.cells[i].textContent.trim());
        }""",
        [table_index, header],
    )


def leading_number(cell: str) -> float:
    return float(re.match(r"[+\-−]?\d*\.?\d+(e[+\-]?\d+)?", cell).group(0).replace("−", "-"))


@needs_browser
def test_report_renders_offline_without_errors(browser, report_dir: Path) -> None:
    page, attempted, errors = open_offline(browser, report_dir / "report.html")
    assert attempted == [] and errors == []
    images = page.eval_on_selector_all("img", "els => els.map(e => [e.complete, e.naturalWidth])")
    assert len(images) == 4 and all(done and width > 100 for done, width in images)
    assert page.locator("h2").count() >= 10 and page.locator("nav a").count() == page.locator("h2").count()


@needs_browser
def test_tables_sort_on_header_click(browser, report_dir: Path) -> None:
    page, _, errors = open_offline(browser, report_dir / "report.html")
    leaderboard = 0  # the first table after the coverage list
    header = page.locator("table").nth(leaderboard).locator("th", has_text="Utility 5:1")
    header.click()
    ascending = [leading_number(c) for c in column(page, leaderboard, "Utility 5:1")]
    assert ascending == sorted(ascending) and len(ascending) >= 4
    header.click()
    descending = [leading_number(c) for c in column(page, leaderboard, "Utility 5:1")]
    assert descending == sorted(ascending, reverse=True)
    models = page.locator("table").nth(leaderboard).locator("th", has_text="Model")
    models.click()
    names = column(page, leaderboard, "Model")
    assert names == sorted(names, key=str) or names == sorted(names)
    assert errors == []


@needs_browser
def test_every_sample_reference_links_to_its_log_and_sample(browser, report_dir: Path) -> None:
    page, _, _ = open_offline(browser, report_dir / "report.html")
    links = page.eval_on_selector_all('a[href*="/samples/sample/"]', "els => els.map(e => e.href)")
    assert links, "no sample links"
    logs = {p.name for p in report_dir.parent.glob("html_logs*/*.eval")}
    pattern = re.compile(r"http://127\.0\.0\.1:7575/#/logs/([^/]+\.eval)/samples/sample/([^/]+)/(\d+)/")
    for link in links:
        found = pattern.fullmatch(link)
        assert found and found.group(1) in logs and "__late_risk" in found.group(2), link


@needs_browser
def test_checks_catch_a_remote_fetch_and_a_script_error(browser, report_dir: Path, tmp_path: Path) -> None:
    page = (report_dir / "report.html").read_text()
    broken = page.replace(
        "</body>",
        '<img src="https://example.com/tracker.png"><script>notDefined();</script></body>',
    ).replace("default-src 'none'; img-src data:", "default-src *; img-src *")
    (tmp_path / "broken.html").write_text(broken)
    _, attempted, errors = open_offline(browser, tmp_path / "broken.html")
    assert attempted == ["https://example.com/tracker.png"]
    assert any("notDefined" in e for e in errors)
