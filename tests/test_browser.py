"""The demo in a real browser: build ``web/dist`` into a temporary folder, serve it on 127.0.0.1,
and drive Debian's Chromium with playwright-core (``web/tests/browser.mjs``).

What the page must show is computed here with CPython's pdfthin on the same file: the title and
page statuses, a Markdown heading rendered as a heading, "More" continuing after the last page,
the first sections of the table of contents and a section read from it, the first search hit
(highlighted, with its page number) and its lines highlighted on the page pdf.js draws (at the
boxes pdfthin answered, scaled), a quote verified on another page than the one cited and shown
on its page, that page's layout drawn (``inspect_layout``), an image,
an encrypted file the empty password opens (no prompt), a hit on each of four pages turned
by /Rotate drawn with its highlight on the text, the password prompt for an RC4 file
dropped on the page (then a hit in it drawn on its page: pdf.js got the password too) and
the ``cryptography`` message for an AES one, with no prompt. Beside
those, the page itself: the progress bar moving while Python starts, the hidden file input
reached and opened with the keyboard, the spinner while busy, the summary folded to one line,
tabs that stay on screen, the status line cleared by each new action, search notes (nothing
found; pages not searched, on a scanned page) apart from results. Any console error, page
error, failed request or request leaving 127.0.0.1 fails the test. Screenshots and
``report.json`` are kept in ``web/test-artifacts/pyXY/`` (or under ``$PDFTHIN_WEB_ARTIFACTS``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from webtools import CORPUS, WEB, build_dist, chromium, node

sys.path.insert(0, str(WEB))
import serve

pytestmark = [pytest.mark.corpus, pytest.mark.slow, pytest.mark.web]

DOCUMENT = "sample-files/GeoTopo-komprimiert.pdf"  # 117 pages, an outline, images
QUERY = "Stetigkeit"
ABSENT = "zqxjvwk"  # in no page of DOCUMENT
RC4 = ("pdfminer/encryption/rc4-40.pdf", "foo")
AES = ("pdfminer/encryption/aes-128.pdf", "foo")
# Encrypted, the empty user password opens it; page 2 is a scan (needs OCR), so a search there
# is incomplete and says which pages it could not search.
EMPTY_PASSWORD = "pdfminer/encryption/encrypted_doc_no_id.pdf"
UNSEARCHED_QUERY = "the"
# Cited on the wrong page: verify_quote finds it on the next one.
QUOTE = ("Seien (X, TX), (Y, TY) topologische Räume", 12)
RC4_QUERY = "Secret"
# Four pages turned by /Rotate 90, 180, 270 and 0, the same words on each.
ROTATED = ("sample-files/habibi-rotated.pdf", "habibi")
READ_BUDGET = 20_000  # app.js READ_BUDGET
INSPECT_BUDGET = 400_000  # app.js INSPECT_BUDGET
LIST_BUDGET = 8_000  # app.js LIST_BUDGET
STATUS_LABELS = {
    "text": "text",
    "empty": "empty",
    "needs_ocr": "needs OCR",
    "ocr": "OCR",
    "not_read": "not read yet",
}
PLAIN = re.compile(r"[\w ,.:;()?!'-]+")


def on_page(path: Path, passage: dict[str, Any], password: str | None = None) -> dict[str, Any]:
    """What "show on page" must draw for a passage (a match): its first page, that page's
    displayed size in points, and the passage's boxes on it."""
    from pdfthin.operations import inspect_layout

    page = passage["bbox"][0]["page"]
    size = inspect_layout(path, page=page, password=password, max_chars=INSPECT_BUDGET)
    return {
        "page": page,
        "rotation": size["rotation"],
        "width": size["width"],
        "height": size["height"],
        "boxes": [box for box in passage["bbox"] if box["page"] == page],
    }


def expectations() -> dict[str, Any]:
    """What the page must show for DOCUMENT, from CPython's pdfthin."""
    from pdfthin.operations import (
        describe_document,
        find_in_document,
        get_toc,
        inspect_layout,
        list_images,
        read_pages,
        read_section,
        verify_quote,
    )
    from pdfthin.operations.context import Context

    path = CORPUS / DOCUMENT
    # As the app does, in a context of its own: the first pages, then the summary, which
    # covers the pages read so far (and says which were not).
    fresh = Context()
    first_read = read_pages(path, max_chars=READ_BUDGET, context=fresh)
    described = describe_document(path, context=fresh)
    assert "not_read" in described["pages"], "the summary must not have read every page"
    assert first_read["next_cursor"], "the browser test needs a document longer than one response"
    heading = next(
        {"page": page["page"], "tag": f"h{len(marks)}", "text": text}
        for page in first_read["pages"]
        for marks, text in re.findall(r"^(#{1,6}) (.+)$", page["markdown"], re.MULTILINE)
        if PLAIN.fullmatch(text)
    )
    toc = get_toc(path, max_chars=LIST_BUDGET)
    section = next(s for s in toc["sections"][1:] if s["page"] and PLAIN.fullmatch(s["title"]))
    section_text = read_section(path, section=section["id"], max_chars=READ_BUDGET)["markdown"]
    contains = next(
        line[:30] for line in section_text.splitlines() if line and PLAIN.fullmatch(line)
    )
    found = find_in_document(path, QUERY, max_results=50, max_chars=LIST_BUDGET)
    assert found["matches"], f"{QUERY!r} must be in {DOCUMENT}"
    listed = list_images(path, max_chars=LIST_BUDGET)
    assert listed["total_images"] > 0
    # The first image the pages reference (not a tiny one): the reader shows it on request.
    figure = next(i for i in listed["images"] if i.get("decorative_reason") != "tiny on the page")
    assert (
        f"pdfthin:image/{figure['id']})"
        in read_pages(path, pages=str(figure["page"]))["pages"][0]["markdown"]
    )
    hit_page = found["matches"][0]["page"]
    inspected = inspect_layout(path, page=hit_page, max_chars=INSPECT_BUDGET)
    assert inspected["svg"], "the page's layout picture must fit the app's budget"
    rc4 = describe_document(CORPUS / RC4[0], password=RC4[1])
    rc4_hit = find_in_document(CORPUS / RC4[0], RC4_QUERY, password=RC4[1])["matches"][0]
    verified = verify_quote(path, QUOTE[0], page=QUOTE[1])
    rotated_path = CORPUS / ROTATED[0]
    rotated_hits = find_in_document(rotated_path, ROTATED[1])["matches"]
    rotated = [on_page(rotated_path, match) for match in rotated_hits]
    assert sorted(r["rotation"] for r in rotated) == [0, 90, 180, 270]
    assert verified["result"] == "other_page", verified["message"]
    assert not find_in_document(path, ABSENT)["matches"]
    empty = describe_document(CORPUS / EMPTY_PASSWORD)
    assert empty["metadata"]["encrypted"], f"{EMPTY_PASSWORD} must be encrypted"
    unsearched = find_in_document(CORPUS / EMPTY_PASSWORD, UNSEARCHED_QUERY)
    assert not unsearched["coverage"]["complete"] and unsearched["coverage"]["pages_needing_ocr"]
    return {
        "file": str(path),
        "title": described["metadata"].get("title") or path.name,
        "page_count": described["document"]["page_count"],
        "statuses": [
            f"{STATUS_LABELS[status]}: {pages}"
            for status, pages in sorted(described["pages"].items())
            if status in STATUS_LABELS
        ],
        "heading": heading,
        "toc": [s["title"] for s in toc["sections"][:3]],
        "toc_more": bool(toc["next_cursor"]),
        "section": {"title": section["title"], "contains": contains},
        "search": {
            "query": QUERY,
            "page": found["matches"][0]["page"],
            "complete": found["coverage"]["complete"],
            "absent": ABSENT,
        },
        "inspect": {"blocks": inspected["counts"]["blocks"]},
        # "show on page": the boxes (points, top left of the page as displayed) and the page's
        # displayed size in points, which the drawn page and its highlights must match scaled.
        "highlight": on_page(path, found["matches"][0]),
        "verify": {
            "quote": QUOTE[0],
            "cited": QUOTE[1],
            "result": verified["result"],
            "on_page": on_page(path, verified["match"]),
        },
        "figure": {"id": figure["id"], "page": figure["page"]},
        "encrypted": {
            "file": str(CORPUS / RC4[0]),
            "password": RC4[1],
            "title": rc4["metadata"].get("title") or Path(RC4[0]).name,
            "query": RC4_QUERY,
            "on_page": on_page(CORPUS / RC4[0], rc4_hit, RC4[1]),
        },
        "rotated": {
            "file": str(rotated_path),
            "title": describe_document(rotated_path)["metadata"].get("title") or rotated_path.name,
            "query": ROTATED[1],
            "hits": rotated,
        },
        "aes": {"file": str(CORPUS / AES[0]), "password": AES[1]},
        "empty_password": {
            "file": str(CORPUS / EMPTY_PASSWORD),
            "title": empty["metadata"].get("title") or Path(EMPTY_PASSWORD).name,
            "query": UNSEARCHED_QUERY,
            "matches": len(unsearched["matches"]),
            "pages_needing_ocr": unsearched["coverage"]["pages_needing_ocr"],
        },
    }


def test_demo_in_chromium(tmp_path: Path) -> None:
    node_bin = node()
    chromium_bin = chromium()
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps(expectations(), ensure_ascii=False), encoding="utf-8")
    dist = build_dist(tmp_path / "dist")
    # One folder per interpreter: tox runs environments side by side.
    base = Path(os.environ.get("PDFTHIN_WEB_ARTIFACTS", WEB / "test-artifacts"))
    artifacts = base / f"py{sys.version_info.major}{sys.version_info.minor}"
    shutil.rmtree(artifacts, ignore_errors=True)
    server, url = serve.start(dist)
    try:
        done = subprocess.run(
            [
                node_bin,
                str(WEB / "tests" / "browser.mjs"),
                "--url",
                # Time limits far above need (the page passes them to the worker): on a loaded
                # machine the default 20 s for a whole document can leave pages of this 117-page
                # file unsearched, and the search steps would then see a different, honest, page.
                f"{url}?page_seconds=600&document_seconds=3600",
                "--expect",
                str(expect),
                "--artifacts",
                str(artifacts),
                "--chromium",
                chromium_bin,
            ],
            check=False,
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        server.shutdown()
        server.server_close()
    print(done.stdout)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n(screenshots in {artifacts})"
    report = json.loads((artifacts / "report.json").read_text(encoding="utf-8"))
    assert report["problems"] == []
    assert [s["name"] for s in report["steps"]] == [
        "ready",
        "file-input",
        "summary",
        "summary-details",
        "page",
        "more",
        "toc",
        "section",
        "search-notes",
        "search",
        "highlight",
        "verify",
        "hit-page",
        "inspect",
        "images",
        "figure",
        "empty-password",
        "coverage-notes",
        "rotated",
        "password",
        "password-page",
        "aes",
    ]
    assert all((artifacts / s["screenshot"]).is_file() for s in report["steps"])
