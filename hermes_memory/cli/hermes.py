"""``hermes-memory hermes ...``: wiring hermes-memory into Hermes Agent."""

from __future__ import annotations

import click

from hermes_memory.cli.context import Context, pass_ctx
from hermes_memory.hermes import cron_jobs


@click.group()
def hermes() -> None:
    """Hermes Agent integration."""


@hermes.command("install-cron")
@click.option("--remove", is_flag=True, help="Remove the jobs (and their scripts) instead.")
@pass_ctx
def install_cron(ctx: Context, remove: bool) -> None:
    """Register the maintenance jobs in Hermes' scheduler (no-agent script jobs)."""
    config = ctx.config()
    done = cron_jobs.uninstall(config) if remove else cron_jobs.install(config)
    for item in done:
        click.echo(f"{item['action']:<8} {item['name']}  (hermes cron job {item['id']})")
    if not done:
        click.echo("nothing to do")
