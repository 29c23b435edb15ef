"""Walks over PDF objects are bounded by the objects they visit and a work budget, not by depth
alone (docs/design.md, invariant 13; issue 18, item 2).

Each test builds a small file whose objects, walked as a tree, are far more nodes than the file
holds (a node listing the same child many times, shared arrays, loops), and reads it with a
tripwire on pypdf's object reads: a walk that looks at an object once per path instead of once
trips it (and before the walks were bounded, each of these tripped or hung).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pdfbuilder import Outline, PdfBuilder, Ref
from pypdf.generic import IndirectObject

from pdfthin.engine import open_pdf, walk
from pdfthin.engine.images import load_image
from pdfthin.engine.objects import resolve
from pdfthin.engine.walk import Walk, depth_first
from pdfthin.operations import Context, get_info

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

#: Levels and fan-out of the shared chains below: FANOUT**LEVELS paths (262,144).
LEVELS = 6
FANOUT = 8
#: Object reads a bounded walk of these files needs, with room to spare; a walk per path
#: needs FANOUT**LEVELS.
READS = 2_000


class Tripwire(BaseException):
    """Not an ``Exception``: the engine's ``resolve`` must not swallow it."""


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts pypdf's object reads (``IndirectObject.get_object``); trips past ``READS``."""
    count = [0]
    original = IndirectObject.get_object

    def counted(self: IndirectObject) -> Any:
        count[0] += 1
        if count[0] > READS:
            raise Tripwire(f"more than {READS} object reads")
        return original(self)

    monkeypatch.setattr(IndirectObject, "get_object", counted)
    yield count


def _chain(b: PdfBuilder, link: str, leaf: dict[str, Any], **node: Any) -> Ref:
    ref = b.add(leaf)
    for _ in range(LEVELS):
        ref = b.add({**node, link: [ref] * FANOUT})
    return ref


def _page(b: PdfBuilder) -> None:
    font = b.font_standard("Helvetica")
    b.add_page(b"BT /F1 12 Tf 72 700 Td (body) Tj ET", {"Font": {"F1": font}})


def _opened(b: PdfBuilder) -> Any:
    doc = open_pdf(b.build())
    doc.page_count  # noqa: B018  (opening reads the page tree before the counting starts)
    return doc


# --- the helper ------------------------------------------------------------------------------


def test_a_walk_visits_each_reference_once_and_stops_at_its_budget() -> None:
    b = PdfBuilder()
    _page(b)
    top = _chain(b, "Kids", {"T": "leaf"}, T="node")
    doc = open_pdf(b.build())
    ref = IndirectObject(top.num, 0, doc.reader)
    w = Walk("test")
    nodes = list(depth_first(w, [ref, ref], lambda n: w.items(n, "/Kids")))
    assert len(nodes) == LEVELS + 1  # each distinct node once, the repeated root skipped
    assert w.cut is None
    assert w.spent == 2 + LEVELS * (1 + FANOUT)  # both roots, each /Kids array and its items

    small = Walk("the test tree", 10)
    assert len(list(depth_first(small, [ref], lambda n: small.items(n, "/Kids")))) < LEVELS
    assert small.cut == "the test tree: more than 10 objects to look at; the rest was not read"


def test_a_loop_of_references_resolves_to_nothing(reads: list[int]) -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    one, two = b.reserve(), b.reserve()
    b.set(one, two)
    b.set(two, one)
    content = b"BT /F1 12 Tf 72 700 Td (loop) Tj ET"
    looped = {"MediaBox": one, "CropBox": two, "Rotate": one}
    b.add_page(content, {"Font": {"F1": font}}, media_box=None, extra=looped)
    doc = open_pdf(b.build())
    for _ in range(2):  # pypdf reads such an object once, then hands back its reference
        assert resolve(IndirectObject(one.num, 0, doc.reader)) is None
        assert resolve(IndirectObject(two.num, 0, doc.reader)) is None
    page = doc.page(1)
    assert (page.width, page.height, page.rotation) == (612.0, 792.0, 0)  # the defaults
    assert [r.text for r in page.runs] == ["loop"]


# --- document facts --------------------------------------------------------------------------


def test_form_fields_listed_many_times_are_counted_once(reads: list[int]) -> None:
    b = PdfBuilder()
    _page(b)
    top = _chain(b, "Kids", {"T": "leaf", "FT": "/Tx"}, T="group")
    other = b.add({"T": "other", "FT": "/Btn"})
    b.catalog["AcroForm"] = {"Fields": [top, other, top]}
    facts = _opened(b).facts()
    assert facts.form_fields == 2  # "leaf" and "other", each once
    assert reads[0] < READS


def test_attachment_names_in_a_tree_with_repeated_kids_are_listed_once(reads: list[int]) -> None:
    b = PdfBuilder()
    _page(b)
    files = _chain(b, "Kids", {"Names": [b"a.txt", {"Type": "/Filespec"}]})
    b.catalog["Names"] = {"EmbeddedFiles": files}
    assert _opened(b).facts().attachments == ["a.txt"]


def test_annotations_are_counted_once_per_object(reads: list[int]) -> None:
    b = PdfBuilder()
    link = b.add({"Type": "/Annot", "Subtype": "/Link", "Rect": [0, 0, 1, 1]})
    note = b.add({"Type": "/Annot", "Subtype": "/Text", "Rect": [0, 0, 1, 1]})
    shared = b.add([link, note, link] * 100)
    for _ in range(50):
        b.add_page(b"", extra={"Annots": shared})
    b.add_page(b"", extra={"Annots": [link]})
    facts = _opened(b).facts()
    assert (facts.annotations, facts.links) == (2, 1)
    assert reads[0] < READS


def test_a_walk_cut_by_its_budget_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk, "MAX_WALK_STEPS", 50)
    b = PdfBuilder()
    _page(b)
    fields = [b.add({"T": f"f{i}", "FT": "/Tx"}) for i in range(100)]
    b.catalog["AcroForm"] = {"Fields": fields}
    info = get_info(b.build(), context=Context())
    assert 0 < info["forms"]["fields"] < 100
    assert info["problems"] == [
        "form fields: more than 50 objects to look at; the rest was not read"
    ]


# --- outline and named destinations ----------------------------------------------------------


def test_a_missing_named_destination_costs_one_walk_of_the_tree(reads: list[int]) -> None:
    b = PdfBuilder()
    _page(b)
    b.catalog["Names"] = {"Dests": _chain(b, "Kids", {"Names": [b"other", b.page_dest(0)]})}
    b.set_outline([Outline(f"Chapter {i}", dest="missing") for i in range(200)])
    entries, problems = _opened(b).outline()
    assert [e.page for e in entries] == [None] * 200
    assert "'Chapter 0': named destination not found" in problems
    assert reads[0] < READS


def test_named_destinations_resolve_from_a_tree_with_repeated_kids(reads: list[int]) -> None:
    b = PdfBuilder()
    _page(b)
    b.add_page(b"")
    leaf = {"Names": [b"first", b.page_dest(0), b"second", b.page_dest(1)]}
    b.catalog["Names"] = {"Dests": _chain(b, "Kids", leaf)}
    b.set_outline([Outline("One", dest="first"), Outline("Two", dest="second")])
    entries, _ = _opened(b).outline()
    assert [(e.title, e.page) for e in entries] == [("One", 1), ("Two", 2)]


def test_outline_items_sharing_their_children_are_read_once(reads: list[int]) -> None:
    b = PdfBuilder()
    _page(b)
    items = [b.reserve() for _ in range(LEVELS)]
    for i, ref in enumerate(items):
        nxt = {"Next": items[i + 1]} if i + 1 < LEVELS else {}
        b.set(ref, {"Title": f"Item {i}", "Dest": b.page_dest(0), "First": items[0], **nxt})
    b.catalog["Outlines"] = {"Type": "/Outlines", "First": items[0]}
    entries, problems = _opened(b).outline()
    assert [e.title for e in entries] == [f"Item {i}" for i in range(LEVELS)]
    assert "the outline contains a cycle; it was cut" in problems


# --- page tree, inherited attributes, labels -------------------------------------------------


def test_recovery_walks_a_shared_kids_array_once(reads: list[int]) -> None:
    b = PdfBuilder()
    _page(b)
    kids = b.reserve()
    nodes = [b.add({"Type": "/Pages", "Kids": kids}) for _ in range(50)]
    b.set(kids, [b.page_refs[0], *nodes] * 20)
    data = b.build().replace(b"/Pages 2 0 R", b"/Pages %d 0 R" % nodes[0].num, 1)
    doc = open_pdf(data)
    assert doc.page_count == 1
    assert doc.recovered is not None and doc.recovered.startswith("page tree walked")
    assert reads[0] < READS


def test_the_object_scan_reads_each_stored_object_once(reads: list[int]) -> None:
    b = PdfBuilder()
    _page(b)
    del b.catalog["Pages"]  # no page tree at all: pages are found by scanning objects
    data = b.build()
    # 3,000 more cross-reference entries, all at the page object's offset.
    page_at = b"%010d" % data.index(b"%d 0 obj" % b.page_refs[0].num)
    xref_at = data.rindex(b"\nxref\n") + 1
    size = len(b.objects) + 1
    table, trailer = data[xref_at:].split(b"trailer", 1)
    table = table.replace(b"0 %d\n" % size, b"0 %d\n" % (size + 3000), 1)
    table += (page_at + b" 00000 n \n") * 3000
    trailer = trailer.replace(b"/Size %d" % size, b"/Size %d" % (size + 3000), 1)
    doc = open_pdf(data[:xref_at] + table + b"trailer" + trailer)
    assert doc.page_count == 1
    assert doc.recovered is not None and "scanning" in doc.recovered
    assert reads[0] < READS


def test_inherited_attributes_follow_each_parent_once() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    top = b.add({"Type": "/Pages", "Resources": {"Font": {"F1": font}}, "Kids": []})
    near = b.add({"Type": "/Pages", "Parent": top, "Kids": [], "Rotate": 90})
    loop = b.reserve()
    b.set(loop, {"Type": "/Pages", "Parent": loop, "Kids": []})
    b.add_page(b"BT /F1 9 Tf 9 9 Td (near) Tj ET", None, extra={"Parent": near})
    b.add_page(b"BT /F1 9 Tf 9 9 Td (loop) Tj ET", None, extra={"Parent": loop})
    doc = open_pdf(b.build())
    first, second = doc.page(1), doc.page(2)
    assert [r.text for r in first.runs] == ["near"] and first.rotation == 90
    assert second.runs == [] and second.unmapped_glyphs == 4  # no font reached: unread


def test_page_labels_with_a_prefix_longer_than_a_label_are_not_read() -> None:
    b = PdfBuilder()
    _page(b)
    b.set_page_labels([(0, {"S": "/D", "P": "x" * 100_000})])
    info = get_info(b.build(), context=Context())
    assert "page_labels" not in info
    assert info["problems"] == [
        "page labels: a prefix is longer than 128 characters; labels were not read"
    ]


def test_page_labels_in_a_tree_with_repeated_kids(reads: list[int]) -> None:
    b = PdfBuilder()
    _page(b)
    b.add_page(b"")
    leaf = {"Limits": [0, 1], "Nums": [0, {"S": "/r"}]}
    b.catalog["PageLabels"] = {"Kids": [_chain(b, "Kids", leaf, Limits=[0, 1])]}
    assert _opened(b).metadata().page_labels == ["i", "ii"]


# --- images ----------------------------------------------------------------------------------


def test_decode_parameters_sharing_one_array_are_copied_within_a_budget() -> None:
    b = PdfBuilder()
    node: Any = b.add([1, 2, 3])
    for _ in range(LEVELS):
        node = b.add([node] * FANOUT)
    image = b.image_xobject(2, 2, extra={"DecodeParms": {"Predictor": 1, "Deep": node}})
    b.add_page(b"q 9 0 0 9 9 9 cm /Im Do Q", {"XObject": {"Im": image}})
    doc = open_pdf(b.build())
    placement = doc.page(1).images[0]
    stored = load_image(doc, placement, 1)
    assert stored.samples == b"\x80" * 4
    assert stored.decode_parms[0]["Predictor"] == 1
    assert stored.problems == [
        "the image's decode parameters: more than 10,000 objects to look at; the rest was not read"
    ]
