from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_memory.cli.main import cli
from tests.conftest import call


def run(home: Path, *args: str) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "hermes_memory.cli", "--home", str(home), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_remember_then_facts(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(
        home,
        capsys,
        "remember",
        "We deploy with Nix",
        "--category",
        "ops",
        "--importance",
        "0.7",
        "--scope",
        "/ops/deploy",
    )
    assert code == 0 and "stored" in out
    code, out, _ = call(home, capsys, "facts", "deploy")
    assert code == 0 and "We deploy with Nix" in out and "/ops/deploy" in out
    code, out, _ = call(home, capsys, "--json", "facts", "deploy")
    env = json.loads(out)
    assert env["success"] and env["data"][0]["importance"] == 0.7


def test_remember_says_what_the_new_fact_supersedes(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = call(home, capsys, "remember", "The user prefers tabs over spaces")
    assert code == 0 and "supersedes" not in out
    code, out, _ = call(home, capsys, "remember", "The user prefers spaces now")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("stored: ")
    assert lines[1].startswith("  supersedes ") and lines[1].endswith(
        ": The user prefers tabs over spaces"
    )


def test_errors_are_one_line_and_non_zero(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(home, capsys, "remember", "x", "--importance", "3")
    assert code == 1 and out == ""
    assert err.strip() == "error: importance: must be in [0, 1], got 3.0"
    code, _, err = call(home, capsys, "remember", "x", "--category", "nope")
    assert code == 1 and len(err.strip().splitlines()) == 1
    code, _, err = call(home, capsys, "forget", "missing-id")
    assert code == 1 and "no fact" in err


def test_config_error_is_one_line(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home.mkdir(parents=True)
    (home / "config.yaml").write_text("memory:\n  recall:\n    semantic_weight: -1\n")
    code, _, err = call(home, capsys, "stats")
    assert code == 1
    assert err.strip().startswith("error: config recall.semantic_weight:")


def test_entity_timeline_curated_stats_doctor(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        call(home, capsys, "entity", "add", "Kubernetes", "--type", "tech", "--alias", "k8s")[0]
        == 0
    )
    code, out, _ = call(home, capsys, "entity", "link", "api", "depends_on", "k8s")
    assert code == 0 and "api -depends_on-> Kubernetes" in out
    code, out, _ = call(home, capsys, "entity", "show", "kubernetes")
    assert "api -depends_on-> Kubernetes" in out
    assert (
        call(
            home, capsys, "timeline", "add", "Ship v1", "--type", "milestone", "--at", "2026-01-05"
        )[0]
        == 0
    )
    code, out, _ = call(home, capsys, "timeline", "list")
    assert "2026-01-05" in out and "Ship v1" in out
    assert call(home, capsys, "timeline") == (0, out, "")  # alone, it lists
    assert call(home, capsys, "curated", "add", "Prefers vim", "--store", "user")[0] == 0
    assert call(home, capsys, "curated", "add", "Deploys on Fridays")[0] == 0
    code, out, _ = call(home, capsys, "curated", "show", "--store", "user")
    assert out.strip() == "Prefers vim"
    code, out, _ = call(home, capsys, "curated")  # alone, it shows MEMORY.md
    assert code == 0 and out.strip() == "Deploys on Fridays"
    code, out, _ = call(home, capsys, "curated", "remove", "vim", "--store", "user")
    assert code == 0
    code, out, _ = call(home, capsys, "--json", "stats")
    assert json.loads(out)["data"]["tier2"]["entities"] == 2
    code, out, _ = call(home, capsys, "doctor")
    assert code == 0 and "healthy" in out


def test_real_process_and_usage_error(home: Path) -> None:
    code, out, err = run(home, "remember", "from a subprocess")
    assert code == 0, err
    code, out, err = run(home, "no-such-command")
    assert code == 2 and "No such command" in err


def test_every_command_has_help() -> None:
    def walk(group, prefix=()):  # type: ignore[no-untyped-def]
        for name, command in group.commands.items():
            assert command.help, f"{' '.join((*prefix, name))} has no help text"
            if hasattr(command, "commands"):
                walk(command, (*prefix, name))

    walk(cli)


def test_quickstart_runs_on_defaults(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hermes_memory.cli", "quickstart", "--home", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    answer = lines[lines.index("? What database are we using?") + 1]
    # The demo shows supersession: the migration answers, ahead of what it ended.
    assert "from PostgreSQL to MySQL" in answer and "supersedes" in answer
    # The service the facts name and the one the demo links are one entity.
    at = lines.index("graph (MySQL):")
    assert lines[at + 1 : at + 3] == [
        "  orders -depends_on-> MySQL",
        "  orders -migrated_to-> MySQL",
    ]


def test_recall_rebuild_repair(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    call(home, capsys, "remember", "Deploys run from GitHub Actions", "--importance", "0.8")
    code, out, _ = call(home, capsys, "recall", "deploys github", "--limit", "3")
    assert code == 0 and out.startswith("1. ") and "Deploys run from GitHub Actions" in out
    assert "reasons:" in out
    assert re.search(r"\[tier2/fact, \d{4}-\d{2}-\d{2}\] similarity", out)  # when it was said
    # A curated entry shows no date: it has none (the block gives it none either).
    call(home, capsys, "curated", "add", "Deploys go out from the release branch")
    code, out, _ = call(home, capsys, "recall", "deploys release branch", "--tier", "tier1")
    assert code == 0 and "[tier1/curated_memory] similarity" in out
    code, out, _ = call(home, capsys, "rebuild")
    assert code == 0 and "rebuilt: 2 items, 2 vectors" in out  # the fact and GitHub Actions
    code, out, _ = call(home, capsys, "repair")
    assert code == 0 and "2/2 items indexed" in out
    code, _, err = call(home, capsys, "recall", "x", "--tiers", "tier9")
    assert code == 1 and "tiers" in err
    call(home, capsys, "remember", "Deploys need a green build first")
    code, out, _ = call(home, capsys, "recall", "deploys rollback plan", "--limit", "3")
    gaps = [line for line in out.splitlines() if "gaps:" in line]
    assert code == 0 and gaps == ["gaps: no memory mentions: rollback, plan"]  # once, last
    assert out.splitlines()[-1] == gaps[0]


def test_recall_shows_a_long_memory_by_its_matching_passage(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = " ".join(f"step {i}: copied shard {i} to the archive." for i in range(80))
    long = f"Nightly backup log. {log} The restore drill failed on the replica."
    call(home, capsys, "remember", long)
    code, out, _ = call(home, capsys, "recall", "why did the restore drill fail?", "--limit", "1")
    first = out.splitlines()[0]
    assert code == 0 and "restore drill failed" in first and "shard 3 " not in first
    assert first.endswith(f"[{len(long):,} chars; --full]")
    code, out, _ = call(home, capsys, "recall", "restore drill", "--limit", "1", "--full")
    assert code == 0 and out.splitlines()[0].endswith(long)


def test_exports_and_backups_never_overwrite_the_memory(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert call(home, capsys, "remember", "We deploy with Nix")[0] == 0
    from hermes_memory import load_config

    cfg = load_config(home, env={})
    db = cfg.db_path
    before = db.read_bytes()
    for args in (
        ("graph", "export", "--format", "json", "-o", str(db)),
        ("backup", str(db)),
        ("backup", str(cfg.memory_dir / "tier3" / "copy.tar.gz")),
        ("graph", "export", "-o", str(cfg.curated_dir / "MEMORY.md")),
    ):
        code, out, err = call(home, capsys, *args)
        assert code == 1 and err.count("\n") == 1 and "refusing to write" in err, args
    assert db.read_bytes()[:100] == before[:100]
    assert call(home, capsys, "backup")[0] == 0  # the default place is fine
    assert call(home, capsys, "graph", "export")[0] == 0


def test_forget_takes_the_id_the_cli_shows(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(home, capsys, "remember", "We deploy with Nix")
    short = out.split()[1]  # "stored: 57b600e3  [general] ..."
    assert code == 0 and len(short) == 8
    code, out, err = call(home, capsys, "forget", short)
    assert code == 0, err
    code, out, _ = call(home, capsys, "facts", "Nix")
    assert "We deploy with Nix" not in out
    code, _, err = call(home, capsys, "forget", "zzzzzzzz")
    assert code == 1 and "no fact" in err


def test_json_is_accepted_before_and_after_the_subcommand(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert call(home, capsys, "remember", "We deploy with Nix")[0] == 0
    for args in (("--json", "facts", "Nix"), ("facts", "Nix", "--json"), ("facts", "--json")):
        code, out, _ = call(home, capsys, *args)
        assert code == 0, args
        assert json.loads(out)["success"] is True, args
    code, out, _ = call(home, capsys, "remember", "--", "--json")  # after --, it is text
    assert code == 0 and "--json" in out


def test_usage_errors_are_one_line(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("facts", "--limit", "many"), ("no-such-command",), ("remember",)):
        code, _, err = call(home, capsys, *args)
        assert code == 2 and err.count("\n") == 1 and err.startswith("error: "), (args, err)


def test_entity_show_says_when_more_exist(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("alpha-service", "beta-service", "gamma-service"):
        assert call(home, capsys, "entity", "add", name, "--type", "project")[0] == 0
    code, out, _ = call(home, capsys, "entity", "show", "--limit", "2")
    assert code == 0 and "more than 2 match" in out
    code, out, _ = call(home, capsys, "entity", "show", "--limit", "3")
    assert code == 0 and "more than" not in out


def test_entity_show_finds_a_person_by_who_they_are_to_the_user_and_marks_what_ended(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert call(home, capsys, "remember", "My brother Tomas lives in Porto.")[0] == 0
    assert call(home, capsys, "remember", "Tomas moved to Coimbra.")[0] == 0
    code, out, _ = call(home, capsys, "entity", "show", "my brother")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Tomas (person, my brother)"
    assert "  Tomas -lives_in-> Coimbra" in lines
    assert any(ln.startswith("  Tomas -lives_in-> Porto  (ended ") for ln in lines)


def test_stats_and_status_are_for_people_unless_json(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert call(home, capsys, "remember", "We deploy with Nix")[0] == 0
    code, out, _ = call(home, capsys, "stats")
    assert code == 0 and out.startswith("profile: ") and "1 facts" in out
    assert not out.lstrip().startswith("{")
    code, out, _ = call(home, capsys, "stats", "--json")
    assert code == 0 and json.loads(out)["data"]["tier2"]["facts"] == 1
    code, out, _ = call(home, capsys, "hermes", "status", "--home", str(home))
    assert code == 0 and "plugin: not installed" in out and "False" not in out


def test_tiers_are_accepted_comma_separated_or_repeated(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call(home, capsys, "remember", "The billing service runs on PostgreSQL 16")
    for args in (["--tiers", "tier2,graph"], ["--tier", "tier2", "--tier", "graph"]):
        code, out, err = call(home, capsys, "--json", "recall", "billing database", *args)
        assert code == 0, err
        assert json.loads(out)["meta"]["tiers_queried"] == ["tier2", "graph"]
    code, out, err = call(home, capsys, "context", "--skill", "deploy", "--tiers", "tier2",
                          "billing")  # fmt: skip
    assert code == 0 and "PostgreSQL" in out
    assert "no skill 'deploy'" in err  # a missing skill is said, not silent


def test_a_failed_restore_leaves_no_home_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "fresh"
    code, _, err = call(home, capsys, "restore", str(tmp_path / "missing.tar.gz"))
    assert code == 1 and err.count("\n") == 1 and "no backup" in err
    assert not home.exists()


def test_remember_leaves_embedding_to_the_next_search(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hermes_memory import MemoryAPI, load_config
    from hermes_memory.tier3.embedder import HashingEmbedder

    code, _, err = call(home, capsys, "remember", "The billing service runs PostgreSQL 14")
    assert code == 0, err
    with MemoryAPI(load_config(home, env={}), embedder=HashingEmbedder()) as api:
        queued = "SELECT COUNT(*) FROM embed_queue WHERE item_kind = 'fact'"
        assert api.db.scalar(queued) == 1  # not embedded yet
    code, out, err = call(home, capsys, "--json", "recall", "billing PostgreSQL")
    assert code == 0, err
    (hit,) = json.loads(out)["data"]
    assert "semantic" in hit["match_reasons"]  # the search embedded what waited first
    with MemoryAPI(load_config(home, env={}), embedder=HashingEmbedder()) as api:
        assert api.db.scalar(queued) == 0
