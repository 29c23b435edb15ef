"""The section tree: where each section starts and ends in the document's Markdown.

Sections come from the PDF outline when it has usable entries (an entry whose destination is
broken stays in the tree, with its problem, but owns no text), otherwise from the headings the
layout found. A section runs from its heading to the next section at the same or a higher
level, across pages. Positions are ``(page, offset)`` into that page's Markdown.

Ids are ``s-{index}``: the section's 1-based position in the document's list of sections, so
that an agent can name a neighbour without asking. They depend only on the document's bytes and
the extraction, so they are stable across calls and processes. The ids of earlier releases,
``s-{depth}-{index}``, still name the same section.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.model.figures import REFERENCE
from pdfthin.model.markdown import Anchor
from pdfthin.model.markers import PAGE_MARKER, escape_markers, page_marker

if TYPE_CHECKING:
    from pdfthin.model.document import Document

PREVIEW_CHARS = 160


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    level: int
    page: int | None
    offset: int
    #: Whether the section starts at its heading found on the page (its Markdown then opens
    #: with that heading).
    at_heading: bool
    end_page: int | None
    end_offset: int
    parent: int | None
    #: 1 at the top of the tree.
    depth: int = 1
    problem: str | None = None
    #: The heading's box on its page (``(x0, y0, x1, y1)``, points, top left origin of the
    #: page as displayed), when the heading was found.
    box: tuple[float, float, float, float] | None = None

    @property
    def located(self) -> bool:
        return self.page is not None and self.end_page is not None


@dataclass(frozen=True)
class SectionTree:
    source: str  # "outline", "headings" or "pages"
    sections: tuple[Section, ...]

    def by_id(self, section_id: str) -> Section | None:
        m = _ID.match(section_id) if isinstance(section_id, str) else None
        if m is None:
            return None
        index = int(m.group("index")) - 1
        if not 0 <= index < len(self.sections):
            return None
        section = self.sections[index]
        # An id of an earlier release names its depth too, which must be the section's.
        depth = m.group("depth")
        return section if depth is None or int(depth) == section.depth else None

    def breadcrumb(self, section: Section) -> list[str]:
        out: list[str] = []
        parent = section.parent
        while parent is not None:
            out.append(self.sections[parent].title)
            parent = self.sections[parent].parent
        return out[::-1]


_ID = re.compile(r"^s-(?:(?P<depth>\d{1,3})-)?(?P<index>\d{1,7})$")


def _norm(text: str) -> str:
    """Casefolded words only: "I. INTRODUCTION" and "I Introduction" compare equal."""
    return " ".join(re.sub(r"[\W_]+", " ", text).casefold().split())


def section_tree(doc: Document) -> SectionTree:
    """The document's sections (built once and kept with the document)."""
    cached = doc.derived.get("sections")
    if isinstance(cached, SectionTree):
        return cached
    if any(e.page is not None for e in doc.outline):
        tree = _from_outline(doc)
    else:
        # No bookmark has a usable destination: their titles, found among the headings, are
        # still the author's structure; then the headings; then one section per page, so the
        # ids of get_toc always reach every page.
        tree = _from_titles(doc)
        if not any(s.located for s in tree.sections):
            tree = _from_headings(doc)
        if not tree.sections:
            tree = _from_pages(doc)
    doc.derived["sections"] = tree
    return tree


# One raw starting point per section: (title, level, page, offset, the heading's block when
# it was found, problem).
_Start = tuple[str, int, int | None, int, Anchor | None, str | None]


def _from_outline(doc: Document) -> SectionTree:
    starts: list[_Start] = []
    for entry in doc.outline:
        if entry.page is None:
            starts.append((entry.title, entry.level, None, 0, None, entry.problem))
            continue
        offset, anchor = _locate(doc, entry.page, entry.title)
        starts.append((entry.title, entry.level, entry.page, offset, anchor, None))
    return SectionTree("outline", _finish(doc, starts))


def _locate(doc: Document, page: int, title: str) -> tuple[int, Anchor | None]:
    """Where a bookmark's title is on its page: the heading (else any block) whose first line
    carries it, with or without its numbering ("III-A Google DeepDream" finds "A. Google
    DeepDream"); else the top of the page."""
    for headings_only in (True, False):
        anchor = _title_on_page(doc, page, title, headings_only)
        if anchor is not None:
            return anchor.offset, anchor
    return 0, None


def _title_on_page(doc: Document, page: int, title: str, headings_only: bool) -> Anchor | None:
    """The first heading (or, unless ``headings_only``, block) of ``page`` whose first line
    carries ``title``."""
    wanted = _wanted(title)
    if not wanted:
        return None
    for anchor, lines in _first_lines(doc, page):
        if headings_only and not anchor.level:
            continue
        if _carries(lines, wanted, headings_only):
            return anchor
    return None


def _wanted(title: str) -> list[str]:
    """A title's forms to look for: as written and without its numbering."""
    return [w for w in dict.fromkeys((_norm(title), _norm(_NUMBERING.sub("", title)))) if w]


def _first_lines(doc: Document, page: int) -> list[tuple[Anchor, set[str]]]:
    """Each block of ``page`` with the forms of its first line to compare titles with."""
    md = doc.page(page).markdown
    out: list[tuple[Anchor, set[str]]] = []
    for anchor in doc.page(page).anchors:
        end = md.find("\n", anchor.offset)
        raw = md[anchor.offset : end if end >= 0 else len(md)].lstrip("-#*> ")
        out.append((anchor, {_norm(raw), _norm(_NUMBERING.sub("", raw))} - {""}))
    return out


def _carries(lines: set[str], wanted: list[str], heading: bool) -> bool:
    """Whether a block's first line carries a title: begins with it, or, for a heading, is
    the title's beginning or contains it (a heading line may be cut or numbered)."""
    for want in wanted:
        for line in lines:
            if line.startswith(want[:60]) or (
                heading and (want.startswith(line[:60]) or want[:60] in line)
            ):
                return True
    return False


#: Title-against-heading comparisons spent placing bookmarks that lead nowhere, at most: a
#: hostile outline (20,000 titles found nowhere, each sought through every heading) must not
#: cost more than reading the document.
MAX_TITLE_COMPARISONS = 1_000_000


def _from_titles(doc: Document) -> SectionTree:
    """An outline whose bookmarks lead nowhere: each title is sought in document order from
    where the previous one was found, as a heading that carries it or as a block whose whole
    first line is the title (a heading the layout did not style as one; a title that merely
    begins a paragraph would start a section mid-text, so it does not count). A title not
    found stays in the tree with its problem and owns no text."""
    if not doc.outline:
        return SectionTree("outline", ())
    blocks = [
        (number, anchor, lines)
        for number in range(1, doc.page_count + 1)
        for anchor, lines in _first_lines(doc, number)
    ]
    starts: list[_Start] = []
    at = 0  # the index in ``headings`` where the next title is sought from
    spent = 0
    for entry in doc.outline:
        problem = entry.problem or "no destination"
        wanted = _wanted(entry.title)
        found: int | None = None
        if wanted:
            for index in range(at, min(len(blocks), at + MAX_TITLE_COMPARISONS - spent)):
                spent += 1
                _, anchor, lines = blocks[index]
                if _carries(lines, wanted, heading=True) if anchor.level else lines & set(wanted):
                    found = index
                    break
        if found is None:
            problem += "; its title is not a heading or a line of its own in the text"
            starts.append((entry.title, entry.level, None, 0, None, problem))
            continue
        at = found + 1
        page, anchor, _ = blocks[found]
        problem += "; placed where its title stands in the text"
        starts.append((entry.title, entry.level, page, anchor.offset, anchor, problem))
    return SectionTree("outline", _finish(doc, starts))


def _from_pages(doc: Document) -> SectionTree:
    """Neither outline nor headings: one section per page, titled by its number."""
    starts: list[_Start] = [
        (f"Page {number}", 1, number, 0, None, None) for number in range(1, doc.page_count + 1)
    ]
    return SectionTree("pages", _finish(doc, starts))


# Leading section numbers: "III-A", "2.3.1", "A.", "IV." (with what separates them).
_NUMBERING = re.compile(r"^\s*(?:(?:[IVXLC]+|\d+|[A-Z])(?:[.\-–]\s*(?:[IVXLC]+|\d+|[A-Z]))*\.?)\s+")


def _from_headings(doc: Document) -> SectionTree:
    starts: list[_Start] = []
    for page in doc.pages:
        for anchor in page.anchors:
            if anchor.level:
                end = page.markdown.find("\n", anchor.offset)
                line = page.markdown[anchor.offset : end if end >= 0 else len(page.markdown)]
                title = line.lstrip("#").strip()
                starts.append((title, anchor.level, page.number, anchor.offset, anchor, None))
    return SectionTree("headings", _finish(doc, starts))


def _finish(doc: Document, starts: list[_Start]) -> tuple[Section, ...]:
    """Ends, depths, parents and ids for the raw starting points (in document order)."""
    # A heading that is the first text on its page starts the section at the page's top:
    # what stands above it (the references to its figures) is the section's, not the
    # previous one's.
    starts = [
        (title, level, page, 0, heading, problem)
        if heading is not None and page is not None and _opens_page(doc, page, heading)
        else (title, level, page, offset, heading, problem)
        for title, level, page, offset, heading, problem in starts
    ]
    sections: list[Section] = []
    stack: list[tuple[int, int]] = []  # (level, index) of open ancestors
    last_page = doc.page_count
    for i, (title, level, page, offset, heading, problem) in enumerate(starts):
        while stack and stack[-1][0] >= level:
            stack.pop()
        parent = stack[-1][1] if stack else None
        depth = len(stack) + 1
        stack.append((level, i))
        end_page: int | None = None
        end_offset = 0
        if page is not None:
            end_page, end_offset = last_page, len(doc.page(last_page).markdown)
            for _title2, level2, page2, offset2, _heading2, _ in starts[i + 1 :]:
                if page2 is None or level2 > level:
                    continue
                if (page2, offset2) > (page, offset):
                    end_page, end_offset = page2, offset2
                    if end_offset == 0 and end_page > page:
                        # The next section starts a page: this one ends with the page before.
                        end_page -= 1
                        end_offset = len(doc.page(end_page).markdown)
                    break
        sections.append(
            Section(
                id=f"s-{i + 1}",
                title=title,
                level=level,
                page=page,
                offset=offset,
                at_heading=heading is not None,
                end_page=end_page,
                end_offset=end_offset,
                parent=parent,
                depth=depth,
                problem=problem,
                box=heading.box if heading is not None else None,
            )
        )
    return tuple(sections)


def _opens_page(doc: Document, page: int, heading: Anchor) -> bool:
    anchors = doc.page(page).anchors
    return bool(anchors) and anchors[0].offset == heading.offset


def section_text(
    doc: Document, section: Section, transcribed: Mapping[int, str] | None = None
) -> str:
    """The section's Markdown, pages joined with a page marker (:mod:`.markers`; the first
    page has one too when it was not read whole). A page in ``transcribed`` (one that needs
    OCR, with the agent's transcription) shows that text whole, after a marker that says so:
    a page without a text layer has no offsets to cut the section at."""
    if section.page is None or section.end_page is None:
        return ""
    agent = transcribed or {}
    parts: list[str] = []
    for number in range(section.page, section.end_page + 1):
        page = doc.page(number)
        if number in agent:
            parts.append(f"\n\n{page_marker(page, True)}\n\n{escape_markers(agent[number])}")
            continue
        md = page.markdown
        start = section.offset if number == section.page else 0
        end = section.end_offset if number == section.end_page else len(md)
        piece = escape_markers(md[start:end].strip("\n"))
        if number != section.page or page.unreadable:
            parts.append(f"\n\n{page_marker(page)}\n\n")
        parts.append(piece)
    return "".join(parts).strip()


def preview(doc: Document, section: Section) -> str:
    """The first words after the section's heading (its figures' references left out)."""
    text = REFERENCE.sub("", section_text(doc, section)).strip()
    first, _, rest = text.partition("\n")
    # The first line is the heading itself when the section was found at a heading.
    body = rest if first.startswith("#") or section.at_heading else text
    words = " ".join(PAGE_MARKER.sub(" ", body).split())
    if len(words) <= PREVIEW_CHARS:
        return words
    cut = words.rfind(" ", 0, PREVIEW_CHARS)
    return words[: cut if cut > 0 else PREVIEW_CHARS] + "…"


def holds(section: Section, page: int, offset: int) -> bool:
    """Whether the section's Markdown holds ``offset`` of ``page``'s Markdown: where an
    image's reference stands (:func:`image_offset`), so that a section's images are those
    its text shows."""
    if section.page is None or section.end_page is None:
        return False
    return (section.page, section.offset) <= (page, offset) < (section.end_page, section.end_offset)


def image_offset(doc: Document, page: int, index: int) -> int:
    """Where the ``index``-th image of ``page`` stands in the page's Markdown."""
    offsets = doc.page(page).image_offsets
    return offsets[index] if index < len(offsets) else 0


def image_count(doc: Document, section: Section) -> int:
    """Images placed inside the section's span (:func:`holds`)."""
    if section.page is None or section.end_page is None:
        return 0
    return sum(
        1
        for number in range(section.page, section.end_page + 1)
        for offset in doc.page(number).image_offsets
        if holds(section, number, offset)
    )


def by_page(tree: SectionTree) -> dict[int, list[Section]]:
    """The located sections whose span reaches each page, in document order. Sections at one
    depth do not overlap, so this holds about (depth x pages + sections) entries."""
    out: dict[int, list[Section]] = {}
    for section in tree.sections:
        if section.page is not None and section.end_page is not None:
            for number in range(section.page, section.end_page + 1):
                out.setdefault(number, []).append(section)
    return out


def innermost(on_page: list[Section], page: int, offset: int) -> Section | None:
    """The deepest of ``on_page`` (a page's entry of :func:`by_page`) holding a point: the last
    in document order that holds it, as a section comes after the sections it is under."""
    found = None
    for section in on_page:
        if holds(section, page, offset):
            found = section
    return found
