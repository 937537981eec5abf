"""``hermes-memory hermes ...``: wiring hermes-memory into Hermes Agent."""

from __future__ import annotations

import json
from pathlib import Path

import click

from hermes_memory.cli.context import Context, pass_ctx
from hermes_memory.config import load_config
from hermes_memory.hermes import cron_jobs, install


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


def _home(ctx: Context, home: str | None) -> Path:
    return Path(home).expanduser() if home else ctx.config().hermes_home


@hermes.command("install")
@click.option("--home", "home", help="The Hermes home to install into (default: HERMES_HOME).")
@click.option("--no-skill", is_flag=True, help="Do not install the memory-recall skill.")
@click.option("--cron", "with_cron", is_flag=True, help="Also register the maintenance jobs.")
@pass_ctx
def install_cmd(ctx: Context, home: str | None, no_skill: bool, with_cron: bool) -> None:
    """Make hermes_memory Hermes' memory provider: plugin, config.yaml, skill."""
    target = _home(ctx, home)
    for line in install.install(target, skill=not no_skill):
        click.echo(line)
    if with_cron:
        config = load_config(target, ctx.profile)
        for item in cron_jobs.install(config):
            click.echo(f"{item['action']:<8} {item['name']}  (hermes cron job {item['id']})")
    click.echo("restart Hermes to load the provider; check with `hermes memory status`")


@hermes.command("uninstall")
@click.option("--home", "home", help="The Hermes home to remove it from.")
@pass_ctx
def uninstall_cmd(ctx: Context, home: str | None) -> None:
    """Undo `hermes install` (and the cron jobs); stored memory is kept."""
    target = _home(ctx, home)
    done = install.uninstall(target)
    if (target / "scripts").is_dir() and any(
        p.name.startswith(cron_jobs.SCRIPT_PREFIX) for p in (target / "scripts").iterdir()
    ):
        for item in cron_jobs.uninstall(load_config(target, ctx.profile)):
            done.append(f"{item['action']:<8} {item['name']}")
    for line in done or ["nothing to do"]:
        click.echo(line)


@hermes.command("status")
@click.option("--home", "home", help="The Hermes home to inspect.")
@pass_ctx
def status_cmd(ctx: Context, home: str | None) -> None:
    """Whether the plugin, the skill and the config entry are in place."""
    state = install.status(_home(ctx, home))
    provider = state["provider"]
    lines = "\n".join(
        [
            f"plugin: {'installed' if state['plugin'] else 'not installed'}",
            f"skill: {'installed' if state['skill'] else 'not installed'}",
            f"memory provider: {provider or 'none set in config.yaml'}"
            + ("" if provider in (None, "hermes_memory") else " (not hermes_memory)"),
        ]
    )
    click.echo(json.dumps(state) if ctx.as_json else lines)
