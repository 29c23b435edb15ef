"""The content-stream interpreter, through ``open_pdf(bytes).page(n)``: positions, text state,
rotation, Form XObjects, hidden text, marked content, images and glyph counts.

Coordinates are points with the origin at the top-left corner of the displayed page, y down.
Helvetica numbers used below: ascent 0.718 em, descent taken as 0.22 em; widths A 667, B 667,
H 722, a 556, b 556, e 556, l 222, o 556, space 278.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from pdfbuilder import Hex, PdfBuilder, Ref, inline_image, serialize, simple_pdf

from pdfthin.engine import PageContent, TextRun, open_pdf
from pdfthin.engine.content import interpreter as interp
from pdfthin.engine.document import Limits
from pdfthin.errors import PdfthinError
from pdfthin.layout.lines import build_lines

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

ASC = 0.718
DESC = 0.22


def page_of(
    content: bytes | Sequence[bytes],
    resources: dict[str, Any] | None = None,
    **page: Any,
) -> PageContent:
    """Page 1 of a one-page file with Helvetica as /F1."""
    return open_pdf(simple_pdf(content, resources, **page)).page(1)  # type: ignore[arg-type]


def one_run(page: PageContent) -> TextRun:
    assert len(page.runs) == 1, page.runs
    return page.runs[0]


def bbox(run: TextRun) -> tuple[float, float, float, float]:
    return (run.x0, run.y0, run.x1, run.y1)


def approx_box(
    x0: float, y0: float, x1: float, y1: float, tol: float = 0.01
) -> Any:  # pytest's ApproxBase is not public
    return pytest.approx((x0, y0, x1, y1), abs=tol)


def horizontal_box(x: float, baseline: float, width: float, size: float) -> Any:
    """The box of horizontal Helvetica text on an unrotated 792-pt-high page."""
    y = 792 - baseline
    return approx_box(x, y - ASC * size, x + width, y + DESC * size)


# --- positioning ------------------------------------------------------------------------------


def test_td_positions_the_first_run() -> None:
    run = one_run(page_of(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"))
    assert run.text == "Hello"
    assert run.font == "Helvetica"
    assert run.size == 12
    assert (run.bold, run.italic, run.direction, run.artifact, run.ocr_layer) == (
        False,
        False,
        0,
        False,
        False,
    )
    assert bbox(run) == horizontal_box(72, 700, 2.278 * 12, 12)


def test_tm_sets_the_matrix_absolutely() -> None:
    page = page_of(b"BT /F1 10 Tf 50 50 Td 1 0 0 1 100 500 Tm (A) Tj ET")
    assert bbox(one_run(page)) == horizontal_box(100, 500, 6.67, 10)


def test_tm_scale_changes_size_and_advance() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 2 0 0 2 100 500 Tm (A) Tj ET"))
    assert run.size == 20
    assert bbox(run) == horizontal_box(100, 500, 13.34, 20)


def test_td_is_relative_to_the_line_start_not_the_pen() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td (A) Tj 10 -20 Td (B) Tj ET")
    a, b = page.runs
    assert (a.text, b.text) == ("A", "B")
    assert bbox(b) == horizontal_box(82, 680, 6.67, 10)


def test_tl_and_t_star() -> None:
    page = page_of(b"BT /F1 10 Tf 14 TL 72 700 Td (a) Tj T* (b) Tj T* (A) Tj ET")
    assert [r.text for r in page.runs] == ["a", "b", "A"]
    assert bbox(page.runs[1]) == horizontal_box(72, 686, 5.56, 10)
    assert bbox(page.runs[2]) == horizontal_box(72, 672, 6.67, 10)


def test_capital_td_sets_the_leading() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td (a) Tj 0 -12 TD (b) Tj T* (A) Tj ET")
    assert bbox(page.runs[1]) == horizontal_box(72, 688, 5.56, 10)
    assert bbox(page.runs[2]) == horizontal_box(72, 676, 6.67, 10)


def test_quote_moves_to_the_next_line_and_shows() -> None:
    page = page_of(b"BT /F1 10 Tf 14 TL 72 700 Td (a) Tj (b) ' ET")
    assert bbox(page.runs[1]) == horizontal_box(72, 686, 5.56, 10)


def test_double_quote_sets_word_and_character_spacing() -> None:
    page = page_of(b'BT /F1 10 Tf 14 TL 72 700 Td (A) Tj 5 1 (a b) " ET')
    run = page.runs[1]
    assert run.text == "a b"
    # (556 + 278 + 556) / 1000 * 10 + 3 glyphs * 1 (Tc) + 1 space * 5 (Tw)
    assert bbox(run) == horizontal_box(72, 686, 13.9 + 3 + 5, 10)


def test_bt_resets_the_text_matrix() -> None:
    page = page_of(b"BT /F1 10 Tf 300 300 Td (A) Tj ET BT 50 60 Td (B) Tj ET")
    assert bbox(page.runs[1]) == horizontal_box(50, 60, 6.67, 10)


def test_consecutive_tj_continue_at_the_pen() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td (A) Tj (B) Tj ET")
    a, b = page.runs
    assert b.x0 == pytest.approx(a.x1)
    assert bbox(b) == horizontal_box(78.67, 700, 6.67, 10)


# --- text state -------------------------------------------------------------------------------


def test_character_spacing() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 2 Tc 72 700 Td (AB) Tj ET"))
    assert run.x1 - run.x0 == pytest.approx(13.34 + 4)


def test_word_spacing_applies_to_spaces_only() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 10 Tw 72 700 Td (a b) Tj ET"))
    assert run.x1 - run.x0 == pytest.approx(13.9 + 10)


def test_horizontal_scaling() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 50 Tz 72 700 Td (AB) Tj ET"))
    assert run.x1 - run.x0 == pytest.approx(13.34 / 2)
    assert run.size == 10


def test_horizontal_scaling_scales_spacing_too() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 50 Tz 2 Tc 72 700 Td (AB) Tj ET"))
    assert run.x1 - run.x0 == pytest.approx((13.34 + 4) / 2)


def test_text_rise_lifts_the_box() -> None:
    plain = one_run(page_of(b"BT /F1 10 Tf 72 700 Td (A) Tj ET"))
    raised = one_run(page_of(b"BT /F1 10 Tf 5 Ts 72 700 Td (A) Tj ET"))
    assert raised.y0 == pytest.approx(plain.y0 - 5)
    assert raised.y1 == pytest.approx(plain.y1 - 5)
    assert raised.x0 == pytest.approx(plain.x0)


def test_text_state_survives_bt_et() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 2 Tc ET BT 72 700 Td (AB) Tj ET"))
    assert run.x1 - run.x0 == pytest.approx(13.34 + 4)


# --- TJ ---------------------------------------------------------------------------------------


def test_tj_small_kerning_is_no_space() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 72 700 Td [(A) -100 (B)] TJ ET"))
    assert run.text == "AB"
    assert run.x1 - run.x0 == pytest.approx(6.67 + 1 + 6.67)


def test_tj_positive_kerning_tightens() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 72 700 Td [(A) 120 (B)] TJ ET"))
    assert run.text == "AB"
    assert run.x1 - run.x0 == pytest.approx(13.34 - 1.2)


def test_tj_gap_wider_than_015_em_is_a_space() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 72 700 Td [(A) -200 (B)] TJ ET"))
    assert run.text == "A B"
    assert run.x1 - run.x0 == pytest.approx(6.67 + 2 + 6.67)


def test_tj_gap_at_the_threshold_is_not_a_space() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 72 700 Td [(A) -150 (B)] TJ ET"))
    assert run.text == "AB"


def test_tj_no_double_space() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 72 700 Td [(A ) -300 (B)] TJ ET"))
    assert run.text == "A B"


def test_tj_very_large_gap_splits_runs() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td [(A) -3000 (B)] TJ ET")
    assert [r.text for r in page.runs] == ["A", "B"]
    a, b = page.runs
    assert bbox(a) == horizontal_box(72, 700, 6.67, 10)
    assert bbox(b) == horizontal_box(72 + 6.67 + 30, 700, 6.67, 10)


def test_tj_advances_the_pen() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td [(A) -1000] TJ (B) Tj ET")
    assert page.runs[-1].x0 == pytest.approx(72 + 6.67 + 10)


def test_wide_character_spacing_taken_back_by_kerns_shows_where_it_is_not() -> None:
    # The PDF specification sets "1 Scope" as 1.8 Tc [(1S)1806(c)1805(o)1805(p)1800(e)] (at
    # 1 pt, scaled by the text matrix): the spacing taken back after every glyph but the
    # "1". The gap after it shows (a cut the engine joins back with a space); the rest is
    # one word; the pen ends where the spacing puts it, the run at its last glyph.
    page = page_of(b"BT /F1 10 Tf 18 Tc 72 700 Td [(1S)1800(c)1800(o)1800(p)1800(e)] TJ (x) Tj ET")
    assert [r.text for r in page.runs] == ["1 Scope", "x"]
    scope, x = page.runs
    widths = 5.56 + 6.67 + 5.0 + 5.56 + 5.56 + 5.56
    assert x.x0 == pytest.approx(72 + widths + 18 + 18, abs=0.01)
    assert scope.x1 == pytest.approx(x.x0 - 18, abs=0.01)


def test_a_figure_spaced_by_tc_ending_at_its_cells_clip_is_shown() -> None:
    # nics-background-checks: each cell clipped to its box, the row's last figure set as
    # 3.9 Tc [(01)3916(1)3916(,)...]: its last glyph's spacing, past the clip, is no part
    # of the run, which stays inside and is read.
    clip = b"900 690 m 990 690 l 990 715 l 900 715 l h W n "
    show = b"BT /F1 10 Tf 39 Tc 910 700 Td [(01)3900(1)3900(,)3900(9)3900(2)3900(5)] TJ ET"
    page = page_of(b"q " + clip + show + b" Q", media_box=[0, 0, 1008, 792])
    assert [r.text for r in page.runs] == ["0", "11,925"]
    assert page.hidden == []


def test_wide_character_spacing_taken_back_nowhere_is_letter_spacing() -> None:
    # A title letter-spaced by Tc, nothing taken back: one word; a small kern that does not
    # take half of the spacing back changes nothing.
    for array in (b"[(SPACED)]", b"[(SPA)-20(CED)]"):
        run = one_run(page_of(b"BT /F1 10 Tf 3 Tc 72 700 Td " + array + b" TJ ET"))
        assert run.text == "SPACED"


def test_an_ellipsis_spaced_by_tc_keeps_a_word_after_it_whole() -> None:
    # freeculture.pdf: 0.25 em of Tc taken back after "a" and "c": ". . . a co", and the
    # last glyph's spacing is an advance, not a space before what follows ("mplete").
    page = page_of(b"BT /F1 10 Tf 2.5 Tc 72 700 Td [(...a)250( c)250(o)] TJ ET")
    assert one_run(page).text == ". . . a co"


def test_operator_inside_tj_array_keeps_the_text() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td [(a) 0 Tc (b)] TJ ET")
    assert one_run(page).text == "ab"


# --- spaces shown as strings of their own ----------------------------------------------------

# "any" in Helvetica at 10 pt ends 16.12 pt after it starts (a 556, n 556, y 500); "liability"
# starts 0.9 pt later: a gap of 0.09 em, narrower than any word space lines infer from gaps.
_ANY = b"BT /F1 10 Tf 72 700 Td (any) Tj "
_LIABILITY = b"ET BT /F1 10 Tf 89 700 Td (liability) Tj ET"


def test_a_blank_string_shown_where_a_run_ends_is_its_word_space() -> None:
    page = page_of(_ANY + b"( ) Tj " + _LIABILITY)
    assert [(r.text, r.space_after) for r in page.runs] == [("any", True), ("liability", False)]
    assert [line.text for line in build_lines(page.runs)] == ["any liability"]


def test_without_the_blank_string_a_narrow_gap_is_no_space() -> None:
    page = page_of(_ANY + _LIABILITY)
    assert [r.space_after for r in page.runs] == [False, False]
    assert [line.text for line in build_lines(page.runs)] == ["anyliability"]


@pytest.mark.parametrize(
    "blank",
    [
        b"ET BT /F1 10 Tf 300 700 Td ( ) Tj ",  # elsewhere on the line
        b"0 -12 Td ( ) Tj ",  # at the start of the next line
        b"[( )] TJ ( ) Tj ",  # a second blank after the first: no second mark needed
    ],
)
def test_a_blank_string_shown_elsewhere_marks_nothing(blank: bytes) -> None:
    page = page_of(_ANY + blank + _LIABILITY)
    marked = [r.text for r in page.runs if r.space_after]
    assert marked == (["any"] if blank.startswith(b"[") else [])


@pytest.mark.parametrize(
    ("shown", "texts", "marked"),
    [
        # A glyph that stands for a space (/ActualText) is a blank string shown.
        (b"/Span << /ActualText ( ) >> BDC (-) Tj EMC ", ["any", "liability"], ["any"]),
        # A blank that stands for a letter is that letter.
        (b"/Span << /ActualText (x) >> BDC ( ) Tj EMC ", ["any", "x", "liability"], []),
    ],
)
def test_a_blank_string_is_what_actual_text_says(
    shown: bytes, texts: list[str], marked: list[str]
) -> None:
    page = page_of(_ANY + shown + _LIABILITY)
    assert [r.text for r in page.runs] == texts
    assert [r.text for r in page.runs if r.space_after] == marked


# --- graphics state ---------------------------------------------------------------------------


def test_cm_translates_and_q_restores() -> None:
    page = page_of(
        b"q 1 0 0 1 100 100 cm BT /F1 10 Tf 0 0 Td (A) Tj ET Q BT /F1 10 Tf 0 0 Td (B) Tj ET"
    )
    a, b = page.runs
    assert bbox(a) == horizontal_box(100, 100, 6.67, 10)
    assert bbox(b) == horizontal_box(0, 0, 6.67, 10)


def test_cm_scale_enlarges_text() -> None:
    run = one_run(page_of(b"2 0 0 2 0 0 cm BT /F1 10 Tf 36 350 Td (A) Tj ET"))
    assert run.size == 20
    assert bbox(run) == horizontal_box(72, 700, 13.34, 20)


def test_cm_concatenates() -> None:
    page = page_of(b"1 0 0 1 10 0 cm 1 0 0 1 0 20 cm BT /F1 10 Tf 0 0 Td (A) Tj ET")
    assert bbox(one_run(page)) == horizontal_box(10, 20, 6.67, 10)


def test_q_saves_the_font_and_text_state() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td q /F1 30 Tf 5 Tc Q (AB) Tj ET")
    run = one_run(page)
    assert run.size == 10
    assert run.x1 - run.x0 == pytest.approx(13.34)


def test_unbalanced_q_is_harmless() -> None:
    page = page_of(b"Q Q q q BT /F1 10 Tf 72 700 Td (A) Tj ET")
    assert one_run(page).text == "A"


def test_rotated_text_direction() -> None:
    # Turned a quarter counter-clockwise: it reads bottom to top, three quarters clockwise.
    run = one_run(page_of(b"BT /F1 10 Tf 0 1 -1 0 300 300 Tm (A) Tj ET"))
    assert run.direction == 5


def test_slanted_text_direction() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 0.7 0.7 -0.7 0.7 300 300 Tm (A) Tj ET"))
    assert run.direction == 2


@pytest.mark.parametrize("shear", [0.21, -0.21, 0.5])
def test_sheared_upright_text_is_upright(shear: float) -> None:
    """A synthetic italic (a text matrix sheared 12 or 27 degrees, either way) still runs
    along its line: upright, so it stays in its sentence."""
    run = one_run(page_of(b"BT /F1 10 Tf 1 0 %g 1 300 300 Tm (A) Tj ET" % shear))
    assert run.direction == 0


def test_glyphs_leaning_past_the_slant_allowance_are_slanted() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf 1 0 %g 1 300 300 Tm (A) Tj ET" % (interp.MAX_SLANT * 1.2)))
    assert run.direction == 2


def test_mirrored_text_direction() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf -1 0 0 1 300 300 Tm (A) Tj ET"))
    assert run.direction == 2


# --- page rotation and crop box ---------------------------------------------------------------


def test_rotate_90_geometry() -> None:
    page = page_of(b"BT /F1 10 Tf 0 1 -1 0 300 100 Tm (AB) Tj ET", rotate=90)
    assert (page.width, page.height, page.rotation) == (792, 612, 90)
    run = one_run(page)
    # User (300, 100) is displayed at (100, 300); the text reads left to right there.
    assert run.direction == 0
    assert bbox(run) == approx_box(100, 300 - ASC * 10, 113.34, 300 + DESC * 10)


def test_rotate_90_unrotated_text_runs_down_the_page() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td (AB) Tj ET", rotate=90)
    run = one_run(page)
    assert run.direction == 3  # turned a quarter clockwise with the page
    assert bbox(run) == approx_box(700 - DESC * 10, 72, 700 + ASC * 10, 85.34)


def test_rotate_180_geometry() -> None:
    page = page_of(b"BT /F1 10 Tf -1 0 0 -1 500 100 Tm (AB) Tj ET", rotate=180)
    assert (page.width, page.height, page.rotation) == (612, 792, 180)
    run = one_run(page)
    assert run.direction == 0
    # User (500, 100) is displayed at (612 - 500, 100).
    assert bbox(run) == approx_box(112, 100 - ASC * 10, 125.34, 100 + DESC * 10)


def test_rotate_270_geometry() -> None:
    page = page_of(b"BT /F1 10 Tf 0 -1 1 0 300 500 Tm (AB) Tj ET", rotate=270)
    assert (page.width, page.height, page.rotation) == (792, 612, 270)
    run = one_run(page)
    assert run.direction == 0
    # User (300, 500) is displayed at (792 - 500, 612 - 300).
    assert bbox(run) == approx_box(292, 312 - ASC * 10, 305.34, 312 + DESC * 10)


@pytest.mark.parametrize(("rotate", "expected"), [(-90, 270), (450, 90), (360, 0), (45, 0)])
def test_rotation_is_normalised(rotate: int, expected: int) -> None:
    assert page_of(b"", rotate=rotate).rotation == expected


def test_crop_box_offsets_the_origin() -> None:
    page = page_of(b"BT /F1 10 Tf 150 450 Td (A) Tj ET", crop_box=(100, 100, 400, 500))
    assert (page.width, page.height) == (300, 400)
    assert bbox(one_run(page)) == approx_box(50, 50 - ASC * 10, 56.67, 50 + DESC * 10)


def test_text_outside_the_crop_box_is_off_page() -> None:
    page = page_of(b"BT /F1 10 Tf 50 50 Td (A) Tj ET", crop_box=(100, 100, 400, 500))
    assert page.runs == []
    assert [(h.text, h.reason) for h in page.hidden] == [("A", "off_page")]


def test_media_box_with_offset_origin() -> None:
    page = page_of(b"BT /F1 10 Tf 0 0 Td (A) Tj ET", media_box=(-200, -100, 200, 100))
    assert (page.width, page.height) == (400, 200)
    assert bbox(one_run(page)) == approx_box(200, 100 - ASC * 10, 206.67, 100 + DESC * 10)


def test_crop_box_with_rotation() -> None:
    page = page_of(
        b"BT /F1 10 Tf 0 1 -1 0 150 200 Tm (A) Tj ET", crop_box=(100, 100, 400, 500), rotate=90
    )
    assert (page.width, page.height) == (400, 300)
    assert bbox(one_run(page)) == approx_box(100, 50 - ASC * 10, 106.67, 50 + DESC * 10)


def test_inherited_media_box_and_rotation() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.pages_extra.update({"MediaBox": [0, 0, 300, 400], "Rotate": 90})
    b.add_page(b"BT /F1 10 Tf 10 20 Td (A) Tj ET", {"Font": {"F1": font}}, media_box=None)
    page = open_pdf(b.build()).page(1)
    assert (page.width, page.height, page.rotation) == (400, 300, 90)


def test_inherited_resources() -> None:
    b = PdfBuilder()
    b.pages_extra["Resources"] = {"Font": {"F1": b.font_standard("Courier")}}
    b.add_page(b"BT /F1 10 Tf 72 700 Td (A) Tj ET")
    run = one_run(open_pdf(b.build()).page(1))
    assert run.font == "Courier"
    assert run.x1 - run.x0 == pytest.approx(6.0)


# --- several content streams ------------------------------------------------------------------


def test_content_array_is_read_in_order() -> None:
    page = page_of([b"BT /F1 10 Tf 72 700 Td (A) Tj", b"(B) Tj", b"ET"])
    assert [r.text for r in page.runs] == ["A", "B"]


def test_content_streams_are_joined_with_whitespace() -> None:
    # "Tj" at the end of one stream and "ET" at the start of the next are separate tokens.
    page = page_of([b"BT /F1 10 Tf 72 700 Td (A) Tj", b"ET BT /F1 10 Tf 72 600 Td (B) Tj ET"])
    assert [r.text for r in page.runs] == ["A", "B"]


@pytest.mark.parametrize("missing", [1, 3])
def test_missing_content_streams_are_one_problem_with_their_count(missing: int) -> None:
    # A truncated file's page lists streams that are not there: the ones that are still
    # read, and the problem said once (a damaged file may list thousands), with the count.
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.add_page(b"BT /F1 10 Tf 72 700 Td (Kept) Tj ET", {"Font": {"F1": font}})
    page_dict = b.get(b.page_refs[0])
    page_dict["Contents"] = [page_dict["Contents"]] + [Ref(900 + i) for i in range(missing)]
    page = open_pdf(b.build()).page(1)
    assert [r.text for r in page.runs] == ["Kept"]
    said = [p for p in page.problems if "content stream" in p]
    expected = "a content stream is missing or is not a stream"
    if missing > 1:
        expected = (
            f"{missing} of the page's {missing + 1} content streams are missing or are not streams"
        )
    assert said == [expected]


def test_compressed_content_stream() -> None:
    b = PdfBuilder(compress=True)
    font = b.font_standard("Helvetica")
    b.add_page(b"BT /F1 10 Tf 72 700 Td (Flate) Tj ET", {"Font": {"F1": font}})
    data = b.build()
    assert b"(Flate)" not in data
    assert one_run(open_pdf(data).page(1)).text == "Flate"


def test_page_without_contents() -> None:
    page = page_of(None)  # type: ignore[arg-type]
    assert (page.runs, page.glyphs, page.problems, page.incomplete) == ([], 0, [], False)


# --- Form XObjects ----------------------------------------------------------------------------


def form_page(
    build: Any, content: bytes = b"/Fm1 Do", **page: Any
) -> tuple[PageContent, PdfBuilder]:
    """``build(builder, font)`` returns the page's /XObject dict."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    xobjects = build(b, font)
    b.add_page(content, {"Font": {"F1": font}, "XObject": xobjects}, **page)
    return open_pdf(b.build()).page(1), b


def test_form_matrix_is_applied() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        form = b.form_xobject(
            b"BT /F1 10 Tf 0 0 Td (F) Tj ET",
            matrix=[1, 0, 0, 1, 100, 200],
            resources={"Font": {"F1": font}},
        )
        return {"Fm1": form}

    page, _ = form_page(build)
    run = one_run(page)
    assert run.text == "F"
    assert bbox(run) == horizontal_box(100, 200, 6.11, 10)


def test_form_matrix_combines_with_the_ctm() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        form = b.form_xobject(
            b"BT /F1 10 Tf 0 0 Td (A) Tj ET",
            matrix=[2, 0, 0, 2, 10, 10],
            resources={"Font": {"F1": font}},
        )
        return {"Fm1": form}

    page, _ = form_page(build, b"1 0 0 1 50 60 cm /Fm1 Do")
    run = one_run(page)
    assert run.size == 20
    assert bbox(run) == horizontal_box(60, 70, 13.34, 20)


def test_form_without_resources_uses_the_page_resources() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        return {"Fm1": b.form_xobject(b"BT /F1 10 Tf 72 700 Td (A) Tj ET")}

    page, _ = form_page(build)
    assert one_run(page).text == "A"


def test_form_own_resources_shadow_the_page() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        courier = b.font_standard("Courier")
        form = b.form_xobject(
            b"BT /F1 10 Tf 72 700 Td (A) Tj ET", resources={"Font": {"F1": courier}}
        )
        return {"Fm1": form}

    page, _ = form_page(build, b"/Fm1 Do BT /F1 10 Tf 72 600 Td (B) Tj ET")
    assert [(r.text, r.font) for r in page.runs] == [("A", "Courier"), ("B", "Helvetica")]


def test_nested_forms() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        inner = b.form_xobject(
            b"BT /F1 10 Tf 0 0 Td (I) Tj ET",
            matrix=[1, 0, 0, 1, 5, 7],
            resources={"Font": {"F1": font}},
        )
        outer = b.form_xobject(
            b"/Inner Do", matrix=[1, 0, 0, 1, 100, 200], resources={"XObject": {"Inner": inner}}
        )
        return {"Fm1": outer}

    page, _ = form_page(build)
    assert bbox(one_run(page)) == horizontal_box(105, 207, 2.78, 10)


def test_form_state_does_not_leak() -> None:
    # The form leaves a q and a cm open and changes the text state; after Do the page
    # continues as before.
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        form = b.form_xobject(
            b"q 3 0 0 3 0 0 cm BT /F1 30 Tf 9 Tc 0 0 Td (x) Tj ET", resources={"Font": {"F1": font}}
        )
        return {"Fm1": form}

    page, _ = form_page(build, b"BT /F1 10 Tf 72 700 Td /Fm1 Do (AB) Tj ET")
    last = page.runs[-1]
    assert last.text == "AB"
    assert last.size == 10
    assert bbox(last) == horizontal_box(72, 700, 13.34, 10)


def test_form_bbox_clips() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        form = b.form_xobject(
            b"BT /F1 10 Tf 10 10 Td (in) Tj 500 0 Td (out) Tj ET",
            bbox=[0, 0, 100, 100],
            resources={"Font": {"F1": font}},
        )
        return {"Fm1": form}

    page, _ = form_page(build)
    assert [r.text for r in page.runs] == ["in"]
    assert [(h.text, h.reason) for h in page.hidden] == [("out", "clipped")]


def test_form_drawing_itself_is_reported_not_fatal() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        ref = b.reserve()
        b.form_xobject(
            b"BT /F1 10 Tf 72 700 Td (S) Tj ET /Self Do",
            resources={"Font": {"F1": font}, "XObject": {"Self": ref}},
            ref=ref,
        )
        return {"Fm1": ref}

    page, _ = form_page(build)
    assert [r.text for r in page.runs] == ["S"]
    assert any("cycle" in p for p in page.problems)
    assert page.incomplete is False


def test_mutually_recursive_forms() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        a, c = b.reserve(), b.reserve()
        b.form_xobject(
            b"BT /F1 10 Tf 72 700 Td (a) Tj ET /C Do",
            resources={"Font": {"F1": font}, "XObject": {"C": c}},
            ref=a,
        )
        b.form_xobject(
            b"BT /F1 10 Tf 72 600 Td (c) Tj ET /A Do",
            resources={"Font": {"F1": font}, "XObject": {"A": a}},
            ref=c,
        )
        return {"Fm1": a}

    page, _ = form_page(build)
    assert [r.text for r in page.runs] == ["a", "c"]
    assert any("cycle" in p for p in page.problems)


def test_form_nesting_depth_is_limited() -> None:
    depth = interp.MAX_FORM_DEPTH + 4

    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        refs = [b.reserve() for _ in range(depth)]
        for level, ref in enumerate(refs):
            text = b"BT /F1 10 Tf 72 %d Td (L%d) Tj ET" % (700 - 10 * level, level)
            if level + 1 < depth:
                content = text + b" /Next Do"
                resources = {"Font": {"F1": font}, "XObject": {"Next": refs[level + 1]}}
            else:
                content, resources = text, {"Font": {"F1": font}}
            b.form_xobject(content, resources=resources, ref=ref)
        return {"Fm1": refs[0]}

    page, _ = form_page(build)
    assert [r.text for r in page.runs] == [f"L{i}" for i in range(interp.MAX_FORM_DEPTH)]
    assert any(f"deeper than {interp.MAX_FORM_DEPTH}" in p for p in page.problems)


def test_form_invocations_are_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interp, "MAX_FORM_INVOCATIONS", 5)

    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        return {"Fm1": b.form_xobject(b"0 0 m 1 1 l S")}

    page, _ = form_page(build, b"/Fm1 Do " * 10)
    assert page.incomplete is True
    assert any("Form XObjects" in p for p in page.problems)


def test_missing_or_wrong_xobject_is_ignored() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        return {"NotAStream": b.add({"Subtype": "/Form"}), "Broken": Ref(999)}

    page, _ = form_page(build, b"/Nope Do /NotAStream Do /Broken Do BT /F1 9 Tf 9 9 Td (k) Tj ET")
    assert [r.text for r in page.runs] == ["k"]
    assert page.incomplete is False


# --- hidden text ------------------------------------------------------------------------------


def test_invisible_text_without_an_image_is_hidden() -> None:
    page = page_of(b"BT /F1 10 Tf 3 Tr 72 700 Td (secret) Tj ET")
    assert page.runs == []
    assert len(page.hidden) == 1
    hidden = page.hidden[0]
    assert (hidden.text, hidden.reason) == ("secret", "invisible")
    assert hidden.bbox == horizontal_box(72, 700, 27.23, 10)  # s e c r e t: 2723/1000 em


def test_render_mode_7_is_invisible_too() -> None:
    page = page_of(b"BT /F1 10 Tf 7 Tr 72 700 Td (clip) Tj ET")
    assert [(h.text, h.reason) for h in page.hidden] == [("clip", "invisible")]


def test_visible_render_modes_are_kept() -> None:
    page = page_of(b"BT /F1 10 Tf 1 Tr 72 700 Td (a) Tj 2 Tr (b) Tj 0 Tr (c) Tj ET")
    assert [r.text for r in page.runs] == ["a", "b", "c"]
    assert [r.bold for r in page.runs] == [False, True, False]  # fill + stroke reads bold


def test_invisible_text_over_an_image_is_an_ocr_layer() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(4, 4)
    b.add_page(
        b"q 612 0 0 792 0 0 cm /Im1 Do Q BT /F1 10 Tf 3 Tr 72 700 Td (scanned) Tj ET",
        {"Font": {"F1": font}, "XObject": {"Im1": image}},
    )
    page = open_pdf(b.build()).page(1)
    run = one_run(page)
    assert (run.text, run.ocr_layer) == ("scanned", True)
    assert page.hidden == []


def test_invisible_text_beside_an_image_is_hidden() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(4, 4)
    b.add_page(
        b"q 100 0 0 100 400 50 cm /Im1 Do Q BT /F1 10 Tf 3 Tr 72 700 Td (aside) Tj ET",
        {"Font": {"F1": font}, "XObject": {"Im1": image}},
    )
    page = open_pdf(b.build()).page(1)
    assert page.runs == []
    assert [(h.text, h.reason) for h in page.hidden] == [("aside", "invisible")]


def test_invisible_text_before_the_image_is_still_an_ocr_layer() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(4, 4)
    b.add_page(
        b"BT /F1 10 Tf 3 Tr 72 700 Td (first) Tj ET q 612 0 0 792 0 0 cm /Im1 Do Q",
        {"Font": {"F1": font}, "XObject": {"Im1": image}},
    )
    run = one_run(open_pdf(b.build()).page(1))
    assert (run.text, run.ocr_layer) == ("first", True)


def test_off_page_text_is_hidden() -> None:
    page = page_of(b"BT /F1 10 Tf -500 -500 Td (gone) Tj 0 2000 Td (up) Tj ET")
    assert page.runs == []
    assert [(h.text, h.reason) for h in page.hidden] == [("gone", "off_page"), ("up", "off_page")]


def test_clipped_text_is_hidden() -> None:
    page = page_of(
        b"q 0 0 100 100 re W n BT /F1 10 Tf 20 20 Td (in) Tj 300 300 Td (out) Tj ET Q "
        b"BT /F1 10 Tf 300 300 Td (free) Tj ET"
    )
    assert [r.text for r in page.runs] == ["in", "free"]
    assert [(h.text, h.reason) for h in page.hidden] == [("out", "clipped")]


def test_clip_takes_effect_at_the_painting_operator() -> None:
    page = page_of(b"0 0 10 10 re W BT /F1 10 Tf 300 300 Td (before) Tj ET n")
    assert [r.text for r in page.runs] == ["before"]


def test_nested_clips_intersect() -> None:
    page = page_of(
        b"0 0 300 300 re W n 200 0 300 800 re W n BT /F1 10 Tf "
        b"100 100 Td (left) Tj 150 0 Td (mid) Tj 0 300 Td (top) Tj ET"
    )
    assert [r.text for r in page.runs] == ["mid"]
    assert sorted(h.text for h in page.hidden) == ["left", "top"]


def test_tiny_text_is_hidden() -> None:
    page = page_of(b"BT /F1 1.9 Tf 72 700 Td (fine print) Tj /F1 2 Tf (ok) Tj ET")
    assert [r.text for r in page.runs] == ["ok"]
    assert [(h.text, h.reason) for h in page.hidden] == [("fine print", "tiny")]


def test_tiny_by_scaling() -> None:
    page = page_of(b"0.05 0 0 0.05 0 0 cm BT /F1 10 Tf 1000 1000 Td (small) Tj ET")
    assert [(h.text, h.reason) for h in page.hidden] == [("small", "tiny")]


def test_hidden_glyphs_still_count() -> None:
    page = page_of(b"BT /F1 10 Tf 3 Tr 72 700 Td (abc) Tj ET")
    assert (page.glyphs, page.unmapped_glyphs) == (3, 0)


# --- marked content ---------------------------------------------------------------------------


def test_actual_text_replaces_the_glyphs_once() -> None:
    page = page_of(
        b"BT /F1 10 Tf 72 700 Td /Span <</ActualText (Hello)>> BDC (H) Tj (e11o) Tj EMC (!) Tj ET"
    )
    assert [r.text for r in page.runs] == ["Hello", "!"]


def test_actual_text_utf16() -> None:
    page = page_of(
        b"BT /F1 10 Tf 72 700 Td /Span <</ActualText <FEFF00660069>>> BDC (\xae) Tj EMC ET"
    )
    assert one_run(page).text == "fi"


def test_actual_text_covers_unmapped_glyphs() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica", differences=[1, "/g1", "/g2"])
    b.add_page(
        b"BT /F1 10 Tf 72 700 Td /Span <</ActualText (ok)>> BDC <0102> Tj EMC ET",
        {"Font": {"F1": font}},
    )
    page = open_pdf(b.build()).page(1)
    assert one_run(page).text == "ok"
    assert page.glyphs == 2
    assert page.unmapped_boxes == []  # read from /ActualText: not unreadable


def test_actual_text_from_properties_resource() -> None:
    props = {"MC0": {"ActualText": "Replaced"}}
    page = page_of(b"BT /F1 10 Tf 72 700 Td /Span /MC0 BDC (xyz) Tj EMC ET", {"Properties": props})
    assert one_run(page).text == "Replaced"


def test_nested_marked_content_without_actual_text() -> None:
    page = page_of(
        b"BT /F1 10 Tf 72 700 Td /P <</MCID 0>> BDC /Span <</Lang (en)>> BDC (a) Tj EMC EMC ET"
    )
    assert one_run(page).text == "a"


def test_artifact_bmc() -> None:
    page = page_of(b"BT /F1 10 Tf 72 30 Td /Artifact BMC (Page 1) Tj EMC 0 700 Td (Body) Tj ET")
    assert [(r.text, r.artifact) for r in page.runs] == [("Page 1", True), ("Body", False)]


def test_artifact_bdc_with_properties() -> None:
    page = page_of(
        b"BT /F1 10 Tf 72 30 Td /Artifact <</Type /Pagination /Subtype /Footer>> BDC "
        b"(Footer) Tj EMC ET"
    )
    assert one_run(page).artifact is True


def test_unbalanced_emc_is_harmless() -> None:
    page = page_of(b"EMC EMC BT /F1 10 Tf 72 700 Td /Artifact BMC (x) Tj EMC EMC (y) Tj ET")
    assert [(r.text, r.artifact) for r in page.runs] == [("x", True), ("y", False)]


# --- images -----------------------------------------------------------------------------------


def image_page(content: bytes, **image: Any) -> tuple[PageContent, Ref]:
    b = PdfBuilder()
    ref = b.image_xobject(**({"width": 3, "height": 2} | image))
    b.add_page(content, {"XObject": {"Im1": ref}})
    return open_pdf(b.build()).page(1), ref


def test_image_placement_from_the_ctm() -> None:
    page, ref = image_page(b"q 100 0 0 50 10 20 cm /Im1 Do Q")
    assert len(page.images) == 1
    image = page.images[0]
    assert image.bbox == approx_box(10, 722, 110, 772)
    assert (image.width, image.height, image.bits_per_component) == (3, 2, 8)
    assert image.color_space == "/DeviceGray"
    assert image.filters == ()
    assert image.ref == (ref.num, 0)
    assert image.name == "/Im1"
    assert (image.inline, image.image_mask) == (False, False)


def test_image_rgb_flate() -> None:
    page, _ = image_page(b"q 10 0 0 10 0 0 cm /Im1 Do Q", color_space="/DeviceRGB", flate=True)
    image = page.images[0]
    assert image.color_space == "/DeviceRGB"
    assert image.filters == ("/FlateDecode",)


def test_image_filter_array_and_indexed_colour_space() -> None:
    page, _ = image_page(
        b"q 10 0 0 10 0 0 cm /Im1 Do Q",
        data=b"\x00" * 6,
        color_space=["/Indexed", "/DeviceRGB", 1, b"\x00\x00\x00\xff\xff\xff"],
        flate=True,
        filter="/RunLengthDecode",
    )
    image = page.images[0]
    assert image.color_space == "/Indexed"
    assert image.filters == ("/FlateDecode", "/RunLengthDecode")


def test_image_mask_xobject() -> None:
    page, _ = image_page(b"q 10 0 0 10 0 0 cm /Im1 Do Q", image_mask=True)
    image = page.images[0]
    assert image.image_mask is True
    assert image.bits_per_component == 1


def test_rotated_and_flipped_image_bbox() -> None:
    page, _ = image_page(b"q 0 100 -50 0 200 300 cm /Im1 Do Q q 1 0 0 -1 0 100 cm /Im1 Do Q")
    rotated, flipped = page.images
    # Unit square corners: (200, 300), (200, 400), (150, 300), (150, 400) in user space.
    assert rotated.bbox == approx_box(150, 392, 200, 492)
    assert flipped.bbox == approx_box(0, 692, 1, 693)


def test_same_image_placed_twice() -> None:
    page, ref = image_page(b"q 10 0 0 10 0 0 cm /Im1 Do Q q 10 0 0 10 100 0 cm /Im1 Do Q")
    assert [img.ref for img in page.images] == [(ref.num, 0), (ref.num, 0)]
    assert page.images[1].bbox == approx_box(100, 782, 110, 792)


def test_image_on_a_rotated_page() -> None:
    b = PdfBuilder()
    ref = b.image_xobject(2, 2)
    b.add_page(b"q 100 0 0 50 10 20 cm /Im1 Do Q", {"XObject": {"Im1": ref}}, rotate=90)
    image = open_pdf(b.build()).page(1).images[0]
    assert image.bbox == approx_box(20, 10, 70, 110)


@pytest.mark.parametrize(
    ("matrix", "rotate", "orientation"),
    [
        (b"100 0 0 50 10 20", None, 1),  # upright
        (b"-100 0 0 50 110 20", None, 2),  # mirrored left to right
        (b"-100 0 0 -50 110 70", None, 3),  # turned 180
        (b"100 0 0 -50 10 70", None, 4),  # mirrored top to bottom
        (b"0 -100 -50 0 60 120", None, 5),  # mirrored across the main diagonal
        (b"0 -100 50 0 10 120", None, 6),  # turned 90 clockwise
        (b"0 100 50 0 10 20", None, 7),  # mirrored across the other diagonal
        (b"0 100 -50 0 60 20", None, 8),  # turned 90 anticlockwise
        (b"100 0 0 50 10 20", 90, 6),  # upright on a page shown turned 90: turned 90
        (b"0 100 -50 0 60 20", 90, 1),  # turned back by the page's /Rotate 90: upright
        (b"-100 0 0 50 110 20", 270, 5),
        (b"100 0 0 50 10 20", 180, 3),
        (b"0.00000000001 100 -50 -0.00000003 60 20", None, 8),  # cos 90 as computed
        (b"100 2 -1 50 10 20", None, 0),  # skewed
        (b"70.7 70.7 -35.35 35.35 60 20", None, 0),  # turned 45
        (b"0 0 0 50 10 20", None, 0),  # flat
    ],
)
def test_image_orientation_from_the_ctm(
    matrix: bytes, rotate: int | None, orientation: int
) -> None:
    # The orientation is on the page as displayed, the page's /Rotate composed in; the box is
    # the same whatever the orientation.
    b = PdfBuilder()
    ref = b.image_xobject(3, 2)
    data = inline_image(3, 2, b"\x00" * 6)
    b.add_page(
        b"q " + matrix + b" cm /Im1 Do Q q " + matrix + b" cm " + data + b" Q",
        {"XObject": {"Im1": ref}},
        rotate=rotate,
    )
    page = open_pdf(b.build()).page(1)
    xobject, inline = page.images
    assert (xobject.orientation, inline.orientation) == (orientation, orientation)
    assert xobject.bbox == inline.bbox


def test_image_inside_a_form() -> None:
    b = PdfBuilder()
    img = b.image_xobject(2, 2)
    form = b.form_xobject(
        b"q 10 0 0 10 0 0 cm /Im1 Do Q",
        matrix=[1, 0, 0, 1, 50, 50],
        resources={"XObject": {"Im1": img}},
    )
    b.add_page(b"/Fm1 Do", {"XObject": {"Fm1": form}})
    page = open_pdf(b.build()).page(1)
    assert [(i.ref, i.bbox) for i in page.images] == [((img.num, 0), approx_box(50, 732, 60, 742))]


def test_inline_image() -> None:
    content = b"q 40 0 0 20 30 40 cm " + inline_image(2, 2, b"\x00\x01\x02\x03") + b" Q"
    page, _ = image_page(content)
    assert len(page.images) == 1
    image = page.images[0]
    assert image.bbox == approx_box(30, 732, 70, 752)
    assert (image.width, image.height, image.bits_per_component) == (2, 2, 8)
    assert (image.inline, image.ref, image.name) == (True, None, "inline")


def test_inline_image_with_ei_in_data_keeps_the_following_text() -> None:
    content = (
        b"q 10 0 0 10 0 0 cm "
        + inline_image(4, 1, b"a EI")
        + b" Q BT /F1 10 Tf 72 700 Td (after) Tj ET"
    )
    page = page_of(content)
    assert len(page.images) == 1
    assert one_run(page).text == "after"


def test_inline_image_names_match_xobject_names() -> None:
    # Abbreviated values (/G, /RGB, /Fl, /DCT) name the same things as in image XObjects;
    # a reader of ImagePlacement should not have to know both spellings.
    content = inline_image(2, 2, b"x\x9c", color_space="/RGB", filter="/Fl")
    page, _ = image_page(b"q 10 0 0 10 0 0 cm " + content + b" Q")
    image = page.images[0]
    assert image.color_space == "/DeviceRGB"
    assert image.filters == ("/FlateDecode",)


def test_inline_image_indexed_colour_space_array() -> None:
    params = {"CS": ["/I", "/RGB", 1, Hex(b"\x00\x00\x00\xff\xff\xff")]}
    content = b"BI /W 2 /H 1 /BPC 8 " + serialize(params)[2:-2] + b" ID \x00\x01\nEI"
    page, _ = image_page(b"q 10 0 0 10 0 0 cm " + content + b" Q BT /F1 9 Tf 9 9 Td (t) Tj ET")
    assert [(i.color_space, i.width) for i in page.images] == [("/Indexed", 2)]


def test_inline_image_mask() -> None:
    page, _ = image_page(inline_image(8, 1, b"\xff", image_mask=True))
    image = page.images[0]
    assert (image.image_mask, image.inline) == (True, True)


# --- glyphs and unmapped glyphs ---------------------------------------------------------------


def test_glyph_counts() -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td (Hello) Tj [(wor) -50 (ld)] TJ ET")
    assert (page.glyphs, page.unmapped_glyphs) == (10, 0)


def test_unmapped_glyphs_are_counted_and_left_out() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica", differences=[1, "/g1", "/g2"])
    b.add_page(b"BT /F1 10 Tf 72 700 Td <0102> Tj (ab) Tj ET", {"Font": {"F1": font}})
    page = open_pdf(b.build()).page(1)
    assert (page.glyphs, page.unmapped_glyphs) == (4, 2)
    assert [r.text for r in page.runs] == ["ab"]
    # The unmapped glyphs still advance the pen (their width is known).
    assert page.runs[0].x0 > 72


def test_unmapped_glyphs_are_located() -> None:
    # One show operation: a mapped string, two unmapped glyphs, a mapped string.
    b = PdfBuilder()
    font = b.font_standard("Helvetica", differences=[1, "/g1", "/g2"])
    b.add_page(b"BT /F1 10 Tf 72 700 Td [(ab) <0102> (cd)] TJ ET", {"Font": {"F1": font}})
    page = open_pdf(b.build()).page(1)
    run = one_run(page)
    assert run.text == "abcd"
    [(box, count)] = page.unmapped_boxes
    assert count == 2
    x0, y0, x1, y1 = box
    # Between "ab" (a and b are 5.56 pt each at 10 pt) and "cd", on the run's line.
    assert x0 == pytest.approx(72 + 11.12) and run.x0 < x0 < x1 < run.x1 - 10
    assert (y0, y1) == pytest.approx((792 - 700 - 10 * ASC, 792 - 700 + 10 * DESC))


def test_a_show_of_unmapped_glyphs_alone_is_located() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica", differences=[1, "/g1", "/g2"])
    b.add_page(b"BT /F1 10 Tf 72 700 Td <0102> Tj ET", {"Font": {"F1": font}})
    page = open_pdf(b.build()).page(1)
    assert page.runs == []
    [(box, count)] = page.unmapped_boxes
    assert count == 2 and box[0] == pytest.approx(72) and box[2] > 72


def test_unmapped_boxes_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interp, "MAX_UNMAPPED_BOXES", 2)
    b = PdfBuilder()
    font = b.font_standard("Helvetica", differences=[1, "/g1", "/g2"])
    shows = b"".join(b"BT /F1 10 Tf %d 700 Td <0102> Tj ET " % (72 + 100 * i) for i in range(5))
    b.add_page(shows, {"Font": {"F1": font}})
    page = open_pdf(b.build()).page(1)
    assert page.unmapped_glyphs == 10
    first, last = page.unmapped_boxes
    assert first[1] == 2 and first[0][0] == pytest.approx(72)
    # The third, fourth and fifth shows joined to the second box, their counts summed.
    assert last[1] == 8 and last[0][0] == pytest.approx(172) and last[0][2] > 472


def test_missing_font_resource_counts_glyphs_as_unmapped() -> None:
    page = page_of(b"BT /F9 12 Tf 72 700 Td (abc) Tj ET")
    assert page.runs == []
    assert (page.glyphs, page.unmapped_glyphs) == (3, 3)
    assert any("/F9" in p for p in page.problems)


def test_text_before_any_font_counts_as_unmapped() -> None:
    page = page_of(b"BT 72 700 Td (abc) Tj ET")
    assert page.runs == []
    assert (page.glyphs, page.unmapped_glyphs) == (3, 3)


def test_type0_page_text_and_counts() -> None:
    b = PdfBuilder()
    font = b.font_type0(to_unicode={1: "漢", 2: "字"}, w=[1, [1000, 500]])
    b.add_page(b"BT /F1 10 Tf 72 700 Td <000100020003> Tj ET", {"Font": {"F1": font}})
    page = open_pdf(b.build()).page(1)
    run = one_run(page)
    assert run.text == "漢字"
    assert (page.glyphs, page.unmapped_glyphs) == (3, 1)
    assert run.x1 - run.x0 == pytest.approx(10 + 5 + 10)


def test_wide_spacing_taken_back_cuts_a_composite_fonts_string_at_its_codes() -> None:
    # Two-byte codes: the string is cut glyph by glyph at code boundaries, not bytes, and
    # an odd last byte (no whole code) is no glyph.
    b = PdfBuilder()
    font = b.font_type0(to_unicode={1: "漢", 2: "字", 3: "語"}, w=[1, [1000, 1000, 1000]])
    content = b"BT /F1 10 Tf 5 Tc 72 700 Td [<00010002>500<000300>] TJ ET"
    b.add_page(content, {"Font": {"F1": font}})
    runs = open_pdf(b.build()).page(1).runs
    assert "".join(r.text for r in runs).replace(" ", "") == "漢字語"
    assert " ".join(r.text for r in runs) == "漢 字語"


def test_vertical_type0_run() -> None:
    b = PdfBuilder()
    font = b.font_type0(encoding="/Identity-V", to_unicode={1: "縦", 2: "書"})
    b.add_page(b"BT /F1 10 Tf 300 700 Td <00010002> Tj ET", {"Font": {"F1": font}})
    run = one_run(open_pdf(b.build()).page(1))
    assert run.text == "縦書"
    assert run.direction == 1
    # Centred on x = 300, running down from y = 92 for two 10-pt advances.
    assert bbox(run) == approx_box(295, 92, 305, 112)


def test_type3_text_on_a_page() -> None:
    b = PdfBuilder()
    font = b.font_type3(
        char_procs={"a": b"1000 0 0 0 750 750 d1 0 0 750 750 re f"},
        differences=[97, "/a"],
        first_char=97,
        widths=[1000],
    )
    b.add_page(b"BT /F1 12 Tf 72 700 Td (aaa) Tj ET", {"Font": {"F1": font}})
    run = one_run(open_pdf(b.build()).page(1))
    assert run.text == "aaa"
    assert run.size == 12
    assert run.x1 - run.x0 == pytest.approx(36)


def test_type3_with_a_100_unit_em_has_the_nominal_size() -> None:
    b = PdfBuilder()
    font = b.font_type3(
        char_procs={"a": b"100 0 0 0 75 75 d1 0 0 75 75 re f"},
        differences=[97, "/a"],
        first_char=97,
        widths=[100],
        font_matrix=[0.01, 0, 0, 0.01, 0, 0],
        font_bbox=[0, 0, 75, 75],
    )
    b.add_page(b"BT /F1 12 Tf 72 700 Td (aaa) Tj ET", {"Font": {"F1": font}})
    run = one_run(open_pdf(b.build()).page(1))
    assert run.x1 - run.x0 == pytest.approx(36)
    assert run.size == 12
    assert run.y1 - run.y0 < 24


# --- paths and rules --------------------------------------------------------------------------


def test_stroked_line_is_a_rule() -> None:
    page = page_of(b"72 100 m 300 100 l S 50 50 m 50 400 l S")
    assert page.paths == 2
    assert page.rules == [
        pytest.approx((72, 692, 300, 692)),
        pytest.approx((50, 392, 50, 742)),
    ]


def test_filled_thin_rectangle_is_a_rule() -> None:
    page = page_of(b"72 100 228 1 re f 10 10 200 200 re f")
    assert page.paths == 2
    assert page.rules == [pytest.approx((72, 691.5, 300, 691.5))]


def test_curve_is_not_a_rule() -> None:
    page = page_of(b"0 0 m 100 0 l 150 50 200 0 250 0 c S")
    assert (page.paths, page.rules) == (1, [])


def test_path_ended_with_n_is_not_painted() -> None:
    page = page_of(b"72 100 m 300 100 l n")
    assert (page.paths, page.rules) == (0, [])


def test_a_trailing_comment_does_not_paint() -> None:
    # The path is never painted: the "S" is inside a comment at the very end of the stream.
    page = page_of(b"72 100 m 300 100 l % S")
    assert (page.paths, page.rules) == (0, [])


# --- damage and limits ------------------------------------------------------------------------


def test_bad_operands_are_problems_not_crashes() -> None:
    page = page_of(b"BT /F1 Tf (x) 1 2 Td 72 700 Td /F1 10 Tf (ok) Tj ET q (a) cm Q 1 re")
    assert one_run(page).text == "ok"
    assert any("Tf" in p for p in page.problems)
    assert page.incomplete is False


def test_problems_are_bounded_and_unique() -> None:
    page = page_of(b"/F1 Tf " * 50 + b"(a) (b) Td " * 50)
    assert 0 < len(page.problems) <= interp.MAX_PROBLEMS
    assert len(set(page.problems)) == len(page.problems)


def test_operation_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interp, "MAX_OPERATIONS", 3000)
    page = page_of(b"BT /F1 10 Tf 72 700 Td (first) Tj ET " + b"q Q " * 5000)
    assert page.incomplete is True
    assert [r.text for r in page.runs] == ["first"]
    assert any("operators" in p for p in page.problems)


def test_time_limit() -> None:
    data = simple_pdf(b"BT /F1 10 Tf 72 700 Td (first) Tj ET " + b"q Q " * 5000)
    page = open_pdf(data, limits=Limits(page_seconds=0.0)).page(1)
    assert page.incomplete is True
    assert [r.text for r in page.runs] == ["first"]
    assert any("time limit" in p for p in page.problems)


def test_invisible_text_is_classified_when_reading_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interp, "MAX_OPERATIONS", 3000)
    page = page_of(b"BT /F1 10 Tf 3 Tr 72 700 Td (hid) Tj ET " + b"q Q " * 5000)
    assert [(h.text, h.reason) for h in page.hidden] == [("hid", "invisible")]


def test_page_numbers_are_1_based_and_checked() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for i in range(3):
        b.add_page(b"BT /F1 10 Tf 72 700 Td (p%d) Tj ET" % (i + 1), {"Font": {"F1": font}})
    doc = open_pdf(b.build())
    assert [doc.page(n).number for n in (1, 2, 3)] == [1, 2, 3]
    assert [one_run(doc.page(n)).text for n in (1, 2, 3)] == ["p1", "p2", "p3"]
    for bad in (0, 4, -1, 10**5000, True, 1.0, "1"):
        with pytest.raises(PdfthinError) as info:
            doc.page(bad)
        assert info.value.code == "invalid_pages"
        assert info.value.details["page_count"] == 3 and "3 pages" in info.value.message


def test_font_is_loaded_once_per_document() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for _ in range(2):
        b.add_page(b"BT /F1 10 Tf 72 700 Td (x) Tj ET", {"Font": {"F1": font}})
    doc = open_pdf(b.build())
    doc.page(1)
    doc.page(2)
    assert len([k for k in doc._fonts if k != "__missing__"]) == 1


def test_direct_font_dictionaries_on_different_pages_do_not_collide() -> None:
    b = PdfBuilder()
    for base in ("Helvetica", "Courier"):
        font = {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/" + base}
        b.add_page(b"BT /F1 10 Tf 72 700 Td (A) Tj ET", {"Font": {"F1": font}})
    doc = open_pdf(b.build())
    first, second = one_run(doc.page(1)), one_run(doc.page(2))
    assert (first.font, second.font) == ("Helvetica", "Courier")
    assert second.x1 - second.x0 == pytest.approx(6.0)
    assert one_run(doc.page(1)).font == "Helvetica"  # read again after page 2


def test_artifact_inside_a_form_drawn_in_an_artifact() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        return {"Fm1": b.form_xobject(b"BT /F1 10 Tf 72 600 Td (in) Tj ET")}

    page, _ = form_page(build, b"/Artifact BMC /Fm1 Do EMC BT /F1 10 Tf 72 500 Td (out) Tj ET")
    assert [(r.text, r.artifact) for r in page.runs] == [("in", True), ("out", False)]


def test_unbalanced_artifact_in_a_form_does_not_leak() -> None:
    # A form's content is a stream of its own: marked content left open there ends with it,
    # like its q and cm. Otherwise the page's body text is taken for furniture.
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        return {"Fm1": b.form_xobject(b"BT /F1 10 Tf 72 700 Td /Artifact BMC (x) Tj ET")}

    page, _ = form_page(build, b"/Fm1 Do BT /F1 10 Tf 72 500 Td (body) Tj ET")
    assert [(r.text, r.artifact) for r in page.runs] == [("x", True), ("body", False)]


def test_unbalanced_actual_text_in_a_form_does_not_swallow_the_page() -> None:
    def build(b: PdfBuilder, font: Ref) -> dict[str, Any]:
        return {
            "Fm1": b.form_xobject(b"BT /F1 10 Tf 72 700 Td /Span <</ActualText (X)>> BDC (a) Tj ET")
        }

    page, _ = form_page(build, b"/Fm1 Do BT /F1 10 Tf 72 500 Td (body) Tj ET")
    assert [r.text for r in page.runs] == ["X", "body"]


def test_negative_font_size_with_a_flipped_matrix_reads_like_normal_text() -> None:
    # The text rendering matrix is [Tfs*Th 0 0 Tfs 0 Trise] x Tm x CTM: -10 Tf with a
    # -1 0 0 -1 Tm is exactly 10 Tf with the identity, and must read the same.
    plain = one_run(page_of(b"BT /F1 10 Tf 1 0 0 1 300 300 Tm (AB) Tj ET"))
    flipped = one_run(page_of(b"BT /F1 -10 Tf -1 0 0 -1 300 300 Tm (AB) Tj ET"))
    assert (flipped.text, flipped.size, flipped.direction) == ("AB", 10, 0)
    assert bbox(flipped) == approx_box(*bbox(plain))


def test_negative_font_size_alone_is_upside_down() -> None:
    run = one_run(page_of(b"BT /F1 -10 Tf 300 300 Td (AB) Tj ET"))
    assert run.direction == 4
    # Drawn rotated by 180 degrees about the origin: leftwards, glyphs hanging below y = 492.
    assert bbox(run) == approx_box(286.66, 492 - DESC * 10, 300, 492 + ASC * 10)


def test_negative_horizontal_scaling_is_mirrored() -> None:
    run = one_run(page_of(b"BT /F1 10 Tf -100 Tz 300 300 Td (AB) Tj ET"))
    assert run.direction == 2
    assert (run.x0, run.x1) == pytest.approx((286.66, 300))


# --- white text: hidden unless something is painted beneath it ------------------------------


def _visible_and_white(page: PageContent) -> tuple[list[str], list[str]]:
    return [r.text for r in page.runs], [h.text for h in page.hidden if h.reason == "white"]


@pytest.mark.parametrize(
    "colour",
    [b"1 g", b"1 1 1 rg", b"0 0 0 0 k", b"0.96 0.97 1 rg", b"/DeviceRGB cs 1 1 1 sc"],
)
def test_white_text_on_an_empty_page_is_hidden(colour: bytes) -> None:
    page = page_of(b"BT /F1 10 Tf 72 700 Td (seen) Tj " + colour + b" 0 -20 Td (unseen) Tj ET")
    assert _visible_and_white(page) == (["seen"], ["unseen"])


@pytest.mark.parametrize(
    "background",
    [
        b"0 0 0 rg 60 680 200 40 re f",  # a dark box
        b"0.2 0.4 0.6 RG 24 w 60 703 m 260 703 l S",  # a thick stroked band (a caption bar)
        b"0 0 1 rg 60 680 200 40 re B",  # fill and stroke
        b"/Sh1 sh",  # a shading fills the clip (here: the page)
        b"q 200 40 0 0 60 680 cm /Im1 Do Q",  # a picture
    ],
)
def test_white_text_over_something_painted_is_visible(background: bytes) -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(2, 2)
    content = background + b" BT /F1 10 Tf 1 g 72 700 Td (on dark) Tj ET"
    b.add_page(content, {"Font": {"F1": font}, "XObject": {"Im1": image}})
    page = open_pdf(b.build()).page(1)
    assert _visible_and_white(page) == (["on dark"], [])


def test_white_paint_is_no_background_and_far_paint_does_not_count() -> None:
    page = page_of(
        b"1 g 0 0 612 792 re f 0 0 0 RG 1 w 300 100 m 500 100 l S "
        b"BT /F1 10 Tf 1 1 1 rg 72 700 Td (white on white) Tj ET"
    )
    assert _visible_and_white(page) == ([], ["white on white"])


def test_white_text_under_a_later_scan_is_the_ocr_layer() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(2, 2)
    b.add_page(
        b"BT /F1 10 Tf 1 g 72 700 Td (recognised) Tj ET q 612 0 0 792 0 0 cm /Im1 Do Q",
        {"Font": {"F1": font}, "XObject": {"Im1": image}},
    )
    run = one_run(open_pdf(b.build()).page(1))
    assert (run.text, run.ocr_layer) == ("recognised", True)


@pytest.mark.parametrize(
    ("content", "white"),
    [
        (b"q 1 g Q BT /F1 10 Tf 72 700 Td (x) Tj ET", False),  # Q restores black
        (b"0.5 g BT /F1 10 Tf 72 700 Td (x) Tj ET", False),  # grey is seen
        (b"1 g /DeviceGray cs BT /F1 10 Tf 72 700 Td (x) Tj ET", False),  # cs resets to black
        (b"/CS0 cs 1 1 1 scn BT /F1 10 Tf 72 700 Td (x) Tj ET", True),  # ICC RGB white
        (b"/CS1 cs 0 scn BT /F1 10 Tf 72 700 Td (x) Tj ET", False),  # a spot colour
        (b"/P0 cs /P1 scn BT /F1 10 Tf 72 700 Td (x) Tj ET", False),  # a pattern
        (b"1 g 0 G BT 1 Tr /F1 10 Tf 72 700 Td (x) Tj ET", False),  # outlined in black
        (b"0 g 1 G BT 1 Tr /F1 10 Tf 72 700 Td (x) Tj ET", True),  # outlined in white
        (b"1 g 0 G BT 2 Tr /F1 10 Tf 72 700 Td (x) Tj ET", False),  # filled white, black edge
        (b"1 g /Fm1 Do", True),  # a form draws in the colour it is given
    ],
)
def test_colour_state(content: bytes, white: bool) -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    form = b.form_xobject(b"BT /F1 10 Tf 72 700 Td (x) Tj ET", resources={"Font": {"F1": font}})
    spaces = {
        "CS0": ["/ICCBased", b.stream(b"", N=3)],
        "CS1": ["/Separation", "/Gold", "/DeviceCMYK", {"FunctionType": 2}],
        "P0": "/Pattern",
    }
    resources = {"Font": {"F1": font}, "ColorSpace": spaces, "XObject": {"Fm1": form}}
    b.add_page(content, resources)
    page = open_pdf(b.build()).page(1)
    assert _visible_and_white(page) == (([], ["x"]) if white else (["x"], []))


# --- transparent text --------------------------------------------------------------------------


def _alpha_page(content: bytes, image: bool = False) -> PageContent:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    states = {
        "Clear": {"Type": "/ExtGState", "ca": 0, "CA": 0},
        "Faint": {"Type": "/ExtGState", "ca": 0.02},
        "Half": {"Type": "/ExtGState", "ca": 0.5},
        "Opaque": {"Type": "/ExtGState", "ca": 1},
        "LineOnly": {"Type": "/ExtGState", "LW": 3},
    }
    resources: dict[str, Any] = {"Font": {"F1": font}, "ExtGState": states}
    if image:
        resources["XObject"] = {"Im1": b.image_xobject(2, 2)}
    b.add_page(content, resources)
    return open_pdf(b.build()).page(1)


@pytest.mark.parametrize(
    ("states", "hidden"),
    [
        (b"/Clear gs", True),
        (b"/Faint gs", True),
        (b"/Half gs", False),  # half see-through is still seen
        (b"/Clear gs /Opaque gs", False),
        (b"/Clear gs /LineOnly gs", True),  # a state without /ca leaves it as it was
        (b"q /Clear gs Q", False),  # Q restores it
        (b"/Clear gs 2 Tr", True),  # fill and stroke both clear
        (b"/Nope gs", False),
    ],
)
def test_transparent_text_is_hidden(states: bytes, hidden: bool) -> None:
    page = _alpha_page(states + b" BT /F1 10 Tf 72 700 Td (ghost) Tj ET")
    got = ([r.text for r in page.runs], [(h.text, h.reason) for h in page.hidden])
    assert got == (([], [("ghost", "transparent")]) if hidden else (["ghost"], []))


def test_transparent_text_over_a_scan_is_its_ocr_layer() -> None:
    page = _alpha_page(
        b"q 612 0 0 792 0 0 cm /Im1 Do Q /Clear gs BT /F1 10 Tf 72 700 Td (ocr) Tj ET", image=True
    )
    run = one_run(page)
    assert (run.text, run.ocr_layer) == ("ocr", True)


def test_past_the_painted_area_limit_white_text_is_read() -> None:
    # Far from the text, so none of these fills is beneath it.
    fills = b"".join(b"0 0 1 rg %d 10 1 1 re f\n" % (i % 500) for i in range(interp.MAX_PAINTED))
    text = b"BT /F1 10 Tf 1 g 72 700 Td (label) Tj ET"
    assert _visible_and_white(page_of(fills[:200] + text)) == ([], ["label"])
    assert _visible_and_white(page_of(fills + b"0 0 1 rg 1 1 1 1 re f " + text)) == (["label"], [])


def test_past_the_painted_area_limit_in_images_white_text_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(interp, "MAX_PAINTED", 50)  # below the page's image budget
    text = b"BT /F1 10 Tf 1 g 72 700 Td (label) Tj ET"
    for count, seen in ((10, False), (interp.MAX_PAINTED + 1, True)):
        b = PdfBuilder()
        font = b.font_standard("Helvetica")
        image = b.image_xobject(1, 1)
        tiles = b"q 1 0 0 1 5 5 cm /Im1 Do Q\n" * count  # far from the text
        b.add_page(tiles + text, {"Font": {"F1": font}, "XObject": {"Im1": image}})
        page = open_pdf(b.build()).page(1)
        assert _visible_and_white(page) == ((["label"], []) if seen else ([], ["label"]))


def test_a_pages_content_is_decoded_without_being_kept() -> None:
    """A page's content streams are read once: the reader's stream objects keep no decoded
    copy (pypdf's ``get_data`` would keep one per page until the document is closed), and
    what is read is the same bytes, joined by a newline."""
    import io

    import pypdf

    b = PdfBuilder(compress=True)
    b.add_page([b"BT /F1 12 Tf (one) Tj", b"(two) Tj ET"], {})
    reader = pypdf.PdfReader(io.BytesIO(b.build()))
    page = reader.pages[0]
    data, problems = interp.content_bytes(page)
    assert (data, problems) == (b"BT /F1 12 Tf (one) Tj\n(two) Tj ET", [])
    streams = [ref.get_object() for ref in page["/Contents"]]
    assert all(isinstance(s, pypdf.generic.EncodedStreamObject) for s in streams)
    assert all(s.decoded_self is None for s in streams)
    assert streams[0].get_data() == b"BT /F1 12 Tf (one) Tj"  # still readable, then cached
    assert interp.content_bytes(page)[0] == data
