"""The native parser of indirect objects gives pypdf's answer or none (DESIGN.md invariant 10).

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
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pypdf
import pytest
from conftest import CORPUS_FILES, CorpusFile, corpus_params, require_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import engine, native_module
from pypdf._configuration import get_configuration
from pypdf.generic import IndirectObject, StreamObject, read_object

from pdfthin.engine import native_reader

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
    return module.read_indirect(data, offset, idnum, gen, reader, native_reader.FACTORY, _limits())


def assert_same(a: Any, b: Any, where: str = "", readers: tuple[Any, Any] | None = None) -> None:
    """``a`` and ``b`` are the same pypdf object: type, value, attributes, ``repr``; their
    references point at the same reader (or at ``readers``, one each)."""
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
