"""``escbench review``: serve the review app, add reviewers, export reviews and labels, agreement stats.

escbench review serve [--db FILE] [--host 127.0.0.1] [--port 8765] [--css-cases N] [--logs LOG…]
escbench review add-reviewer NAME [--admin] [--db FILE] [--url URL]
escbench review export [--db FILE] [--out FILE] [--labels [--adjudicator NAME]] [--format jsonl|label-studio]
escbench review import EXPORT.json [--db FILE]
escbench review stats [--db FILE] [--json] [--bootstrap N] [--seed N]
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import sys
from pathlib import Path

DEFAULT_DB = Path("escbench-review.sqlite3")
DEFAULT_PORT = 8765


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="review_command", required=True, metavar="ACTION")

    def with_db(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sub.add_argument(
            "--db", type=Path, default=DEFAULT_DB, help=f"review database (default: {DEFAULT_DB})"
        )
        return sub

    serve = with_db(commands.add_parser("serve", help="serve the review web app"))
    serve.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT)
    serve.add_argument(
        "--css-cases",
        type=int,
        default=None,
        help="CSS tuples of the first N cases only (default: all; 0: none)",
    )
    serve.add_argument(
        "--logs",
        nargs="*",
        default=[],
        help=".eval logs: order items by how many models disagree with the reference",
    )
    add = with_db(
        commands.add_parser("add-reviewer", help="register a reviewer and print their personal link")
    )
    add.add_argument("name")
    add.add_argument("--admin", action="store_true", help="may see the statistics page (everyone's answers)")
    add.add_argument("--url", default=f"http://127.0.0.1:{DEFAULT_PORT}", help="the server's address")
    export = with_db(
        commands.add_parser("export", help="write every review (or adjudicated labels) as JSONL")
    )
    export.add_argument("--out", type=Path, help="output file (default: stdout)")
    export.add_argument("--labels", action="store_true", help="adjudicated labels with provenance")
    export.add_argument("--adjudicator", help="reviewer whose adjudication breaks ties")
    export.add_argument("--format", choices=("jsonl", "label-studio"), default="jsonl")
    imported = with_db(commands.add_parser("import", help="read a Label Studio annotation export"))
    imported.add_argument("export", type=Path)
    stats = with_db(
        commands.add_parser("stats", help="agreement: Cohen's, Fleiss' kappa, Krippendorff's alpha")
    )
    stats.add_argument("--json", action="store_true", help="print the full statistics as JSON")
    stats.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (default 1000)")
    stats.add_argument("--seed", type=int, default=0)


def _catalog_for(rows: list[dict]):
    """A catalog holding every reviewed item (CSS plans only for the reviewed cases: quick)."""
    from escbench_inspect.review.items import TUPLE, Catalog

    cases = sorted({r["item_id"].split("__", 1)[0] for r in rows if r["item_kind"] == TUPLE})
    return Catalog(css_cases=cases or 0)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from escbench_inspect.review.app import create_app
    except ImportError as error:
        print(f"escbench review serve: needs the review extra (pip install 'escbench[review]'): {error}")
        return 1
    from escbench_inspect.review.items import Catalog
    from escbench_inspect.review.priority import model_disagreements

    if not _is_loopback(args.host):
        print(
            f"warning: serving on {args.host}, beyond this machine: anyone who can reach it and holds a "
            "review link can answer; put TLS in front (links carry the token)",
            file=sys.stderr,
        )
    print("loading the items (every CSS tuple takes a while; --css-cases N for fewer) …", flush=True)
    catalog = Catalog(css_cases=args.css_cases)
    priority = model_disagreements(args.logs, catalog) if args.logs else None
    print(
        f"{len(catalog.seed_episodes)} seeds, {len(catalog.episodes)} episodes, {len(catalog.tuple_ids())} "
        f"CSS tuples; database {args.db}; http://{args.host}:{args.port}/ "
        "(links: escbench review add-reviewer)",
        flush=True,
    )
    uvicorn.run(create_app(args.db, catalog, priority), host=args.host, port=args.port, log_level="warning")
    return 0


def run(args: argparse.Namespace) -> int:
    from escbench_inspect.review.store import ReviewRefused, Store

    if args.review_command == "serve":
        return _serve(args)
    if args.review_command != "import" and args.review_command != "add-reviewer" and not args.db.exists():
        print(f"escbench review {args.review_command}: no database at {args.db}")
        return 1
    store = Store(args.db)
    if args.review_command == "add-reviewer":
        try:
            token = store.add_reviewer(args.name, "admin" if args.admin else "reviewer")
        except ReviewRefused as refused:
            print(f"escbench review add-reviewer: {refused}")
            return 1
        print(f"{args.url.rstrip('/')}/login?token={token}")
        return 0
    if args.review_command == "import":
        from escbench_inspect.review.label_studio import LabelStudioError, import_annotations

        try:
            added, skipped = import_annotations(store, args.export)
        except LabelStudioError as error:
            print(f"escbench review import: {error}")
            return 1
        print(f"imported {added} reviews ({skipped} already present) into {args.db}")
        return 0
    rows = store.all_reviews()
    catalog = _catalog_for(rows)
    if args.review_command == "stats":
        from escbench_inspect.review.analysis import agreement_stats

        stats = agreement_stats(rows, catalog, n_boot=args.bootstrap, seed=args.seed)
        print(json.dumps(stats, indent=2) if args.json else _stats_text(stats))
        return 0
    return _export(args, store, rows, catalog)


def _export(args: argparse.Namespace, store, rows: list[dict], catalog) -> int:
    from escbench_inspect.review.analysis import adjudicated_labels, export_rows

    if args.format == "label-studio":
        from escbench_inspect.review.label_studio import export_tasks

        if args.out is None:
            print("escbench review export --format label-studio: needs --out DIR")
            return 1
        full = type(catalog)()  # every item, not only the reviewed ones
        tasks, config = export_tasks(full, args.out)
        print(f"wrote {tasks} Label Studio tasks and {config}")
        return 0
    if args.labels:
        names = {r.name for r in store.reviewers()}
        if args.adjudicator and args.adjudicator not in names:
            print(f"escbench review export: unknown adjudicator {args.adjudicator!r}")
            return 1
        records = adjudicated_labels(rows, catalog, args.adjudicator)
    else:
        records = export_rows(rows, catalog)
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {len(records)} lines to {args.out}")
    return 0


def _stats_text(stats: dict) -> str:
    def num(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    lines = [
        f"{stats['reviews']} reviews ({stats['stale_reviews']} stale), {stats['blinded_answers']} blinded "
        f"answers, {stats['adjudications']} adjudications"
    ]
    for kind, section in stats["kinds"].items():
        lines.append(f"\n{kind}s:")
        for name, r in section["reviewers"].items():
            lines.append(f"  {name}: {r['items']} items, Cohen's kappa vs reference {num(r['cohen_kappa'])}")
        b = section["between"]
        lines.append(
            f"  between reviewers: Fleiss' kappa {num(b['fleiss_kappa'])} "
            f"[{num(b['fleiss_kappa_ci'][0])}, {num(b['fleiss_kappa_ci'][1])}] ({b['items_fleiss']} items), "
            f"Krippendorff's alpha {num(b['krippendorff_alpha'])} "
            f"[{num(b['krippendorff_alpha_ci'][0])}, {num(b['krippendorff_alpha_ci'][1])}] "
            f"({b['items_alpha']} items)"
        )
        for attribute, values in section["by"].items():
            for value, s in values.items():
                lines.append(
                    f"  {attribute}={value}: kappa vs reference {num(s['versus_reference']['cohen_kappa'])}, "
                    f"alpha {num(s['between']['krippendorff_alpha'])}"
                )
    lines.append(f"\ncontested items: {len(stats['contested'])}")
    lines += [
        f"  {c['item_id']}: reference {c['reference']}; blinded {c['blinded']}; "
        f"{c['against_reference']} against"
        for c in stats["contested"][:20]
    ]
    return "\n".join(lines)
