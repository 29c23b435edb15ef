"""Page selections (docs/design.md, invariant 2): ``"1-3,7,10-"`` parsed and validated, never
clamped; anything impossible is ``invalid_pages`` naming the page count."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdfthin.errors import PdfthinError
from pdfthin.pages import format_pages, parse_pages


def invalid(spec: Any, page_count: int) -> PdfthinError:
    with pytest.raises(PdfthinError) as info:
        parse_pages(spec, page_count)
    err = info.value
    assert err.code == "invalid_pages"
    assert err.details["page_count"] == page_count
    assert f"{page_count} page" in err.message, err.message
    assert "\n" not in err.message
    return err


# --- valid selections -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("1-3,7,10-", [1, 2, 3, 7, 10, 11, 12]),
        ("5", [5]),
        ("1-12", list(range(1, 13))),
        ("1-", list(range(1, 13))),
        ("12-", [12]),
        ("12", [12]),
        ("4-4", [4]),
        ("3,1,2", [3, 1, 2]),  # the order asked for is kept
        ("1,1,1-2", [1, 2]),  # duplicates removed, first occurrence wins
        ("2-4,3-5", [2, 3, 4, 5]),
        ("10-,1", [10, 11, 12, 1]),
        (" 1 - 3 , 5 ", [1, 2, 3, 5]),
        ("\t7\n", [7]),
        ("007", [7]),
    ],
)
def test_valid_selections(spec: str, expected: list[int]) -> None:
    assert parse_pages(spec, 12) == expected


@pytest.mark.parametrize("spec", [None, "", "   ", "\t\n"])
def test_empty_selection_means_every_page(spec: str | None) -> None:
    assert parse_pages(spec, 4) == [1, 2, 3, 4]


def test_integer_selection() -> None:
    assert parse_pages(3, 5) == [3]


def test_empty_selection_of_an_empty_document() -> None:
    assert parse_pages(None, 0) == []
    assert parse_pages("", 0) == []


# --- invalid selections -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "0",
        "0-3",
        "1-0",
        "-1",
        "-3-5",
        "13",
        "2-13",
        "13-",
        "100-200",
        "3-1",
        "10-2",
        "a",
        "1a",
        "one",
        "1.5",
        "1-2-3",
        "1 2",
        "+1",
        "1,,2",
        ",",
        "1,",
        ",1",
        "-",
        "--",
        "1--3",
        "1-3;5",
        "pages",
        "99999999999999999999999",
        "1-99999999999999999999999",
    ],
)
def test_invalid_selections(spec: str) -> None:
    invalid(spec, 12)


@pytest.mark.parametrize("spec", [0, -1, 13, True, False, 1.0, [1, 2], {"pages": 1}, b"1"])
def test_invalid_selection_types_and_integers(spec: Any) -> None:
    invalid(spec, 12)


def test_out_of_range_message_names_the_page() -> None:
    err = invalid("2-20", 12)
    assert "20" in err.message
    assert err.details["pages"] == "2-20"


def test_zero_message() -> None:
    err = invalid("0", 12)
    assert "12 pages" in err.message


def test_selection_in_an_empty_document() -> None:
    invalid("1", 0)
    invalid("1-", 0)


def test_overlong_selection_is_refused_cheaply() -> None:
    invalid("1," * 6000, 12)


def test_one_page_document_message() -> None:
    err = invalid("2", 1)
    assert err.details == {"page_count": 1, "pages": "2"}


# --- format_pages -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pages", "text"),
    [
        ([], ""),
        ([5], "5"),
        ([1, 2, 3, 7, 10, 11, 12], "1-3,7,10-12"),
        ([3, 2, 1], "3,2,1"),
        ([1, 3, 5], "1,3,5"),
        ((4, 5), "4-5"),
        ([9, 10, 1, 2], "9-10,1-2"),
    ],
)
def test_format_pages(pages: list[int], text: str) -> None:
    assert format_pages(pages) == text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=60), unique=True, max_size=30))
def test_format_then_parse_round_trips(pages: list[int]) -> None:
    text = format_pages(pages)
    if pages:
        assert parse_pages(text, 60) == pages


# --- properties -------------------------------------------------------------------------------

_SPEC_TEXT = st.text(alphabet="0123456789-, \t1-,x.+", max_size=25)


@settings(max_examples=600, deadline=None)
@given(spec=st.one_of(_SPEC_TEXT, st.text(max_size=15)), page_count=st.integers(0, 40))
def test_any_text_is_a_valid_selection_or_invalid_pages(spec: str, page_count: int) -> None:
    try:
        pages = parse_pages(spec, page_count)
    except PdfthinError as err:
        assert err.code == "invalid_pages"
        assert err.details["page_count"] == page_count
        assert f"{page_count} page" in err.message
        return
    assert isinstance(pages, list)
    assert all(isinstance(p, int) and 1 <= p <= page_count for p in pages)
    assert len(set(pages)) == len(pages)
    if not spec.strip():
        assert pages == list(range(1, page_count + 1))
    else:
        assert pages, "a non-empty selection never selects nothing"


@st.composite
def selections(draw: st.DrawFn) -> tuple[int, str, list[int] | None]:
    """A well-formed selection, and the pages it must give (``None``: must be invalid)."""
    page_count = draw(st.integers(1, 30))
    parts: list[str] = []
    expected: list[int] = []
    valid = True
    for _ in range(draw(st.integers(1, 5))):
        first = draw(st.integers(0, page_count + 3))
        kind = draw(st.sampled_from(["single", "range", "open"]))
        if kind == "single":
            last = first
            parts.append(str(first))
        elif kind == "range":
            last = draw(st.integers(0, page_count + 3))
            parts.append(f"{first}-{last}")
        else:
            last = page_count
            parts.append(f"{first}-")
        if first < 1 or last < 1 or first > page_count or last > page_count or last < first:
            valid = False
            continue
        for page in range(first, last + 1):
            if page not in expected:
                expected.append(page)
    spaced = draw(st.booleans())
    spec = (" , " if spaced else ",").join(parts)
    return page_count, spec, expected if valid else None


@settings(max_examples=600, deadline=None)
@given(selections())
def test_well_formed_selections_match_a_model(case: tuple[int, str, list[int] | None]) -> None:
    page_count, spec, expected = case
    if expected is None:
        invalid(spec, page_count)
    else:
        assert parse_pages(spec, page_count) == expected


# --- page numbers at every public entry point (issue 18, item 10) -----------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "1" * 5000,  # more digits than Python converts (4,300): never converted at all
        "1-" + "9" * 5000,
        "0" * 4000 + "13",
        10**5000,  # an integer too long to print
        -(10**5000),
        2**63,
    ],
    ids=["5000-digits", "range-to-5000-digits", "leading-zeros", "int-5000-digits", "neg", "2**63"],
)
def test_page_numbers_of_any_length_are_invalid_pages(spec: Any) -> None:
    err = invalid(spec, 12)
    assert len(err.message) < 200, err.message


def test_leading_zeros_do_not_count_as_digits() -> None:
    assert parse_pages("0" * 4000 + "7", 12) == [7]


def test_non_ascii_digits_are_not_page_numbers() -> None:
    invalid("\u0663", 12)  # ARABIC-INDIC DIGIT THREE
    invalid("\uff13", 12)  # FULLWIDTH DIGIT THREE


@pytest.mark.parametrize(
    "bad",
    [0, -1, -3, 4, 99, 10**5000, True, 1.0, "1", None],
    ids=["0", "-1", "-3", "4", "99", "huge", "True", "1.0", "str", "None"],
)
def test_a_page_is_1_based_on_every_public_entry_point(bad: Any) -> None:
    """``Document.page``, ``EngineDocument.page``, ``image_facts`` and ``load_image`` take a
    1-based page: 0 and negative numbers never count from the end, a number past the last
    page is no IndexError; each is ``invalid_pages`` naming the page count."""
    from pdfbuilder import PdfBuilder

    import pdfthin
    from pdfthin.engine import ImagePlacement, image_facts, load_image, open_pdf

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(2, 2)
    for n in (1, 2, 3):
        b.add_page(
            b"BT /F1 10 Tf 72 700 Td (page %d) Tj ET q 9 0 0 9 9 9 cm /Im Do Q" % n,
            {"Font": {"F1": font}, "XObject": {"Im": image}},
        )
    pdf = b.build()
    doc = pdfthin.open(pdf)
    assert [doc.page(n).number for n in (1, 2, 3)] == [1, 2, 3]
    engine = open_pdf(pdf)
    placement: ImagePlacement = engine.page(2).images[0]
    calls = {
        "Document.page": lambda: doc.page(bad),
        "Document.markdown": lambda: doc.markdown([bad]),
        "EngineDocument.page": lambda: engine.page(bad),
        "image_facts": lambda: image_facts(engine, placement, bad),
        "load_image": lambda: load_image(engine, placement, bad),
    }
    for name, call in calls.items():
        with pytest.raises(PdfthinError) as info:
            call()
        assert info.value.code == "invalid_pages", name
        assert info.value.details["page_count"] == 3, name
        assert "3 pages" in info.value.message, (name, info.value.message)
