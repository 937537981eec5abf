"""``hermes-memory cron ...``: the maintenance jobs and their scheduler."""

from __future__ import annotations

import json
import logging
import signal
import sys
import threading
from typing import Any

import click

from hermes_memory.cli.context import Context, pass_ctx
from hermes_memory.clock import parse_time
from hermes_memory.cron import scheduler
from hermes_memory.cron.progress import Progress, default_mode


def _logging(quiet: bool) -> None:
    logging.basicConfig(
        level=logging.WARNING if quiet else logging.INFO,
        format="%(asctime)s %(name)s %(message)s",
        stream=sys.stderr,
    )


@click.group()
def cron() -> None:
    """Maintenance jobs: consolidate, embed_queue, graph_refresh, prune, verify."""


@cron.command("list")
@pass_ctx
def list_jobs(ctx: Context) -> None:
    """Each job's schedule, last run, next run and status."""
    api = ctx.api()
    rows = scheduler.status(api, api.clock())
    if ctx.as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        state = "running" if r["running"] else (r["last_status"] or "never run")
        due = "  DUE" if r["due"] else ""
        click.echo(
            f"{r['job']:<14} {r['schedule']:<14} last {r['last_run'] or '-':<25} "
            f"next {r['next_run']:<25} {state}{due}"
        )
        if r["last_error"] and r["last_status"] == "failed":
            click.echo(f"{'':<14} error: {r['last_error']}")


@cron.command("run")
@click.argument("job", required=False)
@click.option("--due", "due_only", is_flag=True, help="Run the jobs that are due now.")
@click.option("--all", "run_all", is_flag=True, help="Run every job, due or not.")
@click.option("--now", "at", help="Pretend it is this time (ISO 8601), for --due.")
@click.option("--quiet", is_flag=True, help="Print nothing unless a job fails.")
@click.option("--verbose", is_flag=True, help="Also log each job's start and stages.")
@pass_ctx
def run(
    ctx: Context,
    job: str | None,
    due_only: bool,
    run_all: bool,
    at: str | None,
    quiet: bool,
    verbose: bool,
) -> None:
    """Run JOB, or the due jobs (--due), or all of them (--all): one line per job."""
    if sum([job is not None, due_only, run_all]) != 1:
        raise click.UsageError("give exactly one of JOB, --due or --all")
    # The summary lines below say how each job went; the log says it again only when
    # asked (the daemon and the Hermes script jobs log, as nothing prints for them).
    _logging(not verbose)
    api = ctx.api()
    now = parse_time(at, "now") if at else None
    stop = _stop_on_signals()
    if quiet or ctx.as_json:
        mode: Any = "quiet"
    else:
        mode = default_mode() if verbose else ("bar" if sys.stderr.isatty() else "quiet")
    progress = Progress(mode, stop=stop)
    if job is not None:
        outcomes = [scheduler.run_job(api, job, now=now, progress=progress)]
    elif due_only:
        outcomes = scheduler.run_due(api, now=now, progress=progress)
    else:
        outcomes = [
            scheduler.run_job(api, name, now=now, progress=progress) for name in scheduler.JOBS
        ]
    if ctx.as_json:
        click.echo(json.dumps([o.to_dict() for o in outcomes], indent=2, default=str))
    elif not quiet:
        if not outcomes:
            click.echo("no job is due")
        for o in outcomes:
            click.echo(_outcome_line(o))
    failed = [o for o in outcomes if o.status in ("failed", "busy")]
    if failed:
        if quiet:
            for o in failed:
                click.echo(_outcome_line(o), err=True)
        sys.exit(1)


def _outcome_line(o: scheduler.Outcome) -> str:
    if o.status == "ok" and o.report is not None:
        counts: dict[str, Any] = o.report["counts"]
        shown = ", ".join(f"{k} {v:,}" for k, v in counts.items() if v) or "nothing to do"
        notes = "".join(f"\n    {n}" for n in o.report["notes"])
        return f"{o.job}: ok in {o.report['seconds']:.2f}s: {shown}{notes}"
    return f"{o.job}: {o.status}: {o.error}"


@cron.command("daemon")
@click.option("--max-sleep", type=float, default=60.0, show_default=True, hidden=True)
@pass_ctx
def daemon(ctx: Context, max_sleep: float) -> None:
    """Run due jobs in the foreground until SIGTERM or Ctrl-C."""
    _logging(False)
    stop = _stop_on_signals()
    runs = scheduler.daemon(ctx.api(), stop, max_sleep=max_sleep)
    click.echo(f"stopped after {runs} run(s)")


def _stop_on_signals() -> threading.Event:
    """SIGTERM and SIGINT ask the running job to stop at its next safe point."""
    stop = threading.Event()

    def handler(signum: int, frame: Any) -> None:
        logging.getLogger("hermes_memory.cron").warning(
            "signal %d: stopping after the current step", signum
        )
        stop.set()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)
        signal.signal(signal.SIGINT, handler)
    return stop
