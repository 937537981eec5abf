"""Bulk JSONL import: batches with their checkpoint, resume, bad lines, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hermes_memory import MemoryAPI, load_config, unwrap
from hermes_memory.api.bulk_import import import_jsonl
from hermes_memory.clock import FrozenClock
from hermes_memory.errors import ValidationError
from hermes_memory.text.version import EXTRACTOR_VERSION
from hermes_memory.tier3.embedder import HashingEmbedder
from tests.conftest import call, table_counts


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def _rows(n: int) -> list[object]:
    out: list[object] = []
    for i in range(n):
        if i % 3 == 0:
            out.append(
                {
                    "speaker": "Dana",
                    "text": f"Turn {i} about the compost heap",
                    "session_id": "s1",
                    "message_id": f"m{i}",
                }
            )
        else:
            out.append(
                {
                    "content": f"Fact {i}: the compost heap is turned weekly",
                    "category": "ops",
                    "importance": 0.4,
                }
            )
    return out


def test_import_is_batched_resumable_and_idempotent(api: MemoryAPI, tmp_path: Path) -> None:
    src = _write(tmp_path / "in.jsonl", [*_rows(25), "", {"type": "fact", "content": "Last"}])
    first = import_jsonl(api, src, batch_size=10).to_dict()
    assert (first["facts"], first["turns"], first["lines"]) == (17, 9, 27)
    assert first["embedded"] == 26
    again = import_jsonl(api, src, batch_size=10).to_dict()
    assert again["resumed_at_line"] == 27 and again["facts"] == again["turns"] == 0
    # The file grows: only the new lines are read.
    with src.open("a") as fh:
        fh.write(json.dumps({"content": "Appended later"}) + "\n")
    grown = import_jsonl(api, src, batch_size=10).to_dict()
    assert grown["resumed_at_line"] == 27 and grown["facts"] == 1
    assert api.fact_query("Appended")["data"]


class _CountingEmbedder(HashingEmbedder):
    """Records the size of every call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[int] = []

    def embed_batch(self, texts: list[str]) -> Any:
        self.calls.append(len(texts))
        return super().embed_batch(texts)


class _FlakyEmbedder(_CountingEmbedder):
    """Fails the first call of more than one text, then works: a model that chokes
    once on the import's worker thread."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = False

    def embed_batch(self, texts: list[str]) -> Any:
        if len(texts) > 1 and not self.failed:
            self.calls.append(len(texts))
            self.failed = True
            raise RuntimeError("model fell over")
        return super().embed_batch(texts)


def test_the_first_batches_are_small_so_the_model_starts_early(
    home: Path, clock: FrozenClock, tmp_path: Path
) -> None:
    embedder = _CountingEmbedder()
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=embedder) as api:
        src = _write(tmp_path / "in.jsonl", _rows(700))
        report = import_jsonl(api, src, batch_size=1000).to_dict()
        assert report["embedded"] == 700 and report["lines"] == 700
        assert sorted(embedder.calls) == [125, 250, 325]  # an eighth, doubling, the rest


def test_every_batch_gets_its_vectors_when_the_model_fails_on_one(
    home: Path, clock: FrozenClock, tmp_path: Path
) -> None:
    embedder = _FlakyEmbedder()
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=embedder) as api:
        src = _write(tmp_path / "in.jsonl", _rows(35))
        report = import_jsonl(api, src, batch_size=10).to_dict()
        assert report["embedded"] == 35
        assert embedder.failed and embedder.calls[:3] == [10, 10, 10]
        assert api.semantic is not None
        counts = api.semantic.counts()
        assert counts["indexed_items"] == 35
        # What is left to the embed job is the speaker's entity, not an imported line.
        left = api.db.query("SELECT item_kind FROM embed_queue")
        assert [r["item_kind"] for r in left] == ["entity"] and counts["missing"] == 1


def test_a_bad_line_rolls_back_its_batch_and_resumes_after_a_fix(
    api: MemoryAPI, tmp_path: Path
) -> None:
    rows = _rows(12)
    rows[7] = {"content": "bad importance", "importance": 7}
    src = _write(tmp_path / "in.jsonl", rows)
    with pytest.raises(ValidationError, match="line 8.*importance"):
        import_jsonl(api, src, batch_size=5)
    # Lines 1-5 were committed with their checkpoint; line 6-10's batch left nothing.
    assert api.db.scalar("SELECT lines_done FROM imports") == 5
    before = table_counts(api)
    rows[7] = {"content": "fixed importance", "importance": 0.7}
    _write(src, rows)  # lines 1-5 unchanged: the import resumes after them
    report = import_jsonl(api, src, batch_size=5).to_dict()
    assert report["resumed_at_line"] == 5 and report["duplicates"] == 0
    assert table_counts(api)["facts"] == before["facts"] + 5
    # A change inside the committed part starts over; what is known is recognised.
    rows[0] = {"content": "A new first line"}
    _write(src, rows)
    restart = import_jsonl(api, src, batch_size=5).to_dict()
    assert restart["resumed_at_line"] == 0 and restart["facts"] == 1
    assert restart["duplicates"] == 11


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"content": "x", "colour": "red"}', "unknown key 'colour'"),
        ('{"type": "memo", "content": "x"}', "type must be"),
        ('{"speaker": "a", "text": "b"}', "session_id"),
        ('{"content": "my key is sk-abcdefghijklmnopqrstuvwxyz123456"}', "line 1"),
    ],
)
def test_bad_lines_are_named_and_skippable(
    api: MemoryAPI, tmp_path: Path, line: str, message: str
) -> None:
    src = _write(tmp_path / "in.jsonl", [line, {"content": "A good fact"}])
    before = table_counts(api)
    with pytest.raises(ValidationError, match=message):
        import_jsonl(api, src)
    assert table_counts(api) == before
    report = import_jsonl(api, src, skip_invalid=True).to_dict()
    assert report["skipped"] == 1 and report["facts"] == 1
    assert report["skipped_lines"][0].startswith("line 1:")
    assert "line 1: line 1" not in report["skipped_lines"][0]  # the place said once


def test_cli_import(api: MemoryAPI, home: Path, tmp_path: Path) -> None:
    src = _write(tmp_path / "in.jsonl", _rows(6))
    run = subprocess.run(
        [sys.executable, "-m", "hermes_memory.cli", "--home", str(home), "import", str(src)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "4 facts, 2 turns" in run.stdout
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "hermes_memory.cli",
            "--home",
            str(home),
            "import",
            str(tmp_path / "missing.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1 and "no file at" in bad.stderr


def test_invalid_utf8_is_named_and_nothing_is_written(api: MemoryAPI, tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_bytes(b'{"content": "fine"}\n{"content": "\xff\xfe"}\n')
    before = table_counts(api)
    with pytest.raises(ValidationError, match="line 2: not UTF-8"):
        import_jsonl(api, src)
    assert table_counts(api) == before


def test_the_obvious_synonyms_are_read_and_a_wrong_key_is_named(tmp_path: Path) -> None:
    from hermes_memory.api.bulk_import import parse_line

    assert parse_line(1, '{"text": "We deploy on Fridays"}') == (
        "fact",
        {"content": "We deploy on Fridays"},
    )
    kind, turn = parse_line(
        2, '{"role": "user", "text": "hi", "session_id": "s", "message_id": "1"}'
    )  # noqa: E501
    assert kind == "turn" and turn["speaker"] == "user"
    with pytest.raises(ValidationError, match="did you mean 'category'"):
        parse_line(3, '{"content": "x", "categroy": "ops"}')


def _exported(home: Path, capsys: pytest.CaptureFixture[str], path: Path) -> list[dict]:
    code, out, err = call(home, capsys, "export", str(path))
    assert code == 0, err
    assert out.startswith(f"wrote {path}: ")
    return [json.loads(line) for line in path.read_text().splitlines()]


def _comparable(lines: list[dict]) -> list[str]:
    # Ids are per store, and an import links its facts in another order.
    dropped = ("id", "supersedes")
    return sorted(json.dumps({k: v for k, v in d.items() if k not in dropped}, sort_keys=True)
                  for d in lines)  # fmt: skip


def test_export_then_import_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    with MemoryAPI(load_config(first, env={}), embedder=HashingEmbedder()) as api:
        api.ingest_turn("user", "I use Neovim for everything.", session_id="s",
                        message_id="1", timestamp="2026-01-01T10:00:00Z")  # fmt: skip
        api.ingest_turn("user", "Actually, I switched from Neovim to Helix.", session_id="s",
                        message_id="2", timestamp="2026-02-01T10:00:00Z")  # fmt: skip
        api.fact_store("The billing database is PostgreSQL 16.", category="project",
                       importance=0.9, valid_at="2025-06-01T00:00:00Z")  # fmt: skip
        ended = unwrap(api.fact_store("Staging runs on Heroku.", category="ops"))
        unwrap(api.fact_update(ended["uuid"], invalid_at="2026-03-01T00:00:00Z"))
        unwrap(api.entity_ensure("ledger-service", "service", description="Double-entry ledger"))
        unwrap(api.entity_link("billing-service", "ledger-service", "depends_on", 0.7))
        unwrap(api.timeline_add("decision", "Chose Helix", timestamp="2026-02-01T10:00:00Z"))
    lines = _exported(first, capsys, tmp_path / "out.jsonl")
    kinds = [d["type"] for d in lines]
    assert kinds == sorted(kinds, key=["turn", "fact", "entity", "relation", "event"].index)
    helix = next(d for d in lines if d.get("content") == "I switched from Neovim to Helix.")
    neovim = next(d for d in lines if d.get("content") == "I use Neovim for everything.")
    assert helix["supersedes"] == [neovim["id"]] and helix["evidence_ids"] == ["2"]
    assert next(d for d in lines if d.get("content") == "Staging runs on Heroku.")["invalid_at"]
    ledger = next(d for d in lines if d.get("name") == "ledger-service")
    assert ledger["entity_type"] == "service" and ledger["description"] == "Double-entry ledger"
    # Names read from the text are not written: the import reads the text again.
    assert {d["name"] for d in lines if d["type"] == "entity"} == {
        "ledger-service",
        "billing-service",
    }
    assert {"type": "relation", "from": "billing-service", "relation": "depends_on",
            "to": "ledger-service", "strength": 0.7} in lines  # fmt: skip
    code, _, err = call(second, capsys, "import", str(tmp_path / "out.jsonl"))
    assert code == 0, err
    again = _exported(second, capsys, tmp_path / "again.jsonl")
    assert _comparable(again) == _comparable(lines)
    with MemoryAPI(load_config(second, env={}), embedder=HashingEmbedder()) as api:
        old = unwrap(api.fact_query("Neovim everything", formed=True))[0]
        assert old["superseded_by"] is not None
        derived = api.db.scalar("SELECT derived_by FROM entities WHERE name = 'PostgreSQL'")
        assert derived == EXTRACTOR_VERSION
