"""The native accelerator changes speed, never answers (docs/design.md, invariant 10).

Every file of the corpus is read by both engines: every page's complete ``PageContent``
(``repr``: every run, box, float, hidden text, image, rule, count and problem) and the complete
JSON of what the operations answer (every page read, the description, the table of contents,
the document facts, the image list) must be the same, byte for byte. So must every content
stream's tokens. Any difference fails.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from native_support import engine, first_difference, native_module

from pdfthin.engine import open_pdf
from pdfthin.engine.content.interpreter import content_bytes
from pdfthin.engine.content.lexer import iter_operations
from pdfthin.engine.objects import get, resolve, stream_data
from pdfthin.errors import PdfthinError
from pdfthin.operations import (
    Context,
    describe_document,
    error_envelope,
    get_info,
    get_toc,
    list_images,
    read_pages,
)

pytestmark = pytest.mark.corpus


def _answers(f: CorpusFile) -> str:
    """Everything the operations answer about the file, as one JSON text."""
    context = Context()
    path = str(f.path)
    out: list[Any] = []
    try:
        cursor = None
        while True:
            page = read_pages(path, password=f.password, max_chars=5_000_000, cursor=cursor,
                              context=context)  # fmt: skip
            out.append(page)
            cursor = page.get("next_cursor")
            if not cursor:
                break
        described = describe_document(path, password=f.password, context=context)
        described.get("capabilities", {}).pop("engine", None)  # says which engine answered
        out.append(described)
        out.append(get_toc(path, password=f.password, max_chars=5_000_000, context=context))
        out.append(get_info(path, password=f.password, context=context))
        out.append(list_images(path, password=f.password, max_chars=5_000_000, context=context))
    except PdfthinError as exc:
        out.append(error_envelope(exc))
    return json.dumps(out, ensure_ascii=False, sort_keys=True)


@pytest.mark.parametrize("f", corpus_params(corpus_files()))
def test_same_pages_and_same_json(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    module = native_module()
    # A document per engine: fonts (and their CMaps) are loaded by each engine too.
    try:
        pure_doc, native_doc = (open_pdf(f.path, password=f.password) for _ in range(2))
    except PdfthinError:
        pure_doc = native_doc = None
    if pure_doc is not None and native_doc is not None:
        for number in range(1, pure_doc.page_count + 1):
            with engine(None):
                pure = repr(pure_doc.page(number))
            with engine(module):
                native = repr(native_doc.page(number))
            assert pure == native, f"page {number} " + first_difference(pure, native)
    with engine(None):
        pure_json = _answers(f)
    with engine(module):
        native_json = _answers(f)
    assert pure_json == native_json, first_difference(pure_json, native_json)


def _streams(f: CorpusFile) -> list[bytes]:
    """The file's page content streams and its Form XObjects' contents."""
    try:
        doc = open_pdf(f.path, password=f.password)
    except PdfthinError:
        return []
    out = []
    for page_obj in doc._pages:
        try:
            out.append(content_bytes(page_obj)[0])
        except Exception:
            continue
        resources = get(page_obj, "/Resources")
        xobjects = get(resources, "/XObject")
        if isinstance(xobjects, dict):
            for ref in list(xobjects.values())[:20]:
                if get(resolve(ref), "/Subtype") == "/Form":
                    data = stream_data(ref)
                    if data:
                        out.append(data)
    return out


def pure_tokens(data: bytes) -> tuple[list[tuple[bytes, list[Any]]], str | None]:
    return all_tokens(iter_operations(data))


def native_tokens(module: Any, data: bytes) -> tuple[list[tuple[bytes, list[Any]]], str | None]:
    return all_tokens(module.tokenize(data))


def all_tokens(
    operations: Iterator[tuple[bytes, list[Any]]],
) -> tuple[list[tuple[bytes, list[Any]]], str | None]:
    """Every operation, and the message of the ``OverflowError`` that ends them (if any)."""
    out: list[tuple[bytes, list[Any]]] = []
    try:
        for op, operands in operations:
            out.append((op, operands))
    except OverflowError as exc:
        return out, str(exc)
    return out, None


@pytest.mark.parametrize("f", corpus_params(corpus_files()))
def test_same_tokens(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    module = native_module()
    for data in _streams(f):
        pure_ops, pure_error = pure_tokens(data)
        native_ops, native_error = native_tokens(module, data)
        assert native_error == pure_error
        pure, native = repr(pure_ops), repr(native_ops)
        assert pure == native, first_difference(pure, native)
