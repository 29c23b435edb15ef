"""Plain shapes of the layout layer: lines and blocks on a page, no PDF objects."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(slots=True)
class Line:
    """Words on one baseline, in reading order, with the gaps turned into spaces."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: bool = False
    italic: bool = False
    font: str = ""
    artifact: bool = False
    #: The earliest content-stream position of its runs.
    seq: int = 0
    #: Horizontal extents of the pieces that make up the line (a run's text ends in a space
    #: when the run is marked ``space_after``), for table detection and, at the page's top and
    #: bottom edges, the furniture pass; let go (an empty tuple) elsewhere once the page's
    #: tables are found, so a built document does not keep a list and a tuple per word for
    #: nothing.
    spans: Sequence[tuple[float, float, str]] = ()
    #: The share of its characters set in a monospaced face, where its runs mix faces (a
    #: sentence naming ``Pixmap.alpha`` in Courier); ``None``: all in ``font``.
    monospace: float | None = None
    #: Where its text starts when it starts with the margin's line number (``linenumbers.py``:
    #: "12 argument before ..."): its indent and its first word are its text's, read from
    #: there, not the number's; ``None``: no such number.
    text_start: float | None = None


@dataclass(slots=True)
class Block:
    """A paragraph-like group of lines, or a table."""

    lines: list[Line]
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: bool = False
    #: ``paragraph``, ``heading``, ``list_item``, ``table``, ``code``.
    kind: str = "paragraph"
    level: int = 0
    #: Table cells, row by row, when ``kind == "table"``.
    rows: list[list[str]] | None = None
    #: A heading that ran in at the start of its paragraph's first line ("1) Accuracy: ...");
    #: plain text keeps it on that line.
    run_in: bool = False

    @property
    def text(self) -> str:
        return " ".join(line.text for line in self.lines)

    @property
    def chars(self) -> int:
        return sum(len(line.text) for line in self.lines)

    @property
    def seq(self) -> int:
        return min((line.seq for line in self.lines), default=0)


@dataclass(frozen=True, slots=True)
class FailedGrid:
    """A ruled grid the table stage found but could not read as a table: its box (in the page
    as displayed), why it gave up (``sparse``: text in fewer than half its row bands, a
    chart's gridlines; ``empty_cells``: most of its cells empty; ``no_cells``: fewer than two
    rows of two filled cells), and its size in cells."""

    box: tuple[float, float, float, float]
    why: str
    rows: int
    columns: int


@dataclass(slots=True)
class PageLayout:
    number: int
    width: float
    height: float
    blocks: list[Block] = field(default_factory=list)
    #: Running headers, footers and page numbers found across pages, kept out of the body.
    header: list[str] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    #: The blocks moved to ``header`` and ``footer``: their look tells the heading pass how
    #: the document sets its running heads (a head left on a page where nothing marked it is
    #: no heading).
    furniture: list[Block] = field(default_factory=list)
    #: What was decided about the page's structure tree (tagged PDFs): "" without one,
    #: "tree used", or why it was not ("tree not used: ...", "tree ignored (setting)").
    tree: str = ""
    #: The ruled grids the table stage gave up on (:class:`FailedGrid`).
    failed_grids: list[FailedGrid] = field(default_factory=list)
    #: The margin's line numbers of blank lines, left out of the body (``linenumbers.py``).
    line_numbers: list[Line] = field(default_factory=list)
    #: Quarter turns clockwise of the frame the page was laid out in (its text mostly turned):
    #: ``width``, ``height`` and every box are in that frame; ``orientation.from_frame`` maps
    #: them back onto the page as displayed.
    turn: int = 0
