"""``search_chunks``: BM25 over the default chunks, checked against a hand computation; the
phrase bonus; a known passage of a real paper ranks its chunk first; coverage names the pages
that could not be searched; the answer fits its budget and says what it left out."""

from __future__ import annotations

import math

import pytest
from conftest import CORPUS, corpus_files, require_corpus
from pdfbuilder import PdfBuilder

from pdfthin.engine import open_pdf
from pdfthin.model.chunks import Chunk, Span
from pdfthin.operations import Context, get_chunks, search_chunks
from pdfthin.operations.ranked import K1, PHRASE_BONUS, B, Bm25Index, words
from pdfthin.operations.response import dumps
from pdfthin.operations.types import PageBox


def _chunk(n: int, text: str) -> Chunk:
    return Chunk(
        id=f"p{n}-1",
        kind="paragraph",
        breadcrumb=(),
        markdown=text,
        text=text,
        spans=(Span(n, (0.0, 0.0, 10.0, 10.0)),),
        status="text",
        reason_code="text_layer",
        provenance="text_layer",
        origin=(n, 0),
    )


def test_scores_match_a_hand_computation() -> None:
    index = Bm25Index.of(
        [
            _chunk(1, "Apple banana APPLE."),  # 3 words
            _chunk(2, "banana, cherry"),  # 2 words
            _chunk(3, "Cherry date élder fig"),  # 4 words
        ]
    )
    assert index.average == 3.0
    # "apple": in 1 chunk of 3 -> Lucene IDF ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) = ln(8/3);
    # chunk 1 holds it twice and has the average length: 2 * 2.2 / (2 + 1.2).
    (only,) = index.rank(["apple"])
    assert only[1] == 0
    assert only[0] == pytest.approx(math.log(8 / 3) * 2 * 2.2 / 3.2)
    # "banana cherry": each word in 2 chunks -> ln(1 + 1.5 / 2.5) = ln(1.6). Chunk 2 (2 words):
    # length norm 1.2 * (0.25 + 0.75 * 2/3) = 0.9, each word once: 2.2 / 1.9; and it holds the
    # query as a phrase: half as much again.
    scores = dict((i, s) for s, i in index.rank(words("Banana cherry")))
    assert scores[1] == pytest.approx(2 * math.log(1.6) * 2.2 / 1.9 * 1.5)
    # Chunk 1: banana once in 3 words (norm 1.2); chunk 3: cherry once in 4 words (norm 1.5).
    assert scores[0] == pytest.approx(math.log(1.6) * 2.2 / 2.2)
    assert scores[2] == pytest.approx(math.log(1.6) * 2.2 / 2.5)
    # Case and accents are folded as find folds them.
    assert index.rank(["elder"])[0][1] == 2
    assert (K1, B, PHRASE_BONUS) == (1.2, 0.75, 0.5)


def test_the_phrase_bonus_puts_a_phrase_match_first() -> None:
    # The same words, as often, in chunks of the same length: only their order differs. The
    # phrase comes second in the document, so without the bonus the tie would put it last.
    index = Bm25Index.of(
        [
            _chunk(1, "apple is red and the tree is green"),
            _chunk(2, "the tree is green and a red apple is"),
            _chunk(3, "nothing about fruit in this one here"),
        ]
    )
    ranked = index.rank(words("red apple"))
    assert [i for _, i in ranked] == [1, 0]
    assert ranked[0][0] > ranked[1][0]


def _text_pdf(pages: list[list[str]], scanned: set[int] | None = None) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    image = b.image_xobject(8, 8)
    for number, lines in enumerate(pages, start=1):
        if scanned and number in scanned:
            b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
            continue
        body = [b"BT /F1 12 Tf 72 720 Td 14 TL"]
        body.extend(b"(" + line.encode("latin-1") + b") Tj T*" for line in lines)
        body.append(b"ET")
        b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    return b.build()


def test_results_are_chunks_of_get_chunks_with_their_boxes() -> None:
    pdf = _text_pdf(
        [
            ["Gardening notes about roses and soil."],
            ["The orbital mechanics of small satellites."],
            ["Roses need sun; satellites need fuel."],
        ]
    )
    ctx = Context()
    r = search_chunks(pdf, "satellites", context=ctx)
    chunks = {c["chunk_id"]: c for c in get_chunks(pdf, context=ctx)["chunks"]}
    holding = [c for c in chunks.values() if "satellites" in c["text"]]
    assert r["total_hits"] == len(holding) == len(r["results"]) >= 1
    for result in r["results"]:
        chunk = chunks[result["chunk_id"]]
        assert result["chunk_bbox"] == chunk["bbox"] and result["page"] == chunk["page"]
        assert "**satellites**" in result["snippet"]
    assert r["coverage"]["complete"]


GARDEN = [
    "The garden soil was dry and pale this",
    "year so we watered the beds every morning",
    "and the tomatoes grew tall beside the old red",
    "apple tree that stands near the back fence",
    "where the harvest came late but plentiful.",
]


def _word_runs_pdf(pages: list[list[str]]) -> bytes:
    """``pages`` of lines drawn a word at a time (one glyph run per word), 14 pt apart."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    for lines in pages:
        body = [b"BT /F1 11 Tf 72 700 Td 14 TL"]
        for line in lines:
            body.extend(f"({word} ) Tj".encode() for word in line.split())
            body.append(b"T*")
        body.append(b"ET")
        b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    return b.build()


def _word_boxes(pdf: bytes, page: int, word: str) -> list[tuple[float, float, float, float]]:
    runs = open_pdf(pdf).page(page).runs
    return [(r.x0, r.y0, r.x1, r.y1) for r in runs if r.text.strip().strip(".") == word]


def _holds(box: PageBox, glyphs: tuple[float, float, float, float], slack: float = 0.5) -> bool:
    x0, y0, x1, y1 = glyphs
    return (
        box["x0"] - slack <= x0
        and x1 <= box["x1"] + slack
        and box["y0"] - slack <= y0
        and y1 <= box["y1"] + slack
    )


@pytest.mark.parametrize(
    ("query", "words_in_order"),
    [
        ("red apple", ["red", "apple"]),  # a phrase across a line break: both lines
        ("harvest tomatoes", ["tomatoes", "harvest"]),  # no phrase: each word's line
        ("Fence", ["fence"]),
    ],
)
def test_a_result_frames_the_lines_where_the_query_stands(
    query: str, words_in_order: list[str], implementation: str
) -> None:
    pdf = _word_runs_pdf([["An opening page about other things entirely."], GARDEN])
    ctx = Context()
    (result,) = search_chunks(pdf, query, context=ctx)["results"]
    boxes = result["bbox"]
    assert len(boxes) == len(words_in_order)  # one line each, no other line of the chunk
    for box, word in zip(boxes, words_in_order, strict=True):
        assert box["page"] == 2
        (glyphs,) = _word_boxes(pdf, 2, word)
        assert _holds(box, glyphs), (word, box, glyphs)
        # The line's box, not the chunk's: it holds no glyph of another line.
        (other,) = _word_boxes(pdf, 2, "garden")
        assert not _holds(box, other)
    (chunk,) = [
        c for c in get_chunks(pdf, context=ctx)["chunks"] if c["chunk_id"] == result["chunk_id"]
    ]
    assert result["chunk_bbox"] == chunk["bbox"]
    spans = {s["page"]: s["bbox"] for s in chunk["page_spans"]}
    assert all(_holds(spans[2], (b["x0"], b["y0"], b["x1"], b["y1"])) for b in boxes)


def test_a_result_across_a_page_break_frames_lines_on_both_pages() -> None:
    pages = [["Notes on the garden.", *GARDEN[:2], "and the tomatoes grew beside an old"], []]
    pages[1] = ["orchard wall all summer long until the frost."]
    pdf = _word_runs_pdf(pages)
    (result,) = search_chunks(pdf, "old orchard", context=Context())["results"]
    assert [b["page"] for b in result["bbox"]] == [1, 2]
    (old,) = _word_boxes(pdf, 1, "old")
    (orchard,) = _word_boxes(pdf, 2, "orchard")
    assert _holds(result["bbox"][0], old) and _holds(result["bbox"][1], orchard)


def test_coverage_names_the_pages_that_could_not_be_searched() -> None:
    pdf = _text_pdf([["Only words about turbines."], []], scanned={2})
    r = search_chunks(pdf, "generator", context=Context())
    assert r["results"] == [] and not r["coverage"]["complete"]
    assert r["coverage"]["pages_needing_ocr"] == "2"
    assert "note" in r


def test_the_answer_fits_its_budget_and_says_what_it_left_out() -> None:
    line = "The river delta and its delta channels, page {n}, line {i}, with more words."
    pdf = _text_pdf([[line.format(n=n, i=i) for i in range(30)] for n in range(12)])
    ctx = Context()
    whole = search_chunks(pdf, "delta channels", top_k=100, max_chars=1_000_000, context=ctx)
    assert len(whole["results"]) >= 5 and "omitted" not in whole
    cut = search_chunks(pdf, "delta channels", top_k=100, max_chars=1_500, context=ctx)
    assert len(dumps(cut)) <= 1_500
    assert 0 < len(cut["results"]) < len(whole["results"]) and "omitted" in cut
    assert cut["results"] == whole["results"][: len(cut["results"])]
    top = search_chunks(pdf, "delta channels", top_k=2, context=ctx)
    assert top["results"] == whole["results"][:2] and "omitted" not in top


def test_a_second_query_reuses_the_index() -> None:
    pdf = _text_pdf([["alpha beta"], ["beta gamma"]])
    ctx = Context()
    search_chunks(pdf, "beta", context=ctx)
    doc = ctx.document(pdf, None)
    (key,) = [k for k in doc.derived if isinstance(k, str) and k.startswith("bm25:")]
    index = doc.derived[key]
    search_chunks(pdf, "gamma", context=ctx)
    assert doc.derived[key] is index


PAPER = [f for f in corpus_files() if f.relpath == "pdfjs/tracemonkey.pdf"]


@pytest.mark.parametrize(
    "passage",
    [
        "traces can cross function call boundaries",
        "speculatively generate efficient type-specialized code",
    ],
)
def test_a_known_passage_of_a_real_paper_ranks_its_chunk_first(passage: str) -> None:
    require_corpus()
    if not PAPER:
        pytest.skip("pdfjs/tracemonkey.pdf is not in the corpus")
    path = str(CORPUS / PAPER[0].relpath)
    ctx = Context()
    r = search_chunks(path, passage, top_k=3, context=ctx)
    best = r["results"][0]
    chunks = get_chunks(path, max_chars=5_000_000, context=ctx)["chunks"]
    (holding,) = [c for c in chunks if passage in " ".join(c.get("text", "").split())]
    assert best["chunk_id"] == holding["chunk_id"]
    assert best["score"] > r["results"][1]["score"]
