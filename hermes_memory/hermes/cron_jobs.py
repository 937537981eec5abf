"""Register the maintenance jobs in Hermes' own scheduler.

Hermes 0.19 gives agent-run cron jobs no memory, so each job is a ``no_agent``
script job: a small Python script in ``$HERMES_HOME/scripts/`` that calls our
CLI (``cron run JOB --quiet``: silent on success, so Hermes delivers nothing;
the error on failure). Hermes' ``cron.jobs`` module is used to create or update
the jobs, in a child process with ``HERMES_HOME`` set before Hermes is imported
(some of its paths are fixed at import). Jobs are recognised by name, so
running the install again updates them instead of adding copies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from hermes_memory.config import MemoryConfig
from hermes_memory.cron.scheduler import JOBS, schedule_of
from hermes_memory.errors import HermesMemoryError
from hermes_memory.fileio import write_atomic

SCRIPT_PREFIX = "hermes_memory_"

_SCRIPT = '''\
"""hermes-memory maintenance: {job} (written by `hermes-memory hermes install-cron`)."""
import sys

from hermes_memory.cli.main import main

sys.exit(main(["--home", {home!r}, "--profile", {profile!r}, "cron", "run", {job!r}, "--quiet"]))
'''

# Runs inside a child Python with HERMES_HOME set; reads the wanted jobs as JSON
# on stdin and prints what it did as JSON.
_REGISTER = r"""
import json, sys
try:
    from cron import jobs as hermes_jobs
except ImportError as exc:
    print(json.dumps({"error": f"Hermes Agent is not importable here: {exc}"}))
    sys.exit(0)
wanted = json.load(sys.stdin)
existing = {j.get("name"): j for j in hermes_jobs.list_jobs(include_disabled=True)}
done = []
for item in wanted["jobs"]:
    old = existing.get(item["name"])
    if wanted["remove"]:
        if old is not None:
            hermes_jobs.remove_job(old["id"])
            done.append({"name": item["name"], "action": "removed", "id": old["id"]})
        continue
    if old is None:
        job = hermes_jobs.create_job(
            None, item["schedule"], name=item["name"], script=item["script"], no_agent=True
        )
        done.append({"name": item["name"], "action": "created", "id": job["id"]})
    else:
        hermes_jobs.update_job(old["id"], {
            "schedule": item["schedule"], "script": item["script"], "no_agent": True,
            "enabled": True,
        })
        done.append({"name": item["name"], "action": "updated", "id": old["id"]})
print(json.dumps({"jobs": done}))
"""


def _writer(text: str) -> Callable[[BinaryIO], object]:
    return lambda fh: fh.write(text.encode("utf-8"))


def job_name(config: MemoryConfig, job: str) -> str:
    return f"hermes-memory {config.profile} {job}"


def install(config: MemoryConfig, *, python: str | None = None) -> list[dict[str, Any]]:
    """Write one script per job and create or update its Hermes cron job."""
    scripts = config.hermes_home / "scripts"
    scripts.mkdir(parents=True, exist_ok=True)
    wanted = []
    for job in JOBS:
        script = scripts / f"{SCRIPT_PREFIX}{config.profile}_{job}.py"
        text = _SCRIPT.format(job=job, home=str(config.hermes_home), profile=config.profile)
        write_atomic(script, _writer(text), prefix=".hm-")
        wanted.append(
            {
                "name": job_name(config, job),
                "schedule": schedule_of(config, job),
                "script": script.name,
            }
        )
    return _register(config, wanted, remove=False, python=python)


def uninstall(config: MemoryConfig, *, python: str | None = None) -> list[dict[str, Any]]:
    """Remove our jobs from Hermes' scheduler and delete their scripts."""
    wanted = [{"name": job_name(config, job)} for job in JOBS]
    done = _register(config, wanted, remove=True, python=python)
    for job in JOBS:
        (config.hermes_home / "scripts" / f"{SCRIPT_PREFIX}{config.profile}_{job}.py").unlink(
            missing_ok=True
        )
    return done


def _register(
    config: MemoryConfig, wanted: list[dict[str, Any]], *, remove: bool, python: str | None
) -> list[dict[str, Any]]:
    env = {**os.environ, "HERMES_HOME": str(config.hermes_home)}
    try:
        proc = subprocess.run(
            [python or sys.executable, "-c", _REGISTER],
            input=json.dumps({"jobs": wanted, "remove": remove}),
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            cwd=str(config.hermes_home),
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise HermesMemoryError(f"cannot run Hermes' scheduler: {exc}") from None
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        detail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise HermesMemoryError(f"Hermes' scheduler refused the jobs: {detail}")
    result = json.loads(lines[-1])
    if "error" in result:
        raise HermesMemoryError(
            f"{result['error']}; install hermes-agent in this Python or schedule "
            "`hermes-memory cron daemon` (or `cron run --due` from crontab) instead"
        )
    return list(result["jobs"])
