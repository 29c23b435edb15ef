"""The native parser of indirect objects gives pypdf's answer or none (invariant 10).

``pdfthin_native.read_indirect`` reads one ``N G obj`` at an offset of a file the way pypdf's
``get_object`` does (``read_object_header``, then ``read_object``). For any input it must
answer ``None`` (pypdf reads it) or exactly what pypdf builds: the same types, values, key
order, attributes and ``repr``, leaving the stream at the same position, and only where pypdf
does not warn. Checked on every object of every corpus file, on random token soups and on
corrupted real objects; the reader that uses it must read every object as pypdf does, and the
fast path must handle most objects (else it silently does nothing).
"""

from __future__ import annotations

import io
import logging
import random
import re
import struct
import types
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pypdf
import pytest
from conftest import CORPUS_FILES, CorpusFile, corpus_params, require_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import engine, native_module
from pdfbuilder import PdfBuilder
from pypdf._configuration import get_configuration
from pypdf.generic import (
    DecodedStreamObject,
    EncodedStreamObject,
    IndirectObject,
    StreamObject,
    read_object,
)

from pdfthin.engine import _native, native_reader
from pdfthin.engine.streams import read_once

SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)

MISMATCH = "header does not match"


class _Stub:
    """What ``read_object`` needs of a reader, for inputs that are not whole files."""

    strict = False

    def get_object(self, ref: Any) -> Any:
        return None


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@contextmanager
def _pypdf_warnings() -> Iterator[_Warnings]:
    logger = logging.getLogger("pypdf")
    handler = _Warnings()
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _limits() -> tuple[int, int, int]:
    config = get_configuration()
    return (
        config.array_maximum_element_count,
        config.dictionary_maximum_element_count,
        config.maximum_declared_stream_length,
    )


def pypdf_read(reader: Any, data: bytes, offset: int, idnum: int, gen: int) -> Any:
    """What pypdf's ``get_object`` does on its plain path: ``(object, end, warned)``, the
    exception type it raises, or :data:`MISMATCH`."""
    stream = io.BytesIO(data)
    stream.seek(offset)
    with _pypdf_warnings() as warned:
        try:
            header = pypdf.PdfReader.read_object_header(reader, stream)
        except Exception:
            return MISMATCH
        if header != (idnum, gen):
            return MISMATCH
        try:
            obj = read_object(stream, reader)
        except Exception as exc:
            return type(exc)
        return obj, stream.tell(), warned.count


def native_read(module: Any, reader: Any, data: bytes, offset: int, idnum: int, gen: int) -> Any:
    return module.read_indirect(
        data, offset, idnum, gen, reader, native_reader.factory(data), _limits()
    )


def assert_same(a: Any, b: Any, where: str = "", readers: tuple[Any, Any] | None = None) -> None:
    """``a`` and ``b`` are the same pypdf object: type, value, attributes, ``repr``; their
    references point at the same reader (or at ``readers``, one each)."""
    file_streams = (native_reader.FileEncodedStream, native_reader.FileDecodedStream)
    if isinstance(a, file_streams) or isinstance(b, file_streams):
        # A stream read natively is pypdf's class with its data left in the file until read:
        # once read, the same attributes and data as pypdf's.
        native, plain = (a, b) if isinstance(a, file_streams) else (b, a)
        assert type(native).__mro__[2] is type(plain), f"{where}: {type(a)} != {type(b)}"
        assert native._data == plain._data, f"{where}: stream data"
        assert sorted(native.__dict__) == sorted(plain.__dict__), f"{where}: attributes"
        for name in plain.__dict__:
            x, y = getattr(a, name), getattr(b, name)
            assert_same(x, y, f"{where}.{name}", readers)
        assert_same(dict(a), dict(b), where, readers)
        return
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, IndirectObject):
        assert (a.idnum, a.generation) == (b.idnum, b.generation), where
        if readers is None:
            assert a.pdf is b.pdf, where
        else:
            assert a.pdf is readers[0] and b.pdf is readers[1], where
        return
    attrs_a, attrs_b = getattr(a, "__dict__", {}), getattr(b, "__dict__", {})
    assert list(attrs_a) == list(attrs_b), f"{where}: attributes {attrs_a} != {attrs_b}"
    for name in attrs_a:
        assert_same(attrs_a[name], attrs_b[name], f"{where}.{name}", readers)
    if isinstance(a, dict):
        assert len(a) == len(b), where
        for (ka, va), (kb, vb) in zip(dict.items(a), dict.items(b), strict=True):
            assert_same(ka, kb, f"{where} key", readers)
            assert_same(va, vb, f"{where}[{ka!r}]", readers)
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (va, vb) in enumerate(zip(a, b, strict=True)):
            assert_same(va, vb, f"{where}[{i}]", readers)
    elif isinstance(a, float):
        assert struct.pack("<d", a) == struct.pack("<d", b), f"{where}: {a!r} != {b!r}"
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"
    if readers is None:
        assert repr(a) == repr(b), where
    else:
        ra, rb = (repr(x).replace(str(id(r)), "pdf") for x, r in zip((a, b), readers, strict=True))
        assert ra == rb, where


def check(module: Any, reader: Any, data: bytes, offset: int, idnum: int, gen: int) -> str:
    """Both parsers at ``offset``: ``"native"`` (same answer), ``"none"`` (left to pypdf)."""
    expected = pypdf_read(reader, data, offset, idnum, gen)
    got = native_read(module, reader, data, offset, idnum, gen)
    if got is None:
        return "none"
    where = f"object {idnum} {gen} at {offset}"
    assert isinstance(expected, tuple), f"{where}: native read it, pypdf gives {expected}"
    obj, end, warned = expected
    assert warned == 0, f"{where}: native read it, pypdf warned"
    assert got[1] == end, f"{where}: ends at {got[1]}, pypdf at {end}"
    assert_same(got[0], obj, where)
    return "native"


def _plain_objects(reader: pypdf.PdfReader) -> Iterator[tuple[int, int, int]]:
    """``(idnum, generation, offset)`` of every object pypdf reads at an offset."""
    for gen, entries in sorted(reader.xref.items()):
        for idnum, offset in sorted(entries.items()):
            if gen == 0 and idnum in reader.xref_objStm:
                continue
            if reader.xref_free_entry.get(gen, {}).get(idnum, False):
                continue
            if isinstance(offset, int) and offset >= 0:
                yield idnum, gen, offset


def _open(f: CorpusFile) -> tuple[bytes, pypdf.PdfReader] | None:
    data = f.path.read_bytes()
    try:
        with _pypdf_warnings():
            return data, pypdf.PdfReader(io.BytesIO(data), strict=False)
    except Exception:
        return None  # pypdf cannot open it: no objects to compare


@pytest.mark.corpus
@pytest.mark.parametrize("f", corpus_params(CORPUS_FILES))
def test_every_object_of_the_corpus(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    module = native_module()
    opened = _open(f)
    if opened is None:
        return
    data, reader = opened
    for idnum, gen, offset in _plain_objects(reader):
        check(module, reader, data, offset, idnum, gen)
        # asked for another object than the one there: left to pypdf
        assert check(module, reader, data, offset, idnum + 1, gen) == "none" or (
            pypdf_read(reader, data, offset, idnum + 1, gen) != MISMATCH
        )


@pytest.mark.corpus
def test_the_fast_path_reads_most_objects() -> None:
    """At least 80 % of the corpus's objects that are not streams, and most streams."""
    require_corpus()
    module = native_module()
    counts = {"object": [0, 0], "stream": [0, 0]}
    for f in CORPUS_FILES:
        opened = _open(f)
        if opened is None:
            continue
        data, reader = opened
        for idnum, gen, offset in _plain_objects(reader):
            got = native_read(module, reader, data, offset, idnum, gen)
            if got is not None:
                obj = got[0]
            else:
                obj = pypdf_read(_Stub(), data, offset, idnum, gen)
                obj = obj[0] if isinstance(obj, tuple) else None
            kind = "stream" if isinstance(obj, StreamObject) else "object"
            counts[kind][0] += got is not None
            counts[kind][1] += 1
    (objects, all_objects), (streams, all_streams) = counts["object"], counts["stream"]
    print(f"native: {objects}/{all_objects} objects, {streams}/{all_streams} streams")
    assert all_objects > 10_000
    assert objects >= 0.8 * all_objects
    assert streams >= 0.5 * all_streams


def test_the_reader_reads_every_object_as_pypdf() -> None:
    """``NativeReader.get_object`` against ``PdfReader.get_object`` on corpus files, object
    by object (encrypted files take pypdf's path)."""
    require_corpus()
    module = native_module()
    with engine(module):
        assert native_reader.enabled()
        for f in CORPUS_FILES:
            opened = _open(f)
            if opened is None:
                continue
            data, plain = opened
            with _pypdf_warnings():
                fast = native_reader.open_reader(data)
            assert isinstance(fast, native_reader.NativeReader)
            for idnum, gen, _ in _plain_objects(plain):
                ref_plain, ref_fast = (
                    IndirectObject(idnum, gen, plain),
                    IndirectObject(idnum, gen, fast),
                )
                with _pypdf_warnings():
                    try:
                        a: Any = plain.get_object(ref_plain)
                    except Exception as exc:
                        a = type(exc)
                    try:
                        b: Any = fast.get_object(ref_fast)
                    except Exception as exc:
                        b = type(exc)
                if isinstance(a, type) or a is None:
                    assert a is b, f"{f.relpath} {idnum} {gen}"
                    continue
                assert_same(a, b, f"{f.relpath} {idnum} {gen}", (plain, fast))
                assert plain.stream.tell() == fast.stream.tell()
            assert list(plain.resolved_objects) == list(fast.resolved_objects)
            assert plain._known_objects == fast._known_objects  # pypdf leaves some after errors


def test_the_reader_falls_back_to_pypdf() -> None:
    """Without the native module, with an unverified pypdf, the plain reader."""
    with engine(None):
        assert not native_reader.enabled()
        assert type(native_reader.open_reader(_minimal_pdf())) is pypdf.PdfReader
    module = native_module()
    with engine(module):
        saved = pypdf.__version__
        pypdf.__version__ = "8.0.0"
        try:
            assert type(native_reader.open_reader(_minimal_pdf())) is pypdf.PdfReader
        finally:
            pypdf.__version__ = saved
        reader = native_reader.open_reader(_minimal_pdf())
        assert isinstance(reader, native_reader.NativeReader)
        assert reader.pages[0]["/MediaBox"] == [0, 0, 612, 792]


def _minimal_pdf() -> bytes:
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


# --- random and corrupted input ---------------------------------------------------------

TOKENS = [
    b"<<", b">>", b"<", b">", b"[", b"]", b"{", b"(", b")", b"\\", b"/", b"/Name", b"/Length",
    b"/A#20B", b"#", b"#4", b"#41", b"#g1", b"/\xc3\xa9", b"/\xff", b"\\n", b"\\0", b"\\12",
    b"\\377", b"\\400", b"\\q", b"\\\r\n", b"\\\n\r", b"0", b"1", b"12", b"-3", b"+4", b"00",
    b".", b"1.", b".5", b"-.5", b"1.2.3", b"1,5", b"99999999999999999999", b"R", b" R", b"0 R",
    b"12 0 R", b"-1 0 R", b"1\x0b0\x0bR", b"1 0 Ra", b" ", b"  ", b"\n", b"\r", b"\r\n",
    b"\x00", b"\x0b", b"\x0c", b"\t", b"%", b"% comment\n", b"%c\r", b"e", b"endobj", b"true",
    b"fals", b"false", b"null", b"nul", b"stream\n", b"stream\r\n", b"stream \n", b"endstream",
    b"obj", b"a", b"F", b"\xfe\xff", b"\xef\xbb\xbf", b"\xc3", b"<feff0041>", b"<4>", b"<g>",
]  # fmt: skip


@given(
    head=st.sampled_from([b"1 0 obj ", b"1 0 obj", b" 1 0 obj\n", b"1 0 obj%x\n", b"01 00 obj\r"]),
    body=st.lists(st.sampled_from(TOKENS), max_size=40).map(b"".join),
)
@SETTINGS
def test_token_soup(head: bytes, body: bytes) -> None:
    module = native_module()
    data = head + body
    check(module, _Stub(), data, 0, 1, 0)


@given(st.binary(max_size=200))
@SETTINGS
def test_random_bytes(body: bytes) -> None:
    module = native_module()
    check(module, _Stub(), b"1 0 obj " + body, 0, 1, 0)
    check(module, _Stub(), body, 0, 1, 0)


@pytest.mark.corpus
def test_corrupted_real_objects() -> None:
    """Real objects from the corpus, truncated and with bytes changed, inserted, removed."""
    require_corpus()
    module = native_module()
    rng = random.Random(7)
    samples: list[bytes] = []
    for f in CORPUS_FILES[::5]:
        opened = _open(f)
        if opened is None:
            continue
        data, reader = opened
        entries = list(_plain_objects(reader))
        for _, _, offset in rng.sample(entries, min(6, len(entries))):
            chunk = data[offset : offset + 600]
            # renumbered 1 0 so that the header matches
            start = chunk.find(b"obj")
            if start > 0:
                samples.append(b"1 0 " + chunk[start:])
    assert len(samples) > 100
    handled = 0
    for sample in samples:
        for _ in range(12):
            mutated = bytearray(sample)
            for _ in range(rng.randint(1, 3)):
                what = rng.random()
                i = rng.randrange(len(mutated) + 1)
                if what < 0.3:
                    del mutated[i:]
                elif what < 0.6 and i < len(mutated):
                    mutated[i] = rng.choice(b"<>[]()/\\%#Re .-+0123456789\n\r\x00\x0b")
                elif what < 0.8:
                    mutated[i:i] = rng.choice(TOKENS)
                else:
                    del mutated[i : i + rng.randint(1, 8)]
            handled += check(module, _Stub(), bytes(mutated), 0, 1, 0) == "native"
    assert handled > 0


def test_deep_nesting_and_limits() -> None:
    module = native_module()
    for depth in (1, 10, 31, 32, 33, 34, 60, 500):
        check(module, _Stub(), b"1 0 obj " + b"[" * depth + b"]" * depth, 0, 1, 0)
        check(module, _Stub(), b"1 0 obj " + b"<</A " * depth + b">>" * depth, 0, 1, 0)
    name = b"/" + b"x" * 5000
    check(module, _Stub(), b"1 0 obj " + name + b" endobj", 0, 1, 0)
    with pypdf.apply_configuration(array_maximum_element_count=3):
        for n in (2, 3, 4):
            data = b"1 0 obj [" + b"1 " * n + b"] endobj"
            check(module, _Stub(), data, 0, 1, 0)
            assert (native_read(module, _Stub(), data, 0, 1, 0) is None) == (n > 3)
    with pypdf.apply_configuration(maximum_declared_stream_length=4):
        for n in (3, 4, 5):
            data = b"1 0 obj << /Length %d >>\nstream\n%s\nendstream endobj" % (n, b"x" * n)
            check(module, _Stub(), data, 0, 1, 0)
            assert (native_read(module, _Stub(), data, 0, 1, 0) is None) == (n > 4)


# --- objects inside object streams ------------------------------------------------------


class _Counting:
    """``read_object_stream`` of the module, counting the calls and the answers."""

    def __init__(self, module: Any) -> None:
        self.read = module.read_object_stream
        self.calls = 0
        self.answers = 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        got = self.read(*args)
        self.answers += got is not None
        return got


def _try_get(reader: Any, idnum: int, gen: int = 0) -> tuple[Any, int]:
    """``reader.get_object`` of ``idnum gen``: the object or the exception's type, and the
    number of pypdf's warnings."""
    with _pypdf_warnings() as warned:
        try:
            got: Any = reader.get_object(IndirectObject(idnum, gen, reader))
        except Exception as exc:
            got = type(exc)
    return got, warned.count


def _open_both(module: Any, data: bytes) -> tuple[Any, Any, _Counting] | None:
    """pypdf's reader and the native one of ``data`` (whose object-stream reader counts)."""
    with _pypdf_warnings():
        try:
            plain = pypdf.PdfReader(io.BytesIO(data), strict=False)
        except Exception:
            return None
        fast = native_reader.open_reader(data)
    assert isinstance(fast, native_reader.NativeReader)
    counting = _Counting(module)
    fast._native_read_objstm = counting  # type: ignore[attr-defined]
    return plain, fast, counting


def compare_readers(plain: Any, fast: Any, ids: list[tuple[int, int]], where: str) -> None:
    """Both readers give the same objects, warnings and exceptions for ``ids`` in this
    order, and are left with the same cache, loop detection and resolution stack."""
    readers = (plain, fast)
    for idnum, gen in ids:
        (a, warned_a), (b, warned_b) = _try_get(plain, idnum, gen), _try_get(fast, idnum, gen)
        at = f"{where} {idnum} {gen}"
        assert warned_a == warned_b, f"{at}: {warned_a} warnings != {warned_b}"
        if isinstance(a, type) or a is None:
            assert a is b, f"{at}: {a} != {b}"
            continue
        assert_same(a, b, at, readers)
        assert plain.stream.tell() == fast.stream.tell(), at
    assert list(plain.resolved_objects) == list(fast.resolved_objects), where
    for key, value in plain.resolved_objects.items():
        assert_same(value, fast.resolved_objects[key], f"{where} cached {key}", readers)
    assert plain._known_objects == fast._known_objects, where
    assert plain._object_stream_resolution_stack == fast._object_stream_resolution_stack


def test_streams_are_copied_out_of_the_file_only_when_read() -> None:
    """A stream read natively keeps its data in the file until something reads ``_data``:
    then it is pypdf's bytes, copied once; set, it is what was set. Its class is pypdf's
    (``isinstance``), chosen as pypdf chooses (``/Filter`` or not), and its dictionary is
    pypdf's (``/Length`` dropped). A missing attribute is an ``AttributeError`` as before."""
    module = native_module()
    b = PdfBuilder()
    raw = b.stream(b"raw samples " * 50, flate=False, Type="/XObject", Subtype="/Image")
    packed = b.stream(b"BT /F1 12 Tf (x) Tj ET " * 20, flate=True)
    b.add_page(b"", {})
    data = b.build()
    with engine(module):
        plain = pypdf.PdfReader(io.BytesIO(data), strict=False)
        fast = native_reader.open_reader(data)
        for ref, kind in ((raw, DecodedStreamObject), (packed, EncodedStreamObject)):
            native = fast.get_object(IndirectObject(ref.num, 0, fast))
            expected = plain.get_object(IndirectObject(ref.num, 0, plain))
            assert isinstance(native, kind) and type(expected) is kind
            assert type(native) in (
                native_reader.FileEncodedStream,
                native_reader.FileDecodedStream,
            )
            assert "_data" not in native.__dict__  # not copied yet
            assert "/Length" not in native and dict(native).keys() == dict(expected).keys()
            assert native.get_data() == expected.get_data()
            first = native.__dict__["_data"]
            assert first == expected._data and native._data is first  # copied once
            assert_same(native, expected, f"object {ref.num}", (fast, plain))
            native._data = b"set"
            assert native._data == b"set"
            with pytest.raises(AttributeError):
                _ = native.no_such_attribute


def _decoded(stream: Any, read: Callable[[Any], bytes] | None = None) -> tuple[Any, int]:
    """``stream.get_data()`` (or ``read(stream)``), or the exception's type, and the number of
    pypdf's warnings."""
    with _pypdf_warnings() as warned:
        try:
            got: Any = stream.get_data() if read is None else read(stream)
        except Exception as exc:
            got = type(exc)
    return got, warned.count


class _Inflates:
    """Counts the native inflates that answered."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.answers = 0

    def __call__(self, *args: Any) -> Any:
        found = self.module.inflate(*args)
        self.answers += found is not None
        return found


def _flate_streams() -> dict[str, tuple[bytes, bool]]:
    """Streams of every kind ``get_data`` meets: plain ones (inflated natively) and those
    pypdf must decode itself. ``True``: decoded natively."""
    text = b"BT /F1 12 Tf (hello) Tj ET\n" * 40
    packed = zlib.compress(text)
    raw = zlib.compressobj(wbits=-15)
    deflated = raw.compress(text) + raw.flush()
    return {
        "plain": (packed, True),
        "trailing bytes": (packed + b"\r\n\x00junk", True),
        "empty output": (zlib.compress(b""), True),
        "cut short": (packed[: len(packed) // 2], False),
        "last bytes lost": (packed[:-2], False),
        "bad checksum": (packed[:-1] + bytes([packed[-1] ^ 1]), False),
        "raw deflate": (deflated, False),
        "garbage": (b"not zlib at all", False),
        "bad byte inside": (packed[:20] + b"\xff" + packed[21:], False),
    }


@pytest.mark.parametrize("name", list(_flate_streams()))
@pytest.mark.parametrize(
    "entries", [{}, {"DecodeParms": {"Predictor": 1}}, {"Filter": ["/FlateDecode"]}]
)
def test_flate_streams_decode_as_pypdf_decodes_them(name: str, entries: dict[str, Any]) -> None:
    """A /FlateDecode stream read natively decodes to pypdf's bytes, warnings and errors, and
    caches its decoded stream as pypdf does; only a plain one (one filter named, no
    parameters, decoded whole by zlib) is inflated natively."""
    module = native_module()
    data, native_expected = _flate_streams()[name]
    b = PdfBuilder()
    ref = b.stream(data, flate=False, **{"Filter": "/FlateDecode", "Type": "/Test", **entries})
    b.add_page(b"", {})
    pdf = b.build()
    with engine(module):
        plain = pypdf.PdfReader(io.BytesIO(pdf), strict=False)
        fast = native_reader.open_reader(pdf)
        a = plain.get_object(IndirectObject(ref.num, 0, plain))
        z = fast.get_object(IndirectObject(ref.num, 0, fast))
        assert isinstance(z, native_reader.FileEncodedStream)
        counting = _Inflates(module)
        with _native_inflate(counting):
            # Read once: the same answer, and nothing kept (pypdf's stream keeps no decoded
            # copy; the native one neither, nor a copy of the file's bytes once inflated).
            expected = _decoded(a, read_once)
            assert a.decoded_self is None
            assert _decoded(z, read_once) == expected
            assert z.decoded_self is None
            assert ("_data" in z.__dict__) == (not native_expected or bool(entries))
            assert _decoded(z) == _decoded(a) == expected
            assert _decoded(z) == _decoded(a)  # the cached answer
            assert _decoded(z, read_once) == _decoded(a, read_once)  # the cache, read once
        assert counting.answers == 2 * (native_expected and not entries)
        assert_same(z, a, name, (fast, plain))


@contextmanager
def _native_inflate(inflate: Any) -> Iterator[None]:
    module = _native.NATIVE
    wrapped = types.SimpleNamespace(inflate=inflate)
    _native.NATIVE = wrapped  # type: ignore[assignment]
    try:
        yield
    finally:
        _native.NATIVE = module


def test_flate_limits_are_pypdfs() -> None:
    """Past pypdf's output limit or decoding-work limit the stream is pypdf's (its error)."""
    module = native_module()
    big = zlib.compress(b"x" * 200_000)
    b = PdfBuilder()
    ref = b.stream(big, flate=False, Filter="/FlateDecode")
    b.add_page(b"", {})
    pdf = b.build()
    for overrides in (
        {"zlib_maximum_output_length": 100_000},
        {"zlib_maximum_output_length": 200_000},
        {"zlib_maximum_output_length": 200_001},
        {"stream_decoding_work_maximum_length": 150_000},
        {"stream_decoding_work_maximum_length": len(big) + 200_000},
    ):
        config = get_configuration().with_overwrites(**overrides)
        with engine(module), pypdf.apply_configuration(config):
            plain = pypdf.PdfReader(io.BytesIO(pdf), strict=False)
            fast = native_reader.open_reader(pdf)
            a = plain.get_object(IndirectObject(ref.num, 0, plain))
            z = fast.get_object(IndirectObject(ref.num, 0, fast))
            assert _decoded(z) == _decoded(a), overrides


@pytest.mark.corpus
def test_every_flate_stream_of_the_corpus() -> None:
    """Every stream of the corpus decoded by both readers: the same bytes or error, and most
    /FlateDecode ones inflated natively."""
    require_corpus()
    module = native_module()
    streams = 0
    counting = _Inflates(module)
    with engine(module):
        for f in CORPUS_FILES:
            opened = _open(f)
            if opened is None:
                continue
            data, plain = opened
            if plain.is_encrypted:
                continue
            with _pypdf_warnings():
                fast = native_reader.open_reader(data)
            for idnum, gen, _ in _plain_objects(plain):
                a, _ = _try_get(plain, idnum, gen)
                z, _ = _try_get(fast, idnum, gen)
                if not isinstance(z, native_reader.FileEncodedStream):
                    continue
                with _native_inflate(counting):
                    expected = _decoded(a)
                    where = f"{f.relpath} {idnum} {gen}"
                    assert _decoded(z, read_once) == expected, where
                    assert z.decoded_self is None, where
                    assert _decoded(z) == expected, where
                streams += 1
    assert streams > 2000
    assert counting.answers > 2 * 0.8 * streams  # read once, then read by get_data


@pytest.mark.corpus
def test_every_object_stream_of_the_corpus() -> None:
    """Every object of every object stream of the corpus, read by both readers; the native
    reader of object streams answers for nearly all of them (encrypted files: never)."""
    require_corpus()
    module = native_module()
    streams = answered = 0
    with engine(module):
        for f in CORPUS_FILES:
            opened = _open_both(module, f.path.read_bytes())
            if opened is None:
                continue
            plain, fast, counting = opened
            if not plain.xref_objStm:
                continue
            ids = [(idnum, 0) for idnum in sorted(plain.xref_objStm)]
            compare_readers(plain, fast, ids, f.relpath)
            if fast._encryption is not None:
                assert counting.calls == 0, f.relpath
            else:
                streams += counting.calls
                answered += counting.answers
    print(f"object streams read natively: {answered}/{streams}")
    assert streams > 50
    assert answered >= 0.9 * streams


def _objstm_pdf(
    body: bytes,
    n: Any,
    first: Any,
    members: dict[int, tuple[int, int]],
    extra: bytes = b"",
    more_streams: list[bytes] | None = None,
) -> bytes:
    """A file whose object 3 is the object stream ``extra body`` (``/N n /First first`` and
    the dictionary entries ``extra``), whose cross-reference stream says each object of
    ``members`` is ``(stream, index)``; ``more_streams`` are more streams' whole dictionaries
    and data, numbered from 5."""
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [] /Count 0 >>",
        3: b"<< /Type /ObjStm /N %s /First %s /Length %d %s >>\nstream\n%s\nendstream"
        % (str(n).encode(), str(first).encode(), len(body), extra, body),
    }
    for i, stream in enumerate(more_streams or [], 5):
        objects[i] = stream
    out = bytearray(b"%PDF-1.5\n")
    offsets = {}
    for num, text in sorted(objects.items()):
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, text)
    xref_at = len(out)
    size = max([4, *objects, *members]) + 1
    rows = bytearray()
    for num in range(size):
        if num == 4:
            rows += struct.pack(">BIH", 1, xref_at, 0)
        elif num in offsets:
            rows += struct.pack(">BIH", 1, offsets[num], 0)
        elif num in members:
            rows += struct.pack(">BIH", 2, *members[num])
        else:
            rows += struct.pack(">BIH", 0, 0, 65535)
    out += b"4 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n" % (
        size,
        len(rows),
    )
    out += rows + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref_at
    return bytes(out)


def _objstm(objects: list[tuple[int, bytes]], sep: bytes = b"\n") -> tuple[bytes, int, int]:
    """The data, /N and /First of an object stream of ``objects`` (number, text)."""
    offsets, data = [], b""
    for _, text in objects:
        offsets.append(len(data))
        data += text + sep
    index = b" ".join(b"%d %d" % (num, off) for (num, _), off in zip(objects, offsets, strict=True))
    index += b" "
    return index + data, len(objects), len(index)


def check_objstm(
    body: bytes,
    n: Any,
    first: Any,
    members: dict[int, tuple[int, int]] | None = None,
    extra: bytes = b"",
    more_streams: list[bytes] | None = None,
    ids: list[int] | None = None,
) -> _Counting:
    """Both readers on the file of :func:`_objstm_pdf`, each object asked for in turn."""
    module = native_module()
    if members is None:
        numbers = [int(x) for x in body.split()[: 2 * int(n) : 2] if x.isdigit()] if n else []
        members = {num: (3, i) for i, num in enumerate(numbers)}
    data = _objstm_pdf(body, n, first, members, extra, more_streams)
    with engine(module):
        opened = _open_both(module, data)
        assert opened is not None
        plain, fast, counting = opened
        asked = ids if ids is not None else sorted(members)
        compare_readers(plain, fast, [(i, 0) for i in asked], repr(body[:60]))
    return counting


PLAIN_OBJECTS = [
    (10, b"<< /Type /Font /A [1 2.5 -.5 +3 (x\\(y\\)\\n\\101\\\r\n) <41 42> /N#41]"
         b" /B << /C null /D true /E false >> /R 12 0 R >>"),
    (11, b"[[[1] [2 [3 (a)]]] << /X << /Y [<< >>] >> >>]"),
    (12, b"(string with \\\\ and \\) and \\t and \\053)"),
    (13, b"/Name"),
    (14, b"42"),
    (15, b"-1.25"),
    (16, b"true"),
    (17, b"null"),
    (18, b"<feff004100e9>"),
    (19, b"% a comment\n<< /K 5 0 R >>"),
]  # fmt: skip


def test_plain_object_streams() -> None:
    """Ordinary object streams, with every kind of object: read natively, as pypdf does."""
    body, n, first = _objstm(PLAIN_OBJECTS)
    assert check_objstm(body, n, first).answers == 1
    for sep in (b" ", b"\r\n  "):
        body, n, first = _objstm(PLAIN_OBJECTS, sep)
        assert check_objstm(body, n, first).answers == 1
    body, n, first = _objstm(PLAIN_OBJECTS, b"")  # "42-1.25": pypdf warns
    assert check_objstm(body, n, first).answers == 0
    # the last object at the very end of the data
    for text in (b"<< /A 1 >>", b"/Name", b"12", b"1.5", b"[1]", b"(s)", b"true", b"3 0 R"):
        body, n, first = _objstm([(10, b"1"), (11, text)], b"")
        assert check_objstm(body, n, first).answers == 1, text
    # asked for in another order; an object the stream does not hold
    body, n, first = _objstm(PLAIN_OBJECTS)
    check_objstm(body, n, first, ids=[19, 10, 13, 30, 11])
    members = {num: (3, i) for i, (num, _) in enumerate(PLAIN_OBJECTS)}
    members[30] = (3, 99)
    assert check_objstm(body, n, first, members, ids=[30, 10]).answers == 1
    # an empty stream
    check_objstm(b"", 0, 0, {10: (3, 0)})
    # a compressed one
    import zlib

    body, n, first = _objstm(PLAIN_OBJECTS)
    module = native_module()
    members = {num: (3, i) for i, (num, _) in enumerate(PLAIN_OBJECTS)}
    data = _objstm_pdf(zlib.compress(body), n, first, members, b"/Filter /FlateDecode")
    with engine(module):
        opened = _open_both(module, data)
        assert opened is not None
        plain, fast, counting = opened
        compare_readers(plain, fast, [(i, 0) for i in sorted(members)], "flate")
        assert counting.answers == 1


def test_odd_object_streams_take_pypdfs_path() -> None:
    """Bad /N and /First, bad offsets, truncated objects, streams, escapes pypdf warns
    about: both readers still agree (the native one leaves them to pypdf)."""
    body, n, first = _objstm([(10, b"<< /A 1 >>"), (11, b"[1 2]"), (12, b"(x)")])
    members = {10: (3, 0), 11: (3, 1), 12: (3, 2)}
    for bad_n, bad_first in [
        (-1, first), (100, first), (n, -1), (n, len(body) + 1), (n, len(body)), (n, first + 1),
        (n, first - 1), ("(3)", first), (n, "2.0"), ("3.0", first), ("5 0 R", first),
        (n, "5 0 R"), (0, first), (2, first), (2**70, first), (n, 2**70),
    ]:  # fmt: skip
        counting = check_objstm(body, bad_n, bad_first, members)
        if (bad_n, bad_first) in [(0, first), (2, first), (n, first - 1)]:  # a space more
            assert counting.answers > 0
        else:
            assert counting.answers == 0, (bad_n, bad_first)
    for index in [
        b"10 0 11 11 12 5 ", b"10 0 11 0 12 17 ", b"10 0 11 11 12 999 ", b"10 -1 11 11 12 17 ",
        b"-10 0 11 11 12 17 ", b"10 0 11 11.0 12 17 ", b"10 0 11 x 12 17 ", b"10 0 11 11 12",
        b"10 0 11 11 12 17", b"10 0 11 011 12 17 ", b"10 0 11 +11 12 17 ", b"10 0 10 11 12 17 ",
        b"10 0\n\r\x00\t\x0c11 11 12 17 ", b"10 0 11 11 12 17 % c\n", b"10\x0b0 11 11 12 17 ",
        b"10 0 11 11 12 00000000000000017 ", b"10 0 11 11 12 0000000000000017 ",
    ]:  # fmt: skip
        objs = b"<< /A 1 >> [1 2] (x)"
        data = index.ljust(18) + objs
        check_objstm(data, 3, 18, members)
    for obj in [
        b"[1 2", b"<< /A 1", b"(abc", b"<414", b"/A#2", b"<< /Length 2 >>stream\nxy\nendstream",
        b"<< /Length 2 >>\nstream\r\nxy\nendstream", b"(\\q)", b"1,5", b"<< /A 1 /A 2 >>",
        b"<< /A 1 >> stream", b"endobj", b"nul", b"fals", b"tru", b"", b"  ", b"}", b"1 0 obj 5",
        b"<< 5 >>", b"<< /A >>", b"[" * 40 + b"]" * 40, b"(\\400)", b"/\xff\xfe", b"/A\xc3\xa9",
        b"-2 0 R", b"99999999999999999999", b"1.2.3", b"% only a comment",
    ]:  # fmt: skip
        body, n, first = _objstm([(10, b"<< /B 2 >>"), (11, obj), (12, b"7")])
        check_objstm(body, n, first)
        body, n, first = _objstm([(10, b"<< /B 2 >>"), (11, obj)], b"")
        check_objstm(body, n, first)


def test_object_streams_and_the_cache() -> None:
    """Objects twice in an index, objects another stream or the table holds, objects
    cached before, the stream's own entry, cycles."""
    body, n, first = _objstm([(10, b"(first)"), (10, b"(second)"), (11, b"1")])
    check_objstm(body, n, first, {10: (3, 0), 11: (3, 2)})
    check_objstm(body, n, first, {10: (5, 0), 11: (3, 2)}, ids=[11, 10])
    # object 11 is in stream 5 too, which the table names for it: asked for first, it is
    # cached, and stream 3's copy is skipped
    other, n5, first5 = _objstm([(11, b"(eleven in 5)"), (12, b"(twelve)")])
    stream5 = b"<< /Type /ObjStm /N %d /First %d /Length %d >>\nstream\n%s\nendstream" % (
        n5,
        first5,
        len(other),
        other,
    )
    body, n, first = _objstm([(10, b"(ten)"), (11, b"(eleven in 3)"), (12, b"[1]")])
    members = {10: (3, 0), 11: (5, 0), 12: (3, 2)}
    for ids in ([11, 10, 12], [10, 11, 12], [12, 11, 10]):
        assert check_objstm(body, n, first, members, more_streams=[stream5], ids=ids).answers
    # the object stream listed as inside itself, or inside the other one
    check_objstm(body, n, first, {3: (3, 0), 10: (3, 0)}, ids=[10, 3])
    check_objstm(body, n, first, {10: (3, 0)}, more_streams=[stream5], ids=[10, 5])
    # the stream's /Length (or /N) in the stream itself: pypdf's cycle error
    body, n, first = _objstm([(10, b"5"), (11, b"7")])
    data = _objstm_pdf(body, n, first, {10: (3, 0), 11: (3, 1)}).replace(
        b"/Length %d" % len(body), b"/Length 10 0 R"
    )
    module = native_module()
    with engine(module):
        opened = _open_both(module, data)
        assert opened is not None
        plain, fast, _ = opened
        compare_readers(plain, fast, [(10, 0), (11, 0), (10, 0), (3, 0)], "cycle")
    check_objstm(body, "11 0 R", first, {10: (3, 0), 11: (3, 1)}, ids=[11, 10])
    # an object cached as None (pypdf re-reads it and warns)
    body, n, first = _objstm([(10, b"(ten)"), (11, b"(eleven)")])
    data = _objstm_pdf(body, n, first, {10: (3, 0), 11: (3, 1)})
    with engine(module):
        opened = _open_both(module, data)
        assert opened is not None
        plain, fast, counting = opened
        for reader in (plain, fast):
            reader.resolved_objects[(0, 11)] = None
        compare_readers(plain, fast, [(10, 0), (11, 0)], "None cached")
        assert counting.answers == 1


def test_object_streams_with_limits() -> None:
    """pypdf's limits on arrays and dictionaries (the file's own need 3 and 5 entries)."""
    for items, expected in ((3, 1), (4, 0)):
        array = b"[" + b"1 " * items + b"]"
        body, n, first = _objstm([(10, array), (11, b"7")])
        with pypdf.apply_configuration(array_maximum_element_count=3):
            assert check_objstm(body, n, first).answers == expected
    for items, expected in ((5, 1), (6, 0)):
        dictionary = b"<<" + b"".join(b" /K%d %d" % (i, i) for i in range(items)) + b" >>"
        body, n, first = _objstm([(10, b"7"), (11, dictionary)])
        with pypdf.apply_configuration(dictionary_maximum_element_count=5):
            assert check_objstm(body, n, first).answers == expected


def test_object_streams_of_encrypted_files_and_other_pypdfs() -> None:
    """An encrypted file, a reader in strict mode: pypdf's path; another pypdf: pypdf's
    reader."""
    require_corpus()
    module = native_module()
    encrypted = [f for f in CORPUS_FILES if f.path.name == "pr-138-example.pdf"]
    assert encrypted
    with engine(module):
        opened = _open_both(module, encrypted[0].path.read_bytes())
        assert opened is not None
        plain, fast, counting = opened
        assert fast._encryption is not None and plain.xref_objStm
        ids = [(idnum, 0) for idnum in sorted(plain.xref_objStm)][:50]
        compare_readers(plain, fast, ids, "encrypted")
        assert counting.calls == 0
    body, n, first = _objstm(PLAIN_OBJECTS)
    data = _objstm_pdf(body, n, first, {num: (3, i) for i, (num, _) in enumerate(PLAIN_OBJECTS)})
    with engine(module):
        opened = _open_both(module, data)
        assert opened is not None
        plain, fast, counting = opened
        plain.strict = fast.strict = True
        compare_readers(plain, fast, [(10, 0), (11, 0)], "strict")
        assert counting.calls == 0
        saved = pypdf.__version__
        pypdf.__version__ = "8.0.0"
        try:
            assert type(native_reader.open_reader(data)) is pypdf.PdfReader
        finally:
            pypdf.__version__ = saved


OBJSTM_TOKENS = [*TOKENS, b"10", b"11", b"0", b"5", b"7", b" ", b" ", b"\n"]


@given(
    index=st.lists(st.sampled_from([b"10", b"11", b"12", b"0", b"3", b"6", b"-1", b" ", b"  ",
                                    b"\n", b"x", b"1.5", b"%"]), max_size=12).map(b"".join),
    objects=st.lists(st.sampled_from(OBJSTM_TOKENS), max_size=30).map(b"".join),
    n=st.integers(-1, 5),
    first=st.integers(-1, 30),
)  # fmt: skip
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
def test_object_stream_soup(index: bytes, objects: bytes, n: int, first: int) -> None:
    check_objstm(index + objects, n, first, {10: (3, 0), 11: (3, 1), 12: (3, 2)})


@given(
    objects=st.lists(
        st.lists(st.sampled_from(OBJSTM_TOKENS), min_size=1, max_size=8).map(b"".join),
        min_size=1,
        max_size=4,
    ),
    sep=st.sampled_from([b"", b" ", b"\n", b"\r\n", b"\x00"]),
)
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
def test_object_stream_objects_soup(objects: list[bytes], sep: bytes) -> None:
    """A well-formed index of objects made of random tokens."""
    numbered = [(10 + i, text) for i, text in enumerate(objects)]
    body, n, first = _objstm(numbered, sep)
    check_objstm(body, n, first)


# --- object headers (pypdf's read() checks every entry of the table with them) ----------------


def pypdf_header(data: bytes, offset: int) -> Any:
    """pypdf's ``read_object_header`` at ``offset``: ``((idnum, generation), end, warned)``
    or the exception's type."""
    stream = io.BytesIO(data)
    stream.seek(offset)
    with _pypdf_warnings() as warned:
        try:
            got = pypdf.PdfReader.read_object_header(_Stub(), stream)  # type: ignore[arg-type]
        except Exception as exc:
            return type(exc)
    return got, stream.tell(), warned.count


def check_header(module: Any, data: bytes, offset: int) -> str:
    """Both readers of the header at ``offset``: ``"native"`` (same), ``"none"`` (pypdf's)."""
    got = module.read_object_header(data, offset)
    if got is None:
        return "none"
    expected = pypdf_header(data, offset)
    assert isinstance(expected, tuple), f"at {offset}: native read it, pypdf gives {expected}"
    (idnum, generation), end, warned = expected
    assert warned == 0, f"at {offset}: native read it, pypdf warned"
    assert got == (idnum, generation, end), f"at {offset}: {got} != {expected}"
    assert type(idnum) is int and type(generation) is int
    return "native"


@pytest.mark.corpus
def test_every_object_header_of_the_corpus() -> None:
    """Every offset of every table in the corpus, and the bytes around it; nearly all the
    table's offsets are read natively."""
    require_corpus()
    module = native_module()
    answered = offsets = 0
    for f in CORPUS_FILES:
        opened = _open(f)
        if opened is None:
            continue
        data, reader = opened
        for entries in reader.xref.values():
            for offset in entries.values():
                if not isinstance(offset, int) or offset < 0:
                    continue
                offsets += 1
                answered += check_header(module, data, offset) == "native"
                for near in (offset - 2, offset - 1, offset + 1, offset + 3, offset + 8):
                    if near >= 0:
                        check_header(module, data, near)
    print(f"object headers read natively: {answered}/{offsets}")
    assert offsets > 10_000
    assert answered >= 0.95 * offsets


HEADER_TOKENS = [
    b"1", b"12", b"0", b"00", b"-1", b"+2", b"1_0", b"99999999999999999999", b"obj", b"ob",
    b"x", b" ", b"  ", b"\n", b"\r", b"\x00", b"\x0b", b"\x0c", b"\t", b"\x1c", b"%", b"% c\n",
    b"<<", b"\xc3\xa9", b"\xd9\xa3",
]  # fmt: skip


@given(st.lists(st.sampled_from(HEADER_TOKENS), max_size=12).map(b"".join))
@SETTINGS
def test_object_header_soup(data: bytes) -> None:
    module = native_module()
    for offset in range(min(len(data), 6) + 2):
        check_header(module, data, offset)


@pytest.mark.corpus
def test_the_reader_opens_as_pypdf() -> None:
    """``NativeReader`` (its ``read_object_header`` in pypdf's ``read()``) and pypdf's reader
    open every corpus file, and crafted ones whose tables point a little off, the same: the
    same tables, trailer, warnings and position."""
    require_corpus()
    module = native_module()
    samples = [f.path.read_bytes() for f in CORPUS_FILES]
    minimal = _minimal_pdf()
    start = minimal.index(b"0000000000 65535 f")
    for shift in (-2, -1, 1, 2, 5):
        table = bytearray(minimal)
        for row in range(1, 4):
            at = start + 20 * row
            offset = int(table[at : at + 10]) + shift * row
            table[at : at + 10] = b"%010d" % max(offset, 0)
        samples.append(bytes(table))
    with engine(module):
        for data in samples:
            plain = _opened_summary(lambda d: pypdf.PdfReader(io.BytesIO(d), strict=False), data)
            fast = _opened_summary(_native_open, data)
            assert plain == fast


def _opened_summary(make: Any, data: bytes) -> tuple[Any, ...]:
    """What a reader holds once open (or the exception's type), and pypdf's warnings."""
    with _pypdf_warnings() as warned:
        try:
            reader = make(data)
        except Exception as exc:
            return type(exc), warned.count
    return (
        reader.xref,
        reader.xref_free_entry,
        reader.xref_objStm,
        reader.xref_index,
        repr(reader.trailer).replace(str(id(reader)), "pdf"),
        list(reader.resolved_objects),
        reader.stream.tell(),
        warned.count,
    )


def _native_open(data: bytes) -> Any:
    reader = native_reader.open_reader(data)
    assert isinstance(reader, native_reader.NativeReader)
    return reader


# --- cross-reference streams (pypdf's _read_xref_subsections) -------------------------------


class _CountingXref:
    """``read_xref_entries`` of the module, counting the calls and the answers."""

    def __init__(self, module: Any) -> None:
        self.read = module.read_xref_entries
        self.calls = 0
        self.answers = 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        got = self.read(*args)
        self.answers += got is not None
        return got


@contextmanager
def _counting_xref(module: Any) -> Iterator[_CountingXref]:
    """Every ``NativeReader`` made meanwhile reads its cross-reference streams through it."""
    counting = _CountingXref(module)
    saved = native_reader.NativeReader._native_xref

    def spied(self: Any, *args: Any) -> Any:
        self._native_xref_entries = counting
        return saved(self, *args)

    native_reader.NativeReader._native_xref = spied  # type: ignore[method-assign]
    try:
        yield counting
    finally:
        native_reader.NativeReader._native_xref = saved  # type: ignore[method-assign]


def _opened_both(module: Any, data: bytes) -> tuple[Any, Any]:
    return (
        _opened_summary(lambda d: pypdf.PdfReader(io.BytesIO(d), strict=False), data),
        _opened_summary(_native_open, data),
    )


@pytest.mark.corpus
def test_the_cross_reference_streams_of_the_corpus() -> None:
    """Every corpus file with a cross-reference stream opens the same both ways, its entries
    read natively."""
    require_corpus()
    module = native_module()
    with engine(module), _counting_xref(module) as counting:
        for f in CORPUS_FILES:
            plain, fast = _opened_both(module, f.path.read_bytes())
            assert plain == fast, f.relpath
    print(f"cross-reference streams read natively: {counting.answers}/{counting.calls}")
    assert counting.calls > 50
    assert counting.answers == counting.calls


def _xref_stream_pdf(rows: bytes, widths: bytes, index: bytes | None, size: int) -> bytes:
    """A file whose only table is the cross-reference stream ``rows`` (object 3) with ``/W
    widths``, ``/Index index`` (if any) and ``/Size size``; objects 1 and 2 are plain."""
    out = bytearray(b"%PDF-1.5\n")
    offsets = []
    for i, body in enumerate(
        [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"], 1
    ):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref_at = len(out)
    rows = rows.replace(b"@1", b"%04x" % offsets[0]).replace(b"@2", b"%04x" % offsets[1])
    rows = rows.replace(b"@3", b"%04x" % xref_at)
    rows = bytes.fromhex(rows.decode())
    extra = b"" if index is None else b"/Index %s " % index
    out += b"3 0 obj\n<< /Type /XRef /Size %d /W %s %s/Root 1 0 R /Length %d >>\nstream\n" % (
        size,
        widths,
        extra,
        len(rows),
    )
    out += rows + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref_at
    return bytes(out)


XREF_CASES = [
    # rows (hex; @n: the offset of object n in 2 bytes), /W, /Index, /Size
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2 1]", None, 4),
    (b"0000ff 01@100 01@200 01@300", b"[1 2 1]", None, 4),
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2 1]", b"[0 2 2 2]", 4),
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2 1]", b"[0 4 1 2]", 4),  # twice
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2 1]", b"[0 4 7]", 4),  # odd /Index
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2 1]", b"[0 -4 0 4]", 4),
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2 1]", b"[0 9]", 9),  # past the data
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00 02 0003 00", b"[1 2 1]", b"[0 5]", 5),
    (b"00 0000 ff 01 @1 00 07 01 @2 00 01 @3 00", b"[1 2 1]", b"[0 5]", 5),  # type 7
    (b"0000 @1 @2 @3", b"[0 2 0]", b"[0 1 1 3]", 4),  # widths of 0: the defaults
    (b"00 0000 00ff 01 @1 0000 01 @2 0000 01 @3 0000", b"[1 2 2]", None, 4),
    (b"00 00000000 ff 01 0000@1 00 01 0000@2 00 01 0000@3 00", b"[1 4 1]", None, 4),
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2 1 5]", None, 4),  # a fourth width
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 9 1]", None, 4),  # pypdf raises
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2.0 1]", None, 4),
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 -2 1]", None, 4),
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[0 0 0]", None, 4),
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3", b"[1 2 1]", None, 4),  # truncated
    (b"00 0000 ff 01 @1 00 01 @2 00 01 @3 00", b"[1 2 1]", b"[3 2 0 2]", 4),
]


def test_crafted_cross_reference_streams() -> None:
    module = native_module()
    with engine(module), _counting_xref(module) as counting:
        for rows, widths, index, size in XREF_CASES:
            data = _xref_stream_pdf(rows, widths, index, size)
            plain, fast = _opened_both(module, data)
            assert plain == fast, (rows, widths, index)
    assert counting.answers >= len(XREF_CASES) - 5


@given(
    rows=st.binary(min_size=0, max_size=40),
    widths=st.lists(st.integers(-1, 9), min_size=3, max_size=4),
    index=st.one_of(st.none(), st.lists(st.integers(-2, 12), max_size=5)),
)
@SETTINGS
def test_cross_reference_stream_soup(rows: bytes, widths: list[int], index: Any) -> None:
    module = native_module()
    w = b"[%s]" % b" ".join(b"%d" % x for x in widths)
    i = None if index is None else b"[%s]" % b" ".join(b"%d" % x for x in index)
    data = _xref_stream_pdf(rows.hex().encode(), w, i, 4)
    with engine(module):
        plain, fast = _opened_both(module, data)
        assert plain == fast


# --- classic cross-reference tables and their trailers (pypdf's _read_xref) ------------------


def _typed_summary(make: Any, data: bytes) -> tuple[Any, ...]:
    """:func:`_opened_summary` with the types of the tables' keys and of ``xref_index`` (pypdf
    keys the first entry of a subsection by its ``NumberObject``)."""

    def typed(tables: Any) -> Any:
        return {g: [(type(k), k, v) for k, v in t.items()] for g, t in tables.items()}

    with _pypdf_warnings() as warned:
        try:
            reader = make(data)
        except Exception as exc:
            return type(exc), warned.count
    return (
        typed(reader.xref),
        typed(reader.xref_free_entry),
        type(reader.xref_index),
        _opened_summary(lambda _d: reader, data),
        warned.count,
    )


class _CountingTables:
    """The module with its ``read_xref_table``, ``read_object_at`` and ``read_stream_head``
    counting the calls and the answers."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.calls = self.answers = self.trailer_calls = self.trailers = self.heads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)

    def read_xref_table(self, *args: Any) -> Any:
        self.calls += 1
        got = self.module.read_xref_table(*args)
        self.answers += got is not None
        return got

    def read_object_at(self, *args: Any) -> Any:
        self.trailer_calls += 1
        got = self.module.read_object_at(*args)
        self.trailers += got is not None
        return got

    def read_stream_head(self, *args: Any) -> Any:
        got = self.module.read_stream_head(*args)
        self.heads += got is not None
        return got


@contextmanager
def _counting_tables(module: Any) -> Iterator[_CountingTables]:
    """Inside ``engine(module)``: readers made meanwhile call the counting module."""
    counting = _CountingTables(module)
    saved = _native.NATIVE
    _native.NATIVE = counting  # type: ignore[assignment]
    try:
        yield counting
    finally:
        _native.NATIVE = saved


def _both_typed(data: bytes) -> tuple[Any, Any]:
    return (
        _typed_summary(lambda d: pypdf.PdfReader(io.BytesIO(d), strict=False), data),
        _typed_summary(_native_open, data),
    )


@pytest.mark.corpus
def test_the_classic_tables_of_the_corpus() -> None:
    """Every corpus file opens the same both ways, key types too; its classic tables and
    trailers read natively (the 'fuzzed' and 'malformed' files included)."""
    require_corpus()
    module = native_module()
    with engine(module), _counting_tables(module) as counting:
        for f in CORPUS_FILES:
            plain, fast = _both_typed(f.path.read_bytes())
            assert plain == fast, f.relpath
    print(f"classic tables read natively: {counting.answers}/{counting.calls}")
    assert counting.calls > 100
    assert counting.answers >= counting.calls * 0.95
    assert counting.trailers >= counting.trailer_calls * 0.95


def _table_pdf(table: bytes, trailer: bytes = b"<< /Size 4 /Root 1 0 R >>") -> bytes:
    """:func:`_minimal_pdf` with ``table`` in place of its cross-reference table (``@n``:
    object n's offset in 10 digits) and ``trailer`` as its trailer."""
    minimal = _minimal_pdf()
    offsets = [minimal.index(b"%d 0 obj" % n) for n in (1, 2, 3)]
    for n, offset in enumerate(offsets, 1):
        table = table.replace(b"@%d" % n, b"%010d" % offset)
    head = minimal[: minimal.index(b"xref")]
    return head + table + b"trailer\n" + trailer + b"\nstartxref\n%d\n%%%%EOF\n" % len(head)


STANDARD_ROWS = b"0000000000 65535 f \n@1 00000 n \n@2 00000 n \n@3 00000 n \n"
TABLE_CASES = [
    b"xref\n0 4\n" + STANDARD_ROWS,
    b"xref\r\n0 4\r\n" + STANDARD_ROWS.replace(b" \n", b"\r\n"),  # CRLF
    b"xref\r0 4\r" + STANDARD_ROWS.replace(b" \n", b" \r"),  # CR
    b"xref\n0 4\n" + STANDARD_ROWS.replace(b" \n", b"\n"),  # 19-byte lines
    b"xref\n0 4\n" + STANDARD_ROWS.replace(b" \n", b"\r\n\n"),  # extra line ends
    b"xref\n0 1\n0000000000 65535 f \n1 3\n@1 00000 n \n@2 00000 n \n@3 00000 n \n",
    b"xref\n0 2\n0000000000 65535 f \n@1 00000 n \n2 2\n@2 00000 n \n@3 00000 n \n",
    b"xref\n1 3\n@1 00000 n \n@2 00000 n \n@3 00000 n \n",  # not zero-indexed
    b"xref\n0 3\n@1 00000 n \n@2 00000 n \n@3 00000 n \n",  # off by one
    b"xref\n0 4\n0000000000 65535 f \n@1 00000 n \n@2 00000 x \n@3 00000 n \n",  # type x
    b"xref\n0 4\n0000000000 65535 f \n@1 00000 n \n@2 00000 f \n@3 00003 n \n",
    b"xref\n0 4\n0000000000 65535 f \n@1 00000 n \n@2 00000  \n@3 00000 n \n",  # no type
    b"xref\n0 5\n" + STANDARD_ROWS,  # count too high
    b"xref\n0 3\n" + STANDARD_ROWS,  # count too low
    b"xref\n0 4\n" + STANDARD_ROWS[:-20],  # a row short
    b"xref\n0 4.0\n" + STANDARD_ROWS,  # a float count
    b"xref\n0 x\n" + STANDARD_ROWS,  # not a count
    b"xref\n0 999999\n" + STANDARD_ROWS,  # above the limit
    b"xref\n-1 4\n" + STANDARD_ROWS,
    b"xref\n+0 4\n" + STANDARD_ROWS,
    b"xref\n0 -4\n" + STANDARD_ROWS,
    b"xref\n0 4\n" + STANDARD_ROWS.replace(b"00000 n", b"0000a n"),  # bad digits
    b"xref\n0 4\n" + STANDARD_ROWS.replace(b"00000 n", b" 0000 n"),  # two spaces
    b"xref\n0 4\n" + STANDARD_ROWS.replace(b"00000 n", b"+0000 n"),
    b"xref\n0 4\n" + STANDARD_ROWS + b"% a comment\n",
    b"xref\n0 4\n" + STANDARD_ROWS + b"garbage\n",
    b"xref\n0 4\n" + STANDARD_ROWS + b"0 0\n",
    b"xref\n 0 4 \n" + STANDARD_ROWS + b"\n\n",
    b"xref0 4\n" + STANDARD_ROWS,
    b"xrf\n0 4\n" + STANDARD_ROWS,
    b"xref\n%c\n0 4\n" + STANDARD_ROWS,
]
TRAILER_CASES = [
    b"<< /Size 4 /Root 1 0 R >>",
    b"<< /Size 4 /Root 1 0 R /ID [<0a1B2c> <0A1b2>] /Info 3 0 R >>",
    b"<< /Size 4 /Root 1 0 R /ID [< 0a 1B\n2c > <zz>] >>",  # whitespace, bad digits
    b"<< /Size 4 /Root 1 0 R /Prev 0 >>",
    b"<< /Size 4 /Root 1 0 R /XRefStm 10 >>",
    b"<< /Size 4 /Root 1 0 R /Size 5 >>",  # a key twice: pypdf warns
    b"<< /Size 4 /Root 1 0 R",  # truncated
    b"[1 2 3]",
    b"12",
    b"% comment\n<< /Size 4 /Root 1 0 R >>",
    b"",
]


def test_crafted_classic_tables() -> None:
    """Odd tables and trailers open the same both ways; the plain ones natively."""
    module = native_module()
    with engine(module), _counting_tables(module) as counting:
        for table in TABLE_CASES:
            for trailer in TRAILER_CASES[:2]:
                plain, fast = _both_typed(_table_pdf(table, trailer))
                assert plain == fast, (table, trailer)
        for trailer in TRAILER_CASES:
            plain, fast = _both_typed(_table_pdf(TABLE_CASES[0], trailer))
            assert plain == fast, trailer
    assert counting.answers >= 20
    assert counting.trailers >= 20


def test_tables_of_updated_files() -> None:
    """A file updated twice (classic tables chained by /Prev, one entry redefined, one
    freed) opens the same both ways."""
    module = native_module()
    base = _minimal_pdf()
    update = bytearray(base)
    first_xref = base.index(b"xref")
    at = len(update)
    update += b"3 1 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>\nendobj\n"
    xref = len(update)
    update += b"xref\n0 1\n0000000000 65535 f \n3 1\n%010d 00001 n \n" % at
    update += b"trailer\n<< /Size 4 /Root 1 0 R /Prev %d >>\n" % first_xref
    update += b"startxref\n%d\n%%%%EOF\n" % xref
    xref2 = len(update)
    update += b"xref\r\n2 1\r\n0000000000 00001 f\r\n"
    update += b"trailer\r\n<< /Size 4 /Root 1 0 R /Prev %d >>\r\n" % xref
    update += b"startxref\r\n%d\r\n%%%%EOF\r\n" % xref2
    with engine(module), _counting_tables(module) as counting:
        plain, fast = _both_typed(bytes(update))
        assert plain == fast
    assert counting.answers == counting.calls == 3


TABLE_TOKENS = [
    b"0", b"1", b"4", b"-1", b" ", b"\n", b"\r", b"\r\n", b"%c\n", b"0000000000 65535 f \n",
    b"@1 00000 n \n", b"@2 00000 n\r\n", b"@3 00000 n\n", b"@3 00000 f\r", b"0000000009 00000 x \n",
    b"00000000a9 00000 n \n", b"0000000009  0000 n \n", b"trailer", b"trail", b"x", b"1.5",
]  # fmt: skip


@given(st.lists(st.sampled_from(TABLE_TOKENS), max_size=16).map(b"".join))
@SETTINGS
def test_classic_table_soup(rows: bytes) -> None:
    module = native_module()
    with engine(module):
        for head in (b"xref\n", b"xref\n0 4\n"):
            plain, fast = _both_typed(_table_pdf(head + rows))
            assert plain == fast


def pypdf_object_at(data: bytes, pos: int, stub: Any) -> Any:
    """pypdf's ``read_non_whitespace``, a step back and ``read_object`` at ``pos``:
    ``(object, end, warned)`` or the exception's type."""
    stream = io.BytesIO(data)
    stream.seek(pos)
    with _pypdf_warnings() as warned:
        try:
            pypdf._utils.read_non_whitespace(stream)
            stream.seek(-1, 1)
            obj = read_object(stream, stub)
        except Exception as exc:
            return type(exc)
        return obj, stream.tell(), warned.count


def check_object_at(module: Any, data: bytes, pos: int) -> str:
    stub = _Stub()
    got = module.read_object_at(data, pos, stub, native_reader.factory(data), _limits())
    if got is None:
        return "none"
    expected = pypdf_object_at(data, pos, stub)
    assert isinstance(expected, tuple), f"native read it, pypdf gives {expected}"
    obj, end, warned = expected
    assert warned == 0
    assert got[1] == end
    assert_same(got[0], obj)
    return "native"


HEX_STRINGS = [
    b"<>", b"<41>", b"<4>", b"<414>", b"< 4 1\n4\r2\t>", b"<4g>", b"<feff00410042>", b"<FEFF0041>",
    b"<fffe4100>", b"<efbbbf41>", b"<e9>", b"<00>", b"<41", b"<4\x0b1>", b"<41\x00>",
]  # fmt: skip


def test_objects_at_positions() -> None:
    """``read_object_at`` (the trailer): hex strings of every kind, dictionaries, anything."""
    module = native_module()
    seen = set()
    for s in HEX_STRINGS:
        for data in (s, b" \n" + s + b" ", b"<< /ID [%s %s] >>" % (s, s)):
            seen.add(check_object_at(module, data, 0))
    for trailer in TRAILER_CASES:
        seen.add(check_object_at(module, b"\r\n" + trailer + b"\nstartxref", 0))
    assert seen == {"native", "none"}


@given(st.lists(st.sampled_from([*TOKENS, *HEX_STRINGS]), max_size=30).map(b"".join))
@SETTINGS
def test_object_at_soup(data: bytes) -> None:
    module = native_module()
    check_object_at(module, data, 0)


# --- encrypted files (get_object's own path, decrypted as pypdf decrypts) ---------------------


class _CountingRead:
    """``read_indirect`` of the module, counting the answers."""

    def __init__(self, module: Any) -> None:
        self.read = module.read_indirect
        self.answers = 0

    def __call__(self, *args: Any) -> Any:
        got = self.read(*args)
        self.answers += got is not None
        return got


def _encrypted_files() -> list[CorpusFile]:
    out = []
    for f in CORPUS_FILES:
        head = f.path.read_bytes()
        if b"/Encrypt" in head:
            out.append(f)
    return out


@pytest.mark.corpus
def test_every_object_of_the_encrypted_files() -> None:
    """Encrypted corpus files, decrypted (their password or none) or not: both readers give
    the same objects (read natively then decrypted by pypdf), warnings, exceptions, caches
    and stream positions; before decryption (a password needed) pypdf's path raises."""
    require_corpus()
    module = native_module()
    files = _encrypted_files()
    assert len(files) >= 5
    native_reads = 0
    with engine(module):
        for f in files:
            data = f.path.read_bytes()
            for password in dict.fromkeys([f.password, None]):
                with _pypdf_warnings():
                    try:
                        plain = pypdf.PdfReader(io.BytesIO(data), strict=False)
                    except Exception:
                        continue
                    fast = native_reader.open_reader(data)
                    assert isinstance(fast, native_reader.NativeReader)
                    if password is not None and plain.is_encrypted:
                        assert plain.decrypt(password) == fast.decrypt(password)
                counting = _CountingRead(module)
                fast._native_read = counting  # type: ignore[attr-defined]
                ids = [(idnum, gen) for idnum, gen, _ in _plain_objects(plain)]
                ids += [(idnum, 0) for idnum in sorted(plain.xref_objStm)][:100]
                compare_readers(plain, fast, ids, f"{f.relpath} {password!r}")
                native_reads += counting.answers
    print(f"objects of encrypted files read natively: {native_reads}")
    assert native_reads > 100


# --- pypdf's _rebuild_xref_table (broken tables) ---------------------------------------------


def _broken_variants() -> list[bytes]:
    """Files pypdf rebuilds the table of (their ``startxref`` points nowhere): small ones,
    one with an object stream, and one with odd objects and trailers in its body."""
    minimal = _minimal_pdf()
    xref = minimal.index(b"xref")
    body, n, first = _objstm(PLAIN_OBJECTS)
    objstm = _objstm_pdf(body, n, first, {num: (3, i) for i, (num, _) in enumerate(PLAIN_OBJECTS)})
    odd = minimal[:xref] + (
        b"7 0 obj\n<< /A (\\q) /B <4g> >>\nendobj\n8 0 obj\n[1 2\nendobj\n"
        b"9 0 obj\n<< /Type /XRef /Root 1 0 R /Size 4 /Length 0 >>\nstream\n\nendstream\nendobj\n"
        b"10 0 obj\n<< /Length 11 0 R >>\nstream\nxy\nendstream\nendobj\n11 0 obj 2 endobj\n"
        b"12 0 obj\n<< /Type /ObjStm /N 2 /First 9 /Length 1 >>\nstream\nx\nendstream\nendobj\n"
        b"trailer\n<< /Size 12 /Root 1 0 R /ID [<01> <02>] >>\ntrailer\n<< /Info 3 0 R >>\n"
        b"startxref\n1\n%%EOF\n"
    )
    out = [
        minimal.replace(b"startxref\n", b"startxref\n9"),
        minimal.replace(b"startxref\n", b"startxref\n1").replace(b"xref\n0 4", b"xref\n1 4"),
        objstm.replace(b"startxref\n", b"startxref\n9"),
        odd,
        odd.replace(b"<< /Info 3 0 R >>", b"<< /Info 3 0 R /Info 2 0 R >>"),
    ]
    return out


def test_rebuilt_tables() -> None:
    """Files pypdf rebuilds the table of open the same both ways (the rebuild's objects and
    trailers read natively where plain), and so does every prefix of one of them."""
    module = native_module()
    variants = _broken_variants()
    with engine(module), _counting_tables(module) as counting:
        for data in variants:
            plain, fast = _both_typed(data)
            assert plain == fast, data
        odd = variants[3]
        for end in range(len(odd) - 400, len(odd) + 1, 3):
            plain, fast = _both_typed(odd[:end])
            assert plain == fast, end
    assert counting.trailers > 20


@given(
    st.lists(st.sampled_from([*TOKENS, b" obj", b"1 0 obj", b"trailer", b"endobj"]), max_size=30)
)
@SETTINGS
def test_rebuilt_table_soup(tokens: list[bytes]) -> None:
    module = native_module()
    body = b"".join(tokens)
    data = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n2 0 obj " + body + b"\ntrailer <<>>"
    with engine(module):
        plain, fast = _both_typed(data)
        assert plain == fast


def test_the_limits_follow_the_configuration() -> None:
    """The reader's limits are read again whenever pypdf's configuration is another one."""
    module = native_module()
    with engine(module):
        fast = native_reader.open_reader(_minimal_pdf())
        assert isinstance(fast, native_reader.NativeReader)
        before = fast._limits()
        config = get_configuration().with_overwrites(dictionary_maximum_element_count=7)
        with pypdf.apply_configuration(config):
            assert fast._limits() == (before[0], 7, before[2])  # type: ignore[index]
            assert fast._limits() is fast._limits()
        assert fast._limits() == before
        with pypdf.apply_configuration(
            get_configuration().with_overwrites(maximum_declared_stream_length=-1)
        ):
            assert fast._limits() is None


# --- objects pypdf searches the file for ------------------------------------------------------


def _searched_pdf() -> tuple[bytes, list[tuple[int, int]]]:
    """A file whose table sends pypdf searching: object 5's entry points at object 1 (and no
    ``5 0 obj`` exists), object 9's at object 4 (and ``9 0 obj`` is further on), objects 7
    and 8 are not in the table (7 is in the file, after look-alikes the search must skip:
    NUL before it, more digits, a leading zero, another generation; 8 is nowhere)."""
    bodies = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /F 7 0 R /G 8 0 R >>",
        4: b"(four)",
    }
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for num, body in bodies.items():
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, body)
    out += b"\x007 0 obj (nul) endobj\n 17 0 obj (seventeen) endobj\n 07 0 obj (zero) endobj\n"
    out += b" 7 00 obj (gen) endobj\n 7\r\n0\tobj\n<< /Found true >>\nendobj\n"
    out += b" 9 0 obj\n(nine)\nendobj\n 7 0 obj (a second seven) endobj\n"
    xref = len(out)
    out += b"xref\n0 6\n0000000000 65535 f \n"
    for num in (1, 2, 3, 4):
        out += b"%010d 00000 n \n" % offsets[num]
    out += b"%010d 00000 n \n9 1\n%010d 00000 n \n" % (offsets[1], offsets[4])
    out += b"trailer\n<< /Size 10 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    ids = [(7, 0), (8, 0), (9, 0), (5, 0), (17, 0), (7, 1), (70, 0), (4, 0), (9, 0)]
    return bytes(out), ids


def test_objects_searched_for_as_pypdf_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """An object the table lacks, or whose entry points at another object's header, is found
    (or not) where pypdf's search of the file finds it, read and cached as pypdf does it, with
    its warnings and table repairs; the native reader answers the search from one index of
    the file's headers instead of copying and searching the whole file each time."""
    module = native_module()
    import pypdf._reader

    searches: list[int] = []
    real = pypdf._reader.get_stream_data

    def counting(stream: Any) -> bytes:
        searches.append(1)
        return real(stream)

    monkeypatch.setattr(pypdf._reader, "get_stream_data", counting)
    data, ids = _searched_pdf()
    with engine(module):
        opened = _open_both(module, data)
        assert opened is not None
        plain, fast, _ = opened
        compare_readers(plain, fast, ids, "searched")
        assert plain.xref == fast.xref and 7 in fast.xref[0] and fast.xref[0][9] != 0
        assert len(searches) >= 4  # pypdf's reader searched for 5, 7, 8 and 9 (and more)
        assert fast._native_headers  # the index, made once for all of them
    searches.clear()
    with engine(module):
        fast = native_reader.open_reader(data)
        for idnum, gen in ids:
            _try_get(fast, idnum, gen)
    assert searches == []


_HEADER_TOKENS = [
    b" ", b"\n", b"\r", b"\t", b"\x0b", b"\x0c", b"\x00", b"0", b"1", b"7", b"12", b"00",
    b"obj", b"endobj", b"ob", b"j", b"x", b"-", b"+",
]  # fmt: skip


class _Headers:
    """What ``NativeReader._header_match`` needs: the file's bytes."""

    _header_index = native_reader.NativeReader._header_index
    _header_match = native_reader.NativeReader._header_match

    def __init__(self, data: bytes) -> None:
        self._native_data = data
        self._native_headers = None


_SPACES = [b"", b" ", b"  ", b"\n", b"\r\n", b"\t", b"\x0b", b"\x0c", b"\x00"]
_NUMBERS = [b"0", b"1", b"7", b"12", b"00", b"07", b"17", b"10"]
_HEADER_LIKE = st.tuples(
    *(st.sampled_from(_SPACES), st.sampled_from(_NUMBERS)) * 2, st.sampled_from(_SPACES)
).map(lambda parts: b"".join(parts) + b"obj")


@given(st.lists(st.one_of(_HEADER_LIKE, st.sampled_from(_HEADER_TOKENS)), max_size=30))
@SETTINGS
def test_header_index_is_pypdfs_search(parts: list[bytes]) -> None:
    """For any bytes (headers, near misses and noise) and numbers, the index answers what
    pypdf's regular expression finds: the first header of those numbers, or none."""
    data = b"".join(parts)
    headers = _Headers(data)
    for idnum in (0, 1, 7, 12, 17, 70, 112, 1200):
        for gen in (0, 1, 7, 10):
            m = re.search(rf"\s{idnum}\s+{gen}\s+obj".encode(), data)
            expected = None if m is None else m.span()
            assert headers._header_match(idnum, gen) == expected, (idnum, gen)


# --- streams whose endstream is not where /Length puts it (pypdf's repair) --------------------


def _damaged_stream_pdf(stream: bytes, *, table: str = "whole", tail: bytes = b"") -> bytes:
    """A file whose object 4 is ``stream`` (a stream with a damaged length), object 5 after
    it. ``table``: ``whole`` (object 4 in the table), ``missing`` (object 4 left out of it:
    pypdf searches the file for its header) or ``broken`` (``startxref`` points nowhere:
    pypdf rebuilds the table, reading every object). ``tail`` goes after ``%%EOF``."""
    bodies = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    }
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for num, body in bodies.items():
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, body)
    offsets[4] = len(out)
    out += b"4 0 obj\n" + stream + b"\nendobj\n"
    offsets[5] = len(out)
    out += b"5 0 obj\n(five)\nendobj\n"
    xref = len(out)
    listed = [n for n in (1, 2, 3, 4, 5) if not (table == "missing" and n == 4)]
    out += b"xref\n0 1\n0000000000 65535 f \n"
    for num in listed:
        out += b"%d 1\n%010d 00000 n \n" % (num, offsets[num])
    start = b"1" if table == "broken" else b"%d" % xref
    out += b"trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n" + start + b"\n%%EOF\n" + tail
    return bytes(out)


DAMAGED_STREAMS = {
    # ReportLab's length one too long: pypdf finds endstream one byte back
    "one too long": b"<< /Length 4 >>\nstream\nxy\nendstream",
    "one too long, CRLF": b"<< /Length 5 >>\nstream\r\nxy\r\nendstream",
    # too short, then a run of NULs: pypdf reads up to the next object for endstream
    "too short": b"<< /Length 2 >>\nstream\nxyz" + b"\x00" * 5000 + b"\nendstream",
    "NULs after": b"<< /Length 2 >>\nstream\nxy" + b"\x00" * 5000 + b"zz\nendstream",
    "compressed": b"<< /Length 5 /Filter /FlateDecode >>\nstream\n"
    + zlib.compress(b"BT /F1 12 Tf (Hello) Tj ET" * 20)
    + b"\nendstream",
    "too long": b"<< /Length 400 >>\nstream\nxy\nendstream",
    # no endstream before the next object: pypdf raises
    "no endstream": b"<< /Length 2 >>\nstream\nxyz" + b"\x00" * 300,
    "no endstream, no data": b"<< /Length 0 >>\nstream\n" + b" " * 40,
}


def _compare_damaged(data: bytes, where: str) -> None:
    plain_open, fast_open = _both_typed(data)
    assert plain_open == fast_open, where
    with _pypdf_warnings():
        plain = pypdf.PdfReader(io.BytesIO(data), strict=False)
        fast = _native_open(data)
    compare_readers(plain, fast, [(4, 0), (5, 0), (3, 0), (4, 0)], where)
    # and the error pypdf's repair raises is pypdf's, message and all
    with _pypdf_warnings():
        try:
            a: Any = plain.get_object(IndirectObject(4, 0, plain))
        except Exception as exc:
            a = repr(exc).replace(str(id(plain)), "pdf")
        try:
            b: Any = fast.get_object(IndirectObject(4, 0, fast))
        except Exception as exc:
            b = repr(exc).replace(str(id(fast)), "pdf")
    if isinstance(a, str):
        assert a == b, where


@pytest.mark.parametrize("name", list(DAMAGED_STREAMS))
@pytest.mark.parametrize("table", ["whole", "missing", "broken"])
def test_streams_repaired_as_pypdf_repairs_them(name: str, table: str) -> None:
    """A stream whose endstream is not where its ``/Length`` puts it: pypdf repairs it (one
    byte back, or up to the next object) or raises; the native reader does the same from
    where ``read_stream_head`` says the whitespace after the data ends, on each path pypdf
    reads objects by (the table's offset, a search for the header, a rebuilt table)."""
    module = native_module()
    with engine(module), _counting_tables(module) as counting:
        _compare_damaged(_damaged_stream_pdf(DAMAGED_STREAMS[name], table=table), name)
    assert counting.heads >= 1


@pytest.mark.parametrize(
    "stream",
    [
        b"<< /Length 99 >>\nstream\nxy",  # the declared length runs past the end
        b"<< /Length 2 >>\nstream\nxy" + b"\x00" * 64,  # whitespace up to the end
        b"<< /Length 2 >>\nstream\nxy" + b"\x00" * 64 + b"endstrea",
    ],
)
def test_streams_at_the_end_of_the_file(stream: bytes) -> None:
    module = native_module()
    with engine(module), _counting_tables(module) as counting:
        data = _damaged_stream_pdf(b"(moved)", tail=b"6 0 obj\n" + stream)
        # object 6 is in no table: pypdf finds it by its header, at the very end
        with _pypdf_warnings():
            plain = pypdf.PdfReader(io.BytesIO(data), strict=False)
            fast = _native_open(data)
        compare_readers(plain, fast, [(6, 0), (4, 0)], repr(stream))
    assert counting.heads >= 1


def test_repairs_over_the_limit_raise_as_pypdf_raises() -> None:
    """pypdf's limit on what the repair reads (``maximum_declared_stream_length``) holds."""
    module = native_module()
    data = _damaged_stream_pdf(DAMAGED_STREAMS["too short"])
    config = get_configuration().with_overwrites(maximum_declared_stream_length=1000)
    with engine(module), _counting_tables(module) as counting, pypdf.apply_configuration(config):
        _compare_damaged(data, "limit")
        fast = _native_open(data)
        with pytest.raises(pypdf.errors.LimitReachedError), _pypdf_warnings():
            fast.get_object(IndirectObject(4, 0, fast))
    assert counting.heads >= 1


@given(
    length=st.integers(0, 60),
    body=st.lists(st.sampled_from([*TOKENS, b"\x00" * 50, b"ndstream", b"endstrea"]), max_size=8),
)
@SETTINGS
def test_damaged_stream_soup(length: int, body: list[bytes]) -> None:
    module = native_module()
    stream = b"<< /Length %d >>\nstream\n" % length + b"".join(body)
    with engine(module):
        for table in ("whole", "broken"):
            _compare_damaged(_damaged_stream_pdf(stream, table=table), repr(stream))
