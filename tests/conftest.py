"""Shared test fixtures.

The real-PDF corpus lives at ``../shared/corpus`` (relative to the repository root). Locally a
missing corpus skips the corpus tests; in CI (``CI`` set) it is a failure, never a skip.
"""

from __future__ import annotations

import csv
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pdfthin.model import Document

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("PDFTHIN_CORPUS", ROOT.parent / "shared" / "corpus"))


@dataclass(frozen=True)
class CorpusFile:
    relpath: str
    path: Path
    pages: str
    ground_truth: tuple[str, ...]
    tags: frozenset[str]
    password: str | None


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """A hang guard: ``TimeoutError`` when the block runs longer than ``seconds`` (bad input
    must end in bounded time; not a speed claim)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _load_manifest() -> list[CorpusFile]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    passwords: dict[str, str | None] = {}
    pw_file = CORPUS / "PASSWORDS.tsv"
    if pw_file.exists():
        with pw_file.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                value = row["password"]
                passwords[row["relpath"]] = None if value.startswith("(empty") else value
    out = []
    with manifest.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            gt = row["ground_truth_relpath"]
            out.append(
                CorpusFile(
                    relpath=row["relpath"],
                    path=CORPUS / row["relpath"],
                    pages=row["pages"],
                    ground_truth=tuple(gt.split(";")) if gt and gt != "-" else (),
                    tags=frozenset(t for t in row["tags"].split(",") if t and t != "-"),
                    password=passwords.get(row["relpath"]),
                )
            )
    return out


CORPUS_FILES = _load_manifest()


def available_implementations() -> list[str]:
    """The engine paths this run tests: pure Python, and the native module where it loads.
    Where ``PDFTHIN_NATIVE=require`` asks for it (the native tox environments), only the
    native path: a module that does not load fails the test instead of leaving it out, and
    the pure path of the same tests is the plain environment's run on the same interpreter."""
    from native_support import IMPLEMENTATIONS

    from pdfthin.engine import _native

    if os.environ.get(_native.ENV, "").strip().lower() == "require":
        return ["native"]
    module, _ = _native._load()
    return list(IMPLEMENTATIONS) if module is not None else ["pure"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # One fixture runs a test on every implementation (MarkupSafe's tests/conftest.py): a
    # module opts in with ``pytestmark = pytest.mark.usefixtures("implementation")``.
    if "implementation" in metafunc.fixturenames:
        metafunc.parametrize("implementation", available_implementations(), indirect=True)


@pytest.fixture
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Read with one engine path for the test: ``"pure"`` or ``"native"`` (its id too)."""
    from native_support import engine, native_module

    module = None if request.param == "pure" else native_module()
    with engine(module):
        yield request.param


@pytest.fixture(autouse=True)
def _no_native_panic() -> Iterator[None]:
    """A panic in the native code is answered by Python in its place (pdfthin/engine/_native.py),
    so the answer stays the pure engine's and a differential test would not see it: a test
    during which one happened fails."""
    from pdfthin.engine import _native

    module, _ = _native._load()
    if module is None:
        yield
        return
    before = module._panics()
    yield
    assert module._panics() == before, "the native code panicked (Python answered instead)"


def require_corpus() -> None:
    """Skip locally, fail in CI, when the corpus is missing."""
    if CORPUS_FILES:
        return
    message = f"the real-PDF corpus is missing at {CORPUS}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def open_corpus_file(f: CorpusFile | None) -> Document:
    """``f`` opened (with its password), after :func:`require_corpus`; a file that does not
    open is skipped here, as how it fails is its own tests' subject."""
    import pdfthin

    require_corpus()
    assert f is not None
    try:
        return pdfthin.open(f.path, password=f.password)
    except pdfthin.PdfthinError as error:
        pytest.skip(f"{f.relpath} does not open ({error.code}); its own tests say how it fails")


def corpus_files(*, tag: str | None = None, has_gt: str | None = None) -> list[CorpusFile]:
    files = CORPUS_FILES
    if tag is not None:
        files = [f for f in files if tag in f.tags]
    if has_gt is not None:
        files = [f for f in files if any(has_gt in g for g in f.ground_truth)]
    return files


def corpus_params(files: list[CorpusFile]) -> list[object]:
    """pytest parameters for corpus files; a single failing placeholder when absent."""
    if not files:
        return [pytest.param(None, id="corpus-missing")]
    return [pytest.param(f, id=f.relpath) for f in files]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A test reading the real corpus (the whole of it through the ``corpus`` fixture, one of
    # its files as a parameter, or marked ``corpus``) is a sweep: tox runs sweeps on the main
    # interpreter for each engine path, and leaves them out of the other interpreters' runs
    # (tox.ini).
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if (
            "corpus" in getattr(item, "fixturenames", ())
            or item.get_closest_marker("corpus") is not None
            or any(isinstance(value, CorpusFile) for value in params.values())
        ):
            item.add_marker(pytest.mark.sweep)


@pytest.fixture
def corpus() -> Path:
    require_corpus()
    return CORPUS


@pytest.fixture(scope="session")
def lambda_code(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Lambda deployment zip (bytecode for this interpreter), unpacked as Lambda unpacks
    it: built once a run (it takes seconds) for every test that runs it, shared by pytest-xdist's
    workers through the run's temporary folder (the first to need it builds it under a lock)."""
    import fcntl

    from lambda_support import build_zip, local_runtime

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    task = base / "lambda-task"
    with open(base / "lambda-task.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (task / "pdfthin").is_dir():
            runtime = f"python{sys.version_info.major}.{sys.version_info.minor}"
            archive = build_zip.build(base / "pdfthin-lambda.zip", sys.executable, runtime=runtime)
            local_runtime.unpack(archive, base / "lambda-task.part")
            os.replace(base / "lambda-task.part", task)
    return task
