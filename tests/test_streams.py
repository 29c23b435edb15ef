"""``streams.read_once``: a stream decoded as pypdf's ``get_data`` decodes it (the same bytes,
errors and warnings) without keeping the decoded data; with the native accelerator a plain
``/FlateDecode`` stream is inflated by the kernel, anything else by pypdf. Every case runs on
both engine paths; the native kernel must answer the plain streams (else it silently does
nothing)."""

from __future__ import annotations

import io
import logging
import types
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pypdf
import pytest
from conftest import CORPUS_FILES, require_corpus
from pdfbuilder import PdfBuilder
from pypdf.generic import EncodedStreamObject, IndirectObject, StreamObject

from pdfthin.engine import _native
from pdfthin.engine.streams import read_once, stored_data


@pytest.fixture
def module(implementation: str) -> ModuleType | None:
    """The engine a test reads with: ``None`` (pure Python) or the native module."""
    return _native.NATIVE


class _Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def _decoded(stream: Any, read: Any) -> tuple[Any, int]:
    """``read(stream)`` or the exception's type, and the number of pypdf's warnings."""
    logger = logging.getLogger("pypdf")
    counter = _Count()
    level = logger.level
    logger.addHandler(counter)
    logger.setLevel(logging.WARNING)
    try:
        got: Any = read(stream)
    except Exception as exc:
        got = type(exc)
    finally:
        logger.removeHandler(counter)
        logger.setLevel(level)
    return got, counter.count


class _Inflates:
    """Counts the native inflates that answered."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.answers = 0

    def __call__(self, *args: Any) -> Any:
        found = self.module.inflate(*args)
        self.answers += found is not None
        return found


@contextmanager
def _counting(module: ModuleType | None) -> Iterator[_Inflates | None]:
    if module is None:
        yield None
        return
    counting = _Inflates(module)
    _native.NATIVE = types.SimpleNamespace(inflate=counting)  # type: ignore[assignment]
    try:
        yield counting
    finally:
        _native.NATIVE = module


def _streams() -> dict[str, tuple[bytes, bool]]:
    """Flate data of every kind: ``True`` where zlib decodes it whole (the kernel answers)."""
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


def _stream(data: bytes, **entries: Any) -> StreamObject:
    b = PdfBuilder()
    ref = b.stream(data, flate=False, **{"Filter": "/FlateDecode", "Type": "/Test", **entries})
    b.add_page(b"", {})
    reader = pypdf.PdfReader(io.BytesIO(b.build()), strict=False)
    stream = reader.get_object(IndirectObject(ref.num, 0, reader))
    assert isinstance(stream, EncodedStreamObject)
    return stream


@pytest.mark.parametrize("name", list(_streams()))
@pytest.mark.parametrize(
    "entries", [{}, {"DecodeParms": {"Predictor": 1}}, {"Filter": ["/FlateDecode"]}]
)
def test_read_once_decodes_as_pypdf_and_keeps_nothing(
    module: ModuleType | None, name: str, entries: dict[str, Any]
) -> None:
    data, whole = _streams()[name]
    expected = _decoded(_stream(data, **entries), lambda s: s.get_data())
    stream = _stream(data, **entries)
    with _counting(module) as counting:
        assert _decoded(stream, read_once) == expected
    assert stream.decoded_self is None
    assert stored_data(stream) == data
    if counting is not None:
        assert counting.answers == (whole and not entries)


def test_pypdfs_limits_hold(module: ModuleType | None) -> None:
    """Past pypdf's output or decoding-work limit the stream is pypdf's (its error)."""
    big = zlib.compress(b"x" * 200_000)
    for overrides in (
        {"zlib_maximum_output_length": 100_000},
        {"zlib_maximum_output_length": 200_000},
        {"zlib_maximum_output_length": 200_001},
        {"stream_decoding_work_maximum_length": 150_000},
        {"stream_decoding_work_maximum_length": len(big) + 200_000},
    ):
        config = pypdf.get_configuration().with_overwrites(**overrides)
        with pypdf.apply_configuration(config):
            expected = _decoded(_stream(big), lambda s: s.get_data())
            assert _decoded(_stream(big), read_once) == expected, overrides


@pytest.mark.corpus
def test_every_flate_stream_of_the_corpus(module: ModuleType | None) -> None:
    """Every encoded stream of the corpus read once: pypdf's bytes or error; with the kernel,
    most of them inflated natively."""
    require_corpus()
    streams = 0
    with _counting(module) as counting:
        for f in CORPUS_FILES:
            try:
                reader = pypdf.PdfReader(f.path, strict=False)
                if reader.is_encrypted:
                    continue
                numbers = [(n, g) for g, table in reader.xref.items() for n in table]
            except Exception:
                continue
            for idnum, gen in numbers[:400]:
                try:
                    obj = reader.get_object(IndirectObject(idnum, gen, reader))
                except Exception:
                    continue
                if not isinstance(obj, EncodedStreamObject) or obj.decoded_self is not None:
                    continue
                got = _decoded(obj, read_once)
                assert obj.decoded_self is None
                assert got == _decoded(obj, lambda s: s.get_data()), f"{f.relpath} {idnum}"
                streams += 1
    assert streams > 2000
    if counting is not None:
        assert counting.answers > 0.8 * streams
