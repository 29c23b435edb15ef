"""Runs the interpreters cut inside one ``TJ`` array, joined back unless the cut stands
between two values.

A producer may set a table row as one ``TJ`` array, its cells apart by displacements
("48.11" then 1.8 em then "40.45"), where another draws each cell with its own string. The
interpreters (Python's and the native one, the same numbers) cut a run at a displacement
wider than ``PIECE_GAP_EM`` and mark the next run ``joined``. Here, in Python only, the cut
stands where it separates two values (numbers, a currency amount, a dash for none): the
columns of a table of figures, which table detection then sees as the separate pieces a
row drawn cell by cell gives. Anywhere else (the stretched spaces of a justified line, a
label and its value) the two runs become one again, the run a single cut-free reading
would have made, with a space between.
"""

from __future__ import annotations

import re

from pdfthin.engine.types import TextRun

#: A value in a table of figures: a number (signs, currency, separators, a percent sign,
#: parentheses for a negative), or a dash standing for none.
_VALUE = re.compile(r"^(?:[-+−–(]?[$€£¥]?\d[\d.,]*%?\)?|[-–—]{1,2})$")


def rejoin(runs: list[TextRun]) -> list[TextRun]:
    """``runs`` (in drawing order) with every ``joined`` run put back onto the run before it
    (``seq`` one less), unless the cut between them stands between two values."""
    out: list[TextRun] = []
    for run in runs:
        before = out[-1] if out else None
        if (
            run.joined
            and before is not None
            and before.seq == run.seq - 1
            and before.ocr_layer == run.ocr_layer
            and not _between_values(before.text, run.text)
        ):
            space = "" if before.text.endswith(" ") or run.text.startswith(" ") else " "
            before.text = f"{before.text}{space}{run.text}"
            before.x0 = min(before.x0, run.x0)
            before.y0 = min(before.y0, run.y0)
            before.x1 = max(before.x1, run.x1)
            before.y1 = max(before.y1, run.y1)
            before.seq = run.seq  # the run's later part decides where the next one joins
            continue
        run.joined = False if before is None or before.seq != run.seq - 1 else run.joined
        out.append(run)
    return out


def _between_values(before: str, after: str) -> bool:
    last = before.split()
    first = after.split()
    return bool(last and first) and bool(_VALUE.match(last[-1]) and _VALUE.match(first[0]))
