"""Every hostile attack (``tests/hostile/``), on both engine paths, through every operation, in
a child process with a CPU-time (the kernel's), wall-clock and memory cap: each operation
answers with a result or a typed error the attack allows — never a hang, a crash, ``internal``
or a traceback — and text the attack hides never reaches page text or search.

``PDFTHIN_HOSTILE_REPORT=FILE`` appends each child's JSON line to FILE (``tools/hostile_table.py``
turns it into the table of ``docs/security.md``).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import MAX_RSS_MIB, MAX_SECONDS, Attack, all_attacks
from native_support import IMPLEMENTATIONS

ROOT = Path(__file__).resolve().parent.parent
#: The child's address space: a safety net for the machine, far above MAX_RSS_MIB, so that
#: an unbounded allocation fails inside the child instead of swapping the host.
ADDRESS_SPACE = 4 << 30

ATTACKS = all_attacks()

#: Each attack runs in a child process per engine path: a sweep (conftest.py, tox.ini).
pytestmark = pytest.mark.sweep


#: The CPU the child may use before the kernel stops it: the bound each attack is held to is
#: MAX_SECONDS of CPU (asserted from the child's own report); this is the hard stop above it.
CPU_CAP = int(MAX_SECONDS * 1.5)
#: Wall-clock seconds before the child counts as hung: a net for a child that waits without
#: working, far above the CPU cap because a loaded machine (CI runs several tox environments
#: at once on two cores) stretches wall time to several times the CPU time.
WALL_CAP = MAX_SECONDS * 5


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_CAP, CPU_CAP))


def run_child(attack: Attack, engine: str) -> dict[str, object]:
    env = {**os.environ, "PDFTHIN_NATIVE": engine, "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        proc = subprocess.run(
            # From tests/: the child imports the installed pdfthin (not the checkout's) and the
            # fixtures as the tests do (``hostile``, ``pdfbuilder``).
            [sys.executable, "-m", "hostile.run", attack.name],
            cwd=ROOT / "tests",
            env=env,
            capture_output=True,
            text=True,
            timeout=WALL_CAP,
            preexec_fn=_limit,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{attack.name} ({engine}): no answer within {WALL_CAP:.0f} s")
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines, (
        f"{attack.name} ({engine}): the child died (exit {proc.returncode}): {proc.stderr[-2000:]}"
    )
    result: dict[str, object] = json.loads(lines[-1])
    report = os.environ.get("PDFTHIN_HOSTILE_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({**result, "klass": attack.klass, "mode": engine}) + "\n")
    return result


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_hostile(attack: Attack, implementation: str, request: pytest.FixtureRequest) -> None:
    if attack.known_gap:
        request.applymarker(pytest.mark.xfail(strict=True, reason=attack.known_gap))
    # the child process selects the engine itself, by the switch's value
    result = run_child(attack, IMPLEMENTATIONS[implementation])
    assert result["traceback"] is None, result["traceback"]
    assert float(result["cpu_seconds"]) <= MAX_SECONDS, result  # type: ignore[arg-type]
    assert float(result["peak_rss_mib"]) <= MAX_RSS_MIB, result  # type: ignore[arg-type]
    outcomes = result["outcomes"]
    assert isinstance(outcomes, dict) and outcomes, result
    wrong = {
        op: code
        for op, code in outcomes.items()
        if code != "ok" and code not in attack.allowed_errors
    }
    assert not wrong, f"{attack.name}: unexpected answers {wrong}"
    assert result["leaked"] == [], f"{attack.name}: hidden text reached the agent: {result}"
    assert result["shown"] == list(attack.must_show), f"{attack.name}: text lost: {result}"
    assert int(result["withheld"]) >= attack.reported_hidden, (  # type: ignore[call-overload]
        f"{attack.name}: hidden text withheld without being reported: {result}"
    )


def test_every_class_is_attacked() -> None:
    """The attack classes of issue 18 each have generated fixtures (a class cannot silently
    drop out of the set)."""
    classes = {a.klass for a in ATTACKS}
    expected = {
        "smoke",
        "hidden_text",
        "password",
        "navigation",
        "unbounded_walk",
        "page_work",
        "native",
    }
    assert classes >= expected, classes
