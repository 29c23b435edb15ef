"""The pypdf releases pdfthin is tested with (``pdfthin/engine/pypdf_version.py``): named once,
matching the project's files, reported in ``engine_info()`` and ``describe_document``'s
capabilities, and one warning line when the command line, the server or the Lambda function
starts on a pypdf outside the range (and no line inside it)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from pdfbuilder import PdfBuilder

from pdfthin.engine import engine_info, pypdf_version
from pdfthin.engine.pypdf_version import TESTED_PYPDF, in_tested_range, pypdf_info, pypdf_warning
from pdfthin.operations import Context, describe_document

ROOT = Path(__file__).resolve().parent.parent
#: A release after the tested range.
UNTESTED = "7.99.0"


def test_the_range_is_the_one_tox_and_pyproject_name() -> None:
    (low_major, low_minor), (high_major, high_minor) = TESTED_PYPDF
    tox = (ROOT / "tox.ini").read_text(encoding="utf-8")
    lowest = tox.split("[testenv:lowest]", 1)[1].split("\n[", 1)[0]
    pinned = re.findall(r"^\s*pypdf==(\d+)\.(\d+)\.0\s*$", lowest, re.MULTILINE)
    assert pinned == [(str(low_major), str(low_minor))], lowest
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    dependencies = re.search(r"^dependencies = \[(.*)\]$", pyproject, re.MULTILINE)
    assert dependencies is not None
    assert f'"pypdf>={low_major}.{low_minor},<{high_major + 1}"' in dependencies.group(1)
    assert (low_major, low_minor) <= (high_major, high_minor)


def test_the_installed_pypdf_is_in_the_tested_range() -> None:
    # The suite runs on the lowest release and on the newest one out (tox): a newer release
    # fails here until it has passed the rest of the suite and the range is widened.
    assert in_tested_range(pypdf.__version__), (
        f"pypdf {pypdf.__version__} is outside the tested range {pypdf_version.tested_range()}: "
        "run the suite and both corpus snapshots on it, then widen TESTED_PYPDF"
    )


@pytest.mark.parametrize(
    ("version", "inside"),
    [
        ("7.0.0", True),
        ("7.1.1", True),
        ("7.1.0rc1", True),
        (f"{TESTED_PYPDF[1][0]}.{TESTED_PYPDF[1][1] + 1}.0", False),
        ("6.9.9", False),
        ("8.0.0", False),
        ("", False),
        ("unknown", False),
    ],
)
def test_in_tested_range(version: str, inside: bool) -> None:
    assert in_tested_range(version) is inside


def test_engine_info_and_capabilities_report_it() -> None:
    info = engine_info()
    assert info["pypdf"] == pypdf.__version__
    assert info["pypdf_tested"] == pypdf_version.tested_range() == ">=7.0,<7.2"
    assert info["pypdf_in_tested_range"] is True
    b = PdfBuilder()
    b.add_page(b"")
    answer = describe_document(b.build(), context=Context())
    engine = answer["capabilities"]["engine"]
    assert {key: engine[key] for key in pypdf_info()} == pypdf_info()


def test_outside_the_range_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pypdf, "__version__", UNTESTED)
    assert engine_info()["pypdf_in_tested_range"] is False
    assert engine_info()["pypdf"] == UNTESTED
    warning = pypdf_warning()
    assert warning is not None and "\n" not in warning
    assert UNTESTED in warning and pypdf_version.tested_range() in warning


def test_inside_the_range_there_is_no_warning() -> None:
    assert pypdf_warning() is None


def _run(code: str, version: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter whose pypdf says it is ``version``."""
    prelude = f"import pypdf\npypdf.__version__ = {version!r}\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )


CLI = "import sys\nfrom pdfthin.adapters.cli import main\nsys.exit(main(sys.argv[1:]))\n"


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.add_page(b"BT /F1 12 Tf 72 700 Td (Hello range) Tj ET", resources={"Font": {"F1": font}})
    path = tmp_path_factory.mktemp("pdf") / "hello.pdf"
    path.write_bytes(b.build())
    return path


def _cli(version: str, *args: str) -> subprocess.CompletedProcess[str]:
    code = f"sys.argv[1:] = {list(args)!r}\n" + CLI
    return _run("import sys\n" + code, version)


@pytest.mark.parametrize("version", [UNTESTED, pypdf.__version__])
def test_the_command_line_warns_once_and_goes_on(pdf: Path, version: str) -> None:
    done = _cli(version, "read", str(pdf))
    assert done.returncode == 0, done.stderr
    assert "Hello range" in done.stdout
    if version == UNTESTED:
        assert done.stderr.splitlines() == [
            f"pdfthin: warning: pypdf {UNTESTED} is outside the tested range "
            f"({pypdf_version.tested_range()}); "
            "what it opens, how fast and what pages say may differ"
        ]
    else:
        assert done.stderr == ""


def test_the_server_warns_at_startup(tmp_path: Path) -> None:
    # A root that does not exist stops the server at startup, after the warning.
    done = _cli(UNTESTED, "serve", str(tmp_path / "missing"))
    assert done.returncode != 0
    lines = done.stderr.splitlines()
    assert lines[0].startswith(f"pdfthin: warning: pypdf {UNTESTED} is outside")
    assert sum("pypdf" in line for line in lines) == 1


def test_the_capabilities_of_the_command_line_say_it(pdf: Path) -> None:
    done = _cli(UNTESTED, "describe", str(pdf), "--format", "json")
    assert done.returncode == 0, done.stderr
    engine = json.loads(done.stdout)["capabilities"]["engine"]
    assert engine["pypdf"] == UNTESTED
    assert engine["pypdf_in_tested_range"] is False


@pytest.mark.parametrize("version", [UNTESTED, pypdf.__version__])
def test_the_lambda_function_warns_at_init(version: str) -> None:
    done = _run("import pdfthin.adapters.aws.handler\n", version)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "pypdf" in line]
    if version == UNTESTED:
        assert len(warnings) == 1 and f"pypdf {UNTESTED} is outside" in warnings[0]
    else:
        assert warnings == []
