"""``escbench css``: counts, rejudge, agreement and report over CSS logs.

escbench css counts [--chart-length short]
escbench css audit [--chart-length short ...]
escbench css rejudge LOG --grader PROVIDER/MODEL [--out PATH] [--allow-self-judge] [--no-cms]
escbench css agreement --judge-a LOG... --judge-b LOG... [--human CSV]
escbench css report LOG_OR_DIR... [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import Counter
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="css_command", required=True, metavar="ACTION")
    counts = sub.add_parser("counts", help="Cases, tuples per intervention, exclusions, lengths.")
    counts.add_argument("--chart-length", default="short")
    audit = sub.add_parser("audit", help="Text-level validator over the emitted tuples, per chart length.")
    audit.add_argument("--chart-length", nargs="+", default=["short", "medium", "long", "xlong"])
    rejudge = sub.add_parser(
        "rejudge",
        help="Re-judge a log with another grader; needs only the grader's credentials.",
    )
    rejudge.add_argument("log")
    rejudge.add_argument("--grader", required=True, help="provider/model for the grader role")
    rejudge.add_argument(
        "--out",
        help="output log (default: <input stem>.rejudged-<grader>.eval next to the input, "
        "which is not modified); it keeps the old judge's scores beside the new ones",
    )
    rejudge.add_argument("--allow-self-judge", action="store_true")
    rejudge.add_argument("--no-cms", action="store_true", help="re-judge CSS only")
    agreement = sub.add_parser("agreement", help="Kappa between judges, rho of model rankings.")
    agreement.add_argument("--judge-a", nargs="+", required=True, help="logs scored by judge A")
    agreement.add_argument("--judge-b", nargs="*", default=[], help="same runs, judge B")
    agreement.add_argument("--human", help="CSV sample_id,rater,score for LLM-vs-majority kappa")
    report = sub.add_parser("report", help="CSS vs CMS per model, both rankings and rho.")
    report.add_argument("logs", nargs="+", help="CSS logs or directories of logs (other logs are skipped)")
    report.add_argument("--out", help="directory for css_report.csv / .md / .json")


def _fmt(value: float) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"


def run_counts(args: argparse.Namespace) -> int:
    from escbench_inspect.css.dataset import chart_sections, exclusions, plan_tuples, validate_params
    from escbench_inspect.css.render import render_chart

    selection = validate_params(chart_length=args.chart_length)
    plans, reasons = plan_tuples(selection)
    per_iv = Counter(p.intervention_id for p in plans)
    lengths = [len(render_chart(chart_sections(c, None, args.chart_length))) for c in selection.case_ids]
    print(
        f"cases in corpus: {len(selection.case_ids)}; cases with >=1 tuple: "
        f"{len({p.case_id for p in plans})}; tuples: {len(plans)}"
    )
    for iv_id in selection.interventions:
        print(f"  {iv_id:40s} {per_iv.get(iv_id, 0):4d}")
    print("excluded by reason:")
    for reason, count in sorted(reasons.items()):
        print(f"  {reason:40s} {count:4d}")
    by_iv = Counter((iv, reason) for _, iv, reason in exclusions(selection))
    for (iv_id, reason), count in sorted(by_iv.items()):
        print(f"    {iv_id} / {reason}: {count}")
    print(
        f"baseline chart length ({args.chart_length}), characters: median "
        f"{statistics.median(lengths):.0f}, min {min(lengths)}, max {max(lengths)}"
    )
    return 0


def run_audit(args: argparse.Namespace) -> int:
    from escbench_inspect import progress
    from escbench_inspect.css.dataset import exclusions, text_audit, validate_params

    progress.enable()
    selection = validate_params()
    text_excluded = Counter(r for _, _, r in exclusions(selection) if r.startswith("chart:"))
    print(f"tuples excluded by the text-level validator (any length): {sum(text_excluded.values())}")
    for reason, count in sorted(text_excluded.items()):
        print(f"  {reason:48s} {count:4d}")
    for length, counts in text_audit(selection, args.chart_length).items():
        print(f"violations in emitted tuples at {length}: {sum(counts.values())}")
        for reason, count in sorted(counts.items()):
            print(f"  {reason:48s} {count:4d}")
    _print_issue21_audit(selection, args.chart_length)
    return 0


def _print_issue21_audit(selection, lengths: list[str]) -> None:
    """Minimality of every emitted pair and plausibility of every chart, per chart length."""
    from escbench_inspect.css.dataset import plan_tuples
    from escbench_inspect.css.minimality import minimality_audit
    from escbench_inspect.css.plausibility import plausibility_audit

    plans, _ = plan_tuples(selection)
    print(
        f"emitted: {len(plans)} tuples from {len({p.case_id for p in plans})} cases "
        f"(family D: {sum(p.family == 'D' for p in plans)})"
    )
    for length, counts in minimality_audit(plans, lengths).items():
        print(f"minimality violations (both arms diffed) at {length}: {sum(counts.values())}")
        for reason, count in sorted(counts.items()):
            print(f"  {reason:48s} {count:4d}")
    for length, counts in plausibility_audit(plans, lengths).items():
        print(f"plausibility violations (charts, both arms) at {length}: {sum(counts.values())}")
        for check, count in sorted(counts.items()):
            print(f"  {check:48s} {count:4d}")
    from escbench_inspect.css.generator import case_by_id
    from escbench_inspect.css.render import render_chart, render_sections
    from escbench_inspect.css.textstats import masked_sentence_reuse

    cases = sorted({p.case_id for p in plans})
    for length in lengths:
        charts = {
            cid: (cid.rsplit("-", 1)[0], render_chart(render_sections(case_by_id(cid), length)))
            for cid in cases
        }
        stats = masked_sentence_reuse(charts)
        print(
            f"masked-sentence reuse at {length} (baseline charts): {stats['reuse']:.1%} of a chart's "
            f"sentences appear in another chart of the same cancer, {stats['shared_by_half']:.1%} in half of "
            f"them; {stats['self_repeat']:.1%} repeat within the chart"
        )


def run_rejudge(args: argparse.Namespace) -> int:
    from inspect_ai.log import read_eval_log

    from escbench_inspect.css.agreement import CMS_SCORER, CSS_SCORER, latest_judge, rejudge

    started = time.perf_counter()
    target = rejudge(args.log, args.grader, args.out, args.allow_self_judge, cms=not args.no_cms)
    log = read_eval_log(str(target))
    added = [latest_judge(log, CSS_SCORER)] + ([] if args.no_cms else [latest_judge(log, CMS_SCORER)])
    print(
        f"re-judged log written to {target}: added {', '.join(added)} by {args.grader} "
        f"({len(log.samples or [])} samples, model {log.eval.model} not called) "
        f"in {time.perf_counter() - started:.2f} s"
    )
    return 0


def run_agreement(args: argparse.Namespace) -> int:
    from escbench_inspect.analysis.logs import read_log
    from escbench_inspect.css.agreement import (
        human_agreement,
        judge_agreement,
        read_human_ratings,
        sample_scores,
        spearman_rho,
        summarize,
    )

    logs_a = [read_log(p) for p in args.judge_a]
    logs_b = [read_log(p) for p in args.judge_b]
    if logs_b:
        if len(logs_b) != len(logs_a):
            raise SystemExit("--judge-a and --judge-b need the same runs, in the same order")
        pooled_a, pooled_b = {}, {}
        for la, lb in zip(logs_a, logs_b, strict=True):
            model = str(la.eval.model)
            pooled_a.update({f"{model}:{k}": v for k, v in sample_scores(la).items()})
            pooled_b.update({f"{model}:{k}": v for k, v in sample_scores(lb).items()})
        kappa, n = judge_agreement(pooled_a, pooled_b)
        print(f"Cohen's kappa between judges on {{0, 0.5, 1}}: {kappa:.3f} (n={n})")
        if len(logs_a) >= 2:
            css_a = [summarize(log).css for log in logs_a]
            css_b = [summarize(log).css for log in logs_b]
            print(
                f"Spearman rho of model CSS rankings (judge A vs B): "
                f"{spearman_rho(css_a, css_b):.3f} over {len(css_a)} models"
            )
    if args.human:
        human = read_human_ratings(args.human)
        for log in logs_a:
            result = human_agreement(sample_scores(log), human)
            print(
                f"{log.eval.model}: LLM-vs-human-majority kappa {result['kappa']:.3f} "
                f"(n={result['n']}, exact {result['exact']}, human ties {result['human_ties']})"
            )
    return 0


def run_report(args: argparse.Namespace) -> int:
    from escbench_inspect.analysis.logs import CSS_BENCHMARK, logs_by_benchmark
    from escbench_inspect.css.report import css_markdown, css_table

    found, skipped = logs_by_benchmark(args.logs)
    for benchmark, paths in sorted(found.items()):
        if benchmark != CSS_BENCHMARK:
            skipped += [
                {"path": p, "reason": f"not a CSS log ({benchmark}; use escbench report)"} for p in paths
            ]
    for item in skipped:
        print(f"skipped {item['path']}: {item['reason']}")
    if not found.get(CSS_BENCHMARK):
        print("escbench css report: no CSS logs among the inputs")
        return 1
    table, rho = css_table(found[CSS_BENCHMARK])
    text = css_markdown(table, rho)
    print(text)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "css_report.md").write_text(text, encoding="utf-8")
        table.to_csv(out / "css_report.csv", index=False)
        payload = {"rows": table.to_dict(orient="records"), "spearman_rho": rho}
        (out / "css_report.json").write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
        print(f"written to {out}")
    return 0


def run(args: argparse.Namespace) -> int:
    return {
        "counts": run_counts,
        "audit": run_audit,
        "rejudge": run_rejudge,
        "agreement": run_agreement,
        "report": run_report,
    }[args.css_command](args)
