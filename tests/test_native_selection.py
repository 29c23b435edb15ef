"""Choosing the engine at startup: ``PDFTHIN_NATIVE`` / ``--native`` = auto, require, off.

``require`` on a host where the native module cannot load (not installed, an ABI mismatch, a
release that does not match) prints one line naming the host and the reason, and exits with
code 3, for every command (``serve`` included). ``auto`` falls back to pure Python there.
Capabilities say which engine answered.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from native_support import native_module
from pdfbuilder import PdfBuilder

from pdfthin.engine import _native, engine_info

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.add_page(b"BT /F1 12 Tf 72 700 Td (Hello native) Tj ET", resources={"Font": {"F1": font}})
    path = tmp_path_factory.mktemp("pdf") / "hello.pdf"
    path.write_bytes(b.build())
    return path


def _shadow(tmp_path: Path, body: str) -> dict[str, str]:
    """An environment whose ``pdfthin_native`` is a stand-in module with ``body``."""
    package = tmp_path / "shadow" / "pdfthin_native"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(body)
    env = {k: v for k, v in os.environ.items() if k != _native.ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "shadow"), str(ROOT)])
    return env


UNLOADABLE = 'raise ImportError("undefined symbol: PyUnicode_Foo (built for another ABI)")'
WRONG_RELEASE = "__version__ = '9.0.0'\ndef interpret(*a): pass\ndef tokenize(*a): pass\nFont = 1\n"
# A Rust panic while the module initialises reaches Python as PyO3's PanicException, which is
# a BaseException.
PANICKING = (
    "class PanicException(BaseException): pass\nraise PanicException('index out of bounds')\n"
)


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pdfthin", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (UNLOADABLE, "built for another ABI"),
        (WRONG_RELEASE, "does not match this pdfthin"),
        (PANICKING, "failed to initialise: index out of bounds"),
    ],
)
@pytest.mark.parametrize(
    "how",
    [
        ("env", ["describe", "{pdf}"]),
        ("option", ["--native", "require", "read", "{pdf}"]),
        ("option", ["find", "{pdf}", "Hello", "--native", "require"]),
        ("option", ["serve", "{root}", "--native", "require"]),
    ],
)
def test_require_without_the_module_is_one_line_and_exit_3(
    tmp_path: Path, pdf: Path, body: str, reason: str, how: tuple[str, list[str]]
) -> None:
    env = _shadow(tmp_path, body)
    kind, args = how
    if kind == "env":
        env[_native.ENV] = "require"
    args = [a.format(pdf=pdf, root=pdf.parent) for a in args]
    done = _cli(args, env)
    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "native accelerator is required but cannot load on" in lines[0]
    assert sys.platform in lines[0].lower() or "Linux" in lines[0] or "Darwin" in lines[0]
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in lines[0]
    assert reason in lines[0]


def test_require_when_not_installed(tmp_path: Path, pdf: Path) -> None:
    # A meta-path hook that finds nothing for the module: as on a host with no wheel.
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\n"
        "class _NoNative:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'pdfthin_native':\n"
        "            raise ModuleNotFoundError(\"No module named 'pdfthin_native'\", "
        "name='pdfthin_native')\n"
        "sys.meta_path.insert(0, _NoNative())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != _native.ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(blocker), str(ROOT)])
    env[_native.ENV] = "require"
    done = _cli(["read", str(pdf)], env)
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1
    assert "pdfthin-native is not installed" in done.stderr


def test_a_folder_named_like_the_module_is_not_the_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run from a checkout's root, ``import pdfthin_native`` finds the crate's source folder
    (a namespace package) when the wheel is not installed: that is "not installed", not a
    release that does not match."""
    folder = types.ModuleType("pdfthin_native")
    folder.__path__ = [str(ROOT / "pdfthin_native")]
    monkeypatch.setitem(sys.modules, "pdfthin_native", folder)
    module, reason = _native._load()
    assert module is None and reason is not None
    assert reason.startswith("pdfthin-native is not installed")
    assert str(ROOT / "pdfthin_native") in reason


def test_auto_falls_back_to_pure_and_says_why(tmp_path: Path, pdf: Path) -> None:
    env = _shadow(tmp_path, UNLOADABLE)
    done = _cli(["describe", str(pdf), "--format", "json"], env)
    assert done.returncode == 0, done.stderr
    engine = json.loads(done.stdout)["capabilities"]["engine"]
    assert engine["engine"] == "pure"
    assert engine["native_mode"] == "auto"
    assert "built for another ABI" in engine["native_unavailable"]
    read = _cli(["read", str(pdf)], env)
    assert "Hello native" in read.stdout


def test_off_is_pure_even_with_the_module(pdf: Path) -> None:
    env = dict(os.environ)
    env[_native.ENV] = "require"  # the option wins over the environment
    done = _cli(["--native", "off", "describe", str(pdf), "--format", "json"], env)
    assert done.returncode == 0, done.stderr
    engine = json.loads(done.stdout)["capabilities"]["engine"]
    assert engine == {**engine, "engine": "pure", "native_mode": "off"}
    assert "native_unavailable" not in engine


def test_an_unknown_mode_stops_at_startup(pdf: Path) -> None:
    env = {**os.environ, _native.ENV: "sometimes"}
    done = _cli(["read", str(pdf)], env)
    assert done.returncode == 3
    expected = "pdfthin: PDFTHIN_NATIVE must be one of auto, require, off, not 'sometimes'"
    assert done.stderr.strip() == expected
    bad_option = _cli(["--native", "sometimes", "read", str(pdf)], dict(os.environ))
    assert bad_option.returncode == 2


def test_native_answers_and_says_so(pdf: Path) -> None:
    module = native_module()
    env = {**os.environ, _native.ENV: "require"}
    done = _cli(["describe", str(pdf), "--format", "json"], env)
    assert done.returncode == 0, done.stderr
    engine = json.loads(done.stdout)["capabilities"]["engine"]
    assert engine["engine"] == "native"
    assert engine["native"] == module.__version__
    pure = _cli(["--native", "off", "read", str(pdf)], dict(os.environ))
    native = _cli(["--native", "require", "read", str(pdf)], dict(os.environ))
    assert native.stdout == pure.stdout and "Hello native" in native.stdout


def test_select_in_process() -> None:
    saved = (_native.NATIVE, _native.mode, _native.reason)
    try:
        _native.select("off")
        assert _native.NATIVE is None
        assert engine_info()["engine"] == "pure"
        _native.require()  # off never stops anything
        _native.select("bogus")
        with pytest.raises(_native.NativeUnavailable, match="must be one of"):
            _native.require()
        _native.select("auto")
        assert engine_info()["engine"] == ("native" if _native.NATIVE else "pure")
    finally:
        _native.NATIVE, _native.mode, _native.reason = saved


def test_only_the_engine_imports_the_native_module() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "pdfthin").rglob("*.py")
        if "pdfthin_native" in path.read_text(encoding="utf-8")
        and "import pdfthin_native" in path.read_text(encoding="utf-8")
        and path != ROOT / "pdfthin" / "engine" / "_native.py"
    ]
    assert offenders == []


def _imports(path: Path) -> set[str]:
    """The absolute names of the modules (and imported names) a module of pdfthin imports,
    relative imports resolved."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1] if node.level else [])
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_layout_and_model_never_consult_the_switch() -> None:
    """Rules are written once, in Python (invariant 10): the layout and the document model are
    the same code on both engine paths, so neither imports the switch nor the native module."""
    files = sorted((ROOT / "pdfthin" / "layout").rglob("*.py"))
    files += sorted((ROOT / "pdfthin" / "model").rglob("*.py"))
    assert len(files) > 15
    seen: set[str] = set()
    for file in files:
        imported = _imports(file)
        seen |= imported
        native = {n for n in imported if n.split(".")[-1] in ("_native", "pdfthin_native")}
        native |= {n for n in imported if n.startswith("pdfthin_native")}
        assert not native, f"{file.relative_to(ROOT)} imports {sorted(native)}"
    # the resolution works: the layout's own imports of the engine are seen as such
    assert "pdfthin.engine.types.TextRun" in seen
