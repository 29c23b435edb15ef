"""``verify_quote`` and passage anchors (issue 25): a quote is ``exact``, ``normalized``,
``fuzzy``, on an ``other_page``, ``not_found`` (only when every page was read) or
``unverifiable`` (never ``not_found`` when a page in scope could not be read); a found answer
is the passage as it stands with find's offsets, its boxes, its chunk and an anchor that
``resolve_anchor`` answers, or calls ``stale`` on another file. On generated PDFs with known
text, on both engine paths, and on real papers of the corpus with their ground truth's
sentences as quotes, altered in each way."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, corpus_files, require_corpus
from pdfbuilder import PdfBuilder

from pdfthin.errors import PdfthinError
from pdfthin.operations import (
    Context,
    find_in_document,
    get_chunks,
    resolve_anchor,
    verify_quote,
)
from pdfthin.operations.quote_fuzzy import MAX_FUZZY_WORDS, MIN_SIMILARITY

pytestmark = pytest.mark.usefixtures("implementation")

#: CPU seconds an adversarial quote may cost: far above what the bounds allow (about a
#: second), far below a hang; CPU time, so other jobs on the machine do not count.
QUICK_SECONDS = 10.0

PAGES = [
    [
        "The quick brown fox jumps over",
        "the lazy dog near the river and",
        "then sleeps under an old exam-",
        "ple of a tree in the garden.",
    ],
    [
        "She said “quoted words” matter",
        "and that efficient – dashes too.",
        "Here is a sentence that runs on across",
    ],
    ["the page break to its end.", "Unique words on page three only."],
]


def _page(b: PdfBuilder, font: object, lines: list[str]) -> None:
    """``lines`` drawn a word at a time (one run per word), 14 pt apart."""
    body = [b"BT /F1 11 Tf 72 700 Td 14 TL"]
    for line in lines:
        for word in line.split():
            body.append(b"(" + word.encode("cp1252") + b" ) Tj")
        body.append(b"T*")
    body.append(b"ET")
    b.add_page(b"\n".join(body), {"Font": {"F1": font}})


def _pdf(pages: list[list[str]], scanned: bool = False) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    for lines in pages:
        _page(b, font, lines)
    if scanned:  # a last page with no text layer: a full-page image
        image = b.image_xobject(8, 8)
        b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    return b.build()


@pytest.fixture(scope="module")
def readable() -> bytes:
    return _pdf(PAGES)


@pytest.fixture(scope="module")
def scanned() -> bytes:
    return _pdf(PAGES, scanned=True)


def _verify(pdf: bytes, quote: str, **kwargs: Any) -> dict[str, Any]:
    return dict(verify_quote(pdf, quote, context=Context(), **kwargs))


def _place(answer: dict[str, Any]) -> tuple[int, int, int, int]:
    m = answer["match"]
    return m["page"], m["start"], m.get("end_page", m["page"]), m["end"]


def _page_text(pdf: bytes, page: int) -> str:
    return Context().document(pdf, None).page(page).text


# --- exact --------------------------------------------------------------------------------------


def test_an_exact_quote_is_found_with_find_s_offsets_boxes_and_chunk(readable: bytes) -> None:
    r = _verify(readable, "the  lazy\n dog near", page=1)
    assert r["result"] == "exact"
    m = r["match"]
    (hit,) = find_in_document(
        readable, "the lazy dog near", case_sensitive=True, context=Context()
    )["matches"]
    assert (m["page"], m["start"], m["end"]) == (hit["page"], hit["start"], hit["end"])
    assert m["bbox"] == hit["bbox"] and m["bbox"]
    assert m["chunk_id"] == hit["chunk_id"]
    assert m["text"] == _page_text(readable, 1)[m["start"] : m["end"]] == "the lazy dog near"
    assert m["level"] == "exact"
    assert m["anchor"] == f"pdfthin:{r['document']['fingerprint']}/p/1#c={m['start']}-{m['end']}"


def test_an_exact_quote_runs_across_lines(readable: bytes) -> None:
    r = _verify(readable, "near the river and then sleeps", page=1)
    assert r["result"] == "exact"
    assert r["match"]["text"].split() == "near the river and then sleeps".split()
    assert "\n" in r["match"]["text"]  # as it stands: the line break is the document's
    assert len(r["match"]["bbox"]) == 2  # one box per line


def test_a_quote_runs_across_a_page_break(readable: bytes) -> None:
    r = _verify(readable, "runs on across the page break", page=2)
    assert r["result"] == "exact"
    m = r["match"]
    assert (m["page"], m.get("end_page")) == (2, 3)
    assert m["text"] == "runs on across\nthe page break"
    assert {box["page"] for box in m["bbox"]} == {2, 3}
    assert f"/p/2-3#c={m['start']}-{m['end']}" in m["anchor"]
    # Cited as the page it ends on, it is still found there.
    assert _verify(readable, "runs on across the page break", page=3)["result"] == "exact"


# --- normalized ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("altered", "clean"),
    [
        ("eﬃcient – dashes", "efficient – dashes"),  # a ligature in the quote
        ("efficient - dashes", "efficient – dashes"),  # a hyphen for the document's en dash
        ("efficient — dashes", "efficient – dashes"),  # an em dash for it
        ('said "quoted words" matter', "said “quoted words” matter"),  # straight for curly
        ("an old exam-\nple of a tree", "an old example of a tree"),  # hyphen at a line end
        ("an old exam- ple of a tree", "an old example of a tree"),
        ("ｔｈｅ ｌａｚｙ dog", "the lazy dog"),  # full-width forms (NFKC)
    ],
)
def test_a_quote_differing_only_in_typography_is_normalized(
    readable: bytes, altered: str, clean: str
) -> None:
    exact = _verify(readable, clean)
    assert exact["result"] == "exact"
    r = _verify(readable, altered, page=exact["match"]["page"])
    assert r["result"] == "normalized", r["message"]
    assert r["match"]["level"] == "normalized"
    assert _place(r) == _place(exact)
    assert r["match"]["text"] == exact["match"]["text"]  # the document's text, not the quote


def test_case_counts_as_normalized_only_when_asked(readable: bytes) -> None:
    exact = _verify(readable, "the lazy dog near the river")
    asked = _verify(readable, "THE LAZY DOG NEAR THE RIVER", ignore_case=True)
    assert asked["result"] == "normalized"
    assert _place(asked) == _place(exact)
    assert _verify(readable, "The Lazy Dog Near The River")["result"] not in ("exact", "normalized")


# --- fuzzy --------------------------------------------------------------------------------------


def test_a_changed_word_is_fuzzy_with_the_differing_words(readable: bytes) -> None:
    r = _verify(readable, "the lazy cat near the river and then sleeps", page=1)
    assert r["result"] == "fuzzy"
    m = r["match"]
    assert m["level"] == "fuzzy"
    assert m["differences"] == [{"quote": "cat", "document": "dog"}]
    assert MIN_SIMILARITY <= m["similarity"] < 1
    assert r["min_similarity"] == MIN_SIMILARITY
    assert m["text"].split() == "the lazy dog near the river and then sleeps".split()
    assert m["text"] == _page_text(readable, 1)[m["start"] : m["end"]]


def test_a_passage_too_unlike_the_quote_is_not_found(readable: bytes) -> None:
    r = _verify(readable, "the purple cat far from any river")
    assert r["result"] == "not_found"
    assert "match" not in r
    assert r.get("nearest_similarity", 0) < MIN_SIMILARITY


# --- other_page, not_found, unverifiable --------------------------------------------------------


def test_a_quote_on_another_page_than_cited_says_which(readable: bytes) -> None:
    r = _verify(readable, "Unique words on page three", page=1)
    assert r["result"] == "other_page"
    assert r["cited_page"] == 1
    assert r["match"]["page"] == 3
    assert r["match"]["level"] == "exact"
    fuzzy = _verify(readable, "Unique words on page four only", page=1)
    assert fuzzy["result"] == "other_page"
    assert (fuzzy["match"]["page"], fuzzy["match"]["level"]) == (3, "fuzzy")


def test_not_found_says_every_page_was_read(readable: bytes) -> None:
    r = _verify(readable, "an entirely different sentence about zebras")
    assert r["result"] == "not_found"
    assert r["coverage"]["complete"] is True
    assert r["coverage"]["pages_searched"] == "1-3"


def test_a_page_that_could_not_be_read_makes_a_missing_quote_unverifiable(scanned: bytes) -> None:
    r = _verify(scanned, "an entirely different sentence about zebras")
    assert r["result"] == "unverifiable"
    assert r["coverage"]["complete"] is False
    assert r["coverage"]["pages_needing_ocr"] == "4"


def test_a_cited_page_that_could_not_be_read_is_unverifiable(scanned: bytes) -> None:
    r = _verify(scanned, "the lazy dog", page=4)
    assert r["result"] == "unverifiable"
    assert r["match"]["page"] == 1  # where it does stand, said, but page 4 is not ruled out
    assert "page 4" in r["message"]
    # A quote found on the pages that could be read is still found.
    assert _verify(scanned, "the lazy dog")["result"] == "exact"


def test_a_cited_page_out_of_range_is_invalid_pages(readable: bytes) -> None:
    with pytest.raises(PdfthinError) as info:
        _verify(readable, "the lazy dog", page=9)
    assert info.value.code == "invalid_pages"
    with pytest.raises(PdfthinError) as info:
        _verify(readable, "the lazy dog", page=0)
    assert info.value.code == "invalid_argument"


# --- bounds -------------------------------------------------------------------------------------


def test_fuzzy_matching_is_bounded_on_a_huge_page_of_one_repeated_word() -> None:
    # Adversarial for the alignment: one word repeated; the quote repeats it with another.
    pdf = _pdf([[" ".join(["a"] * 20) for _ in range(40)] for _ in range(5)])
    quote = " ".join(["a", "b"] * (MAX_FUZZY_WORDS // 2))
    started = time.process_time()
    r = _verify(pdf, quote)
    assert time.process_time() - started < QUICK_SECONDS
    assert r["result"] in ("fuzzy", "not_found")
    longer = _verify(pdf, " ".join(["a", "b"] * MAX_FUZZY_WORDS))
    assert longer["result"] == "not_found"
    assert str(MAX_FUZZY_WORDS) in longer["note"]


# --- anchors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "page"),
    [
        ("the lazy dog near", 1),
        ("runs on across the page break", 2),
        ("an old exam- ple", 1),
        ("the lazy cat near the river and then", 1),
    ],
)
def test_an_anchor_resolves_to_the_passage(readable: bytes, quote: str, page: int) -> None:
    found = _verify(readable, quote, page=page)["match"]
    r = resolve_anchor(readable, found["anchor"], context=Context())
    assert r["status"] == "ok"
    assert r["text"] == found["text"]
    assert (r["page"], r["start"], r["end"]) == (found["page"], found["start"], found["end"])
    assert r.get("end_page") == found.get("end_page")
    assert r["bbox"] == found["bbox"]
    assert r["chunk_id"] == found["chunk_id"]
    assert isinstance(r["breadcrumb"], list)


def test_an_anchor_on_another_file_is_stale(readable: bytes, scanned: bytes) -> None:
    anchor = _verify(readable, "the lazy dog")["match"]["anchor"]
    r = resolve_anchor(scanned, anchor, context=Context())
    assert r["status"] == "stale"
    assert "text" not in r and "page" not in r
    assert r["anchor_fingerprint"] != r["document"]["fingerprint"]


def test_an_anchor_names_its_section() -> None:
    """The breadcrumb is the heading trail of the chunk holding the passage (get_chunks')."""
    sample = (Path(__file__).resolve().parent.parent / "examples" / "sample.pdf").read_bytes()
    found = _verify(sample, "a piece at a time")["match"]
    r = resolve_anchor(sample, found["anchor"], context=Context())
    chunks = get_chunks(sample, max_chars=5_000_000, context=Context())["chunks"]
    (chunk,) = [c for c in chunks if c["chunk_id"] == r["chunk_id"]]
    assert r["breadcrumb"] == list(chunk["breadcrumb"])
    assert r["breadcrumb"]


FP = "ab" * 32


@pytest.mark.parametrize(
    "anchor",
    [
        "",
        "nonsense",
        "pdfthin:abc/p/1#c=0-1",
        f"pdfthin:{FP}/p/0#c=0-1",
        f"pdfthin:{FP}/p/1#c=5-5",
        f"pdfthin:{FP}/p/1#c=6-5",
        f"pdfthin:{FP}/p/2-1#c=0-1",
        f"pdfthin:{FP}/p/1-1#c=0-1",
        f"pdfthin:{FP}/p/1#c=0-1 ",
        f"pdfthin:{FP.upper()}/p/1#c=0-1",
        f"pdfthin:{FP}/page/1#c=0-1",
    ],
)
def test_a_malformed_anchor_is_invalid_argument(readable: bytes, anchor: str) -> None:
    with pytest.raises(PdfthinError) as info:
        resolve_anchor(readable, anchor, context=Context())
    assert info.value.code == "invalid_argument"
    assert info.value.details["argument"] == "anchor"


def test_an_anchor_outside_the_document_is_refused(readable: bytes) -> None:
    fp = _verify(readable, "the lazy dog")["document"]["fingerprint"]
    with pytest.raises(PdfthinError) as info:
        resolve_anchor(readable, f"pdfthin:{fp}/p/9#c=0-1", context=Context())
    assert info.value.code == "invalid_pages"
    with pytest.raises(PdfthinError) as info:
        resolve_anchor(readable, f"pdfthin:{fp}/p/1#c=0-99999", context=Context())
    assert info.value.code == "invalid_argument"


# --- the command line ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, readable: bytes, scanned: bytes) -> Path:
    folder = tmp_path_factory.mktemp("verify")
    (folder / "readable.pdf").write_bytes(readable)
    (folder / "scanned.pdf").write_bytes(scanned)
    return folder


@pytest.mark.parametrize(
    ("file", "argv", "result"),
    [
        ("readable", ["the lazy dog", "--page", "1"], "exact"),
        ("readable", ["THE LAZY DOG", "--ignore-case"], "normalized"),
        ("readable", ["the lazy cat near the river and then"], "fuzzy"),
        ("readable", ["the lazy dog", "--page", "3"], "other_page"),
        ("readable", ["an entirely different sentence about zebras"], "not_found"),
        ("scanned", ["an entirely different sentence about zebras"], "unverifiable"),
        ("scanned", ["the lazy dog", "--page", "4"], "unverifiable"),
    ],
)
def test_the_exit_code_answers(
    files: Path, capsys: pytest.CaptureFixture[str], file: str, argv: list[str], result: str
) -> None:
    from pdfthin.adapters.cli import VERIFY_EXITS, main

    code = main(["verify", str(files / f"{file}.pdf"), *argv])
    assert code == VERIFY_EXITS[result]
    assert capsys.readouterr().out.startswith(f"{result}: ")
    assert main(["verify", str(files / f"{file}.pdf"), *argv, "--format", "json"]) == code
    assert f'"result": "{result}"' in capsys.readouterr().out


def test_the_exit_codes_are_distinct_and_documented(capsys: pytest.CaptureFixture[str]) -> None:
    from pdfthin.adapters.cli import EXIT_FIND_ERROR, EXIT_NATIVE, EXIT_USAGE, VERIFY_EXITS, main

    found = {VERIFY_EXITS["exact"], VERIFY_EXITS["normalized"]}
    others = [
        code for result, code in VERIFY_EXITS.items() if result not in ("exact", "normalized")
    ]
    assert found == {0} and 0 not in others
    assert len(set(others)) == len(others)
    assert not set(others) & {EXIT_FIND_ERROR, EXIT_NATIVE, EXIT_USAGE}
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    shown = capsys.readouterr().out
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    for result, code in VERIFY_EXITS.items():
        assert re.search(rf"^\s+{code}\s+.*\b{result}\b", shown, re.M), result
        assert re.search(rf"\|\s*{code}\s*\|[^\n]*`{result}`", docs), result


def test_resolve_on_the_command_line(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pdfthin.adapters.cli import EXIT_STALE, EXIT_USAGE, main

    readable, scanned = str(files / "readable.pdf"), str(files / "scanned.pdf")
    anchor = _verify(files.joinpath("readable.pdf").read_bytes(), "the lazy dog")["match"]["anchor"]
    assert main(["resolve", readable, anchor]) == 0
    assert '"the lazy dog"' in capsys.readouterr().out
    assert main(["resolve", scanned, anchor]) == EXIT_STALE
    assert capsys.readouterr().out.startswith("stale: ")
    assert main(["resolve", readable, anchor.replace("#c=", "#c=9")]) == EXIT_USAGE  # backwards
    assert "anchor is malformed" in capsys.readouterr().err


# --- real papers --------------------------------------------------------------------------------

#: Papers of the corpus with a ground-truth text whose every page has a text layer.
PAPERS = ["pypdf-benchmarks/1601.03642.pdf", "pypdf-benchmarks/2201.00029.pdf"]
#: Of the ground truth's paragraphs, those of this many words are the quotes.
QUOTE_WORDS = (15, 60)
#: The share of those quotes found as given or normalised: the ground truth is another
#: extraction, so a figure caption or a table may differ; prose must not.
MIN_FOUND = 0.8


def _real_quotes(relpath: str) -> list[str]:
    (paper,) = [f for f in corpus_files() if f.relpath == relpath]
    (text,) = [g for g in paper.ground_truth if g.endswith(".txt")]
    paragraphs = [" ".join(p.split()) for p in (CORPUS / text).read_text("utf-8").split("\n\n")]
    return [p for p in paragraphs if QUOTE_WORDS[0] <= len(p.split()) <= QUOTE_WORDS[1]]


def _swap_quotes(text: str) -> str:
    return text.translate(str.maketrans({"“": '"', "”": '"', "’": "'", "'": "’", '"': "“"}))


def _alterations(quote: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(what, altered quote, arguments) for each way ``quote`` can be altered and still be
    normalized."""
    out: list[tuple[str, str, dict[str, Any]]] = [
        ("case", quote.upper(), {"ignore_case": True}),
    ]
    if "fi" in quote:
        out.append(("ligature", quote.replace("fi", "ﬁ"), {}))
    if _swap_quotes(quote) != quote:
        out.append(("quotes", _swap_quotes(quote), {}))
    long_word = next((w for w in quote.split() if re.fullmatch(r"[a-z]{8,}", w)), None)
    if long_word is not None:
        broken = long_word[:4] + "-\n" + long_word[4:]
        out.append(("hyphen", re.sub(rf"\b{long_word}\b", broken, quote, count=1), {}))
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("relpath", PAPERS)
def test_real_quotes_are_verified_and_their_alterations_answered(relpath: str) -> None:
    require_corpus()
    path = str(CORPUS / relpath)
    ctx = Context()
    quotes = _real_quotes(relpath)
    assert quotes
    answers = {q: dict(verify_quote(path, q, context=ctx)) for q in quotes}
    found = [q for q, r in answers.items() if r["result"] in ("exact", "normalized")]
    assert len(found) >= MIN_FOUND * len(quotes), [
        (r["result"], q[:60]) for q, r in answers.items() if q not in found
    ]
    seen: set[str] = set()
    changes = 0
    page_count = answers[found[0]]["document"]["page_count"]
    for quote in found:
        base = answers[quote]
        page = base["match"]["page"]
        assert base["coverage"]["complete"]
        for what, altered, kwargs in _alterations(quote):
            r = verify_quote(path, altered, page=page, context=ctx, **kwargs)
            assert r["result"] in ("exact", "normalized"), (what, altered, r["message"])
            assert _place(dict(r)) == _place(base), (what, altered)
            if r["result"] == "normalized":
                seen.add(what)
        # A word changed: fuzzy, naming the word (a word of the quote's second half or so,
        # where one that is a plain word stands).
        words = quote.split()
        plain = [
            i for i in range(len(words) // 3, len(words)) if re.fullmatch("[a-z]{4,}", words[i])
        ]
        if plain:
            middle = plain[0]
            changed = " ".join([*words[:middle], "zebra", *words[middle + 1 :]])
            r = dict(verify_quote(path, changed, page=page, context=ctx))
            assert r["result"] == "fuzzy", (changed, r["message"])
            assert {"quote": "zebra", "document": words[middle]} in r["match"]["differences"]
            assert r["match"]["page"] == page
            changes += 1
        # The wrong page: said which.
        wrong = page % page_count + 1
        r = dict(verify_quote(path, quote, page=wrong, context=ctx))
        if wrong != page and base["match"].get("end_page") != wrong:
            assert r["result"] == "other_page"
            assert r["match"]["page"] == page
    assert seen >= {"case", "ligature", "hyphen"}
    assert changes >= len(found) // 2
    # Absent: the paper's words in an order it never has.
    absent = " ".join(sorted(set(found[0].split()))[:12]) + " zebra"
    r = dict(verify_quote(path, absent, context=ctx))
    assert r["result"] == "not_found"
    assert r["coverage"]["complete"]


#: A corpus file of scanned pages: no text layer at all.
SCANS = [f for f in corpus_files(tag="image-only")]


@pytest.mark.corpus
def test_a_real_scanned_page_is_unverifiable() -> None:
    require_corpus()
    if not SCANS:
        pytest.skip("no image-only file in the corpus")
    for scan in SCANS[:3]:
        ctx = Context()
        path = str(scan.path)
        for page in (None, 1):
            r = verify_quote(path, "Creativity in Machine Learning", page=page, context=ctx)
            assert r["result"] == "unverifiable", (scan.relpath, r["message"])
            assert not r["coverage"]["complete"]


# --- the other surfaces -------------------------------------------------------------------------


def test_the_browser_bridge_answers_as_the_operation(readable: bytes) -> None:
    import json

    from pdfthin.adapters import browser

    handle = browser.open_document(readable)
    arguments = {"quote": "the lazy cat near the river", "page": 1}
    answer = json.loads(browser.call("verify", handle, json.dumps(arguments)))
    expected = json.loads(json.dumps(verify_quote(readable, **arguments, context=Context())))
    assert answer == expected
    anchor = answer["match"]["anchor"]
    resolved = json.loads(browser.call("resolve", handle, json.dumps({"anchor": anchor})))
    assert resolved["text"] == answer["match"]["text"]
    error = json.loads(browser.call("resolve", handle, json.dumps({"anchor": "x"})))["error"]
    assert (error["code"], error["details"]["argument"]) == ("invalid_argument", "anchor")


def test_the_mcp_tool_says_when_to_call_it() -> None:
    from pdfthin.operations.registry import BY_NAME

    assert "before quoting" in BY_NAME["verify_quote"].description


@pytest.mark.parametrize("query", ["lazy dog near", "runs on across the page break"])
def test_find_matches_carry_anchors_that_resolve(readable: bytes, query: str) -> None:
    ctx = Context()
    (match,) = find_in_document(readable, query, context=ctx)["matches"]
    r = resolve_anchor(readable, match["anchor"], context=ctx)
    assert (r["page"], r["start"], r["end"]) == (match["page"], match["start"], match["end"])
    assert r.get("end_page") == match.get("end_page")
    assert r["text"].split() == query.split()
    assert r["bbox"] == match["bbox"]


def test_composed_and_decomposed_accents_compare_equal_when_normalized() -> None:
    from pdfthin.operations.quote_text import fold_pages, fold_quote

    assert fold_quote("un cafe\u0301 noir", True, False) == "un café noir"
    assert fold_quote("un cafe\u0301 noir", False, False) != "un café noir"
    # A match ending in a decomposed letter takes in its mark.
    index = fold_pages([(1, "un cafe\u0301")], True, False)
    assert index.text == "un café" and index.offsets[-1] == 6  # the letter; the mark is 7
    pdf = _pdf([["un café noir et un thé"]])
    r = _verify(pdf, "un cafe\u0301 noir")
    assert r["result"] == "normalized"
    assert r["match"]["text"] == "un café noir"
    assert _verify(pdf, "un cafe noir")["result"] not in ("exact", "normalized")


def test_no_match_runs_across_a_page_that_could_not_be_read() -> None:
    from pdfthin.operations.quote_fuzzy import nearest, words_of
    from pdfthin.operations.quote_text import SEPARATOR, fold_pages

    index = fold_pages([(1, "the end of one"), (2, None), (3, "page and the next")], True, False)
    assert index.text == f"the end of one{SEPARATOR}page and the next"
    assert "one page" not in index.text
    found = nearest("the end of one page and the", index.text, words_of(index.text))
    assert found is not None
    assert SEPARATOR not in index.text[found.start : found.end]


def test_an_unverifiable_answer_does_not_offer_an_argument_it_lacks(scanned: bytes) -> None:
    message = _verify(scanned, "an entirely different sentence")["coverage"]["message"]
    assert "ocr=true" in message and "find_in_document" in message
    assert "retry with ocr=true" not in message  # verify_quote takes no ocr argument
