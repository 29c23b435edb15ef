"""``list_images`` and ``get_image``: the pictures of a document, and one picture's bytes.

Image ids
---------
An id names one placement of an image on a page and is derived from the file alone, so it is
the same in every call and every process for the same bytes:

- ``p{page}-x{object}`` for an image XObject (``p{page}-x{object}.{generation}`` when the
  generation is not 0), e.g. ``p3-x12``. When the page draws the same object again, the
  later placements are ``p3-x12-2``, ``p3-x12-3``, ... in drawing order. The same object on
  another page keeps its object number: ``p9-x12`` is the same picture as ``p3-x12``.
- ``p{page}-i{n}`` for the n-th inline image (``BI ... ID ... EI``) the page draws.
- ``p{page}-d{n}`` for the n-th image XObject that is not an indirect object (invalid PDF,
  read where possible).

Decorative images
-----------------
An image is flagged ``decorative`` when the same picture (same object, or the same stored
bytes written again) is drawn on at least :data:`REPEATED_PAGES` pages, or on every page of a
document of two pages or more (logos, letterheads, page backgrounds), or when it is tiny on
the page (rules, bullets, spacers). Agents can skip those.

What ``get_image`` returns
--------------------------
JPEG and JPEG 2000 as stored; Flate, LZW, RunLength, ASCII and unfiltered samples re-encoded
as PNG in pure Python; CCITT fax data as PNG when Pillow is installed, else as a TIFF that
wraps the stored bytes; JBIG2 as a JBIG2 file wrapping the stored segments.
"""

from __future__ import annotations

import base64
import math
import random
import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pdfthin.engine import EngineDocument, ImagePlacement, image_facts
from pdfthin.errors import PdfthinError, shown
from pdfthin.model.figures import is_tiny, placement_ids
from pdfthin.model.images import render_image
from pdfthin.model.sections import (
    Section,
    by_page,
    holds,
    image_offset,
    innermost,
    section_tree,
)
from pdfthin.operations import cursor as cur
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.paging import Pager, fill
from pdfthin.operations.params import (
    EXCLUDE,
    IMAGE_SECTION,
    IMAGE_SEED,
    MAX_BYTES,
    MAX_MAX_BYTES,
    MAX_SEED,
    budget,
)
from pdfthin.operations.response import (
    TITLE_SOURCES,
    bbox,
    document_ref,
    document_summary,
    size,
)
from pdfthin.operations.sections import section_span
from pdfthin.operations.unreadable import report
from pdfthin.pages import format_pages, parse_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import (
        ImageChoice,
        ImageEntry,
        ImageFile,
        ImageResponse,
        ImagesAfter,
        ImagesResponse,
        ImagesSection,
        Rendered,
        Selection,
    )

#: Drawn on this many pages or more: decorative.
REPEATED_PAGES = 3
#: Decimals of an image's box (a tenth of a point).
BOX_PLACES = 1
#: Room for ``omitted`` beside the cursor (whose longest form is measured).
_RESERVE = 240
_ID = re.compile(
    r"^p(\d{1,7})-(?:x(\d{1,10})(?:\.(\d{1,5}))?|i(\d{1,6})|d(\d{1,6}))(?:-(\d{1,6}))?$"
)
#: A resource name as an alias of an id: ``/Im1`` (when it names one picture in the whole
#: document) or ``p3/Im1`` (on page 3).
_ALIAS = re.compile(r"^(?:p(\d{1,7}))?(/[^\s/()<>\[\]{}%]{1,127})$")
_DERIVED_KEY = "images.catalogue"


@dataclass(frozen=True, slots=True)
class _Entry:
    id: str
    page: int
    placement: ImagePlacement
    facts_index: int  # index into the catalogue's list of distinct pictures


@dataclass(slots=True)
class _Catalogue:
    pages: list[list[_Entry]]  # entries per page (index 0 = page 1)
    #: Per distinct picture: facts, and the pages it is drawn on.
    pictures: list[dict[str, Any]]
    #: Decorative placements per page, counted the first time a listing needs them (every
    #: listing reports the count of its whole selection; counting it anew each time would
    #: cost a walk of every placement per call).
    decorative: dict[int, int] = field(default_factory=dict)


# --- list_images ----------------------------------------------------------------------------


def list_images(
    document: Source,
    *,
    section: str | None = None,
    pages: str | int | None = None,
    max_chars: int | None = None,
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> ImagesResponse:
    """Every image placement in the selected pages (``pages``, or the pages of ``section``,
    or the whole document), in page and drawing order, inside the character budget;
    ``next_cursor`` continues the list."""
    context = context or default_context()
    limit = budget(max_chars, context)
    if section is not None and pages is not None:
        raise PdfthinError("invalid_argument", "give section or pages, not both")
    doc = context.document(document, password)
    tree = section_tree(doc)
    chosen: Section | None = None
    if section is not None:
        first, last = section_span(doc, section)
        chosen = tree.by_id(section)
        selection = list(range(first, last + 1))
    else:
        selection = parse_pages(pages, doc.page_count)
    catalogue = _catalogue(doc, document, password, context)
    # One section per page (no outline, no headings) says nothing the page does not.
    sections_on = by_page(tree) if tree.source != "pages" else {}
    title_source = TITLE_SOURCES[tree.source]

    def wanted(number: int) -> list[int]:
        """Indexes of the page's images in the selection: all of them, or for a section
        those inside its span (as get_toc counts them)."""
        entries = catalogue.pages[number - 1]
        if chosen is None:
            return list(range(len(entries)))
        return [
            i for i in range(len(entries)) if holds(chosen, number, image_offset(doc, number, i))
        ]

    selected = {number: wanted(number) for number in selection}
    args = cur.args_digest(op="images", pages=format_pages(selection), section=section)
    pager = Pager("images", doc, args, cursor, context.cursor_key)
    remaining = selection[pager.resume_at(len(selection)) :]
    offset = pager.start.offset if pager.start is not None else 0
    if offset > len(catalogue.pages[remaining[0] - 1]):
        raise PdfthinError("invalid_cursor", "the cursor points past the page's images")

    scope: ImagesSection = {} if section is None else {"section": section}
    after: ImagesAfter = {}
    unreadable = report(doc, selection, limit)
    if unreadable:
        after["unreadable"] = unreadable
    response: ImagesResponse = {
        "document": document_summary(doc),
        "pages": format_pages(selection),
        **scope,
        "total_images": sum(len(selected[n]) for n in selection),
        "decorative_images": sum(_decorative_count(catalogue, doc, n) for n in selection)
        if chosen is None
        else sum(
            _decorative(catalogue.pages[n - 1][i], catalogue, doc)[0]
            for n in selection
            for i in selected[n]
        ),
        "images": [],
        "next_cursor": None,
        **after,
    }

    def placements() -> Iterator[tuple[int, int]]:
        """(position in ``remaining``, index in that page's images), from the cursor on."""
        for page_index, number in enumerate(remaining):
            for index in selected[number]:
                if page_index > 0 or index >= offset:
                    yield page_index, index

    def entry(at: tuple[int, int]) -> ImageEntry:
        number = remaining[at[0]]
        found = catalogue.pages[number - 1][at[1]]
        item = _listing(found, catalogue, doc)
        holder = innermost(sections_on.get(number, []), number, image_offset(doc, number, at[1]))
        if holder is not None:
            item["section"] = {
                "id": holder.id,
                "title": holder.title,
                "title_source": title_source,
            }
        return item

    room = limit - size(response) - pager.longest(len(selection), offset=True) - _RESERVE

    def lean(at: tuple[int, int], _room: int) -> tuple[ImageEntry, None]:
        """An image whose whole entry does not fit (a budget taken by a long unreadable
        report): without the keys another call gives (its section, its resource name, how
        many pages repeat it, why it looks decorative)."""
        item = entry(at)
        for key in ("section", "name", "pages_with_image", "decorative_reason"):
            item.pop(key, None)  # type: ignore[misc]
        return item, None

    stop = fill(response["images"], placements(), entry, room, split=lean)
    if stop is not None:
        page_index, index = stop.item
        rest = remaining[page_index:]
        left = sum(len(selected[n]) for n in rest) - sum(1 for i in selected[rest[0]] if i < index)
        response["next_cursor"] = pager.cursor(len(selection) - len(rest), index)
        response["omitted"] = {
            "reason": "budget",
            "images": left,
            "message": (
                f"{left} more image(s) not in this response; call again with next_cursor "
                "to continue"
            ),
        }
    return response


def _listing(entry: _Entry, catalogue: _Catalogue, doc: Document) -> ImageEntry:
    p = entry.placement
    facts = catalogue.pictures[entry.facts_index]
    item: ImageEntry = {
        "id": entry.id,
        "page": entry.page,
        "bbox": bbox(p.bbox, BOX_PLACES),
        "width": p.width,
        "height": p.height,
        "bits_per_component": p.bits_per_component,
        "color_space": facts["color_space"],
        "format": facts["format"],
        "bytes": facts["bytes"],
    }
    if p.inline:
        item["inline"] = True
    elif p.name:
        item["name"] = p.name
    if p.image_mask:
        item["image_mask"] = True
    if facts["soft_mask"]:
        item["soft_mask"] = True
    repeats = len(facts["pages"])
    if repeats > 1:
        item["pages_with_image"] = repeats
    decorative, reason = _decorative(entry, catalogue, doc)
    if decorative:
        item["decorative"] = True
        item["decorative_reason"] = reason
    return item


def _decorative_count(catalogue: _Catalogue, doc: Document, page: int) -> int:
    count = catalogue.decorative.get(page)
    if count is None:
        count = sum(1 for e in catalogue.pages[page - 1] if _decorative(e, catalogue, doc)[0])
        catalogue.decorative[page] = count
    return count


def _decorative(entry: _Entry, catalogue: _Catalogue, doc: Document) -> tuple[bool, str]:
    repeats = len(catalogue.pictures[entry.facts_index]["pages"])
    x0, y0, x1, y1 = entry.placement.bbox
    if repeats >= REPEATED_PAGES or (repeats == doc.page_count and repeats >= 2):
        page = doc.page(entry.page)
        covers = (x1 - x0) * (y1 - y0) >= 0.5 * page.width * page.height
        # A page-sized picture on a page without a text layer is the page itself (a scan
        # repeated in the file), not decoration.
        if not (covers and page.status != "text"):
            return True, f"the same image is drawn on {repeats} pages"
    if is_tiny(entry.placement):
        return True, "tiny on the page"
    return False, ""


def _catalogue(
    doc: Document, document: Source, password: str | None, context: Context
) -> _Catalogue:
    """Ids, facts and repetition for every image of the document; built once and kept with
    the cached document."""
    cached = doc.derived.get(_DERIVED_KEY)
    if isinstance(cached, _Catalogue):
        return cached
    with ExitStack() as stack:

        def open_engine() -> EngineDocument:
            # The file is read only when an image needs its stored facts.
            data = stack.enter_context(context.data(document, doc.fingerprint))
            return stack.enter_context(context.engine(data, password))

        catalogue = _make_catalogue(doc, open_engine)
    doc.derived[_DERIVED_KEY] = catalogue
    return catalogue


def _make_catalogue(doc: Document, open_engine: Callable[[], EngineDocument]) -> _Catalogue:
    engine: EngineDocument | None = None
    pictures: list[dict[str, Any]] = []
    by_key: dict[Any, int] = {}
    pages: list[list[_Entry]] = []
    for page in doc.pages:
        entries: list[_Entry] = []
        for image_id, placement in zip(
            placement_ids(page.number, page.images), page.images, strict=True
        ):
            key: Any = placement.ref if placement.ref is not None else None
            index = by_key.get(key) if key is not None else None
            if index is None:
                if engine is None:
                    engine = open_engine()
                facts = image_facts(engine, placement, page.number)
                index = by_key.get(facts.content_key)
                if index is None:
                    index = len(pictures)
                    pictures.append(
                        {
                            "format": facts.stored_format,
                            "bytes": facts.stored_bytes,
                            "color_space": facts.color_space,
                            "soft_mask": facts.soft_mask,
                            "pages": set(),
                        }
                    )
                    by_key[facts.content_key] = index
                if key is not None:
                    by_key[key] = index
            pictures[index]["pages"].add(page.number)
            entries.append(_Entry(image_id, page.number, placement, index))
        pages.append(entries)
    return _Catalogue(pages=pages, pictures=pictures)


def _by_name(doc: Document, name: str, page: int) -> tuple[int, str]:
    """The page and id of the image a resource name stands for, on ``page`` (0: anywhere). A
    name may be placed many times; it stands for one image when every placement it names
    draws the same picture (the first placement is answered), else ``invalid_argument``
    listing the ids to choose from."""
    if page and not 1 <= page <= doc.page_count:
        raise PdfthinError("not_found", f"no page {page} in this document", id=f"p{page}{name}")
    found: list[tuple[int, str, tuple[int, int] | None]] = []
    for number in [page] if page else range(1, doc.page_count + 1):
        images = doc.page(number).images
        for image_id, placement in zip(placement_ids(number, images), images, strict=True):
            if placement.name == name and not placement.inline:
                found.append((number, image_id, placement.ref))
    if not found:
        where = f"on page {page}" if page else "in this document"
        raise PdfthinError(
            "not_found",
            f"no image named {name} {where} (list_images gives the ids and names)",
            id=name,
        )
    if len({ref for _, _, ref in found}) > 1:
        ids = ", ".join(image_id for _, image_id, _ in found[:8])
        raise PdfthinError(
            "invalid_argument",
            f"{name} names {len(found)} different images ({ids}{', …' if len(found) > 8 else ''}); "
            "give an id, or the page as p3/Im1",
            id=name,
        )
    return found[0][0], found[0][1]


# --- get_image ------------------------------------------------------------------------------


def get_image(
    document: Source,
    image_id: str,
    *,
    section: str | None = None,
    exclude: str | None = None,
    seed: int | None = None,
    max_bytes: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> ImageResponse:
    """One image as a file, base64-encoded. ``max_bytes`` bounds the base64 text (default
    5 MB); a larger image is ``too_large``. ``image_id="random"`` chooses one (see
    :func:`image_file`)."""
    limit: int = MAX_BYTES.value(max_bytes)
    content, info = image_file(
        document,
        image_id,
        section=section,
        exclude=exclude,
        seed=seed,
        max_bytes=MAX_MAX_BYTES,
        password=password,
        context=context,
    )
    encoded_size = 4 * math.ceil(len(content) / 3)
    if encoded_size > limit:
        raise PdfthinError(
            "too_large",
            f"image {image_id} is {len(content)} bytes ({encoded_size} in base64); "
            f"max_bytes is {limit}",
            id=image_id,
            bytes=len(content),
            base64_bytes=encoded_size,
            max_bytes=limit,
        )
    return {**info, "encoding": "base64", "data": base64.b64encode(content).decode("ascii")}


def image_file(
    document: Source,
    image_id: str,
    *,
    section: str | None = None,
    exclude: str | None = None,
    seed: int | None = None,
    max_bytes: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> tuple[bytes, ImageFile]:
    """The image's file bytes and its description (everything ``get_image`` returns but the
    data). ``max_bytes`` bounds the file's size here. ``image_id="random"`` chooses one of
    the images that are not decorative (of ``section``, without the ids in ``exclude``) with
    ``seed`` (one is drawn and answered when not given), and says so in ``selection``."""
    context = context or default_context()
    limit: int = MAX_BYTES.value(max_bytes)
    text = image_id.strip() if isinstance(image_id, str) else ""
    section = IMAGE_SECTION.value(section)
    exclude = EXCLUDE.value(exclude)
    seed = IMAGE_SEED.value(seed)
    selection: Selection | None = None
    if text != RANDOM and (section, exclude, seed) != (None, None, None):
        raise PdfthinError(
            "invalid_argument", "section, exclude and seed choose an image only with 'random'"
        )
    if text == RANDOM:
        doc = context.document(document, password)
        text, selection = _random(doc, document, password, context, section, exclude, seed)
    match = _ID.match(text)
    alias = None if match else _ALIAS.match(text)
    if match is None and alias is None:
        raise PdfthinError(
            "invalid_argument",
            f"{shown(image_id)} is not an image id (ids look like 'p3-x12' or 'p1-i1'; "
            "list_images gives them; a resource name such as '/Im1' or 'p3/Im1' is taken too)",
        )
    doc = context.document(document, password)
    if alias is not None:
        page, image_id = _by_name(doc, alias.group(2), int(alias.group(1) or 0))
    else:
        page, image_id = int(match.group(1)) if match else 0, text
    placement = None
    if 1 <= page <= doc.page_count:
        images = doc.page(page).images
        for candidate_id, candidate in zip(placement_ids(page, images), images, strict=True):
            if candidate_id == image_id:
                placement = candidate
                break
    if placement is None:
        raise PdfthinError(
            "not_found",
            f"no image {image_id} in this document (list_images gives the ids)",
            id=image_id,
        )
    with context.data(document, doc.fingerprint) as data, context.engine(data, password) as engine:
        rendered = render_image(engine, placement, page)
    content = rendered.content
    info: Rendered = {
        "stored_format": rendered.stored_format,
        "width": rendered.width,
        "height": rendered.height,
        "media_type": rendered.media_type,
        "format": rendered.format,
        "extension": rendered.extension,
    }
    if rendered.notes:
        info["notes"] = rendered.notes
    if len(content) > limit:
        raise PdfthinError(
            "too_large",
            f"image {image_id} is {len(content)} bytes; the limit is {limit}",
            id=image_id,
            bytes=len(content),
            max_bytes=limit,
        )
    chosen: ImageChoice = {} if selection is None else {"selection": selection}
    response: ImageFile = {
        "document": document_ref(doc),
        "id": image_id,
        "page": page,
        **info,
        "bytes": len(content),
        **chosen,
    }
    return content, response


#: The ``image_id`` that asks for an image chosen at random.
RANDOM = "random"


def _random(
    doc: Document,
    document: Source,
    password: str | None,
    context: Context,
    section: str | None,
    exclude: str | None,
    seed: int | None,
) -> tuple[str, Selection]:
    """The id of an image chosen at random among those that are not decorative (in
    ``section``, without ``exclude``), and how it was chosen."""
    catalogue = _catalogue(doc, document, password, context)
    chosen: Section | None = None
    if section is not None:
        section_span(doc, section)  # not_found for an unknown or unlocated section
        chosen = section_tree(doc).by_id(section)
    left_out = {part.strip() for part in (exclude or "").split(",") if part.strip()}
    candidates = [
        entry.id
        for entries in catalogue.pages
        for index, entry in enumerate(entries)
        if entry.id not in left_out
        and not _decorative(entry, catalogue, doc)[0]
        and (chosen is None or holds(chosen, entry.page, image_offset(doc, entry.page, index)))
    ]
    if not candidates:
        where = f" in section {section}" if section else ""
        raise PdfthinError(
            "not_found",
            f"no image to choose from{where}: every image is decorative or excluded",
            section=section,
        )
    if seed is None:
        seed = secrets.randbelow(MAX_SEED)
    pick = random.Random(seed).choice(candidates)
    return pick, {"random": True, "seed": seed, "candidates": len(candidates)}
