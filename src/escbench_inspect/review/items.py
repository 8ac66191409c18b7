"""What clinicians review: escalation episodes (shown a seed at a time) and CSS tuples.

An item is the unit that carries one label: an episode's acceptable-action set or a tuple's expected
direction. Its content hash covers everything the reviewer is shown, the reference included, so a
review recorded against older content is recognised as stale.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from escbench_inspect.datasets.assembly import default_seeds, iter_episodes
from escbench_inspect.datasets.render import BLOCK_HEADERS
from escbench_inspect.datasets.schema import Action, Episode, SeedScenario, Variant
from escbench_inspect.integrity import content_hash

EPISODE, TUPLE = "episode", "tuple"
# Ids are made of these characters only; anything else is refused before any lookup.
ITEM_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,199}$")
NO_CHANGE = "No change in the recommendation is expected"
ACTIONS: tuple[str, ...] = tuple(a.value for a in Action)


def action_label(actions: Sequence[str]) -> str:
    """Canonical text of an action set: members in the schema's order, joined by '+'."""
    chosen = set(actions)
    return "+".join(a for a in ACTIONS if a in chosen)


def valid_action_set(actions: Sequence[str]) -> str | None:
    """Why ``actions`` is not an acceptable set under the reference policy (None when it is)."""
    if not actions:
        return "choose at least one action"
    unknown = sorted(set(actions) - set(ACTIONS))
    if unknown:
        return f"unknown action(s) {unknown}"
    if Action.ESCALATE.value in actions and len(set(actions)) > 1:
        return "Escalate is never paired with another action (reference policy rule 1)"
    return None


@dataclass(frozen=True)
class Segment:
    """A run of text, ``changed`` when it differs from the text it is compared with."""

    text: str
    changed: bool


_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


def highlight(reference: str, text: str) -> list[Segment]:
    """``text`` split into unchanged and changed runs, word by word, against ``reference``."""
    old, new = _TOKEN.findall(reference), _TOKEN.findall(text)
    segments: list[Segment] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        run = "".join(new[j1:j2])
        if run:
            segments.append(Segment(run, tag != "equal"))
    return segments


@dataclass(frozen=True)
class ReviewItem:
    """One labelled unit and its reference."""

    item_id: str
    kind: str  # EPISODE or TUPLE
    group: str  # seed id (episodes) or case id (tuples): the bootstrap cluster
    page: str  # the URL path showing it
    reference: str  # action_label of the acceptable set, or the expected direction
    rationale: str
    attributes: dict[str, str]  # task_class/variant/surface or family/intervention/cancer
    content_hash: str


def episode_item(episode: Episode) -> ReviewItem:
    content = {
        "blocks": [[b.kind.value, b.text] for b in episode.blocks],
        "action_space": [[o.action.value, o.definition] for o in episode.action_space],
        "acceptable_actions": [a.value for a in episode.acceptable_actions],
        "rationale": episode.rationale,
    }
    return ReviewItem(
        item_id=episode.episode_id,
        kind=EPISODE,
        group=episode.seed_id,
        page=f"/seed/{episode.seed_id}",
        reference=action_label([a.value for a in episode.acceptable_actions]),
        rationale=episode.rationale,
        attributes={
            "class": episode.task_class.value,
            "variant": episode.variant.value,
            "surface": episode.surface,
        },
        content_hash=content_hash(content),
    )


@dataclass(frozen=True)
class EpisodeView:
    """An episode's blocks with the runs that differ from its clean episode marked."""

    episode: Episode
    item: ReviewItem
    blocks: list[tuple[str, list[Segment]]]


@dataclass(frozen=True)
class TupleView:
    """A CSS tuple's charts, section by section, the mutation's spans marked in both arms."""

    item: ReviewItem
    title: str
    change_summary: str
    sections: list[tuple[str, list[Segment], list[Segment], bool]]  # name, baseline, mutated, changed
    consensus_baseline: list[str]
    consensus_added: list[str]
    consensus_removed: list[str]
    options: list[str]


class Catalog:
    """Every reviewable item: the packaged seeds' episodes and (optionally) CSS tuples.

    ``css_cases``: ``None`` for every case of the CSS corpus, a count for the first N cases (a
    quicker catalog), a list of case ids for those cases only, 0 for none. Tuples come from the CSS
    package's public builders, so a cache there (issue 23) speeds this up too.
    """

    def __init__(
        self, seeds: Sequence[SeedScenario] | None = None, css_cases: int | Sequence[str] | None = None
    ):
        self.seeds = tuple(seeds) if seeds is not None else default_seeds()
        self.episodes: dict[str, Episode] = {e.episode_id: e for e in iter_episodes(self.seeds)}
        self.items: dict[str, ReviewItem] = {i: episode_item(e) for i, e in self.episodes.items()}
        self.seed_episodes: dict[str, list[Episode]] = {}
        for episode in self.episodes.values():
            self.seed_episodes.setdefault(episode.seed_id, []).append(episode)
        self.css_cases = css_cases
        self._seed_views: dict[str, list[EpisodeView]] = {}
        self._tuple_views: dict[str, TupleView] = {}
        self._plans = {f"{p.case_id}__{p.intervention_id}": p for p in self._css_plans()}
        for tuple_id, plan in self._plans.items():
            self.items[tuple_id] = self._tuple_item(tuple_id, plan)

    # ------------------------------------------------------------------ CSS
    def _css_plans(self) -> list:
        if self.css_cases == 0:
            return []
        from escbench_inspect.css.data import packaged_data
        from escbench_inspect.css.dataset import build_plans, plan_tuples, validate_params
        from escbench_inspect.css.generator import corpus

        if self.css_cases is None:
            return list(plan_tuples(validate_params())[0])
        if isinstance(self.css_cases, int):
            cases = corpus()[: self.css_cases]
        else:
            wanted = set(self.css_cases)
            cases = [case for case in corpus() if case.case_id in wanted]
        # build_plans judges each case on its own, so a subset gives exactly the full build's plans
        return list(build_plans(cases, packaged_data())[0])

    def _tuple_item(self, tuple_id: str, plan) -> ReviewItem:
        from escbench_inspect.css.dataset import chart_sections

        content = {
            "plan": {k: v for k, v in plan.__dict__.items()},
            "baseline": chart_sections(plan.case_id, None),
            "mutated": chart_sections(plan.case_id, plan.intervention_id),
        }
        return ReviewItem(
            item_id=tuple_id,
            kind=TUPLE,
            group=plan.case_id,
            page=f"/tuple/{tuple_id}",
            reference=plan.expected_direction,
            rationale=plan.change_summary,
            attributes={
                "family": plan.family,
                "intervention": plan.intervention_id.split("_", 1)[0],
                "cancer": plan.cancer,
            },
            content_hash=content_hash(content),
        )

    @cached_property
    def direction_options(self) -> dict[str, list[str]]:
        """Per family: every expected direction its interventions can pre-register, then no change."""
        if not self._plans:
            return {}
        from escbench_inspect.css.catalog import interventions
        from escbench_inspect.css.data import packaged_data

        options: dict[str, list[str]] = {}
        for iv in interventions(packaged_data()).values():
            directions = iv.expected_direction
            values = [directions] if isinstance(directions, str) else list(directions.values())
            family = options.setdefault(iv.family, [])
            family.extend(v for v in values if v not in family)
        return {family: sorted(values) + [NO_CHANGE] for family, values in options.items()}

    # ------------------------------------------------------------------ lookups
    def item(self, item_id: str) -> ReviewItem | None:
        """The item, or None for an unknown or malformed id (never raises on hostile input)."""
        if not isinstance(item_id, str) or not ITEM_ID.match(item_id):
            return None
        return self.items.get(item_id)

    def seed_ids(self) -> list[str]:
        return sorted(self.seed_episodes)

    def tuple_ids(self) -> list[str]:
        return list(self._plans)

    def seed_view(self, seed_id: str) -> list[EpisodeView] | None:
        """The seed's ten episodes, surface by surface in variant order, diffs against clean."""
        if not ITEM_ID.match(seed_id) or seed_id not in self.seed_episodes:
            return None
        if seed_id not in self._seed_views:  # deterministic: computed once per seed
            self._seed_views[seed_id] = self._seed_view(seed_id)
        return self._seed_views[seed_id]

    def _seed_view(self, seed_id: str) -> list[EpisodeView]:
        episodes = sorted(
            self.seed_episodes[seed_id], key=lambda e: (e.surface, list(Variant).index(e.variant))
        )
        clean = {e.surface: e for e in episodes if e.variant is Variant.CLEAN}
        views = []
        for episode in episodes:
            base = {b.kind: b.text for b in clean[episode.surface].blocks}
            blocks = [(BLOCK_HEADERS[b.kind], highlight(base[b.kind], b.text)) for b in episode.blocks]
            views.append(EpisodeView(episode, self.items[episode.episode_id], blocks))
        return views

    def tuple_view(self, tuple_id: str) -> TupleView | None:
        """The tuple's two charts with the mutation's spans marked (computed once per tuple)."""
        item = self.item(tuple_id)
        if item is None or item.kind != TUPLE:
            return None
        if tuple_id not in self._tuple_views:
            self._tuple_views[tuple_id] = self._tuple_view(item)
        return self._tuple_views[tuple_id]

    def _tuple_view(self, item: ReviewItem) -> TupleView:
        tuple_id = item.item_id
        from escbench_inspect.css.dataset import chart_sections

        plan = self._plans[tuple_id]
        baseline = chart_sections(plan.case_id, None)
        mutated = chart_sections(plan.case_id, plan.intervention_id)
        sections = []
        for name, text in baseline.items():
            changed_text = mutated.get(name, "")
            sections.append(
                (
                    name,
                    highlight(changed_text, text),
                    highlight(text, changed_text),
                    text != changed_text,
                )
            )
        return TupleView(
            item=item,
            title=f"{plan.case_id} ({plan.cancer}) · {plan.intervention_id}: {plan.intervention_title}",
            change_summary=plan.change_summary,
            sections=sections,
            consensus_baseline=[c["text"] for c in plan.consensus_baseline],
            consensus_added=list(plan.consensus_added),
            consensus_removed=list(plan.consensus_removed),
            options=self.direction_options.get(plan.family, [plan.expected_direction, NO_CHANGE]),
        )
