"""The import bans of docs/design.md, enforced where they are promised (issue 18, item 11).

- Invariant 8: no module of ``pdfthin/`` imports a network module (sockets, HTTP, URLs, mail,
  ...), anywhere, the engine included.
- Invariant 10: only ``pdfthin/engine/`` imports pypdf, and only ``pdfthin/engine/_native.py``
  imports ``pdfthin_native`` (one place, behind one switch).
- The adapters' own transports stay in their adapter: the MCP SDK and anyio in
  ``pdfthin/adapters/mcp/`` (the CLI only checks that the extra is installed), boto3 in
  ``pdfthin/adapters/aws/``, each retrieval framework in its loader in
  ``pdfthin/integrations/``.

Ruff's ``banned-api`` cannot be scoped to a directory (a per-file ignore lifts every ban at
once), so ruff bans only the network modules, everywhere in ``pdfthin/``, and this walk over
every module's syntax tree enforces the whole table. It sees ``import x``, ``from x import y``,
a name re-exported from another module (``from ..engine.document import pypdf``), and
``__import__`` / ``importlib.import_module`` with a literal name; a dynamic import whose name is
computed is allowed only where the user names the module (the OCR loader), and ``exec`` /
``eval`` nowhere.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Modules no file of pdfthin/ may import (invariant 8).
NETWORK = (
    "socket",
    "ssl",
    "socketserver",
    "http",
    "urllib",
    "urllib3",
    "ftplib",
    "smtplib",
    "poplib",
    "imaplib",
    "nntplib",
    "telnetlib",
    "xmlrpc",
    "wsgiref",
    "webbrowser",
    "requests",
    "httpx",
    "aiohttp",
    "websockets",
)

#: Module -> the files (globs relative to the repository) allowed to import it.
ALLOWED: dict[str, tuple[str, ...]] = {
    **{module: () for module in NETWORK},
    "pypdf": ("pdfthin/engine/*.py", "pdfthin/engine/**/*.py"),
    "pdfthin_native": ("pdfthin/engine/_native.py",),
    "mcp": ("pdfthin/adapters/mcp/*.py", "pdfthin/adapters/cli.py"),
    "anyio": ("pdfthin/adapters/mcp/*.py",),
    "pydantic": ("pdfthin/adapters/mcp/*.py",),
    "boto3": ("pdfthin/adapters/aws/*.py",),
    "botocore": ("pdfthin/adapters/aws/*.py",),
    "langchain_core": ("pdfthin/integrations/langchain.py",),
    "llama_index": ("pdfthin/integrations/llamaindex.py",),
}

#: Files that may import a module whose name is computed at run time: the OCR loader imports
#: the module the user names with ``--ocr`` (the port the user binds, invariants 8 and 9).
DYNAMIC_IMPORTS = ("pdfthin/ocr/loader.py",)
#: Calls that run code a walk of the syntax tree cannot see.
NO_CALLS = ("exec", "eval")


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _allowed(module: str, path: str) -> bool | None:
    """Whether ``path`` may import ``module``; ``None`` when no ban covers it."""
    top = module.split(".", maxsplit=1)[0]
    if top not in ALLOWED:
        return None
    return any(fnmatch.fnmatch(path, pattern) for pattern in ALLOWED[top])


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


_IMPORTERS = ("__import__", "import_module")


def _importer_names(tree: ast.AST) -> set[str]:
    """The names a module calls to import by name: ``__import__``, ``import_module`` and
    whatever ``from importlib import import_module as ...`` binds."""
    names = set(_IMPORTERS)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "importlib":
            names.update(a.asname or a.name for a in node.names if a.name in _IMPORTERS)
    return names


def _dynamic_import(call: ast.Call, importers: set[str]) -> bool:
    """``__import__(...)``, ``importlib.import_module(...)`` (any alias of either)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in importers
    return isinstance(func, ast.Attribute) and func.attr in _IMPORTERS


def check_file(source: str, path: str) -> list[Violation]:
    """The bans ``source`` (the module at ``path``, relative to the repository) breaks."""
    found: list[Violation] = []

    def ban(module: str, node: ast.AST) -> None:
        if _allowed(module, path) is False:
            found.append(Violation(path, getattr(node, "lineno", 0), f"imports {module}"))

    tree = ast.parse(source, filename=path)
    importers = _importer_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                ban(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                ban(node.module, node)
            for alias in node.names:  # a banned module re-exported by another module
                ban(alias.name, node)
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in NO_CALLS:
                found.append(Violation(path, node.lineno, f"calls {func.id}"))
            elif _dynamic_import(node, importers):
                name = _literal(node.args[0]) if node.args else None
                if name is not None:
                    ban(name, node)
                elif not any(fnmatch.fnmatch(path, p) for p in DYNAMIC_IMPORTS):
                    found.append(Violation(path, node.lineno, "imports a computed module name"))
    return found


def check_tree(root: Path) -> list[Violation]:
    """Every ban broken by a module under ``root/pdfthin``."""
    found: list[Violation] = []
    for file in sorted((root / "pdfthin").rglob("*.py")):
        relative = file.relative_to(root).as_posix()
        found.extend(check_file(file.read_text(encoding="utf-8"), relative))
    return found


def test_the_package_keeps_every_ban() -> None:
    violations = check_tree(ROOT)
    assert not violations, "\n".join(map(str, violations))


def test_the_walk_sees_the_whole_package() -> None:
    # A walk that silently found nothing would pass the test above.
    files = list((ROOT / "pdfthin").rglob("*.py"))
    assert len(files) > 50
    pypdf_users = [
        f for f in files if any("pypdf" in v.what for v in check_file(f.read_text(), "x.py"))
    ]
    assert len(pypdf_users) >= 5  # the engine's modules, seen by the walk


def _plant(tmp_path: Path, relative: str, source: str) -> list[Violation]:
    """The violations of a copy of the package with ``source`` added at ``relative``."""
    for file in (ROOT / "pdfthin").rglob("*.py"):
        target = tmp_path / file.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(file.read_text(encoding="utf-8"), encoding="utf-8")
    planted = tmp_path / relative
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_text(source, encoding="utf-8")
    return check_tree(tmp_path)


@pytest.mark.parametrize(
    ("relative", "source"),
    [
        # The hole of issue 18: the engine's exemption from the pypdf ban lifted this one too.
        ("pdfthin/engine/planted.py", "import socket\n"),
        ("pdfthin/engine/planted.py", "import socket  # noqa: TID251\n"),
        ("pdfthin/engine/sub/planted.py", "from http import client\n"),
        ("pdfthin/engine/planted.py", "import urllib.request as r\n"),
        ("pdfthin/engine/planted.py", "def f():\n    import ssl\n"),
        ("pdfthin/engine/planted.py", "m = __import__('socket')\n"),
        (
            "pdfthin/engine/planted.py",
            "import importlib\nm = importlib.import_module('http.client')\n",
        ),
        (
            "pdfthin/engine/planted.py",
            "import importlib\nm = importlib.import_module('so' + 'cket')\n",
        ),
        ("pdfthin/engine/planted.py", "eval(\"__import__('socket')\")\n"),
        ("pdfthin/model/planted.py", "import pypdf\n"),
        ("pdfthin/layout/planted.py", "from pypdf.generic import NameObject\n"),
        ("pdfthin/operations/planted.py", "from ..engine.document import pypdf\n"),
        ("pdfthin/engine/planted.py", "import pdfthin_native\n"),
        ("pdfthin/model/planted.py", "from mcp.server import mcpserver\n"),
        ("pdfthin/operations/planted.py", "import boto3\n"),
        ("pdfthin/adapters/mcp/planted.py", "import requests\n"),
        ("pdfthin/adapters/aws/planted.py", "from urllib3 import PoolManager\n"),
        ("pdfthin/exports.py", "from langchain_core.documents import Document\n"),
        ("pdfthin/integrations/langchain.py", "import llama_index.core\n"),
    ],
)
def test_a_planted_import_is_caught(tmp_path: Path, relative: str, source: str) -> None:
    violations = _plant(tmp_path, relative, source)
    assert [v.path for v in violations] == [relative], violations


@pytest.mark.parametrize(
    ("relative", "source"),
    [
        ("pdfthin/engine/planted.py", "import pypdf\nfrom pypdf.generic import NameObject\n"),
        ("pdfthin/engine/_native.py", "import pdfthin_native\n"),
        ("pdfthin/adapters/mcp/planted.py", "import anyio\nfrom mcp.types import TextContent\n"),
        ("pdfthin/adapters/aws/planted.py", "import boto3\n"),
        ("pdfthin/model/planted.py", "import socketlike\nimport httplib2x\n"),
    ],
)
def test_what_is_allowed_where_it_is_allowed(tmp_path: Path, relative: str, source: str) -> None:
    assert _plant(tmp_path, relative, source) == []


def test_ruff_bans_the_same_network_modules() -> None:
    """Ruff's list (which catches a network import as it is typed) and this walk's agree, and
    ruff's bans are lifted nowhere inside pdfthin/."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    banned = set(re.findall(r'^"([\w.]+)"\.msg\s*=', text, flags=re.MULTILINE))
    assert banned == set(NETWORK)
    ignores = text.split("[tool.ruff.lint.per-file-ignores]", 1)[1].split("\n[", 1)[0]
    for line in ignores.splitlines():
        if line.startswith('"pdfthin'):
            assert "TID251" not in line, line


def test_dir_of_the_package_is_its_public_api() -> None:
    # A REPL user's dir(pdfthin) lists what to use, not the modules and names the package
    # imports for itself; each name listed is there.
    import pdfthin

    assert dir(pdfthin) == sorted(pdfthin.__all__)
    assert all(hasattr(pdfthin, name) for name in dir(pdfthin))
    assert {"open", "chunks", "PdfthinError"} <= set(dir(pdfthin))


def test_install_hints_name_commands_that_work_while_pdfthin_is_unpublished() -> None:
    """pdfthin is installed from a checkout (README): a message or docstring telling someone to
    `pip install pdfthin[...]` names a command that fails; hints name the published package
    the feature needs, or the checkout's folder."""
    root = Path(__file__).resolve().parent.parent / "pdfthin"
    wrong = [
        f"{path.relative_to(root.parent)}:{number}"
        for path in sorted(root.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"pip install ['\"]?pdfthin\b", line)
    ]
    assert wrong == []
