"""``escbench report --html``: the report as one self-contained HTML file.

The HTML is ``report.md`` rendered by markdown-it-py (raw HTML in the Markdown is escaped, so text
from logs cannot inject markup), with every figure inlined as a base64 ``data:`` URI, a small inline
script that sorts any table by a click on its header, and inline CSS. It loads nothing from the
network or the disk: it can be mailed or opened offline. Sample references are links into Inspect
View (``inspect view --log-dir …``), which only a click follows.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from markdown_it import MarkdownIt

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto;
       max-width: 1400px; padding: 1em 2em; color: #1d1d1f; }
h1 { font-size: 1.7em; } h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; margin-top: 2em; }
nav { background: #f6f8fa; padding: .6em 1em; border-radius: 6px; columns: 3; }
nav a { display: block; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 12.5px; display: block;
        overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: 3px 7px; text-align: left; vertical-align: top; }
th { white-space: nowrap; } td { min-width: 3em; }
th { background: #f0f3f6; cursor: pointer; user-select: none; position: sticky; top: 0; }
th[aria-sort="ascending"]::after { content: " \\25B2"; }
th[aria-sort="descending"]::after { content: " \\25BC"; }
tbody tr:nth-child(even) { background: #fafbfc; }
tbody tr:hover { background: #fff8c5; }
blockquote { border-left: 4px solid #d4a72c; background: #fff8e6; margin: 1em 0; padding: .4em 1em; }
img { max-width: 100%; border: 1px solid #eee; }
code { background: #f0f3f6; padding: 0 3px; border-radius: 3px; }
"""

# Sorting by a header click: numbers (the first number in a cell, so "0.41 [0.30, 0.52]" sorts by
# 0.41) numerically, other cells as text; "–"/"n/a" cells last. No library does this inline.
SCRIPT = """
(function () {
  function key(cell) {
    var text = cell.textContent.trim();
    var m = text.match(/^[+\\-\\u2212]?\\d*\\.?\\d+(e[+\\-]?\\d+)?/i);
    return m ? {n: parseFloat(m[0].replace("\\u2212", "-")), t: text} : {n: null, t: text};
  }
  function sortBy(table, column, th) {
    var body = table.tBodies[0];
    if (!body) return;
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[column]), y = key(b.cells[column]);
      if (x.n === null && y.n === null) return ascending ? x.t.localeCompare(y.t) : y.t.localeCompare(x.t);
      if (x.n === null) return 1;
      if (y.n === null) return -1;
      return ascending ? x.n - y.n : y.n - x.n;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  document.querySelectorAll("table").forEach(function (table) {
    if (!table.tHead) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.title = "click to sort";
      th.addEventListener("click", function () { sortBy(table, i, th); });
    });
  });
})();
"""

# The browser itself refuses any fetch: only inline styles, the inline script and data: images.
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
_IMAGE = re.compile(r'<img src="([^"]+)"')
_HEADING = re.compile(r"<h2>(.*?)</h2>")


def _inline_images(body: str, base: Path) -> str:
    """Replace every relative ``<img src>`` by the file's bytes as a data URI (a missing file
    keeps no src at all, so the browser fetches nothing)."""

    def replace(match: re.Match) -> str:
        src = html.unescape(match.group(1))
        if src.startswith("data:"):
            return match.group(0)
        path = base / src
        if not path.is_file() or src.startswith(("http:", "https:", "//")):
            return f'<img data-missing="{html.escape(src)}"'
        mime = "image/svg+xml" if path.suffix == ".svg" else f"image/{path.suffix.lstrip('.').lower()}"
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return f'<img src="data:{mime};base64,{data}"'

    return _IMAGE.sub(replace, body)


def _anchors(body: str) -> tuple[str, list[tuple[str, str]]]:
    """Give every h2 an id and return (id, title) for the table of contents."""
    found: list[tuple[str, str]] = []

    def replace(match: re.Match) -> str:
        anchor = f"s{len(found) + 1}"
        found.append((anchor, re.sub(r"<[^>]+>", "", match.group(1))))
        return f'<h2 id="{anchor}">{match.group(1)}</h2>'

    return _HEADING.sub(replace, body), found


def render_html(markdown: str, base: Path, title: str = "escbench report") -> str:
    """One self-contained HTML document from the report's Markdown (figures relative to ``base``)."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    body = _inline_images(md.render(markdown), base).replace("&lt;br&gt;", "<br>")  # lines in a cell
    body = body.replace("<a href=", '<a target="_blank" rel="noopener" href=')
    body, sections = _anchors(body)
    nav = "<nav>" + "".join(f'<a href="#{anchor}">{text}</a>' for anchor, text in sections) + "</nav>"
    head, _, rest = body.partition("</h1>")
    body = f"{head}</h1>\n{nav}{rest}" if rest else nav + head
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:,">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
        f"{body}\n<script>{SCRIPT}</script>\n</body></html>\n"
    )
