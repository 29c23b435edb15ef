"""Which pdfthin the measured processes import: the working tree, or a committed snapshot.

pdfthin is installed editable, so a run measures whatever ``pdfthin/`` holds at the moment
each worker starts. To publish numbers for one commit (and to be safe from edits made while a
long run is going), ``--pdfthin-ref REF`` exports ``pdfthin/`` at REF with ``git archive`` into
``benchmarks/.cache/src-<sha>-<random>/``, next to a copy of this harness, and runs every worker and
probe from there: that directory comes first on ``sys.path``, ahead of the editable finder.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
_HARNESS_IGNORE = shutil.ignore_patterns(".venv-bench", ".cache", "results", "tests", "__pycache__")


@dataclass(frozen=True)
class Source:
    #: The directory the measured processes run in (their cwd and first ``sys.path`` entry).
    workdir: Path
    #: What the results are stamped with: ``<sha>`` or ``<sha>+dirty`` (working tree).
    label: str
    version: str

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ)
        env.update(extra or {})
        env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(self.workdir), env.get("PYTHONPATH")])
        )
        return env


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()


def _version(package_dir: Path) -> str:
    try:
        text = (package_dir / "_version.py").read_text(encoding="utf-8")
    except OSError:
        return "unknown"
    match = re.search(r"__version__\s*=\s*[\"']([^\"']+)", text)
    return match.group(1) if match else "unknown"


def working_tree() -> Source:
    commit = _git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = _git("status", "--porcelain", "--", "pdfthin")
    return Source(REPO_ROOT, commit + ("+dirty" if dirty else ""), _version(REPO_ROOT / "pdfthin"))


def snapshot(ref: str, cache: Path) -> Source:
    sha = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    if not sha:
        raise SystemExit(f"--pdfthin-ref: {ref!r} is not a commit of {REPO_ROOT}")
    # One directory per run: another run may be using an earlier snapshot of the same commit.
    cache.mkdir(parents=True, exist_ok=True)
    dest = Path(tempfile.mkdtemp(prefix=f"src-{sha[:12]}-", dir=cache))
    archive = subprocess.run(
        ["git", "archive", "--format=tar", sha, "pdfthin"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:  # Python < 3.11.4; the archive is our own repository's
            tar.extractall(dest)
    shutil.copytree(REPO_ROOT / "benchmarks", dest / "benchmarks", ignore=_HARNESS_IGNORE)
    return Source(dest, sha[:12], _version(dest / "pdfthin"))
