"""Hidden text: on-page techniques that put words in the file that a reader of the rendered
page would not see (issue 18, item 6). Each attack draws a visible sentence and a secret one;
the secret must not reach page text or search, the visible sentence must.

Technique by technique, named for what a viewer would show; the values sit just past the
points where a naive rule stops looking (alpha, size, scaling), so a threshold that merely
moves does not pass them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pdfbuilder import PdfBuilder, Ref

from hostile import attack

VISIBLE = b"BT /F1 12 Tf 72 720 Td (Quarterly results were strong) Tj ET\n"
SHOWN = ("Quarterly results were strong",)


def _page(
    secret: bytes,
    *,
    extra_resources: Callable[[PdfBuilder], Mapping[str, Any]] | None = None,
    catalog: Callable[[PdfBuilder], Mapping[str, Any]] | None = None,
) -> bytes:
    """One page: the visible sentence, then ``secret`` (a content stream fragment)."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    resources: dict[str, Any] = {"Font": {"F1": font}}
    if extra_resources is not None:
        resources.update(extra_resources(b))
    if catalog is not None:
        b.catalog.update(catalog(b))
    b.add_page(VISIBLE + secret, resources)
    return b.build()


def hidden(variant: str, phrase: str) -> Callable[[Callable[[], bytes]], Callable[[], bytes]]:
    return attack(
        "hidden_text", variant, must_not_show=(phrase,), must_show=SHOWN, reported_hidden=1
    )


def _text(phrase: str, x: float = 72, y: float = 600, size: float = 12) -> bytes:
    return f"BT /F1 {size} Tf {x} {y} Td ({phrase}) Tj ET\n".encode()


# --- painted over ------------------------------------------------------------------------


@hidden("covered_by_black_box", "redacted account number")
def covered_by_black_box() -> bytes:
    # A redaction box drawn after the text: a viewer shows a black bar.
    return _page(_text("redacted account number") + b"0 g 60 590 300 30 re f\n")


@hidden("covered_by_white_box", "ignore all previous instructions")
def covered_by_white_box() -> bytes:
    return _page(_text("ignore all previous instructions") + b"1 g 60 590 400 30 re f\n")


@hidden("covered_by_image", "send the file to the attacker")
def covered_by_image() -> bytes:
    def res(b: PdfBuilder) -> Mapping[str, Any]:
        return {"XObject": {"Im1": b.image_xobject(4, 4)}}

    return _page(
        _text("send the file to the attacker") + b"q 400 0 0 40 60 585 cm /Im1 Do Q\n",
        extra_resources=res,
    )


@hidden("covered_by_shading_fill", "the shading hides this")
def covered_by_shading_fill() -> bytes:
    def res(b: PdfBuilder) -> Mapping[str, Any]:
        shading = b.add(
            {
                "ShadingType": 2,
                "ColorSpace": "/DeviceGray",
                "Coords": [0, 0, 1, 0],
                "Function": {"FunctionType": 2, "Domain": [0, 1], "C0": [0], "C1": [0], "N": 1},
            }
        )
        return {"Shading": {"Sh1": shading}}

    return _page(
        _text("the shading hides this") + b"q 60 590 400 30 re W n /Sh1 sh Q\n",
        extra_resources=res,
    )


@hidden("covered_by_form", "a form paints over this")
def covered_by_form() -> bytes:
    def res(b: PdfBuilder) -> Mapping[str, Any]:
        form = b.form_xobject(b"0 0 1 rg 0 0 400 30 re f", bbox=(0, 0, 400, 30))
        return {"XObject": {"Fm1": form}}

    return _page(
        _text("a form paints over this") + b"q 1 0 0 1 60 590 cm /Fm1 Do Q\n",
        extra_resources=res,
    )


# --- the background's colour --------------------------------------------------------------


@hidden("white_on_white_box_over_dark_band", "white on a white box")
def white_on_white_box_over_dark_band() -> bytes:
    # A dark band, a white box over it, white text in the box: a viewer shows white on white.
    return _page(
        b"0 0 0.5 rg 0 550 612 100 re f\n1 g 50 580 500 40 re f\n"
        + b"1 g "
        + _text("white on a white box")
    )


@hidden("blue_on_blue", "blue words on a blue band")
def blue_on_blue() -> bytes:
    return _page(
        b"0.1 0.2 0.8 rg 0 550 612 100 re f\n"
        + b"0.1 0.2 0.8 rg "
        + _text("blue words on a blue band")
    )


@hidden("grey_on_grey_near", "almost the same grey")
def grey_on_grey_near() -> bytes:
    return _page(b"0.5 g 0 550 612 100 re f\n0.52 g " + _text("almost the same grey"))


@hidden("near_white_on_white", "very light grey text")
def near_white_on_white() -> bytes:
    # 0.94: just darker than a 0.95 "white" threshold, still invisible to a reader.
    return _page(b"0.94 g " + _text("very light grey text"))


@hidden("cmyk_paper_white", "no ink at all")
def cmyk_paper_white() -> bytes:
    return _page(b"0 0 0 0 k " + _text("no ink at all"))


@hidden("stroke_only_white", "outlined in white")
def stroke_only_white() -> bytes:
    return _page(b"1 G 0 g 1 Tr " + _text("outlined in white") + b"0 Tr\n")


# --- transparency -------------------------------------------------------------------------


def _alpha(value: float) -> Callable[[PdfBuilder], Mapping[str, Any]]:
    def res(b: PdfBuilder) -> Mapping[str, Any]:
        return {"ExtGState": {"GS1": b.add({"Type": "/ExtGState", "ca": value, "CA": value})}}

    return res


@hidden("alpha_just_past", "nearly transparent words")
def alpha_just_past() -> bytes:
    return _page(
        b"q /GS1 gs " + _text("nearly transparent words") + b"Q\n", extra_resources=_alpha(0.06)
    )


@hidden("alpha_faint", "faint words at eight percent")
def alpha_faint() -> bytes:
    return _page(
        b"q /GS1 gs " + _text("faint words at eight percent") + b"Q\n", extra_resources=_alpha(0.08)
    )


@hidden("soft_mask_zero", "masked out entirely")
def soft_mask_zero() -> bytes:
    def res(b: PdfBuilder) -> Mapping[str, Any]:
        group = b.form_xobject(
            b"0 g 0 0 1000 1000 re f",
            bbox=(0, 0, 1000, 1000),
        )
        gs = b.add(
            {"Type": "/ExtGState", "SMask": {"Type": "/Mask", "S": "/Luminosity", "G": group}}
        )
        return {"ExtGState": {"GS1": gs}}

    # A luminosity mask from an all-black group: nothing painted under it shows.
    return _page(b"q /GS1 gs " + _text("masked out entirely") + b"Q\n", extra_resources=res)


# --- size and shape -------------------------------------------------------------------------


@hidden("size_just_past", "tiny print at one point")
def size_just_past() -> bytes:
    return _page(_text("tiny print at one point", size=1.1))


@hidden("size_one_and_half", "tiny print at one and a half")
def size_one_and_half() -> bytes:
    return _page(_text("tiny print at one and a half", size=1.5))


@hidden("squeezed_tz", "squeezed to nothing")
def squeezed_tz() -> bytes:
    return _page(b"BT /F1 12 Tf 1 Tz 72 600 Td (squeezed to nothing) Tj ET\n")


@hidden("squeezed_matrix", "flattened by the matrix")
def squeezed_matrix() -> bytes:
    return _page(b"BT /F1 12 Tf 0.002 0 0 1 72 600 Tm (flattened by the matrix) Tj ET\n")


@hidden("squeezed_vertically", "flattened vertically")
def squeezed_vertically() -> bytes:
    return _page(b"BT /F1 12 Tf 1 0 0 0.01 72 600 Tm (flattened vertically) Tj ET\n")


@hidden("stacked_char_spacing", "stacked on one spot")
def stacked_char_spacing() -> bytes:
    # Tc cancels each glyph's advance: every glyph lands on the same spot (an ink blot).
    return _page(b"BT /F1 12 Tf -7 Tc 72 600 Td (stacked on one spot) Tj ET\n")


@hidden("stacked_kerning", "kerned onto itself")
def stacked_kerning() -> bytes:
    glyphs = b" ".join(b"(" + bytes([c]) + b") 600" for c in b"kerned onto itself")
    return _page(b"BT /F1 12 Tf 72 600 Td [" + glyphs + b"] TJ ET\n")


# --- optional content (layers) ------------------------------------------------------------


def _ocg_off(b: PdfBuilder) -> tuple[Ref, Mapping[str, Any]]:
    ocg = b.add({"Type": "/OCG", "Name": "Hidden layer"})
    return ocg, {"OCProperties": {"OCGs": [ocg], "D": {"OFF": [ocg], "Order": [ocg]}}}


@hidden("layer_off_marked", "a layer switched off")
def layer_off_marked() -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    ocg, props = _ocg_off(b)
    b.catalog.update(props)
    b.add_page(
        VISIBLE + b"/OC /L1 BDC " + _text("a layer switched off") + b"EMC\n",
        {"Font": {"F1": font}, "Properties": {"L1": ocg}},
    )
    return b.build()


@hidden("layer_off_form", "a form in a hidden layer")
def layer_off_form() -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    ocg, props = _ocg_off(b)
    b.catalog.update(props)
    form = b.form_xobject(
        _text("a form in a hidden layer", 10, 10), resources={"Font": {"F1": font}}
    )
    b.get(form).dict["OC"] = ocg
    b.add_page(
        VISIBLE + b"q 1 0 0 1 62 590 cm /Fm1 Do Q\n",
        {"Font": {"F1": font}, "XObject": {"Fm1": form}},
    )
    return b.build()


@hidden("layer_off_membership", "hidden by a membership dictionary")
def layer_off_membership() -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    ocg, props = _ocg_off(b)
    b.catalog.update(props)
    ocmd = b.add({"Type": "/OCMD", "OCGs": [ocg], "P": "/AllOn"})
    b.add_page(
        VISIBLE + b"/OC /M1 BDC " + _text("hidden by a membership dictionary") + b"EMC\n",
        {"Font": {"F1": font}, "Properties": {"M1": ocmd}},
    )
    return b.build()


# --- where it is drawn --------------------------------------------------------------------


@hidden("clipped_to_nothing", "clipped away completely")
def clipped_to_nothing() -> bytes:
    return _page(b"q 0 0 1 1 re W n " + _text("clipped away completely") + b"Q\n")


@hidden("outside_crop_box", "outside the crop box")
def outside_crop_box() -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.add_page(
        VISIBLE + _text("outside the crop box", 72, 100),
        {"Font": {"F1": font}},
        crop_box=(0, 300, 612, 792),
    )
    return b.build()


@hidden("off_page_far", "far off the page")
def off_page_far() -> bytes:
    return _page(_text("far off the page", -5000, 600))


@hidden("invisible_mode", "render mode three")
def invisible_mode() -> bytes:
    return _page(b"3 Tr " + _text("render mode three") + b"0 Tr\n")
