"""``get_chunks`` (issue 22): a document as ordered chunks tied to where they stand on their
pages. Chunks keep their heading, stay within their size target (cut between table rows and at
sentence ends only), go on across a page break unless told not to, never leave an unreadable
page out, have ids that are the same on every run and engine path, and boxes that hold their
glyphs."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, open_corpus_file
from layouts import count_layouts
from statements import Canvas, paragraph, statement

import pdfthin
from pdfthin.engine import open_pdf
from pdfthin.exports import whole_chunks
from pdfthin.model.chunks import CHARS_PER_TOKEN, chunk_pages, text_cuts
from pdfthin.operations import Context, get_chunks, resolve_anchor, search_chunks
from pdfthin.operations.response import size

pytestmark = pytest.mark.usefixtures("implementation")

SENTENCE = "The committee reviewed the annual figures and found them sound in every respect. "
LONG = SENTENCE * 14  # about 1,150 characters: longer than a 100-token target
CARRIED = (
    "This paragraph starts near the foot of the first page and runs on to the top of the "
    "second page without a break in the sentence that it carries across the page"
)


def _report() -> bytes:
    """Page 1: a title, a section heading, two paragraphs, a subsection with a balance sheet
    (a table); page 2: the rest of a paragraph begun on page 1, then a long paragraph; page 3:
    an image and no text (a scan)."""
    one = Canvas()
    one.text("Annual Review of Accounts", 72, 80, size=20, bold=True)
    one.text("1 Overview", 72, 130, size=14, bold=True)
    y = paragraph(one, "The first paragraph says what the review covers. " * 3, 72, 160, 440)
    y = paragraph(one, "The second paragraph names who took part. " * 3, 72, y + 24, 440)
    one.text("1.1 Balance sheet", 72, y + 40, size=12, bold=True)
    y = statement(one, y + 70, periods=2)
    paragraph(one, CARRIED, 72, 740, 440)
    two = Canvas()
    y = paragraph(two, "second page words follow on from the first page here.", 72, 60, 440)
    paragraph(two, LONG, 72, y + 40, 440)
    data = _pdf(one, two)
    return data


def _pdf(*canvases: Canvas) -> bytes:
    from pdfbuilder import PdfBuilder, inline_image

    b = PdfBuilder()
    fonts = {
        "F1": b.font_standard("Helvetica", encoding="/WinAnsiEncoding"),
        "F2": b.font_standard("Helvetica-Bold", encoding="/WinAnsiEncoding"),
    }
    for canvas in canvases:
        b.add_page(canvas.content(), {"Font": fonts})
    scan = inline_image(4, 3, bytes(range(0, 240, 20)))
    b.add_page(b"q 612 0 0 792 0 0 cm " + scan + b" Q")
    return b.build()


@pytest.fixture(scope="module")
def report() -> bytes:
    return _report()


def _all(data: bytes, **kwargs: Any) -> list[dict[str, Any]]:
    """Every chunk, following the cursors, in a fresh context."""
    context = Context()
    response = get_chunks(data, context=context, **kwargs)
    chunks = list(response["chunks"])
    while response["next_cursor"]:
        response = get_chunks(data, context=context, cursor=response["next_cursor"], **kwargs)
        chunks.extend(response["chunks"])
    return chunks


def test_anchors_locate_each_block_in_the_markdown_and_the_plain_text(report: bytes) -> None:
    doc = pdfthin.open(report)
    for page in doc.pages:
        previous = -1
        for anchor in page.anchors:
            piece = page.markdown[anchor.offset : anchor.offset + anchor.length]
            assert piece and piece == piece.strip() and anchor.offset > previous
            previous = anchor.offset
            if anchor.kind == "paragraph":
                plain = page.text[anchor.plain : anchor.plain + anchor.plain_length]
                assert plain.replace("\n", " ") == piece.replace("\n", " ")
            x0, y0, x1, y1 = anchor.box
            assert 0 <= x0 < x1 <= page.width and 0 <= y0 < y1 <= page.height


def test_chunks_keep_their_heading_and_breadcrumb(report: bytes) -> None:
    chunks = _all(report)
    first = chunks[0]
    assert first["chunk_id"] == "p1-1" and first["page"] == 1
    assert first["markdown"].startswith("# Annual Review of Accounts\n\n## 1 Overview\n\n")
    assert first["breadcrumb"] == ["Annual Review of Accounts", "1 Overview"]
    assert first["kind"] == "paragraph"
    table = next(c for c in chunks if c["kind"] == "table")
    assert table["markdown"].startswith("### 1.1 Balance sheet\n\n|")
    assert table["breadcrumb"] == ["Annual Review of Accounts", "1 Overview", "1.1 Balance sheet"]
    assert "Cash and cash equivalents" in table["text"]


def test_a_paragraph_carried_over_a_page_break_is_one_chunk_with_two_spans(report: bytes) -> None:
    chunks = _all(report)
    carried = next(c for c in chunks if "runs on to the top" in c["markdown"])
    assert "second page words follow" in carried["markdown"]
    assert [s["page"] for s in carried["page_spans"]] == [1, 2]
    assert carried["bbox"] == carried["page_spans"][0]["bbox"]
    # Not stitched: every chunk on one page, the two halves apart.
    apart = _all(report, stitch=False)
    assert all(len(c["page_spans"]) == 1 for c in apart)
    halves = [
        c for c in apart if "runs on to the top" in c["markdown"] or "second page" in c["markdown"]
    ]
    assert [c["page"] for c in halves] == [1, 2]


def test_chunks_stay_within_the_target_cut_at_sentences_and_between_table_rows(
    report: bytes,
) -> None:
    chunks = _all(report, max_tokens=100)
    limit = 100 * CHARS_PER_TOKEN
    for chunk in chunks:
        body = chunk["markdown"]
        heading_free = "\n\n".join(p for p in body.split("\n\n") if not p.startswith("#"))
        assert len(heading_free) <= limit, chunk["chunk_id"]
    long_parts = [c for c in chunks if SENTENCE.strip() in " ".join(c["text"].split())]
    assert len(long_parts) >= 3
    for part in long_parts:  # each part ends at a sentence end
        assert part["text"].rstrip().endswith("."), part["text"][-40:]
    assert "".join(p["text"] + " " for p in long_parts).split() == LONG.split()
    tables = [c for c in chunks if c["kind"] == "table"]
    assert len(tables) >= 2  # the balance sheet, cut between rows
    header = tables[0]["markdown"].split("\n\n")[-1].split("\n")[0]
    rows: list[str] = []
    for table in tables:
        lines = table["markdown"].split("\n\n")[-1].split("\n")
        assert lines[0] == header and set(lines[1]) <= set("|-")  # the header again
        rows.extend(lines[2:])
    whole = next(c for c in _all(report) if c["kind"] == "table")
    assert rows == whole["markdown"].split("\n\n")[-1].split("\n")[2:]


def test_an_unreadable_page_is_a_chunk_of_its_own(report: bytes) -> None:
    chunks = _all(report)
    scan = chunks[-1]
    assert scan["kind"] == "unreadable" and scan["page"] == 3
    assert scan["markdown"] == "<!-- page 3: needs_ocr (image_only) -->"
    assert scan["status"] == "needs_ocr" and scan["reason_code"] == "image_only"
    response = get_chunks(report, pages="3", context=Context())
    assert response["unreadable"]["pages"] == "3"


def test_ids_are_stable_across_runs_paths_and_budgets(report: bytes) -> None:
    one = _all(report)
    again = _all(report)
    small = _all(report, max_chars=1_000)
    assert one == again
    # A small budget splits chunks into parts; joined, they are the same chunks, their plain
    # text too (each part carries the piece its Markdown shows).
    joined: list[dict[str, Any]] = []
    for entry in small:
        if joined and "part" in entry and entry["part"]["start"] > 0:
            joined[-1]["markdown"] += entry["markdown"]
            joined[-1]["text"] += entry["text"]
            continue
        joined.append(dict(entry))
    assert [(c["chunk_id"], c["markdown"], c["text"]) for c in joined] == [
        (c["chunk_id"], c["markdown"], c["text"]) for c in one
    ]
    assert any("part" in c for c in small)  # the premise
    assert all(size(c) < 1_000 for c in small)
    for part in (c for c in small if "part" in c):
        # Its text's letters and digits are its Markdown's, in order (less the syntax).
        shown = iter(ch for ch in part["markdown"] if ch.isalnum())
        assert all(ch in shown for ch in part["text"] if ch.isalnum()), part
    assert sum(1 for c in small if "part" in c and c["text"].strip()) > len(small) // 2


def test_a_cut_of_the_markdown_cuts_the_plain_text_where_it_shows() -> None:
    markdown = (
        "## Results\n\n- The **first** run, see [the table](https://example.org/t1).\n- Then 3\\*4."
    )
    text = "Results\nThe first run, see the table.\nThen 3*4."
    cut = text_cuts(markdown, text)
    assert (cut(0), cut(len(markdown))) == (0, len(text))
    expected = {
        markdown.index("Results") + 3: "Res",  # inside a word: up to what is shown
        markdown.index("- The"): "Results\n",  # the heading, its line break with it
        markdown.index("run,") + 4: "Results\nThe first run, ",  # punctuation and space
        markdown.index("(https"): "Results\nThe first run, see the table.\n",  # ends line
        markdown.index("- Then"): "Results\nThe first run, see the table.\n",  # not the URL's
        markdown.index("4."): "Results\nThe first run, see the table.\nThen 3*",
    }
    for offset, before in expected.items():
        assert text[: cut(offset)] == before, markdown[:offset]
    offsets = range(len(markdown) + 1)
    assert [cut(o) for o in offsets] == sorted(cut(o) for o in offsets)  # never backwards


def test_a_response_reads_only_the_pages_its_chunks_come_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pdfbuilder import lined_pages

    data = lined_pages(60, lambda page, line: f"page {page} line {line} of running words")
    laid_out = count_layouts(monkeypatch)
    context = Context()
    opened = len(get_chunks(data, pages="1", context=context)["chunks"])
    assert opened
    sample = set(laid_out)
    first = get_chunks(data, max_chars=4_000, context=context)
    pages = {s["page"] for c in first["chunks"] for s in c["page_spans"]}
    assert first["next_cursor"] and max(pages) < 10
    assert set(laid_out) - sample <= set(range(1, max(pages) + 2))


def _visible_runs(data: bytes, number: int, password: str | None) -> list[Any]:
    engine = open_pdf(data, password)
    try:
        return [r for r in engine.page(number).runs if r.text.strip()]
    finally:
        engine.close()


@pytest.mark.corpus
@pytest.mark.parametrize(
    "f",
    corpus_params(corpus_files()[:: max(1, len(corpus_files()) // 12)] if corpus_files() else []),
)
def test_chunk_boxes_hold_their_glyphs_on_corpus_files(f: CorpusFile | None) -> None:
    """Every glyph run whose text a chunk on its page carries lies inside one of that page's
    chunk spans (running heads and footers, which no chunk carries, apart)."""
    doc = open_corpus_file(f)
    assert f is not None
    data = f.path.read_bytes()
    pages = list(range(1, min(doc.page_count, 3) + 1))
    chunks = list(chunk_pages([doc.page(n) for n in pages]))
    for number in pages:
        spans = [s.box for c in chunks for s in c.spans if s.page == number]
        text = " ".join(c.text for c in chunks if any(s.page == number for s in c.spans))
        words = set(text.split())
        margins = " ".join([*doc.page(number).header, *doc.page(number).footer])
        for run in _visible_runs(data, number, f.password):
            tokens = run.text.split()
            # Runs whose words the chunks carry, with a word of their own (not a digit or a
            # dash that any page has), not in a running head or foot (which no chunk carries).
            if not set(tokens) <= words or run.text.strip() in margins:
                continue
            if not any(len(t) >= 3 and t.isalpha() for t in tokens):
                continue

            cx, cy = (run.x0 + run.x1) / 2, (run.y0 + run.y1) / 2
            assert any(
                x0 - 1 <= cx <= x1 + 1 and y0 - 1 <= cy <= y1 + 1 for x0, y0, x1, y1 in spans
            ), (f.relpath, number, run.text, (cx, cy))


def test_the_response_is_json_within_its_budget(report: bytes) -> None:
    response = get_chunks(report, max_chars=2_000, context=Context())
    assert len(json.dumps(response, ensure_ascii=False, separators=(",", ":"))) <= 2_000


@pytest.mark.parametrize("rotate", [0, 90, 270])
def test_boxes_hold_every_glyph_of_a_generated_page_rotated_or_not(rotate: int) -> None:
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    ops = [b"BT /F1 18 Tf 72 720 Td (A Heading For The Page) Tj ET"]
    for i in range(12):
        ops.append(
            b"BT /F1 10 Tf 72 %d Td (words on line %d of the body text here) Tj ET"
            % (680 - 13 * i, i)
        )
    b.add_page(b"\n".join(ops), {"Font": {"F1": font}}, rotate=rotate or None)
    data = b.build()
    doc = pdfthin.open(data)
    page = doc.page(1)
    (chunk,) = chunk_pages([page])
    ((_, box),) = [(s.page, s.box) for s in chunk.spans]
    runs = _visible_runs(data, 1, None)
    assert len(runs) == 13
    for run in runs:
        assert box[0] - 0.5 <= run.x0 and run.x1 <= box[2] + 0.5, (run, box)
        assert box[1] - 0.5 <= run.y0 and run.y1 <= box[3] + 0.5, (run, box)
    assert 0 <= box[0] < box[2] <= page.width and 0 <= box[1] < box[3] <= page.height
    # As displayed: the heading is at the top of a portrait page, at a side when turned.
    if rotate == 0:
        assert box[1] < 100


def _words(text: str) -> list[str]:
    # Markdown table syntax and heading marks aside: the words a chunk shows.
    return [w for w in re.split(r"[\s|#*]+", text) if w and set(w) != {"-"}]


@pytest.mark.parametrize("stitch", [True, False])
def test_each_chunk_has_an_anchor_to_the_text_it_stands_in(report: bytes, stitch: bool) -> None:
    """A chunk's anchor resolves to page text holding the chunk's words in order; the anchors
    of a document's chunks follow each other without overlapping; an unreadable page's chunk
    has none. With the default arguments, the passage resolves to the chunk itself."""
    context = Context()
    chunks = _all(report, stitch=stitch)
    readable = [c for c in chunks if c["kind"] != "unreadable"]
    assert readable and all("anchor" not in c for c in chunks if c["kind"] == "unreadable")
    assert any(c["kind"] == "unreadable" for c in chunks)
    previous: tuple[int, int] = (0, 0)
    for chunk in readable:
        answer = resolve_anchor(report, chunk["anchor"], context=context)
        assert answer["status"] == "ok"
        passage = _words(answer["text"])
        wanted = _words(chunk["text"])
        # The chunk's words, in order, in the passage (a table's repeated header aside).
        at = 0
        for word in wanted if chunk["kind"] != "table" else wanted[-5:]:
            assert word in passage[at:], (chunk["chunk_id"], word)
            at = passage.index(word, at) + 1
        start = (answer["page"], answer["start"])
        assert start >= previous, chunk["chunk_id"]
        previous = (answer.get("end_page", answer["page"]), answer["end"])
        assert answer["page"] == chunk["page"]
        if stitch:
            assert answer["chunk_id"] == chunk["chunk_id"]


def test_search_hits_carry_their_chunks_anchor(report: bytes) -> None:
    by_id = {c["chunk_id"]: c for c in _all(report)}
    hits = search_chunks(report, "committee annual figures", context=Context())["results"]
    assert hits
    for hit in hits:
        assert hit["anchor"] == by_id[hit["chunk_id"]]["anchor"]


def _many_pages(pages: int) -> bytes:
    """A long heading, then a short paragraph at the top of each of ``pages`` pages: with
    ``stitch`` one chunk with a span on every page."""
    canvases = []
    for number in range(1, pages + 1):
        canvas = Canvas()
        if number == 1:
            canvas.text("A Section Heading Long Enough To Weigh On Every Part", 72, 80, 14, True)
        paragraph(
            canvas, f"Page {number} carries a few words of the running account. " * 2, 72, 120, 440
        )
        canvases.append(canvas)
    return _pdf(*canvases)


def test_a_part_carries_the_page_spans_its_markdown_shows(report: bytes) -> None:
    whole = {c["chunk_id"]: c for c in _all(report)}
    carried = next(c for c in whole.values() if "runs on to the top" in c["markdown"])
    parts = [c for c in _all(report, max_chars=1_000) if c["chunk_id"] == carried["chunk_id"]]
    assert len(parts) > 2  # the premise: the chunk comes in parts
    turn = carried["markdown"].index("second page words")  # where page 2's Markdown starts
    for part in parts:
        pages = [s["page"] for s in part["page_spans"]]
        start, end = part["part"]["start"], part["part"]["end"]
        assert pages == [n for n, shown in ((1, start < turn), (2, end > turn)) if shown], part
        assert all(s in carried["page_spans"] for s in part["page_spans"])
    # Joined, the parts are the chunk, its spans included.
    assert list(whole_chunks(parts)) == [carried]


def test_the_smallest_budget_holds_a_chunk_over_many_pages() -> None:
    data = _many_pages(12)
    whole = _all(data)
    assert len(whole[0]["page_spans"]) == 12  # the premise: one chunk on twelve pages
    context = Context()
    response = get_chunks(data, max_chars=1_000, context=context)
    parts = list(response["chunks"])
    while response["next_cursor"]:
        assert size(response) <= 1_000
        response = get_chunks(
            data, max_chars=1_000, cursor=response["next_cursor"], context=context
        )
        parts.extend(response["chunks"])
    assert size(response) <= 1_000
    assert list(whole_chunks(parts)) == whole


def _figures() -> bytes:
    """Page 1: prose naming a figure; a picture with its caption below; a table's caption
    above its table; prose; a second picture without a caption, between paragraphs."""
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    fonts = {
        "F1": b.font_standard("Helvetica", encoding="/WinAnsiEncoding"),
        "F2": b.font_standard("Helvetica-Bold", encoding="/WinAnsiEncoding"),
    }
    picture = b.image_xobject(64, 48)
    page = Canvas()
    page.text("Results", 72, 70, size=14, bold=True)
    y = paragraph(
        page, "Figure 1 shows the yearly totals, which rose in every quarter. " * 2, 72, 100, 440
    )
    # The picture: 72-372 across, y + 16 to y + 166 down (top-left origin).
    top = y + 16
    page.text("Figure 1: Yearly totals by quarter", 72, top + 150 + 16, 10)
    y = paragraph(page, "The table below lists the same totals by region. " * 2, 72, top + 210, 440)
    page.text("Table 1: Totals by region", 72, y + 30, 10)
    y = statement(page, y + 52, periods=2)
    y = paragraph(
        page, "A closing paragraph says what the totals mean for the plan. " * 2, 72, y + 30, 440
    )
    logo = y + 14  # the second picture: 72-132 across, 40 points high
    paragraph(
        page, "The last paragraph stands under an unlabelled picture. " * 2, 72, logo + 60, 440
    )
    draw = (
        f"q 300 0 0 150 72 {792 - top - 150:.2f} cm /Im1 Do Q "
        f"q 60 0 0 40 72 {792 - logo - 40:.2f} cm /Im1 Do Q\n"
    ).encode()
    b.add_page(draw + page.content(), {"Font": fonts, "XObject": {"Im1": picture}})
    return b.build()


def test_a_figure_is_a_chunk_with_its_caption_and_a_table_keeps_its_caption() -> None:
    data = _figures()
    chunks = _all(data)
    figures = [c for c in chunks if c["kind"] == "figure"]
    assert len(figures) == 1, [(c["kind"], c["markdown"][:60]) for c in chunks]
    figure = figures[0]
    assert re.fullmatch(
        r"!\[image p1-x\d+ \(64×48 px\)\]\(pdfthin:image/p1-x\d+\)\n\n"
        r"Figure 1: Yearly totals by quarter",
        figure["markdown"],
    ), figure["markdown"]
    assert figure["text"] == "Figure 1: Yearly totals by quarter"
    box = figure["bbox"]  # the picture's box and its caption's
    assert box["x0"] == pytest.approx(72, abs=0.5) and box["x1"] == pytest.approx(372, abs=0.5)
    assert box["y0"] < 200 < box["y1"] and box["y1"] > figure_bottom(data)
    assert figure["breadcrumb"] == ["Results"]
    # Prose about the figure is a paragraph, not its caption.
    prose = next(c for c in chunks if "shows the yearly totals" in c["markdown"])
    assert prose["kind"] == "paragraph" and "Figure 1:" not in prose["markdown"]
    # The caption above a table goes with it.
    table = next(c for c in chunks if c["kind"] == "table")
    assert table["markdown"].startswith("Table 1: Totals by region\n\n|"), table["markdown"][:80]
    # A picture without a caption stays in the flow of the text, as in the page's Markdown.
    flowing = next(c for c in chunks if "unlabelled picture" in c["markdown"])
    assert flowing["kind"] == "paragraph"
    assert re.search(r"!\[image p1-x\d+-2 \(64×48 px\)\]", flowing["markdown"]), flowing
    page = pdfthin.open(data).page(1)
    assert "".join(c["markdown"] for c in chunks).count("](pdfthin:image/") == page.markdown.count(
        "](pdfthin:image/"
    )


def figure_bottom(data: bytes) -> float:
    """The bottom of the first picture on page 1 (top-left origin)."""
    return pdfthin.open(data).page(1).images[0].bbox[3]
