"""One memory per process: the gateway's sessions share a store's heavy parts.

A Hermes gateway runs a provider per chat session in one process. Each used to open
its own SQLite connection, LanceDB table, exact-search copy of the vectors and
embedding model: ~22 MB per session for a 15k-item store, growing with every
tenant's rows. Sessions of one store now share one ``MemoryAPI`` and each sees it
through ``as_owner`` (its own owner, actor and access policy); the last session to
end closes it. Every use of the shared connection goes through its lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from hermes_memory.api.memory_api import MemoryAPI
from hermes_memory.config import MemoryConfig
from hermes_memory.tier2.records import Owner

_lock = threading.Lock()
_open: dict[str, _Entry] = {}


@dataclass
class _Entry:
    api: MemoryAPI
    users: int


def _key(config: MemoryConfig) -> str:
    # The same settings (hence the same files and model): anything else is another memory.
    return config.model_dump_json()


def acquire(config: MemoryConfig, *, owner: Owner, actor: str, record_access: bool) -> MemoryAPI:
    """A view of the process's memory for ``config`` as ``owner``; give it back with
    :func:`release`."""
    key = _key(config)
    with _lock:
        entry = _open.get(key)
        if entry is None:
            entry = _open[key] = _Entry(MemoryAPI(config, owner=owner, actor=actor), 0)
        entry.users += 1
        view = entry.api.as_owner(owner)
    view.actor = actor
    view.record_access = record_access
    return view


def release(view: MemoryAPI) -> None:
    """End one session's use; the last one closes the shared memory."""
    key = _key(view.config)
    with _lock:
        entry = _open.get(key)
        if entry is None:
            return
        entry.users -= 1
        if entry.users > 0:
            # Its graph is its own (per owner): saved, as a close would.
            view.save_graph()
            return
        del _open[key]
    entry.api.close()


def open_count() -> int:
    """How many memories this process holds open (for tests and status)."""
    with _lock:
        return len(_open)
