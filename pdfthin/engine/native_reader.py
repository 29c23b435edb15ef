"""pypdf's reader with the native accelerator parsing plain indirect objects.

pypdf's ``PdfReader.get_object`` reads an object that is not cached yet, not in an object
stream and not free at the offset its cross-reference table gives: the header ``N G obj``, then
``read_object``. :class:`NativeReader` lets ``pdfthin_native.read_indirect`` do that for
unencrypted files. It builds the same pypdf objects (pypdf's own classes and its
``create_string_object``) or answers ``None`` for anything it is not sure pypdf would read
the plain way (a warning, a repair, a limit, an indirect stream /Length, an object stream, ...),
and then pypdf reads the object itself. Either way the object is cached as pypdf caches it.
``tests/test_native_objects.py`` compares both parsers on every object of the corpus.

pypdf is not patched: the fast path is a subclass, used only when the native module is loaded
(``_native.NATIVE``) and only with the pypdf versions whose ``get_object``, ``read_object`` and
the object classes' ``read_from_stream`` were checked to be the ones reproduced (7.0 and 7.1;
the two releases are identical there). Any other version gets pypdf's plain reader.
"""

from __future__ import annotations

import functools
import io
from typing import Any

import pypdf
from pypdf._configuration import get_configuration
from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
    StreamObject,
    create_string_object,
)

from . import _native

#: Numbers the native side takes (an unsigned 64-bit integer, with room to spare).
_BIG = 2**62

#: The pypdf releases whose object parsing ``read_indirect`` reproduces.
VERIFIED_PYPDF = ("7.0.", "7.1.")

#: What ``read_indirect`` builds objects with (see ``pdfthin_native/src/objects.rs``).
#: ``NumberObject(x)`` and ``FloatObject(x)`` are ``int.__new__`` / ``float.__new__`` of
#: their class once pypdf has converted the text; the native side hands over the number.
FACTORY = (
    DictionaryObject,
    ArrayObject,
    NameObject,
    functools.partial(int.__new__, NumberObject),
    functools.partial(float.__new__, FloatObject),
    BooleanObject,
    NullObject,
    IndirectObject,
    create_string_object,
    StreamObject.initialize_from_dictionary,
)


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
        assert _native.NATIVE is not None
        self._native_read = _native.NATIVE.read_indirect
        self._native_data = data
        self._native_stream = io.BytesIO(data)
        self._native_ready = False  # pypdf's own path while the reader is being set up
        super().__init__(self._native_stream, strict=False)
        self._native_ready = True

    def get_object(self, indirect_reference: int | IndirectObject) -> Any:
        # The plain path of pypdf's get_object, where its only effects are: the object read at
        # the offset, cached with cache_indirect_object, and the stream left after it (its
        # loop detection adds and removes the object around a read_object that here never
        # calls get_object: no indirect /Length).
        if (
            not self._native_ready
            or not isinstance(indirect_reference, IndirectObject)
            or self._encryption is not None
            or self.stream is not self._native_stream
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
        start = self.xref.get(generation, {}).get(idnum)
        if type(idnum) is not int or type(generation) is not int or type(start) is not int:
            return super().get_object(indirect_reference)
        if not (0 <= idnum < _BIG and 0 <= generation < _BIG and 0 <= start < _BIG):
            return super().get_object(indirect_reference)
        config = get_configuration()
        limits = (
            config.array_maximum_element_count,
            config.dictionary_maximum_element_count,
            config.maximum_declared_stream_length,
        )
        if not all(type(n) is int and 0 <= n < _BIG for n in limits):
            return super().get_object(indirect_reference)
        found = self._native_read(
            self._native_data, start, idnum, generation, self, FACTORY, limits
        )
        if found is None:
            return super().get_object(indirect_reference)
        obj, end = found
        self.stream.seek(end, 0)
        return self.cache_indirect_object(generation, idnum, obj)
