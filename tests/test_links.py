"""Links in the page Markdown (pdfthin/model/links.py): the words under a link to a web or
mail address become ``[words](address)`` where that is certain; anything else stays text."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from annotated import annotated_pdf
from counting import Calls
from markdown_it import MarkdownIt
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.engine.types import TextRun
from pdfthin.layout import covered as covered_module
from pdfthin.layout.covered import Covering, covered_text
from pdfthin.model import links as links_module
from pdfthin.model.links import MAX_ADDRESS_CHARS, _alone, _trimmed, destination
from pdfthin.operations import Context, find_in_document, get_chunks

pytestmark = pytest.mark.usefixtures("implementation")

SIZE = 12
CHAR_WIDTH = 0.6 * SIZE  # Courier: every character 0.6 em wide


def _linked(lines: list[tuple[str, float, float]], links: list[tuple[str, str, Any]]) -> bytes:
    """A page with ``lines`` (text, x, baseline) and a link over each ``(words, uri, line)``:
    ``words`` is found in the line's text and boxed where it is drawn."""
    b = PdfBuilder()
    font = b.font_standard("Courier")
    content = b"".join(
        b"BT /F1 %d Tf %g %g Td (%s) Tj ET\n" % (SIZE, x, y, text.encode("latin-1"))
        for text, x, y in lines
    )
    page = b.add_page(content, {"Font": {"F1": font}})
    annots = []
    for words, uri, line in links:
        text, x, y = lines[line]
        at = text.index(words)
        x0 = x + at * CHAR_WIDTH
        rect = [x0 - 1, y - 3, x0 + len(words) * CHAR_WIDTH + 1, y + SIZE - 1]
        annots.append(
            b.add(
                {"Type": "/Annot", "Subtype": "/Link", "Rect": rect, "A": {"S": "/URI", "URI": uri}}
            )
        )
    b.get(page)["Annots"] = annots
    return b.build()


def _rendered_links(markdown: str) -> list[tuple[str, str]]:
    """(href, visible text) of each link a CommonMark renderer makes of ``markdown``."""
    html = MarkdownIt("commonmark").render(markdown)
    return [
        (href, re.sub(r"<[^>]+>", "", text))
        for href, text in re.findall(r'<a href="([^"]*)">(.*?)</a>', html)
    ]


def test_a_link_to_a_web_address_is_a_markdown_link_and_the_plain_text_stays() -> None:
    doc = pdfthin.open(annotated_pdf())
    first, _, turned = doc.pages
    assert "[project site](https://example.com/project)" in first.markdown
    assert _rendered_links(first.markdown) == [("https://example.com/project", "project site")]
    # Links inside the document (go-to, named destinations) stay text.
    assert "[see page two]" not in first.markdown and "[chapter]" not in first.markdown
    assert "project site" in first.text and "](" not in first.text
    # A page shown turned: its link's box is where the turned words are.
    assert turned.markdown == "[Turned link](http://example.org/)"


def test_a_links_words_leave_out_the_full_stop_after_them() -> None:
    # The box drawn around "full report." takes the sentence's full stop with the words.
    line = "Read the full report. Then"
    doc = pdfthin.open(_linked([(line, 72, 700)], [("full report.", "https://x.test/r", 0)]))
    markdown = doc.pages[0].markdown
    assert markdown == "Read the [full report](https://x.test/r). Then"
    assert _rendered_links(markdown) == [("https://x.test/r", "full report")]


@pytest.mark.parametrize(
    ("covered", "words"),
    [
        # The ")" after an address drawn as a run of its own, inside the box's margin.
        ("help-libtasn1@gnu.org)", "help-libtasn1@gnu.org"),
        ("(help@example.org", "help@example.org"),
        ("the report,", "the report"),
        ("see it (now)).", "see it (now)"),
        # Brackets the words hold both of are theirs.
        ("(the report)", "(the report)"),
        ("f(x)", "f(x)"),
        ("", ""),
        ("(.", ""),
    ],
)
def test_a_links_words_are_trimmed_of_the_sentences_punctuation(covered: str, words: str) -> None:
    assert _trimmed(covered) == words


def test_blocks_still_locate_their_markdown_and_text_after_a_link() -> None:
    doc = pdfthin.open(annotated_pdf())
    page = doc.page(1)
    pieces = [page.markdown[a.offset : a.offset + a.length] for a in page.anchors]
    assert "\n\n".join(pieces) == page.markdown
    for anchor, piece in zip(page.anchors, pieces, strict=True):
        plain = page.text[anchor.plain : anchor.plain + anchor.plain_length]
        assert re.sub(r"\[(.*?)\]\([^)]*\)", r"\1", piece) == plain


def test_search_and_chunks_see_the_words_not_the_syntax() -> None:
    data = annotated_pdf()
    context = Context()
    found = find_in_document(data, "project site", context=context)
    assert [m["page"] for m in found["matches"]] == [1]
    chunk = next(
        c for c in get_chunks(data, context=context)["chunks"] if "project site" in c["text"]
    )
    assert "](https://example.com/project)" in chunk["markdown"]
    assert "](" not in chunk["text"]


@pytest.mark.parametrize(
    ("uri", "written"),
    [
        (b"javascript:alert(1)", None),
        (b"file:///etc/passwd", None),
        (b"https://", None),
        (b"https://example.com/a b(c)", "https://example.com/a%20b%28c%29"),
        (b"mailto:someone@example.com", "mailto:someone@example.com"),
        (b"HTTP://EXAMPLE.COM/<x>", "HTTP://EXAMPLE.COM/%3Cx%3E"),
    ],
)
def test_only_web_and_mail_addresses_are_written_and_never_break_the_link(
    uri: bytes, written: str | None
) -> None:
    data = _linked([("Read the notice first.", 72, 700)], [("notice", uri, 0)])
    markdown = pdfthin.open(data).page(1).markdown
    if written is None:
        assert markdown == "Read the notice first."
    else:
        assert markdown == f"Read the [notice]({written}) first."
        assert _rendered_links(markdown) == [(written.replace("&", "&amp;"), "notice")]


def test_a_long_address_stays_out() -> None:
    assert destination("https://example.com/" + "a" * MAX_ADDRESS_CHARS) is None
    assert destination(" https://example.com/x ") == "https://example.com/x"


def test_words_that_occur_twice_in_the_block_stay_text() -> None:
    """The box covers one "site" of two in its line: which one the Markdown shows is not
    certain from the words alone, so neither becomes a link."""
    line = "the site and the other site"
    data = _linked([(line, 72, 700)], [("other site", "https://a.example/", 0)])
    assert (
        pdfthin.open(data).page(1).markdown == "the site and the [other site](https://a.example/)"
    )
    data = _linked([(line, 72, 700)], [("site", "https://a.example/", 0)])
    assert pdfthin.open(data).page(1).markdown == line


def test_two_links_over_the_same_words_leave_them_text() -> None:
    lines = [("Ask the desk today.", 72, 700)]
    data = _linked(
        lines, [("desk", "https://one.example/", 0), ("desk", "https://two.example/", 0)]
    )
    assert pdfthin.open(data).page(1).markdown == "Ask the desk today."


def test_the_text_under_boxes_is_found_through_the_index_as_by_reading_every_run() -> None:
    # Covering indexes a page's runs by their middles so that each of many links reads only
    # the runs level with it: the same words, in the same order, as reading every run.
    rng = random.Random(20)
    for _ in range(200):
        runs = []
        for seq in range(rng.randint(0, 40)):
            x0, y0 = rng.uniform(0, 500), rng.uniform(0, 700)
            size = rng.choice([0.0, 4.0, 10.0, 30.0])
            height = size or rng.uniform(0, 12)
            words = " ".join(rng.choice(["a", "link", "to", "here", " "]) for _ in range(3))
            runs.append(
                TextRun(
                    words,
                    x0,
                    y0,
                    x0 + rng.uniform(-5, 80),
                    y0 + height,
                    size,
                    "F1",
                    direction=rng.choice([0, 0, 0, 1]),
                    seq=seq + 1,
                    space_after=rng.random() < 0.3,
                )
            )
        covering = Covering(runs)
        for _ in range(10):
            boxes = []
            for _ in range(rng.randint(0, 3)):
                x0, y0 = rng.uniform(0, 500), rng.uniform(0, 700)
                boxes.append((x0, y0, x0 + rng.uniform(0, 200), y0 + rng.uniform(0, 40)))
            assert covering.text(boxes) == covered_text(runs, boxes)


def test_each_of_many_links_reads_only_the_runs_level_with_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A page of many links (an index, a list of references): each link's text was found by
    # reading every run of the page, a cost of links times runs.
    count = 200
    lines = [(f"item {i}", 40.0 + (i // 50) * 140, 760.0 - (i % 50) * 14) for i in range(count)]
    links = [(f"item {i}", f"https://e.example/{i}", i) for i in range(count)]
    read = Calls(monkeypatch, covered_module, "covered_text", lambda runs, boxes: len(runs))
    markdown = pdfthin.open(_linked(lines, links)).page(1).markdown
    assert markdown.count("](https://e.example/") == count  # every link still found
    assert read.count < 10 * count, read.count  # every run for every link: count**2


@pytest.mark.parametrize(
    ("found", "alone"),
    [
        ([(0, 5, "a"), (5, 9, "b"), (9, 12, "c")], [(0, 5, "a"), (5, 9, "b"), (9, 12, "c")]),
        ([(10, 20, "b"), (0, 100, "a"), (30, 40, "c")], []),  # one long span over two others
        ([(0, 4, "a"), (0, 4, "b"), (6, 8, "c")], [(6, 8, "c")]),  # the same words twice
        ([(6, 8, "c"), (0, 7, "a")], []),
    ],
)
def test_links_over_the_same_words_are_neither_kept(
    found: list[tuple[int, int, str]], alone: list[tuple[int, int, str]]
) -> None:
    assert _alone(found) == alone


def test_past_the_pages_scan_budget_links_stay_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each link's words are sought in the blocks under it; a page of thousands of links in
    # one big block would read it once per link. The reading is bounded per page: the links
    # past it stay text (get_annotations still lists them).
    line = "see one and two here"
    data = _linked(
        [(line, 72, 700)],
        [("one", "https://one.example/", 0), ("two", "https://two.example/", 0)],
    )
    assert pdfthin.open(data).page(1).markdown == (
        "see [one](https://one.example/) and [two](https://two.example/) here"
    )
    monkeypatch.setattr(links_module, "MAX_LINK_SCAN_CHARS", len(line))  # one reading
    assert pdfthin.open(data).page(1).markdown == "see [one](https://one.example/) and two here"
