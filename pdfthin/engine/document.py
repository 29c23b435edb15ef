"""Opening a PDF: bytes in, an :class:`EngineDocument` out.

This module and its siblings are the only code that touches pypdf. Every 0-based index pypdf
uses becomes 1-based here. Failures to open are :class:`~pdfthin.errors.PdfthinError` with a
stable code; failures inside a page are kept on that page.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import logging
import math
import re
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pypdf
from pypdf import PasswordType
from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError
from pypdf.generic import IndirectObject, StreamObject

from pdfthin.engine import _native, recovery
from pdfthin.engine.annotations import (
    MAX_DOCUMENT_STEPS,
    EmbeddedFile,
    PageAnnotations,
    embedded_files,
    page_annotations,
)
from pdfthin.engine.catalog import Catalog
from pdfthin.engine.citation import MAX_ANNOTATIONS, citation_pdf
from pdfthin.engine.content import native_page
from pdfthin.engine.content.interpreter import (
    Interpreter,
    LimitProblem,
    PageTimeout,
    content_bytes,
    display_matrix,
    form_bbox,
    form_matrix,
    mult,
)
from pdfthin.engine.content.layers import NO_LAYERS, Layers
from pdfthin.engine.forms import add_value_runs, read_fields
from pdfthin.engine.gcpause import collection_paused
from pdfthin.engine.objects import get, num, resolve
from pdfthin.engine.page_tree import PageTree
from pdfthin.engine.structure_tree import StructureTree
from pdfthin.engine.types import (
    DocumentFacts,
    FormField,
    Metadata,
    OutlineEntry,
    PageContent,
    PageLink,
    PageStructure,
)
from pdfthin.engine.walk import Walk
from pdfthin.errors import PdfthinError
from pdfthin.pages import check_page

#: Defaults for the resource bounds (overridable per :func:`open_pdf` call).
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_STREAM_BYTES = 64 * 1024 * 1024
PAGE_SECONDS = 10.0
#: The work one document may cost (docs/design.md, invariant 13), in work units summed over its
#: pages: one per operator and per glyph (counted as the interpreter's page budget counts
#: them), KEPT_WORK per text run and image placement (each is laid out or listed, and kept
#: for the document's life: a few hundred bytes), and PAGE_OVERHEAD_WORK per page (what
#: reading even an empty page costs, in operators). Pages past it are not read, and say so.
DOCUMENT_WORK = 10_000_000
KEPT_WORK = 16
PAGE_OVERHEAD_WORK = 250
#: Seconds reading a whole document may take (its pages and their layout, when the model
#: reads it: ``document_deadline``); pages not started by then are not read, and say so.
DOCUMENT_SECONDS = 20.0
#: Levels of /Parent a page's inherited attributes are looked for in (page trees are a few
#: levels deep; pypdf itself gives up at 100).
MAX_INHERITANCE = 32

_HEADER = re.compile(rb"%PDF-(\d\.\d)")
#: What every page of a form held in XFA alone says (its fields are not in the PDF's objects).
XFA_PROBLEM = "the document's form is XFA, whose content (fields and their values) is not read"


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = MAX_FILE_BYTES
    max_stream_bytes: int = MAX_STREAM_BYTES
    page_seconds: float = PAGE_SECONDS
    document_work: int = DOCUMENT_WORK
    document_seconds: float = DOCUMENT_SECONDS


#: The stream cap of the ``_pypdf_quiet`` block this thread is in, if any.
_quiet = threading.local()


@contextmanager
def _pypdf_quiet(limits: Limits) -> Iterator[None]:
    """pypdf's bounds set to ours, and its log chatter kept off stderr. Inside a block of
    this thread with the same bounds (:meth:`EngineDocument.held`), nothing is set again."""
    cap = limits.max_stream_bytes
    outer = getattr(_quiet, "cap", None)
    if outer == cap:
        yield
        return
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with (
            collection_paused(),
            warnings.catch_warnings(),
            pypdf.apply_configuration(
                maximum_declared_stream_length=cap,
                array_based_stream_maximum_output_length=cap,
                jbig2_maximum_output_length=cap,
                lzw_maximum_output_length=cap,
                run_length_maximum_output_length=cap,
                zlib_maximum_output_length=cap,
                image_maximum_buffer_size=cap,
                stream_decoding_work_maximum_length=4 * cap,
            ),
        ):
            warnings.simplefilter("ignore")
            _quiet.cap = cap
            try:
                yield
            finally:
                _quiet.cap = outer
    finally:
        logger.setLevel(level)


def fingerprint(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _FileBytes(io.BytesIO):
    """The file's bytes as the stream pypdf reads, without ``getbuffer``.

    pypdf's repairs (a classic cross-reference table with a bad entry, an object not at its
    offset) take the whole file: through ``getbuffer()`` where the stream has it, which copies
    the file, else with ``read()`` from the start, which a ``BytesIO`` made from ``bytes``
    answers with those same bytes. So the file is held once, not twice, while it is read
    (docs/security.md, memory under concurrent load); what pypdf reads is the same."""

    @property
    def getbuffer(self) -> Any:
        raise AttributeError("getbuffer")


class EngineDocument:
    """An opened PDF. Pages are read on demand; each read is independent of the others."""

    def __init__(self, data: bytes, password: str | None = None, limits: Limits | None = None):
        self.limits = limits or Limits()
        if len(data) > self.limits.max_file_bytes:
            raise PdfthinError(
                "too_large",
                f"the file is {len(data)} bytes; the limit is {self.limits.max_file_bytes}",
                size=len(data),
                limit=self.limits.max_file_bytes,
            )
        header = _HEADER.search(data[:1024])
        if header is None:
            raise PdfthinError("not_a_pdf", "no %PDF- header in the first 1024 bytes")
        _native.require()
        self.data = data
        self.fingerprint = fingerprint(data)
        self.header_version = header.group(1).decode()
        self.recovered: str | None = None
        self._fonts: dict[Any, Any] = {}
        self._native_fonts: native_page.NativeFonts = {}
        self._keepalive: list[Any] = []
        self._structure: StructureTree | None = None
        self._fields: list[FormField] | None = None
        self._xfa_only = False
        #: Problems of the document as a whole (a walk cut short), for the layers above.
        self.problems: list[str] = []
        #: Work its pages have cost so far (see DOCUMENT_WORK), the pages counted in it, and
        #: the first page it left unread.
        self.work_spent = 0
        self._charged: set[int] = set()
        self._first_unread: int | None = None
        #: Pages a budget of the document left unread.
        self._unread: set[int] = set()
        #: When reading the whole document must end (``time.monotonic()``), set by whoever
        #: reads it all (the model, from ``limits.document_seconds``); ``None``: no end.
        self.document_deadline: float | None = None
        self.closed = False
        with _pypdf_quiet(self.limits):
            self.reader, self._pages = self._open(data, password)
            self.layers = self._layers()
        self.page_count = len(self._pages)
        #: What is left of the budget all pages' annotation walks share.
        self._annotation_steps = MAX_DOCUMENT_STEPS
        self._page_links: dict[int, tuple[PageLink, ...]] = {}
        #: The document's facts apart from its pages (catalog.py).
        self.catalog = Catalog(self.reader, self.header_version, self._pages, self._problem)

    def close(self) -> None:
        """Let go of the parsed PDF: pypdf's objects (``PdfReader.close``) and the fonts and
        pages read from them. They point at one another (every reference points back at the
        reader), so left alone they wait for the cyclic garbage collector, which then walks
        them all; let go of here, they are freed at once. Reading the document after this
        raises ``ValueError``, as a closed file does."""
        if self.closed:
            return
        self.closed = True
        self.reader.close()
        # The file's bytes too (pypdf closes only a stream it opened itself): the reader sits
        # in cycles only the collector frees, and the caller decides how long the bytes live.
        self.reader.stream.close()
        self.data = b""
        self._pages.close()
        self.catalog.close()
        self._structure = None
        self._fonts.clear()
        self._native_fonts.clear()
        self._keepalive.clear()

    def _layers(self) -> Layers:
        """The default view of the document's optional content (nothing hidden when it
        cannot be read)."""
        try:
            return Layers(resolve(self.reader.trailer.get("/Root")))
        except Exception:
            return NO_LAYERS

    def _check_open(self) -> None:
        if self.closed:
            raise ValueError("the document is closed")

    @contextmanager
    def held(self) -> Iterator[None]:
        """pypdf's bounds and silence (see ``_pypdf_quiet``) held for a series of calls, such
        as building the whole document, instead of set and restored around each call."""
        with _pypdf_quiet(self.limits):
            yield

    # --- opening -------------------------------------------------------------------------

    def _open(self, data: bytes, password: str | None) -> tuple[pypdf.PdfReader, PageTree]:
        """Open with pypdf and find pages on demand by the page tree's counts
        (page_tree.py); when the counts cannot be trusted, read every page with pypdf; when
        that fails, try again on rebuilt cross-references, then with our own page-tree walk,
        then by scanning for page objects."""
        try:
            reader = self._reader(data, password)
        except PdfthinError:
            raise
        except DependencyError as exc:  # e.g. AES without cryptography: not a broken file
            raise _dependency_error(exc) from None
        except Exception as exc:
            repaired = recovery.rebuild_xref(data)
            if repaired is None:
                raise _open_error(exc) from None
            try:
                reader = self._reader(repaired, password)
            except PdfthinError:
                raise
            except Exception:
                raise _open_error(exc) from None
            self.recovered = f"cross-reference table rebuilt ({_short(exc)})"
        tree = PageTree.lazy_or_none(reader, self._problem)
        if tree is not None:
            return reader, tree
        try:
            pages = list(reader.pages)
            if pages:
                refs = [getattr(p, "indirect_reference", None) for p in pages]
                return reader, PageTree.eager(pages, refs)
            error: Exception = PdfReadError("the page tree holds no pages")
        except FileNotDecryptedError:
            raise PdfthinError("encrypted", "the PDF needs a password") from None
        except Exception as exc:
            error = exc
        for walk, what in (
            (recovery.walk_page_tree, "page tree walked"),
            (recovery.scan_pages, "pages found by scanning objects"),
        ):
            pages, refs = walk(reader)
            if pages:
                self.recovered = f"{what} ({_short(error)})"
                return reader, PageTree.eager(pages, refs)
        if _brotli_missing(self.data):
            raise PdfthinError(
                "unsupported",
                "this PDF compresses its structure with BrotliDecode, which needs the optional "
                "'brotli' package",
                needs="brotli",
            )
        raise PdfthinError("malformed", f"the page tree cannot be read: {_short(error)}")

    def _reader(self, data: bytes, password: str | None) -> pypdf.PdfReader:
        try:
            reader = pypdf.PdfReader(_FileBytes(data), strict=False)
        except DependencyError as exc:
            raise _dependency_error(exc) from None
        self._decrypt(reader, password)
        root = reader.trailer["/Root"]
        if not isinstance(resolve(root), dict):
            raise PdfReadError("the trailer has no document catalog")
        return reader

    def _decrypt(self, reader: pypdf.PdfReader, password: str | None) -> None:
        if not reader.is_encrypted:
            return
        try:
            if password:
                ok = reader.decrypt(password) != PasswordType.NOT_DECRYPTED
            else:
                ok = _empty_password_opened(reader)
        except DependencyError as exc:
            raise _dependency_error(exc) from None
        except (NotImplementedError, PdfReadError, ValueError, KeyError) as exc:
            raise PdfthinError(
                "encrypted", f"the encryption cannot be opened: {_short(exc)}"
            ) from None
        if not ok:
            if not password and _uses_aes(reader) and not _aes_available():
                # Even the right password would not open it here: say so before one is asked.
                raise _dependency_error(DependencyError("AES needs cryptography"))
            raise password_refused(password)
        self._probe_decryption(reader)

    @staticmethod
    def _probe_decryption(reader: pypdf.PdfReader) -> None:
        """Decrypting strings may need nothing extra while streams need ``cryptography``
        (AES): decode one content stream now, so that case is the typed ``encrypted`` error
        at open instead of unreadable pages later."""
        try:
            root = resolve(reader.trailer["/Root"])
            page = get(get(root, "/Pages"), "/Kids")
            for _ in range(32):  # down the page tree to a leaf
                if not isinstance(page, list) or not page:
                    return
                node = resolve(page[0])
                if get(node, "/Kids") is None:
                    contents = get(node, "/Contents")
                    stream = contents[0] if isinstance(contents, list) and contents else contents
                    stream = resolve(stream)
                    if isinstance(stream, StreamObject):
                        stream.get_data()
                    return
                page = get(node, "/Kids")
        except DependencyError as exc:
            raise _dependency_error(exc) from None
        except Exception:
            return  # damage is handled page by page later

    # --- document facts ------------------------------------------------------------------

    def metadata(self) -> Metadata:
        self._check_open()
        with _pypdf_quiet(self.limits):
            return self.catalog.metadata()

    def outline(self) -> tuple[list[OutlineEntry], list[str]]:
        """The bookmarks in document order with 1-based pages, and problems met while
        reading them (a broken destination keeps its entry with ``page=None``)."""
        self._check_open()
        with _pypdf_quiet(self.limits):
            return self.catalog.outline()

    def facts(self) -> DocumentFacts:
        """Form fields, XFA, attachments, link and annotation counts (bounded walks)."""
        self._check_open()
        with _pypdf_quiet(self.limits):
            try:
                return self.catalog.facts()
            except Exception:
                return DocumentFacts()

    def annotations(self, number: int) -> PageAnnotations:
        """Page ``number``'s annotations (1-based; popups and widgets left out), boxes in the
        page as displayed; never raises for damage inside them."""
        self._check_open()
        number = check_page(number, self.page_count)
        box, rotation = _page_geometry(self._pages[number - 1])
        with _pypdf_quiet(self.limits):
            try:
                read = page_annotations(
                    self.catalog,
                    self._pages[number - 1],
                    number,
                    display_matrix(box, rotation),
                    self._annotation_steps,
                )
            except Exception as exc:
                return PageAnnotations([], [f"the annotations cannot be read: {_short(exc)}"])
        # One budget for all pages (pages may share one long /Annots array).
        self._annotation_steps -= read.spent
        return read

    def citation_pdf(
        self, number: int, region: tuple[float, float, float, float], highlights: list[Any]
    ) -> bytes:
        """Page ``number`` as a one-page PDF showing ``region`` with ``highlights`` filled
        (boxes on the page as displayed: :mod:`.citation`), unencrypted, for a rasterizer.
        A content stream that cannot be read is left out of the page (``malformed`` when no
        part of it can be: an image of nothing would cite nothing)."""
        self._check_open()
        number = check_page(number, self.page_count)
        page_obj = self._pages[number - 1]
        if page_obj is None:
            raise PdfthinError(
                "malformed", f"the page tree counts page {number} and holds none", page=number
            )
        box, rotation = _page_geometry(page_obj)
        with _pypdf_quiet(self.limits):
            content, problems = content_bytes(page_obj)
            if problems and not content:
                raise PdfthinError(
                    "malformed", f"page {number} cannot be drawn: {problems[0]}", page=number
                )
            annotations = get(page_obj, "/Annots")
            listed = (
                [resolve(a) for a in annotations[:MAX_ANNOTATIONS]]
                if isinstance(annotations, list)
                else []
            )
            try:
                return citation_pdf(
                    content,
                    _inherited(page_obj, "/Resources"),
                    listed,
                    box,
                    rotation,
                    region,
                    highlights,
                )
            except RecursionError:
                raise PdfthinError(
                    "malformed", f"page {number} nests too deeply to copy", page=number
                ) from None

    def embedded_files(self) -> list[EmbeddedFile]:
        """The files embedded in the document (its ``/EmbeddedFiles`` name tree): names and
        sizes, never their content."""
        self._check_open()
        with _pypdf_quiet(self.limits):
            try:
                return embedded_files(self.catalog, self._problem)
            except Exception as exc:
                self._problem(f"embedded files cannot be read: {_short(exc)}")
                return []

    def form_fields(self) -> list[FormField]:
        """The terminal fields of the document's AcroForm, read once (bounded walks; what was
        cut is one of the document's problems). A document whose form is XFA with no AcroForm
        field is marked, so its pages say that the form's content is not read."""
        self._check_open()
        if self._fields is None:
            with _pypdf_quiet(self.limits):
                try:
                    acroform = get(resolve(self.reader.trailer.get("/Root")), "/AcroForm")
                    self._fields = read_fields(
                        acroform,
                        self._pages,
                        self._display_matrix,
                        self._appearance_text,
                        self._problem,
                    )
                    xfa = get(acroform, "/XFA") is not None
                except DependencyError:
                    raise
                except Exception as exc:
                    self._problem(f"form fields cannot be read: {_short(exc)}")
                    self._fields, xfa = [], False
                self._xfa_only = xfa and not any(f.widgets for f in self._fields)
        return self._fields

    def _display_matrix(self, number: int) -> Any:
        box, rotation = _page_geometry(self._pages[number - 1])
        return display_matrix(box, rotation)

    def _appearance_text(self, stream: Any, ends: float) -> str | None:
        """The text a widget's appearance stream draws (its runs in drawing order), read by
        the Python interpreter (one rule on both engine paths); ``None`` when unreadable."""
        bbox = form_bbox(stream) or (0.0, 0.0, 1.0, 1.0)
        matrix = form_matrix(stream) or (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        content = PageContent(number=0, width=1e6, height=1e6, rotation=0)
        # The appearance's box mapped by its matrix, then to a top-left origin well inside
        # the scratch page, so nothing it draws falls off it.
        base = mult(matrix, (1.0, 0.0, 0.0, -1.0, 1000.0 - bbox[0], 1000.0 + bbox[3]))
        interpreter = Interpreter(content, base, self._fonts, ends, self._keepalive, self.layers)
        try:
            data = stream.get_data()
            interpreter.run(data, get(stream, "/Resources"))
        except Exception:
            return None
        finally:
            interpreter.ops_table.clear()
        runs = sorted(content.runs, key=lambda r: (round(r.y0), r.x0))
        return " ".join(r.text for r in runs)

    def _problem(self, problem: str | None) -> None:
        if problem is not None and problem not in self.problems:
            self.problems.append(problem)

    # --- pages ---------------------------------------------------------------------------

    def page(self, number: int, deadline: float | None = None) -> PageContent:
        """Read page ``number`` (1-based). Never raises for damage inside the page. The page's
        interpreter stops at ``limits.page_seconds`` from now, or at ``deadline``
        (``time.monotonic()``) if that comes first."""
        self._check_open()
        number = check_page(number, self.page_count)
        # Each page counts once towards the document's work budget: a page read before is
        # read again whatever is left of it.
        first = number not in self._charged
        with _pypdf_quiet(self.limits):
            limit = self.limits.document_work
            if first and self.work_spent >= limit:
                return self._unread_page(
                    number, f"the document's work budget ({limit} work units) was spent"
                )
            ends = self.document_deadline
            if first and ends is not None and time.monotonic() >= ends:
                return self._unread_page(
                    number,
                    f"the document's time limit ({self.limits.document_seconds:g} s) ran out",
                )
            content = self._read_page(number, self._deadline(deadline))
            content.structure = self._page_structure(number)
            content.links = self._links(number)
            add_value_runs(content, self.form_fields())
            if self._xfa_only:
                content.problems.insert(0, XFA_PROBLEM)
                content.incomplete = True
        if first:
            self._charged.add(number)
            kept = len(content.runs) + len(content.hidden) + len(content.images)
            work = content.operators + content.glyphs + KEPT_WORK * kept + PAGE_OVERHEAD_WORK
            self.work_spent += work
        return content

    def _links(self, number: int) -> list[PageLink]:
        """Page ``number``'s links to addresses outside the document (``/URI`` actions), read
        once per page: a page read again (its cache evicted) does not spend the annotation
        budget again."""
        known = self._page_links.get(number)
        if known is not None:
            return list(known)
        links: list[PageLink] = []
        for a in self.annotations(number).annotations:
            if a.kind != "link" or a.action != "uri" or not a.uri:
                continue
            boxes = a.quads or ((a.rect,) if a.rect is not None else ())
            if boxes:
                links.append(PageLink(a.uri, boxes))
        self._page_links[number] = tuple(links)
        return links

    def _page_structure(self, number: int) -> PageStructure | None:
        """Page ``number``'s slice of the structure tree (tagged PDFs), read on demand; a
        tree that cannot be read at all is the page's structure problem, never an error."""
        if self._structure is None:
            try:
                self._structure = StructureTree(resolve(self.reader.trailer.get("/Root")))
            except Exception:
                self._structure = StructureTree(None)
        try:
            ref = self._pages.ref(number - 1)
            return self._structure.page(self._pages[number - 1], ref)
        except Exception as exc:
            return PageStructure(problems=[f"the structure tree cannot be read: {_short(exc)}"])

    def page_resources(self, number: int) -> Any:
        """Page ``number``'s ``/Resources`` (inherited from the page tree where the page has
        none), for the engine's other readers of a page (its images)."""
        return _inherited(self._pages[number - 1], "/Resources")

    def page_size(self, number: int) -> tuple[float, float, int]:
        """Page ``number``'s width and height as displayed (points, rotation applied) and its
        rotation, from the page tree alone: nothing of the page is read."""
        self._check_open()
        content, _, rotation = self._blank(check_page(number, self.page_count))
        return content.width, content.height, rotation

    def _blank(self, number: int) -> tuple[PageContent, tuple[float, float, float, float], int]:
        """Page ``number`` with its size and nothing read yet; its box and rotation."""
        box, rotation = _page_geometry(self._pages[number - 1])
        width = box[2] - box[0]
        height = box[3] - box[1]
        if rotation in (90, 270):
            width, height = height, width
        content = PageContent(number=number, width=width, height=height, rotation=rotation)
        return content, box, rotation

    def left_unread(self, number: int) -> bool:
        """Whether a budget of the document left page ``number`` unread."""
        return number in self._unread

    def _unread_page(self, number: int, why: str) -> PageContent:
        """A page past one of the document's bounds: not read, and saying so."""
        self._unread.add(number)
        if self._first_unread is None:
            self._first_unread = number
            self._problem(f"{why} before page {number}; it and the pages after it were not read")
        content, _, _ = self._blank(number)
        content.problems.append(f"not read: {why} on the pages before it")
        content.incomplete = content.stopped_at_limit = True
        return content

    def _deadline(self, call: float | None = None) -> float:
        """The time reading a page must end by: its own limit, the document's, or the
        call's (``time.monotonic()``), whichever comes first."""
        ends = time.monotonic() + self.limits.page_seconds
        for other in (self.document_deadline, call):
            if other is not None:
                ends = min(ends, other)
        return ends

    def _read_page(self, number: int, stop_at: float) -> PageContent:
        page_obj = self._pages[number - 1]
        content, box, rotation = self._blank(number)
        if page_obj is None:
            content.problems.append(
                f"not read: the page tree counts {self.page_count} pages and holds no page {number}"
            )
            content.incomplete = True
            return content
        try:
            data, problems = content_bytes(page_obj)
        except Exception as exc:
            data, problems = b"", [f"the content stream cannot be read: {_short(exc)}"]
        if problems:
            content.problems.extend(problems)
            content.incomplete = True
            content.stopped_at_limit = any(isinstance(p, LimitProblem) for p in problems)
        resources = _inherited(page_obj, "/Resources")
        if _native.NATIVE is not None:
            try:
                return self._read_page_native(content, data, resources, box, rotation, stop_at)
            except _native.Fault:
                # A failure of the native code (never the input's fault): the Python
                # interpreter reads the page, from the same start (``content`` is untouched).
                pass
        interpreter = Interpreter(
            content,
            display_matrix(box, rotation),
            self._fonts,
            stop_at,
            self._keepalive,
            self.layers,
        )
        try:
            interpreter.run(data, resources)
        except PageTimeout as exc:
            interpreter._finish()
            content.problems.append(str(exc))
            content.incomplete = content.stopped_at_limit = True
        except RecursionError:
            interpreter._finish()
            content.problems.append("the page nests too deeply to read")
            content.incomplete = True
        except Exception as exc:  # damage inside pypdf objects reached from the page
            interpreter._finish()
            content.problems.append(f"reading stopped: {_short(exc)}")
            content.incomplete = True
        content.operators = interpreter.ops
        # Its table of bound methods makes the interpreter a cycle: emptied, the interpreter
        # (and what it held of the page) is freed at once instead of waiting for the cyclic
        # collector, which pages built on demand, outside a document's build, do not call.
        interpreter.ops_table.clear()
        return content

    def _read_page_native(
        self,
        content: PageContent,
        data: bytes,
        resources: Any,
        box: tuple[float, float, float, float],
        rotation: int,
        stop_at: float,
    ) -> PageContent:
        """The same page read by the native interpreter (``native_page``), stopping the way
        :meth:`_read_page` stops. Raises the native module's fault (see ``_native.Fault``)
        before ``content`` is changed."""
        stop = native_page.read_page(
            _native.NATIVE,
            content,
            data,
            resources,
            display_matrix(box, rotation),
            stop_at,
            self._fonts,
            self._keepalive,
            self._native_fonts,
            self.layers,
        )
        if stop is None:
            return content
        if isinstance(stop, str):  # the native twin of PageTimeout
            content.problems.append(stop)
            content.stopped_at_limit = True
        elif isinstance(stop, RecursionError):
            content.problems.append("the page nests too deeply to read")
        else:
            content.problems.append(f"reading stopped: {_short(stop)}")
        content.incomplete = True
        return content


def _page_geometry(page_obj: Any) -> tuple[tuple[float, float, float, float], int]:
    box: tuple[float, float, float, float] = (0.0, 0.0, 612.0, 792.0)
    for key in ("/CropBox", "/MediaBox"):
        raw = _inherited(page_obj, key)
        if isinstance(raw, list) and len(raw) == 4:
            values = [num(resolve(v), math_nan) for v in raw]
            if not any(math.isnan(v) for v in values):
                x0, y0, x1, y1 = values
                candidate = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
                if candidate[2] - candidate[0] > 1 and candidate[3] - candidate[1] > 1:
                    box = candidate
                    break
    rotation = int(num(_inherited(page_obj, "/Rotate"), 0)) % 360
    rotation = rotation - rotation % 90
    return box, rotation


math_nan = float("nan")


def _inherited(page_obj: Any, key: str) -> Any:
    """``key`` of the page, else of the nearest ancestor that has it (along /Parent, each
    node once, at most ``MAX_INHERITANCE`` levels up)."""
    walk = Walk("inherited attributes", MAX_INHERITANCE)
    node = page_obj
    while isinstance(node, dict):
        value = get(node, key)
        if value is not None:
            return value
        node = walk.entry(node, "/Parent")
    return None


def _empty_password_opened(reader: pypdf.PdfReader) -> bool:
    """Whether the empty password opened ``reader``'s encryption.

    pypdf tried it while opening the file but keeps the verdict to itself; asking
    ``decrypt("")`` again would repeat the key derivation (milliseconds for AES-256). Reading
    the catalog, which the document needs next anyway, tells the same: pypdf raises
    ``FileNotDecryptedError`` for an object it would have to decrypt without the key. Only
    when that read cannot tell (the catalog direct, already read while opening, missing or
    unreadable) is the empty password asked again."""
    root = reader.trailer.raw_get("/Root")
    if (
        isinstance(root, IndirectObject)
        and reader.cache_get_indirect_object(root.generation, root.idnum) is None
    ):
        try:
            if reader.get_object(root) is not None:
                return True
        except FileNotDecryptedError:
            return False
        except DependencyError:
            raise
        except Exception:  # damage: let pypdf answer the password on its own
            pass
    return reader.decrypt("") != PasswordType.NOT_DECRYPTED


def _uses_aes(reader: pypdf.PdfReader) -> bool:
    """Whether ``reader``'s encryption decrypts anything with AES (``/V 5``, or a ``/V 4``
    crypt filter of method ``/AESV2`` or ``/AESV3``)."""
    try:
        encrypt = resolve(reader.trailer["/Encrypt"])
        version = get(encrypt, "/V")
        if version == 5:
            return True
        filters = resolve(get(encrypt, "/CF"))
        if version != 4 or not isinstance(filters, dict):
            return False
        for key in ("/StmF", "/StrF", "/EFF"):
            name = get(encrypt, key)
            method = get(resolve(get(filters, str(name))), "/CFM") if name else None
            if str(method) in ("/AESV2", "/AESV3"):
                return True
    except Exception:  # damage: let the password check answer
        return False
    return False


def _aes_available() -> bool:
    """Whether pypdf can decrypt AES here: it does with ``cryptography`` or ``pycryptodome``
    (module ``Crypto``), whichever is installed (Pyodide offline has neither)."""
    return any(importlib.util.find_spec(name) is not None for name in ("cryptography", "Crypto"))


def password_refused(password: str | None) -> PdfthinError:
    """The answer to a password the file refuses (none given, or a wrong one)."""
    if password:
        return PdfthinError("encrypted", "the password is wrong", password_given=True)
    return PdfthinError("encrypted", "the PDF needs a password", password_given=False)


def _dependency_error(exc: BaseException) -> PdfthinError:
    text = str(exc)
    if "cryptography" in text or "AES" in text:
        return PdfthinError(
            "encrypted",
            "this PDF uses AES encryption, which needs the optional 'cryptography' package "
            "(pip install cryptography)",
            needs="cryptography",
        )
    return PdfthinError("unsupported", f"this PDF needs an optional decoder: {_short(exc)}")


def _open_error(exc: BaseException) -> PdfthinError:
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, DependencyError):
            return _dependency_error(cause)
        cause = cause.__cause__
    return PdfthinError("malformed", f"the PDF structure cannot be read: {_short(exc)}")


def _brotli_missing(data: bytes) -> bool:
    if b"/BrotliDecode" not in data:
        return False
    try:
        import brotli  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return True
    return False


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or exc.__class__.__name__
    return text[:200]
