"""The docs must stay true to the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_memory.cli.main import cli
from hermes_memory.tier2 import Database

ROOT = Path(__file__).resolve().parent.parent


def test_every_table_is_documented_in_architecture(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.db")
    tables = {
        r[0]
        for r in db.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT LIKE '%_fts_%'"
        )
    }
    db.close()
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = sorted(t for t in tables if f"`{t}`" not in text)
    assert missing == []


def test_every_cli_command_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")

    def walk(group, prefix):  # type: ignore[no-untyped-def]
        for name, command in group.commands.items():
            path = f"{prefix} {name}"
            if hasattr(command, "commands"):
                walk(command, path)
            else:
                yield path

    import re

    lines = readme.splitlines()
    undocumented = []
    for path in walk(cli, "hermes-memory"):
        parent, _, leaf = path.rpartition(" ")
        leaf_word = re.compile(rf"(?<![\w-]){re.escape(leaf)}(?![\w-])")
        if not any(f"{parent} " in line and leaf_word.search(line) for line in lines):
            undocumented.append(path)
    assert undocumented == []


def test_readme_starts_with_the_two_setup_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```")[0].strip() for b in readme.split("```bash\n")[1:3]]
    assert blocks == [
        "bash scripts/setup.sh && .venv/bin/hermes-memory quickstart",
        ".venv/bin/python -m pytest -q",
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/setup.sh" in ci and "python -m pytest -q" in ci
    assert 'source "${HERMES_MEMORY_VENV:-.venv}/bin/activate"' in ci
    # Set-up installs into the project's environment, never the active Python.
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert "-m venv" in setup and "python -m pip" not in setup.replace('/bin/python" -m pip', "")


def test_the_configuration_reference_is_generated_from_the_config() -> None:
    from hermes_memory.configdoc import defaults_markdown

    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert page == defaults_markdown(), (
        "run: python -m hermes_memory.configdoc > docs/configuration.md"
    )
    assert not [row for row in page.splitlines() if row.endswith("|  |")]  # each says what


def test_the_readme_config_example_shows_the_defaults() -> None:
    """Every value in README.md's `memory:` example is the setting's default."""
    import yaml

    from hermes_memory.config import MemoryConfig

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = yaml.safe_load(readme.split("```yaml\n", 1)[1].split("```", 1)[0])["memory"]
    defaults = MemoryConfig()
    checked = 0
    for section, values in example.items():
        if not isinstance(values, dict):
            continue
        for key, value in values.items():
            actual = getattr(getattr(defaults, section), key)
            assert actual == value, f"README shows {section}.{key}: {value}, default {actual}"
            checked += 1
    assert checked >= 20


def test_the_readme_python_example_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    source = readme.split("```python\n", 1)[1].split("```", 1)[0]
    exec(source.replace('home="~/.hermes"', f"home={str(tmp_path)!r}"), {})
    assert "We migrated from PostgreSQL to MySQL" in capsys.readouterr().out
