"""A stream's data read once, not kept in the stream object."""

from __future__ import annotations

from pypdf.filters import decode_stream_data
from pypdf.generic import EncodedStreamObject, StreamObject

from .native_reader import FileEncodedStream


def read_once(stream: StreamObject) -> bytes:
    """``stream.get_data()`` for data read once and then dropped (a page's content streams).

    pypdf's ``get_data`` keeps the decoded data in the stream object (``decoded_self``), and
    the reader keeps the object until the document is closed, so every page's decoded content
    would stay in memory while the whole document is built. This decodes the same way (the
    same bytes, the same errors and warnings) without keeping it; data already decoded is
    reused. A stream the native reader left in the file is not copied out of it either."""
    if isinstance(stream, FileEncodedStream):
        return stream.data_once()
    if isinstance(stream, EncodedStreamObject) and stream.decoded_self is None:
        return decode_stream_data(stream)
    return stream.get_data()
