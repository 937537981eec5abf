"""docs/configuration.md, generated from the typed config: every setting with its default,
its bounds and the comment written above it in config.py, so the docs cannot drift
from the code (a test compares them).

    python -m hermes_memory.configdoc > docs/configuration.md
"""

from __future__ import annotations

import ast
import inspect
import json
from typing import Any

from pydantic import BaseModel

from hermes_memory import config

_HEAD = """# Configuration reference

Generated from `hermes_memory/config.py` by `python -m hermes_memory.configdoc >
docs/configuration.md` (a test checks it is current). Set a key in the `memory:` section
of `$HERMES_HOME/config.yaml` (`recall: {graph_depth: 1}`) or as an environment variable
`HERMES_MEMORY_<SECTION>__<KEY>` (`HERMES_MEMORY_RECALL__GRAPH_DEPTH=1`); README.md,
"Configuration", says which source wins.
"""


def comments(cls: type) -> dict[str, str]:
    """The comment lines written just above each field of ``cls``, joined."""
    source = inspect.getsource(cls)
    lines = source.splitlines()
    out: dict[str, str] = {}
    previous: str | None = None
    for node in ast.parse(source).body[0].body:  # type: ignore[attr-defined]
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            previous = None
            continue
        said: list[str] = []
        row = node.lineno - 2
        while row >= 0 and lines[row].strip().startswith("#"):
            said.insert(0, lines[row].strip().lstrip("#").strip())
            row -= 1
        if said:
            out[node.target.id] = " ".join(said)
            previous = node.target.id
        elif previous is not None and node.target.id in out[previous]:
            out[node.target.id] = f"See `{previous}`."  # one comment for a group
        else:
            previous = None
    return out


def _bounds(field: Any) -> str:
    parts = []
    for m in field.metadata:
        for name, sign in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            value = getattr(m, name, None)
            if value is not None:
                parts.append(f"{sign} {value}")
    return ", ".join(parts)


def _value(value: Any) -> str:
    if isinstance(value, BaseModel):
        return "(section)"
    text = json.dumps(value, default=str)
    return f"`{text}`"


def defaults_markdown() -> str:
    """The whole reference page."""
    out = [_HEAD]
    sections = [
        (name, field.annotation)
        for name, field in config.MemoryConfig.model_fields.items()
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)
    ]
    for name, cls in sections:
        assert cls is not None
        said = comments(cls)
        doc = inspect.getdoc(cls) or ""
        out.append(f"\n## `{name}`\n")
        if doc:
            out.append(doc.replace("\n", " ") + "\n")
        out.append("| key | default | bounds | what it does |")
        out.append("|---|---|---|---|")
        defaults = cls()
        for key, field in cls.model_fields.items():
            meaning = said.get(key, "").replace("|", "\\|")
            value = _value(getattr(defaults, key))
            out.append(f"| `{key}` | {value} | {_bounds(field)} | {meaning} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(defaults_markdown(), end="")
