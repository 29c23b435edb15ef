"""Hostile inputs: PDFs built by the project's own writer (``tests/pdfbuilder.py``) to attack
one class of weakness each (issue 18). Nothing here is copied from elsewhere.

Each module of this package registers its attacks with :func:`attack`; :func:`all_attacks`
imports them all. ``tests/test_hostile.py`` runs every attack on both engine paths in a child
process with a time and memory cap (``tests/hostile/run.py``), through every operation an
agent can call, and checks that each answers with a result or a typed error envelope — never a
hang, a crash, ``internal`` or a traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

#: What a hostile file may cost one child process, on either engine path: CPU seconds for
#: every operation together (the work an attack forces, whatever else the machine runs; the
#: wall clock is capped at 1.5 times as much), and the peak resident memory (``VmHWM``).
MAX_SECONDS = 60.0
MAX_RSS_MIB = 768


@dataclass(frozen=True)
class Attack:
    #: ``<class>/<variant>``, unique; the test id.
    name: str
    #: The attack class (issue 18's words): ``unbounded_walk``, ``page_work``, ``native``,
    #: ``password``, ``hidden_text``, ``navigation``, ``malformed``...
    klass: str
    build: Callable[[], bytes]
    #: The password the child gives with every call (``None``: none).
    password: str | None = None
    #: Error codes an operation may answer with; any other code (``internal`` above all)
    #: fails the attack. An empty set means every operation must answer with a result.
    allowed_errors: frozenset[str] = frozenset()
    #: Text that must not reach the agent through page text (Markdown, search), e.g. a
    #: hidden instruction; checked by the child on every page read and a search for it.
    must_not_show: tuple[str, ...] = ()
    #: Text that must reach the agent (a visible sentence beside the attack).
    must_show: tuple[str, ...] = ()
    #: Hidden pieces ``read_pages`` must report (withheld from page text, with a reason).
    reported_hidden: int = 0
    #: Why this attack still gets through, while the fix is under way: the test then expects
    #: it to fail (strictly: it fails when the attack stops getting through).
    known_gap: str | None = None


_ATTACKS: dict[str, Attack] = {}


def attack(
    klass: str,
    variant: str,
    *,
    password: str | None = None,
    allowed_errors: frozenset[str] | set[str] = frozenset(),
    must_not_show: tuple[str, ...] = (),
    must_show: tuple[str, ...] = (),
    reported_hidden: int = 0,
    known_gap: str | None = None,
) -> Callable[[Callable[[], bytes]], Callable[[], bytes]]:
    """Register the decorated builder as the attack ``klass/variant``."""

    def register(build: Callable[[], bytes]) -> Callable[[], bytes]:
        name = f"{klass}/{variant}"
        if name in _ATTACKS:
            raise ValueError(f"attack {name} is registered twice")
        _ATTACKS[name] = Attack(
            name,
            klass,
            build,
            password,
            frozenset(allowed_errors),
            must_not_show,
            must_show,
            reported_hidden,
            known_gap,
        )
        return build

    return register


def all_attacks() -> list[Attack]:
    """Every registered attack, by name (importing every module of this package first)."""
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_") and info.name != "run":
            importlib.import_module(f"{__name__}.{info.name}")
    return [_ATTACKS[name] for name in sorted(_ATTACKS)]


def get(name: str) -> Attack:
    all_attacks()
    return _ATTACKS[name]
