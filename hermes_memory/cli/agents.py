"""Commands other agents and skills use: skill context, session import, MCP."""

from __future__ import annotations

import json
from pathlib import Path

import click

from hermes_memory.cli.context import Context, pass_ctx, split_tiers
from hermes_memory.cron.progress import Progress, default_mode
from hermes_memory.tools.context import TIERS, skill_recall_context


@click.command()
@click.argument("query", required=False, default="")
@click.option("--skill", "skill", required=True, help="Skill name (its SKILL.md may declare "
              "memory_tiers and memory_queries).")  # fmt: skip
@click.option("--tier", "tiers", multiple=True, type=click.Choice(TIERS),
              help="Search only these tiers (repeatable; default: the skill's).")  # fmt: skip
@click.option("--tiers", "listed", help="The same, comma-separated: tier1,tier2,tier3,graph.")
@click.option("--limit-per-tier", type=int, default=3, show_default=True)
@click.option("--chars", type=int, help="Character budget of the block.")
@pass_ctx
def context(
    ctx: Context,
    query: str,
    skill: str,
    tiers: tuple[str, ...],
    listed: str | None,
    limit_per_tier: int,
    chars: int | None,
) -> None:
    """Cross-tier memory for a skill, as one bounded block."""
    chosen = split_tiers(listed, tiers)
    out = skill_recall_context(
        ctx.searching(), skill, query, tiers=chosen, limit_per_tier=limit_per_tier, budget=chars
    )
    if not out["manifest"]:
        # Not an error (a skill need not declare anything), but say so: a typo in the
        # name would otherwise quietly search every tier with no declared queries.
        click.echo(
            f"note: no skill {skill!r} under {ctx.api().config.hermes_home / 'skills'}; "
            "searching with the query alone",
            err=True,
        )
    if ctx.as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False, default=str))
    else:
        click.echo(out["block"] or "no relevant memories")


@click.command("import-sessions")
@click.option("--state-db", type=click.Path(dir_okay=False, path_type=Path),
              help="Hermes' session database (default: $HERMES_HOME/state.db).")  # fmt: skip
@click.option("--session", help="Import only this session id.")
@click.option("--no-embed", is_flag=True, help="Leave embedding to the embed job.")
@pass_ctx
def import_sessions(
    ctx: Context, state_db: Path | None, session: str | None, no_embed: bool
) -> None:
    """Import Hermes' past conversations as recallable turns (idempotent, resumable)."""
    from hermes_memory.hermes.sessions import import_sessions as run_import

    api = ctx.api()
    path = state_db or api.config.hermes_home / "state.db"
    report = run_import(
        api, path, session=session, embed=not no_embed, progress=Progress(default_mode())
    )
    data = report.to_dict()
    if ctx.as_json:
        click.echo(json.dumps(data))
    else:
        click.echo(
            f"{data['sessions']} sessions, {data['messages']} messages: "
            f"{data['imported']} imported, {data['skipped']} already there or empty, "
            f"{data['embedded']} embedded"
        )


@click.command("mcp")
@pass_ctx
def mcp(ctx: Context) -> None:
    """Serve this memory to MCP clients (Claude Code, Cursor, ...) over stdio."""
    from hermes_memory.mcp.server import serve

    serve(ctx.api(embed_inline=True))
