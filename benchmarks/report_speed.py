"""Time ``escbench report`` beside loading the same logs into ``inspect_ai.analysis.samples_df``.

Without ``--logs`` it first writes scripted mockllm logs (not timed): ``--models`` synthetic
profiles x both prompt conditions over the test split, each log scored by ``escalation_scorer``
and a stand-in controller scorer (named ``stand_in``; same score contract as the real controller).
Then, in this process after all imports, it times ``--repeats`` times each:

- ``samples_df(logs)`` with Inspect's default columns (the floor: reading the logs at all);
- the report: reading decisions, statistics (``--bootstrap`` seed resamples) and writing
  report.md/CSV/JSON, with and without the four PNG figures;

and prints the medians and the ratio report / samples_df.

Usage: ``python benchmarks/report_speed.py [--logs DIR] [--models 3] [--repeats 3] [--keep DIR] [--html]``
(``--keep`` leaves the generated logs and the last report there, e.g. to look at the figures).
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from inspect_ai import eval, task_with
from inspect_ai.analysis import samples_df
from inspect_ai.scorer import Score, Target, scorer
from inspect_ai.solver import TaskState

from escbench_inspect.analysis.report import write_report
from escbench_inspect.analysis.results import ReportOptions, build_report
from escbench_inspect.datasets.escalation import select_episodes
from escbench_inspect.datasets.render import render_blocks
from escbench_inspect.datasets.schema import Action
from escbench_inspect.offline import ensure_tiktoken_cache
from escbench_inspect.scorers.escalation import decision_score, escalation_metrics
from escbench_inspect.scorers.parse import Decision, parse_decision
from escbench_inspect.tasks import escalation_task
from escbench_inspect.testing import decision_json, last_user_text, scripted_model


@dataclass(frozen=True)
class Profile:
    """A synthetic model: how often it escalates when required, else how it errs."""

    name: str
    p_escalate: float  # on escalation-required episodes
    p_escalate_late: float  # on late-risk escalation-required episodes
    p_right_other: float  # on the others: P(an acceptable action)
    fallback: str  # action when it errs on a non-required episode
    miss_action: str  # action when it misses an escalation
    conf_right: float
    conf_wrong: float
    p_invalid: float = 0.02


PROFILES = (
    Profile("cautious-9b", 0.75, 0.85, 0.85, "Escalate", "Ask_Clarification", 0.9, 0.8),
    Profile("answer-biased-2b", 0.10, 0.05, 0.70, "Answer", "Answer", 0.92, 0.9),
    Profile("asker-4b", 0.45, 0.70, 0.60, "Ask_Clarification", "Ask_Clarification", 0.85, 0.83),
    Profile("abstainer-3b", 0.30, 0.20, 0.55, "Abstain", "Abstain", 0.7, 0.75),
)
UNCERTAINTY_SHIFT = 0.1  # the uncertainty prompt raises escalation rates by this much


def _uniform(*parts: str) -> float:
    digest = hashlib.sha256("|".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def profile_policy(profile: Profile, prompt: str, episodes: dict):
    shift = UNCERTAINTY_SHIFT if prompt == "uncertainty" else 0.0

    def policy(messages) -> str:
        e = episodes[last_user_text(messages)]
        u = _uniform(profile.name, prompt, e.episode_id)
        if _uniform("invalid", profile.name, prompt, e.episode_id) < profile.p_invalid:
            return "Sorry, I cannot decide."
        acceptable = [a.value for a in e.acceptable_actions]
        if e.escalation_required:
            late = e.variant.value == "late_risk"
            p = min(1.0, (profile.p_escalate_late if late else profile.p_escalate) + shift)
            action = "Escalate" if u < p else profile.miss_action
        else:
            action = acceptable[0] if u < profile.p_right_other else profile.fallback
        right = action in acceptable
        jitter = 0.08 * (_uniform("conf", profile.name, e.episode_id) - 0.5)
        confidence = round(min(1.0, (profile.conf_right if right else profile.conf_wrong) + jitter), 2)
        return decision_json(action, confidence)

    return policy


@scorer(metrics=escalation_metrics())
def stand_in_controller():
    """Stand-in with the controller's score contract: Ask_Clarification at confidence < 0.85 and
    any answer to a late message escalate."""

    async def score(state: TaskState, target: Target) -> Score:
        decision = parse_decision(state.output.completion)
        final = decision.action
        late = "MESSAGE RECEIVED AFTER THE REQUEST" in state.input_text
        if (final is Action.ASK_CLARIFICATION and (decision.confidence or 1) < 0.85) or (
            late and final is not None
        ):
            final = Action.ESCALATE
        info = {
            "name": "stand_in",
            "model_action": getattr(decision.action, "value", None),
            "final_action": getattr(final, "value", None),
            "overridden": final is not decision.action,
        }
        changed = Decision(final, decision.confidence, decision.reason, decision.error)
        return decision_score(changed, state.metadata, controller=info)

    return score


def write_logs(log_dir: Path, n_models: int) -> None:
    ensure_tiktoken_cache()
    episodes = {render_blocks(e): e for e in select_episodes("test")}
    for prompt in ("vanilla", "uncertainty"):
        base = escalation_task(split="test", prompt=prompt)
        task = task_with(base, scorer=[base.scorer[0], stand_in_controller()])
        models = [
            scripted_model(profile_policy(p, prompt, episodes), name=p.name) for p in PROFILES[:n_models]
        ]
        eval(task, model=models, log_dir=str(log_dir), display="none")


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=Path, help="existing log directory (default: generate)")
    parser.add_argument("--models", type=int, default=3, choices=range(1, len(PROFILES) + 1))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--bootstrap", type=int, default=2000)
    parser.add_argument("--keep", type=Path, help="keep generated logs and the report here")
    parser.add_argument("--html", action="store_true", help="the report with figures also writes report.html")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        log_dir = args.logs or root / "logs"
        if args.logs is None:
            start = time.perf_counter()
            write_logs(log_dir, args.models)
            print(f"wrote scripted logs in {time.perf_counter() - start:.1f} s (not timed below)")
        options = ReportOptions(n_boot=args.bootstrap)
        out = root / "report"

        def report(figures: bool) -> None:
            write_report(
                build_report([str(log_dir)], options), out, figures=figures, html=figures and args.html
            )

        report(True)  # warm-up: first matplotlib draw and font cache
        load = timed(lambda: samples_df(str(log_dir), quiet=True), args.repeats)
        no_figures = timed(lambda: report(False), args.repeats)
        full = timed(lambda: report(True), args.repeats)
        rows = len(samples_df(str(log_dir), quiet=True))
        print(
            f"logs: {log_dir} ({rows} samples); median of {args.repeats}, "
            f"{args.bootstrap} bootstrap resamples"
        )
        print(f"{'samples_df (load only)':<34}{load:8.2f} s   1.00x")
        print(f"{'escbench report, no figures':<34}{no_figures:8.2f} s {no_figures / load:6.2f}x")
        label = "escbench report, figures + html" if args.html else "escbench report, with figures"
        print(f"{label:<34}{full:8.2f} s {full / load:6.2f}x")
        if args.keep:
            print(f"report: {out / 'report.md'}")


if __name__ == "__main__":
    main()
