"""``escbench report``: the paper's tables, statistics and figures from escalation logs alone.

    escbench report LOG_DIR_OR_FILES… --out DIR [--split test|dev|all] [--seed N] [--bootstrap N]
                    [--benchmarks all|escalation]

States coverage first (episodes, seeds, classes run of those in the split; a warning when partial;
intervals and tests "n/a" below two seeds) and ends with every input not used and why.

Groups decisions by model, prompt condition and controller ablation (``model`` = the model's own
action, scored by ``escalation_scorer``; other names come from controller scorers) and writes
``report.md``, one CSV per table, the PNG figures and ``report.json`` with every number. Methods are
in ``docs/report.md`` and :mod:`escbench_inspect.analysis.stats`.

Other escbench benchmarks add their own section through :data:`SECTION_HOOKS` (see
:func:`register_section`); the CSS report is one such hook.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from escbench_inspect import progress
from escbench_inspect.analysis.markdown import render_markdown, report_numbers
from escbench_inspect.analysis.results import (
    ERRORED_POLICIES,
    SECTION_HOOKS,
    SPLIT_CHOICES,
    Report,
    ReportOptions,
    _load_hook,
    build_report,
)

TABLE_FILES = {
    "table1_escalation.csv": "table1",
    "table2_accuracy_by_variant.csv": "table2",
    "table3_actions_escalation_required.csv": "table3",
    "calibration.csv": "calibration",
    "significance.csv": "significance",
    "figure1_late_risk_sensitivity.csv": "late_risk",
    "counts.csv": "counts",
    "coverage.csv": "coverage",
}
COMPARISON_FILES = {  # model vs model (analysis.compare), attribute of report.comparisons
    "model_comparisons.csv": "pairs",
    "model_mcnemar.csv": "mcnemar",
    "model_comparisons_by_stratum.csv": "strata",
    "model_disagreements.csv": "disagreements",
    "model_ranking.csv": "ranking",
    "model_comparisons_refused.csv": "refused",
}


def write_report(report: Report, out_dir: Path, figures: bool = True, html: bool = False) -> list[Path]:
    """Write report.md, the CSVs, the PNGs and report.json (and report.html with ``html``);
    returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if figures and report.groups:
        from escbench_inspect.analysis.figures import write_figures

        progress.note(f"drawing the figures into {out_dir}")
        report.figures = write_figures(report, out_dir)
        written += [out_dir / p for p in report.figures.values()]
    report.sections = sections = [
        _load_hook(SECTION_HOOKS[benchmark])(paths, out_dir)
        for benchmark, paths in progress.steps(list(report.hooked.items()), "other benchmarks' sections")
    ]
    for filename, attribute in TABLE_FILES.items():
        path = out_dir / filename
        getattr(report, attribute).to_csv(path, index=False)
        written.append(path)
    for filename, attribute in COMPARISON_FILES.items() if report.comparisons is not None else ():
        path = out_dir / filename
        getattr(report.comparisons, attribute).to_csv(path, index=False)
        written.append(path)
    for section in sections:
        for name, table in section.tables.items():
            path = out_dir / f"{name}.csv"
            table.to_csv(path, index=False)
            written.append(path)
    markdown = render_markdown(report, sections)
    (out_dir / "report.md").write_text(markdown, encoding="utf-8")
    if html:
        from escbench_inspect.analysis.html import render_html

        (out_dir / "report.html").write_text(render_html(markdown, out_dir), encoding="utf-8")
        written.append(out_dir / "report.html")
    (out_dir / "report.json").write_text(
        json.dumps(report_numbers(report, sections), indent=2, allow_nan=False) + "\n",
        encoding="utf-8",
    )
    return [out_dir / "report.md", out_dir / "report.json", *written]


def generate_report(
    inputs: list[str],
    out_dir: Path,
    options: ReportOptions | None = None,
    figures: bool = True,
    html: bool = False,
) -> Report:
    """Read the logs and write the full report into ``out_dir``."""
    report = build_report(inputs, options or ReportOptions())
    write_report(report, out_dir, figures=figures, html=html)
    return report


# --------------------------------------------------------------------------- CLI


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="LOG_DIR_OR_FILE", help="Inspect logs or directories")
    parser.add_argument("--out", required=True, type=Path, help="output directory")
    parser.add_argument(
        "--split", choices=SPLIT_CHOICES, default="test", help="episodes to report (default: test)"
    )
    parser.add_argument("--seed", type=int, default=0, help="bootstrap random seed (default: 0)")
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=2000,
        help="bootstrap resamples of seeds (default: 2000; 0 = no CIs)",
    )
    parser.add_argument(
        "--errored",
        choices=ERRORED_POLICIES,
        default="invalid",
        help="errored samples count as wrong non-escalations (default) or are excluded",
    )
    parser.add_argument(
        "--condition",
        default="uncertainty",
        help="prompt condition of the significance tests (default: uncertainty)",
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (default: 0.05)")
    parser.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    parser.add_argument(
        "--labels",
        help="score against an adjudicated labels file (escbench review export --labels); its sha256 is "
        "recorded in the report",
    )
    parser.add_argument(
        "--html", action="store_true", help="also write report.html: one self-contained file (figures inline)"
    )
    parser.add_argument(
        "--benchmarks",
        choices=("all", "escalation"),
        default="all",
        help="all: other escbench benchmarks' logs (CSS) get their section (default); "
        "escalation: they are listed as skipped",
    )


def run(args: argparse.Namespace) -> int:
    if args.bootstrap < 0:
        print("escbench report: --bootstrap must be >= 0")
        return 2
    if args.labels:
        from escbench_inspect.review.labels import LabelsFileError, load_labels

        try:
            load_labels(args.labels)
        except LabelsFileError as error:
            print(f"escbench report: {error}")
            return 2
    progress.enable()
    options = ReportOptions(
        split=args.split,
        seed=args.seed,
        n_boot=args.bootstrap,
        errored=args.errored,
        alpha=args.alpha,
        condition=args.condition,
        benchmarks=args.benchmarks,
        labels=args.labels,
    )
    start = time.perf_counter()
    report = generate_report(args.logs, args.out, options, figures=not args.no_figures, html=args.html)
    elapsed = time.perf_counter() - start
    for skipped in report.loaded.skipped:
        print(f"skipped {skipped['path']}: {skipped['reason']}")
    for note in report.notes:
        print(f"note: {note}")
    for _, c in report.coverage[report.coverage["partial"]].iterrows() if len(report.coverage) else []:
        print(
            f"warning: partial coverage: {c['model']} / {c['prompt']}: {c['episodes']} of "
            f"{c['split_episodes']} {options.split} episodes, {c['seeds']} of {c['split_seeds']} seeds"
        )
    sections = ", ".join(s.title for s in report.sections)
    if not report.groups:
        if report.sections:
            print(
                f"escbench report: no {options.split}-split escalation decisions in the inputs; "
                f"wrote {args.out / 'report.md'} with the section(s): {sections}"
            )
            return 0
        print(
            f"escbench report: no {options.split}-split escalation decisions found in the inputs; "
            f"wrote an empty report to {args.out}"
        )
        return 1
    decisions = int(report.counts["episodes"].sum())
    print(
        f"wrote {args.out / 'report.md'}{' and report.html' if args.html else ''}: "
        f"{len(report.groups)} group(s), {decisions} decisions"
        + (f", section(s): {sections}" if sections else "")
        + f", in {elapsed:.1f} s"
    )
    return 0
