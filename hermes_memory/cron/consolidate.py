"""The consolidate job: near-duplicate facts merged, conflicts resolved by time,
duplicate entities merged, importance reinforced by use.

Every step reads a snapshot, decides with pure functions, then writes in short
transactions that re-check each row is still as read (live, valid, unchanged),
so the job can run while the agent writes, be killed at any point and re-run:
what was merged stays merged, what was not is found again.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from hermes_memory.cron.near_duplicates import duplicate_groups, signature
from hermes_memory.cron.progress import QUIET, Progress
from hermes_memory.cron.report import JobReport
from hermes_memory.text import changes
from hermes_memory.text.relations import TOOK_OVER
from hermes_memory.text.supersession import (
    ENDS_TIE,
    ENDS_USE,
    FUNCTIONAL,
    HELD_ONCE,
    OPPOSITE,
    TIED,
    USE,
)
from hermes_memory.tier2 import merges, upkeep
from hermes_memory.tier2.facts import mark_superseded

if TYPE_CHECKING:
    from hermes_memory.api.maintenance import Maintenance

ACTOR = "cron:consolidate"
NEAR_DUPLICATE_JACCARD = 0.8
BATCH = 200
# Each new access moves importance this share of the way to 1.
ACCESS_REINFORCEMENT = 0.05
_OWNER = upkeep.OWNER_COLUMNS


def run(m: Maintenance, now: float, progress: Progress = QUIET) -> JobReport:
    report = JobReport("consolidate")
    merged: list[str] = []  # items whose vectors the merges changed
    _merge_near_duplicates(m, now, progress, report, merged)
    _resolve_conflicts(m, now, progress, report)
    _rederive_graph(m, progress, report)
    _merge_entities(m, now, progress, report, merged)
    _reinforce_importance(m, progress, report)
    if m.semantic is not None and m.config.tier3.embed_inline:
        # The merged rows' vectors change now, not at the next embed run; the rest of
        # the outbox is the embed job's.
        m.semantic.drain(items=merged)
    return report.done()


# -- near-duplicate facts ---------------------------------------------------------------
def _merge_near_duplicates(
    m: Maintenance, now: float, progress: Progress, report: JobReport, merged: list[str]
) -> None:
    rows = upkeep.facts_to_compare(m.db)
    groups: dict[tuple[Any, ...], list[sqlite3.Row]] = defaultdict(list)
    for r in rows:
        groups[(*(r[c] for c in _OWNER), r["scope"])].append(r)
    plans: list[tuple[int, list[int]]] = []
    with progress.stage("near-duplicate facts", len(rows)) as advance:
        for members in groups.values():
            if len(members) > 1:
                sigs = [signature(r["content"]) for r in members]
                for idx in duplicate_groups(sigs, NEAR_DUPLICATE_JACCARD):
                    cluster = [members[i] for i in idx]
                    keep = max(cluster, key=_fact_rank)
                    plans.append((keep["id"], [r["id"] for r in cluster if r is not keep]))
            advance(len(members))
    report.add("facts_checked", len(rows))
    todo = [(keep, lose) for keep, losers in plans for lose in losers]
    with progress.stage("merge facts", len(todo)) as advance:
        for start in range(0, len(todo), BATCH):
            part = todo[start : start + BATCH]
            with m.db.transaction() as conn:
                for keep_id, lose_id in part:
                    survivor = merges.live_fact(conn, keep_id)
                    loser = merges.live_fact(conn, lose_id)
                    if survivor is None or loser is None:
                        continue  # changed since read; the next run looks again
                    merges.merge_fact(
                        conn, survivor, loser, now=now, actor=ACTOR, reason="near-duplicate"
                    )
                    merged.append(loser["uuid"])
                    report.add("facts_merged")
            advance(len(part))


def _fact_rank(row: sqlite3.Row) -> tuple[float, float, int, float, int]:
    # The most important, most used statement survives; on a tie the oldest, so ids
    # that were handed out stay valid.
    r = row
    return (r["importance"], r["confidence"], r["access_count"], -r["created_at"], -r["id"])


# -- the graph read again ---------------------------------------------------------------
def _rederive_graph(m: Maintenance, progress: Progress, report: JobReport) -> None:
    """After an extractor change, every fact and turn is read again for its entities
    and relations, and what the text no longer yields is dropped (api/rederive.py);
    a run cut short starts over on the next one, the old relations still in place."""
    with progress.stage("graph from text", m.texts_waiting()) as advance:
        done = m.rederive_graph(check=progress.check, advance=advance)
    if done["texts"]:
        report.add("texts_reread", done["texts"])
        report.add("relations_dropped", done["dropped"])
        report.add("entities_dropped", done["entities_dropped"])
        report.add("entities_retyped", done["entities_retyped"])
    # Names read before the memory knew the word (text/casing.py), read again.
    settled = m.settle_names(check=progress.check)
    if settled:
        report.add("names_dropped", settled)


# -- conflicting facts --------------------------------------------------------------------
def _read_claims(m: Maintenance, progress: Progress, report: JobReport) -> None:
    """Store the claims of facts never read (stored before the claims table, edited
    since, or read by another extractor version); each fact is read once, not on
    every run."""
    with progress.stage("fact claims", m.claims_waiting()) as advance:
        read = m.read_claims(check=progress.check, advance=advance)
    report.add("claims_read", read)


def _resolve_conflicts(m: Maintenance, now: float, progress: Progress, report: JobReport) -> None:
    """A fact whose claim a later fact contradicts ends when the later one begins.

    Write-time linking catches statements that arrive in order; this catches the
    rest (a fact written after the one that replaces it, imports, backfills), from
    the claims stored in ``fact_claims``.
    """
    _read_claims(m, progress, report)
    rows = upkeep.claims_of_valid_facts(m.db)
    functional: dict[tuple[Any, ...], list[tuple[sqlite3.Row, str]]] = defaultdict(list)
    # (subject, object) -> its claims a later one may end: "uses" ("stopped using"),
    # "works_at" and "reports_to" ("left", "stopped_reporting_to")
    users: dict[tuple[Any, ...], list[sqlite3.Row]] = defaultdict(list)
    enders: list[tuple[tuple[Any, ...], sqlite3.Row, frozenset[str]]] = []
    likings: dict[tuple[Any, ...], list[sqlite3.Row]] = defaultdict(list)
    facets: dict[tuple[Any, ...], list[sqlite3.Row]] = defaultdict(list)  # text/changes.py
    holds: dict[tuple[Any, ...], list[sqlite3.Row]] = defaultdict(list)  # owns, took_over
    for r in rows:
        owner = tuple(r[c] for c in _OWNER)
        if r["predicate"] in USE or r["predicate"] in TIED:
            users[(*owner, r["subject"], r["object"])].append(r)
        if r["predicate"] in HELD_ONCE:
            holds[(*owner, r["object"])].append(r)
        if r["predicate"].startswith((changes.USE, changes.CHANGED)):
            facet = r["predicate"].split("@", 1)[1]
            facets[(*owner, r["subject"], facet)].append(r)
        elif r["predicate"] in OPPOSITE:
            likings[(*owner, r["subject"], r["object"])].append(r)
        elif r["predicate"] in FUNCTIONAL:
            functional[(*owner, r["subject"], r["predicate"])].append((r, r["object"]))
        elif r["predicate"] in ENDS_USE:
            enders.append(((*owner, r["subject"], r["object"]), r, USE))
        elif r["predicate"] in ENDS_TIE:
            enders.append(((*owner, r["subject"], r["object"]), r, ENDS_TIE[r["predicate"]]))
    plans: list[tuple[sqlite3.Row, sqlite3.Row, str]] = []  # (old, new, reason)
    for (*_, predicate), chain in functional.items():
        for i, (old, value) in enumerate(chain):
            # One fact can state two values; it never supersedes itself.
            later = next(
                ((n, v) for n, v in chain[i + 1 :] if v != value and n["id"] != old["id"]), None
            )
            if later is not None:
                plans.append((old, later[0], f"{predicate} {later[1]}"))
    for key, stated in likings.items():
        for i, earlier in enumerate(stated):
            # The next statement about the same thing that ends this one
            # (supersession.OPPOSITE), by another fact (as for functional claims above: a
            # fact never ends itself).
            turn = next(
                (
                    n
                    for n in stated[i + 1 :]
                    if earlier["predicate"] in OPPOSITE[n["predicate"]] and n["id"] != earlier["id"]
                ),
                None,
            )
            if turn is not None:
                plans.append((earlier, turn, f"{turn['predicate']} {key[-1]}"))
    for (*_, facet), stated in facets.items():
        for i, old in enumerate(stated):
            # The next change of this facet to another value, by another fact.
            change = next(
                (
                    n
                    for n in stated[i + 1 :]
                    if n["predicate"].startswith(changes.CHANGED)
                    and n["object"] != old["object"]
                    and n["id"] != old["id"]
                ),
                None,
            )
            if change is not None:
                plans.append((old, change, f"{facet} now {change['object']}"))
    for (*_, thing), stated in holds.items():
        for new in stated:
            if new["predicate"] != TOOK_OVER:
                continue
            # Whoever held it before the new holder took it over holds it no more.
            for old in stated:
                other = old["subject"] != new["subject"] and old["id"] != new["id"]
                if other and old["t"] <= new["t"]:
                    plans.append((old, new, f"{new['subject']} took over {thing}"))
    for key, ender, ended in enders:
        said = "no longer uses" if ended is USE else ender["predicate"].replace("_", " ")
        for old in users.get(key, []):
            if old["predicate"] in ended and old["id"] != ender["id"] and old["t"] <= ender["t"]:
                plans.append((old, ender, f"{said} {key[-1]}"))
    report.add("claims_checked", len(rows))
    for start in range(0, len(plans), BATCH):
        progress.check()
        with m.db.transaction() as conn:
            for old, new, reason in plans[start : start + BATCH]:
                if new["t"] > now:
                    continue  # a change still to come ("moving in March") ends it then
                current = merges.live_fact(conn, old["id"])
                if current is None or merges.live_fact(conn, new["id"]) is None:
                    continue
                mark_superseded(
                    conn, current, by=new["uuid"], since=new["t"], now=now, actor=ACTOR,
                    reason=reason,
                )  # fmt: skip
                report.add("conflicts_resolved")


# -- duplicate entities --------------------------------------------------------------------
def _squash(name: str) -> str:
    """A name without case, accents, spaces or punctuation: Node.js = NodeJS."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed.casefold() if c.isalnum())


_VAGUE = ("concept", "other")


def entity_merge_plan(entities: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    """(survivor id, loser id, reason) for one owner's live entities.

    Two entities are one when a name of one, squashed, is the squashed *name* of the
    other (so "Postgres" with alias "PostgreSQL" absorbs an entity "PostgreSQL", but
    two people who both carry the alias "Alice" stay apart), and their types agree
    (or one is vague). A lone first name ("Alice") joins the only person whose full
    name starts with it, the rule write-time linking applies.
    """
    by_id = {e["id"]: e for e in entities}
    parent = {e["id"]: e["id"] for e in entities}
    reasons: dict[int, str] = {}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def compatible(a: dict[str, Any], b: dict[str, Any]) -> bool:
        ta, tb = a["entity_type"], b["entity_type"]
        return ta == tb or ta in _VAGUE or tb in _VAGUE

    names: dict[str, list[int]] = defaultdict(list)
    for e in entities:
        names[_squash(e["name"])].append(e["id"])
    for e in entities:
        for label in [e["name"], *e["aliases"]]:
            for other in names.get(_squash(label), []):
                if (
                    other != e["id"]
                    and _squash(label)
                    and compatible(e, by_id[other])
                    and find(other) != find(e["id"])
                ):
                    parent[find(other)] = find(e["id"])
                    reasons[other] = f"same name as {e['name']!r}"
    people = [e for e in entities if e["entity_type"] == "person"]
    full: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for p in people:
        parts = p["name"].split()
        if len(parts) > 1:
            full[parts[0].casefold()].append(p)
    for p in people:
        if " " in p["name"].strip():
            continue
        matches = full.get(p["name"].strip().casefold(), [])
        if len(matches) == 1 and find(matches[0]["id"]) != find(p["id"]):
            parent[find(p["id"])] = find(matches[0]["id"])
            reasons[p["id"]] = f"first name of {matches[0]['name']!r}"
    clusters: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in entities:
        clusters[find(e["id"])].append(e)
    plan: list[tuple[int, int, str]] = []
    for members in clusters.values():
        if len(members) < 2:
            continue
        keep = max(members, key=_entity_rank)
        for m in members:
            if m is not keep:
                why = reasons.get(m["id"], f"alias of {keep['name']!r}")
                plan.append((keep["id"], m["id"], why))
    return plan


def _entity_rank(e: dict[str, Any]) -> tuple[int, int, int, int, float, int]:
    name = e["name"]
    person = e["entity_type"] == "person"
    return (
        e["entity_type"] not in _VAGUE,
        len(name.split()) if person else 0,  # "Alice Chen" over "Alice"
        # a component by the name code gives it: "ledger-client" over "ledger client"
        not person and " " not in name and ("-" in name or "_" in name),
        e["occurrence_count"],
        -e["first_seen"],
        -e["id"],
    )


def _merge_entities(
    m: Maintenance, now: float, progress: Progress, report: JobReport, merged: list[str]
) -> None:
    rows = upkeep.live_entities(m.db)
    owners: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for item in rows:
        owners[tuple(item[c] for c in _OWNER)].append(item)
    plan = [step for group in owners.values() for step in entity_merge_plan(group)]
    report.add("entities_checked", len(rows))
    with progress.stage("merge entities", len(plan)) as advance:
        for keep_id, lose_id, reason in plan:
            with m.db.transaction() as conn:
                keep = merges.live_entity(conn, keep_id)
                lose = merges.live_entity(conn, lose_id)
                if keep is None or lose is None:
                    continue
                ended = merges.merge_entity(conn, keep, lose, now=now, actor=ACTOR, reason=reason)
                merged.extend([keep["uuid"], lose["uuid"]])
                report.add("entities_merged")
                report.add("relations_ended", ended["relations_ended"])
            advance(1)


# -- importance -----------------------------------------------------------------------------
def reinforced(importance: float, new_accesses: int) -> float:
    """Importance after ``new_accesses`` more uses: each closes 5% of the gap to 1."""
    return 1.0 - (1.0 - importance) * (1.0 - ACCESS_REINFORCEMENT) ** max(new_accesses, 0)


def _reinforce_importance(m: Maintenance, progress: Progress, report: JobReport) -> None:
    report.add("importance_updated", upkeep.reinforce_importance(m.db, reinforced))
    progress.check()
