"""Deployment: the SAM template passes cfn-lint and matches the code; the zip is deterministic,
holds pdfthin and pypdf only, and stays small."""

from __future__ import annotations

import importlib
import importlib.util
import json
import marshal
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from cfnlint.decode import decode_str
from lambda_support import ROOT, build_zip, local_runtime

TEMPLATE = ROOT / "deploy" / "template.yaml"
CFN_LINT = Path(sys.executable).with_name("cfn-lint")
RUNTIME = f"python{sys.version_info.major}.{sys.version_info.minor}"


def cfn_lint(*templates: Path) -> subprocess.CompletedProcess[str]:
    assert CFN_LINT.is_file(), f"cfn-lint is not installed next to {sys.executable}"
    return subprocess.run(
        [str(CFN_LINT), *map(str, templates)],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )


def template() -> dict[str, Any]:
    decoded, problems = decode_str(TEMPLATE.read_text(encoding="utf-8"))
    assert not problems
    return decoded  # type: ignore[no-any-return]


def test_cfn_lint_passes_on_the_template() -> None:
    # ... and on the Step Functions batch's (tests/test_lambda_batch.py), in the same run.
    result = cfn_lint(TEMPLATE, TEMPLATE.with_name("batch-template.yaml"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_cfn_lint_would_catch_a_broken_template(tmp_path: Path) -> None:
    broken = tmp_path / "template.yaml"
    text = TEMPLATE.read_text(encoding="utf-8").replace("!Ref Timeout", "!Ref NoSuchParameter")
    broken.write_text(text, encoding="utf-8")
    result = cfn_lint(broken)
    assert result.returncode != 0
    assert "NoSuchParameter" in result.stdout


def test_the_template_matches_the_code() -> None:
    function = template()["Resources"]["PdfthinFunction"]["Properties"]
    assert function["Runtime"] == build_zip.RUNTIME
    assert function["Handler"] == local_runtime.HANDLER
    module, _, name = function["Handler"].rpartition(".")
    assert callable(getattr(importlib.import_module(module), name))
    code = (TEMPLATE.parent / function["CodeUri"]).resolve()
    assert code == build_zip.DEFAULT_OUTPUT
    # The function reads one bucket (and prefix), and nothing else; with no bucket given
    # (base64 documents only), no bucket and no S3 permission at all.
    conditions = template()["Conditions"]
    assert conditions["ReadsBucket"] == {
        "Fn::Not": [{"Fn::Equals": [{"Ref": "DocumentBucket"}, ""]}]
    }
    assert template()["Parameters"]["DocumentBucket"]["Default"] == ""
    (policy,) = function["Policies"]
    condition, statements, otherwise = policy["Fn::If"]
    assert condition == "ReadsBucket" and otherwise == {"Ref": "AWS::NoValue"}
    (statement,) = statements["Statement"]
    assert statement["Action"] == ["s3:GetObject", "s3:GetObjectVersion"]
    assert statement["Resource"] == {
        "Fn::Sub": "arn:${AWS::Partition}:s3:::${DocumentBucket}/${DocumentPrefix}*"
    }
    variables = function["Environment"]["Variables"]
    assert variables["PDFTHIN_S3_BUCKETS"] == {
        "Fn::If": ["ReadsBucket", {"Fn::Sub": "${DocumentBucket}/${DocumentPrefix}"}, ""]
    }
    assert function["FunctionUrlConfig"]["AuthType"] == {"Ref": "UrlAuthType"}


@pytest.mark.parametrize("bytecode", [False, True])
def test_the_zip_is_deterministic_and_holds_pdfthin_and_pypdf(
    tmp_path: Path, bytecode: bool
) -> None:
    first = build_zip.build(tmp_path / "a.zip", sys.executable, bytecode, runtime=RUNTIME)
    second = build_zip.build(tmp_path / "b.zip", sys.executable, bytecode, runtime=RUNTIME)
    if first.read_bytes() != second.read_bytes():
        with zipfile.ZipFile(first) as a, zipfile.ZipFile(second) as b:
            crcs = {i.filename: i.CRC for i in a.infolist()}
            differ = [i.filename for i in b.infolist() if crcs.get(i.filename) != i.CRC]
        raise AssertionError(f"two builds differ in {differ}")
    with zipfile.ZipFile(first) as archive:
        infos = archive.infolist()
    names = [info.filename for info in infos]
    assert names == sorted(names)
    assert {info.date_time for info in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {info.external_attr >> 16 for info in infos} == {0o100644}
    tops = {name.split("/")[0] for name in names}
    (meta,) = tops - {"pdfthin", "pypdf"}
    assert meta.startswith("pypdf-") and meta.endswith(".dist-info")
    assert sorted(n for n in names if n.startswith(meta)) == [
        f"{meta}/METADATA",
        f"{meta}/licenses/LICENSE",
    ]
    suffix = ".pyc" if bytecode else ".py"
    assert "pdfthin/adapters/aws/handler" + suffix in names
    assert "pypdf/_page" + suffix in names
    assert not [n for n in names if n.endswith(".py" if bytecode else ".pyc")]
    # The CID character collections travel with the engine; the other adapters stay behind.
    assert {
        f"pdfthin/engine/fonts/cidmaps/Adobe-{o}.bin" for o in ("Japan1", "GB1", "CNS1", "Korea1")
    } <= set(names)
    assert not [n for n in names if n.startswith(("pdfthin/adapters/mcp/", "pdfthin/cli."))]
    assert not [n for n in names if n.startswith("pdfthin/adapters/batch")]
    # The batch's work on one document and the chunk exports travel for Step Functions items.
    assert {"pdfthin/batch/work" + suffix, "pdfthin/exports" + suffix} <= set(names)
    # The OCR ports and loader travel (a function may bind a provider); the local Tesseract
    # binding, which needs programs Lambda does not have, stays behind.
    assert "pdfthin/ocr/loader" + suffix in names
    assert "pdfthin/ocr/tesseract" + suffix not in names
    # Under 1.3 MB either way (docs/lambda.md: it passed 1 MB when forms and annotations
    # joined the operations, 1.1 MB with citations, structured extraction and diffs, 1.2 MB
    # with pages found on demand, page labels and rows of figures cut into cells, 1.25 MB
    # with margin line numbers and the layout rules that came with five more unseen sources).
    assert first.stat().st_size < 1_300_000


@pytest.mark.parametrize("bytecode", [False, True])
def test_the_glyph_list_in_the_zip_is_pypdfs_table(tmp_path: Path, bytecode: bool) -> None:
    from pypdf._codecs.adobe_glyphs import adobe_glyphs

    built = build_zip.build(tmp_path / "a.zip", sys.executable, bytecode, runtime=RUNTIME)
    with zipfile.ZipFile(built) as archive:
        archive.extractall(tmp_path / "task")
    # pypdf first, as a fresh interpreter in the zip's tree would import it; then pdfthin.
    code = (
        "import json, sys\n"
        "from pypdf._codecs.adobe_glyphs import adobe_glyphs\n"
        "import pdfthin.adapters.aws.handler\n"
        "print(json.dumps(list(adobe_glyphs.items())))\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            f"import sys; sys.path.insert(0, {str(tmp_path / 'task')!r})\n" + code,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [list(item) for item in adobe_glyphs.items()]


def test_nothing_the_handler_runs_reads_the_docstrings_the_bytecode_leaves_out(
    tmp_path: Path,
) -> None:
    """The zip's bytecode has no docstrings (deploy/build_zip.py). Of everything in it only the
    MCP tools' schemas read one, and the handler does not serve schemas."""
    built = build_zip.build(tmp_path / "a.zip", sys.executable, False, runtime=RUNTIME)
    with zipfile.ZipFile(built) as archive:
        readers = sorted(
            name
            for name in archive.namelist()
            if name.endswith(".py")
            and any(
                word in archive.read(name).decode("utf-8", "replace")
                for word in ("__doc__", "getdoc", "pydoc")
            )
        )
    assert readers == ["pdfthin/operations/schema.py"]
    handler = (ROOT / "pdfthin" / "adapters" / "aws").rglob("*.py")
    assert not [path.name for path in handler if "schema" in path.read_text(encoding="utf-8")]


def test_nothing_reads_the_function_annotations_the_bytecode_leaves_out(tmp_path: Path) -> None:
    """pdfthin's functions lose their annotations in the zip's bytecode (deploy/build_zip.py);
    classes keep theirs. What reads annotations reads those of classes: the answers' TypedDicts
    (their schemas, and the metadata keys), never a function's."""
    built = build_zip.build(tmp_path / "a.zip", sys.executable, False, runtime=RUNTIME)
    with zipfile.ZipFile(built) as archive:
        readers = sorted(
            name
            for name in archive.namelist()
            if name.startswith("pdfthin/")
            and name.endswith(".py")
            and any(
                word in archive.read(name).decode("utf-8", "replace")
                # (inspect.get_annotations, not the get_annotations operation)
                for word in (
                    "__annotations__",
                    "get_type_hints",
                    "inspect.get_annotations",
                    "annotationlib",
                    "signature(",
                )
            )
        )
    assert readers == ["pdfthin/operations/describe.py", "pdfthin/operations/schema.py"]
    # An annotated function compiled as the build compiles it keeps its class annotations only.
    staged = tmp_path / "staged"
    (staged / "pdfthin").mkdir(parents=True)
    (staged / "pdfthin" / "m.py").write_text(
        "from __future__ import annotations\n"
        "class C:\n    x: int\n"
        "def f(a: int, *b: str, c: float = 1, **d: bytes) -> list[int]:\n    return [a]\n",
        encoding="utf-8",
    )
    subprocess.run([sys.executable, "-c", build_zip._COMPILE, str(staged), "/var/task"], check=True)
    code = marshal.loads((staged / "pdfthin" / "m.pyc").read_bytes()[16:])
    space: dict[str, Any] = {}
    exec(code, space)
    assert space["f"].__annotations__ == {} and space["f"](3) == [3]
    assert space["C"].__annotations__ == {"x": "int"}


def test_bytecode_only_for_the_runtime_version(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"python2\.7"):
        build_zip.build(tmp_path / "x.zip", sys.executable, runtime="python2.7")


def test_the_build_checks_its_interpreters_up_front_in_one_line(tmp_path: Path) -> None:
    script = str(ROOT / "deploy" / "build_zip.py")
    out = tmp_path / "never.zip"

    def run(python: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [python, script, "--output", str(out), *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    # Not a Python at all, and a Python of another version than the runtime's.
    for given in ("/bin/false", str(tmp_path / "missing-python")):
        done = run(sys.executable, "--python", given)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "not a Python interpreter" in done.stderr
    other = "python2.7" if build_zip.RUNTIME != "python2.7" else "python3.0"
    assert build_zip.setup_problem(sys.executable, True, runtime=other) is not None
    assert other in str(build_zip.setup_problem(sys.executable, True, runtime=other))
    # A Python without pypdf cannot pack it: said before anything is built. (A bare venv.)
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    done = run(str(bare / "bin" / "python"), "--sources")
    assert done.returncode == 2 and "has none" in done.stderr and done.stderr.count("\n") == 1
    assert not out.exists()


def test_the_local_runtime_checks_what_it_needs_before_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = ROOT / "examples" / "lambda-events" / "direct.json"
    good = tmp_path / "good.zip"
    with zipfile.ZipFile(good, "w") as archive:
        archive.writestr("pdfthin/__init__.pyc", importlib.util.MAGIC_NUMBER + b"\0" * 12)
    assert local_runtime.setup_problem(good, [event]) is None
    assert "no zip at" in str(local_runtime.setup_problem(tmp_path / "none.zip", [event]))
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("pdfthin/__init__.pyc", b"\x00\x00\r\n" + b"\0" * 12)
    assert "another Python" in str(local_runtime.setup_problem(other, [event]))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert "broken.json" in str(local_runtime.setup_problem(good, [broken]))
    # Without the runtime client, said at once (main exits 2, one line).
    real = local_runtime.importlib.util.find_spec
    monkeypatch.setattr(
        local_runtime.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "awslambdaric" else real(name, *a),
    )
    assert "pip install awslambdaric" in str(local_runtime.setup_problem(good, [event]))
    assert local_runtime.main(["--zip", str(good), str(event)]) == 2
