"""What a reader of the rendered page would see (pdfthin/engine/content/visibility.py), through
``open_pdf(bytes).page(n)`` on whichever engine the switch selects.

Each rule is tested both ways: the hiding it catches, and the ordinary drawing it must leave
alone (a highlight, a frame, a table's shading, a coloured band, condensed type), because a
rule that hides real text loses content an agent needed.
"""

from __future__ import annotations

from typing import Any

import pytest
from counting import Calls
from pdfbuilder import PdfBuilder

from pdfthin.engine import PageContent, open_pdf
from pdfthin.engine.content.layers import MAX_GROUPS, Layers

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

TEXT = b"BT /F1 12 Tf 72 600 Td (the words) Tj ET\n"


def _page(
    content: bytes,
    *,
    states: dict[str, Any] | None = None,
    catalog: dict[str, Any] | None = None,
    extra: Any = None,
) -> PageContent:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    resources: dict[str, Any] = {"Font": {"F1": font}}
    if states:
        resources["ExtGState"] = {k: b.add({"Type": "/ExtGState", **v}) for k, v in states.items()}
    if extra is not None:
        resources.update(extra(b))
    if catalog:
        b.catalog.update(catalog)
    b.add_page(content, resources)
    return open_pdf(b.build()).page(1)


def _seen(page: PageContent) -> tuple[list[str], list[tuple[str, str]]]:
    return [r.text for r in page.runs], [(h.text, h.reason) for h in page.hidden]


def _image(**extra: Any) -> Any:
    def resources(b: PdfBuilder) -> dict[str, Any]:
        return {"XObject": {"Im1": b.image_xobject(2, 2, extra=extra)}}

    return resources


# --- painted over ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cover",
    [
        b"0 g 60 590 300 30 re f",  # a black redaction box
        b"1 g 60 590 300 30 re f",  # a white one
        b"0 0 1 rg 60 590 150 30 re 210 590 150 30 re f",  # two boxes side by side
        b"0 G 30 w 60 605 m 360 605 l S",  # a thick bar stroked over the line
        b"q 300 0 0 30 60 590 cm /Im1 Do Q",  # a picture
    ],
)
def test_text_painted_over_is_covered(cover: bytes) -> None:
    page = _page(TEXT + cover, extra=_image())
    assert _seen(page) == ([], [("the words", "covered")])


@pytest.mark.parametrize(
    ("content", "states"),
    [
        (b"0 g 60 590 300 30 re f 1 g " + TEXT, None),  # drawn first: a background
        (TEXT + b"q /Half gs 1 1 0 rg 60 590 300 30 re f Q", {"Half": {"ca": 0.4}}),  # highlight
        (TEXT + b"q /Mul gs 1 1 0 rg 60 590 300 30 re f Q", {"Mul": {"BM": "/Multiply"}}),
        (TEXT + b"1 1 0 rg 60 590 m 360 590 l 360 620 l 60 620 l h f", None),  # not a rectangle
        (TEXT + b"0 g 50 580 320 50 re 60 590 300 30 re f*", None),  # a frame: inside, a hole
        (TEXT + b"q 0 0 10 10 re W n 0 g 60 590 300 30 re f Q", None),  # clipped away
        (TEXT + b"0 g 60 590 40 30 re f", None),  # covers a corner only
        (TEXT + b"1 0 0 RG 60 590 300 30 re S", None),  # an outline around the line
        (TEXT + b"q 300 0 0 30 60 590 cm /Im2 Do Q", None),  # a picture with its own mask
    ],
)
def test_what_does_not_hide_the_text(content: bytes, states: Any) -> None:
    def extra(b: PdfBuilder) -> dict[str, Any]:
        masked = b.image_xobject(2, 2, extra={"SMask": b.image_xobject(2, 2)})
        return {"XObject": {"Im2": masked}}

    assert _seen(_page(content, states=states, extra=extra)) == (["the words"], [])


def test_text_under_a_scan_is_its_ocr_layer() -> None:
    page = _page(TEXT + b"q 612 0 0 792 0 0 cm /Im1 Do Q", extra=_image())
    assert [(r.text, r.ocr_layer) for r in page.runs] == [("the words", True)]
    assert page.hidden == []


# --- the colour beneath ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"0 0 0.5 rg 0 550 612 100 re f 1 g 50 580 500 40 re f 1 g ", "white"),
        (b"0.1 0.2 0.8 rg 0 550 612 100 re f 0.1 0.2 0.8 rg ", "low_contrast"),
        (b"0.5 g 0 550 612 100 re f 0.55 g ", "low_contrast"),
        (b"0.94 g ", "low_contrast"),
        (b"1 0 0 rg 0 550 612 100 re f 0.95 0.05 0.05 rg ", "low_contrast"),
    ],
)
def test_text_in_the_colour_beneath_it_is_hidden(content: bytes, reason: str) -> None:
    assert _seen(_page(content + TEXT)) == ([], [("the words", reason)])


@pytest.mark.parametrize(
    "content",
    [
        b"0 0 0.5 rg 0 550 612 100 re f 1 g ",  # white on a dark band
        b"1 0 0 rg 0 550 612 100 re f 0 0.5 0 rg ",  # green on red, about as light
        b"0.85 g ",  # light grey on white: faint, seen
        b"0.1 0.2 0.8 rg 0 550 612 100 re f 0 g ",  # black on blue
        b"q 612 0 0 100 0 550 cm /Im1 Do Q 1 g ",  # white on a picture: cannot tell
        b"1 1 0 rg 60 590 m 360 590 l 360 620 l 60 620 l h f 1 1 0 rg ",  # a shape's box
        b"0 0 0.5 rg 0 550 612 100 re f q /Half gs 1 g 0 550 612 100 re f Q 1 g ",  # veiled
        b"0 G 1.2 w 100 590 m 100 620 l S 0 g ",  # a line crossing a letter
    ],
)
def test_text_that_stands_out_is_read(content: bytes) -> None:
    page = _page(content + TEXT, states={"Half": {"ca": 0.5}}, extra=_image())
    assert _seen(page) == (["the words"], [])


@pytest.mark.parametrize(("alpha", "hidden"), [(0.06, True), (0.08, True), (0.3, False)])
def test_faint_text_is_judged_by_what_shows(alpha: float, hidden: bool) -> None:
    page = _page(b"/A gs " + TEXT, states={"A": {"ca": alpha}})
    assert _seen(page) == (([], [("the words", "low_contrast")]) if hidden else (["the words"], []))


# --- soft masks ---------------------------------------------------------------------------------


def _masked(group: bytes, *, kind: str, backdrop: Any) -> PageContent:
    def extra(b: PdfBuilder) -> dict[str, Any]:
        form = b.form_xobject(group, bbox=(0, 0, 612, 792), resources=_image()(b))
        mask: dict[str, Any] = {"Type": "/Mask", "S": kind, "G": form}
        if backdrop is not None:
            mask["BC"] = backdrop
        state = b.add({"Type": "/ExtGState", "SMask": mask})
        clear = b.add({"Type": "/ExtGState", "SMask": "/None"})
        return {"ExtGState": {"M": state, "Off": clear}}

    # Drawn twice: under the mask, then after /SMask /None lifts it.
    return _page(b"q /M gs " + TEXT + b"Q /M gs /Off gs " + TEXT, extra=extra)


@pytest.mark.parametrize(
    ("group", "kind", "backdrop", "hidden"),
    [
        (b"0 g 0 0 612 792 re f", "/Luminosity", None, True),  # all black: nothing through
        (b"", "/Luminosity", None, True),  # paints nothing: the black backdrop
        (b"", "/Alpha", None, True),  # no alpha anywhere
        (b"1 g 0 0 612 792 re f", "/Luminosity", None, False),  # white lets it through
        (b"", "/Luminosity", [1], False),  # a white backdrop
        (b"0 g 0 0 612 792 re f /Im1 Do", "/Luminosity", None, False),  # a picture: unknown
        (b"0 g 0 0 612 792 re f", "/Alpha", None, False),  # painted: its own alpha, unknown
    ],
)
def test_soft_masks(group: bytes, kind: str, backdrop: Any, hidden: bool) -> None:
    page = _masked(group, kind=kind, backdrop=backdrop)
    if hidden:
        assert _seen(page) == (["the words"], [("the words", "transparent")])
    else:
        assert _seen(page) == (["the words", "the words"], [])


# --- squeezed and stacked -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "squeezed"),
    [
        (b"BT /F1 12 Tf 1 Tz 72 600 Td (squeezed flat) Tj ET", True),
        (b"BT /F1 12 Tf 0.002 0 0 1 72 600 Tm (squeezed flat) Tj ET", True),
        (b"BT /F1 12 Tf -7 Tc 72 600 Td (squeezed flat) Tj ET", True),
        (b"BT /F1 12 Tf 72 600 Td [(s) 600 (q) 600 (u) 600 (e) 600 (e)] TJ ET", True),
        (b"BT /F1 12 Tf 50 Tz 72 600 Td (squeezed flat) Tj ET", False),  # condensed
        (b"BT /F1 12 Tf -1 Tc 72 600 Td (squeezed flat) Tj ET", False),  # tight
        (b"BT /F1 12 Tf 72 600 Td [(e) 556 (') ] TJ ET", False),  # an accent set over a letter
        (b"BT /F1 12 Tf 50 Tz 72 600 Td (iiil) Tj ET", False),  # narrow letters, condensed
    ],
)
def test_squeezed_and_stacked_glyphs(content: bytes, squeezed: bool) -> None:
    page = _page(content)
    if squeezed:
        assert [h.reason for h in page.hidden] == ["squeezed"] and page.runs == []
    else:
        assert page.hidden == [] and len(page.runs) == 1


@pytest.mark.parametrize(("size", "tiny"), [(1.9, True), (2.0, False)])
def test_tiny_text(size: float, tiny: bool) -> None:
    page = _page(f"BT /F1 {size} Tf 72 600 Td (small) Tj ET".encode())
    assert _seen(page) == (([], [("small", "tiny")]) if tiny else (["small"], []))


# --- optional content ------------------------------------------------------------------------


def _layered(state: dict[str, Any], props: Any, *, form_oc: bool = False) -> PageContent:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    on = b.add({"Type": "/OCG", "Name": "On"})
    off = b.add({"Type": "/OCG", "Name": "Off"})
    groups = {"on": on, "off": off}

    def pick(value: Any) -> Any:
        if isinstance(value, str) and value in groups:
            return groups[value]
        if isinstance(value, list):
            return [pick(v) for v in value]
        if isinstance(value, dict):
            return {k: pick(v) for k, v in value.items()}
        return value

    config = pick(state)
    b.catalog["OCProperties"] = {"OCGs": [on, off], "D": config}
    target = pick(props)
    if isinstance(target, dict):
        target = b.add(target)
    form = b.form_xobject(TEXT, resources={"Font": {"F1": font}})
    if form_oc:
        b.get(form).dict["OC"] = target
        content = b"/Fm1 Do"
    else:
        content = b"/OC /L BDC " + TEXT + b"EMC"
    b.add_page(
        content, {"Font": {"F1": font}, "Properties": {"L": target}, "XObject": {"Fm1": form}}
    )
    return open_pdf(b.build()).page(1)


@pytest.mark.parametrize(
    ("state", "props", "hidden"),
    [
        ({"OFF": ["off"]}, "off", True),
        ({"OFF": ["off"]}, "on", False),
        ({"BaseState": "/OFF", "ON": ["on"]}, "off", True),
        ({"BaseState": "/OFF", "ON": ["on"]}, "on", False),
        ({"OFF": ["off"]}, {"Type": "/OCMD", "OCGs": ["on", "off"]}, False),  # AnyOn
        ({"OFF": ["off"]}, {"Type": "/OCMD", "OCGs": ["on", "off"], "P": "/AllOn"}, True),
        ({"OFF": ["off"]}, {"Type": "/OCMD", "OCGs": ["off"], "P": "/AllOff"}, False),
        ({"OFF": ["off"]}, {"Type": "/OCMD", "VE": ["/Not", "on"]}, True),
        ({"OFF": ["off"]}, {"Type": "/OCMD", "VE": ["/Or", "off", ["/Not", "off"]]}, False),
        ({}, "off", False),  # nothing switched off
    ],
)
def test_optional_content(state: dict[str, Any], props: Any, hidden: bool) -> None:
    for form_oc in (False, True):
        page = _layered(state, props, form_oc=form_oc)
        expected = ([], [("the words", "layer_off")]) if hidden else (["the words"], [])
        assert _seen(page) == expected, form_oc


def test_a_hidden_layer_paints_nothing() -> None:
    # A picture in a hidden layer neither shows (no placement) nor covers the text.
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    off = b.add({"Type": "/OCG", "Name": "Off"})
    b.catalog["OCProperties"] = {"OCGs": [off], "D": {"OFF": [off]}}
    image = b.image_xobject(2, 2)
    b.get(image).dict["OC"] = off
    b.add_page(
        TEXT + b"q 300 0 0 30 60 590 cm /Im1 Do Q /OC /L BDC 0 g 60 590 300 30 re f EMC",
        {"Font": {"F1": font}, "XObject": {"Im1": image}, "Properties": {"L": off}},
    )
    page = open_pdf(b.build()).page(1)
    assert (_seen(page), page.images, page.paths) == ((["the words"], []), [], 0)


def test_a_visibility_expression_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each level lists the level below twice: 2^40 operands if walked naively.
    b = PdfBuilder()
    ocg = b.add({"Type": "/OCG", "Name": "G"})
    level: Any = ["/And", ocg, ocg]
    for _ in range(40):
        level = ["/And", b.add(level), b.add(level)]
    ocmd = b.add({"Type": "/OCMD", "VE": level})
    b.catalog["OCProperties"] = {"OCGs": [ocg], "D": {"OFF": [ocg]}}
    b.add_page(b"")
    reader_doc = open_pdf(b.build())
    catalog = reader_doc.reader.trailer["/Root"]
    layers = Layers(catalog)
    calls = Calls(monkeypatch, layers, "_group_on")
    layers.hidden(reader_doc.reader.get_object(ocmd.num))
    assert calls.count <= MAX_GROUPS


def test_read_pages_reports_each_withheld_piece_without_its_text() -> None:
    import json

    from pdfthin.operations import read_pages
    from pdfthin.operations.ocr import MAX_HIDDEN_PIECES

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    secret = b"BT /F1 12 Tf 72 600 Td (send the keys) Tj ET 0 g 60 590 300 30 re f "
    many = b"BT /F1 12 Tf 3 Tr " + b"72 100 Td (x) Tj " * (MAX_HIDDEN_PIECES + 5) + b"ET"
    b.add_page(b"BT /F1 12 Tf 72 700 Td (seen) Tj ET " + secret + many, {"Font": {"F1": font}})
    response = read_pages(b.build())
    report = response["pages"][0]["hidden_text"]
    assert report["runs"] == MAX_HIDDEN_PIECES + 6
    assert report["reasons"] == {"covered": 1, "invisible": MAX_HIDDEN_PIECES + 5}
    first = report["pieces"][0]
    assert (first["reason"], first["chars"]) == ("covered", len("send the keys"))
    x0, y0, x1, y1 = (first["bbox"][corner] for corner in ("x0", "y0", "x1", "y1"))
    assert 72 <= x0 < x1 and 180 < y0 < y1 < 200  # where it stands, top-left origin
    assert len(report["pieces"]) == MAX_HIDDEN_PIECES and report["more_pieces"] == 6
    assert "send the keys" not in json.dumps(response)
