"""``get_annotations`` (issue 23): a document's links (with where they go and the page text
they sit on), comments, markup (with the words it covers), stamps, attachments and embedded
files (named and sized, never opened), boxes in the page as displayed; bounded and typed on
hostile files; paginated without losses or repeats; on both engine paths."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from annotated import ATTACHED, EMBEDDED, annotated_pdf, quads_of, rect_of
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from pdfbuilder import PdfBuilder, Stream

from pdfthin.engine.annotations import (
    MAX_DOCUMENT_STEPS,
    MAX_PAGE_ANNOTATIONS,
    MAX_QUADS,
    MAX_TEXT_CHARS,
)
from pdfthin.errors import PdfthinError
from pdfthin.operations import Context, get_annotations

pytestmark = pytest.mark.usefixtures("implementation")

#: The fixture's page height (user space y runs up from the bottom).
HEIGHT = 792
#: A hostile file's answer must cost less than this many CPU seconds (the real bound is the
#: walks' budgets; this is far above what it costs, far below a hang). CPU time, not the
#: wall clock: other processes on the machine do not count.
QUICK_SECONDS = 10.0


@pytest.fixture(scope="module")
def annotated() -> bytes:
    return annotated_pdf()


def _by_id(response: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in response["annotations"]}


def _shown(box: list[float]) -> dict[str, float]:
    """A user-space rectangle of an unrotated 612x792 page as displayed (top-left origin)."""
    x0, y0, x1, y1 = box
    return {"x0": round(x0, 2), "y0": HEIGHT - y1, "x1": round(x1, 2), "y1": HEIGHT - y0}


def _all(data: bytes, **kwargs: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every annotation and embedded file, following the cursors, in a fresh context."""
    context = Context()
    response = get_annotations(data, context=context, **kwargs)
    annotations = list(response["annotations"])
    files = list(response["embedded_files"])
    calls = 1
    while response["next_cursor"]:
        response = get_annotations(data, context=context, cursor=response["next_cursor"], **kwargs)
        annotations.extend(response["annotations"])
        files.extend(response["embedded_files"])
        calls += 1
        assert calls < 1_000, "the cursor does not advance"
    return annotations, files


# --- what each kind carries ---------------------------------------------------------------------


def test_links_give_their_target_and_the_page_text_they_sit_on(annotated: bytes) -> None:
    found = _by_id(get_annotations(annotated, context=Context()))
    uri, goto, named = found["p1-a1"], found["p1-a2"], found["p1-a3"]
    assert uri["kind"] == "link" and uri["action"] == "uri"
    assert uri["uri"] == "https://example.com/project"
    assert uri["text"] == "project site"
    assert uri["bbox"] == _shown(rect_of("project site"))
    assert "target_page" not in uri
    # An explicit go-to action, and a named destination resolved through /Names /Dests:
    # both go to page 2 (1-based).
    assert (goto["action"], goto["target_page"], goto["text"]) == ("goto", 2, "see page two")
    assert (named["action"], named["target_page"], named["text"]) == ("goto", 2, "chapter")
    assert "uri" not in goto and "uri" not in named


def test_a_note_carries_its_comment_author_date_and_icon(annotated: bytes) -> None:
    note = _by_id(get_annotations(annotated, context=Context()))["p1-a4"]
    assert note["kind"] == "comment"
    assert note["contents"] == "Please check this."
    assert note["author"] == "Ann Reviewer"
    assert note["modified"] == "2024-01-31T12:00:00+01:00"
    assert note["icon"] == "Comment"
    # A note is not about the words under it: no page text is claimed for it.
    assert "text" not in note


def test_a_highlight_gives_the_words_it_covers_and_its_quads(annotated: bytes) -> None:
    mark = _by_id(get_annotations(annotated, context=Context()))["p1-a5"]
    assert mark["kind"] == "highlight"
    assert mark["text"] == "highlighted words"
    # Its neighbours on the same line are not under it.
    assert "Some" not in mark["text"] and "here." not in mark["text"]
    x0, y1, x1, _, _, y0, _, _ = quads_of("highlighted words")
    assert mark["quads"] == [_shown([x0, y0, x1, y1])]


def test_free_text_stamp_attachment_and_other_kinds(annotated: bytes) -> None:
    response = get_annotations(annotated, context=Context())
    found = _by_id(response)
    assert found["p1-a6"]["kind"] == "free_text"
    assert found["p1-a6"]["contents"] == "A typed remark"
    assert (found["p1-a7"]["kind"], found["p1-a7"]["icon"]) == ("stamp", "Approved")
    attachment = found["p1-a8"]
    assert attachment["kind"] == "file_attachment"
    assert (attachment["file"], attachment["file_size"]) == ("notes.txt", len(ATTACHED))
    assert (found["p1-a9"]["kind"], found["p1-a9"]["subtype"]) == ("other", "Square")
    # The popup (the note's window) and the form widget are not listed; ids count what is.
    assert sorted(found) == [f"p1-a{n}" for n in range(1, 10)] + ["p3-a1"]
    assert response["by_kind"] == {
        "link": 4,
        "comment": 1,
        "highlight": 1,
        "free_text": 1,
        "stamp": 1,
        "file_attachment": 1,
        "other": 1,
    }
    assert response["total_annotations"] == 10


def test_embedded_files_are_named_and_sized(annotated: bytes) -> None:
    response = get_annotations(annotated, context=Context())
    assert response["total_embedded_files"] == 1
    assert response["embedded_files"] == [
        {"name": "data.csv", "size": len(EMBEDDED), "description": "the table's data"}
    ]


def test_an_embedded_file_is_never_decoded() -> None:
    """A stream whose filter would fail to decode is still named and sized from /Params
    /Size; without /Params its size is not guessed from compressed bytes."""
    b = PdfBuilder()
    b.add_page(b"")
    garbage = b"\x00not deflate at all\xff" * 4
    sized = b.add(
        Stream(garbage, {"Type": "/EmbeddedFile", "Filter": "/FlateDecode", "Params": {"Size": 77}})
    )
    unsized = b.add(Stream(garbage, {"Type": "/EmbeddedFile", "Filter": "/FlateDecode"}))
    b.catalog["Names"] = {
        "EmbeddedFiles": {
            "Names": [
                b"a.bin",
                {"Type": "/Filespec", "F": "a.bin", "EF": {"F": sized}},
                b"b.bin",
                {"Type": "/Filespec", "UF": "b.bin", "EF": {"F": unsized}},
            ]
        }
    }
    response = get_annotations(b.build(), context=Context())
    assert response["embedded_files"] == [{"name": "a.bin", "size": 77}, {"name": "b.bin"}]
    assert "problems" not in response


def test_a_rotated_page_gives_boxes_as_displayed(annotated: bytes) -> None:
    link = _by_id(get_annotations(annotated, pages="3", context=Context()))["p3-a1"]
    # /Rotate 90 turns the page clockwise: user y becomes displayed x, user x displayed y.
    x0, y0, x1, y1 = rect_of("Turned link", [("Turned link", 100, 500)])
    assert link["bbox"] == {"x0": y0, "y0": x0, "x1": y1, "y1": round(x1, 2)}
    assert link["text"] == "Turned link"
    assert link["uri"] == "http://example.org/"


# --- filters and pagination ---------------------------------------------------------------------


def test_kinds_filter_keeps_ids_and_counts_only_what_is_asked(annotated: bytes) -> None:
    links = get_annotations(annotated, kinds="link", context=Context())
    assert [a["id"] for a in links["annotations"]] == ["p1-a1", "p1-a2", "p1-a3", "p3-a1"]
    assert links["by_kind"] == {"link": 4} and links["total_annotations"] == 4
    assert links["embedded_files"] == [] and links["total_embedded_files"] == 0
    assert links["kinds"] == ["link"]
    two = get_annotations(annotated, kinds="comment, embedded_file", context=Context())
    assert [a["id"] for a in two["annotations"]] == ["p1-a4"]
    assert [f["name"] for f in two["embedded_files"]] == ["data.csv"]


@pytest.mark.parametrize("kinds", ["links", "link,,comment", "LINK", "link; comment"])
def test_kinds_naming_no_kind_is_a_typed_error(annotated: bytes, kinds: str) -> None:
    with pytest.raises(PdfthinError) as caught:
        get_annotations(annotated, kinds=kinds, context=Context())
    assert caught.value.code == "invalid_argument"


def test_pages_filter_lists_those_pages_and_no_embedded_files(annotated: bytes) -> None:
    response = get_annotations(annotated, pages="2-3", context=Context())
    assert [a["id"] for a in response["annotations"]] == ["p3-a1"]
    assert response["pages"] == "2-3"
    # Embedded files belong to the document, not to a page: listed for the whole only.
    assert response["embedded_files"] == [] and response["total_embedded_files"] == 0
    with pytest.raises(PdfthinError) as caught:
        get_annotations(annotated, pages="9", context=Context())
    assert caught.value.code == "invalid_pages"


def _many_annotations(count: int) -> bytes:
    """``count`` notes over three pages, each with a long comment (so that few fit a call)."""
    b = PdfBuilder()
    for page in range(3):
        ref = b.add_page(b"")
        b.get(ref)["Annots"] = [
            b.add(
                {
                    "Type": "/Annot",
                    "Subtype": "/Text",
                    "Rect": [10 + n, 10, 30 + n, 30],
                    "Contents": f"note {page}-{n} " + "x" * 150,
                }
            )
            for n in range(count // 3)
        ]
    return b.build()


def test_small_budgets_walk_every_annotation_once(annotated: bytes) -> None:
    everything = get_annotations(annotated, context=Context(), max_chars=1_000_000)
    assert everything["next_cursor"] is None
    annotations, files = _all(annotated, max_chars=1_000)
    assert annotations == everything["annotations"]
    assert files == everything["embedded_files"]

    data = _many_annotations(60)
    first = get_annotations(data, context=Context(), max_chars=2_000)
    assert first["next_cursor"] is not None
    assert first["omitted"]["annotations"] == 60 - len(first["annotations"])
    annotations, _ = _all(data, max_chars=2_000)
    ids = [a["id"] for a in annotations]
    assert len(ids) == len(set(ids)) == 60
    assert ids == [f"p{p}-a{n}" for p in range(1, 4) for n in range(1, 21)]
    # The same walk with a filter: the kinds stay with the cursor.
    filtered, _ = _all(annotated, max_chars=1_000, kinds="link,embedded_file")
    assert [a["id"] for a in filtered] == ["p1-a1", "p1-a2", "p1-a3", "p3-a1"]


def test_a_cursor_of_other_arguments_is_refused(annotated: bytes) -> None:
    data = _many_annotations(60)
    first = get_annotations(data, context=Context(), max_chars=2_000)
    with pytest.raises(PdfthinError) as caught:
        get_annotations(
            data, context=Context(), max_chars=2_000, kinds="link", cursor=first["next_cursor"]
        )
    assert caught.value.code == "invalid_cursor"


# --- hostile files --------------------------------------------------------------------------


def _page_with(annots: Callable[[PdfBuilder], Any], **extra: Any) -> bytes:
    """One page of text whose /Annots is what ``annots`` builds."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    ref = b.add_page(b"BT /F1 12 Tf 72 700 Td (Plain words) Tj ET", {"Font": {"F1": font}})
    b.get(ref)["Annots"] = annots(b)
    b.get(ref).update(extra)
    return b.build()


def _quick(data: bytes, **kwargs: Any) -> dict[str, Any]:
    started = time.process_time()
    response = get_annotations(data, context=Context(), **kwargs)
    assert time.process_time() - started < QUICK_SECONDS
    return dict(response)


def _cyclic_annots(b: PdfBuilder) -> Any:
    array = b.reserve()
    note = b.add({"Type": "/Annot", "Subtype": "/Text", "Rect": [1, 1, 9, 9], "Contents": "x"})
    b.set(array, [array, note, array, note])
    return array


def _cyclic_parents(b: PdfBuilder) -> Any:
    mark, popup = b.reserve(), b.reserve()
    b.set(
        mark,
        {
            "Type": "/Annot",
            "Subtype": "/Highlight",
            "Rect": [70, 695, 150, 712],
            "Popup": popup,
            "Parent": mark,
            "IRT": mark,
        },
    )
    b.set(popup, {"Type": "/Annot", "Subtype": "/Popup", "Parent": mark, "Rect": [0, 0, 1, 1]})
    return [mark, popup]


def test_cyclic_and_shared_annots_are_read_once() -> None:
    response = _quick(_page_with(_cyclic_annots))
    assert [a["id"] for a in response["annotations"]] == ["p1-a1"]
    response = _quick(_page_with(_cyclic_parents))
    assert [a["kind"] for a in response["annotations"]] == ["highlight"]
    assert response["annotations"][0]["text"] == "Plain words"


@pytest.mark.parametrize(
    "value",
    [{"Subtype": "/Link"}, 7, "/Annots", b"a string", [1, 2.5, "/Name", None, True]],
    ids=["dict", "number", "name", "string", "array-of-non-dicts"],
)
def test_annots_that_are_not_an_array_of_dictionaries_list_nothing(value: Any) -> None:
    response = _quick(_page_with(lambda b: value))
    assert response["annotations"] == [] and response["total_annotations"] == 0


def test_annots_as_a_stream_lists_nothing() -> None:
    response = _quick(_page_with(lambda b: b.add(Stream(b"[1 0 R]", {}))))
    assert response["annotations"] == []


def test_a_huge_annots_array_is_cut_and_said_so() -> None:
    over = MAX_PAGE_ANNOTATIONS + 5_000

    def huge(b: PdfBuilder) -> Any:
        note = b.add({"Type": "/Annot", "Subtype": "/Square", "Rect": [1, 1, 2, 2]})
        return [note] * over

    response = _quick(_page_with(huge), max_chars=5_000)
    # The same object listed over and over is one annotation.
    assert response["total_annotations"] == 1
    assert any(str(over) in p and str(MAX_PAGE_ANNOTATIONS) in p for p in response["problems"])

    def distinct(b: PdfBuilder) -> Any:
        return [
            b.add({"Type": "/Annot", "Subtype": "/Square", "Rect": [1, 1, 2, 2]})
            for _ in range(MAX_PAGE_ANNOTATIONS + 10)
        ]

    response = _quick(_page_with(distinct), max_chars=5_000)
    assert response["total_annotations"] == MAX_PAGE_ANNOTATIONS
    assert response["next_cursor"] is not None


def test_pages_sharing_one_long_annots_array_share_one_budget() -> None:
    """Each page lists the same 10,000 entries: read page after page, they would cost pages x
    entries; one budget for the document stops the reading and says so."""
    pages = MAX_DOCUMENT_STEPS // 10_000 + 50
    b = PdfBuilder()
    link = b.add({"Type": "/Annot", "Subtype": "/Link", "Rect": [0, 0, 10, 10]})
    shared = b.add([link] * 10_000)
    for _ in range(pages):
        b.add_page(None, None, extra={"Annots": shared})
    response = _quick(b.build(), max_chars=5_000)
    # A page's one link (listed 10,000 times) is read on each page the budget reaches.
    assert 0 < response["total_annotations"] < pages
    assert any("the document's annotations" in p for p in response["problems"])


@pytest.mark.parametrize(
    "rect",
    [b"0 0 10 10", [1, 2, 3], [1, 2, 3, 4, 5], ["/A", 1, 2, 3], {"x": 1}, [True, 1, 2, 3], 5],
)
def test_a_rect_of_the_wrong_type_gives_no_box(rect: Any) -> None:
    data = _page_with(lambda b: [b.add({"Type": "/Annot", "Subtype": "/Stamp", "Rect": rect})])
    (stamp,) = _quick(data)["annotations"]
    assert stamp["kind"] == "stamp" and "bbox" not in stamp


@pytest.mark.parametrize(
    ("quads", "boxes"),
    [
        ([1, 2, 3], 0),
        ([1, 2, 3, 4, 5, 6, 7, "/x"], 0),
        (b"garbage", 0),
        ({"a": 1}, 0),
        ([[1, 2], [3, 4]], 0),
        # Numbers past any page's extent are runaway values, not a box.
        ([1e30] * 8, 0),
        (list(range(8 * 5_000)), MAX_QUADS),
    ],
    ids=["short", "name-inside", "string", "dict", "nested", "huge-numbers", "too-many"],
)
def test_quadpoints_garbage_gives_a_result(quads: Any, boxes: int) -> None:
    def annots(b: PdfBuilder) -> Any:
        return [
            b.add(
                {
                    "Type": "/Annot",
                    "Subtype": "/Highlight",
                    "Rect": [70, 695, 150, 712],
                    "QuadPoints": quads,
                }
            )
        ]

    (mark,) = _quick(_page_with(annots), max_chars=500_000)["annotations"]
    assert mark["kind"] == "highlight"
    assert len(mark.get("quads", [])) == boxes
    if not boxes:
        # Without quads, the rectangle says what is covered.
        assert mark["text"] == "Plain words"


def test_an_annotation_pypdf_cannot_parse_is_reported() -> None:
    """Past pypdf's own limits (an array of more than 100,000 numbers, a number of hundreds
    of digits) the object cannot be read: it is left out and the answer says so."""
    for quads in ([1e300] * 8, [0] * 100_001):

        def annots(b: PdfBuilder, quads: Any = quads) -> Any:
            return [
                b.add({"Type": "/Annot", "Subtype": "/Highlight", "QuadPoints": quads}),
                b.add({"Type": "/Annot", "Subtype": "/Stamp", "Rect": [1, 1, 9, 9]}),
            ]

        response = _quick(_page_with(annots))
        assert [a["kind"] for a in response["annotations"]] == ["stamp"]
        assert response["problems"] == [
            "page 1: an annotation cannot be read: its object is broken"
        ]


@pytest.mark.parametrize("uri", [42, {"URI": "x"}, ["http://a"], "/Name", None])
def test_a_uri_that_is_not_a_string_is_left_out(uri: Any) -> None:
    data = _page_with(
        lambda b: [
            b.add(
                {
                    "Type": "/Annot",
                    "Subtype": "/Link",
                    "Rect": [1, 1, 9, 9],
                    "A": {"S": "/URI", "URI": uri},
                }
            )
        ]
    )
    (link,) = _quick(data)["annotations"]
    assert link["action"] == "uri" and "uri" not in link


def test_wrong_types_in_every_entry_give_a_result() -> None:
    wrong: dict[str, Any] = {
        "Contents": 12,
        "T": {"a": 1},
        "Subj": ["x"],
        "M": 20240101,
        "CreationDate": 3,
        "Name": b"not a name",
        "QuadPoints": "/Q",
        "Dest": 5,
        "A": [1, 2],
        "FS": 7,
        "Popup": 8,
    }

    def annots(b: PdfBuilder) -> Any:
        kinds = ["/Link", "/Text", "/Highlight", "/FreeText", "/Stamp", "/FileAttachment", "/Ink"]
        out = [b.add({"Type": "/Annot", "Subtype": k, **wrong}) for k in kinds]
        out.append(b.add({"Type": "/Annot", "Subtype": 42, "Rect": [1, 1, 2, 2]}))
        out.append(b.add({"Type": "/Annot", "Subtype": "/Link", "Dest": "no-such-name"}))
        out.append(
            b.add({"Type": "/Annot", "Subtype": "/Link", "A": {"S": "/GoTo", "D": [999, "/Fit"]}})
        )
        out.append(b.add({"Type": "/Annot", "Subtype": "/FileAttachment", "FS": {"EF": {"F": 3}}}))
        return out

    response = _quick(_page_with(annots))
    listed = response["annotations"]
    # The subtype that is not a name is not an annotation pdfthin can name: left out.
    assert [a["kind"] for a in listed] == [
        "link",
        "comment",
        "highlight",
        "free_text",
        "stamp",
        "file_attachment",
        "ink",
        "link",
        "link",
        "file_attachment",
    ]
    for a in listed:
        assert not {"contents", "author", "subject", "modified", "created", "icon"} & set(a)
    assert listed[7]["action"] == "goto" and "target_page" not in listed[7]
    assert listed[7]["target_problem"]
    assert "target_page" not in listed[8] and listed[8]["target_problem"]
    assert "file_size" not in listed[9]


def test_long_texts_are_cut_and_said_so() -> None:
    data = _page_with(
        lambda b: [
            b.add(
                {
                    "Type": "/Annot",
                    "Subtype": "/Text",
                    "Rect": [1, 1, 9, 9],
                    "Contents": "y" * (MAX_TEXT_CHARS * 50),
                }
            )
        ]
    )
    (note,) = _quick(data, max_chars=100_000)["annotations"]
    assert len(note["contents"]) == MAX_TEXT_CHARS and note["truncated"] is True


def test_a_cyclic_embedded_files_tree_is_read_once() -> None:
    b = PdfBuilder()
    b.add_page(b"")
    tree = b.reserve()
    spec = {"Type": "/Filespec", "F": "x.txt"}
    b.set(tree, {"Kids": [tree, tree], "Names": [b"x.txt", spec]})
    b.catalog["Names"] = {"EmbeddedFiles": tree}
    response = _quick(b.build())
    assert [f["name"] for f in response["embedded_files"]] == ["x.txt"]


# --- real files ---------------------------------------------------------------------------------


def _pypdf_annotations(f: CorpusFile) -> tuple[int, int]:
    """(annotations pdfthin lists, links among them), counted with pypdf's public API."""
    from pypdf import PdfReader
    from pypdf.generic import IndirectObject

    reader = PdfReader(f.path)
    if reader.is_encrypted:
        reader.decrypt(f.password or "")
    listed = links = 0
    for page in reader.pages:
        annots = page.get("/Annots")
        seen: set[int] = set()
        for ref in annots.get_object() if annots is not None else []:
            # An object listed twice is one annotation.
            if isinstance(ref, IndirectObject):
                if ref.idnum in seen:
                    continue
                seen.add(ref.idnum)
            subtype = ref.get_object().get("/Subtype")
            if subtype in ("/Popup", "/Widget") or subtype is None:
                continue
            listed += 1
            links += subtype == "/Link"
    return listed, links


ANNOTATED = [f for f in corpus_files() if {"annotations", "attachment", "arxiv"} & f.tags]


@pytest.mark.parametrize("f", corpus_params(ANNOTATED))
def test_corpus_files_list_what_pypdf_counts(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    annotations, files = _all(f.path.read_bytes(), password=f.password, max_chars=20_000)
    listed, links = _pypdf_annotations(f)
    assert len(annotations) == listed
    assert sum(a["kind"] == "link" for a in annotations) == links
    ids = [a["id"] for a in annotations]
    assert len(ids) == len(set(ids))
    if "annotations" in f.tags:
        assert annotations
    if "attachment" in f.tags:
        assert files or any(a["kind"] == "file_attachment" for a in annotations)
    response = get_annotations(f.path.read_bytes(), password=f.password, context=Context())
    pages = response["document"]["page_count"]
    for a in annotations:
        if "target_page" in a:
            assert 1 <= a["target_page"] <= pages
    # hyperref's links in a paper sit on text: most of them have an anchor.
    in_text = [a for a in annotations if a["kind"] == "link"]
    if len(in_text) >= 20:
        assert sum(bool(a.get("text")) for a in in_text) >= 0.8 * len(in_text)
