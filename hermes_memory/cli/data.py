"""Moving memory in and out: ``backup``, ``restore`` and bulk ``import``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from hermes_memory.api.backup import backup as run_backup
from hermes_memory.api.backup import read_archive, set_aside_corrupt
from hermes_memory.api.backup import restore as run_restore
from hermes_memory.api.bulk_import import count_lines, import_jsonl
from hermes_memory.api.export import export_to
from hermes_memory.cli.context import Context, pass_ctx
from hermes_memory.cron.progress import Progress, default_mode
from hermes_memory.errors import StorageError


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
@click.option(
    "--force",
    is_flag=True,
    help="Replace a profile that already has memories (what it had is kept beside it).",
)
@pass_ctx
def restore(ctx: Context, archive: Path, force: bool) -> None:
    """Restore a backup: verify it, replace the truth, rebuild vectors and graph."""
    set_aside: list[str] = []
    # The archive is checked before the profile is opened: a bad or missing one must
    # not leave a new, empty home behind.
    read_archive(archive)
    try:
        api = ctx.api()
    except StorageError as exc:
        # A database that cannot even be opened is replaced with --force: it is moved
        # aside first (kept), and the backup is restored into a fresh one.
        if not (force and exc.context.get("corrupt")):
            raise
        set_aside = set_aside_corrupt(ctx.config().db_path, time.time())
        api = ctx.api()
    out = run_restore(api, archive, force=force)
    out["kept"] = set_aside + out["kept"]
    if ctx.as_json:
        click.echo(json.dumps(out, indent=2))
        return
    counts = ", ".join(f"{v} {k}" for k, v in out["counts"].items())
    click.echo(f"restored {archive} (taken {out['created_at']}): {counts}")
    for path in out["kept"]:
        click.echo(f"kept the replaced copy: {path}")
    click.echo(", ".join(f"{k} {v}" for k, v in out["derived"].items()))


@click.command("export")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@pass_ctx
def export(ctx: Context, file: Path | None) -> None:
    """Write your memories as JSONL that `import` reads back (FILE, or standard output).

    Turns, then facts (with when they held, what they replaced and the messages they
    came from), entities, the relations and timeline events you added. What the graph
    derived from text is left out: an import derives it again.
    """
    counts = export_to(ctx.api(), None if file is None or str(file) == "-" else file)
    if file is not None and str(file) != "-":
        plural = {"entity": "entities"}
        said = ", ".join(f"{n} {plural.get(k, k + 's')}" for k, n in counts.items())
        said = said or "nothing to export"
        click.echo(json.dumps(counts) if ctx.as_json else f"wrote {file}: {said}")


@click.command("import")
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--skip-invalid",
    is_flag=True,
    help="Report bad lines and go on (default: stop at the first, its batch rolled back).",
)
@click.option("--no-embed", is_flag=True, help="Leave embedding to the embed job.")
@click.option(
    "--batch",
    "batch_size",
    type=click.IntRange(1, 10_000),
    default=1000,
    show_default=True,
    help="Lines per transaction (and per model call when embedding).",
)
@pass_ctx
def import_file(
    ctx: Context, file: Path, skip_invalid: bool, no_embed: bool, batch_size: int
) -> None:
    """Import facts and turns (or an `export`) from a JSONL file; resumes where an
    earlier run stopped.

    One JSON object a line. A fact: content, and optionally category, importance,
    confidence, scope, valid_at, expires_at, source_id, metadata. A turn: speaker (or
    role), text, session_id, message_id, and optionally timestamp, metadata. "type":
    "fact" or "turn" says which; otherwise a line with speaker and text is a turn, and
    {"text": ...} alone is a fact. For example:

    \b
    {"content": "We deploy on Fridays", "category": "decision", "importance": 0.8}
    {"speaker": "user", "text": "Use tabs", "session_id": "s1", "message_id": "1"}
    """
    api = ctx.api()
    total = count_lines(file) if file.is_file() else 0
    with Progress(default_mode()).stage("import", total) as advance:
        report = import_jsonl(
            api,
            file,
            batch_size=batch_size,
            skip_invalid=skip_invalid,
            embed=not no_embed,
            advance=advance,
        )
    data = report.to_dict()
    if ctx.as_json:
        click.echo(json.dumps(data))
        return
    resumed = f" (resumed after line {data['resumed_at_line']})" if data["resumed_at_line"] else ""
    click.echo(
        f"{data['lines']} lines{resumed}: {data['facts']} facts, {data['turns']} turns, "
        f"{data['duplicates']} already known, {data['skipped']} skipped, "
        f"{data['embedded']} embedded"
    )
    for line in data["skipped_lines"]:
        click.echo(f"skipped {line}", err=True)
