"""Install hermes-memory into a Hermes home, and take it out again.

``install`` writes the plugin shim (``plugins/hermes_memory/``), the skill
(``skills/memory-recall/SKILL.md``) and ``memory.provider: hermes_memory`` in
``config.yaml``, editing that file round-trip so its comments, order and every
other key stay as they were. The provider it replaced is remembered beside the
shim, and ``uninstall`` puts it back. Each file is written atomically.
"""

from __future__ import annotations

import io
import json
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from hermes_memory.errors import ConfigError, StorageError
from hermes_memory.fileio import write_atomic

PROVIDER = "hermes_memory"
SKILL = "memory-recall"
_STATE = "install.json"
_OURS = "hermes-memory"  # marker in files we wrote, so uninstall never removes others'


def plugin_dir(home: Path) -> Path:
    return home / "plugins" / PROVIDER


def skill_path(home: Path) -> Path:
    return home / "skills" / SKILL / "SKILL.md"


def _asset(name: str) -> str:
    return (resources.files("hermes_memory.hermes") / "assets" / name).read_text("utf-8")


def install(home: Path, *, skill: bool = True) -> list[str]:
    """Install into ``home``; returns what was done, one line each. Idempotent."""
    home = home.expanduser()
    done: list[str] = []
    target = plugin_dir(home)
    target.mkdir(parents=True, exist_ok=True)
    for name, dest in (("plugin_init.py", "__init__.py"), ("plugin.yaml", "plugin.yaml")):
        done.append(_write(target / dest, _asset(name)))
    previous = _set_provider(home / "config.yaml", PROVIDER)
    state_file = target / _STATE
    if not state_file.exists():  # a second install must not forget the first's original
        state = {"by": _OURS, "previous_provider": previous}
        _put(state_file, json.dumps(state, indent=2).encode())
    done.append(
        f"config   {home / 'config.yaml'}: memory.provider = {PROVIDER}"
        + (f" (was {previous})" if previous and previous != PROVIDER else "")
    )
    if skill:
        done.append(_write(skill_path(home), _asset("SKILL.md")))
    return done


def uninstall(home: Path) -> list[str]:
    """Reverse :func:`install`: restore the previous provider, remove shim and skill."""
    home = home.expanduser()
    done: list[str] = []
    target = plugin_dir(home)
    previous = None
    state_file = target / _STATE
    if state_file.exists():
        try:
            previous = json.loads(state_file.read_text("utf-8")).get("previous_provider")
        except (OSError, ValueError):
            previous = None
    config = home / "config.yaml"
    if config.exists() and _get_provider(config) == PROVIDER:
        _set_provider(config, previous)
        done.append(
            f"config   {config}: memory.provider = {previous or '(none: built-in memory only)'}"
        )
    if target.exists():
        shutil.rmtree(target)
        done.append(f"removed  {target}")
    skill_file = skill_path(home)
    if skill_file.exists() and "hermes_memory" in skill_file.read_text("utf-8"):
        shutil.rmtree(skill_file.parent)
        done.append(f"removed  {skill_file.parent}")
    return done


def status(home: Path) -> dict[str, Any]:
    home = home.expanduser()
    config = home / "config.yaml"
    return {
        "plugin": (plugin_dir(home) / "__init__.py").exists(),
        "skill": skill_path(home).exists(),
        "provider": _get_provider(config) if config.exists() else None,
    }


def set_agent_settings(home: str | Path, values: dict[str, Any]) -> None:
    """Write provider settings under ``memory.agent`` (Hermes' ``save_config``)."""
    from hermes_memory.config import AgentConfig

    allowed = set(AgentConfig.model_fields)
    unknown = sorted(set(values) - allowed)
    if unknown:
        raise ConfigError("unknown setting", key=f"agent.{unknown[0]}")
    AgentConfig(**values)  # validate before touching the file
    path = Path(home).expanduser() / "config.yaml"
    doc, yaml = _load(path)
    memory = doc.setdefault("memory", {})
    agent = memory.setdefault("agent", {})
    agent.update(values)
    _dump(path, doc, yaml)


# -- config.yaml, round-trip ---------------------------------------------------------------
def _yaml() -> YAML:
    yaml = YAML()  # round-trip: comments, key order and quoting survive
    yaml.preserve_quotes = True
    yaml.width = 4096
    return yaml


def _load(path: Path) -> tuple[Any, YAML]:
    yaml = _yaml()
    if not path.exists():
        return {}, yaml
    try:
        doc = yaml.load(path.read_text("utf-8"))
    except YAMLError as exc:
        raise StorageError(f"{path} is not valid YAML: {exc}", path=str(path)) from None
    if doc is None:
        return {}, yaml
    if not isinstance(doc, dict):
        raise StorageError(f"{path} is not a YAML mapping", path=str(path))
    return doc, yaml


def _dump(path: Path, doc: Any, yaml: YAML) -> None:
    buf = io.StringIO()
    yaml.dump(doc, buf)
    path.parent.mkdir(parents=True, exist_ok=True)
    _put(path, buf.getvalue().encode("utf-8"))


def _get_provider(path: Path) -> str | None:
    doc, _ = _load(path)
    memory = doc.get("memory")
    value = memory.get("provider") if isinstance(memory, dict) else None
    return str(value) if value else None


def _set_provider(path: Path, value: str | None) -> str | None:
    """Set (or with None, remove) ``memory.provider``; return the previous value."""
    doc, yaml = _load(path)
    memory = doc.get("memory")
    if memory is None:
        if value is None:
            return None
        memory = doc["memory"] = {}
    if not isinstance(memory, dict):
        raise StorageError(f"{path}: 'memory' is not a mapping", path=str(path))
    previous = memory.get("provider")
    if value is None:
        memory.pop("provider", None)
        if not memory:  # nothing else was set there: leave no empty section behind
            del doc["memory"]
    else:
        memory["provider"] = value
    if previous != value:
        _dump(path, doc, yaml)
    return str(previous) if previous else None


def _write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_text("utf-8") == text:
        return f"current  {path}"
    _put(path, text.encode("utf-8"))
    return f"wrote    {path}"


def _put(path: Path, data: bytes) -> None:
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    write_atomic(path, lambda f: f.write(data), prefix=f".{path.name}.")
    if mode is not None:  # the user's config.yaml keeps its permissions
        path.chmod(mode)
