"""``hermes-memory backup`` / ``restore``: the profile's truth in one archive."""

from __future__ import annotations

import json
from pathlib import Path

import click

from hermes_memory.api.backup import backup as run_backup
from hermes_memory.api.backup import restore as run_restore
from hermes_memory.cli.context import Context, pass_ctx


@click.command()
@click.argument("dest", required=False, type=click.Path(path_type=Path))
@pass_ctx
def backup(ctx: Context, dest: Path | None) -> None:
    """Write a consistent backup (SQLite + MEMORY.md/USER.md) while the agent runs.

    DEST is a .tar.gz file or a directory (default: <memory dir>/backups/)."""
    out = run_backup(ctx.api(), dest)
    if ctx.as_json:
        click.echo(json.dumps(out, indent=2))
        return
    counts = ", ".join(f"{v} {k}" for k, v in out["counts"].items())
    click.echo(f"wrote {out['path']} ({out['bytes']:,} bytes): {counts}")


@click.command()
@click.argument("archive", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace a profile that already has memories "
              "(what it had is kept beside it).")  # fmt: skip
@pass_ctx
def restore(ctx: Context, archive: Path, force: bool) -> None:
    """Restore a backup: verify it, replace the truth, rebuild vectors and graph."""
    out = run_restore(ctx.api(), archive, force=force)
    if ctx.as_json:
        click.echo(json.dumps(out, indent=2))
        return
    counts = ", ".join(f"{v} {k}" for k, v in out["counts"].items())
    click.echo(f"restored {archive} (taken {out['created_at']}): {counts}")
    for path in out["kept"]:
        click.echo(f"kept the replaced copy: {path}")
    click.echo(", ".join(f"{k} {v}" for k, v in out["derived"].items()))
