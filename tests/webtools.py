"""What the Pyodide and browser tests share: finding Node, Chromium and the npm packages, and
building the demo (``web/build.mjs``) with the pypdf this interpreter runs, so both sides of a
comparison use the same pypdf and the same pdfthin source.

Without Node (or Chromium, or ``npm ci`` in ``web/``) these tests skip, except under ``CI``,
where they fail: CI installs all three (``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
CORPUS = Path(os.environ.get("PDFTHIN_CORPUS", ROOT.parent / "shared" / "corpus"))


def require(condition: bool, why: str) -> None:
    """Skip when ``condition`` is false; under ``CI``, fail instead."""
    if condition:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI must provide it: see .ci/run)")
    pytest.skip(why)


def node() -> str:
    found = shutil.which("node")
    require(found is not None, "node is not installed")
    assert found is not None
    version = subprocess.run(
        [found, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    require(int(version.lstrip("v").split(".")[0]) >= 20, f"node {version} is older than 20")
    require(
        (WEB / "node_modules" / "pyodide" / "pyodide.mjs").is_file(),
        "web/node_modules is missing (run `npm ci` in web/)",
    )
    require(CORPUS.is_dir(), f"the corpus is missing at {CORPUS}")
    return found


def chromium() -> str:
    path = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    require(Path(path).is_file(), f"{path} is missing (apt-get install chromium)")
    require(
        (WEB / "node_modules" / "playwright-core").is_dir(),
        "playwright-core is missing (run `npm ci` in web/)",
    )
    return path


def pypdf_version() -> str:
    import pypdf

    return pypdf.__version__


def build_dist(out: Path) -> Path:
    """Build the demo into ``out`` (pdfthin's wheel from this checkout, pypdf's at the version
    this interpreter has) and answer it."""
    subprocess.run(
        [
            node(),
            str(WEB / "build.mjs"),
            "--out",
            str(out),
            "--python",
            sys.executable,
            "--pypdf",
            f"pypdf=={pypdf_version()}",
        ],
        check=True,
        timeout=600,
    )
    return out
