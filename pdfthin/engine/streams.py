"""A stream's data: decoded once without being kept, or as stored in the file."""

from __future__ import annotations

import pypdf
from pypdf.filters import decode_stream_data
from pypdf.generic import EncodedStreamObject, NameObject, StreamObject

from pdfthin.engine import _native

#: Numbers the native inflate takes (an unsigned 64-bit integer, with room to spare).
_BIG = 2**62


def read_once(stream: StreamObject) -> bytes:
    """``stream.get_data()`` for data read once and then dropped (a page's content streams).

    pypdf's ``EncodedStreamObject.get_data`` keeps the decoded data inside the stream object and
    the reader keeps the object until the document is closed, so every page's decoded content
    would stay in memory while the whole document is built. This decodes the same way (the
    same bytes, the same errors and warnings) without keeping it; data already decoded is
    reused. With the native accelerator, a plain ``/FlateDecode`` stream is inflated natively
    (:func:`_inflated`)."""
    if isinstance(stream, EncodedStreamObject) and stream.decoded_self is None:
        inflated = _inflated(stream)
        return inflated if inflated is not None else decode_stream_data(stream)
    return stream.get_data()


def stored_data(stream: StreamObject) -> bytes:
    """The stream's data as the file stores it, its filters not applied (decrypted, if the
    file is encrypted): an image's JPEG, say, handed on as it is.

    pypdf's ``EncodedStreamObject.get_data`` decodes; the base class's public ``get_data``
    answers the data as read, which is what pypdf's own decoders start from."""
    return bytes(StreamObject.get_data(stream) or b"")


def _inflated(stream: StreamObject) -> bytes | None:
    """``decode_stream_data(stream)`` where that is one zlib inflate, done natively: the
    stream's one filter is ``/FlateDecode`` (a name, not an array or a reference), without
    ``/DecodeParms`` (so no predictor), with data, within pypdf's limits (its public
    configuration: filters, output, decoding work), and zlib decodes it whole (the kernel's
    ``inflate``, zlib-rs). ``None``: pypdf decodes it, with its recovery of damaged streams,
    its errors and warnings; so too without the accelerator, or when the native code fails."""
    native = _native.NATIVE
    if native is None:
        return None
    filters = dict.get(stream, "/Filter")
    if type(filters) is not NameObject or filters != "/FlateDecode":
        return None
    if "/DecodeParms" in stream:
        return None
    config = pypdf.get_configuration()
    work = config.stream_decoding_work_maximum_length
    limit = config.zlib_maximum_output_length
    filters_allowed = config.stream_filters_maximum_length
    data = StreamObject.get_data(stream)
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
    except _native.Fault:
        return None
    return inflated
