"""The rooms of pdfthin and which may import which (docs/design.md, "The layers").

Data flows one way: the engine reads PDF objects into positioned runs, layout turns runs into
blocks, the model turns pages into a document, operations answer requests about documents, and
the adapters put operations on a surface. A room imports only rooms below it; the operations
see the engine through its front (``pdfthin.engine``'s own names, never its modules) and open
documents in one place, the composition root; the adapters reach nothing below the
operations. A walk over every module's syntax tree holds the package to the table below, so a
shortcut across the layers fails here the moment it is written (ruff keeps every import
absolute, so a module's imports are its dotted names).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What every room may use: errors, deadlines, page ranges, the version.
BASE = ("pdfthin.errors", "pdfthin.deadline", "pdfthin.pages", "pdfthin._version")
#: Each room (a module or a package, longest prefix wins) -> the modules it may import.
ROOMS: dict[str, tuple[str, ...]] = {
    "pdfthin.errors": (),
    "pdfthin._version": (),
    "pdfthin.pages": ("pdfthin.errors",),
    "pdfthin.deadline": ("pdfthin.errors",),
    # Image codecs: plain samples in, PNG/TIFF/JBIG2 files out; no PDF objects.
    "pdfthin.images": (*BASE, "pdfthin.images"),
    "pdfthin.engine": (*BASE, "pdfthin.engine", "pdfthin.images"),
    # Layout is geometry: the engine's plain types and its text-direction helpers, no reading.
    "pdfthin.layout": (
        *BASE,
        "pdfthin.layout",
        "pdfthin.engine.types",
        "pdfthin.engine.content.bidi",
    ),
    "pdfthin.model": (*BASE, "pdfthin.model", "pdfthin.layout", "pdfthin.engine", "pdfthin.images"),
    "pdfthin.ocr": (*BASE, "pdfthin.ocr"),
    "pdfthin.operations": (*BASE, "pdfthin.operations", "pdfthin.model", "pdfthin.ocr"),
    # Chunks for indexing pipelines (JSON Lines, columns): on the operations, like an adapter.
    "pdfthin.exports": (*BASE, "pdfthin.operations"),
    # Many documents in worker processes: on the operations and the exports, like an adapter.
    "pdfthin.batch": (*BASE, "pdfthin.batch", "pdfthin.operations", "pdfthin.exports"),
    # Loaders for retrieval frameworks (LangChain, LlamaIndex): on the exports (and the
    # answers' types).
    "pdfthin.integrations": (
        *BASE,
        "pdfthin.integrations",
        "pdfthin.exports",
        "pdfthin.operations.types",
    ),
    "pdfthin.adapters": (
        *BASE,
        "pdfthin.adapters",
        "pdfthin.operations",
        "pdfthin.ocr",
        "pdfthin.exports",
        "pdfthin.batch",
    ),
    # The MCP server from Python: a front on its adapter.
    "pdfthin.mcp": (*BASE, "pdfthin.adapters.mcp", "pdfthin.ocr", "pdfthin.operations.reads"),
    "pdfthin.__main__": ("pdfthin.adapters.cli",),
}
#: Packages a room may import by their own names only (``from pdfthin.engine import Limits``),
#: not their modules: the engine's front, for the operations.
FRONTS: dict[str, tuple[str, ...]] = {"pdfthin.operations": ("pdfthin.engine",)}
#: The one module of operations that opens documents (and hands the adapters what they may
#: configure below: limits, the cache, the native switch).
COMPOSITION_ROOT = "pdfthin.operations.context"
#: What opens a document, importable only by the composition root among the operations.
OPENERS = ("open_pdf", "build_document")
#: The library's front door (``pdfthin.open``) composes the layers itself.
UNRESTRICTED = ("pdfthin",)


@dataclass(frozen=True)
class Crossing:
    module: str
    line: int
    target: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: imports {self.target}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module: str) -> str | None:
    matches = [r for r in ROOMS if module == r or module.startswith(r + ".")]
    return max(matches, key=len) if matches else None


def _within(target: str, allowed: tuple[str, ...]) -> bool:
    return any(target == a or target.startswith(a + ".") for a in allowed)


def imports(tree: ast.AST, package: str, root: Path) -> list[tuple[int, str]]:
    """Every pdfthin module ``tree`` imports, with its line: ``from a.b import c`` counts as
    ``a.b.c`` when that is a module and as ``a.b`` otherwise (a name of ``a.b``)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: ruff forbids them, but read them right anyway
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                is_module = (root / sub.replace(".", "/")).with_suffix(".py").exists() or (
                    root / sub.replace(".", "/") / "__init__.py"
                ).exists()
                found.append((node.lineno, sub if is_module else base))
    return [(line, t) for line, t in found if t == "pdfthin" or t.startswith("pdfthin.")]


def crossings(root: Path) -> list[Crossing]:
    out: list[Crossing] = []
    for file in sorted((root / "pdfthin").rglob("*.py")):
        module = module_name(file, root)
        if module in UNRESTRICTED:
            continue
        room = room_of(module)
        if room is None:
            out.append(Crossing(module, 0, "(a module in no room: add it to ROOMS)"))
            continue
        allowed = ROOMS[room]
        if module == COMPOSITION_ROOT:
            allowed = (*allowed, "pdfthin.engine")
        fronts = FRONTS.get(room, ())
        package = module if file.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
        for line, target in imports(tree, package, root):
            if target == module or _within(target, allowed) or target in fronts:
                continue
            out.append(Crossing(module, line, target))
        if room == "pdfthin.operations" and module != COMPOSITION_ROOT:
            out += [
                Crossing(module, node.lineno, f"{node.module}.{alias.name} (opens documents)")
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module
                for alias in node.names
                if alias.name in OPENERS and node.module.startswith("pdfthin.")
            ]
    return list(dict.fromkeys(out))


def test_every_room_imports_only_rooms_below_it() -> None:
    found = crossings(ROOT)
    assert not found, "\n".join(map(str, found))


def test_every_room_exists() -> None:
    # A renamed room would leave its rule behind, guarding nothing.
    for room in ROOMS:
        path = ROOT / room.replace(".", "/")
        assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), room


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("pdfthin/layout/planted.py", "from pdfthin.engine.document import EngineDocument\n"),
        ("pdfthin/layout/planted.py", "from pdfthin.engine import _native\n"),
        ("pdfthin/layout/planted.py", "from pdfthin.model import Document\n"),
        ("pdfthin/engine/planted.py", "from pdfthin.layout import layout_page\n"),
        ("pdfthin/model/planted.py", "import pdfthin.operations\n"),
        ("pdfthin/operations/planted.py", "from pdfthin.engine import open_pdf\n"),
        ("pdfthin/operations/planted.py", "from pdfthin.model import build_document\n"),
        ("pdfthin/operations/planted.py", "from pdfthin.engine.document import Limits\n"),
        ("pdfthin/operations/planted.py", "import pdfthin.engine.content.lexer\n"),
        ("pdfthin/operations/planted.py", "from pdfthin.adapters import cli\n"),
        ("pdfthin/adapters/planted.py", "from pdfthin.engine import Limits\n"),
        ("pdfthin/adapters/planted.py", "from pdfthin.model.cache import MAX_SIZE\n"),
        ("pdfthin/adapters/mcp/planted.py", "def f():\n    from pdfthin.layout import tables\n"),
        ("pdfthin/images/planted.py", "from pdfthin.engine import types\n"),
        ("pdfthin/integrations/planted.py", "from pdfthin.model import Document\n"),
        ("pdfthin/integrations/planted.py", "from pdfthin.operations.chunks import get_chunks\n"),
        ("pdfthin/newroom/planted.py", "x = 1\n"),
    ],
)
def test_a_crossing_is_caught(tmp_path: Path, module: str, source: str) -> None:
    for file in (ROOT / "pdfthin").rglob("*.py"):
        target = tmp_path / file.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(file.read_text(encoding="utf-8"), encoding="utf-8")
    planted = tmp_path / module
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_text(source, encoding="utf-8")
    found = crossings(tmp_path)
    assert [c.module for c in found] == [module_name(planted, tmp_path)], found
