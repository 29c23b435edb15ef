"""The MCP server, driven as a subprocess by the SDK's own client over stdio: every tool (the
same answer as the operation called in-process), every error code as a tool error carrying the
envelope, OCR through ``--ocr``, and the ``serve`` command's startup checks."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_support import (
    JPEG,
    MAX_FILE_BYTES,
    NFC,
    NFD,
    PYTHON,
    SAMPLE,
    WORKDIR,
    Tree,
    build_tree,
    call,
    fail,
    report_pdf,
    session,
)

from pdfthin.errors import ERROR_CODES
from pdfthin.operations import (
    Context,
    describe_document,
    diff_documents,
    find_in_document,
    get_image,
    get_info,
    get_toc,
    ledger,
    list_images,
    peek,
    read_pages,
    read_section,
    resolve_anchor,
    verify_quote,
)
from pdfthin.operations import cursor as cur

TOOLS = {
    "list_documents",
    "describe_document",
    "read_pages",
    "find_in_document",
    "get_toc",
    "read_section",
    "peek",
    "get_info",
    "list_images",
    "get_image",
    "get_chunks",
    "inspect_layout",
    "search_chunks",
    "get_annotations",
    "get_form_fields",
    "verify_quote",
    "resolve_anchor",
    "render_citation",
    "ledger",
    "extract_schema",
    "diff_documents",
    "get_page_image",
    "submit_transcription",
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    return build_tree(tmp_path_factory.mktemp("mcp"))


def expect(operation: Any, data: bytes, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The operation's answer in-process, on a fresh context (the server's defaults)."""
    result: dict[str, Any] = operation(data, *args, context=Context(), **kwargs)
    return result


def test_tools_are_listed_with_schemas_and_hints(tree: Tree) -> None:
    async def main() -> None:
        async with session(tree.root) as s:
            listed = (await s.list_tools()).tools
            info = s.initialize_result
        assert info is not None and info.server_info.name == "pdfthin"
        assert "list_documents" in (info.instructions or "")
        assert {t.name for t in listed} == TOOLS
        for tool in listed:
            hints = tool.annotations
            assert hints is not None
            assert hints.read_only_hint is True
            assert hints.idempotent_hint is True
            assert hints.destructive_hint is False
            assert hints.open_world_hint is False
            assert len(tool.description or "") > 150
            schema = tool.input_schema
            assert schema["type"] == "object" and schema["additionalProperties"] is False
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"
            if tool.name != "list_documents":
                assert "path" in schema["required"]
                assert schema["properties"]["path"]["type"] == "string"
        by_name = {t.name: t.input_schema["properties"] for t in listed}
        assert by_name["find_in_document"]["match_mode"]["enum"] == [
            "phrase",
            "all_words",
            "any_words",
        ]
        assert by_name["peek"]["position"]["enum"] == ["beginning", "middle", "ending", "random"]
        assert by_name["read_pages"]["max_chars"]["minimum"] == 1000
        assert by_name["list_documents"]["max_results"]["maximum"] == 1000

    anyio.run(main)


def test_every_tool_answers_as_the_operation_does(tree: Tree) -> None:
    sample = SAMPLE.read_bytes()
    alpha = (tree.root / "docs" / "alpha.pdf").read_bytes()
    images = (tree.root / "images.pdf").read_bytes()

    async def main() -> None:
        async with session(tree.root) as s:
            listing = await call(s, "list_documents")
            assert [d["path"] for d in listing["documents"]] == [
                "big.pdf",
                "broken.pdf",
                "docs/alpha.pdf",
                "docs/beta.pdf",
                "folder.pdf/inner.pdf",
                "images.pdf",
                "link-in.pdf",
                "locked.pdf",
                NFD,  # "re\u0301sume\u0301.pdf" sorts before "r\u00e9sum\u00e9.pdf"
                NFC,
                "sample.pdf",
                "text.pdf",
                "\uff0e\uff0e/inside.pdf",
            ]
            # Listing never opens a file: big.pdf is listed with its size (reading it is
            # too_large), text.pdf and broken.pdf too.
            big = await call(s, "list_documents", pattern="big*")
            assert big["documents"][0]["size"] == MAX_FILE_BYTES + 9
            assert listing["skipped"] == {"link_outside_root": 2}  # link-out.pdf, dev-zero.pdf
            assert listing["next_cursor"] is None

            got = await call(s, "describe_document", path="sample.pdf")
            assert got == expect(describe_document, sample)
            assert got["type"] == "mixed" and got["pages"]["needs_ocr"] == "3"

            got = await call(s, "read_pages", path="sample.pdf", pages="1-2")
            assert got == expect(read_pages, sample, pages="1-2")
            assert [p["page"] for p in got["pages"]] == [1, 2]
            assert got["pages"][0]["markdown"].startswith("# A Sample for pdfthin")

            # A budget, followed through its cursors: the same sequence as in-process.
            answers, token = [], None
            while True:
                page = await call(
                    s, "read_pages", path="docs/alpha.pdf", max_chars=1500, cursor=token
                )
                answers.append(page)
                token = page["next_cursor"]
                if token is None:
                    break
            local, token = [], None
            while True:
                page = expect(read_pages, alpha, max_chars=1500, cursor=token)
                local.append(page)
                token = page["next_cursor"]
                if token is None:
                    break
            assert answers == local and len(answers) > 3
            assert all(
                len(json.dumps(a, ensure_ascii=False, separators=(",", ":"))) <= 1500
                for a in answers
            )

            got = await call(
                s, "find_in_document", path="docs/alpha.pdf", query="quarterly figure 34"
            )
            assert got == expect(find_in_document, alpha, "quarterly figure 34")
            assert [m["page"] for m in got["matches"]] == [2]
            assert got["coverage"]["complete"] is True

            got = await call(
                s,
                "find_in_document",
                path="sample.pdf",
                query="nowhere-to-be-found",
                match_mode="any_words",
            )
            assert got["matches"] == [] and got["coverage"]["complete"] is False
            assert got["coverage"]["pages_needing_ocr"] == "3"

            got = await call(
                s, "verify_quote", path="sample.pdf", quote="a piece at a time", page=2
            )
            assert got == expect(verify_quote, sample, "a piece at a time", page=2)
            assert (got["result"], got["match"]["page"]) == ("other_page", 1)
            anchor = got["match"]["anchor"]
            got = await call(s, "resolve_anchor", path="sample.pdf", anchor=anchor)
            assert got == expect(resolve_anchor, sample, anchor)
            assert got["text"] == "a piece at a time"

            first = await call(s, "read_pages", path="sample.pdf", max_chars=1000)
            token = first["next_cursor"]
            got = await call(s, "ledger", path="sample.pdf", cursors=token)
            assert got == expect(ledger, sample, cursors=token)
            assert got["ledger"]["delivered"] == first["ledger"]["delivered"]

            # diff_documents: its second document is a path under the root too.
            beta = (tree.root / "docs" / "beta.pdf").read_bytes()
            got = await call(s, "diff_documents", path="docs/alpha.pdf", new="docs/beta.pdf")
            assert got == expect(diff_documents, alpha, new=beta)
            assert got["counts"]["changed"] and got["identical"] is False
            got = await call(s, "diff_documents", path="docs/alpha.pdf", new="docs/alpha.pdf")
            assert got["identical"] is True

            got = await call(s, "get_toc", path="docs/alpha.pdf")
            assert got == expect(get_toc, alpha)
            assert [x["title"] for x in got["sections"]] == [
                f"Chapter {n} of alpha" for n in range(1, 7)
            ]

            got = await call(s, "read_section", path="docs/alpha.pdf", section="s-3")
            assert got == expect(read_section, alpha, "s-3")
            assert "Chapter 3 of alpha" in got["markdown"] and "Chapter 4" not in got["markdown"]

            got = await call(s, "read_section", path="sample.pdf")
            assert got == expect(read_section, sample)

            got = await call(s, "peek", path="docs/alpha.pdf", position="random", seed=7, limit=200)
            assert got == expect(peek, alpha, position="random", seed=7, limit=200)
            assert len(got["text"]) <= 200

            got = await call(s, "peek", path="docs/alpha.pdf", section="s-2")
            assert got["text"].startswith("Chapter 2 of alpha")

            got = await call(s, "get_info", path="sample.pdf")
            assert got == expect(get_info, sample)

            got = await call(s, "list_images", path="images.pdf")
            assert got == expect(list_images, images)
            assert [i["id"] for i in got["images"]] == ["p1-x3", "p1-x4", "p1-x5", "p1-x6"]

            got = await call(s, "list_images", path="sample.pdf", pages="3")
            assert [i["id"] for i in got["images"]] == ["p3-x5"]

            # get_image: PNG and JPEG as image content, JPEG 2000 as an embedded blob.
            for image_id, media, kind in (
                ("p1-x3", "image/png", "image"),
                ("p1-x4", "image/jpeg", "image"),
                ("p1-x5", "image/jp2", "resource"),
            ):
                result = await s.call_tool(
                    "get_image", {"path": "images.pdf", "image_id": image_id}
                )
                assert not result.is_error
                local_image = expect(get_image, images, image_id)
                data = local_image.pop("data")
                local_image.pop("encoding")
                assert result.structured_content == local_image
                assert local_image["media_type"] == media
                first = result.content[0]
                assert first.type == kind
                if kind == "image":
                    assert first.mime_type == media and first.data == data
                else:
                    assert first.resource.mime_type == media and first.resource.blob == data
                assert json.loads(result.content[1].text) == local_image
            jpeg = await s.call_tool("get_image", {"path": "images.pdf", "image_id": "p1-x4"})
            assert base64.b64decode(jpeg.content[0].data) == JPEG

            # A link inside the root reads its target; the password opens locked.pdf.
            assert (await call(s, "describe_document", path="link-in.pdf")) == expect(
                describe_document, sample
            )
            got = await call(s, "describe_document", path="locked.pdf", password="secret")
            assert got["document"]["page_count"] == 6

            # NFC and NFD spellings are two files; each reaches its own.
            nfc = await call(s, "peek", path=NFC)
            nfd = await call(s, "peek", path=NFD)
            assert nfc["text"].startswith("Chapter 1 of nfc")
            assert nfd["text"].startswith("Chapter 1 of nfd")
            assert (await call(s, "get_toc", path="\uff0e\uff0e/inside.pdf"))["sections"][0][
                "title"
            ] == "Chapter 1 of dots"

    anyio.run(main)


def test_every_error_code_is_a_tool_error_with_the_envelope(tree: Tree) -> None:
    alpha = (tree.root / "docs" / "alpha.pdf").read_bytes()
    fingerprint = expect(describe_document, alpha)["document"]["fingerprint"]
    stale = cur.encode(
        cur.Cursor(
            op="read",
            fingerprint=cur.fingerprint_prefix(fingerprint),
            ocr=False,
            args=cur.args_digest(op="read", pages="1-6"),
            offset=5,
            page_hash="0" * 12,
        )
    )
    seen: set[str] = set()

    async def main() -> None:
        async with session(tree.root) as s:

            async def code(tool: str, expected: str, **arguments: Any) -> dict[str, Any]:
                error = await fail(s, tool, **arguments)
                assert error["code"] == expected, (tool, arguments, error)
                seen.add(expected)
                return error

            error = await code("read_pages", "invalid_pages", path="sample.pdf", pages="2-9")
            assert "3 pages" in error["message"]
            await code("read_pages", "invalid_pages", path="sample.pdf", pages=0)
            await code("read_pages", "invalid_pages", path="sample.pdf", pages="3-1")

            for tool, arguments in (
                ("read_pages", {"path": "sample.pdf", "max_chars": 10}),
                ("read_pages", {"path": "sample.pdf", "max_chars": "lots"}),
                ("read_pages", {"path": "sample.pdf", "ocr": "yes"}),
                ("read_pages", {"path": "sample.pdf", "bogus": 1}),
                ("read_pages", {}),
                ("read_pages", {"path": 7}),
                ("find_in_document", {"path": "sample.pdf"}),
                ("find_in_document", {"path": "sample.pdf", "query": "x", "match_mode": "regex"}),
                ("find_in_document", {"path": "sample.pdf", "query": "   "}),
                ("peek", {"path": "sample.pdf", "position": "top"}),
                ("peek", {"path": "sample.pdf", "section": "chapter one"}),
                ("list_documents", {"max_results": 0}),
                ("list_documents", {"pattern": ""}),
                ("get_image", {"path": "images.pdf", "image_id": "picture"}),
                ("no_such_tool", {}),
            ):
                error = await code(tool, "invalid_argument", **arguments)

            await code("describe_document", "not_found", path="missing.pdf")
            await code("read_section", "not_found", path="docs/alpha.pdf", section="s-9")
            await code("get_image", "not_found", path="images.pdf", image_id="p1-x99")
            await code("list_documents", "not_found", subdirectory="missing")

            await code("describe_document", "outside_root", path="../outside/secret.pdf")
            await code("describe_document", "outside_root", path="link-out.pdf")
            # A second document is held inside the root as the first is.
            await code("diff_documents", "outside_root", path="sample.pdf", new="link-out.pdf")
            await code("diff_documents", "not_found", path="sample.pdf", new="docs/none.pdf")
            await code("list_documents", "outside_root", subdirectory="linkdir-out")

            await code("describe_document", "not_a_pdf", path="text.pdf")
            await code("describe_document", "not_a_pdf", path="folder.pdf")
            await code("describe_document", "not_a_pdf", path="fifo.pdf")

            await code("describe_document", "encrypted", path="locked.pdf")
            await code("describe_document", "encrypted", path="locked.pdf", password="wrong")

            await code("describe_document", "malformed", path="broken.pdf")

            error = await code("describe_document", "too_large", path="big.pdf")
            assert error["details"]["limit"] == MAX_FILE_BYTES
            await code("get_image", "too_large", path="images.pdf", image_id="p1-x3", max_bytes=10)

            await code("read_pages", "ocr_unavailable", path="sample.pdf", ocr=True)
            await code(
                "render_citation",
                "renderer_unavailable",
                path="sample.pdf",
                page=1,
                bbox="72,72,200,100",
            )
            await code(
                "find_in_document", "ocr_unavailable", path="sample.pdf", query="x", ocr=True
            )

            await code("read_pages", "invalid_cursor", path="sample.pdf", cursor="not-a-cursor")
            token = (await call(s, "read_pages", path="docs/alpha.pdf", max_chars=1500))[
                "next_cursor"
            ]
            await code("read_pages", "invalid_cursor", path="docs/beta.pdf", cursor=token)
            await code("get_toc", "invalid_cursor", path="docs/alpha.pdf", cursor=token)
            await code("list_documents", "invalid_cursor", cursor=token)

            error = await code("read_pages", "stale_cursor", path="docs/alpha.pdf", cursor=stale)
            assert error["details"] == {"page": 1}

            await code("get_image", "unsupported", path="images.pdf", image_id="p1-x6")

            # The server is still answering after all of that.
            assert (await call(s, "get_toc", path="docs/alpha.pdf"))["total_sections"] == 6

    anyio.run(main)
    # busy, timeout and internal are driven in test_mcp_concurrency.py, test_ocr_over_mcp
    # and test_an_unexpected_exception_is_an_internal_envelope.
    assert seen == ERROR_CODES - {"busy", "timeout", "internal"}


# --- OCR through --ocr ------------------------------------------------------------------------

BINDING = """
import time
from pdfthin.ocr import OcrBinding

class Raster:
    def render(self, pdf, pages, dpi, signal):
        return [{"page": n, "image": b"fake image", "media_type": "image/png"} for n in pages]

class Reader:
    name = "fake-reader"
    def recognize(self, pages, signal):
        time.sleep(DELAY)
        return [{"page": p["page"], "markdown": f"Recognised text of page {p['page']}"}
                for p in pages]

binding = OcrBinding(rasterizer=Raster(), provider=Reader(), timeout=TIMEOUT)
"""


def write_binding(path: Path, delay: float, timeout: float) -> Path:
    path.write_text(f"DELAY = {delay}\nTIMEOUT = {timeout}\n" + textwrap.dedent(BINDING))
    return path


def test_ocr_over_mcp(tree: Tree, tmp_path: Path) -> None:
    quick = write_binding(tmp_path / "quick_ocr.py", delay=0, timeout=30)
    slow = write_binding(tmp_path / "slow_ocr.py", delay=3, timeout=0.3)

    async def main() -> None:
        async with session(tree.root, "--ocr", str(quick)) as s:
            got = await call(s, "describe_document", path="sample.pdf")
            assert got["capabilities"]["ocr"]["bound"] is True
            assert got["capabilities"]["ocr"]["provider"] == "fake-reader"
            got = await call(s, "read_pages", path="sample.pdf", pages="3", ocr=True)
            assert got["pages"][0]["status"] == "ocr"
            assert got["pages"][0]["markdown"] == "Recognised text of page 3"
            got = await call(s, "find_in_document", path="sample.pdf", query="recognised", ocr=True)
            assert [m["page"] for m in got["matches"]] == [3]
            assert got["coverage"]["complete"] is True
        async with session(tree.root, "--ocr", str(slow)) as s:
            error = await fail(s, "read_pages", path="sample.pdf", pages="3", ocr=True)
            assert error["code"] == "timeout"
            # The text layer still answers.
            assert (await call(s, "read_pages", path="sample.pdf", pages="1"))["pages"][0][
                "status"
            ] == "text"

    anyio.run(main)


# --- in-process: the paths a subprocess cannot force --------------------------------------------


def test_an_unexpected_exception_is_an_internal_envelope(
    tree: Tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pdfthin.adapters.mcp.config import ServeConfig
    from pdfthin.adapters.mcp.server import PdfthinServer

    server = PdfthinServer(ServeConfig(root=str(tree.root)))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server.runner, "cached", broken)
    result = anyio.run(server.call, "describe_document", {"path": "sample.pdf"})
    assert result.is_error
    assert result.structured_content is not None
    error = result.structured_content["error"]
    assert error["code"] == "internal" and "RuntimeError" in error["message"]


def test_listings_past_the_bound_are_busy(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from pdfthin.adapters.mcp.config import ServeConfig
    from pdfthin.adapters.mcp.server import PdfthinServer

    server = PdfthinServer(ServeConfig(root=str(tree.root), max_listings=1))
    release = threading.Event()
    real = server.sandbox.list_documents

    def slow_listing(**kwargs: Any) -> dict[str, Any]:
        release.wait(10)
        return real(**kwargs)

    monkeypatch.setattr(server.sandbox, "list_documents", slow_listing)

    async def main() -> None:
        results: list[Any] = []

        async def first() -> None:
            results.append(await server.call("list_documents", {}))

        async with anyio.create_task_group() as tg:
            tg.start_soon(first)
            await anyio.sleep(0.2)
            second = await server.call("list_documents", {})
            # A document call is not a listing: it is served while the listing is stuck.
            read = await server.call("get_toc", {"path": "docs/alpha.pdf"})
            release.set()
        assert second.is_error and second.structured_content is not None
        error = second.structured_content["error"]
        assert error["code"] == "busy" and error["details"]["retry_after_seconds"] > 0
        assert not read.is_error
        assert not results[0].is_error
        assert len(results[0].structured_content["documents"]) == 13

    anyio.run(main)


# --- the serve command ------------------------------------------------------------------------


def run_cli(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [PYTHON, "-c", code, *args] if code else [PYTHON, "-m", "pdfthin", *args]
    return subprocess.run(
        command,
        check=False,
        cwd=WORKDIR,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_serve_without_the_extra_is_one_line_and_exit_2(tree: Tree) -> None:
    hide = (
        "import sys; sys.modules['mcp'] = None; from pdfthin.adapters.cli import main; "
        "sys.exit(main(sys.argv[1:]))"
    )
    done = run_cli("serve", str(tree.root), code=hide)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "pdfthin serve needs the MCP SDK: pip install 'mcp>=2.3,<3'\n"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["{root}/sample.pdf"], "is not a directory"),
        (["{root}/missing"], "is not a directory"),
        (["{root}", "--http", "0.0.0.0:8765"], "loopback"),
        (["{root}", "--http", "192.168.1.10:8765"], "loopback"),
        (["{root}", "--http", "example.com:8765"], "loopback"),
        (["{root}", "--http", "127.0.0.1"], "HOST:PORT"),
        (["{root}", "--cache-size", "0"], "--cache-size"),
        (["{root}", "--cache-size", "17"], "--cache-size"),
        (["{root}", "--max-chars", "10"], "--max-chars"),
        (["{root}", "--max-concurrent-extractions", "0"], "--max-concurrent-extractions"),
        (["{root}", "--timeout", "0"], "--timeout"),
        (["{root}", "--max-bytes-in-flight", "0"], "--max-bytes-in-flight"),
        (["{root}", "--ocr", "no_such_module_here"], "no_such_module_here"),
    ],
)
def test_serve_startup_errors_are_one_line_and_exit_2(
    tree: Tree, arguments: list[str], message: str
) -> None:
    done = run_cli("serve", *(a.format(root=tree.root) for a in arguments))
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_the_core_never_imports_the_sdk() -> None:
    check = (
        "import sys, io, contextlib, pdfthin\n"
        "from pdfthin.adapters.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    assert main(['read', {str(SAMPLE)!r}, '--pages', '1']) == 0\n"
        "assert 'Sample' in out.getvalue()\n"
        "sdk = ('mcp', 'mcp_types', 'pydantic', 'anyio')\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in sdk)\n"
        "loaded += sorted(m for m in sys.modules if m.startswith('pdfthin.adapters.mcp'))\n"
        "print(loaded)\n"
    )
    done = run_cli(code=check)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_report_fixture_is_what_the_tests_expect() -> None:
    # Guards the other assertions: the fixture documents have six located sections.
    toc = get_toc(report_pdf("x"), context=Context())
    assert toc["source"] == "outline" and toc["total_sections"] == 6
    assert sys.executable == PYTHON
