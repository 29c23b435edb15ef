"""Chunks for indexing pipelines (issue 22, "Exports"): ``pdfthin chunks --format jsonl|text|
json``, ``pdfthin.chunks``, ``pdfthin.exports`` (JSON Lines, columns) and the LangChain and
LlamaIndex loaders, against ``get_chunks`` answering the whole selection in one response.

polars, pyarrow, langchain-core and llama-index-core are not test dependencies of every
environment (together about 570 MB): their tests skip where a package is missing, and tox's
``integrations`` environment installs them and sets ``PDFTHIN_INTEGRATIONS=require``, where a
missing one fails instead.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.adapters import cli
from pdfthin.exports import COLUMNS, to_columns, to_jsonl, whole_chunks
from pdfthin.operations import Context, get_chunks
from pdfthin.operations.params import MAX_MAX_CHARS, MIN_MAX_CHARS

pytestmark = pytest.mark.usefixtures("implementation")

_WORDS = (
    "the river runs past stone walls while lanterns hang over narrow streets of the old town"
).split()
_TITLES = ("Harbour works", "Old walls", "Night markets", "Bridges")
#: A size target under which every fixture paragraph (about 115 tokens) is a chunk of its own,
#: whose JSON (about 1,250 characters) is over the smallest budget a call takes.
_TOKENS = 150


def _sentence(page: int, index: int) -> str:
    words = [_WORDS[(page * 7 + index * 3 + k) % len(_WORDS)] for k in range(11)]
    return " ".join(words).capitalize() + f" {page}.{index}."


def _wrapped(text: str, width: int = 85) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line]


def _document(tag: str, pages: int = 3) -> bytes:
    """``pages`` pages, each a heading (a title of its own, placed lower on each page, so it is
    no running header) over three paragraphs of seven sentences; ``tag`` makes the file (and its
    fingerprint) the test's own, so no cached page of another engine path is read."""
    b = PdfBuilder()
    fonts = {"F1": b.font_standard("Helvetica"), "F2": b.font_standard("Helvetica-Bold")}
    for n in range(1, pages + 1):
        top = 740 - 40 * (n - 1)
        ops = [f"BT /F2 16 Tf 72 {top} Td ({_TITLES[n % len(_TITLES)]}) Tj ET"]
        y = top - 30
        for paragraph in range(3):
            text = " ".join(_sentence(n, paragraph * 10 + i) for i in range(7))
            for line in _wrapped(text):
                ops.append(f"BT /F1 10 Tf 72 {y} Td ({line}) Tj ET")
                y -= 13
            y -= 12
        b.add_page("\n".join(ops).encode(), {"Font": fonts})
    b.set_info(Title=f"exports {tag}")
    return b.build()


@pytest.fixture
def pdf(tmp_path: Path, implementation: str) -> Path:
    path = tmp_path / "report.pdf"
    path.write_bytes(_document(f"{implementation} {tmp_path.name}"))
    return path


def _one_response(path: Path, **kwargs: Any) -> list[dict[str, Any]]:
    """Every chunk, from one call with the largest budget (checked to be complete)."""
    response = get_chunks(str(path), max_chars=MAX_MAX_CHARS, context=Context(), **kwargs)
    assert response["complete"] and response["next_cursor"] is None
    assert len(response["chunks"]) >= 6  # the fixture makes chunks, not one
    return [dict(c) for c in response["chunks"]]


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


def _jsonl(text: str) -> list[dict[str, Any]]:
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


# --- the command line ----------------------------------------------------------------------------


def test_jsonl_stream_is_the_chunks_of_one_big_response(pdf: Path) -> None:
    code, out, _ = _cli("chunks", str(pdf), "--max-tokens", str(_TOKENS), "--format", "jsonl")
    assert code == 0
    assert _jsonl(out) == _one_response(pdf, max_tokens=_TOKENS)
    assert all("\n" not in line for line in out.splitlines())  # one chunk, one line


def test_a_chunk_cut_by_a_tiny_budget_comes_out_whole_on_one_line(
    pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The smallest budget cuts every chunk of the fixture (the premise, checked)...
    first = get_chunks(str(pdf), max_tokens=_TOKENS, max_chars=MIN_MAX_CHARS, context=Context())
    assert "part" in first["chunks"][0]
    budgets: list[int] = []
    original = cli._run

    def noting(args: Any, ask: Any, json_mode: bool) -> Any:
        budgets.append(ask.keywords["max_chars"])
        return original(args, ask, json_mode)

    monkeypatch.setattr(cli, "_run", noting)
    # ...yet each is written whole, plain text included, on a line of its own.
    args = ("chunks", str(pdf), "--max-tokens", str(_TOKENS), "--max-chars", str(MIN_MAX_CHARS))
    code, out, _ = _cli(*args, "--format", "jsonl")
    assert code == 0
    assert _jsonl(out) == _one_response(pdf, max_tokens=_TOKENS)
    # The parts carry their plain text: no response is asked for again with a larger budget.
    assert len(budgets) > len(_jsonl(out)) and set(budgets) == {MIN_MAX_CHARS}


class _Screen(io.StringIO):
    """Stdout that notes how many calls had been made at each write."""

    def __init__(self, calls: list[dict[str, Any]]) -> None:
        super().__init__()
        self.calls = calls
        self.at_writes: list[int] = []

    def write(self, s: str) -> int:
        self.at_writes.append(len(self.calls))
        return super().write(s)


def test_jsonl_writes_each_chunk_as_soon_as_a_response_holds_it_whole(
    pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    responses: list[dict[str, Any]] = []
    original = cli._run

    def noting(*args: Any, **kwargs: Any) -> Any:
        response = original(*args, **kwargs)
        responses.append(response)
        return response

    monkeypatch.setattr(cli, "_run", noting)
    screen = _Screen(responses)
    args = ["chunks", str(pdf), "--max-tokens", str(_TOKENS), "--max-chars", "3000"]
    with contextlib.redirect_stdout(screen):
        assert cli.main([*args, "--format", "jsonl"]) == 0
    assert len(responses) > 2  # the premise: several responses
    lines = [json.loads(line) for line in screen.getvalue().splitlines()]
    assert len(lines) == len(screen.at_writes) == len(_one_response(pdf, max_tokens=_TOKENS))
    for line, calls in zip(lines, screen.at_writes, strict=True):
        # Written after the call whose response first held the chunk whole, before the next.
        whole_in = next(
            n
            for n, r in enumerate(responses, 1)
            if any(c["chunk_id"] == line["chunk_id"] and "part" not in c for c in r["chunks"])
        )
        assert calls == whole_in, line["chunk_id"]


def test_parts_across_responses_are_joined_into_one_chunk(pdf: Path) -> None:
    """Following the cursors of the smallest budget by hand, every chunk comes in parts; joined,
    each is the whole chunk: its Markdown and its plain text, each part carrying the piece of
    the plain text its Markdown shows."""
    entries: list[dict[str, Any]] = []
    cursor = None
    # One context: the cursors are followed against the document kept open (a call each
    # opening the file again made this the suite's slowest test, a minute and more per engine
    # path); a few of them are resumed in a fresh context below, which must answer the same.
    context = Context()
    answers: list[tuple[str | None, dict[str, Any]]] = []
    while True:
        response = get_chunks(
            str(pdf), max_tokens=_TOKENS, max_chars=MIN_MAX_CHARS, cursor=cursor, context=context
        )
        answers.append((cursor, dict(response)))
        entries += response["chunks"]
        cursor = response["next_cursor"]
        if cursor is None:
            break
    for cursor, answer in answers[1 :: max(1, len(answers) // 4)]:
        fresh = get_chunks(
            str(pdf), max_tokens=_TOKENS, max_chars=MIN_MAX_CHARS, cursor=cursor, context=Context()
        )
        assert dict(fresh) == answer
    whole = _one_response(pdf, max_tokens=_TOKENS)
    assert len(entries) > len(whole)  # the premise: chunks came in parts
    joined = list(whole_chunks(entries))  # type: ignore[arg-type]
    assert joined == whole
    for part in entries:
        # Its text's letters and digits are its Markdown's, in order (less the syntax).
        shown = iter(ch for ch in part["markdown"] if ch.isalnum())
        assert all(ch in shown for ch in part["text"] if ch.isalnum()), part


def test_text_listing_names_each_chunk(pdf: Path) -> None:
    code, out, _ = _cli("chunks", str(pdf), "--max-tokens", str(_TOKENS))
    assert code == 0
    lines = out.splitlines()
    chunks = _one_response(pdf, max_tokens=_TOKENS)
    assert len(lines) == len(chunks)
    for line, chunk in zip(lines, chunks, strict=True):
        first = chunk["markdown"].splitlines()[0]
        shown = first if len(first) <= 80 else first[:79] + "…"  # cut to 80 characters
        trail = " > ".join(chunk["breadcrumb"])
        page, kind = chunk["page"], chunk["kind"]
        assert line == f"{chunk['chunk_id']}  page {page}  {kind}  [{trail}]  {shown}"
    assert any(line.endswith("…") for line in lines)  # the fixture's lines are cut


def test_json_is_one_answer_unless_a_budget_is_asked_for(pdf: Path) -> None:
    code, out, _ = _cli("chunks", str(pdf), "--max-tokens", str(_TOKENS), "--format", "json")
    assert code == 0
    answer = json.loads(out)
    assert answer["chunks"] == _one_response(pdf, max_tokens=_TOKENS)
    assert answer["complete"] and answer["next_cursor"] is None
    code, out, _ = _cli("chunks", str(pdf), "--format", "json", "--max-chars", "3000")
    assert code == 0
    first = json.loads(out)
    assert first["next_cursor"] and not first["complete"]


def test_json_merges_the_chunks_of_several_responses(pdf: Path) -> None:
    """Past the largest budget a call takes, ``--format json`` joins its responses' chunks."""
    responses = []
    cursor = None
    while True:
        responses.append(
            get_chunks(
                str(pdf), max_tokens=_TOKENS, max_chars=3000, cursor=cursor, context=Context()
            )
        )
        cursor = responses[-1]["next_cursor"]
        if cursor is None:
            break
    assert len(responses) > 2  # the premise
    merged = cli._merged_chunks([dict(r) for r in responses])
    assert merged["chunks"] == _one_response(pdf, max_tokens=_TOKENS)
    assert merged["complete"] and merged["next_cursor"] is None
    assert merged["document"] == responses[0]["document"]


@pytest.mark.parametrize("form", ["jsonl", "text", "json"])
def test_a_document_error_exits_1_with_one_line(tmp_path: Path, form: str) -> None:
    missing = tmp_path / "missing.pdf"
    code, out, err = _cli("chunks", str(missing), "--format", form)
    assert code == cli.EXIT_DOCUMENT
    assert err.startswith("pdfthin: ") and err.count("\n") == 1
    if form == "json":  # the envelope on stdout, as every command gives it
        assert json.loads(out)["error"]["code"]
    else:  # nothing a pipeline would take for a chunk
        assert out == ""


# --- the Python API ------------------------------------------------------------------------------


def test_pdfthin_chunks_gives_every_chunk_whole(pdf: Path) -> None:
    assert list(pdfthin.chunks(pdf, max_tokens=_TOKENS)) == _one_response(pdf, max_tokens=_TOKENS)


def test_to_jsonl_writes_one_chunk_a_line(pdf: Path, tmp_path: Path) -> None:
    chunks = _one_response(pdf, max_tokens=_TOKENS)
    target = tmp_path / "chunks.jsonl"
    assert to_jsonl(chunks, target) == len(chunks)  # type: ignore[arg-type]
    assert _jsonl(target.read_text(encoding="utf-8")) == chunks
    stream = io.StringIO()
    assert to_jsonl(chunks, stream) == len(chunks)  # type: ignore[arg-type]
    assert stream.getvalue() == target.read_text(encoding="utf-8")


def _rows(columns: dict[str, list[Any]]) -> list[dict[str, Any]]:
    count = len(columns["chunk_id"])
    return [{name: columns[name][i] for name in columns} for i in range(count)]


def _as_entry(row: dict[str, Any]) -> dict[str, Any]:
    """A row of the columns back as ``get_chunks`` gives a chunk."""
    box = ("x0", "y0", "x1", "y1")
    entry = {
        "chunk_id": row["chunk_id"],
        "page": row["page"],
        "bbox": {k: row[k] for k in box},
        "kind": row["kind"],
        "breadcrumb": row["breadcrumb"],
        "markdown": row["markdown"],
        "token_estimate": row["token_estimate"],
        "status": row["status"],
        "provenance": row["provenance"],
        "page_spans": [
            {"page": s["page"], "bbox": {k: s[k] for k in box}} for s in row["page_spans"]
        ],
        "text": row["text"],
    }
    if row["reason_code"] != "text_layer":
        entry["reason_code"] = row["reason_code"]
    if row["anchor"] is not None:
        entry["anchor"] = row["anchor"]
    return entry


def test_columns_are_as_long_as_each_other_and_round_trip(pdf: Path) -> None:
    chunks = _one_response(pdf, max_tokens=_TOKENS)
    columns = to_columns(chunks)  # type: ignore[arg-type]
    assert tuple(columns) == COLUMNS
    assert {len(values) for values in columns.values()} == {len(chunks)}
    assert [_as_entry(row) for row in _rows(columns)] == chunks
    empty = to_columns([])
    assert tuple(empty) == COLUMNS and not any(empty.values())


def test_columns_refuse_a_chunk_with_a_part_missing(pdf: Path) -> None:
    first = get_chunks(str(pdf), max_tokens=_TOKENS, max_chars=MIN_MAX_CHARS, context=Context())
    assert "part" in first["chunks"][0]
    with pytest.raises(ValueError, match="incomplete"):
        to_columns(first["chunks"])


def _package(name: str) -> ModuleType:
    """``name`` imported; where it is missing, a skip (a failure in tox's integrations env)."""
    if os.environ.get("PDFTHIN_INTEGRATIONS", "").strip().lower() == "require":
        import importlib

        return importlib.import_module(name)
    return pytest.importorskip(name)


def test_polars_takes_the_columns(pdf: Path) -> None:
    polars = _package("polars")
    chunks = _one_response(pdf, max_tokens=_TOKENS)
    frame = polars.from_dict(to_columns(chunks))  # type: ignore[arg-type]
    assert frame.columns == list(COLUMNS)
    assert frame.height == len(chunks)
    assert frame["chunk_id"].to_list() == [c["chunk_id"] for c in chunks]
    assert frame["breadcrumb"].to_list() == [c["breadcrumb"] for c in chunks]
    assert frame["page_spans"].to_list()[0][0]["x1"] == chunks[0]["page_spans"][0]["bbox"]["x1"]


def test_pyarrow_takes_the_columns(pdf: Path) -> None:
    pyarrow = _package("pyarrow")
    chunks = _one_response(pdf, max_tokens=_TOKENS)
    table = pyarrow.table(to_columns(chunks))  # type: ignore[arg-type]
    assert table.column_names == list(COLUMNS)
    assert table.num_rows == len(chunks)
    assert [_as_entry(row) for row in table.to_pylist()] == chunks


# --- the loaders ---------------------------------------------------------------------------------


def _expected_metadata(chunk: dict[str, Any], source: str) -> dict[str, Any]:
    box = chunk["bbox"]
    return {
        "source": source,
        "chunk_id": chunk["chunk_id"],
        "page": chunk["page"],
        "end_page": chunk["page_spans"][-1]["page"],
        **box,
        "kind": chunk["kind"],
        "breadcrumb": " > ".join(chunk["breadcrumb"]),
        "status": chunk["status"],
        "provenance": chunk["provenance"],
        "token_estimate": chunk["token_estimate"],
    }


def test_langchain_loader_gives_one_document_per_chunk(pdf: Path) -> None:
    _package("langchain_core")
    from langchain_core.documents import Document

    from pdfthin.integrations.langchain import PdfthinLoader

    chunks = _one_response(pdf, max_tokens=_TOKENS)
    documents = PdfthinLoader(pdf, max_tokens=_TOKENS).load()
    assert all(isinstance(d, Document) for d in documents)
    assert [d.page_content for d in documents] == [c["markdown"] for c in chunks]
    assert [d.metadata for d in documents] == [_expected_metadata(c, str(pdf)) for c in chunks]
    assert [d.id for d in documents] == [f"{pdf}#{c['chunk_id']}" for c in chunks]
    named = next(PdfthinLoader(pdf.read_bytes(), max_tokens=_TOKENS, source="r.pdf").lazy_load())
    assert named.metadata == _expected_metadata(chunks[0], "r.pdf")


def test_llamaindex_reader_gives_one_document_per_chunk(pdf: Path) -> None:
    _package("llama_index.core")
    from llama_index.core.schema import Document, MetadataMode

    from pdfthin.integrations import LOCATING_KEYS
    from pdfthin.integrations.llamaindex import PdfthinReader

    chunks = _one_response(pdf, max_tokens=_TOKENS)
    documents = PdfthinReader(max_tokens=_TOKENS).load_data(pdf, extra_info={"shelf": "a"})
    assert all(isinstance(d, Document) for d in documents)
    assert [d.text for d in documents] == [c["markdown"] for c in chunks]
    expected = [{**_expected_metadata(c, str(pdf)), "shelf": "a"} for c in chunks]
    assert [d.metadata for d in documents] == expected
    assert [d.id_ for d in documents] == [f"{pdf}#{c['chunk_id']}" for c in chunks]
    # The box and ids stay out of what is embedded; the heading trail goes in.
    embedded = documents[0].get_content(metadata_mode=MetadataMode.EMBED)
    assert chunks[0]["breadcrumb"][0] in embedded
    assert not any(f"{key}:" in embedded for key in LOCATING_KEYS)


def test_llamaindex_directory_reader_takes_the_reader(pdf: Path) -> None:
    """LlamaIndex's own directory reader calls the reader as its file extractor."""
    _package("llama_index.core")
    from llama_index.core import SimpleDirectoryReader

    from pdfthin.integrations.llamaindex import PdfthinReader

    chunks = _one_response(pdf, max_tokens=_TOKENS)
    reader = SimpleDirectoryReader(
        str(pdf.parent), file_extractor={".pdf": PdfthinReader(max_tokens=_TOKENS)}
    )
    documents = reader.load_data()
    assert [d.text for d in documents] == [c["markdown"] for c in chunks]
    assert [d.metadata["chunk_id"] for d in documents] == [c["chunk_id"] for c in chunks]
    assert {d.metadata["file_name"] for d in documents} == {pdf.name}  # its own metadata too
