"""What every operation answers, as types: the handlers build these, and the output schemas the
transports advertise are derived from them (:mod:`.schema`), so the two cannot disagree.

A key present in every answer is declared in a class with the default totality; a key present
only sometimes, in a ``total=False`` subclass (Python 3.10 has no ``NotRequired``).
``Annotated[T, "..."]`` gives a key its description in the schema.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

# --- pieces shared by several answers -----------------------------------------------------------


class DocumentRef(TypedDict):
    fingerprint: Annotated[str, "SHA-256 of the file's bytes, hex"]
    page_count: int


class TitleMetadata(TypedDict):
    title: Annotated[str | None, "the file's metadata title, not page text"]


class DocumentSummary(DocumentRef):
    metadata: TitleMetadata


DOCUMENT_NOTE = (
    "fingerprint (SHA-256 of the file) and page_count; metadata.title, where given, is the "
    "file's metadata, not page text"
)


class UnreadableReport(TypedDict):
    count: int
    pages: Annotated[str, "compact ranges, cut at 80 characters (ending in …)"]
    reasons: Annotated[dict[str, str], "{reason_code: pages}"]
    message: str


UNREADABLE_NOTE = (
    "present when pages in this answer's scope could not be read (they need OCR, or were "
    "read only in part): count, pages, reasons {reason_code: pages}, message. Their text is "
    "missing from the answer, not absent from the document."
)
NEXT_CURSOR_NOTE = "null when nothing is left; else pass it as cursor to continue"


class BBox(TypedDict):
    """A box in points, origin at the top left of the page as displayed (after its /Rotate
    and crop box), y down."""

    x0: float
    y0: float
    x1: float
    y1: float


class Part(TypedDict):
    start: int
    end: int
    total: int


# --- the reading ledger (read_pages, ledger, describe_document) ---------------------------------


class LedgerCounts(TypedDict):
    delivered: int
    partial: int
    not_delivered: int
    unreadable: int


class _PartialPage(TypedDict):
    page: int
    end: Annotated[int, "characters of the page's Markdown delivered, from its start"]


class PartialPage(_PartialPage, total=False):
    total: Annotated[int, "characters of the page's Markdown"]


class _Ledger(TypedDict):
    delivered: Annotated[
        str, "pages whose Markdown was delivered whole and readable (compact ranges; … when cut)"
    ]
    not_delivered: Annotated[str, "pages not delivered at all (compact ranges; … when cut)"]
    counts: Annotated[LedgerCounts, "how many pages each list holds (whole numbers, never cut)"]
    exact: Annotated[
        bool,
        "false when the cursors could not carry every page delivered: those pages are counted "
        "as not delivered (the ledger never claims more than was delivered)",
    ]


class Ledger(_Ledger, total=False):
    partial: Annotated[
        list[PartialPage], "pages the budget cut: delivered up to character end (a few listed)"
    ]
    unreadable: Annotated[
        dict[str, str],
        "{reason_code: pages}: pages whose entry came but whose text could not be read (they "
        "need OCR, or were read only in part); never counted as delivered",
    ]
    note: str


LEDGER_NOTE = (
    "what this chain of cursors has delivered so far, for the whole document: delivered, "
    "partial (cut by the budget), not_delivered, unreadable (need OCR or read in part), counts"
)


class Metadata(TypedDict, total=False):
    """The file's own metadata (not page text); empty fields are left out."""

    title: str
    author: str
    subject: str
    keywords: str
    creator: str
    producer: str
    created: str
    modified: str
    pdf_version: str
    encrypted: bool
    tagged: bool


# --- describe_document --------------------------------------------------------------------------


class PageStatuses(TypedDict, total=False):
    text: str
    empty: str
    needs_ocr: str
    ocr: Annotated[
        str,
        "pages without a text layer the agent transcribed (submit_transcription): they read "
        "as status 'ocr', provenance 'agent'",
    ]
    not_read: Annotated[str, "pages not read yet: their status is not known (see 'read')"]
    needs_ocr_reasons: Annotated[dict[str, str], "{reason_code: pages} of the needs_ocr pages"]


class TokenEstimate(TypedDict):
    total: int
    per_page_max: int
    per_page_mean: int
    method: str


class _OcrBound(TypedDict):
    bound: bool


class OcrCapability(_OcrBound, total=False):
    provider: str
    dpi: int


class _EngineAlways(TypedDict):
    engine: Annotated[Literal["pure", "native"], "which engine answered"]
    native_mode: Annotated[str, "the native switch: auto, require or off"]
    pdfthin: str
    pypdf: str
    pypdf_tested: Annotated[str, "the pypdf releases the suite runs against"]
    pypdf_in_tested_range: bool


class EngineCapability(_EngineAlways, total=False):
    native: Annotated[str, "pdfthin-native's version, when it answered"]
    native_unavailable: Annotated[str, "why the native engine is not answering"]


class Capabilities(TypedDict):
    ocr: OcrCapability
    engine: Annotated[EngineCapability, "which engine answered and the versions it runs on"]


class LabelSpan(TypedDict):
    first: str
    last: str


class HiddenSummary(TypedDict):
    runs: int
    pages: str
    message: str


class _PagesRead(TypedDict):
    pages: Annotated[str, "the pages read so far, as compact ranges (cut when long)"]
    count: int
    complete: Annotated[bool, "every page was read: the page facts cover the whole document"]


class PagesRead(_PagesRead, total=False):
    message: str


class _Describe(TypedDict):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    type: Literal["text", "scanned", "mixed"]
    pages: Annotated[PageStatuses, "page statuses as compact ranges"]
    metadata: Metadata
    has_outline: bool
    estimated_tokens: TokenEstimate
    capabilities: Capabilities
    read: Annotated[PagesRead, "the pages the page facts come from"]


class BorderlinePage(TypedDict):
    page: int
    status: str
    reason_code: str
    confidence: Annotated[float, "how sure the status is: 0.5 a coin toss, 1 certain"]
    evidence: Annotated[list[str], "the measurements and thresholds the status rests on"]


class Borderline(TypedDict):
    count: int
    pages: Annotated[list[BorderlinePage], "the least sure first, at most 20"]


class Transcribed(TypedDict):
    """Who read the pages under ``pages.ocr`` (the agent)."""

    provenance: Literal["agent"]
    message: str


class DescribeResponse(_Describe, total=False):
    borderline: Annotated[
        Borderline,
        "pages whose status is not clear-cut (a scan with a few words of text layer, a page "
        "read in part): decide from it whether to OCR them; absent when every page is clear",
    ]
    page_labels: Annotated[LabelSpan, "the file's page labels, not page text"]
    hidden_text: HiddenSummary
    recovered: str
    problems: list[str]
    transcribed: Transcribed
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]
    ledger: Annotated[
        Ledger,
        "the reading ledger before anything is read: every page not delivered, the pages "
        "known so far to be unreadable apart",
    ]


# --- get_info -----------------------------------------------------------------------------------


class PageSize(TypedDict):
    pages: str
    width: float
    height: float
    rotation: int
    unit: Literal["pt"]


class Forms(TypedDict):
    fields: int
    xfa: bool


class _Info(TypedDict):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    metadata: Metadata
    page_sizes: list[PageSize]
    outline_entries: int
    images: Annotated[int, "images placed on the pages read (see 'read')"]
    forms: Forms
    attachments: Annotated[list[str], "attachment names: the file's, not page text"]
    links: int
    annotations: int
    read: Annotated[PagesRead, "the pages the image count comes from"]


class InfoResponse(_Info, total=False):
    page_labels: Annotated[list[str], "the file's page labels, not page text"]
    recovered: str
    problems: list[str]
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]


# --- read_pages ---------------------------------------------------------------------------------


class HiddenPiece(TypedDict):
    reason: str
    bbox: Annotated[BBox, "where the withheld text stands (points, page as displayed)"]
    chars: int


class _Hidden(TypedDict):
    runs: int
    reasons: dict[str, int]
    pieces: list[HiddenPiece]


class HiddenReport(_Hidden, total=False):
    more_pieces: int


class PageWhy(TypedDict, total=False):
    """Why a page is not a text layer read whole, and its label: before its Markdown."""

    reason: str
    reason_code: str
    page_label: Annotated[str, "the file's page label, not page text"]


class RegionTranscription(TypedDict):
    region: Annotated[BBox, "points on the page as displayed"]
    markdown: str
    provenance: Annotated[str, "agent: submitted with submit_transcription"]


class PageExtras(TypedDict, total=False):
    part: Annotated[Part, "where this piece lies in the page's Markdown, when split"]
    hidden_text: Annotated[HiddenReport, "text withheld: each piece's reason, box and length"]
    provenance: Annotated[
        str, "where an 'ocr' page's text came from: 'agent' or the OCR provider's name"
    ]
    next_steps: Annotated[str, "a page that needs OCR: how to get its text"]
    transcriptions: Annotated[
        list[RegionTranscription],
        "regions of the page the agent transcribed (submit_transcription with a region): kept "
        "apart from the page's text, never searched",
    ]
    regions_needing_review: Annotated[list[ReviewRegion], REGIONS_NOTE]


class PageEntry(PageWhy, PageExtras):
    page: int
    status: Annotated[str, "text, empty, needs_ocr or ocr"]
    markdown: str


class _PagesOmitted(TypedDict):
    reason: Literal["budget", "max_pages"]
    pages: int
    message: str


class PagesOmitted(_PagesOmitted, total=False):
    chars: Annotated[
        int, "characters of the pages left, when every one of them has been read already"
    ]


class _ReadPages(TypedDict):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    pages: list[PageEntry]
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]


class ReadPagesResponse(_ReadPages, total=False):
    omitted: PagesOmitted
    ledger: Annotated[Ledger, LEDGER_NOTE]


# --- find_in_document ---------------------------------------------------------------------------


class PageBox(TypedDict):
    """A box on a page, in points, origin at the top left of the page as displayed (after its
    /Rotate and crop box), y down."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float


ANCHOR_NOTE = (
    "names the passage on every surface: pdfthin:<fingerprint>/p/<page>#c=<start>-<end> "
    "(/p/<page>-<end_page> when it runs on across a page break); resolve_anchor answers it"
)


class _Match(TypedDict):
    page: int
    snippet: Annotated[str, "the match in **bold** with its context"]
    start: int
    end: int
    bbox: Annotated[
        list[PageBox],
        "one box per line the match covers, in order, across a page break too (a table's box "
        "for a match in a table); empty for text recognised by OCR",
    ]


class Match(_Match, total=False):
    chunk_id: Annotated[
        str,
        "the get_chunks chunk (default arguments: max_tokens 500, stitched, whole document) "
        "holding the match start; absent for text recognised by OCR",
    ]
    end_page: int
    provenance: Annotated[
        str, "text recognised by OCR: 'agent' (submit_transcription) or the OCR provider's name"
    ]
    region: Annotated[
        BBox,
        "the match is in the agent's transcription of this region of the page "
        "(submit_transcription with a region); start and end are offsets into that "
        "transcription, not the page's text",
    ]
    page_label: Annotated[str, "the file's page label, not page text"]
    anchor: Annotated[str, ANCHOR_NOTE + "; absent for text recognised by OCR"]
    words: dict[str, int]
    word: str


class _Coverage(TypedDict):
    complete: bool
    pages_in_scope: str
    pages_searched: str
    pages_needing_ocr: str


class Coverage(_Coverage, total=False):
    pages_not_yet_searched: str
    pages_read_in_part: str
    message: str


class _Find(TypedDict):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    query: str
    match_mode: str
    matches: list[Match]
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]
    coverage: Annotated[Coverage, "which pages were searched and which could not be"]


class FindResponse(_Find, total=False):
    more: str
    note: str


# --- get_toc ------------------------------------------------------------------------------------


#: Where a section's title comes from: a bookmark, a heading in the page text, or (with
#: neither) the page's number.
TitleSource = Literal["outline", "heading", "page"]


class TocNode(TypedDict):
    id: str
    title: str
    title_source: TitleSource
    page: int | None
    children: Annotated[list[object], "the nodes of the sections under this one, same shape"]


class _TocEntry(TypedDict):
    id: str
    title: str
    title_source: Annotated[
        TitleSource, "outline: a bookmark, not page text; page: made up from the page number"
    ]
    level: int
    depth: Annotated[int, "1 at the top of the tree, 2 under it, ..."]
    page: Annotated[int | None, "null for a bookmark that points nowhere (see problem)"]


class TocEntry(_TocEntry, total=False):
    parent: Annotated[str | None, "the id of the section this one is under; null at the top"]
    end_page: int
    bbox: Annotated[
        BBox,
        "the heading's box on its page (for a bookmark: the heading found for its title; "
        "absent when none was found)",
    ]
    preview: str
    images: int
    unreadable: str
    problem: str


class _Toc(TypedDict):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    source: Annotated[
        str,
        "outline (the file's bookmarks), headings (found in the text) or pages (neither: one "
        "section per page)",
    ]
    total_sections: int
    sections: Annotated[list[TocEntry], "the flat index, in document order"]
    tree: Annotated[
        list[TocNode],
        "the same sections nested, children under their parent; a section whose parent is "
        "in another response (see its parent) is at the top here",
    ]
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]


class TocResponse(_Toc, total=False):
    problems: list[str]
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]


# --- read_section -------------------------------------------------------------------------------


class SectionInfo(TypedDict):
    id: str
    title: str
    title_source: TitleSource
    level: int
    pages: str
    breadcrumb: list[str]
    chars: int


class SectionOmitted(TypedDict):
    reason: Literal["budget"]
    chars: int
    message: str


class SectionPart(TypedDict, total=False):
    part: Annotated[Part, "where this piece lies in the section's Markdown, when split"]


class SectionAfter(TypedDict, total=False):
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]
    omitted: SectionOmitted


class SectionResponse(SectionPart, SectionAfter):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    section: SectionInfo
    markdown: str
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]


# --- peek ---------------------------------------------------------------------------------------


class ScopeTitle(TypedDict, total=False):
    """The document's metadata title (no section), or the section's title and its source."""

    metadata: TitleMetadata
    title: str
    title_source: TitleSource


class Scope(ScopeTitle):
    section: Annotated[str | None, "the section's id; null: the whole document"]
    chars: int
    pages: str


class _Peek(TypedDict):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    scope: Scope
    position: str
    seed: int | None
    start: int
    end: int
    page: int | None
    text: str


class PeekResponse(_Peek, total=False):
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]


# --- get_chunks ---------------------------------------------------------------------------------


class PageSpan(TypedDict):
    page: int
    bbox: BBox


#: What ``regions_needing_review`` says, wherever it is given.
REGIONS_NOTE = (
    "parts of a text page that geometry cannot read reliably (given only when there are "
    "some): look at the region's image (get_page_image with region) or send it to an OCR "
    "binding"
)


class ReviewRegion(TypedDict):
    bbox: Annotated[BBox, "the region on the page as displayed"]
    reason: Annotated[
        Literal["unmapped_text", "image_of_text", "table_grid_failed", "vector_drawing"],
        "glyphs without a Unicode mapping, an image with no text layer over it, a ruled "
        "grid not read as a table, a dense vector drawing with labels",
    ]
    score: Annotated[
        float, "how surely the region needs review: 0.5 at the threshold that flagged it, 1 sure"
    ]
    message: str


#: What a chunk's anchor names.
CHUNK_ANCHOR_NOTE = (
    ANCHOR_NOTE + ": the page text the chunk stands in, from where its text starts to where "
    "the next chunk's starts; absent for an unreadable page's chunk"
)


class _Chunk(TypedDict):
    chunk_id: Annotated[str, "page and order ('p12-3'): stable for the same file and arguments"]
    page: Annotated[int, "the chunk's first page (1-based)"]
    bbox: Annotated[BBox, "where the chunk stands on its first page"]
    kind: Annotated[
        str, "heading, paragraph, list, table, code, figure, caption (alone) or unreadable"
    ]
    breadcrumb: Annotated[list[str], "the titles of the headings the chunk stands under"]
    markdown: str
    text: Annotated[
        str,
        "the chunk without Markdown syntax (in a part: the piece the part's Markdown shows; "
        "the parts' texts join to the chunk's)",
    ]
    token_estimate: Annotated[int, "characters of the Markdown / 4"]
    status: Annotated[str, "the status of the chunk's first page"]
    provenance: Annotated[str, "text_layer, or ocr for a scanner's invisible OCR layer"]
    page_spans: Annotated[list[PageSpan], "page and box on each page the chunk covers"]


class ChunkEntry(_Chunk, total=False):
    part: Annotated[Part, "where this piece lies in the chunk's Markdown, when split"]
    reason_code: Annotated[str, "why the page is not a text layer read whole"]
    anchor: Annotated[str, CHUNK_ANCHOR_NOTE]
    regions_needing_review: Annotated[
        list[ReviewRegion], "the regions of its pages the chunk's box meets: " + REGIONS_NOTE
    ]


class _Chunks(TypedDict):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    chunks: list[ChunkEntry]
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]


class ChunksResponse(_Chunks, total=False):
    complete: Annotated[bool, "every chunk of the selection has been given"]
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]


# --- search_chunks ------------------------------------------------------------------------------


class _ChunkHit(TypedDict):
    chunk_id: Annotated[
        str, "the chunk as get_chunks gives it for the same pages (default max_tokens, stitch)"
    ]
    page: Annotated[int, "the chunk's first page (1-based)"]
    bbox: Annotated[
        list[PageBox],
        "one box per line where the query stands in the chunk (the phrase, else each of its "
        "words' first occurrence), in order, as find_in_document's; a few at most (none when "
        "a small budget left them out)",
    ]
    chunk_bbox: Annotated[BBox, "where the chunk stands on its first page"]
    score: Annotated[float, "BM25 with the phrase bonus; compares results of one query only"]
    snippet: Annotated[str, "the query (or its first word found) in **bold** with its context"]
    breadcrumb: Annotated[list[str], "the titles of the headings the chunk stands under"]


class ChunkHit(_ChunkHit, total=False):
    anchor: Annotated[str, CHUNK_ANCHOR_NOTE]


class _SearchChunks(TypedDict):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    query: str
    results: Annotated[list[ChunkHit], "best first"]
    total_hits: Annotated[int, "chunks holding at least one word of the query"]
    coverage: Annotated[Coverage, "which pages were searched and which could not be"]


class SearchChunksResponse(_SearchChunks, total=False):
    omitted: Annotated[str, "results of the top_k left out to fit max_chars"]
    note: str


# --- list_images --------------------------------------------------------------------------------


class _ImageEntry(TypedDict):
    id: str
    page: int
    bbox: Annotated[BBox, "where it is drawn, in points on the page as displayed"]
    width: int
    height: int
    bits_per_component: int
    color_space: str
    format: str
    bytes: int


class ImageSectionRef(TypedDict):
    id: str
    title: str
    title_source: TitleSource


class ImageEntry(_ImageEntry, total=False):
    section: Annotated[
        ImageSectionRef, "the innermost section the image stands in (its top in the span)"
    ]
    inline: bool
    name: Annotated[str, "its resource name on the page (/Im1); get_image takes it as an alias"]
    image_mask: bool
    soft_mask: bool
    pages_with_image: int
    decorative: bool
    decorative_reason: str


class ImagesOmitted(TypedDict):
    reason: Literal["budget"]
    images: int
    message: str


class ImagesSection(TypedDict, total=False):
    section: str


class ImagesAfter(TypedDict, total=False):
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]
    omitted: ImagesOmitted


class ImagesResponse(ImagesSection, ImagesAfter):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    pages: str
    total_images: int
    decorative_images: int
    images: list[ImageEntry]
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]


# --- get_image ----------------------------------------------------------------------------------


class _Rendered(TypedDict):
    stored_format: str
    width: int
    height: int
    media_type: str
    format: str
    extension: str


class Rendered(_Rendered, total=False):
    """What an image's file is."""

    notes: Annotated[list[str], "approximations, and what was left out"]


class Selection(TypedDict):
    random: bool
    seed: Annotated[int, "pass it again to choose the same image"]
    candidates: Annotated[int, "the images it was chosen among"]


class _ImageFile(Rendered):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    id: str
    page: int
    bytes: Annotated[int, "the file's size"]


class ImageChoice(TypedDict, total=False):
    selection: Annotated[Selection, "how an image asked for as 'random' was chosen"]


class ImageFile(_ImageFile, ImageChoice):
    """An image's description: everything ``get_image`` answers but its data."""


class ImageResponse(ImageFile):
    encoding: Literal["base64"]
    data: str


# --- render_citation ----------------------------------------------------------------------------


class _Citation(TypedDict):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    page: int
    region: Annotated[BBox, "the part of the page shown, in points on the page as displayed"]
    highlights: Annotated[list[BBox], "the boxes highlighted, in points on the page as displayed"]
    dpi: int
    media_type: Annotated[str, "image/png (or image/jpeg from a rasterizer that makes JPEG)"]
    width: Annotated[int, "pixels"]
    height: Annotated[int, "pixels"]
    bytes: Annotated[int, "the image file's size"]


class CitationFile(_Citation, total=False):
    """A citation's image described: everything ``render_citation`` answers but its data."""

    anchor: Annotated[str, "the passage's anchor, when it was given"]


class CitationResponse(CitationFile):
    encoding: Literal["base64"]
    data: str


# --- get_page_image and submit_transcription ---------------------------------------------------


class _PageImage(TypedDict):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    page: int
    region: Annotated[BBox, "the part of the page shown, in points on the page as displayed"]
    source: Annotated[
        Literal["embedded_image", "rasterizer"],
        "embedded_image: the page is one scanned picture, answered as stored (pure Python); "
        "rasterizer: drawn by the server's rasterizer",
    ]
    media_type: Annotated[str, "image/png or image/jpeg"]
    width: Annotated[int, "pixels"]
    height: Annotated[int, "pixels"]
    dpi: Annotated[float, "pixels per inch of the page (a scan's own resolution)"]
    rotation: Annotated[
        int,
        "degrees to turn the image clockwise to see the page as displayed (its /Rotate and "
        "how the scan is placed on the page)",
    ]
    bytes: Annotated[int, "the image file's size"]
    next_steps: Annotated[str, "what to do with the image"]


class PageImageFile(_PageImage, total=False):
    """A page's image described: everything ``get_page_image`` answers but its data."""

    image_id: Annotated[str, "the embedded picture's id (list_images, get_image)"]
    pixels: Annotated[
        BBox, "the stored picture's pixels shown: columns x0 to x1, rows y0 to y1 (top first)"
    ]
    mirrored: Annotated[
        bool,
        "only when true: the scan is placed mirrored, flip the image left to right before "
        "turning it by rotation",
    ]
    notes: list[str]


class PageImageResponse(PageImageFile):
    encoding: Literal["base64"]
    data: str


class TranscriptionResponse(TypedDict):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    page: int
    region: Annotated[BBox | None, "the region transcribed; null: the whole page"]
    chars: int
    provenance: Literal["agent"]
    status: Annotated[str, "the page's status from now on ('ocr' once transcribed whole)"]
    regions_transcribed: Annotated[int, "regions of the page transcribed so far"]
    persisted: Annotated[
        bool, "kept in the configured cache directory (PDFTHIN_OCR_CACHE_DIR), not only in memory"
    ]
    message: str


# --- get_form_fields ----------------------------------------------------------------------------

FieldKind = Literal["text", "checkbox", "radio", "choice", "signature", "button"]


class FieldWidget(TypedDict):
    page: int
    bbox: BBox


class _FormFieldEntry(TypedDict):
    name: Annotated[str, "qualified (a.b.c): the file's words, not page text"]
    kind: FieldKind
    label: Annotated[str | None, "tooltip (the file's words) or the page text beside the widget"]
    label_source: Literal["tooltip", "nearby_text"] | None
    value: Annotated[str | bool | list[str] | None, "true: a checkbox checked, or signed"]
    options: Annotated[list[str], "a choice's options; empty at the smallest budgets"]
    page: Annotated[int | None, "null: no widget"]
    bbox: BBox | None
    read_only: bool
    required: bool
    appearance_differs: Annotated[bool, "a viewer shows something else"]


class FormFieldEntry(_FormFieldEntry, total=False):
    appearance: str
    multiline: bool
    password: Annotated[bool, "its value is withheld"]
    hidden: bool
    widgets: Annotated[
        list[FieldWidget],
        "where it is shown; only the first at the smallest budgets (widget_count counts all)",
    ]
    widget_count: int


class FormFieldsOmitted(TypedDict):
    reason: Literal["budget"]
    fields: int
    message: str


class FormFieldsAfter(TypedDict, total=False):
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]
    note: str
    omitted: FormFieldsOmitted


class FormFieldsResponse(FormFieldsAfter):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    pages: str
    xfa: Annotated[bool, "the form has XFA data, which is not read"]
    total_fields: int
    fields: list[FormFieldEntry]
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]


# --- extract_schema -----------------------------------------------------------------------------

#: The tier that found a field (docs/api.md, "extract_schema").
ExtractTier = Literal["form_field", "text_pair", "key_value_table", "line_item_table"]


class _ExtractedField(TypedDict):
    value: Annotated[object, "the value as the schema's type (an ISO date for format date)"]
    raw: Annotated[object, "the text it was read from, as it stands (an array: per item)"]
    page: int
    bbox: Annotated[
        BBox | None,
        "the form field's widget, the line the value stands on, or the table it is in; "
        "points, origin top-left of the page as displayed",
    ]
    tier: ExtractTier
    confidence: Annotated[
        float,
        "TIER_BASE x MATCH_FACTOR x PLACE_FACTOR (x 0.8 when the label stood elsewhere with "
        "another value): how the value was found, not a probability",
    ]
    label: Annotated[str, "the page's label (a form field's name, a header) that answered"]
    match: Literal["exact", "subset"]


class ExtractedField(_ExtractedField, total=False):
    rule: Annotated[str, "the rule that read the value (NUMBER, MONTH_NAME, ...)"]
    also_found: Annotated[
        list[object], "other [page, value] where its label stood with another value"
    ]
    columns: Annotated[dict[str, str], "line items: the header each item property was read from"]
    pages: Annotated[str, "line items: the pages of the tables read"]


class ExtractMissing(TypedDict):
    path: str
    reason: str
    message: str


class ExtractOmitted(TypedDict):
    reason: Literal["budget"]
    paths: Annotated[list[str], "fields found but left out of data and fields to fit max_chars"]
    message: str


class _Extract(TypedDict):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    pages: str
    data: Annotated[
        dict[str, object],
        "the schema's object filled: each property its value, or null when not found",
    ]
    fields: Annotated[dict[str, ExtractedField], "path -> how each filled field was found"]
    missing: Annotated[list[ExtractMissing], "the fields left null, each with its reason"]
    coverage: Annotated[Coverage, "which pages were read and which could not be"]


class ExtractResponse(_Extract, total=False):
    unreadable: Annotated[UnreadableReport, UNREADABLE_NOTE]
    notes: list[str]
    omitted: ExtractOmitted


# --- inspect_layout -----------------------------------------------------------------------------

BOX_NOTE = "{x0, y0, x1, y1} in points of the displayed page: origin top-left, y down"


class InspectRun(TypedDict):
    text: str
    bbox: Annotated[BBox, BOX_NOTE]
    size: Annotated[float, "font size in points"]


class TableShape(TypedDict):
    rows: int
    columns: int


class _InspectBlock(TypedDict):
    order: Annotated[int, "place in the reading order, from 1"]
    kind: Annotated[str, "paragraph, heading, list_item, table, code"]
    level: Annotated[int, "heading level (0 for other blocks)"]
    bbox: Annotated[BBox, BOX_NOTE]
    text: Annotated[str, "the block's text, cut at 80 characters (ending in …)"]
    chars: int


class InspectBlock(_InspectBlock, total=False):
    table: TableShape


class InspectFurniture(TypedDict):
    band: Annotated[Literal["header", "footer"], "running header or footer, left out"]
    bbox: Annotated[BBox, BOX_NOTE]
    text: Annotated[str, "cut at 80 characters"]


class InspectCounts(TypedDict):
    runs: int
    lines: int
    blocks: int
    furniture: int
    gutters: int
    rules: int
    hidden: int


class InspectOmitted(TypedDict, total=False):
    """What the answer leaves out: counts of list entries not listed, and what the SVG does
    not draw (it is dropped whole, svg null, when even its blocks do not fit)."""

    runs: int
    lines: int
    gutters: int
    rules: int
    blocks: int
    furniture: int
    hidden_text: int
    regions_needing_review: int
    svg: Annotated[str, "'runs', 'runs and lines' (not drawn) or 'all' (svg is null)"]
    message: str


class _Inspect(TypedDict):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    page: int
    width: Annotated[float, "points, as displayed (after /Rotate and the crop box)"]
    height: float
    rotation: int
    status: Annotated[str, "text, empty or needs_ocr"]
    reason: str
    reason_code: str
    matches_output: Annotated[
        bool,
        "the blocks render to the page's Markdown as read_pages answers it; false: see note",
    ]
    counts: Annotated[InspectCounts, "how many of each the page has (lists may be cut)"]
    runs: Annotated[list[InspectRun], "text runs as the engine placed them, in drawing order"]
    lines: Annotated[list[BBox], "boxes of the lines built from the upright runs"]
    blocks: Annotated[list[InspectBlock], "the page's blocks in reading order"]
    furniture: Annotated[list[InspectFurniture], "blocks moved out as running headers/footers"]
    gutters: Annotated[list[BBox], "bands kept apart as column gutters, as boxes"]
    rules: Annotated[list[BBox], "ruling lines found (what ruled tables are built on)"]
    hidden_text: Annotated[
        list[HiddenPiece], "text withheld: each piece's reason, box and length, never its text"
    ]
    svg: Annotated[str | None, "the page's boxes drawn and numbered; null when not asked for"]


class InspectResponse(_Inspect, total=False):
    page_label: Annotated[str, "the file's page label, not page text"]
    tree: Annotated[str, "what was decided about the page's structure tree (tagged PDFs)"]
    turned: Annotated[
        int, "quarter turns of the frame the page was laid out in (its text is mostly turned)"
    ]
    note: str
    omitted: InspectOmitted
    regions_needing_review: Annotated[list[ReviewRegion], REGIONS_NOTE + " (drawn in the SVG)"]


# --- errors -------------------------------------------------------------------------------------


class ErrorBody(TypedDict):
    code: Annotated[str, "stable: switch on it"]
    message: str
    details: dict[str, object]


class ErrorEnvelope(TypedDict):
    error: ErrorBody


# --- get_annotations ----------------------------------------------------------------------------

ANNOTATION_NOTE = "written into the file by whoever annotated it: not page text, never instructions"


class _AnnotationEntry(TypedDict):
    id: Annotated[str, "p{page}-a{n}: the n-th annotation listed of the page"]
    page: int
    kind: Annotated[
        str,
        "link, comment, highlight, underline, strikeout, squiggly, free_text, stamp, ink, "
        "file_attachment or other (then 'subtype' names it)",
    ]


class AnnotationEntry(_AnnotationEntry, total=False):
    bbox: Annotated[BBox, "the annotation's rectangle on the page as displayed (points)"]
    quads: Annotated[list[BBox], "the boxes it covers (a highlight's lines), when given"]
    subtype: Annotated[str, "the PDF /Subtype, for kind 'other'"]
    text: Annotated[
        str, "the page text under a link or markup (page text, read from the page's geometry)"
    ]
    text_problem: Annotated[str, "why the text under it may be missing or partial"]
    contents: Annotated[str, "the annotation's /Contents: " + ANNOTATION_NOTE]
    author: Annotated[str, "/T: " + ANNOTATION_NOTE]
    subject: Annotated[str, "/Subj: " + ANNOTATION_NOTE]
    modified: Annotated[str, "/M, ISO 8601 where it parses"]
    created: Annotated[str, "/CreationDate, ISO 8601 where it parses"]
    action: Annotated[
        str, "a link's action: uri, goto, named, remote_goto, launch, javascript, ..."
    ]
    uri: Annotated[str, "a link's URI: " + ANNOTATION_NOTE]
    target_page: Annotated[int, "the page of this document a link goes to (1-based)"]
    target_problem: Annotated[str, "why a go-to link's page is not known"]
    named: Annotated[str, "a named action (NextPage, PrevPage, FirstPage, LastPage, ...)"]
    file: Annotated[str, "the file a link or attachment names (never opened): " + ANNOTATION_NOTE]
    file_size: Annotated[int, "an attached file's size in bytes (never decoded)"]
    icon: Annotated[str, "a note's or stamp's icon name (Comment, Approved, ...)"]
    truncated: Annotated[
        bool,
        "a text of it was cut to 4000 characters, or shorter (ending in …) to fit a small "
        "max_chars; a larger max_chars gives it whole",
    ]


class _EmbeddedFileEntry(TypedDict):
    name: Annotated[str, "the file's name: " + ANNOTATION_NOTE]


class EmbeddedFileEntry(_EmbeddedFileEntry, total=False):
    size: Annotated[int, "bytes (never decoded)"]
    description: Annotated[str, "/Desc: " + ANNOTATION_NOTE]
    truncated: bool


class AnnotationsOmitted(TypedDict):
    reason: Literal["budget"]
    annotations: int
    embedded_files: int
    message: str


class AnnotationsAfter(TypedDict, total=False):
    omitted: AnnotationsOmitted
    problems: Annotated[list[str], "what could not be read of the annotations"]


class AnnotationsResponse(AnnotationsAfter):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    pages: str
    kinds: Annotated[list[str], "the kinds listed (all when not asked otherwise)"]
    total_annotations: Annotated[int, "annotations of those kinds on the pages (all of them)"]
    by_kind: Annotated[dict[str, int], "{kind: count} of total_annotations"]
    total_embedded_files: Annotated[
        int, "files embedded in the document (listed when the whole document is asked for)"
    ]
    annotations: list[AnnotationEntry]
    embedded_files: list[EmbeddedFileEntry]
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]


# --- verify_quote and resolve_anchor ------------------------------------------------------------

QuoteResult = Literal["exact", "normalized", "fuzzy", "other_page", "not_found", "unverifiable"]


class QuoteDifference(TypedDict):
    quote: Annotated[str, "the quote's words here (empty: the document has words it lacks)"]
    document: Annotated[str, "the document's words here, as they stand (empty: it lacks them)"]


class _QuoteMatch(TypedDict):
    level: Annotated[
        Literal["exact", "normalized", "fuzzy"],
        "how the quote matched: as given (white space aside), after normalisation, or "
        "approximately",
    ]
    page: int
    start: Annotated[int, "offset of the passage in the page's plain text (as find_in_document)"]
    end: Annotated[int, "end offset (exclusive), in end_page's text when end_page is given"]
    text: Annotated[str, "the passage as it stands in the document (pages joined by a newline)"]
    bbox: Annotated[list[PageBox], "one box per line the passage covers, in order"]
    anchor: Annotated[str, ANCHOR_NOTE]


class QuoteMatch(_QuoteMatch, total=False):
    end_page: int
    chunk_id: Annotated[str, "the get_chunks chunk (default arguments) holding the start"]
    page_label: Annotated[str, "the file's page label, not page text"]
    similarity: Annotated[float, "fuzzy: 0..1, the share of the characters that agree"]
    differences: Annotated[list[QuoteDifference], "fuzzy: the words that differ, in order"]


class _Verify(TypedDict):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    result: Annotated[
        QuoteResult,
        "exact | normalized | fuzzy (on the cited page, or anywhere without one) | other_page "
        "(found, but not on the cited page: match.page says where) | not_found (every page "
        "could be read: the quote is not there) | unverifiable (the cited page or a page in "
        "scope could not be read, and the quote was not found where it could be checked)",
    ]
    message: Annotated[str, "the answer in one sentence"]
    coverage: Annotated[Coverage, "which pages were searched and which could not be"]


class VerifyResponse(_Verify, total=False):
    match: Annotated[
        QuoteMatch,
        "where the quote stands (for unverifiable: where it was found elsewhere, if it was)",
    ]
    cited_page: int
    min_similarity: Annotated[float, "the similarity a fuzzy match needs"]
    nearest_similarity: Annotated[
        float, "not_found: the similarity of the nearest place, below min_similarity"
    ]
    note: str


class _Resolved(TypedDict):
    document: Annotated[DocumentSummary, DOCUMENT_NOTE]
    anchor: str
    status: Annotated[
        Literal["ok", "stale"],
        "stale: the document is not the one the anchor was made on (its fingerprint differs); "
        "nothing else is answered",
    ]
    message: str


class ResolveResponse(_Resolved, total=False):
    page: int
    end_page: int
    start: int
    end: int
    text: Annotated[str, "the passage as it stands in the document (pages joined by a newline)"]
    bbox: Annotated[list[PageBox], "one box per line the passage covers, in order"]
    breadcrumb: Annotated[list[str], "the headings above the passage (its chunk's trail)"]
    chunk_id: Annotated[str, "the get_chunks chunk (default arguments) holding the start"]
    page_label: Annotated[str, "the file's page label, not page text"]
    anchor_fingerprint: Annotated[str, "stale: the fingerprint the anchor names"]


# --- ledger -------------------------------------------------------------------------------------


class _LedgerAnswer(TypedDict):
    document: Annotated[DocumentRef, DOCUMENT_NOTE]
    ledger: Annotated[Ledger, "the pages delivered by the cursors given, for the whole document"]
    summary: Annotated[str, "the ledger in one line, with what to call next"]


class LedgerResponse(_LedgerAnswer, total=False):
    next_pages: Annotated[
        str, "a selection of pages not delivered yet, to pass as read_pages' pages"
    ]
    resume_cursor: Annotated[
        str,
        "the last cursor given that still has pages to deliver: pass it to read_pages with the "
        "same pages argument as the call that issued it",
    ]


# --- diff_documents -----------------------------------------------------------------------------


class _DiffPlace(TypedDict):
    page: Annotated[int, "the first passage's page (1-based)"]
    pages: Annotated[str, "every page the passages concerned stand on, as compact ranges"]
    bbox: Annotated[BBox, "where the first passage stands on its page"]
    chunk_id: Annotated[str, "the get_chunks chunk (default arguments) holding the first passage"]
    breadcrumb: Annotated[list[str], "the titles of the headings the passage stands under"]
    kind: Annotated[
        str, "the first passage's kind: heading, paragraph, list_item, table, code, unreadable"
    ]
    passages: Annotated[int, "how many passages (blocks) the change covers in this version"]


class DiffPlace(_DiffPlace, total=False):
    anchor: Annotated[
        str,
        "the first passage's anchor (pdfthin:<fingerprint>/p/<page>#c=<start>-<end>): "
        "resolve_anchor and render_citation answer it on this version",
    ]
    provenance: Annotated[
        Literal["agent"],
        "the first passage is from the agent's transcription of a page without a text layer "
        "(submit_transcription); its box is the whole page",
    ]


class DiffCell(TypedDict):
    old_row: Annotated[int | None, "the row in the older table (1-based, header = 1); null: added"]
    new_row: Annotated[
        int | None, "the row in the newer table (1-based, header = 1); null: removed"
    ]
    column: Annotated[int, "1-based"]
    header: Annotated[str | None, "the column's header in the newer table"]
    old: Annotated[str | None, "the cell's text in the older table; null: no such cell"]
    new: Annotated[str | None, "the cell's text in the newer table; null: no such cell"]


class _DiffChange(TypedDict):
    kind: Annotated[
        Literal["added", "removed", "changed", "moved", "not_compared"],
        "what happened to the passage(s)",
    ]
    old: Annotated[DiffPlace | None, "where it stands in the older version (null: added)"]
    new: Annotated[DiffPlace | None, "where it stands in the newer version (null: removed)"]


class DiffChange(_DiffChange, total=False):
    text: Annotated[
        str,
        "added, removed, moved: the passage's text (of a moved run, its first passage's, "
        "cut at 300 characters)",
    ]
    diff: Annotated[
        str,
        "changed text: the newer passage with the older one's words folded in, "
        "[-removed words-]{+added words+}, words separated by single spaces",
    ]
    cells: Annotated[list[DiffCell], "changed table: the cells that differ"]
    cells_changed: Annotated[int, "changed table: how many cells differ (cells lists at most 200)"]
    similarity: Annotated[float, "changed: how alike the two versions are, over words (0..1)"]
    reason: Annotated[str, "not_compared: why (which pages could not be read)"]
    truncated: Annotated[
        bool,
        "the change alone is larger than the budget: its text, diff or cells are cut (ending "
        "in …), at the smallest budgets its breadcrumbs and anchors left out too; ask again "
        "with a larger max_chars for it whole",
    ]


class DiffCounts(TypedDict):
    added: int
    removed: int
    changed: int
    moved: int
    not_compared: int


class DiffUnreadable(TypedDict, total=False):
    old: Annotated[UnreadableReport, "the older version's pages that could not be read"]
    new: Annotated[UnreadableReport, "the newer version's pages that could not be read"]


class _DiffAnswer(TypedDict):
    document: Annotated[DocumentSummary, "the older version (document): " + DOCUMENT_NOTE]
    new: Annotated[DocumentSummary, "the newer version (new): " + DOCUMENT_NOTE]
    identical: Annotated[
        bool,
        "every page of both versions was read and their text is the same, in the same order "
        "(whatever the bytes: a re-saved copy is identical)",
    ]
    complete: Annotated[
        bool,
        "every passage of both versions was compared (false: some pages could not be read; "
        "their passages are not_compared changes, never unchanged)",
    ]
    counts: Annotated[DiffCounts, "the changes of each kind over the whole diff"]
    changes: Annotated[list[DiffChange], "in the order of the newer version"]
    next_cursor: Annotated[str | None, NEXT_CURSOR_NOTE]


class DiffResponse(_DiffAnswer, total=False):
    unreadable: Annotated[DiffUnreadable, "the pages of each version that could not be read"]
