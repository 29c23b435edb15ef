"""Pyodide parity: the same wheel gives the same JSON under Pyodide as under CPython.

``web/tests/parity.mjs`` loads Pyodide from ``web/node_modules`` (offline), installs the pdfthin
wheel built from this checkout and the pypdf wheel this interpreter's version names, and runs
``web/tests/parity_driver.py`` through the browser bridge on the files of
``web/tests/parity_cases.json``: describe, read, find (phrase and any-words), toc and images,
each following its cursors to the end. The same driver runs here under CPython on the same
wheel, unpacked, in a fresh process, on the pure engine (``PDFTHIN_NATIVE=off``: the native
accelerator is not in the wheel and cannot run in Pyodide). Every response must be the same JSON
text, byte for byte, except ``capabilities.engine`` in ``describe``: it may say how the native
switch was resolved, which differs between the hosts. It is compared apart: the engine is
``pure`` under Pyodide, and the pdfthin and pypdf versions there equal CPython's.

The one expected difference is marked in the cases (``pyodide_error``): AES needs
``cryptography``, which Pyodide does not have offline, so there the answer is the ``encrypted``
error naming it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from typing import Any

import pytest
from conftest import require_corpus
from webtools import CORPUS, WEB, build_dist, node, pypdf_version

CASES_PATH = WEB / "tests" / "parity_cases.json"
CASES: dict[str, Any] = json.loads(CASES_PATH.read_text(encoding="utf-8"))
FILES = [entry["path"] for entry in CASES["files"]]

pytestmark = [pytest.mark.corpus, pytest.mark.slow, pytest.mark.web]

CPYTHON_SIDE = """
import json, sys
site, src, tests, cases, corpus, out = sys.argv[1:]
sys.path[:0] = [site, src, tests]
import pdfthin, pypdf, parity_driver
assert pdfthin.__file__.startswith(site), pdfthin.__file__
result = {
    "interpreter": "cpython " + sys.version.split()[0],
    "versions": {"pdfthin": pdfthin.__version__, "pypdf": pypdf.__version__},
    "results": parity_driver.run(cases, corpus),
}
with open(out, "w", encoding="utf-8") as fh:
    json.dump(result, fh)
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Both sides' results: ``{"pyodide": ..., "cpython": ...}``."""
    node_bin = node()
    tmp = tmp_path_factory.mktemp("pyodide-parity")
    wheels = build_dist(tmp / "dist") / "wheels"
    pyodide_out = tmp / "pyodide.json"
    subprocess.run(
        [
            node_bin,
            str(WEB / "tests" / "parity.mjs"),
            "--wheels",
            str(wheels),
            "--out",
            str(pyodide_out),
            "--corpus",
            str(CORPUS),
            "--cases",
            str(CASES_PATH),
        ],
        check=True,
        timeout=1200,
    )
    site = tmp / "cpython-site"
    (wheel,) = wheels.glob("pdfthin-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    cpython_out = tmp / "cpython.json"
    subprocess.run(
        [
            sys.executable,
            "-c",
            CPYTHON_SIDE,
            str(site),
            str(WEB / "src"),
            str(WEB / "tests"),
            str(CASES_PATH),
            str(CORPUS),
            str(cpython_out),
        ],
        cwd=tmp,
        env={**os.environ, "PDFTHIN_NATIVE": "off"},
        check=True,
        timeout=1200,
    )
    return {
        "pyodide": json.loads(pyodide_out.read_text(encoding="utf-8")),
        "cpython": json.loads(cpython_out.read_text(encoding="utf-8")),
    }


def test_pyodide_really_ran(runs: dict[str, dict[str, Any]]) -> None:
    pyodide, cpython = runs["pyodide"], runs["cpython"]
    assert pyodide["interpreter"].startswith("pyodide 3.14"), pyodide["interpreter"]
    assert cpython["interpreter"].startswith("cpython ")
    assert pyodide["versions"]["pyodide"] == "314.0.7"
    assert pyodide["versions"]["pypdf"] == cpython["versions"]["pypdf"] == pypdf_version()
    assert pyodide["versions"]["pdfthin"] == cpython["versions"]["pdfthin"]
    assert sorted(pyodide["results"]) == sorted(cpython["results"]) == sorted(FILES)


def _comparable(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The calls with ``capabilities.engine`` taken out of each response (compared apart)."""
    out = []
    for call in calls:
        response = json.loads(call["response"])
        response.get("capabilities", {}).pop("engine", None)
        text = json.dumps(response, ensure_ascii=False, sort_keys=True)
        out.append({**call, "response": text})
    return out


def _engines(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        json.loads(call["response"])["capabilities"]["engine"]
        for call in calls
        if "capabilities" in json.loads(call["response"])
    ]


def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            left, right = x["response"], y["response"]
            at = next(
                (k for k in range(min(len(left), len(right))) if left[k] != right[k]),
                min(len(left), len(right)),
            )
            return (
                f"call {i} ({x['op']} {json.dumps(x['args'])[:120]}) differs at character {at}:\n"
                f"  cpython: …{left[max(0, at - 80) : at + 80]}…\n"
                f"  pyodide: …{right[max(0, at - 80) : at + 80]}…"
            )
    return f"{len(a)} calls under CPython, {len(b)} under Pyodide"


@pytest.mark.parametrize("path", FILES)
def test_same_json(runs: dict[str, dict[str, Any]], path: str) -> None:
    entry = next(e for e in CASES["files"] if e["path"] == path)
    cpython = runs["cpython"]["results"][path]["calls"]
    pyodide = runs["pyodide"]["results"][path]["calls"]
    versions = runs["cpython"]["versions"]
    for engine in _engines(pyodide):
        assert engine["engine"] == "pure", engine
        assert (engine["pdfthin"], engine["pypdf"]) == (versions["pdfthin"], versions["pypdf"])
    cpython, pyodide = _comparable(cpython), _comparable(pyodide)
    expected_error = entry.get("pyodide_error")
    if expected_error is None or not importlib.util.find_spec("cryptography"):
        assert cpython == pyodide, _first_difference(cpython, pyodide)
        return
    # AES without cryptography under Pyodide: every call answers the typed error, naming it.
    for call in pyodide:
        error = json.loads(call["response"])["error"]
        assert error["code"] == expected_error, call
        assert error["details"] == {"needs": "cryptography"}, call
    # CPython (with cryptography) reads it: the difference is only that missing dependency.
    assert all("error" not in json.loads(call["response"]) for call in cpython)


def test_calls_follow_cursors(runs: dict[str, dict[str, Any]]) -> None:
    """The parity set exercises pagination: some calls resume from a cursor."""
    resumed = sum(
        "cursor" in call["args"]
        for result in runs["pyodide"]["results"].values()
        for call in result["calls"]
    )
    assert resumed >= 20


# --- AES without cryptography, as Pyodide has it: checked on CPython too ------------------

WITHOUT_CRYPTOGRAPHY = """
import json, sys
sys.modules["cryptography"] = None  # as in Pyodide offline: pypdf falls back to no AES
from pdfthin.operations import error_envelope, read_pages
try:
    result = read_pages(sys.argv[1], password=sys.argv[2])
except Exception as exc:
    result = error_envelope(exc)
print(json.dumps(result))
"""


def _without_cryptography(path: str, password: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_CRYPTOGRAPHY, str(CORPUS / path), password],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_aes_without_cryptography_is_the_encrypted_error() -> None:
    """Before the engine fix, recovery dropped /Encrypt and served ciphertext as metadata and
    an unreadable page."""
    require_corpus()
    result = _without_cryptography("pdfminer/encryption/aes-128.pdf", "foo")
    assert result["error"]["code"] == "encrypted"
    assert result["error"]["details"] == {"needs": "cryptography"}


def test_aes_streams_without_cryptography_are_the_encrypted_error() -> None:
    """A file whose strings decrypt without cryptography but whose streams need it (AES):
    the typed error at open, never pages reported empty."""
    require_corpus()
    result = _without_cryptography("pypdf/encryption/r4-aes-user-password.pdf", "asdfzxcv")
    assert result["error"]["code"] == "encrypted"
    assert result["error"]["details"] == {"needs": "cryptography"}


@pytest.mark.parametrize(
    "path", ["pdfminer/encryption/aes-128.pdf", "pypdf/encryption/r4-aes-user-password.pdf"]
)
def test_aes_without_cryptography_is_said_before_a_password_is_asked(path: str) -> None:
    """The page asks for a password only when the empty one is refused (``password_given``
    false): an AES file that even the right password could not open here says why at once."""
    require_corpus()
    result = _without_cryptography(path, "")
    assert result["error"]["code"] == "encrypted"
    assert result["error"]["details"] == {"needs": "cryptography"}


def test_rc4_without_cryptography_still_asks_for_the_password() -> None:
    require_corpus()
    result = _without_cryptography("pdfminer/encryption/rc4-40.pdf", "")
    assert result["error"]["code"] == "encrypted"
    assert result["error"]["details"] == {"password_given": False}


def test_cli_says_aes_needs_cryptography_without_asking_for_a_password() -> None:
    require_corpus()
    code = (
        "import sys; sys.modules['cryptography'] = None\n"
        "from pdfthin.adapters.cli import main\n"
        "sys.exit(main(['read', sys.argv[1]]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(CORPUS / "pdfminer/encryption/aes-128.pdf")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode != 0
    assert "cryptography" in done.stderr
    assert "--password" not in done.stderr
