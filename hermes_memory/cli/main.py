"""``hermes-memory``: the command line over MemoryAPI.

Every command prints a readable result, or with ``--json`` the API's envelope.
Any HermesMemoryError becomes one ``error: ...`` line on stderr and exit code 1;
usage errors exit 2 (click's convention).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import Any

import click

from hermes_memory.cli.agents import context, import_sessions, mcp
from hermes_memory.cli.context import Context, emit, pass_ctx, split_tiers
from hermes_memory.cli.cron import cron
from hermes_memory.cli.data import backup, export, import_file, restore
from hermes_memory.cli.graph import graph
from hermes_memory.cli.hermes import hermes
from hermes_memory.cli.quickstart import quickstart
from hermes_memory.cron.progress import Progress, default_mode
from hermes_memory.errors import HermesMemoryError
from hermes_memory.tier2.entities import ENTITY_TYPES
from hermes_memory.tools.context import dated


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--home",
    envvar="HERMES_HOME",
    help="Hermes home directory (default: $HERMES_HOME, else ~/.hermes).",
)
@click.option("--profile", help="Memory profile (default: 'default').")
@click.option("--json", "as_json", is_flag=True, help="Print the raw JSON result envelope.")
@click.version_option(package_name="hermes-memory")
@click.pass_context
def cli(ctx: click.Context, home: str | None, profile: str | None, as_json: bool) -> None:
    """Local, tiered long-term memory for AI agents."""
    ctx.obj = Context(home, profile, as_json)
    ctx.call_on_close(ctx.obj.close)


def _fact_line(f: dict[str, Any]) -> str:
    state = "" if f.get("invalid_at") is None else f"  [invalid since {f['invalid_at']}]"
    formed = ", formed from a chat" if f.get("source_type") == "formation" else ""
    return (
        f"{f['uuid'][:8]}  [{f['category']}] {f['content']}  "
        f"(importance {f['importance']:.2f}, {f['scope']}{formed}){state}"
    )


# -- facts -------------------------------------------------------------------------------
@cli.command()
@click.argument("content")
@click.option("--category", default="general", show_default=True)
@click.option("--importance", type=float, default=0.5, show_default=True)
@click.option("--confidence", type=float, default=1.0, show_default=True)
@click.option("--scope", default="/", show_default=True, help="Hierarchical scope, e.g. /infra/db")
@pass_ctx
def remember(
    ctx: Context, content: str, category: str, importance: float, confidence: float, scope: str
) -> None:
    """Store a fact."""
    env = ctx.api().fact_store(
        content,
        category=category,
        importance=importance,
        confidence=confidence,
        scope=scope,
        source="user",
    )
    verb = "stored" if env["success"] and env["meta"].get("created") else "already known"

    def render(d: dict[str, Any]) -> str:
        lines = [f"{verb}: {_fact_line(d)}"]
        for old in env["meta"].get("graph", {}).get("superseded", []):
            got = ctx.api().fact_get(old)
            said = got["data"]["content"] if got["success"] else ""
            lines.append(f"  supersedes {old[:8]}: {said}")
        return "\n".join(lines)

    emit(ctx, env, render)


@cli.command()
@click.argument("query", required=False, default="")
@click.option("--category")
@click.option("--scope")
@click.option("--limit", type=int, default=10, show_default=True)
@click.option("--formed", is_flag=True, help="Only facts formed from what you said in chats.")
@pass_ctx
def facts(
    ctx: Context, query: str, category: str | None, scope: str | None, limit: int, formed: bool
) -> None:
    """Search facts by keywords (no QUERY: the most important ones)."""
    env = ctx.api().fact_query(query, category=category, scope=scope, limit=limit, formed=formed)
    emit(ctx, env, lambda d: "\n".join(_fact_line(f) for f in d) or "no matching facts")


@cli.command()
@click.argument("uuid")
@click.option("--hard", is_flag=True, help="Delete the row instead of marking it deleted.")
@pass_ctx
def forget(ctx: Context, uuid: str, hard: bool) -> None:
    """Delete a fact (soft by default: it stays in the audit trail)."""
    env = ctx.api().fact_delete(uuid, soft=not hard)
    emit(ctx, env, lambda d: f"forgotten: {d['content']}")


# -- entities ------------------------------------------------------------------------------
@cli.group()
def entity() -> None:
    """Entities and their relations."""


@entity.command("add")
@click.argument("name")
@click.option(
    "--type", "entity_type", default="concept", show_default=True,
    help=f"One of: {', '.join(ENTITY_TYPES)}.",
)  # fmt: skip
@click.option("--alias", "aliases", multiple=True)
@click.option("--description")
@pass_ctx
def entity_add(
    ctx: Context, name: str, entity_type: str, aliases: tuple[str, ...], description: str | None
) -> None:
    """Create an entity, or merge aliases into an existing one."""
    env = ctx.api().entity_ensure(name, entity_type, list(aliases), description)
    emit(
        ctx,
        env,
        lambda d: f"{d['name']} ({d['entity_type']}) aliases: {', '.join(d['aliases']) or '-'}",
    )


@entity.command("link")
@click.argument("from_name")
@click.argument("relation")
@click.argument("to_name")
@click.option("--strength", type=float, default=1.0, show_default=True)
@pass_ctx
def entity_link(ctx: Context, from_name: str, relation: str, to_name: str, strength: float) -> None:
    """Relate two entities: FROM RELATION TO (e.g. api depends_on postgres)."""
    env = ctx.api().entity_link(from_name, to_name, relation, strength)
    emit(ctx, env, lambda d: f"{d['from']} -{d['relation']}-> {d['to']}")


@entity.command("show")
@click.argument("name", required=False)
@click.option("--type", "entity_type")
@click.option("--limit", type=int, default=10, show_default=True)
@pass_ctx
def entity_show(ctx: Context, name: str | None, entity_type: str | None, limit: int) -> None:
    """Find entities by name or alias, with their relations."""
    # One more than shown tells whether more exist (the limit's own bounds still apply).
    env = ctx.api().entity_query(name, entity_type, limit + 1 if 0 < limit < 1000 else limit)
    more = env["success"] and len(env["data"]) > limit
    if more:
        env["data"] = env["data"][:limit]

    def render(data: list[dict[str, Any]]) -> str:
        lines = []
        for e in data:
            known_as = "".join(f", {a}" for a in e.get("aliases") or [])
            lines.append(f"{e['name']} ({e['entity_type']}{known_as})")
            lines.extend(
                f"  {r['from']} -{r['relation']}-> {r['to']}"
                + (f"  (ended {r['invalid_at'][:10]})" if r.get("invalid_at") else "")
                for r in e["relations"]
            )
        if more:
            lines.append(f"(more than {limit} match; --limit N shows more)")
        return "\n".join(lines) or "no matching entities"

    emit(ctx, env, render)


# -- timeline --------------------------------------------------------------------------------
@cli.group(invoke_without_command=True)
@click.pass_context
def timeline(click_ctx: click.Context) -> None:
    """Dated events: decisions, milestones, changes (alone: `timeline list`)."""
    if click_ctx.invoked_subcommand is None:
        click_ctx.invoke(timeline_list)


@timeline.command("add")
@click.argument("title")
@click.option("--type", "event_type", default="event", show_default=True)
@click.option("--description")
@click.option("--importance", type=float, default=0.5, show_default=True)
@click.option("--at", "timestamp", help="ISO 8601 time (default: now)")
@pass_ctx
def timeline_add(
    ctx: Context,
    title: str,
    event_type: str,
    description: str | None,
    importance: float,
    timestamp: str | None,
) -> None:
    """Add an event."""
    env = ctx.api().timeline_add(event_type, title, description, importance, timestamp=timestamp)
    emit(ctx, env, lambda d: f"{d['timestamp']}  [{d['event_type']}] {d['title']}")


@timeline.command("list")
@click.option("--since")
@click.option("--until")
@click.option("--type", "event_type")
@click.option("--query")
@click.option("--limit", type=int, default=20, show_default=True)
@pass_ctx
def timeline_list(
    ctx: Context,
    since: str | None,
    until: str | None,
    event_type: str | None,
    query: str | None,
    limit: int,
) -> None:
    """List events, newest first."""
    env = ctx.api().timeline_query(since, until, event_type, limit, query=query)
    emit(
        ctx,
        env,
        lambda d: (
            "\n".join(
                f"{e.get('when') or e['timestamp']}  [{e['event_type']}] {e['title']}"
                + (
                    f"\n   since changed: {'; '.join(e['since_changed'])}"
                    if e.get("since_changed")
                    else ""
                )
                for e in d
            )
            or "no events"
        ),
    )


# -- curated (tier 1) ----------------------------------------------------------------------
@cli.group(invoke_without_command=True)
@click.pass_context
def curated(click_ctx: click.Context) -> None:
    """Hermes' curated MEMORY.md / USER.md (alone: `curated show`)."""
    if click_ctx.invoked_subcommand is None:
        click_ctx.invoke(curated_show)


_STORE = click.option(
    "--store", type=click.Choice(["memory", "user"]), default="memory", show_default=True
)


@curated.command("show")
@_STORE
@pass_ctx
def curated_show(ctx: Context, store: str) -> None:
    """Print the live entries."""
    env = ctx.api().curated_get(store)
    emit(ctx, env, lambda d: "\n§\n".join(d) if d else f"({store} is empty)")


@curated.command("add")
@click.argument("content")
@_STORE
@pass_ctx
def curated_add(ctx: Context, content: str, store: str) -> None:
    """Append an entry."""
    emit(ctx, ctx.api().curated_add(content, store), lambda d: f"{d['message']} ({d['usage']})")


@curated.command("replace")
@click.argument("old")
@click.argument("new")
@_STORE
@pass_ctx
def curated_replace(ctx: Context, old: str, new: str, store: str) -> None:
    """Replace the one entry containing OLD."""
    emit(
        ctx, ctx.api().curated_replace(old, new, store), lambda d: f"{d['message']} ({d['usage']})"
    )


@curated.command("remove")
@click.argument("old")
@_STORE
@pass_ctx
def curated_remove(ctx: Context, old: str, store: str) -> None:
    """Remove the one entry containing OLD."""
    emit(ctx, ctx.api().curated_remove(old, store), lambda d: f"{d['message']} ({d['usage']})")


# -- recall and tier 3 ------------------------------------------------------------------------
@cli.command()
@click.argument("query")
@click.option("--limit", type=int, default=5, show_default=True)
@click.option("--tiers", help="Comma-separated: tier1,tier2,tier3,graph (default: all).")
@click.option("--tier", "tier", multiple=True, help="One tier to search (repeatable; as --tiers).")
@click.option("--scope", help="Only results under this scope, e.g. /infrastructure")
@click.option("--full", is_flag=True, help="Print long memories whole, not their matching passage.")
@pass_ctx
def recall(
    ctx: Context,
    query: str,
    limit: int,
    tiers: str | None,
    tier: tuple[str, ...],
    scope: str | None,
    full: bool,
) -> None:
    """Cross-tier recall ranked by similarity, recency and importance."""
    chosen = split_tiers(tiers, tier)
    env = ctx.searching().recall(
        query, chosen, limit_per_tier=max(limit, 5), limit=limit, scope=scope
    )

    def render(data: list[dict[str, Any]]) -> str:
        if not data:
            return "nothing relevant found"
        lines = []
        for i, r in enumerate(data, 1):
            shown = r["content"]
            if not full:  # relative dates followed by what they mean ("yesterday (...)")
                shown = dated(r, " ".join(str(r.get("excerpt") or shown).split()))
            if r.get("excerpt") and not full:
                # A long memory (a log, a long answer) by the passage that matched.
                shown = f"{shown}  [{len(r['content']):,} chars; --full]"
            lines.append(f"{i}. {r['score']:.3f}  {shown}")
            # A curated entry has no date of its own (its created_at is the recall's).
            stamp = None if r["tier"] == "tier1" else r.get("valid_at") or r.get("created_at")
            when = str(stamp or "")[:10]
            lines.append(
                f"   [{r['tier']}/{r['kind']}{', ' + when if when else ''}] "
                f"similarity {r['similarity']:.2f}, "
                f"recency {r['recency']:.2f}, importance {r['importance']:.2f}; "
                f"reasons: {', '.join(r['match_reasons']) or '-'}"
            )
            if r.get("shared"):  # an image's caption, a file's name
                lines.append(f"   shared: {r['shared']}")
            if r.get("graph_path"):
                lines.append(f"   via {r['graph_path']}")
            if r.get("since_changed"):  # what it stated that a later memory changed
                lines.append(f"   since changed: {'; '.join(r['since_changed'])}")
        if data[0]["evidence_gaps"]:  # the query's, the same on every result
            lines.append(f"gaps: {'; '.join(data[0]['evidence_gaps'])}")
        return "\n".join(lines)

    emit(ctx, env, render)


@cli.command()
@pass_ctx
def rebuild(ctx: Context) -> None:
    """Drop the vector index and re-embed every memory from SQLite truth (after a
    change of embedding model, say), with progress."""
    bar = Progress("quiet" if ctx.as_json else default_mode())
    shown = 0
    with contextlib.ExitStack() as stack:
        advance: Callable[[int], None] | None = None

        def progress(done: int, total: int) -> None:
            nonlocal shown, advance
            if advance is None:  # the total is known once the items are listed
                advance = stack.enter_context(bar.stage("re-embedding memories", total))
            advance(done - shown)
            shown = done

        env = ctx.api().rebuild(progress)
    emit(ctx, env, lambda d: f"rebuilt: {d['items']} items, {d['vectors']} vectors")


@cli.command()
@pass_ctx
def repair(ctx: Context) -> None:
    """Drain the embedding queue and rebuild tier 3 if anything is missing."""
    emit(
        ctx,
        ctx.api().repair(),
        lambda d: (
            f"tier3 {d['status']}: {d['indexed_items']}/{d['truth_items']} items indexed"
            + (" (rebuilt)" if d["rebuilt"] else "")
        ),
    )


# -- health ---------------------------------------------------------------------------------
@cli.command()
@pass_ctx
def stats(ctx: Context) -> None:
    """Counts per tier, queue depth and derived-tier status."""
    emit(ctx, ctx.api().stats(), _stats_lines)


def _stats_lines(d: dict[str, Any]) -> str:
    """The operator's stats for a person to read (``--json`` gives the envelope)."""
    t2 = d["tier2"]
    curated = ", ".join(
        f"{k} {v['entries']} entries ({v['usage']} chars)" for k, v in d["tier1"].items()
    )
    queue = d["embed_queue"]
    t3 = d["tier3"]
    graph = d["graph"]
    return "\n".join(
        [
            f"profile: {d['profile']}",
            f"tier 1 (curated): {curated}",
            f"tier 2 (SQLite): {t2['facts']:,} facts, {t2['episodes']:,} turns, "
            f"{t2['entities']:,} entities, {t2['relations']:,} relations, "
            f"{t2['timeline']:,} events; {t2['db_bytes'] / 1e6:.1f} MB at {t2['db_path']}",
            f"embed queue: {', '.join(f'{k} {v}' for k, v in queue.items())}",
            f"tier 3 (vectors): {t3.get('status', '?')}"
            + (f", {t3['vector_rows']:,} rows" if t3.get("vector_rows") is not None else "")
            + (f"; {t3['warning']}" if t3.get("warning") else ""),
            f"graph: {graph.get('status', '?')}"
            + (f", {graph['nodes']:,} nodes, {graph['edges']:,} edges" if "nodes" in graph else ""),
        ]
    )


@cli.command()
@click.option("--repair", is_flag=True, help="Rebuild what can be rebuilt from SQLite truth.")
@pass_ctx
def doctor(ctx: Context, repair: bool) -> None:
    """Check schema, integrity, FTS indexes, queue and derived tiers."""
    env = ctx.api().doctor(repair=repair)

    def render(d: dict[str, Any]) -> str:
        lines = [f"{'ok ' if c['ok'] else 'BAD'}  {c['name']}: {c['detail']}" for c in d["checks"]]
        lines.append(
            f"embed queue: {d['embed_queue']['pending']} pending, "
            f"{d['embed_queue']['poison']} poison"
        )
        for name, info in d["derived"].items():
            lines.append(f"{name}: {info.get('status')}")
        if d["repaired"]:
            lines.append("repaired: " + ", ".join(d["repaired"]))
        lines.append("healthy" if d["ok"] else "problems found (try --repair)")
        return "\n".join(lines)

    emit(ctx, env, render)
    if env["success"] and not env["data"]["ok"]:
        sys.exit(1)


cli.add_command(graph)
cli.add_command(cron)
cli.add_command(hermes)
cli.add_command(quickstart)
cli.add_command(context)
cli.add_command(import_sessions)
cli.add_command(mcp)
cli.add_command(backup)
cli.add_command(restore)
cli.add_command(import_file)
cli.add_command(export)


def _global_flags_first(argv: list[str] | None) -> list[str]:
    """``--json`` is accepted after the subcommand too (``facts --json``): it is moved in
    front, where click reads global options. Arguments after ``--`` stay as they are."""
    args = list(sys.argv[1:] if argv is None else argv)
    end = args.index("--") if "--" in args else len(args)
    if "--json" in args[:end]:
        args.remove("--json")
        args.insert(0, "--json")
    return args


def main(argv: list[str] | None = None) -> None:
    """Console entry point: one clear line and a non-zero exit on any of our errors."""
    try:
        cli.main(args=_global_flags_first(argv), prog_name="hermes-memory", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        # One line, as for every other error: what was wrong, and where to read more.
        where = f"{exc.ctx.command_path} --help" if exc.ctx else "hermes-memory --help"
        click.echo(f"error: {exc.format_message()} (see {where})", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except HermesMemoryError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    sys.exit(0)
