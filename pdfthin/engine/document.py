"""Opening a PDF: bytes in, an :class:`EngineDocument` out.

This module and its siblings are the only code that touches pypdf. Every 0-based index pypdf
uses becomes 1-based here. Failures to open are :class:`~pdfthin.errors.PdfthinError` with a
stable code; failures inside a page are kept on that page.
"""

from __future__ import annotations

import hashlib
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
from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError
from pypdf.generic import IndirectObject, StreamObject

from ..errors import PdfthinError
from . import _native, native_page, native_reader, recovery
from .fonts import get, num, resolve, truthy
from .gcpause import collection_paused
from .interpreter import (
    Interpreter,
    PageTimeout,
    content_bytes,
    decode_text_string,
    display_matrix,
)
from .types import DocumentFacts, Metadata, OutlineEntry, PageContent

#: Defaults for the resource bounds (overridable per :func:`open_pdf` call).
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_STREAM_BYTES = 64 * 1024 * 1024
PAGE_SECONDS = 10.0
MAX_OUTLINE_ENTRIES = 20_000
MAX_FIELDS = 100_000
MAX_NAMES = 1_000
MAX_ANNOTATED_PAGES = 100_000
MAX_ANNOTATIONS = 10_000

_HEADER = re.compile(rb"%PDF-(\d\.\d)")


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = MAX_FILE_BYTES
    max_stream_bytes: int = MAX_STREAM_BYTES
    page_seconds: float = PAGE_SECONDS


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
        self._page_refs: list[Any] = []
        self.closed = False
        with _pypdf_quiet(self.limits):
            self.reader, self._pages = self._open(data, password)
        self.page_count = len(self._pages)
        self._page_numbers = {
            (ref.idnum, ref.generation): i + 1
            for i, ref in enumerate(self._page_refs)
            if ref is not None
        }

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
        self._pages = []
        self._page_refs = []
        self._fonts.clear()
        self._native_fonts.clear()
        self._keepalive.clear()

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

    def _open(self, data: bytes, password: str | None) -> tuple[pypdf.PdfReader, list[Any]]:
        """Open with pypdf; when that fails, try again on rebuilt cross-references, then
        with our own page-tree walk, then by scanning for page objects."""
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
        try:
            pages = list(reader.pages)
            self._page_refs = [getattr(p, "indirect_reference", None) for p in pages]
            if pages:
                return reader, pages
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
                self._page_refs = refs
                return reader, pages
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
            reader = native_reader.open_reader(data)
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
            encryption = reader._encryption
            if not password and encryption is not None:
                # pypdf tried the empty password while opening the file: its verdict stands
                # (asking again would repeat the key derivation, milliseconds for AES-256)
                ok = encryption.is_decrypted()
            else:
                ok = bool(reader.decrypt(password or ""))
        except DependencyError as exc:
            raise _dependency_error(exc) from None
        except (NotImplementedError, PdfReadError, ValueError, KeyError) as exc:
            raise PdfthinError(
                "encrypted", f"the encryption cannot be opened: {_short(exc)}"
            ) from None
        if not ok:
            if password:
                raise PdfthinError("encrypted", "the password is wrong", password_given=True)
            raise PdfthinError("encrypted", "the PDF needs a password", password_given=False)
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
            return self._metadata()

    def _metadata(self) -> Metadata:
        info: Any = None
        try:
            info = self.reader.trailer.get("/Info")
            info = resolve(info)
        except Exception:
            info = None

        def text(key: str) -> str | None:
            raw = get(info, key)
            if raw is None:
                return None
            if isinstance(raw, bytes):
                value = decode_text_string(raw)
            else:
                value = str(raw)
            value = " ".join(value.replace("\x00", "").split())
            return value or None

        root = resolve(self.reader.trailer.get("/Root"))
        version = self.header_version
        catalog_version = get(root, "/Version")
        if isinstance(catalog_version, str) and re.fullmatch(r"/\d\.\d", catalog_version):
            version = max(version, catalog_version[1:])
        mark_info = get(root, "/MarkInfo")
        tagged = truthy(get(mark_info, "/Marked")) or get(root, "/StructTreeRoot") is not None
        return Metadata(
            title=text("/Title"),
            author=text("/Author"),
            subject=text("/Subject"),
            keywords=text("/Keywords"),
            creator=text("/Creator"),
            producer=text("/Producer"),
            created=pdf_date(text("/CreationDate")),
            modified=pdf_date(text("/ModDate")),
            pdf_version=version,
            encrypted=bool(self.reader.is_encrypted),
            tagged=bool(tagged),
            page_labels=self._labels(),
        )

    def _labels(self) -> list[str] | None:
        root = resolve(self.reader.trailer.get("/Root"))
        if get(root, "/PageLabels") is None:
            return None
        try:
            labels = list(self.reader.page_labels)
        except Exception:
            return None
        if len(labels) != self.page_count:
            return None
        return [str(label) for label in labels]

    def outline(self) -> tuple[list[OutlineEntry], list[str]]:
        """The bookmarks in document order with 1-based pages, and problems met while
        reading them (a broken destination keeps its entry with ``page=None``)."""
        self._check_open()
        with _pypdf_quiet(self.limits):
            return self._outline()

    def _outline(self) -> tuple[list[OutlineEntry], list[str]]:
        root = resolve(self.reader.trailer.get("/Root"))
        outlines = get(root, "/Outlines")
        if not isinstance(outlines, dict):
            return [], []
        seen: set[Any] = set()
        entries, problems = self._outline_subtree(dict.get(outlines, "/First"), 1, seen)
        for entry in entries:
            if entry.problem and entry.problem not in problems:
                problems.append(f"{entry.title!r}: {entry.problem}")
        return entries, problems

    def _outline_subtree(
        self, first: Any, level: int, seen: set[Any]
    ) -> tuple[list[OutlineEntry], list[str]]:
        entries: list[OutlineEntry] = []
        problems: list[str] = []
        ref = first
        while ref is not None and len(seen) < MAX_OUTLINE_ENTRIES:
            key = (ref.idnum, ref.generation) if isinstance(ref, IndirectObject) else id(ref)
            if key in seen:
                problems.append("the outline contains a cycle; it was cut")
                break
            seen.add(key)
            node = resolve(ref)
            if not isinstance(node, dict):
                break
            entries.append(self._outline_entry(node, level))
            child = dict.get(node, "/First")
            if child is not None and level < 64:
                sub, sub_problems = self._outline_subtree(child, level + 1, seen)
                entries.extend(sub)
                problems.extend(sub_problems)
            ref = dict.get(node, "/Next")
        return entries, problems

    def _outline_entry(self, node: Any, level: int) -> OutlineEntry:
        title_raw = get(node, "/Title")
        if isinstance(title_raw, bytes):
            title = decode_text_string(title_raw)
        else:
            title = str(title_raw) if title_raw is not None else ""
        # Whitespace of any kind (PowerPoint writes line breaks as \x0b) becomes one space.
        title = " ".join(title.replace("\x00", "").split())
        page, problem = self._resolve_destination(node)
        return OutlineEntry(title=title, level=level, page=page, problem=problem)

    def _resolve_destination(self, node: Any) -> tuple[int | None, str | None]:
        dest = get(node, "/Dest")
        if dest is None:
            action = get(node, "/A")
            if action is None:
                return None, "no destination"
            if get(action, "/S") != "/GoTo":
                return None, "the action is not a go-to within the document"
            dest = get(action, "/D")
            if dest is None:
                return None, "the go-to action has no destination"
        return self._destination_page(dest, depth=0)

    def _destination_page(self, dest: Any, depth: int) -> tuple[int | None, str | None]:
        if depth > 8:
            return None, "destination chain too long"
        if isinstance(dest, (str, bytes)):
            target = self._named_destination(dest)
            if target is None:
                return None, "named destination not found"
            return self._destination_page(target, depth + 1)
        if isinstance(dest, dict):
            inner = get(dest, "/D")
            if inner is None:
                return None, "destination dictionary without /D"
            return self._destination_page(inner, depth + 1)
        if isinstance(dest, list):
            if not dest:
                return None, "empty destination"
            target = dest[0]
            if isinstance(target, IndirectObject):
                page = self._page_numbers.get((target.idnum, target.generation))
                if page is not None:
                    return page, None
                return None, "destination points to an object that is not a page"
            if isinstance(target, (int, float)) and not isinstance(target, bool):
                # Remote-style destinations use a 0-based page index.
                index = int(target)
                if 0 <= index < self.page_count:
                    return index + 1, None
                return None, "destination page index out of range"
            return None, "destination does not name a page"
        return None, "unrecognised destination"

    def _named_destination(self, name: Any) -> Any:
        if isinstance(name, bytes):
            key = name.decode("latin-1")
        else:
            key = str(name)
        bare = key[1:] if key.startswith("/") else key
        root = resolve(self.reader.trailer.get("/Root"))
        dests = get(root, "/Dests")
        if isinstance(dests, dict):
            for candidate in (key, "/" + bare):
                hit = get(dests, candidate)
                if hit is not None:
                    return hit
        names = get(get(root, "/Names"), "/Dests")
        if isinstance(names, dict):
            return _name_tree_lookup(names, bare)
        return None

    def facts(self) -> DocumentFacts:
        """Form fields, XFA, attachments, link and annotation counts (bounded walks)."""
        self._check_open()
        with _pypdf_quiet(self.limits):
            try:
                return self._facts()
            except Exception:
                return DocumentFacts()

    def _facts(self) -> DocumentFacts:
        root = resolve(self.reader.trailer.get("/Root"))
        facts = DocumentFacts()
        acroform = get(root, "/AcroForm")
        if isinstance(acroform, dict):
            facts.xfa = get(acroform, "/XFA") is not None
            facts.form_fields = _count_fields(get(acroform, "/Fields"))
        files = get(get(root, "/Names"), "/EmbeddedFiles")
        if isinstance(files, dict):
            facts.attachments = _name_tree_keys(files)
        for page_obj in self._pages[:MAX_ANNOTATED_PAGES]:
            annots = get(page_obj, "/Annots")
            if not isinstance(annots, list):
                continue
            for annot in annots[:MAX_ANNOTATIONS]:
                subtype = get(resolve(annot), "/Subtype")
                facts.annotations += 1
                if subtype == "/Link":
                    facts.links += 1
                elif subtype == "/FileAttachment":
                    name = get(get(resolve(annot), "/FS"), "/F")
                    if isinstance(name, str) and len(facts.attachments) < MAX_NAMES:
                        facts.attachments.append(name)
        return facts

    # --- pages ---------------------------------------------------------------------------

    def page(self, number: int) -> PageContent:
        """Read page ``number`` (1-based). Never raises for damage inside the page."""
        self._check_open()
        if not 1 <= number <= self.page_count:
            raise IndexError(number)
        with _pypdf_quiet(self.limits):
            return self._read_page(number)

    def _read_page(self, number: int) -> PageContent:
        page_obj = self._pages[number - 1]
        box, rotation = _page_geometry(page_obj)
        width = box[2] - box[0]
        height = box[3] - box[1]
        if rotation in (90, 270):
            width, height = height, width
        content = PageContent(number=number, width=width, height=height, rotation=rotation)
        try:
            data, problems = content_bytes(page_obj)
        except Exception as exc:
            data, problems = b"", [f"the content stream cannot be read: {_short(exc)}"]
        if problems:
            content.problems.extend(problems)
            content.incomplete = True
        resources = _inherited(page_obj, "/Resources")
        deadline = time.monotonic() + self.limits.page_seconds
        if _native.NATIVE is not None:
            try:
                return self._read_page_native(content, data, resources, box, rotation, deadline)
            except _native.Fault:
                # A failure of the native code (never the input's fault): the Python
                # interpreter reads the page, from the same start (``content`` is untouched).
                pass
        interpreter = Interpreter(
            content,
            display_matrix(box, rotation),
            self._fonts,
            deadline,
            self._keepalive,
        )
        try:
            interpreter.run(data, resources)
        except PageTimeout as exc:
            interpreter._finish()
            content.problems.append(str(exc))
            content.incomplete = True
        except RecursionError:
            interpreter._finish()
            content.problems.append("the page nests too deeply to read")
            content.incomplete = True
        except Exception as exc:  # damage inside pypdf objects reached from the page
            interpreter._finish()
            content.problems.append(f"reading stopped: {_short(exc)}")
            content.incomplete = True
        return content

    def _read_page_native(
        self,
        content: PageContent,
        data: bytes,
        resources: Any,
        box: tuple[float, float, float, float],
        rotation: int,
        deadline: float,
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
            deadline,
            self._fonts,
            self._keepalive,
            self._native_fonts,
        )
        if stop is None:
            return content
        if isinstance(stop, str):
            content.problems.append(stop)
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
    node = page_obj
    for _ in range(32):
        value = get(node, key)
        if value is not None:
            return value
        node = get(node, "/Parent")
        if node is None:
            return None
    return None


def _count_fields(fields: Any, depth: int = 0) -> int:
    """Terminal form fields (those without /Kids that are fields themselves)."""
    if not isinstance(fields, list) or depth > 32:
        return 0
    count = 0
    for ref in fields[:MAX_FIELDS]:
        field_obj = resolve(ref)
        kids = get(field_obj, "/Kids")
        if isinstance(kids, list) and any(get(resolve(k), "/T") is not None for k in kids):
            count += _count_fields(kids, depth + 1)
        else:
            count += 1
        if count >= MAX_FIELDS:
            break
    return count


def _name_tree_keys(node: Any, depth: int = 0) -> list[str]:
    if depth > 32 or not isinstance(node, dict):
        return []
    out: list[str] = []
    names = get(node, "/Names")
    if isinstance(names, list):
        for i in range(0, min(len(names), 2 * MAX_NAMES), 2):
            key = resolve(names[i])
            out.append(key.decode("latin-1") if isinstance(key, bytes) else str(key))
    kids = get(node, "/Kids")
    if isinstance(kids, list):
        for kid in kids[:MAX_NAMES]:
            out.extend(_name_tree_keys(resolve(kid), depth + 1))
            if len(out) >= MAX_NAMES:
                break
    return out[:MAX_NAMES]


def _name_tree_lookup(node: Any, key: str, depth: int = 0) -> Any:
    if depth > 32 or not isinstance(node, dict):
        return None
    names = get(node, "/Names")
    if isinstance(names, list):
        for i in range(0, len(names) - 1, 2):
            name = resolve(names[i])
            text = name.decode("latin-1") if isinstance(name, bytes) else str(name)
            if text == key:
                return resolve(names[i + 1])
    kids = get(node, "/Kids")
    if isinstance(kids, list):
        for kid in kids[:4096]:
            kid_obj = resolve(kid)
            limits = get(kid_obj, "/Limits")
            if isinstance(limits, list) and len(limits) == 2:
                lo, hi = (resolve(v) for v in limits)
                lo_s = lo.decode("latin-1") if isinstance(lo, bytes) else str(lo)
                hi_s = hi.decode("latin-1") if isinstance(hi, bytes) else str(hi)
                if not lo_s <= key <= hi_s:
                    continue
            hit = _name_tree_lookup(kid_obj, key, depth + 1)
            if hit is not None:
                return hit
    return None


_DATE = re.compile(
    r"^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*([Zz+\-])?(\d{2})?'?(\d{2})?"
)


def pdf_date(raw: str | None) -> str | None:
    """``D:20200131120000+01'00'`` -> ``2020-01-31T12:00:00+01:00`` (ISO 8601); other text
    is returned as found."""
    if not raw:
        return None
    m = _DATE.match(raw.strip())
    if m is None:
        return raw
    year, month, day, hour, minute, second, tz, tzh, tzm = m.groups()
    out = f"{year}-{month or '01'}-{day or '01'}"
    if hour:
        out += f"T{hour}:{minute or '00'}:{second or '00'}"
        if tz in ("Z", "z"):
            out += "Z"
        elif tz in ("+", "-") and tzh:
            out += f"{tz}{tzh}:{tzm or '00'}"
    return out


def _dependency_error(exc: BaseException) -> PdfthinError:
    text = str(exc)
    if "cryptography" in text or "AES" in text:
        return PdfthinError(
            "encrypted",
            "this PDF uses AES encryption, which needs the optional 'cryptography' package "
            "(pip install 'pdfthin[crypto]')",
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
