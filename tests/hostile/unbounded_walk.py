"""Walks over shared or cyclic PDF objects (issue 18, item 2; docs/design.md, invariant 13).

A node that lists the same child several times makes a walk bounded by depth alone
exponential: each attack below is a file of a few kilobytes whose objects, walked as a tree,
are billions of nodes. Each one aims at one walk of the engine; every walk must be bounded by
the objects it has visited and a work budget, and answer with what it read (labelled as cut)
or a typed error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pdfbuilder import Outline, PdfBuilder, Ref

from hostile import attack

#: Levels of each fan-out chain, and how many times each level lists the next: FANOUT**LEVELS
#: nodes when walked as a tree. Deeper than any depth cap a walk may have (a walk that gives
#: up below some depth, counting nothing there, would otherwise end after a full count).
LEVELS = 40
FANOUT = 8
#: A sentence each attack shows on its first page, so the harness sees the text survive.
VISIBLE = "Visible body text"


def walk(variant: str) -> Callable[[Callable[[], bytes]], Callable[[], bytes]]:
    """Register an ``unbounded_walk`` attack; the first page's text must still be read."""
    return attack("unbounded_walk", variant, must_show=(VISIBLE,))


def _builder() -> tuple[PdfBuilder, Ref]:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.add_page(b"BT /F1 12 Tf 72 700 Td (" + VISIBLE.encode() + b") Tj ET", {"Font": {"F1": font}})
    return b, font


#: Pages of the documents whose cost grows with the page count.
PAGES = 2000


def _pages(count: int) -> tuple[PdfBuilder, Ref]:
    b, font = _builder()
    for i in range(1, count):
        b.add_page(b"BT /F1 12 Tf 72 700 Td (page %d) Tj ET" % i, {"Font": {"F1": font}})
    return b, font


def _chain(b: PdfBuilder, node: Any, link: str, leaf: dict[str, Any]) -> Ref:
    """``LEVELS`` dictionaries, each listing the next ``FANOUT`` times under ``link``; the
    last is ``leaf``. ``node(level)`` gives each level's own entries."""
    ref = b.add(leaf)
    for level in range(LEVELS):
        ref = b.add({**node(level), link: [ref] * FANOUT})
    return ref


@walk("form_fields_repeated_kids")
def form_fields() -> bytes:
    b, _ = _builder()
    top = _chain(b, lambda level: {"T": f"f{level}"}, "Kids", {"T": "leaf", "FT": "/Tx"})
    b.catalog["AcroForm"] = {"Fields": [top] * FANOUT}
    return b.build()


@walk("embedded_files_repeated_kids")
def embedded_files() -> bytes:
    b, _ = _builder()
    # Leaves without names: a walk that stops only after enough names never stops.
    top = _chain(b, lambda level: {}, "Kids", {"Names": []})
    b.catalog["Names"] = {"EmbeddedFiles": top}
    return b.build()


@walk("named_destinations_repeated_kids")
def named_destinations() -> bytes:
    b, _ = _builder()
    # No /Limits: a lookup cannot skip a kid, and the name is nowhere in the tree.
    top = _chain(b, lambda level: {}, "Kids", {"Names": [b"other", b.page_dest(0)]})
    b.catalog["Names"] = {"Dests": top}
    b.set_outline([Outline("Chapter", dest="missing")])
    return b.build()


@walk("outline_named_destinations_fanout")
def outline_named_destinations() -> bytes:
    """Many bookmarks, each naming a destination the (wide, unsorted) tree does not hold:
    one lookup is cheap, one per bookmark is not."""
    b, _ = _builder()
    leaves = [b.add({"Names": [b"n%d" % i, b.page_dest(0)]}) for i in range(2000)]
    b.catalog["Names"] = {"Dests": b.add({"Kids": leaves})}
    first = b.add({"Title": "Chapter", "Dest": b"missing"})
    for i in range(19_000):
        first = b.add({"Title": f"Chapter {i}", "Dest": b"missing", "Next": first})
    b.catalog["Outlines"] = {"Type": "/Outlines", "First": first}
    return b.build()


@walk("outline_loops_and_shared_children")
def outline_loops() -> bytes:
    """/First and /Next pointing back up the outline, and every item's children the same."""
    b, _ = _builder()
    root = b.reserve()
    items = [b.reserve() for _ in range(LEVELS)]
    for i, ref in enumerate(items):
        nxt = items[i + 1] if i + 1 < len(items) else items[0]
        b.set(ref, {"Title": f"Item {i}", "Dest": b.page_dest(0), "First": items[0], "Next": nxt})
    b.set(root, {"Type": "/Outlines", "First": items[0]})
    b.catalog["Outlines"] = root
    return b.build()


@walk("page_labels_repeated_kids")
def page_labels() -> bytes:
    """A number tree whose kids all claim every page, the one that holds the labels last:
    every page's label costs a scan of every level."""
    b, _ = _pages(PAGES)
    style = b.add({"S": "/r"})
    leaf = b.add({"Limits": [0, 10**9], "Nums": [0, style] * 20_000})
    decoys = [b.add({"Limits": [10**9 + 1, 10**9 + 2], "Nums": []}) for _ in range(4)]
    node = leaf
    for _ in range(90):
        node = b.add({"Limits": [0, 10**9], "Kids": [*decoys * 100, *[node] * FANOUT]})
    b.catalog["PageLabels"] = {"Kids": [node]}
    return b.build()


@walk("page_labels_long_nums")
def page_labels_nums() -> bytes:
    """One /Nums array whose keys never pass the page index: a linear scan per page."""
    b, _ = _pages(PAGES)
    style = b.add({"S": "/D"})
    # Under pypdf's 100,000 elements per array.
    b.catalog["PageLabels"] = {"Nums": b.add([0, style] * 49_000)}
    return b.build()


@walk("page_tree_repeated_kids")
def page_tree() -> bytes:
    """Every intermediate node lists the next one many times: a tree of 8**5 leaves made of
    six objects (each leaf the same page)."""
    b, _ = _builder()
    node = b.page_refs[0]
    for _ in range(5):
        node = b.add({"Type": "/Pages", "Kids": [node] * FANOUT, "Count": 1})
    b.set(b.pages_ref, {"Type": "/Pages", "Kids": [node], "Count": 1})
    built = b.build()
    # The builder writes its own root (object 2); point the catalog at the fan-out instead.
    return built.replace(b"/Pages 2 0 R", b"/Pages %d 0 R" % node.num, 1)


@walk("page_tree_recovery_repeated_kids")
def page_tree_recovery() -> bytes:
    """A page tree only our own walk reads (its root lists itself, which pypdf refuses),
    whose nodes share one /Kids array of many entries."""
    b, _ = _builder()
    page = b.page_refs[0]
    kids = b.reserve()
    nodes = [b.add({"Type": "/Pages", "Kids": kids}) for _ in range(400)]
    b.set(kids, [page, *nodes] * 200)
    built = b.build()
    return built.replace(b"/Pages 2 0 R", b"/Pages %d 0 R" % nodes[0].num, 1)


@walk("resources_long_parent_chain")
def parent_chain() -> bytes:
    """A page whose /Resources, /MediaBox and /Rotate are inherited through thousands of
    /Parent links, some looping."""
    b, font = _builder()
    top = b.add({"Type": "/Pages", "Resources": {"Font": {"F1": font}}, "Kids": []})
    node = top
    for _ in range(5000):
        node = b.add({"Type": "/Pages", "Parent": node, "Kids": []})
    loop = b.reserve()
    b.set(loop, {"Type": "/Pages", "Parent": loop, "Kids": []})
    b.add_page(b"BT /F1 12 Tf 72 600 Td (inherited) Tj ET", None, extra={"Parent": node})
    b.add_page(b"BT /F1 12 Tf 72 600 Td (looped) Tj ET", None, extra={"Parent": loop})
    return b.build()


@walk("reference_loop")
def reference_loop() -> bytes:
    """Objects that are nothing but a reference to one another, used where a value is read."""
    b, font = _builder()
    one, two = b.reserve(), b.reserve()
    b.set(one, two)
    b.set(two, one)
    b.add_page(
        b"BT /F1 12 Tf 72 600 Td (loop) Tj ET",
        {"Font": {"F1": font}},
        media_box=None,
        extra={"MediaBox": one, "Rotate": two, "Annots": one},
    )
    b.catalog["AcroForm"] = {"Fields": one}
    b.catalog["Names"] = {"Dests": one, "EmbeddedFiles": two}
    b.set_outline([Outline("Loop", dest=one)])
    return b.build()


@walk("annotations_shared")
def annotations_shared() -> bytes:
    """Every page lists the same long /Annots array."""
    b, _ = _builder()
    link = b.add({"Type": "/Annot", "Subtype": "/Link", "Rect": [0, 0, 10, 10]})
    annots = b.add([link] * 20_000)
    for _ in range(1, 3000):
        b.add_page(None, None, extra={"Annots": annots})
    b.get(b.page_refs[0])["Annots"] = annots
    return b.build()


@walk("image_decode_parms_shared")
def decode_parms() -> bytes:
    """An image's /DecodeParms holding arrays that list one shared array many times."""
    b, _ = _builder()
    node: Any = b.add([1, 2, 3])
    for _ in range(8):
        node = b.add([node] * 64)
    image = b.image_xobject(
        2,
        2,
        extra={"DecodeParms": {"Predictor": 1, "X": node}},
        filter="/FlateDecode",
        data=__import__("zlib").compress(b"\x80" * 4),
    )
    b.add_page(b"q 100 0 0 100 72 500 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    return b.build()


@walk("structure_tree_repeated_kids")
def structure_tree() -> bytes:
    """A tagged document whose structure tree lists the same element many times per level."""
    b, _ = _builder()
    top = _chain(b, lambda level: {"S": "/Div"}, "K", {"S": "/P", "ActualText": "x"})
    b.catalog["StructTreeRoot"] = {"Type": "/StructTreeRoot", "K": [top] * FANOUT}
    b.set_mark_info(True)
    return b.build()


@walk("optional_content_repeated_groups")
def optional_content() -> bytes:
    """Optional content whose /Order nests one shared array many times per level."""
    b, _ = _builder()
    group = b.add({"Type": "/OCG", "Name": "Layer"})
    node: Any = b.add([group])
    for _ in range(LEVELS):
        node = b.add([node] * FANOUT)
    b.catalog["OCProperties"] = {"OCGs": [group], "D": {"Order": node, "OFF": [group]}}
    return b.build()
