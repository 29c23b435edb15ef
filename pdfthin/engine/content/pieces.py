"""Runs the interpreters cut inside one ``TJ`` array, joined back unless the array is a row
of figures.

A producer may set a table row as one ``TJ`` array, its cells apart by displacements
("Server closets", 1.8 em, "1,505", 1.8 em, "1,580"), where another draws each cell with its
own string. The interpreters (Python's and the native one, the same numbers) cut a run at
a displacement wider than ``PIECE_GAP_EM`` and mark the next run ``joined``. Here, in Python
only, the cuts of one array stand when the array is a row of figures: some cut stands
between two values (numbers, a currency amount, a dash for none). Then every cut before a
value stands, the label's included, and table detection sees the separate pieces that a row
drawn cell by cell gives. Any other array (the stretched spaces of a justified line, "Jul.
2014." among words) becomes one run again, the run a cut-free reading would have made, with
a space at each cut.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdfthin.engine.types import TextRun

#: A value in a table of figures: a number (signs, currency, separators, a percent sign,
#: parentheses for a negative), or a dash standing for none.
_VALUE = re.compile(r"^(?:[-+−–(]?[$€£¥]?\d[\d.,]*%?\)?|[-–—]{1,2})$")


def rejoin(runs: list[TextRun]) -> list[TextRun]:
    """``runs`` (in drawing order) with each array's cuts decided (see the module)."""
    out: list[TextRun] = []
    chain: list[TextRun] = []
    for run in runs:
        if chain and run.joined and _continues(chain[-1], run):
            chain.append(run)
            continue
        out.extend(_decide(chain))
        chain = [run]
    out.extend(_decide(chain))
    return out


def _continues(before: TextRun, run: TextRun) -> bool:
    return before.seq == run.seq - 1 and before.ocr_layer == run.ocr_layer


def _decide(chain: list[TextRun]) -> list[TextRun]:
    if len(chain) < 2:
        if chain:
            chain[0].joined = False  # nothing before it in its array is kept apart
        return chain
    figures = any(
        _value_edge(a.text, last=True) and _value_edge(b.text) for a, b in itertools.pairwise(chain)
    )
    out = [chain[0]]
    for run in chain[1:]:
        if figures and _value_edge(run.text):
            out.append(run)
            continue
        before = out[-1]
        space = "" if before.text.endswith(" ") or run.text.startswith(" ") else " "
        before.text = f"{before.text}{space}{run.text}"
        before.space_after = run.space_after
        before.x0 = min(before.x0, run.x0)
        before.y0 = min(before.y0, run.y0)
        before.x1 = max(before.x1, run.x1)
        before.y1 = max(before.y1, run.y1)
    return out


def _value_edge(text: str, last: bool = False) -> bool:
    """Whether the first word of ``text`` (its last, with ``last``) is a value."""
    words = text.split()
    return bool(words) and _VALUE.match(words[-1] if last else words[0]) is not None
