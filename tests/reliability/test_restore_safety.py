"""Restore trusts nothing it has not checked, and a damaged database is one clear line
and a restore away from working again."""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
import tarfile
from pathlib import Path
from typing import Any

import pytest

from hermes_memory import MemoryAPI, load_config
from hermes_memory.api.backup import backup, restore
from hermes_memory.errors import StorageError
from hermes_memory.tier3.embedder import HashingEmbedder
from tests.test_cli import call as _cli


def _api(home: Path) -> MemoryAPI:
    return MemoryAPI(load_config(home, env={}), embedder=HashingEmbedder(64))


def _tampered(archive: Path, out: Path, change: Any) -> Path:
    """``archive`` with ``change(files)`` applied and every checksum recomputed, as an
    attacker who can write the archive would."""
    with tarfile.open(archive, "r:gz") as tar:
        files = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    change(files)
    manifest = json.loads(files["manifest.json"])
    manifest["files"] = {
        n: hashlib.sha256(d).hexdigest() for n, d in files.items() if n != "manifest.json"
    }
    files["manifest.json"] = json.dumps(manifest).encode()
    with tarfile.open(out, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out


def _with_trigger(files: dict[str, bytes], tmp: Path) -> None:
    db = tmp / "evil.db"
    db.write_bytes(files["tier2.db"])
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TRIGGER leak AFTER INSERT ON facts BEGIN "
        "INSERT INTO timeline(uuid, event_type, title, timestamp, created_at) "
        "VALUES (new.uuid, 'note', new.content, 0, 0); END"
    )
    conn.commit()
    conn.close()
    files["tier2.db"] = db.read_bytes()


def test_an_archive_with_a_foreign_trigger_is_refused(
    tmp_path: Path, figures: dict[str, Any]
) -> None:
    with _api(tmp_path / "a") as api:
        api.fact_store("Alice's private note", category="general")
        archive = Path(backup(api, tmp_path / "good.tar.gz")["path"])
    evil = _tampered(archive, tmp_path / "evil.tar.gz", lambda f: _with_trigger(f, tmp_path))
    with _api(tmp_path / "b") as api:
        api.fact_store("Bob's own fact", category="general")
        with pytest.raises(StorageError, match="schema this hermes-memory did not make"):
            restore(api, evil, force=True)
        contents = [r["content"] for r in api.db.query("SELECT content FROM facts")]
    assert contents == ["Bob's own fact"]  # nothing changed
    figures.setdefault("restore", {})["foreign_trigger"] = "refused"


def test_an_undecodable_curated_file_changes_nothing(tmp_path: Path) -> None:
    with _api(tmp_path / "a") as api:
        api.fact_store("A fact to restore", category="general")
        archive = Path(backup(api, tmp_path / "good.tar.gz")["path"])

    def bad_memory(files: dict[str, bytes]) -> None:
        files["MEMORY.md"] = b"\xff\xfe not utf-8"

    bad = _tampered(archive, tmp_path / "bad.tar.gz", bad_memory)
    with _api(tmp_path / "b") as api:
        api.fact_store("What was here before", category="general")
        with pytest.raises(StorageError, match="MEMORY.md is not valid UTF-8"):
            restore(api, bad, force=True)
        contents = [r["content"] for r in api.db.query("SELECT content FROM facts")]
    assert contents == ["What was here before"]


def test_a_corrupt_database_is_one_line_and_restore_brings_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: dict[str, Any]
) -> None:
    home = tmp_path / "home"
    assert _cli(home, capsys, "remember", "We deploy with Nix")[0] == 0
    archive = tmp_path / "good.tar.gz"
    assert _cli(home, capsys, "backup", str(archive))[0] == 0
    db = load_config(home, env={}).db_path
    for suffix in ("-wal", "-shm"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
    db.write_bytes(b"x" * 100 + db.read_bytes()[100:])
    for command in (("doctor",), ("stats",), ("facts",), ("restore", str(archive))):
        code, _, err = _cli(home, capsys, *command)
        assert code == 1 and err.count("\n") == 1, command
        assert "not a readable memory database" in err
    code, out, _ = _cli(home, capsys, "restore", str(archive), "--force")
    assert code == 0 and "tier2.corrupt-" in out
    code, out, _ = _cli(home, capsys, "facts")
    assert code == 0 and "We deploy with Nix" in out
    figures.setdefault("restore", {})["corrupt_database"] = "one line; restored with --force"
