"""Pages found by descending the page tree by its counts (``engine/page_tree.py``): the same
pages, references and page numbers as pypdf's walk of the whole tree, on trees of every
shape; only the nodes on the way read; a tree whose counts do not hold read the way it was
before, and page *n* the same page whichever page is read first."""

from __future__ import annotations

import io
import logging
from typing import Any

import pypdf
import pytest
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from counting import Calls
from object_reads import ObjectReads
from pdfbuilder import PdfBuilder, Ref

from pdfthin.engine import page_tree
from pdfthin.engine.document import EngineDocument
from pdfthin.engine.page_tree import PageTree
from pdfthin.errors import PdfthinError


def _text(i: int) -> bytes:
    return b"BT /F1 12 Tf 72 500 Td (Page %d) Tj ET" % i


def _tree(shape: list[Any], *, counts: dict[int, int] | None = None) -> bytes:
    """A PDF whose page tree follows ``shape``: a list of kids, each ``"p"`` (a page), a
    nested list (a node), or ``("inline", n)`` (a page written inside its parent's /Kids).
    Nodes carry inheritable attributes (/MediaBox, /Rotate, /Resources) that pages either
    inherit or override. ``counts`` overrides the /Count of the nth node written (0: the
    root) to make a tree whose counts do not hold."""
    b = PdfBuilder()
    font = {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Helvetica"}
    counts = counts or {}
    pages = 0
    nodes = 0

    def node(kids_shape: list[Any], ref: Ref, parent: Ref | None, depth: int) -> int:
        nonlocal pages, nodes
        mine = nodes
        nodes += 1
        kids: list[Any] = []
        total = 0
        for kid in kids_shape:
            if kid == "p":
                pages += 1
                extra: dict[str, Any] = {"Parent": ref}
                if pages % 3 == 0:
                    extra["Rotate"] = 90  # its own value beats the inherited one
                kids.append(
                    b.add_page(_text(pages), media_box=None, extra=extra)
                    if pages % 2
                    else b.add_page(_text(pages), {"Font": {"F1": font}}, extra=extra)
                )
                b.page_refs.pop()  # the tree is written here, not as the builder's flat list
                total += 1
            elif isinstance(kid, tuple):
                pages += 1
                contents = b.stream(_text(pages))
                kids.append({"Type": "/Page", "Parent": ref, "Contents": contents})
                total += 1
            else:
                child = b.reserve()
                kids.append(child)
                total += node(kid, child, ref, depth + 1)
        entries: dict[str, Any] = {"Type": "/Pages", "Kids": kids, "Count": total}
        entries["Count"] = counts.get(mine, total)
        if parent is not None:
            entries["Parent"] = parent
        entries["MediaBox"] = [0, 0, 500 + depth, 700]
        if depth % 2 == 0:
            entries["Resources"] = {"Font": {"F1": font}}
            entries["Rotate"] = 180
        if ref is b.pages_ref:
            b.pages_root = entries
        else:
            b.set(ref, entries)
        return total

    node(shape, b.pages_ref, None, 0)
    return b.build()


SHAPES = {
    "flat": ["p"] * 7,
    "balanced": [["p", "p", "p"], ["p", "p", "p"], ["p", "p"]],
    "deep and uneven": ["p", [["p", ["p", "p"]], "p"], [["p"]], "p"],
    "inline pages": ["p", ("inline", 1), ["p", ("inline", 2)]],
    "an empty node": ["p", [], ["p", "p", "p"]],
}


def _same_as_pypdf(data: bytes, password: str = "") -> tuple[PageTree, pypdf.PdfReader]:
    """The descended tree of ``data``, checked page by page against pypdf's walk of the
    same reader (descended first, so the walk cannot have prepared what the descent
    reads)."""
    reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        reader.decrypt(password)
    tree = PageTree.lazy_or_none(reader, lambda problem: None)
    assert tree is not None and tree.lazy
    found = [(dict(tree[i]), tree.ref(i)) for i in range(len(tree))]
    walked = list(reader.pages)
    assert len(tree) == len(walked)
    for i, page in enumerate(walked):
        assert found[i] == (dict(page), page.indirect_reference), f"page {i + 1}"
        if page.indirect_reference is not None:
            assert tree.number_of(page.indirect_reference) == i + 1
    return tree, reader


@pytest.mark.parametrize("shape", list(SHAPES.values()), ids=list(SHAPES))
def test_descended_pages_are_the_pages_pypdfs_walk_finds(shape: list[Any]) -> None:
    tree, reader = _same_as_pypdf(_tree(shape))
    # Not a reference to a page: the tree's root, and the catalog.
    for number in (2, 1):
        assert tree.number_of(pypdf.generic.IndirectObject(number, 0, reader)) is None


@pytest.mark.parametrize("f", corpus_params(corpus_files()))
def test_descended_pages_are_pypdfs_on_the_corpus(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    logging.disable(logging.CRITICAL)
    try:
        reader = pypdf.PdfReader(f.path, strict=False)
        if reader.is_encrypted:
            reader.decrypt(f.password or "")
        if PageTree.lazy_or_none(reader, lambda problem: None) is None:
            pytest.skip("its page tree is not trusted at open (read with pypdf's walk)")
    except pypdf.errors.PyPdfError:
        pytest.skip("pypdf does not open it; the recovery tests say how it is read")
    finally:
        logging.disable(logging.NOTSET)
    _same_as_pypdf(f.path.read_bytes(), f.password or "")


def test_opening_a_long_document_reads_only_the_nodes_on_the_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pages = 400
    balanced = [["p"] * 20 for _ in range(pages // 20)]
    for shape in (["p"] * pages, balanced):
        data = _tree(shape)
        reads = ObjectReads(monkeypatch)
        doc = EngineDocument(data)
        content = doc.page(pages // 2)
        assert doc.page_count == pages and doc.recovered is None
        assert [r.text for r in content.runs] == [f"Page {pages // 2}"]
        # Each page is two objects (its dictionary, its content): reading all is 800+.
        assert len(reads.objects) < 60, len(reads.objects)
        doc.close()
        monkeypatch.undo()


def test_page_numbers_of_a_flat_tree_cost_one_reading_of_its_kids(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A bookmark or link per page of a book whose root lists every page: each page number
    # was found by reading the root's whole list of kids again (the square of the pages).
    pages = 600
    data = _tree(["p"] * pages)
    reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
    tree = PageTree.lazy_or_none(reader, lambda problem: None)
    assert tree is not None and tree.lazy
    keys = Calls(monkeypatch, page_tree, "_key")
    refs = [page.indirect_reference for page in reader.pages]
    assert [tree.number_of(ref) for ref in reversed(refs)] == list(range(pages, 0, -1))
    assert keys.count < 10 * pages, keys.count  # a reading per page: about pages**2


@pytest.mark.parametrize(
    ("shape", "counts"),
    [
        (["p", "p", "p"], {0: 5}),  # the root counts pages it does not hold
        (["p", "p", "p"], {0: 2}),  # ... or fewer than it holds
        ([["p", "p"], ["p", "p"]], {1: 1, 0: 3}),  # a node's count is wrong, the sums hold
    ],
    ids=["count too large", "count too small", "a node's count wrong"],
)
def test_counts_that_do_not_hold_are_read_by_the_whole_walk_as_before(
    shape: list[Any], counts: dict[int, int]
) -> None:
    data = _tree(shape, counts=counts)
    reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
    assert PageTree.lazy_or_none(reader, lambda problem: None) is None
    doc = EngineDocument(data)
    held = len(pypdf.PdfReader(io.BytesIO(data)).pages)
    assert doc.page_count == held
    assert [doc.page(n).runs[0].text for n in range(1, held + 1)] == [
        f"Page {n}" for n in range(1, held + 1)
    ]


def _lying_tree() -> bytes:
    """A root whose /Count (3) equals its number of kids, so its kids are taken as pages
    (pdf.js's shortcut), though the middle kid is a node of two pages: the first and last
    pages descend, and the lie shows only at page 2."""
    return _tree(["p", ["p", "p"], "p"], counts={0: 3})


def test_page_n_is_the_same_page_whichever_is_read_first() -> None:
    orders = ([1, 2, 3], [3, 2, 1], [2], [2, 1, 3])
    seen: dict[int, set[str]] = {1: set(), 2: set(), 3: set()}
    for order in orders:
        doc = EngineDocument(_lying_tree())
        assert doc.page_count == 3  # the /Count, as viewers show it
        for n in order:
            seen[n].add(" ".join(r.text for r in doc.page(n).runs))
        if 2 in order:
            assert any("walk of the whole tree, which finds 4 pages" in p for p in doc.problems)
    assert seen == {1: {"Page 1"}, 2: {"Page 2"}, 3: {"Page 4"}}


def test_a_page_the_tree_counts_but_does_not_hold_is_unread_not_empty() -> None:
    # Three kids counted as three pages; the middle one is an empty node: the whole walk
    # finds two pages, so page 3 (past them, not found by descent) does not exist.
    data = _tree(["p", [], "p"], counts={0: 3})
    doc = EngineDocument(data)
    assert doc.page_count == 3
    assert doc.page(1).runs[0].text == "Page 1"
    second = doc.page(2)  # its descent fails: the walk's second page
    assert second.runs[0].text == "Page 2"
    assert doc.page(3).runs[0].text == "Page 2"  # descended: the last kid
    doc2 = EngineDocument(_tree(["p", [], [], "p"], counts={0: 4}))
    missing = doc2.page(3)
    assert missing.incomplete and not missing.runs
    assert any("holds no page 3" in p for p in missing.problems)
    with pytest.raises(PdfthinError) as raised:
        doc2.citation_pdf(3, (0, 0, 100, 100), [])
    assert raised.value.code == "malformed"


def test_damage_met_on_the_way_to_a_page_falls_back_to_pypdfs_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Whatever pypdf raises while a page is found by descent (an inherited attribute it
    # cannot parse), the page is taken from pypdf's walk, not lost with the call.
    from pdfthin.engine import page_tree

    original = page_tree._Descent.page

    def damaged(self: Any, index: int) -> Any:
        if index == 1:
            raise ValueError("an object pypdf cannot parse")
        return original(self, index)

    monkeypatch.setattr(page_tree._Descent, "page", damaged)
    doc = EngineDocument(_tree(["p", "p", "p"]))
    assert [doc.page(n).runs[0].text for n in (1, 2, 3)] == ["Page 1", "Page 2", "Page 3"]
