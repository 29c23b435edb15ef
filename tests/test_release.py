"""The release, as far as this machine allows: the sdist and the pure wheel are built with the
command the release workflow runs (``python -m build``), and what they hold is checked; the
wheel is installed into a fresh environment and run. The workflows themselves
(``.github/workflows/release.yml``, ``native.yml``) run only on GitHub: their shape is checked
here (what triggers them, that they attest and publish by trusted publishing, that the native
wheels cover every platform docs/platform_matrix.md names)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from email.parser import Parser
from importlib.metadata import requires
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement

import pdfthin

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
VERSION = pdfthin.__version__

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # The release workflow's command (release.yml), run on a copy of the repository: setuptools
    # writes build/ and pdfthin.egg-info/ into the tree it builds, and tox runs two
    # environments at once, so two builds in the one checkout can tread on each other.
    tree = tmp_path_factory.mktemp("tree") / "pdfthin"
    shutil.copytree(ROOT, tree, ignore=_not_in_a_build)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(tree)],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    return out


# What a checkout holds beside the sources: environments, caches, builds and npm packages.
_DERIVED = {
    ".git",
    ".tox",
    ".venv",
    ".ci-venv",
    "node_modules",
    "target",
    "build",
    "dist",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
}


def _not_in_a_build(directory: str, names: list[str]) -> set[str]:
    return {n for n in names if n in _DERIVED or n.endswith(".egg-info")}


def _sources() -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "pdfthin").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def test_the_build_makes_one_sdist_and_one_pure_wheel(dist: Path) -> None:
    assert sorted(p.name for p in dist.iterdir()) == [
        f"pdfthin-{VERSION}-py3-none-any.whl",
        f"pdfthin-{VERSION}.tar.gz",
    ]


def test_the_wheel_holds_the_package_and_nothing_else(dist: Path) -> None:
    with zipfile.ZipFile(dist / f"pdfthin-{VERSION}-py3-none-any.whl") as wheel:
        names = set(wheel.namelist())
        metadata = Parser().parsestr(wheel.read(f"pdfthin-{VERSION}.dist-info/METADATA").decode())
        entry_points = wheel.read(f"pdfthin-{VERSION}.dist-info/entry_points.txt").decode()
    info = f"pdfthin-{VERSION}.dist-info/"
    assert {n for n in names if not n.startswith(info)} == _sources()
    assert "pdfthin/py.typed" in names
    assert any(n.startswith("pdfthin/engine/fonts/cidmaps/") for n in names)
    assert metadata["Name"] == "pdfthin" and metadata["Version"] == VERSION
    assert metadata["Requires-Python"] == ">=3.10"
    # The core depends on pypdf alone; everything else is an extra.
    core = [r for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert [re.split(r"[<>=!~ ;\[]", r)[0] for r in core] == ["pypdf"]
    classifiers = metadata.get_all("Classifier") or []
    for minor in range(10, 15):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert "License-Expression" in metadata or "License" in metadata
    assert re.search(r"^pdfthin = pdfthin\.adapters\.cli:main$", entry_points, re.M)


def test_the_sdist_holds_the_sources_licence_and_documentation(dist: Path) -> None:
    with tarfile.open(dist / f"pdfthin-{VERSION}.tar.gz") as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert _sources() <= names
    docs = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")}
    assert {"LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", *docs} <= names
    # The tests need the corpus and the repository's tools; the accelerator is its own sdist.
    assert not any(n.startswith(("tests/", "pdfthin_native/")) for n in names)


def test_the_wheel_installs_and_runs_in_a_fresh_environment(dist: Path, tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    python = env / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    wheel = dist / f"pdfthin-{VERSION}-py3-none-any.whl"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    # The fresh environment has the wheel alone: no accelerator, whatever this run requires.
    environ = {k: v for k, v in os.environ.items() if k != "PDFTHIN_NATIVE"}
    done = subprocess.run(
        [str(python), "-m", "pdfthin", "read", str(ROOT / "examples" / "sample.pdf")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=environ,
    )
    assert done.returncode == 0, done.stderr
    # The installed command reads as this checkout does.
    first_line = pdfthin.open(ROOT / "examples" / "sample.pdf").page(1).markdown.splitlines()[0]
    assert first_line in done.stdout
    installed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    packages = {_normal(line.split("==")[0]) for line in installed.split()}
    # pypdf and what pypdf itself needs on this Python (typing_extensions before 3.11).
    needs = {
        _normal(req.name)
        for req in map(Requirement, requires("pypdf") or [])
        if req.marker is None or req.marker.evaluate({"extra": ""})
    }
    assert packages - {"pip", "setuptools", "wheel"} == {"pdfthin", "pypdf", *needs}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _workflow(name: str) -> dict[str, Any]:
    loaded: dict[Any, Any] = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as true.
    loaded["on"] = loaded.pop(True, loaded.get("on"))
    return loaded


def _steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = job["steps"]
    return steps


def _publishes(job: dict[str, Any], tag_prefix: str) -> None:
    assert job["if"] == f"startsWith(github.ref, 'refs/tags/{tag_prefix}')"
    assert job["permissions"] == {"id-token": "write"}  # trusted publishing: no stored token
    assert job["environment"]
    assert [s["uses"] for s in _steps(job)][-1] == "pypa/gh-action-pypi-publish@release/v1"


def test_the_release_workflow_builds_attests_and_publishes_on_a_version_tag() -> None:
    flow = _workflow("release.yml")
    assert flow["on"]["push"] == {"tags": ["v*"]}
    build = flow["jobs"]["build"]
    runs = [s.get("run", "") for s in _steps(build)]
    assert "python -m build --outdir dist ." in runs  # what the fixture above runs
    assert any("pdfthin read examples/sample.pdf" in r for r in runs)
    attest = [s for s in _steps(build) if s.get("uses", "").startswith("actions/attest-build")]
    assert attest and attest[0]["with"]["subject-path"] == "dist/*"
    assert build["permissions"]["attestations"] == "write"
    publish = flow["jobs"]["publish"]
    assert publish["needs"] == "build"
    _publishes(publish, "v")
    assert "secrets." not in (WORKFLOWS / "release.yml").read_text(encoding="utf-8")


def test_the_native_workflow_covers_every_platform_and_publishes_on_its_tag() -> None:
    flow = _workflow("native.yml")
    assert flow["on"]["push"] == {"tags": ["native-v*"]}
    runners = {entry["os"] for entry in flow["jobs"]["wheels"]["strategy"]["matrix"]["include"]}
    matrix = (ROOT / "docs" / "platform_matrix.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:ubuntu|macos|windows)-[\w.-]+)`", matrix))
    assert named and named <= runners
    for job in ("wheels", "sdist"):
        uses = [s.get("uses", "") for s in _steps(flow["jobs"][job])]
        assert any(u.startswith("actions/attest-build-provenance") for u in uses), job
    publish = flow["jobs"]["publish"]
    assert publish["needs"] == ["wheels", "sdist"]
    _publishes(publish, "native-v")
