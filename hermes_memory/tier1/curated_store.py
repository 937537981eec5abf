"""Read and edit Hermes' curated memory files exactly as its built-in tool does.

Format (hermes-agent 0.19.0 ``tools/memory_tool.py``): entries joined by
``"\\n§\\n"``, each stripped; a per-file character budget counted over the joined
text; writes under an exclusive ``flock`` on ``<file>.lock`` (the same lock file
Hermes takes, so the two writers exclude each other) and published by an atomic
temp-file + ``os.replace``. A file edited by hand into a shape that would not
survive a rewrite is refused for replace/remove, never silently truncated.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hermes_memory import guard
from hermes_memory.errors import (
    AmbiguousMatchError,
    CapacityError,
    CuratedFileError,
    NotFoundError,
    ValidationError,
)
from hermes_memory.fileio import write_atomic
from hermes_memory.validation import require_text

ENTRY_DELIMITER = "\n§\n"
STORES = {"memory": "MEMORY.md", "user": "USER.md"}


@dataclass(frozen=True)
class EditResult:
    store: str
    message: str
    entries: list[str]
    used_chars: int
    limit_chars: int
    changed: bool = True
    flags: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "store": self.store,
            "message": self.message,
            "changed": self.changed,
            "entry_count": len(self.entries),
            "usage": f"{self.used_chars:,}/{self.limit_chars:,}",
            "flags": self.flags,
        }


def parse_entries(raw: str) -> list[str]:
    """Split a curated file into entries (empty pieces dropped)."""
    if not raw.strip():
        return []
    return [e.strip() for e in raw.split(ENTRY_DELIMITER) if e.strip()]


def render_entries(entries: list[str]) -> str:
    return ENTRY_DELIMITER.join(entries)


class CuratedStore:
    """MEMORY.md and USER.md in one Hermes memories directory."""

    def __init__(
        self,
        directory: Path,
        *,
        memory_char_limit: int = 2200,
        user_char_limit: int = 1375,
        secrets_policy: str = "refuse",
    ) -> None:
        self.directory = Path(directory)
        self.limits = {"memory": memory_char_limit, "user": user_char_limit}
        # Tier 1 goes verbatim into the system prompt: injection is always refused,
        # and secrets are refused unless the policy redacts them.
        self.secrets_policy = secrets_policy

    # -- reading ----------------------------------------------------------------
    def path(self, store: str) -> Path:
        if store not in STORES:
            raise ValidationError(
                f"must be one of {', '.join(STORES)}; got {store!r}", field="store"
            )
        return self.directory / STORES[store]

    def entries(self, store: str = "memory") -> list[str]:
        """The live entries (read from disk on every call: never a stale copy)."""
        return parse_entries(self._read(self.path(store)))

    def read(self, store: str = "memory") -> str:
        return render_entries(self.entries(store))

    def read_raw(self, store: str) -> str:
        """The file's exact text, read under the writers' lock (for backups)."""
        path = self.path(store)
        with self._locked(path):
            return self._read(path)

    def write_raw(self, store: str, text: str) -> None:
        """Replace the file with ``text`` verbatim, atomically, under the lock (restore)."""
        path = self.path(store)
        data = text.encode("utf-8")
        with self._locked(path):
            write_atomic(path, lambda fh: fh.write(data), prefix=".mem_")

    def usage(self, store: str) -> tuple[int, int]:
        return len(self.read(store)), self.limits[store]

    # -- editing ----------------------------------------------------------------
    def add(self, content: str, store: str = "memory") -> EditResult:
        path = self.path(store)
        text, flags = self._screen(content, "content")
        with self._locked(path):
            entries = parse_entries(self._read(path))
            if text in entries:
                return self._result(store, entries, "entry already exists", changed=False)
            self._check_budget(store, [*entries, text])
            entries.append(text)
            self._write(path, entries)
        return self._result(store, entries, "entry added", flags=flags)

    def replace(self, old_text: str, new_content: str, store: str = "memory") -> EditResult:
        path = self.path(store)
        needle = require_text(old_text, "old_text", max_chars=self.limits[store])
        text, flags = self._screen(new_content, "new_content")
        with self._locked(path):
            entries = self._entries_for_rewrite(store, path)
            index = self._match(entries, needle)
            updated = list(entries)
            updated[index] = text
            if text in entries and entries.index(text) != index:
                updated.pop(index)  # the replacement already exists: do not duplicate it
            self._check_budget(store, updated)
            self._write(path, updated)
        return self._result(store, updated, "entry replaced", flags=flags)

    def remove(self, old_text: str, store: str = "memory") -> EditResult:
        path = self.path(store)
        needle = require_text(old_text, "old_text", max_chars=self.limits[store])
        with self._locked(path):
            entries = self._entries_for_rewrite(store, path)
            index = self._match(entries, needle)
            updated = entries[:index] + entries[index + 1 :]
            self._write(path, updated)
        return self._result(store, updated, "entry removed")

    # -- internals --------------------------------------------------------------
    def _screen(self, content: str, field_name: str) -> tuple[str, list[str]]:
        store_limit = max(self.limits.values())
        text = require_text(content, field_name, max_chars=store_limit)
        if ENTRY_DELIMITER.strip() in text.splitlines():
            raise ValidationError("must not contain a line holding only '§'", field=field_name)
        return guard.screen(text, field=field_name, secrets=self.secrets_policy, injection="refuse")

    def _check_budget(self, store: str, entries: list[str]) -> None:
        total = len(render_entries(entries))
        limit = self.limits[store]
        if total > limit:
            raise CapacityError(
                f"{STORES[store]} would hold {total:,}/{limit:,} characters; "
                "shorten the entry or remove stale ones first",
                store=store,
                used=total,
                limit=limit,
            )

    @staticmethod
    def _match(entries: list[str], needle: str) -> int:
        hits = [i for i, e in enumerate(entries) if needle in e]
        if not hits:
            raise NotFoundError("curated entry", needle, by="containing")
        if len({entries[i] for i in hits}) > 1:
            raise AmbiguousMatchError(needle, [entries[i] for i in hits])
        return hits[0]

    def _entries_for_rewrite(self, store: str, path: Path) -> list[str]:
        raw = self._read(path)
        entries = parse_entries(raw)
        too_long = any(len(e) > self.limits[store] for e in entries)
        if raw.strip() and (raw.strip() != render_entries(entries) or too_long):
            raise CuratedFileError(
                f"{path.name} has content that would not survive a rewrite (edited by hand?); "
                "rewrite it as entries separated by a line holding only '§', then retry",
                path=str(path),
            )
        return entries

    @staticmethod
    def _read(path: Path) -> str:
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""
        except UnicodeDecodeError:
            raise CuratedFileError(f"{path} is not valid UTF-8", path=str(path)) from None
        except OSError as exc:
            raise CuratedFileError(f"cannot read {path}: {exc.strerror}", path=str(path)) from None

    @staticmethod
    @contextlib.contextmanager
    def _locked(path: Path) -> Iterator[None]:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock_path = path.with_suffix(path.suffix + ".lock")
        with open(lock_path, "a+", encoding="utf-8") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @staticmethod
    def _write(path: Path, entries: list[str]) -> None:
        text = render_entries(entries).encode("utf-8")
        write_atomic(path, lambda fh: fh.write(text), prefix=".mem_")

    def _result(
        self,
        store: str,
        entries: list[str],
        message: str,
        *,
        changed: bool = True,
        flags: list[str] | None = None,
    ) -> EditResult:
        return EditResult(
            store=store,
            message=message,
            entries=entries,
            used_chars=len(render_entries(entries)),
            limit_chars=self.limits[store],
            changed=changed,
            flags=flags or [],
        )
