"""pypdf as a dependency, not a copy (issue 19): ``pdfthin/`` uses pypdf's public API only.

A walk over every module's syntax tree fails on:

- an import of a private pypdf module (``pypdf._codecs``, ``pypdf.generic._base``) or of a
  private name from pypdf (``from pypdf.generic import _x``);
- an attribute ``x._name`` (read, written or deleted, on anything but ``self`` / ``cls`` of
  pdfthin's own classes) whose name is one of pypdf's private names, and the same name given
  to ``getattr``, ``setattr``, ``hasattr`` or ``delattr`` as a literal; every private name
  defined or used in the installed pypdf's source counts, so a private attribute is caught
  whatever variable holds the object;
- any private attribute of a pypdf module (``pypdf._reader``), whatever its name;
- a class of pdfthin derived from a pypdf class that defines a private method (an override of
  pypdf's internals) or touches ``self._name`` with one of pypdf's private names;
- reading code objects (``__code__``, ``__closure__``, ``co_consts``, ``cell_contents``, ...):
  pypdf's bytecode is not an interface either.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

import pypdf
import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Attributes that read a function's code or its closure's cells.
CODE_ATTRIBUTES = frozenset(
    {"__code__", "__closure__", "__globals__", "cell_contents", "f_code", "f_locals"}
)
#: ``getattr``-like built-ins, whose second argument names an attribute.
ATTRIBUTE_CALLS = ("getattr", "setattr", "hasattr", "delattr")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@functools.cache
def pypdf_private_names() -> frozenset[str]:
    """Every private name the installed pypdf defines or uses: attributes, functions,
    methods, classes, module-level names, modules."""
    names: set[str] = set()
    package = Path(pypdf.__file__).parent
    for file in package.rglob("*.py"):
        names.update(part.removesuffix(".py") for part in file.relative_to(package).parts)
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name):
                names.add(node.id)
    return frozenset(name for name in names if _private(name))


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _is_pypdf(module: str) -> bool:
    return module == "pypdf" or module.startswith("pypdf.")


def _pypdf_bindings(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The names a module binds to pypdf modules (``import pypdf``, ``import pypdf.generic
    as g``) and to anything imported from pypdf (classes, functions)."""
    modules: set[str] = set()
    objects: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_pypdf(alias.name):
                    modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_pypdf(node.module or ""):
            objects.update(alias.asname or alias.name for alias in node.names)
    return modules, objects


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _from_pypdf(base: ast.expr, modules: set[str], objects: set[str]) -> bool:
    if isinstance(base, ast.Name):
        return base.id in objects
    return isinstance(base, ast.Attribute) and _root_name(base) in modules


def check_file(source: str, path: str) -> list[Violation]:
    """The uses of pypdf's internals in ``source`` (the module at ``path``)."""
    private = pypdf_private_names()
    found: list[Violation] = []

    def flag(node: ast.AST, what: str) -> None:
        found.append(Violation(path, getattr(node, "lineno", 0), what))

    tree = ast.parse(source, filename=path)
    modules, objects = _pypdf_bindings(tree)
    # ``self`` of a class derived from a pypdf class is a pypdf object.
    pypdf_selves: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            _from_pypdf(base, modules, objects) for base in node.bases
        ):
            for item in ast.walk(node):
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(
                    item.name
                ):
                    flag(item, f"class {node.name} (a pypdf class) defines {item.name}")
                if isinstance(item, ast.Attribute):
                    pypdf_selves.add(id(item))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_pypdf(alias.name) and any(map(_private, alias.name.split("."))):
                    flag(node, f"imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if _is_pypdf(node.module):
                if any(map(_private, node.module.split("."))):
                    flag(node, f"imports {node.module}")
                for alias in node.names:
                    if _private(alias.name):
                        flag(node, f"imports {alias.name} from {node.module}")
        elif isinstance(node, ast.Attribute):
            if node.attr in CODE_ATTRIBUTES or node.attr.startswith("co_"):
                flag(node, f"reads {node.attr}")
            elif not _private(node.attr):
                continue
            elif isinstance(node.value, ast.Name) and node.value.id in modules:
                flag(node, f"uses {node.value.id}.{node.attr}")
            elif node.attr in private and (
                _root_name(node) not in ("self", "cls")
                or not isinstance(node.value, ast.Name)
                or id(node) in pypdf_selves
            ):
                flag(node, f"uses pypdf's private {node.attr}")
        elif isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Name)
                and func.id in ATTRIBUTE_CALLS
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and node.args[1].value in private
            ):
                flag(node, f"{func.id}(..., {node.args[1].value!r})")
    return found


def check_tree(root: Path) -> list[Violation]:
    found: list[Violation] = []
    for file in sorted((root / "pdfthin").rglob("*.py")):
        relative = file.relative_to(root).as_posix()
        found.extend(check_file(file.read_text(encoding="utf-8"), relative))
    return found


def test_pdfthin_uses_pypdf_public_api_only() -> None:
    violations = check_tree(ROOT)
    assert not violations, "\n".join(map(str, violations))


def test_the_walk_knows_pypdfs_private_names() -> None:
    # A walk that knew no private names would pass everything.
    names = pypdf_private_names()
    assert len(names) > 200
    assert {"_encryption", "_data", "_get_object_from_stream", "_codecs", "_utils"} <= names


@pytest.mark.parametrize(
    "source",
    [
        "from pypdf._codecs import adobe_glyphs\n",
        "import pypdf._utils\n",
        "import pypdf._codecs.pdfdoc as p\n",
        "from pypdf.generic._base import NameObject\n",
        "from pypdf.generic import _x\n",
        "from pypdf import _encryption\n",
        "import pypdf\nc = pypdf._configuration\n",
        "import pypdf\nv = pypdf._anything_new\n",
        "def f(reader):\n    return reader._encryption\n",
        "def f(stream):\n    return bytes(stream._data)\n",
        "def f(reader):\n    reader._override_encryption = True\n",
        "def f(a):\n    return a.b._known_objects\n",
        "def f(reader):\n    return getattr(reader, '_encryption', None)\n",
        "def f(reader):\n    setattr(reader, '_known_objects', set())\n",
        (
            "import pypdf\n"
            "class R(pypdf.PdfReader):\n"
            "    def _get_object_from_stream(self, ref):\n"
            "        return None\n"
        ),
        (
            "from pypdf import PdfReader\n"
            "class R(PdfReader):\n"
            "    def get_object(self, ref):\n"
            "        return self.resolved_objects.get(ref) or self._encryption\n"
        ),
        "import pypdf\ncode = pypdf.PdfReader.read.__code__\n",
        "def f(g):\n    return g.__closure__[0].cell_contents\n",
        "def f(code):\n    return code.co_consts\n",
    ],
)
def test_a_planted_private_use_is_caught(source: str) -> None:
    assert check_file(source, "pdfthin/engine/planted.py"), source


@pytest.mark.parametrize(
    "source",
    [
        "import pypdf\nfrom pypdf.generic import NameObject, StreamObject\nv = pypdf.__version__\n",
        "from pypdf.filters import decode_stream_data\n",
        "def f(reader):\n    return reader.trailer, reader.xref, reader.is_encrypted\n",
        "class Mine:\n    def __init__(self):\n        self._pages = []\n        self._data = b''\n"
        "    def size(self):\n        return len(self._data)\n",
        "def f(doc):\n    return doc._problems_of_our_own\n",
        "from pypdf import PdfReader\nclass R(PdfReader):\n    def one(self):\n        return 1\n",
    ],
)
def test_public_use_passes(source: str) -> None:
    assert check_file(source, "pdfthin/engine/planted.py") == []
