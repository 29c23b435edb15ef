"""pypdf's reader with the native accelerator parsing plain indirect objects.

pypdf's ``PdfReader.get_object`` reads an object that is not cached yet, not in an object
stream and not free at the offset its cross-reference table gives: the header ``N G obj``, then
``read_object``. :class:`NativeReader` lets ``pdfthin_native.read_indirect`` do that for
unencrypted files. It builds the same pypdf objects (pypdf's own classes and its
``create_string_object``) or answers ``None`` for anything it is not sure pypdf would read
the plain way (a warning, a repair, a limit, an indirect stream /Length, an object stream, ...),
and then pypdf reads the object itself. Either way the object is cached as pypdf caches it.
``tests/test_native_objects.py`` compares both parsers on every object of the corpus.

Three more of pypdf's steps are native in the same way. An object inside an object stream:
``_get_object_from_stream`` gets the stream and its decompressed data as pypdf does, then
``pdfthin_native.read_object_stream`` reads its index and all its objects at once, and they are
cached as pypdf caches them; anything pypdf would warn about, repair or raise on (a bad /N or
/First, offsets out of order or range, a stream keyword, an object it reads another way, ...)
is left to pypdf's own ``_get_object_from_stream``. And ``read_object_header`` on the reader's
own stream (pypdf's ``read()`` checks every entry of the cross-reference table with it):
``pdfthin_native.read_object_header`` answers plain headers, pypdf reads any other. And the
entries of a cross-reference stream (``_read_xref_subsections`` with pypdf's own ``get_entry``):
``pdfthin_native.read_xref_entries`` reads their fields, recorded here as pypdf records them.

pypdf is not patched: the fast path is a subclass, used only when the native module is loaded
(``_native.NATIVE``) and only with the pypdf versions whose ``get_object``, ``read_object`` and
the object classes' ``read_from_stream`` were checked to be the ones reproduced (7.0 and 7.1;
the two releases are identical there). Any other version gets pypdf's plain reader.
"""

from __future__ import annotations

import functools
import io
import operator
import re
import types
from collections.abc import Callable
from typing import Any

import pypdf
from pypdf._configuration import get_configuration
from pypdf._utils import (
    logger_warning,
    read_until_whitespace,
    skip_over_whitespace,
)
from pypdf.constants import StreamAttributes
from pypdf.errors import LimitReachedError, PdfReadError
from pypdf.filters import decode_stream_data
from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    DecodedStreamObject,
    DictionaryObject,
    EncodedStreamObject,
    FloatObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
    PdfObject,
    StreamObject,
    create_string_object,
    read_object,
)

from . import _native

#: Numbers the native side takes (an unsigned 64-bit integer, with room to spare).
_BIG = 2**62

#: The code of the two closures pypdf's ``_read_pdf15_xref_stream`` hands to
#: ``_read_xref_subsections`` (``get_entry`` reads the fields of an entry from its data).
_XREF_CLOSURES = {
    c.co_name: c
    for c in pypdf.PdfReader._read_pdf15_xref_stream.__code__.co_consts
    if isinstance(c, types.CodeType)
}

#: Whether pypdf's ``_read_xref`` lets a ``LimitReachedError`` from reading the
#: ``/XRefStm`` stream through (7.1.1 does, 7.0 and 7.1.0 log it like any other error).
_XREFSTM_RAISES_LIMITS = "LimitReachedError" in pypdf.PdfReader._read_xref.__code__.co_names

#: Any object header (pypdf's ``get_object`` searches the file for one object's with this
#: pattern, its numbers written in); see ``NativeReader._header_index``.
_HEADER = re.compile(rb"\s(\d+)\s+(\d+)\s+obj")

#: The pypdf releases whose object parsing ``read_indirect`` reproduces.
VERIFIED_PYPDF = ("7.0.", "7.1.")


class _FileSpan:
    """A stream read natively whose ``_data`` stays in the file until something reads it: then
    it is the same bytes pypdf's ``initialize_from_dictionary`` would have stored (the span of
    the file between ``stream`` and ``endstream``), copied once and kept as pypdf keeps it.
    A stream nothing reads (an image's samples, a font program not needed, an ICC profile) is
    never copied, which saves the copy and the memory it would take while the file is open."""

    __slots__ = ()
    _pdfthin_span: tuple[bytes, int, int]

    def __getattr__(self, name: str) -> Any:
        # Only an attribute not found the usual way gets here; ``_data`` is one until read.
        if name == "_data":
            try:
                source, start, end = self._pdfthin_span
            except AttributeError:
                pass
            else:
                data = source[start:end]
                self.__dict__["_data"] = data
                del self._pdfthin_span
                return data
        raise AttributeError(
            f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self
        )


class FileEncodedStream(_FileSpan, EncodedStreamObject):
    __slots__ = ("_pdfthin_span",)

    def get_data(self) -> bytes:
        # pypdf's get_data, with the data of a plain /FlateDecode stream inflated natively
        # (``_inflated``) and cached as pypdf caches it; any other stream is pypdf's.
        if self.decoded_self is None:
            data = _inflated(self, self._data)
            if data is not None:
                decoded = DecodedStreamObject()
                decoded.set_data(data)
                for key, value in self.items():
                    if key not in _NOT_DECODED_KEYS:
                        decoded[key] = value
                self.decoded_self = decoded
        return super().get_data()

    def data_once(self) -> bytes:
        """``get_data()`` for a stream read once (see ``streams.read_once``): a stream still
        in the file is inflated from a transient copy of its span, and neither that copy nor
        the decoded data is kept."""
        if self.decoded_self is not None:
            return self.get_data()
        data = self.__dict__.get("_data")
        if data is None:
            source, start, end = self._pdfthin_span
            data = source[start:end]
        inflated = _inflated(self, data)
        return inflated if inflated is not None else decode_stream_data(self)


class FileDecodedStream(_FileSpan, DecodedStreamObject):
    __slots__ = ("_pdfthin_span",)


#: The entries pypdf's ``EncodedStreamObject.get_data`` leaves out of the decoded stream.
_NOT_DECODED_KEYS = (
    StreamAttributes.LENGTH,
    StreamAttributes.FILTER,
    StreamAttributes.DECODE_PARMS,
)


def _inflated(stream: StreamObject, data: object) -> bytes | None:
    """``decode_stream_data(stream)``, whose encoded data is ``data``, where it is one zlib
    inflate: the stream's one filter is
    ``/FlateDecode`` (a name, not an array or a reference), without ``/DecodeParms`` (so no
    predictor), with data, within pypdf's limits (filters, output, decoding work), and zlib
    decodes it whole (``pdfthin_native.inflate``). ``None``: pypdf decodes it (its recovery
    of damaged streams, its errors and warnings included)."""
    native = _native.NATIVE
    if native is None:
        return None
    filters = dict.get(stream, StreamAttributes.FILTER)
    if type(filters) is not NameObject or filters != "/FlateDecode":
        return None
    if StreamAttributes.DECODE_PARMS in stream:
        return None
    config = get_configuration()
    work = config.stream_decoding_work_maximum_length
    limit = config.zlib_maximum_output_length
    filters_allowed = config.stream_filters_maximum_length
    if (
        type(data) is not bytes
        or not data
        or type(filters_allowed) is not int
        or filters_allowed < 1
        or type(work) is not int
        or type(limit) is not int
        or not 0 <= limit < _BIG
        or not len(data) <= work < _BIG
    ):
        return None
    try:
        inflated: bytes | None = native.inflate(data, limit, work - len(data))
    except _native.Fault:  # a failure of the native code: pypdf decodes it
        return None
    return inflated


#: pypdf's stream classes, and those of a stream read natively.
_STREAM_TYPES = (EncodedStreamObject, DecodedStreamObject, FileEncodedStream, FileDecodedStream)


def _file_stream(source: bytes, items: dict[Any, Any], start: int, end: int) -> StreamObject:
    """``StreamObject.initialize_from_dictionary`` of ``items`` and the data at
    ``source[start:end]``, with the data left in ``source`` until read (see ``_FileSpan``)."""
    stream: FileEncodedStream | FileDecodedStream = (
        FileEncodedStream.__new__(FileEncodedStream)
        if StreamAttributes.FILTER in items
        else FileDecodedStream.__new__(FileDecodedStream)
    )
    stream.decoded_self = None
    stream._pdfthin_span = (source, start, end)
    items.pop(StreamAttributes.LENGTH, None)
    stream.update(items)
    return stream


def factory(source: bytes) -> tuple[Any, ...]:
    """What ``read_indirect`` builds objects with (see ``pdfthin_native/src/objects.rs``) when
    it reads the file ``source``. ``NumberObject(x)`` and ``FloatObject(x)`` are
    ``int.__new__`` / ``float.__new__`` of their class once pypdf has converted the text; the
    native side hands over the number. A stream is made from its dictionary's items and the
    span of ``source`` its data is at."""
    return (
        DictionaryObject,
        ArrayObject,
        NameObject,
        functools.partial(int.__new__, NumberObject),
        functools.partial(float.__new__, FloatObject),
        BooleanObject,
        NullObject,
        IndirectObject,
        create_string_object,
        functools.partial(_file_stream, source),
    )


def _declining(read: Callable[..., Any]) -> Callable[..., Any]:
    """``read``, whose ``None`` means "pypdf reads it", answering ``None`` for a failure of
    the native code itself (``_native.Fault``) too: pypdf then reads it, so the answer is
    pypdf's (such a failure is never let into pypdf's own code, whose ``except Exception``
    around some reads would turn it into a different answer)."""

    def declining(*args: Any) -> Any:
        try:
            return read(*args)
        except _native.Fault:
            return None

    return declining


def enabled() -> bool:
    """Whether :func:`open_reader` takes the native fast path."""
    return _native.NATIVE is not None and pypdf.__version__.startswith(VERIFIED_PYPDF)


def open_reader(data: bytes) -> pypdf.PdfReader:
    """``pypdf.PdfReader(io.BytesIO(data), strict=False)``, natively parsed where possible."""
    if enabled():
        return NativeReader(data)
    return pypdf.PdfReader(io.BytesIO(data), strict=False)


class NativeReader(pypdf.PdfReader):
    """A non-strict ``PdfReader`` of ``data`` whose ``get_object`` reads plain objects natively."""

    def __init__(self, data: bytes) -> None:
        native = _native.NATIVE
        assert native is not None
        self._native_read = _declining(native.read_indirect)
        self._native_read_objstm = _declining(native.read_object_stream)
        self._native_header = _declining(native.read_object_header)
        self._native_xref_entries = _declining(native.read_xref_entries)
        self._native_xref_table = _declining(native.read_xref_table)
        self._native_object_at = _declining(native.read_object_at)
        self._native_stream_head = _declining(native.read_stream_head)
        self._native_data = data
        self._native_factory = factory(data)
        self._native_config: Any = None
        self._native_limits: tuple[int, int, int] | None = None
        self._native_headers: dict[tuple[bytes, bytes], tuple[int, int]] | None = None
        self._native_stream = io.BytesIO(data)
        self._native_ready = False  # pypdf's own path while the reader is being set up
        self._native_objects_ready = False  # get_object's own path (see _handle_encryption)
        super().__init__(self._native_stream, strict=False)
        self._native_ready = True

    def close(self) -> None:
        """pypdf's ``close``, and the file's bytes let go of now: the reader sits in reference
        cycles (its objects point back at it) that only the cyclic collector frees."""
        super().close()
        self._native_data = b""
        self._native_factory = factory(b"")

    def _limits(self) -> tuple[int, int, int] | None:
        """pypdf's limits as the native side takes them, ``None`` if they do not fit (kept for
        the configuration they were read from: pypdf's ``Configuration`` is frozen)."""
        config = get_configuration()
        if config is self._native_config:
            return self._native_limits
        self._native_config = config
        self._native_limits = self._read_limits(config)
        return self._native_limits

    @staticmethod
    def _read_limits(config: Any) -> tuple[int, int, int] | None:
        array = config.array_maximum_element_count
        dictionary = config.dictionary_maximum_element_count
        stream = config.maximum_declared_stream_length
        if (
            type(array) is int
            and type(dictionary) is int
            and type(stream) is int
            and 0 <= array < _BIG
            and 0 <= dictionary < _BIG
            and 0 <= stream < _BIG
        ):
            return array, dictionary, stream
        return None

    def read_object_header(self, stream: Any) -> tuple[int, int]:
        # pypdf's read_object_header (non-strict: no warning) on this reader's own stream, whose
        # bytes are ``data``: the native side answers the plain headers, with the position
        # pypdf leaves the stream at; anything else, pypdf reads from the same position. Used
        # by pypdf's read() to check every entry of the cross-reference table, and by
        # get_object on its own path.
        if stream is self._native_stream and not self.strict:
            found = self._native_header(self._native_data, stream.tell())
            if found is not None:
                idnum, generation, end = found
                stream.seek(end, 0)
                return idnum, generation
        return super().read_object_header(stream)

    def _read_standard_xref_table(self, stream: Any) -> None:
        # pypdf's _read_standard_xref_table (non-strict) on this reader's own stream: the
        # table is read natively first, with no effect; only if pypdf would read it the
        # plain way (see read_xref_table) are its entries recorded as pypdf records them and
        # the stream left after "trailer". Anything else (a warning, a repair, a rebuild, an
        # exception) is pypdf's own reading from the same position.
        found = None
        if stream is self._native_stream and not self.strict:
            found = self._native_xref_table(self._native_data, stream.tell())
        if found is None:
            super()._read_standard_xref_table(stream)
            return
        subsections, end = found
        self._record_xref_table(subsections)
        stream.seek(end, 0)

    def _record_xref_table(self, subsections: list[tuple[int, list[tuple[int, int, int]]]]) -> None:
        """pypdf's effects of reading a plain classic table: the entries ``(offset,
        generation, kind)`` (1 ``n``, 2 ``f``, 0 another type) of each subsection, in order."""
        xref = self.xref
        free = self.xref_free_entry
        for index, (first, entries) in enumerate(subsections):
            # read_object's NumberObject, then ``num += 1``: plain ints after the first
            num: int = NumberObject(first)
            if index == 0 and num != 0:
                self.xref_index = num
            for offset, generation, kind in entries:
                if generation not in xref:
                    xref[generation] = {}
                    free[generation] = {}
                if num not in xref[generation]:
                    is_free = kind == 2
                    if kind == 1:
                        xref[generation][num] = offset
                    try:
                        free[generation][num] = is_free
                    except MemoryError:  # pragma: no cover
                        raise
                    except Exception:
                        pass
                    try:
                        free[65535][num] = is_free
                    except MemoryError:  # pragma: no cover
                        raise
                    except Exception:
                        pass
                num += 1

    def _read_xref(self, stream: Any) -> int | None:
        # pypdf's _read_xref (a classic table and its trailer) with both read natively
        # before anything changes: the table as _read_standard_xref_table above, the trailer
        # by read_object_at. Only if both are plain (the trailer a DictionaryObject) are
        # they recorded, and the rest is pypdf's code; else pypdf's _read_xref from the
        # same position.
        if stream is not self._native_stream or self.strict:
            return super()._read_xref(stream)
        data = self._native_data
        table = self._native_xref_table(data, stream.tell())
        limits = self._limits()
        if table is None or limits is None:
            return super()._read_xref(stream)
        subsections, end = table
        if end >= len(data):  # pypdf's ``stream.read(1) == b""``
            self._record_xref_table(subsections)
            stream.seek(end, 0)
            return None
        found = self._native_object_at(data, end, self, self._native_factory, limits)
        if found is None or type(found[0]) is not DictionaryObject:
            return super()._read_xref(stream)
        new_trailer, after = found
        self._record_xref_table(subsections)
        stream.seek(after, 0)
        # from here on pypdf's code
        for key, value in new_trailer.items():
            if key not in self.trailer:
                self.trailer[key] = value
        if "/XRefStm" in new_trailer:
            p = stream.tell()
            stream.seek(new_trailer["/XRefStm"] + 1, 0)
            try:
                self._read_pdf15_xref_stream(stream)
            except MemoryError:  # pragma: no cover
                raise
            except Exception as exc:
                if _XREFSTM_RAISES_LIMITS and isinstance(exc, LimitReachedError):
                    raise
                logger_warning(
                    "XRef object at %(xref_stm)d can not be read, some object may be missing",
                    source="pypdf._reader",
                    xref_stm=int(new_trailer["/XRefStm"]),
                )
            stream.seek(p, 0)
        if "/Prev" in new_trailer:
            prev: int = new_trailer["/Prev"]
            return prev
        return None

    def _read_object_here(self, stream: Any) -> Any:
        """pypdf's ``read_object(stream, self)`` at the stream's position (not whitespace:
        after ``read_object_header``), natively where plain."""
        limits = self._limits()
        if limits is not None:
            found = self._native_object_at(
                self._native_data, stream.tell(), self, self._native_factory, limits
            )
            if found is not None:
                obj, end = found
                stream.seek(end, 0)
                return obj
        return self._read_object_declined(stream)

    def _read_object_declined(self, stream: Any) -> Any:
        """pypdf's ``read_object(stream, self)`` where the native parser declined, with one
        repair of pypdf's (7.0/7.1) made here: a stream whose data, as long as its direct
        ``/Length`` says, is not followed by ``endstream``. pypdf's ``_read_stream_data``
        reads the whitespace after the data a byte at a time before it repairs (damaged
        files hold megabytes of it); ``read_stream_head`` answers where it ends, and the
        repair below is pypdf's, step by step."""
        limits = self._limits()
        if limits is None or stream is not self._native_stream or self.strict:
            return read_object(stream, self)
        data = self._native_data
        head = self._native_stream_head(data, stream.tell(), self, self._native_factory, limits)
        if head is None:
            return read_object(stream, self)
        dictionary, start, end, e = head
        # After ``e = read_non_whitespace(stream); ndstream = stream.read(8)`` past the data
        # read with the declared length, stream.tell() is ``pos``.
        pos = min(e + 9, len(data))
        if pos < 10:  # pypdf's seek(-10, 1) fails: its own error
            return read_object(stream, self)
        entries = {key: dictionary.raw_get(key) for key in dictionary}
        streamdata = data[start:end]
        if data[pos - 10 : pos - 1] == b"endstream":
            # "the odd PDF file has a length that is too long": one byte back
            streamdata = streamdata[:-1]
            stream.seek(pos - 1, 0)
        else:
            stream.seek(start, 0)
            streamdata = DictionaryObject._read_unsized_from_stream(
                stream=stream, pdf=self, length=get_configuration().maximum_declared_stream_length
            )
        entries["__streamdata__"] = streamdata
        return StreamObject.initialize_from_dictionary(entries)

    def _rebuild_xref_table(self, stream: Any) -> None:
        # pypdf's _rebuild_xref_table (the same in 7.0 and 7.1) with each object it reads
        # read natively where plain (_read_object_here), pypdf's read_object otherwise.
        if stream is not self._native_stream or self.strict:
            super()._rebuild_xref_table(stream)
            return
        self.xref = {}
        stream.seek(0, 0)
        stream_data = stream.read(-1)

        for object_number, generation_number, object_start in self._find_pdf_objects(stream_data):
            if generation_number not in self.xref:
                self.xref[generation_number] = {}
            self.xref[generation_number][object_number] = object_start

        logger_warning("parsing for Object Streams", source="pypdf._reader")
        xref_stream_trailers: list[tuple[int, DictionaryObject]] = []
        for generation_number in self.xref:
            for object_number in self.xref[generation_number]:
                # get_object in manual
                object_start = self.xref[generation_number][object_number]
                stream.seek(object_start, 0)
                try:
                    _ = self.read_object_header(stream)
                    obj = self._read_object_here(stream)
                    object_type = obj.get("/Type", "")
                    if object_type == "/XRef":
                        trailer = DictionaryObject()
                        for key in self._XREF_STREAM_TRAILER_KEYS:
                            if key in obj:
                                trailer[NameObject(key)] = obj.raw_get(key)
                        xref_stream_trailers.append((object_start, trailer))
                        continue
                    if object_type != "/ObjStm":
                        continue
                    object_stream = io.BytesIO(obj.get_data())
                    actual_count = 0
                    while True:
                        current = read_until_whitespace(
                            object_stream,
                            max_bytes=IndirectObject._MAXIMUM_PART_LENGTH,
                            strict=self.strict,
                        )
                        if not current.isdigit():
                            break
                        inner_object_number = int(current)
                        skip_over_whitespace(object_stream)
                        object_stream.seek(-1, 1)
                        current = read_until_whitespace(
                            object_stream,
                            max_bytes=IndirectObject._MAXIMUM_PART_LENGTH,
                            strict=self.strict,
                        )
                        if not current.isdigit():  # pragma: no cover
                            break  # pragma: no cover
                        inner_offset = int(current)
                        self.xref_objStm[inner_object_number] = (object_number, inner_offset)
                        actual_count += 1
                    expected_count = obj["/N"]
                    if actual_count != expected_count:  # pragma: no cover
                        logger_warning(  # pragma: no cover
                            (
                                "found %(actual_count)d objects within "
                                "Object(%(object_number)d,%(generation_number)d) "
                                "whereas %(expected)d expected"
                            ),
                            source="pypdf._reader",
                            actual_count=actual_count,
                            object_number=object_number,
                            generation_number=generation_number,
                            expected=expected_count,
                        )
                except LimitReachedError:
                    raise
                except MemoryError:  # pragma: no cover
                    raise
                except Exception:  # could be multiple causes
                    pass

        stream.seek(0, 0)
        trailers: list[tuple[int, dict[Any, Any]]] = list(xref_stream_trailers)
        for position in self._find_pdf_trailers(stream_data):
            stream.seek(position, 0)
            trailers.append((position, self._read_object_here(stream)))
        # Here, we are parsing the file from start to end, the new data have to erase the existing.
        for _, new_trailer in sorted(trailers, key=operator.itemgetter(0)):
            for key, value in new_trailer.items():
                self.trailer[key] = value

    def _read_xref_subsections(
        self,
        idx_pairs: list[int],
        get_entry: Callable[[int], int | tuple[int, ...]],
        used_before: Callable[[int, int | tuple[int, ...]], bool],
    ) -> None:
        # pypdf's loop over the entries of a cross-reference stream with its own get_entry
        # (checked by its code: it reads each field from the stream's data, ``stream_data``,
        # ``entry_sizes[i]`` bytes as a big-endian number): the fields are read natively, then
        # recorded here as pypdf records them (in order, asking used_before). Anything else
        # (another caller, odd widths or subsections, strict mode) is pypdf's loop.
        found = self._native_xref(idx_pairs, get_entry, used_before)
        if found is None:
            super()._read_xref_subsections(idx_pairs, get_entry, used_before)
            return
        entries, end, stream_data = found
        for num, xref_type, field2, field3 in entries:
            if xref_type == 1:
                if field3 not in self.xref:
                    self.xref[field3] = {}
                if not used_before(num, field3):
                    self.xref[field3][num] = field2
            elif not used_before(num, 0):
                self.xref_objStm[num] = (field2, field3)
        stream_data.seek(end, 0)

    def _native_xref(
        self,
        idx_pairs: list[int],
        get_entry: Callable[[int], int | tuple[int, ...]],
        used_before: Callable[[int, int | tuple[int, ...]], bool],
    ) -> tuple[list[tuple[int, int, int, int]], int, io.BytesIO] | None:
        """The entries (types 1 and 2) and the end of pypdf's ``get_entry`` reads, and the
        data's stream; ``None`` where pypdf must read them."""
        code = getattr(get_entry, "__code__", None)
        if (
            self.strict
            or code is None
            or code is not _XREF_CLOSURES.get("get_entry")
            or getattr(used_before, "__code__", None) is not _XREF_CLOSURES.get("used_before")
            or type(idx_pairs) is not list
        ):
            return None
        assert code is not None
        try:
            cells = dict(zip(code.co_freevars, get_entry.__closure__ or (), strict=True))
            entry_sizes = cells["entry_sizes"].cell_contents
            stream_data = cells["stream_data"].cell_contents
        except (KeyError, ValueError):
            return None
        if type(stream_data) is not io.BytesIO or not isinstance(entry_sizes, list):
            return None
        widths = entry_sizes[:3]
        numbers = [*widths, *idx_pairs]
        if len(widths) != 3 or not all(
            isinstance(n, int) and not isinstance(n, bool) and -_BIG < n < _BIG for n in numbers
        ):
            return None
        found = self._native_xref_entries(
            stream_data.getvalue(),
            stream_data.tell(),
            tuple(int(w) for w in widths),
            [int(n) for n in idx_pairs],
        )
        if found is None:
            return None
        entries, end = found
        return entries, end, stream_data

    def _handle_encryption(self, password: str | bytes | None) -> None:
        # pypdf's reader is set up but for its encryption: get_object's own path (not the
        # object streams', whose resolution stack is made later) may read the /ID and
        # /Encrypt objects natively.
        self._native_objects_ready = True
        super()._handle_encryption(password)

    def get_object(self, indirect_reference: int | IndirectObject) -> Any:
        # The plain path of pypdf's get_object, where its only effects are: the object read at
        # the offset, decrypted as pypdf decrypts it (encryption set, not overridden), cached
        # with cache_indirect_object, and the stream left after it (its loop detection adds
        # and removes the object around a read_object that here never calls get_object: no
        # indirect /Length). An encrypted file not decrypted yet: pypdf's path (it raises).
        if (
            not (self._native_ready or self._native_objects_ready)
            or not isinstance(indirect_reference, IndirectObject)
            or self.stream is not self._native_stream
            or (
                self._encryption is not None
                and not self._override_encryption
                and not self._encryption.is_decrypted()
            )
        ):
            return super().get_object(indirect_reference)
        idnum = indirect_reference.idnum
        generation = indirect_reference.generation
        key = (generation, idnum)
        if (
            key in self.resolved_objects
            or (generation == 0 and idnum in self.xref_objStm)
            or (idnum, generation) in self._known_objects
            or self.xref_free_entry.get(generation, {}).get(idnum, False)
        ):
            return super().get_object(indirect_reference)
        if type(idnum) is not int or type(generation) is not int:
            return super().get_object(indirect_reference)
        table = self.xref.get(generation, {})
        if idnum not in table:
            if self.strict or idnum < 0 or generation < 0:
                return super().get_object(indirect_reference)
            return self._get_object_not_in_table(indirect_reference)
        start = table[idnum]
        if type(start) is not int or not (
            0 <= idnum < _BIG and 0 <= generation < _BIG and 0 <= start < _BIG
        ):
            return super().get_object(indirect_reference)
        limits = self._limits()
        if limits is None:
            return super().get_object(indirect_reference)
        found = self._native_read(
            self._native_data, start, idnum, generation, self, self._native_factory, limits
        )
        if found is None:
            if self.strict:
                return super().get_object(indirect_reference)
            return self._get_object_at(indirect_reference, start)
        obj, end = found
        self.stream.seek(end, 0)
        obj = self._decrypted(obj, idnum, generation)
        return self.cache_indirect_object(generation, idnum, obj)

    def _decrypted(self, obj: Any, idnum: int, generation: int) -> Any:
        """An object read for ``get_object``, decrypted as pypdf decrypts it (encryption set
        and not overridden; ``get_object`` leaves a file not decrypted yet to pypdf, which
        raises)."""
        if not self._override_encryption and self._encryption is not None:
            return self._encryption.decrypt_object(obj, idnum, generation, strict=self.strict)
        return obj

    def _get_object_at(self, indirect_reference: IndirectObject, start: int) -> Any:
        # pypdf's get_object (non-strict) for an object of the table, not free, not in an
        # object stream, not being read (get_object leaves those, and a file not decrypted
        # yet, to pypdf), step by step as pypdf 7.0/7.1 takes them; only its search of the
        # whole file for the object's header, where the header at the table's offset is not
        # the object's, is answered from an index of the file's headers made
        # once (``_header_index``) instead of a regular expression over the whole file (and a
        # copy of it) for every such object: a damaged table can send dozens there.
        idnum = indirect_reference.idnum
        generation = indirect_reference.generation
        self.stream.seek(start, 0)
        try:
            found_id, found_gen = self.read_object_header(self.stream)
            if found_id != idnum or found_gen != generation:
                raise PdfReadError("Not matching, we parse the file for it")
        except MemoryError:
            raise
        except Exception:
            match = self._header_match(idnum, generation)
            if match is not None:
                logger_warning(
                    "Object ID %(idnum)d,%(generation)d ref repaired",
                    source="pypdf._reader",
                    idnum=idnum,
                    generation=generation,
                )
                self.xref[generation][idnum] = match[0] + 1
                self.stream.seek(match[0] + 1)
                self.read_object_header(self.stream)
        current_object = (idnum, generation)
        self._known_objects.add(current_object)
        retval = self._read_object_declined(self.stream)
        self._known_objects.remove(current_object)
        retval = self._decrypted(retval, idnum, generation)
        self.cache_indirect_object(generation, idnum, retval)
        return retval

    def _get_object_not_in_table(self, indirect_reference: IndirectObject) -> Any:
        # pypdf's get_object (non-strict) for an object the table does not have, as pypdf
        # 7.0/7.1 reads it: found by searching the file for its header (then added to the
        # table and read after it), else None with a warning; cached either way. The search
        # is answered from ``_header_index``: a dangling reference costs no pass over the file.
        idnum = indirect_reference.idnum
        generation = indirect_reference.generation
        retval: Any = None
        match = self._header_match(idnum, generation)
        if match is not None:
            logger_warning(
                "Object %(idnum)d %(generation)d found",
                source="pypdf._reader",
                idnum=idnum,
                generation=generation,
            )
            if generation not in self.xref:
                self.xref[generation] = {}
            self.xref[generation][idnum] = match[0] + 1
            self.stream.seek(match[1] + 1)
            skip_over_whitespace(self.stream)
            self.stream.seek(-1, 1)
            retval = self._decrypted(self._read_object_declined(self.stream), idnum, generation)
        else:
            logger_warning(
                "Object %(idnum)d %(generation)d not defined.",
                source="pypdf._reader",
                idnum=idnum,
                generation=generation,
            )
        self.cache_indirect_object(generation, idnum, retval)
        return retval

    def _header_match(self, idnum: int, generation: int) -> tuple[int, int] | None:
        """``re.search(rf"\\s{idnum}\\s+{generation}\\s+obj".encode(), data)``'s span, as pypdf
        searches the file for an object's header (``idnum``, ``generation`` >= 0)."""
        return self._header_index().get((b"%d" % idnum, b"%d" % generation))

    def _header_index(self) -> dict[tuple[bytes, bytes], tuple[int, int]]:
        """The span of every object's first header in the file, keyed by its two numbers'
        digits: one pass of the general pattern. Its matches are pypdf's searches' for each
        pair: a header's whitespace and digit runs are whole (digits, whitespace and ``obj``
        are different characters), so headers cannot overlap, each has one start, and the
        leftmost match for a pair is the first header whose runs are exactly those digits."""
        if self._native_headers is None:
            index: dict[tuple[bytes, bytes], tuple[int, int]] = {}
            for m in _HEADER.finditer(self._native_data):
                index.setdefault((m.group(1), m.group(2)), m.span())
            self._native_headers = index
        return self._native_headers

    def _get_object_from_stream(self, indirect_reference: IndirectObject) -> PdfObject:
        # pypdf's _get_object_from_stream with both phases (the index and the objects) read
        # natively from the decompressed data; anything not plain goes to pypdf's own. Its
        # steps with effects are taken here as pypdf takes them, in the same order and with
        # the object on the resolution stack: getting the stream (IndirectObject.get_object)
        # and its data (get_data). pypdf's path may follow them: it gets both again, and the
        # second time changes nothing (the stream is then cached, or a free entry's fresh
        # NullObject; a stream inside an object stream is left to pypdf from the start, and
        # so is a stream pypdf could not get: the exception comes from here as from there).
        # Only then the objects are cached, and only if every one was read natively.
        if not self._native_ready or self.strict or self._encryption is not None:
            return super()._get_object_from_stream(indirect_reference)
        stack = self._object_stream_resolution_stack
        idnum = indirect_reference.idnum
        if type(idnum) is not int or idnum in stack:
            return super()._get_object_from_stream(indirect_reference)
        entry = self.xref_objStm.get(idnum)
        if type(entry) is not tuple or len(entry) != 2 or type(entry[0]) is not int:
            return super()._get_object_from_stream(indirect_reference)
        stmnum = entry[0]
        if (0, stmnum) not in self.resolved_objects and stmnum in self.xref_objStm:
            return super()._get_object_from_stream(indirect_reference)
        limits = self._limits()
        if limits is None:
            return super()._get_object_from_stream(indirect_reference)
        stack.append(idnum)
        try:
            objects = self._native_object_stream(stmnum, limits)
        finally:
            stack.pop()
        if objects is None:
            return super()._get_object_from_stream(indirect_reference)
        # phase 2's effects: the objects not cached yet, cached where this stream is the
        # authoritative one, in the index's order (an object number twice: the first one
        # cached is kept)
        target: PdfObject = NullObject()  # what pypdf answers for an object not found
        for obj_num, obj in objects:
            cached = self.cache_get_indirect_object(0, obj_num)
            if cached is not None:
                if obj_num == idnum:
                    target = cached
                continue
            authoritative_stm, _idx = self.xref_objStm.get(obj_num, (None, None))
            if authoritative_stm == stmnum:
                self.cache_indirect_object(0, obj_num, obj)
            if obj_num == idnum:
                target = obj
        return target

    def _native_object_stream(
        self, stmnum: int, limits: tuple[int, int, int]
    ) -> list[tuple[int, PdfObject]] | None:
        """The stream ``stmnum 0``'s objects as ``(number, object)`` in its index's order if
        pypdf would read them all the plain way, else ``None`` (its effects: those of
        pypdf's first steps, getting the stream and its data)."""
        obj_stm = IndirectObject(stmnum, 0, self).get_object()
        if (
            type(obj_stm) not in _STREAM_TYPES
            or self.resolved_objects.get((0, stmnum)) is not obj_stm
        ):
            return None
        assert isinstance(obj_stm, StreamObject)
        stm_type = dict.get(obj_stm, "/Type")
        n_value = dict.get(obj_stm, "/N")
        first_value = dict.get(obj_stm, "/First")
        if (
            type(stm_type) is not NameObject
            or stm_type != "/ObjStm"
            or type(n_value) is not NumberObject
            or type(first_value) is not NumberObject
            or not 0 <= n_value < _BIG
            or not 0 <= first_value < _BIG
        ):
            return None
        data = obj_stm.get_data()
        if type(data) is not bytes:
            return None
        objects: list[tuple[int, PdfObject]] | None = self._native_read_objstm(
            data, int(n_value), int(first_value), self, self._native_factory, limits
        )
        if objects is None:
            return None
        # pypdf skips the objects cached already; one cached as None it reads again and
        # caches with a warning: left to it
        resolved = self.resolved_objects
        if any((0, num) in resolved and resolved[(0, num)] is None for num, _ in objects):
            return None
        return objects
