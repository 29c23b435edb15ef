"""Page labels made from the ``/PageLabels`` number tree (``engine/page_labels.py``) without
reading the page tree: the labels the rules give on trees of every kind, the labels pypdf's
``reader.page_labels`` gives on every labelled corpus file, and the page objects left
unread."""

from __future__ import annotations

import io
import logging
from typing import Any

import pypdf
import pytest
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from object_reads import ObjectReads
from pdfbuilder import PdfBuilder

from pdfthin.engine.document import EngineDocument

#: Label trees, by what they exercise: (pages, ranges, every page's label). The labels are
#: written from the specification's rules and, where it leaves a label open, pypdf 7.1's
#: (the page's number); pypdf 7.0 answered some of those differently ("-1", "0").
TREES: dict[str, tuple[int, list[tuple[int, dict[str, Any]]], list[str]]] = {
    "every style": (
        12,
        [
            (0, {"S": "/r"}),
            (2, {"S": "/R", "St": 4}),
            (4, {"S": "/D", "P": "p. "}),
            (6, {"S": "/a", "St": 25}),
            (9, {"S": "/A", "St": 52}),
            (11, {"P": "Cover"}),
        ],
        ["i", "ii", "IV", "V", "p. 1", "p. 2", "y", "z", "aa", "ZZ", "AAA", "Cover"],
    ),
    "not starting at the first page": (5, [(2, {"S": "/D"})], ["1", "2", "1", "2", "3"]),
    "a Roman numeral past 3,999": (
        3,
        [(0, {"S": "/R", "St": 3998})],
        ["MMMCMXCVIII", "MMMCMXCIX", "3"],
    ),
    "a start below one": (3, [(0, {"S": "/D", "St": 0})], ["1", "1", "2"]),
    "an unknown style": (3, [(0, {"S": "/X"}), (2, {"S": "/D"})], ["1", "2", "1"]),
    "letters past Z": (3, [(0, {"S": "/A", "St": 27 * 26})], ["Z" * 27, "A" * 28, "B" * 28]),
    "no ranges": (2, [], ["1", "2"]),
}


def _labelled(pages: int, nums: list[tuple[int, dict[str, Any]]]) -> bytes:
    b = PdfBuilder()
    for _ in range(pages):
        b.add_page(b"")
    b.set_page_labels(nums)
    return b.build()


def _pypdfs(data: bytes, password: str = "") -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        reader.decrypt(password)
    return list(reader.page_labels)


@pytest.mark.parametrize("tree", list(TREES.values()), ids=list(TREES))
def test_labels_follow_the_rules(tree: tuple[int, list[tuple[int, Any]], list[str]]) -> None:
    pages, nums, expected = tree
    assert EngineDocument(_labelled(pages, nums)).metadata().page_labels == expected


def test_labels_of_a_tree_of_kids() -> None:
    b = PdfBuilder()
    for _ in range(6):
        b.add_page(b"")
    first = b.add({"Limits": [0, 2], "Nums": [0, {"S": "/r"}, 2, {"S": "/D"}]})
    second = b.add({"Limits": [4, 4], "Nums": [4, {"S": "/A", "P": "App-"}]})
    b.catalog["PageLabels"] = {"Kids": [first, second]}
    data = b.build()
    assert EngineDocument(data).metadata().page_labels == ["i", "ii", "1", "2", "App-A", "App-B"]


@pytest.mark.parametrize(
    "f", corpus_params([f for f in corpus_files() if f.path.suffix.lower() == ".pdf"])
)
def test_labels_on_the_corpus_are_pypdfs(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    data = f.path.read_bytes()
    if b"/PageLabels" not in data and b"/ObjStm" not in data:
        pytest.skip("no page labels")
    logging.disable(logging.CRITICAL)
    try:
        theirs = _pypdfs(data, f.password or "")
        ours = EngineDocument(data, password=f.password).metadata().page_labels
    except Exception as error:
        pytest.skip(f"not opened here ({type(error).__name__}); its own tests say how it fails")
    finally:
        logging.disable(logging.NOTSET)
    reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        reader.decrypt(f.password or "")
    if "/PageLabels" not in reader.trailer["/Root"]:
        assert ours is None
    else:
        assert ours == theirs


def test_reading_the_labels_leaves_the_pages_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = 400
    data = _labelled(pages, [(0, {"S": "/r"}), (10, {"S": "/D"})])
    reads = ObjectReads(monkeypatch)
    doc = EngineDocument(data)
    labels = doc.metadata().page_labels
    assert labels is not None and labels[9:11] == ["x", "1"] and labels[-1] == "390"
    # Each page is two objects (its dictionary, its content): reading all is 800+.
    assert len(reads.objects) < 60, len(reads.objects)
