"""Build the Lambda deployment package: ``dist/pdfthin-lambda.zip`` with pdfthin and pypdf only.

    python deploy/build_zip.py                      # bytecode for the template's runtime
    python deploy/build_zip.py --python PATH        # ... compiled by this python3.13
    python deploy/build_zip.py --sources            # sources only: smaller, slower cold start

- ``pdfthin/``: the package from this source tree, without the adapters the handler never
  imports (the MCP server, the command line) and the local Tesseract OCR binding;
- ``pypdf/`` with its license and metadata: from the pypdf installed for the interpreter that
  runs this script (``pip install 'pypdf>=7,<8'``).

Nothing else: boto3 is part of the Lambda runtime, and the handler imports it only for S3.

Bytecode: Lambda's code directory is read-only, so Python cannot cache what it compiles there and
every cold start would compile all of pypdf and pdfthin again (about three times the import
time). By default the package therefore holds sourceless ``.pyc`` files compiled by the
runtime's Python version (:data:`RUNTIME`, the template's ``Runtime``) instead of the ``.py``
files (without column tables: ``PYTHONNODEBUGRANGES``; without docstrings, and without the
annotations of pdfthin's functions, which nothing in the handler reads); ``--sources`` keeps
the sources
instead, for three quarters of the size and about 2.5 times the init. pypdf's Adobe Glyph List
is read from pdfthin's copy of the same table (one JSON string) rather than kept as a
4,500-entry dict display.

The zip is deterministic: sorted entries, fixed timestamps (1980-01-01) and modes, bytecode
compiled in one process in sorted order with a fixed hash seed (frozenset constants are ordered
by hash). The same sources, pypdf and interpreter give the same bytes, so CloudFormation sees
no change to deploy.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "dist" / "pdfthin-lambda.zip"
#: The Lambda runtime of deploy/template.yaml; bytecode is compiled for its Python version.
RUNTIME = "python3.13"
#: What Lambda calls the code directory (the paths tracebacks show).
TASK_ROOT = "/var/task"
#: Files of the pypdf distribution the package needs besides its code: its license (BSD: the
#: notice travels with the code) and its metadata; not the installer's records.
_PYPDF_META = ("METADATA", "LICENSE")
_EPOCH = (1980, 1, 1, 0, 0, 0)
#: The other adapters, which the handler never imports: the MCP server with its file-system
#: sandbox (its SDK is not in the zip either), the command line and the browser's.
_OTHER_ADAPTERS = (
    "pdfthin/adapters/mcp/",
    "pdfthin/mcp.py",
    "pdfthin/adapters/cli.py",
    "pdfthin/adapters/browser.py",
    "pdfthin/adapters/batch_command.py",
    "pdfthin/__main__.py",
    # pdfthin/batch/ and pdfthin/exports.py travel: a Step Functions batch item is done by the
    # batch's own work on one document (pdfthin/adapters/aws/items.py), imported for items only.
    # The retrieval frameworks' loaders stay behind (the frameworks are not in the zip).
    "pdfthin/integrations/",
    # The local OCR binding runs poppler and Tesseract, which the Lambda runtime does not
    # have; a function binds its own provider through the OCR loader, which stays.
    "pdfthin/ocr/tesseract.py",
)


def sources() -> dict[str, bytes]:
    """Archive name -> contents: pdfthin and pypdf as sources."""
    files: dict[str, Path] = {}
    for path in sorted((ROOT / "pdfthin").rglob("*")):
        name = path.relative_to(ROOT).as_posix()
        if (
            path.is_file()
            and "__pycache__" not in path.parts
            and path.suffix in (".py", ".typed", ".bin")
            and not name.startswith(_OTHER_ADAPTERS)
        ):
            files[name] = path
    try:
        dist = importlib.metadata.distribution("pypdf")
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit(
            "pypdf is not installed for this interpreter: pip install 'pypdf>=7,<8'"
        ) from None
    for entry in dist.files or ():
        name = entry.as_posix()
        top = name.split("/", 1)[0]
        if (top == "pypdf" and name.endswith((".py", ".typed"))) or (
            top.endswith(".dist-info") and name.rsplit("/", 1)[-1].startswith(_PYPDF_META)
        ):
            files[name] = Path(str(dist.locate_file(entry)))
    out = {name: path.read_bytes() for name, path in files.items()}
    out[_GLYPH_LIST] = compact_glyph_list()
    return out


#: pypdf's Adobe Glyph List: a 4,500-entry dict display whose bytecode alone is a quarter of
#: the zip. pdfthin ships the same table (``pdfthin/engine/fonts/_fontdata.py``, one JSON
#: string), so pypdf's module in the zip reads it from there, and the zip holds the table once.
_GLYPH_LIST = "pypdf/_codecs/adobe_glyphs.py"


def _pypdf_glyph_list() -> dict[str, str]:
    from pypdf._codecs.adobe_glyphs import adobe_glyphs  # the installed pypdf's own table

    return dict(adobe_glyphs)


def _pdfthin_glyph_list() -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    try:
        from pdfthin.engine.fonts import _fontdata
    finally:
        sys.path.remove(str(ROOT))
    table: dict[str, str] = json.loads(_fontdata.GLYPH_LIST_JSON)
    return {"/" + name: text for name, text in table.items()}


def compact_glyph_list() -> bytes:
    """A module defining pypdf's ``adobe_glyphs`` (the finished table, in the same order):
    read from pdfthin's copy where the two are the same table, else pypdf's as one JSON
    string."""
    pypdf_table = _pypdf_glyph_list()
    if list(pypdf_table.items()) == list(_pdfthin_glyph_list().items()):
        # Executed by pypdf's import, perhaps while pdfthin's own package is half imported:
        # the module is loaded from its file, not through the ``pdfthin`` package.
        return (
            b"# pypdf's Adobe Glyph List table (glyphlist.txt, Copyright 2002-2019 Adobe; see\n"
            b"# pypdf's LICENSE), read by pdfthin's deploy/build_zip.py from pdfthin's identical\n"
            b"# copy (pdfthin/engine/fonts/_fontdata.py) so that the zip holds it once: the same\n"
            b"# dict.\n"
            b"import importlib.util as _util\n"
            b"import json as _json\n"
            b"from pathlib import Path as _Path\n\n\n"
            b"def _table():\n"
            b"    folder = _Path(__file__).resolve().parents[2] / 'pdfthin' / 'engine' / 'fonts'\n"
            b"    path = folder / '_fontdata.pyc'\n"
            b"    if not path.exists():\n"
            b"        path = folder / '_fontdata.py'\n"
            b"    spec = _util.spec_from_file_location('_pdfthin_fontdata', path)\n"
            b"    module = _util.module_from_spec(spec)\n"
            b"    spec.loader.exec_module(module)\n"
            b"    return {'/' + k: v for k, v in _json.loads(module.GLYPH_LIST_JSON).items()}\n\n\n"
            b"adobe_glyphs = _table()\n"
        )
    table = json.dumps(pypdf_table, ensure_ascii=False, separators=(",", ":"))
    return (
        "# pypdf's Adobe Glyph List table (glyphlist.txt, Copyright 2002-2019 Adobe; see\n"
        "# pypdf's LICENSE), stored as JSON by pdfthin's deploy/build_zip.py: the same dict.\n"
        "import json as _json\n\n"
        f"adobe_glyphs = _json.loads({table!r})\n"
    ).encode()


def runtime_python(runtime: str = RUNTIME) -> str:
    """An interpreter of the runtime's version: this one, or ``python3.X`` on the PATH."""
    if runtime == f"python{sys.version_info.major}.{sys.version_info.minor}":
        return sys.executable
    found = shutil.which(runtime)
    if found is None:
        raise SystemExit(
            f"bytecode for the {runtime} runtime needs {runtime}: put it on the PATH, pass "
            "--python PATH, or build with --sources"
        )
    return found


_VERSION = "import sys; print(f'python{sys.version_info[0]}.{sys.version_info[1]}')"


def interpreter_version(python: str) -> str | None:
    """``python3.X`` of the interpreter at ``python``; ``None`` when it does not run."""
    try:
        done = subprocess.run(
            [
                python,
                "-c",
                "import sys; print(f'python{sys.version_info[0]}.{sys.version_info[1]}')",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def setup_problem(python: str | None, bytecode: bool, runtime: str = RUNTIME) -> str | None:
    """What keeps the zip from being built, in one line, checked before anything is packed:
    pypdf missing from the Python that runs this (its pypdf is what is packed), or no
    interpreter of the runtime's version to compile the bytecode."""
    if importlib.util.find_spec("pypdf") is None:
        return (
            f"the zip packs the pypdf of the Python running this ({sys.executable}), which has "
            "none: run it with the project's environment (pip install .)"
        )
    if not bytecode:
        return None
    if python is None:
        if runtime == f"python{sys.version_info.major}.{sys.version_info.minor}":
            return None
        if shutil.which(runtime) is None:
            return (
                f"bytecode for the {runtime} runtime needs {runtime}: put it on the PATH, pass "
                "--python PATH, or build with --sources"
            )
        return None
    version = interpreter_version(python)
    if version is None:
        return f"--python {python} is not a Python interpreter that runs here"
    if version != runtime:
        return (
            f"--python {python} is {version}, but the Lambda runtime is {runtime}: bytecode "
            "loads only in its own version (give a {runtime}, or build with --sources)"
        ).replace("{runtime}", runtime)
    return None


#: What compiles the staged sources, run by the runtime's Python: ``compileall -b`` with
#: unchecked-hash ``.pyc`` files named after ``TASK_ROOT``, except that docstrings are left
#: out (a sixth of the bytecode; line numbers stay). Nothing the handler runs reads one: pypdf
#: never reads ``__doc__``, and in pdfthin only the schemas of the MCP tools do
#: (``operations/schema.py``), which the handler does not serve. The annotations of pdfthin's
#: functions are left out too (about 2% of the zip): nothing reads a function's annotations;
#: classes keep theirs (dataclasses and TypedDicts read them). tests/test_lambda_deploy.py
#: checks all of this.
_COMPILE = """
import ast, importlib.util, marshal, sys
from pathlib import Path

staging, root = Path(sys.argv[1]), sys.argv[2]
DOCSTRING_HOLDERS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
for path in sorted(staging.rglob("*.py")):
    name = path.relative_to(staging).as_posix()
    source = path.read_bytes()
    tree = ast.parse(source, name)
    own = name.startswith("pdfthin/")
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, DOCSTRING_HOLDERS)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body[0] = ast.copy_location(ast.Pass(), body[0]) if len(body) == 1 else None
            node.body = [statement for statement in body if statement is not None]
        if own and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            # A function's annotations (strings: ``from __future__ import annotations``);
            # those of classes, which dataclasses and TypedDicts read, stay.
            arguments = node.args
            for argument in (
                *arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                arguments.vararg, arguments.kwarg,
            ):
                if argument is not None:
                    argument.annotation = None
            if not isinstance(node, ast.Lambda):
                node.returns = None
    code = compile(tree, root + "/" + name, "exec", dont_inherit=True)
    # PEP 552: a hash-based .pyc whose source is never checked.
    flags = (1).to_bytes(4, "little")
    header = importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source)
    Path(str(path) + "c").write_bytes(header + marshal.dumps(code))
"""


def to_bytecode(files: dict[str, bytes], python: str, runtime: str = RUNTIME) -> dict[str, bytes]:
    """``files`` with every ``.py`` replaced by its sourceless ``.pyc``, compiled by ``python``,
    which must be the runtime's version (a ``.pyc`` loads only in its own)."""
    version = interpreter_version(python)
    if version != runtime:
        raise SystemExit(f"{python} is {version}, but the runtime is {runtime}")
    with tempfile.TemporaryDirectory(prefix="pdfthin-lambda-") as tmp:
        staging = Path(tmp)
        for name, data in files.items():
            if name.endswith(".py"):
                target = staging / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        # One process, sorted order, fixed hash seed: the same bytes every time.
        subprocess.run(
            [python, "-c", _COMPILE, str(staging), TASK_ROOT],
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONNODEBUGRANGES": "1"},
        )
        return {
            (name + "c" if name.endswith(".py") else name): (
                (staging / (name + "c")).read_bytes() if name.endswith(".py") else data
            )
            for name, data in files.items()
        }


def build(
    output: Path = DEFAULT_OUTPUT,
    python: str | None = None,
    bytecode: bool = True,
    runtime: str = RUNTIME,
) -> Path:
    """Write the zip. ``runtime`` (``python3.X``) is the Python version the bytecode is for."""
    files = sources()
    if bytecode:
        files = to_bytecode(files, python or runtime_python(runtime), runtime)
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(output.name + ".tmp")
    with zipfile.ZipFile(partial, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.create_system = 3  # Unix, so that the mode below is honoured
            info.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    partial.replace(output)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--python", help=f"the {RUNTIME} interpreter that compiles the bytecode")
    parser.add_argument(
        "--sources", action="store_true", help="ship .py sources instead of bytecode"
    )
    args = parser.parse_args(argv)
    problem = setup_problem(args.python, not args.sources)
    if problem is not None:
        print(f"build_zip.py: {problem}", file=sys.stderr)
        return 2
    path = build(args.output, args.python, bytecode=not args.sources)
    data = path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        unpacked = sum(info.file_size for info in archive.infolist())
        count = len(archive.infolist())
    print(
        f"{path}: {len(data):,} bytes ({len(data) / 1024:.0f} KiB), {count} files, "
        f"{unpacked:,} bytes unpacked, sha256 {hashlib.sha256(data).hexdigest()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
