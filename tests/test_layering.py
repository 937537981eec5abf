"""The package's layering, checked over the source: each folder imports only the
folders below it (ARCHITECTURE.md), type-only imports included, and no cycle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "hermes_memory"
# Folder -> the folders it may import (besides itself and the shared root modules).
ALLOWED: dict[str, set[str]] = {
    "text": set(),
    "tier1": set(),
    "tier2": set(),
    "tier3": {"tier2", "text"},
    "graph": {"tier2", "text"},
    "api": {"tier1", "tier2", "tier3", "graph", "text"},
    "cron": {"api", "tier2", "tier3", "graph", "text"},
    "tools": {"api", "cron", "tier2", "text"},
    "hermes": {"api", "cron", "tools", "tier2"},
    "mcp": {"api", "tools"},
    "cli": {"api", "cron", "graph", "hermes", "mcp", "tier2", "tools"},
}


def _imports(path: Path) -> set[str]:
    """The hermes_memory modules ``path`` imports, dotted, at any depth of the file."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("hermes_memory"):
                out.add(node.module)
                out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("hermes_memory"))
    return out


def _folder(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else None


def test_every_folder_imports_only_the_folders_below_it() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        here = rel.parts[0] if len(rel.parts) > 1 else None
        for module in _imports(path):
            there = _folder(module)
            if there is None or there == here:
                continue
            if here is None:
                if rel.name != "__init__.py":  # the package's front exports the facade
                    wrong.append(f"{rel} (shared ground) imports {module}")
            elif there not in ALLOWED[here]:
                wrong.append(f"{rel} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_the_allowed_layering_has_no_cycle() -> None:
    assert set(ALLOWED) == {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    graph = nx.DiGraph([(a, b) for a, deps in ALLOWED.items() for b in deps])
    assert nx.is_directed_acyclic_graph(graph)


def test_text_reads_text_without_any_store() -> None:
    """text/ is pure: no SQLite, no LanceDB, no model, no clock."""
    for path in (PACKAGE / "text").glob("*.py"):
        found = _imports(path) | {
            n.names[0].name
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Import)
        }
        assert not {m for m in found if m.split(".")[0] in {"sqlite3", "lancedb", "torch"}}
        assert not {m for m in found if m.startswith("hermes_memory.clock")}


def test_no_module_reaches_into_another_objects_private_state() -> None:
    """``obj._name`` on anything but ``self``/``cls`` is allowed only in the module that
    defines ``_name``: rooms talk through public methods."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = {
            n.attr
            for n in ast.walk(tree)
            if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name)
            and n.value.id in ("self", "cls")
            and isinstance(n.ctx, ast.Store)
        } | {
            n.name
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        }
        for n in ast.walk(tree):
            if (
                isinstance(n, ast.Attribute)
                and n.attr.startswith("_")
                and not n.attr.startswith("__")
                and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))
                and n.attr not in own
            ):
                wrong.append(f"{path.relative_to(PACKAGE)}:{n.lineno} .{n.attr}")
    assert not wrong, "\n".join(wrong)


# Tables that are not tier 2's own: the job ledger's (cron/ledger.py keeps them).
TABLE_OWNERS = {"job_leases": "cron/ledger.py", "job_runs": "cron/ledger.py"}
# Who else may read tier 2's tables, and why: the derived projections read the truth
# they are rebuilt from; nothing outside tier 2 writes it.
READERS = {
    "graph/knowledge_graph.py": "the graph projection loads entities and relations",
    "tier3/semantic.py": "the vector index reads the text it embeds",
}
_WRITE = re.compile(r"\b(?:INSERT(?: OR \w+)? INTO|REPLACE INTO|UPDATE|DELETE FROM)\s+(\w+)")
_READ = re.compile(r"\b(?:FROM|JOIN)\s+(\w+)")


def _tables() -> set[str]:
    """Every table the schema creates: the first version's and the later migrations'."""
    text = "".join(
        (PACKAGE / "tier2" / name).read_text(encoding="utf-8")
        for name in ("core_schema.py", "migrations.py")
    )
    return set(re.findall(r"CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?(\w+)", text))


def _sql_touches(path: Path, tables: set[str]) -> tuple[set[str], set[str]]:
    """(tables written, tables read) by the SQL in ``path``'s string literals (upper-case
    keywords, as this code base writes SQL, so prose does not count)."""
    writes: set[str] = set()
    reads: set[str] = set()
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            writes |= {t for t in _WRITE.findall(n.value) if t in tables}
            reads |= {t for t in _READ.findall(n.value) if t in tables}
        elif isinstance(n, ast.JoinedStr):
            text = "".join(v.value for v in n.values if isinstance(v, ast.Constant))
            writes |= {t for t in _WRITE.findall(text) if t in tables}
            reads |= {t for t in _READ.findall(text) if t in tables}
    return writes, reads


def test_only_a_tables_owner_writes_it_and_only_declared_projections_read_it() -> None:
    """Tier 2 owns its tables: every statement that writes one is in ``tier2/`` (the
    job ledger's two in ``cron/ledger.py``), and outside it only the derived
    projections read them; everything else goes through tier 2's functions."""
    tables = _tables()
    assert {"facts", "episodes", "entities", "relations", "timeline"} <= tables
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        writes, reads = _sql_touches(path, tables)
        for table in writes | reads:
            owner = TABLE_OWNERS.get(table)
            mine = rel == owner if owner else rel.startswith("tier2/")
            if mine or (table not in writes and rel in READERS and owner is None):
                continue
            wrong.append(f"{rel} {'writes' if table in writes else 'reads'} {table}")
    assert not wrong, "\n".join(wrong)


def test_the_sql_scan_sees_statements() -> None:
    """The scan above finds what it looks for (so its silence means something)."""
    tables = _tables()
    writes, reads = _sql_touches(PACKAGE / "tier2" / "upkeep.py", tables)
    assert {"facts", "episodes"} <= writes
    assert "fact_claims" in reads
    writes, reads = _sql_touches(PACKAGE / "graph" / "knowledge_graph.py", tables)
    assert not writes and {"entities", "relations"} <= reads


def test_jobs_see_only_their_room() -> None:
    """The maintenance jobs work through ``api.maintenance.Maintenance`` (what they
    need, nothing more): only the scheduler, which hands it to them, knows the facade."""
    for path in sorted((PACKAGE / "cron").glob("*.py")):
        facade = {m for m in _imports(path) if m.startswith("hermes_memory.api.memory_api")}
        if path.name == "scheduler.py":
            continue
        assert not facade, f"cron/{path.name} imports {sorted(facade)}"


# The facade's stores and derived tiers: what only api/ (and the jobs' room) touch.
_STORES = {"db", "facts", "episodes", "entities", "timeline", "semantic", "linker"}


def test_the_front_doors_use_the_facades_public_methods() -> None:
    """The tool, the Hermes provider, MCP and the CLI call ``MemoryAPI``'s methods; none
    reaches through it into a store or a derived tier."""
    wrong = []
    for folder in ("tools", "hermes", "mcp", "cli"):
        for path in sorted((PACKAGE / folder).glob("*.py")):
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(n, ast.Attribute) and n.attr in _STORES | {"knowledge_graph"}:
                    wrong.append(f"{folder}/{path.name}:{n.lineno} .{n.attr}")
    assert not wrong, "\n".join(wrong)
