"""How a running job shows its advance, keeps its lease and learns it should stop.

On a terminal a stage is a tqdm bar; otherwise it is a plain log line at the start,
about every ten seconds and at the end (cron mail and the Hermes script runner get
readable lines, not carriage returns). Every advance also renews the job's lease
(via ``heartbeat``) and raises :class:`JobInterrupted` once a stop was requested,
so jobs stop at a safe point between two transactions.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Literal

log = logging.getLogger("hermes_memory.cron")

Mode = Literal["bar", "log", "quiet"]
_LOG_EVERY_S = 10.0
_HEARTBEAT_EVERY_S = 20.0


class JobInterrupted(Exception):
    """A stop was requested (SIGTERM, Ctrl-C); the job ends between two writes."""


def default_mode() -> Mode:
    return "bar" if sys.stderr.isatty() else "log"


class Progress:
    def __init__(
        self,
        mode: Mode = "quiet",
        *,
        stop: threading.Event | None = None,
        heartbeat: Callable[[], None] | None = None,
    ) -> None:
        self.mode = mode
        self.stop = stop or threading.Event()
        self.heartbeat = heartbeat
        self._beat_at = time.monotonic()

    def check(self) -> None:
        """Renew the lease when due; raise JobInterrupted if asked to stop."""
        if self.stop.is_set():
            raise JobInterrupted()
        if self.heartbeat is not None and time.monotonic() - self._beat_at >= _HEARTBEAT_EVERY_S:
            self.heartbeat()
            self._beat_at = time.monotonic()

    @contextlib.contextmanager
    def stage(self, name: str, total: int) -> Iterator[Callable[[int], None]]:
        """A named step of ``total`` units; the yielded function advances it."""
        self.check()
        if self.mode == "bar":
            from tqdm import tqdm

            with tqdm(total=total, desc=name, unit="", leave=False, file=sys.stderr) as bar:

                def advance_bar(n: int) -> None:
                    bar.update(n)
                    self.check()

                yield advance_bar
            return
        done = 0
        started = last = time.monotonic()
        if self.mode == "log" and total:
            log.info("%s: 0/%d", name, total)

        def advance(n: int) -> None:
            nonlocal done, last
            done += n
            if self.mode == "log" and time.monotonic() - last >= _LOG_EVERY_S:
                last = time.monotonic()
                log.info("%s: %d/%d", name, done, total)
            self.check()

        yield advance
        if self.mode == "log" and total:
            log.info("%s: %d/%d in %.1fs", name, done, total, time.monotonic() - started)


QUIET = Progress("quiet")
