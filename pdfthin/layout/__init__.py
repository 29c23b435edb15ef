"""Layout: pure geometry from positioned runs to ordered, typed blocks. No PDF objects here.

``layout_page`` works on one page (lines, tables, blocks, reading order); ``finish_document``
then looks across pages (running headers and footers, headings, lists) and returns what it
learnt, a :class:`DocumentProfile`; ``finish_page`` finishes one more page against a profile,
alone (docs/design.md, invariant 5: a page's Markdown depends on the page and the profile).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pdfthin.layout.blocks import build_blocks, rejoin_rows
from pdfthin.layout.headings import TITLE_PAGES, HeadingProfile, body_size, mark_headings
from pdfthin.layout.linenumbers import find_line_numbers, place_line_numbers
from pdfthin.layout.lines import build_lines
from pdfthin.layout.order import reading_order
from pdfthin.layout.orientation import QUARTERS, dominant_turn, from_frame, turn_page, turn_run
from pdfthin.layout.slanted import slanted_blocks
from pdfthin.layout.structure import (
    FurnitureProfile,
    furniture_profile,
    list_marker,
    mark_furniture,
    mark_lists,
    release_spans,
)
from pdfthin.layout.tables.find import find_tables
from pdfthin.layout.tagged import tagged_blocks
from pdfthin.layout.types import Block, FailedGrid, Line, PageLayout

if TYPE_CHECKING:
    from pdfthin.engine.types import PageContent, TextRun

__all__ = [
    "MAX_LAYOUT_RUNS",
    "TITLE_PAGES",
    "Block",
    "DocumentProfile",
    "Line",
    "PageLayout",
    "finish_document",
    "finish_page",
    "layout_page",
    "list_marker",
]

#: The most text runs one page is laid out with (docs/design.md, invariant 13): grouping runs into
#: lines compares each run with the lines open near its height, so a page crowding thousands
#: of runs into a few bands costs the square of their number. Several times the most any page
#: of the test corpus has (about 5,000).
MAX_LAYOUT_RUNS = 12_000


def layout_page(page: PageContent) -> PageLayout:
    """One page's blocks in reading order. A page whose text is mostly turned (drawn sideways
    or upside down) is laid out in that text's upright frame; text turned against the rest
    of the page (a rotated table header, a margin stamp) follows it, in its own frame. A
    tagged page whose structure tree is sane there is laid out from the tree (``tagged``)."""
    turn = dominant_turn(page.runs)
    shown = page
    page, by_direction = runs_by_direction(page, turn)
    failed: list[FailedGrid] = []
    numbers: list[Line] = []
    vertical = by_direction.get(1)
    rotated = by_direction.get(2)
    ordered, tree = tagged_blocks(page, by_direction.get(0, []))
    if ordered is None:
        lines = build_lines(by_direction.get(0, []))
        tables, rest = find_tables(lines, page.rules, failed)
        column = find_line_numbers(rest)
        release_spans(lines, page.height)
        rows = rejoin_rows(rest, lines)
        if column is not None:
            rows, numbers = place_line_numbers(rows, column)
        release_spans(rows, page.height)
        blocks = build_blocks(rows)
        ordered = reading_order(blocks + tables)
    if vertical:
        ordered.extend(_vertical_blocks(vertical))
    for direction, k in QUARTERS.items():
        turned = by_direction.get(direction) if k else None
        if turned:
            ordered.extend(_turned_blocks(turned, k, page.width, page.height))
    if rotated:
        ordered.extend(slanted_blocks(rotated))
    if turn and failed:
        failed = [
            replace(g, box=from_frame(g.box, turn, shown.width, shown.height)) for g in failed
        ]
    return PageLayout(
        page.number,
        page.width,
        page.height,
        ordered,
        tree=tree,
        failed_grids=failed,
        line_numbers=numbers,
        turn=turn,
    )


def runs_by_direction(
    page: PageContent, turn: int | None = None
) -> tuple[PageContent, dict[int, list[TextRun]]]:
    """The page turned upright when most of its text is turned (``turn`` quarter turns, the
    page's :func:`dominant_turn` when not given), and its runs by direction (``0`` is what
    ``build_lines`` gets directly)."""
    if turn is None:
        turn = dominant_turn(page.runs)
    if turn:
        page = turn_page(page, turn)
    by_direction: dict[int, list[TextRun]] = {}
    for run in page.runs:
        by_direction.setdefault(run.direction, []).append(run)
    return page, by_direction


def _turned_blocks(runs: list[TextRun], k: int, width: float, height: float) -> list[Block]:
    """Runs turned ``k`` quarters: lines and blocks built upright in their frame, the boxes
    mapped back onto the page."""
    upright = [turn_run(r, k, width, height) for r in runs]
    blocks = reading_order(build_blocks(build_lines(upright)))
    for block in blocks:
        block.x0, block.y0, block.x1, block.y1 = from_frame(
            (block.x0, block.y0, block.x1, block.y1), k, width, height
        )
        for line in block.lines:
            line.x0, line.y0, line.x1, line.y1 = from_frame(
                (line.x0, line.y0, line.x1, line.y1), k, width, height
            )
            line.spans = ()
    return blocks


@dataclass(frozen=True)
class DocumentProfile:
    """What the pages' finishing learnt from the pages it was given (running furniture, the
    body size, how headings are set and ranked), to finish any other page the same way."""

    furniture: FurnitureProfile
    body: float
    headings: HeadingProfile | None


def finish_document(
    pages: list[PageLayout], repeats: list[PageLayout] | None = None
) -> DocumentProfile:
    """Running headers and footers, lists and headings of ``pages``, found across them (a
    whole document, or a document's sample of pages); what was learnt from them. What
    repeats at the page edges is counted over ``repeats`` (some of ``pages``, before they are
    finished: a sample's evenly spread pages, which front matter does not outweigh), by
    default over all of ``pages``."""
    furniture = mark_furniture(pages, furniture_profile(repeats) if repeats else None)
    body = body_size(pages)
    mark_lists(pages, body)
    headings = mark_headings(pages)
    return DocumentProfile(furniture, body, headings)


def finish_page(page: PageLayout, profile: DocumentProfile) -> None:
    """Finish one page outside the profile's pages, against the profile alone: the same
    result whenever, and with whatever other pages, it is read."""
    pages = [page]
    mark_furniture(pages, profile.furniture)
    mark_lists(pages, profile.body)
    if profile.headings is not None:
        mark_headings(pages, profile.headings)


def _vertical_blocks(runs: list[TextRun]) -> list[Block]:
    """Vertical writing: columns of glyphs read top to bottom, columns right to left."""
    columns: list[list[TextRun]] = []
    for run in sorted(runs, key=lambda r: (-(r.x0 + r.x1) / 2, r.y0)):
        cx = (run.x0 + run.x1) / 2
        if columns:
            col = columns[-1]
            x0 = min(r.x0 for r in col)
            x1 = max(r.x1 for r in col)
            if x0 <= cx <= x1:
                col.append(run)
                continue
        columns.append([run])
    blocks: list[Block] = []
    for col in columns:
        col.sort(key=lambda r: r.y0)
        text = "".join(r.text for r in col).strip()
        if not text:
            continue
        size = max(r.size for r in col)
        line = Line(
            text,
            min(r.x0 for r in col),
            min(r.y0 for r in col),
            max(r.x1 for r in col),
            max(r.y1 for r in col),
            size,
        )
        if blocks and abs(blocks[-1].x0 - line.x1) < 1.5 * size and abs(blocks[-1].size - size) < 1:
            block = blocks[-1]
            block.lines.append(line)
            block.x0 = min(block.x0, line.x0)
            block.y0 = min(block.y0, line.y0)
            block.y1 = max(block.y1, line.y1)
        else:
            blocks.append(Block([line], line.x0, line.y0, line.x1, line.y1, size))
    return blocks
