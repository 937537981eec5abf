"""Backup and restore of a profile's truth: the SQLite database and the curated files.

A backup is one ``.tar.gz``: ``tier2.db`` (SQLite's online backup, consistent at
one moment while writers go on), ``MEMORY.md`` and ``USER.md`` (read under Hermes'
file lock) and ``manifest.json`` (format, schema version, row counts, SHA-256 of
every file). Vectors and the graph are derived, so they are not in it: restore
rebuilds them. Restore checks everything before it changes anything (member names,
checksums, ``PRAGMA integrity_check``, schema version), keeps a copy of what it
replaces, and writes through the backup API and atomic file replaces.
"""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermes_memory.clock import to_iso
from hermes_memory.errors import StorageError, ValidationError
from hermes_memory.fileio import write_atomic
from hermes_memory.tier1.curated_store import STORES
from hermes_memory.tier2 import files as db_files
from hermes_memory.tier2.migrations import LATEST_VERSION
from hermes_memory.validation import require_output_outside

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

FORMAT = 1
DB_NAME = "tier2.db"
_MEMBERS = {"manifest.json", DB_NAME, *STORES.values()}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def default_name(api: MemoryAPI) -> str:
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(api.clock()))
    return f"hermes-memory-{api.config.profile}-{stamp}.tar.gz"


def backup(api: MemoryAPI, dest: Path | None = None) -> dict[str, Any]:
    """Write a backup archive to ``dest`` (a file, or a directory for the default
    name; default: the memory directory's ``backups/``)."""
    backups = api.config.memory_dir / "backups"
    if dest is None:
        dest = backups
    target = dest / default_name(api) if dest.is_dir() or dest.suffix == "" else dest
    require_output_outside(
        target, [api.config.memory_dir, api.config.curated_dir], [backups], "dest"
    )
    with tempfile.TemporaryDirectory(dir=api.config.memory_dir) as tmp:
        db_copy = Path(tmp) / DB_NAME
        api.db.backup_to(db_copy)
        version = db_files.check_file(db_copy)
        files = {DB_NAME: db_copy.read_bytes()}
        for store, name in STORES.items():
            files[name] = api.curated.read_raw(store).encode("utf-8")
        manifest = {
            "format": FORMAT,
            "created_at": to_iso(api.clock()),
            "profile": api.config.profile,
            "schema_version": version,
            "counts": db_files.file_counts(db_copy),
            "files": {name: _sha256(data) for name, data in files.items()},
        }
        files["manifest.json"] = json.dumps(manifest, indent=2).encode("utf-8")

        def write(fh: Any) -> None:
            with tarfile.open(fileobj=fh, mode="w:gz") as tar:
                for name, data in files.items():
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    info.mtime = int(api.clock())
                    info.mode = 0o600
                    tar.addfile(info, io.BytesIO(data))

        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_atomic(target, write, prefix=".backup_")
        target.chmod(0o600)
    return {"path": str(target), "bytes": target.stat().st_size, **manifest}


def read_archive(archive: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and files of a backup, every checksum verified."""
    if not archive.is_file():
        raise StorageError(f"no backup at {archive}", path=str(archive))
    files: dict[str, bytes] = {}
    try:
        with tarfile.open(archive, mode="r:gz") as tar:
            for member in tar.getmembers():
                # Only our own flat file names: nothing can land outside the target.
                if member.name not in _MEMBERS or not member.isfile():
                    raise StorageError(f"{archive}: unexpected member {member.name!r}")
                handle = tar.extractfile(member)
                assert handle is not None
                files[member.name] = handle.read()
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise StorageError(f"{archive} is not a readable backup: {exc}") from None
    if "manifest.json" not in files or DB_NAME not in files:
        raise StorageError(f"{archive} is not a hermes-memory backup (no manifest or database)")
    try:
        manifest = json.loads(files.pop("manifest.json"))
    except ValueError:
        raise StorageError(f"{archive}: manifest.json is not JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise StorageError(f"{archive}: unknown backup format")
    for name, digest in manifest.get("files", {}).items():
        if name not in files or _sha256(files[name]) != digest:
            raise StorageError(f"{archive}: {name} does not match its checksum")
    return manifest, files


def restore(api: MemoryAPI, archive: Path, *, force: bool = False) -> dict[str, Any]:
    """Replace the profile's truth with the backup's, then rebuild the derived tiers.

    Refuses a profile that already holds memories unless ``force``; what it replaces
    is kept as ``tier2.before-restore-<time>.db`` (and ``.md`` copies) beside it.
    """
    manifest, files = read_archive(archive)
    live = sum(db_files.table_counts(api.db, ("facts", "episodes")).values())
    if live and not force:
        raise ValidationError(
            f"this profile already holds {live} facts and turns; "
            "restore with --force to replace them (a copy of them is kept)",
            field="--force",
        )
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(api.clock()))
    kept: list[str] = []
    # Everything is verified before anything changes: the curated files too.
    curated: dict[str, str] = {}
    for store, name in STORES.items():
        if name in files:
            try:
                curated[store] = files[name].decode("utf-8")
            except UnicodeDecodeError:
                raise StorageError(f"{archive}: {name} is not valid UTF-8") from None
    with tempfile.TemporaryDirectory(dir=api.config.memory_dir) as tmp:
        incoming = Path(tmp) / DB_NAME
        incoming.write_bytes(files[DB_NAME])
        version = db_files.check_file(incoming)
        if version > LATEST_VERSION:
            raise StorageError(
                f"the backup's schema ({version}) is newer than this hermes-memory "
                f"understands ({LATEST_VERSION}); upgrade first"
            )
        if live:
            before = api.db.path.with_name(f"tier2.before-restore-{stamp}.db")
            api.db.backup_to(before)
            kept.append(str(before))
        api.db.restore_from(incoming)
    for store, text in curated.items():
        name = STORES[store]
        current = api.curated.read_raw(store)
        if current and current.encode("utf-8") != files[name]:
            copy = api.curated.path(store).with_name(f"{name}.before-restore-{stamp}")
            _write_bytes(copy, current.encode("utf-8"))
            kept.append(str(copy))
        api.curated.write_raw(store, text)
    derived = _rebuild_derived(api)
    return {
        "restored_from": str(archive),
        "created_at": manifest.get("created_at"),
        "counts": db_files.table_counts(api.db),
        "kept": kept,
        "derived": derived,
    }


def _rebuild_derived(api: MemoryAPI) -> dict[str, Any]:
    out: dict[str, Any] = {}
    vectors = api.rebuild()
    out["tier3"] = "rebuilt" if vectors["success"] else f"needs repair: {vectors['error']}"
    graph = api.graph_rebuild()
    out["graph"] = "rebuilt" if graph["success"] else f"needs repair: {graph['error']}"
    return out


def _write_bytes(path: Path, data: bytes) -> None:
    write_atomic(path, lambda fh: fh.write(data), prefix=".mem_")


def set_aside_corrupt(db_path: Path, clock: float) -> list[str]:
    """Move a database that cannot be opened (and its WAL files) aside, so a restore
    can write a good one in its place; the paths it was moved to."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(clock))
    moved = []
    for suffix in ("", "-wal", "-shm"):
        src = db_path.with_name(db_path.name + suffix)
        if src.exists():
            dst = db_path.with_name(f"tier2.corrupt-{stamp}.db{suffix}")
            src.replace(dst)
            moved.append(str(dst))
    return moved
