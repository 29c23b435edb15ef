"""Plain data produced by the engine: the only shapes the layers above ever see.

Coordinates are in points, in the page as displayed: origin at the top-left corner of the
crop box, ``x`` to the right, ``y`` down, the page's ``/Rotate`` already applied. Pages are
1-based here, as everywhere above the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class TextRun:
    """A piece of text drawn in one font at one size along one baseline."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    font: str
    bold: bool = False
    italic: bool = False
    #: ``0`` left-to-right horizontal; ``1`` top-to-bottom (vertical writing); ``3``, ``4``,
    #: ``5`` horizontal text turned a quarter, a half, three quarters clockwise (a rotated page
    #: or table header); ``2`` any other direction (slanted or mirrored text).
    direction: int = 0
    #: Inside ``/Artifact`` marked content (running headers, page numbers in tagged PDFs).
    artifact: bool = False
    #: Invisible text lying over a scanned image: a scanner's OCR layer, kept as content.
    ocr_layer: bool = False
    #: Position in the order the page draws its text (the content stream order).
    seq: int = 0
    #: The page's marked-content id (``/MCID``) of the innermost marked content around the
    #: run that has one, linking it to the page's structure tree (tagged PDFs); ``-1``: none.
    #: Ids met inside a Form XObject belong to the form's own structure, not the page's: a
    #: run there keeps the id of the marked content the form is drawn in.
    mcid: int = -1
    #: The qualified name of the form field whose value this run shows (a run the engine
    #: places in the field's widget, :mod:`pdfthin.engine.forms`); ``""``: drawn by the page.
    form_field: str = ""
    #: Drawn by the same ``TJ`` array as the run before it (``seq`` one less), past a
    #: displacement wider than ``PIECE_GAP_EM`` (a cut the interpreters make, content/pieces.py
    #: decides whether it stands).
    joined: bool = False
    #: A blank string was shown right where the run ends: a word space its writer showed as
    #: a string of its own (the run's text does not hold it), which lines keep however
    #: narrow the gap to the next run.
    space_after: bool = False


@dataclass(slots=True)
class HiddenText:
    """Text that is in the file but would not be seen by a reader of the rendered page."""

    text: str
    reason: str  # "invisible", "transparent", "white", "clipped", "off_page" or "tiny"
    bbox: tuple[float, float, float, float]


@dataclass(slots=True)
class ImagePlacement:
    """One image drawn on a page (the same image object may be placed many times)."""

    bbox: tuple[float, float, float, float]
    width: int
    height: int
    bits_per_component: int
    color_space: str
    filters: tuple[str, ...]
    #: ``(object number, generation)`` of the image XObject; ``None`` for inline images.
    ref: tuple[int, int] | None
    name: str
    inline: bool = False
    image_mask: bool = False
    #: An inline image's own bytes and parameters (full key names); ``None`` for XObjects,
    #: whose data stays in the file and is read on demand.
    inline_data: bytes | None = None
    inline_params: dict[str, object] | None = None
    #: How the image is placed on the page as displayed (the coordinates of ``bbox``), by the
    #: CTM where it is drawn, as an Exif orientation: how to turn its stored picture (first
    #: row on top) to see it as the page shows it. 1 upright, 2 mirrored left to right, 3
    #: turned 180 degrees, 4 mirrored top to bottom, 5 mirrored across its main diagonal
    #: (transposed), 6 turned 90 degrees clockwise, 7 mirrored across its other diagonal, 8
    #: turned 90 degrees anticlockwise; 0 when placed skewed (not a multiple of 90 degrees)
    #: or flat. A page's ``/Rotate`` is in it: an upright picture on a page turned 90 is 6.
    orientation: int = 1


@dataclass(slots=True)
class StructElement:
    """One element of a tagged PDF's structure tree that holds some of a page's text."""

    #: Its standard structure type after the document's ``/RoleMap``, without the slash
    #: (``H1``, ``P``, ``LI``, ``Table``, ``TD``...); the type as written when it maps to none.
    kind: str
    #: Index of its parent in :attr:`PageStructure.elements`; ``-1`` at the top of the tree.
    parent: int
    #: Its place among its parent's kids (``/K``): a table cell's column when cells of the
    #: row hold nothing on the page (and so are not among ``elements``).
    position: int = 0
    #: A table cell's ``/ColSpan`` and ``/RowSpan`` attributes (1 when absent).
    colspan: int = 1
    rowspan: int = 1


@dataclass(slots=True)
class PageStructure:
    """The page's slice of a tagged PDF's structure tree: what holds each marked-content id
    of the page (``TextRun.mcid``), and the order the tree reads them in."""

    #: The elements holding the page's content and their ancestors, in tree order (a parent
    #: before its children, siblings in the order the tree lists them).
    elements: list[StructElement] = field(default_factory=list)
    #: Marked-content id -> index in ``elements`` of the element that holds it.
    content: dict[int, int] = field(default_factory=dict)
    #: The page's marked-content ids in tree order: the reading order the tree gives.
    order: list[int] = field(default_factory=list)
    #: What was wrong with the tree on this page (a broken or cyclic element, a cut walk).
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PageLink:
    """A link annotation of the page to an address outside the document (its ``/URI``), with
    the boxes it covers (its ``/QuadPoints``, else its ``/Rect``), in the page as displayed."""

    uri: str
    boxes: tuple[tuple[float, float, float, float], ...]


@dataclass(slots=True)
class PageContent:
    """Everything the engine found on one page."""

    number: int
    width: float
    height: float
    rotation: int
    runs: list[TextRun] = field(default_factory=list)
    hidden: list[HiddenText] = field(default_factory=list)
    images: list[ImagePlacement] = field(default_factory=list)
    #: Axis-aligned ruling lines ``(x0, y0, x1, y1)``: table borders and separators.
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)
    #: Painted vector paths (fills and strokes); text drawn as outlines shows up here.
    paths: int = 0
    #: The boxes of the vector fills and strokes the interpreter kept as painted areas (not
    #: pictures or shadings; no more than it keeps), in drawing order: where a page draws.
    drawings: list[tuple[float, float, float, float]] = field(default_factory=list)
    #: Glyphs shown in total, and glyphs whose font gives no Unicode mapping.
    glyphs: int = 0
    unmapped_glyphs: int = 0
    #: Where glyphs without a Unicode mapping were shown (they are not in any run's text):
    #: ``((x0, y0, x1, y1), count)``, one box per text-showing operation that had any, with
    #: how many it had; at most ``interpreter.MAX_UNMAPPED_BOXES``, the rest joined to the
    #: last (their counts too). Glyphs under ``/ActualText`` are read and not here.
    unmapped_boxes: list[tuple[tuple[float, float, float, float], int]] = field(
        default_factory=list
    )
    #: Operators interpreted (a Form XObject's each time it is drawn): with ``glyphs``, what
    #: the page cost of its document's work budget.
    operators: int = 0
    #: Problems met while reading this page; the page still carries what could be read.
    problems: list[str] = field(default_factory=list)
    #: True when reading stopped early (a limit or an unrecoverable error).
    incomplete: bool = False
    #: True when what stopped it was a limit (time, size, the document's budget), not damage:
    #: reading again with a larger limit may read it.
    stopped_at_limit: bool = False
    #: The page's slice of the document's structure tree (tagged PDFs); ``None`` when the
    #: document has none or the page is not in it.
    structure: PageStructure | None = None
    #: The page's links to addresses outside the document, in ``/Annots`` order.
    links: list[PageLink] = field(default_factory=list)


@dataclass(slots=True)
class OutlineEntry:
    """One bookmark. ``page`` is ``None`` when its destination could not be resolved."""

    title: str
    level: int
    page: int | None
    problem: str | None = None


@dataclass(slots=True)
class Metadata:
    title: str | None = None
    author: str | None = None
    subject: str | None = None
    keywords: str | None = None
    creator: str | None = None
    producer: str | None = None
    created: str | None = None
    modified: str | None = None
    pdf_version: str | None = None
    encrypted: bool = False
    tagged: bool = False
    page_labels: list[str] | None = None


@dataclass(slots=True)
class DocumentFacts:
    """Interactive and embedded parts of a document, counted without rendering them."""

    form_fields: int = 0
    xfa: bool = False
    attachments: list[str] = field(default_factory=list)
    links: int = 0
    annotations: int = 0


#: A form field's value: text, a checkbox's state (or a signature's presence), the options
#: chosen in a multi-select list, or nothing.
FieldValue = str | bool | list[str] | None


@dataclass(frozen=True, slots=True)
class FormWidget:
    """Where a form field is drawn: a 1-based page and its box on the displayed page
    (points, top-left origin, ``/Rotate`` applied), and whether a viewer shows it."""

    page: int
    rect: tuple[float, float, float, float]
    shown: bool = True
    #: A radio button's or checkbox's "on" state (the name of its appearance that is not
    #: ``Off``, without the slash): which option of a radio group this widget stands for.
    state: str | None = None


@dataclass(frozen=True, slots=True)
class FormField:
    """One terminal field of the document's interactive form (AcroForm)."""

    #: The qualified name: the partial names (``/T``) from the root down, joined by dots.
    name: str
    #: ``text``, ``checkbox``, ``radio``, ``choice``, ``signature`` or ``button`` (a push
    #: button, which holds no value).
    kind: str
    #: The tooltip (``/TU``): a name meant for people, not page text.
    label: str | None
    #: Text; ``True``/``False`` for a checkbox (checked) or a signature (signed); the list of
    #: options chosen in a multi-select list; ``None`` when empty.
    value: FieldValue
    #: A choice field's options as shown (their display text).
    options: tuple[str, ...] = ()
    read_only: bool = False
    required: bool = False
    multiline: bool = False
    password: bool = False
    widgets: tuple[FormWidget, ...] = ()
    #: The text the field's appearance stream draws (what a viewer shows), when it was read.
    appearance: str | None = None
    #: The appearance shows something other than the value.
    appearance_differs: bool = False
    #: The font size its default appearance (``/DA``) sets; ``0``: sized to fit (auto).
    font_size: float = 0.0
