"""A password unlocks one call (docs/design.md, invariant 12).

An encrypted document is read only by a call that gives a password that opens it; a cache
never lets a later call skip that proof: not the document cache (whatever the source: bytes,
a path, a file opened by a server), not what is derived from a cached document (search
indexes, the image catalogue, OCR transcriptions), not a cursor, not a call waiting for
another call's extraction. Every call's answer is the answer a first call on a fresh context
would get. The Python API and the browser bridge are here, the Lambda handler too (a warm
container); the MCP server is in ``test_mcp_passwords.py``, S3 in ``test_lambda_s3.py``.
"""

from __future__ import annotations

import gc
import hashlib
import json
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from lambda_support import b64, report_pdf
from pdfbuilder import Outline, PdfBuilder, encrypt

from pdfthin.adapters.aws.config import Config
from pdfthin.adapters.aws.handler import LambdaApp
from pdfthin.errors import PdfthinError
from pdfthin.model import DocumentCache
from pdfthin.model import keyring as keyring_module
from pdfthin.model.keyring import MAX_VERIFIERS, Keyring, derive, pbkdf2_sha256
from pdfthin.ocr import OcrBinding, Signal
from pdfthin.operations import (
    Context,
    describe_document,
    find_in_document,
    get_annotations,
    get_form_fields,
    get_image,
    get_info,
    get_toc,
    inspect_layout,
    ledger,
    list_images,
    peek,
    read_pages,
    read_section,
    resolve_anchor,
    verify_quote,
)

USER = "user-pw"
OWNER = "owner-pw"
SECRET = "Top secret"
ALGORITHMS = ["RC4-128", "AES-256"]


def secret_pdf(tag: str = "") -> bytes:
    """Three pages of secret text with an outline, and an image on page 1."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(8, 8, flate=True)
    for n in range(1, 4):
        content = b"BT /F1 12 Tf 72 700 Td (%s page %d %s) Tj ET" % (
            SECRET.encode(),
            n,
            tag.encode(),
        )
        if n == 1:
            content += b" q 100 0 0 100 72 400 cm /Im1 Do Q"
        b.add_page(content, {"Font": {"F1": font}, "XObject": {"Im1": image}})
    b.set_outline([Outline(f"Part {n}", dest=n - 1) for n in range(1, 4)])
    return b.build()


def locked(
    algorithm: str = "RC4-128", user: str = USER, owner: str = OWNER, tag: str = ""
) -> bytes:
    return encrypt(secret_pdf(tag), user, owner, algorithm=algorithm)


def long_locked(tag: str) -> bytes:
    """Six pages of about 2,500 characters each, encrypted."""
    return encrypt(report_pdf(f"secret {tag}"), USER, OWNER)


def operations(image: str) -> dict[str, Any]:
    """Every operation an agent can call, as ``name -> call(data, password, context)``."""
    return {
        "describe_document": lambda d, pw, c: describe_document(d, password=pw, context=c),
        "read_pages": lambda d, pw, c: read_pages(d, password=pw, context=c),
        "find_in_document": lambda d, pw, c: find_in_document(d, "secret", password=pw, context=c),
        "get_toc": lambda d, pw, c: get_toc(d, password=pw, context=c),
        "read_section": lambda d, pw, c: read_section(d, "s-1", password=pw, context=c),
        "peek": lambda d, pw, c: peek(d, password=pw, context=c),
        "get_info": lambda d, pw, c: get_info(d, password=pw, context=c),
        "list_images": lambda d, pw, c: list_images(d, password=pw, context=c),
        "get_image": lambda d, pw, c: get_image(d, image, password=pw, context=c),
        "inspect_layout": lambda d, pw, c: inspect_layout(d, page=1, password=pw, context=c),
        "get_annotations": lambda d, pw, c: get_annotations(d, password=pw, context=c),
        "get_form_fields": lambda d, pw, c: get_form_fields(d, password=pw, context=c),
        "verify_quote": lambda d, pw, c: verify_quote(d, "secret", password=pw, context=c),
        "resolve_anchor": lambda d, pw, c: resolve_anchor(d, ANCHOR, password=pw, context=c),
        "ledger": lambda d, pw, c: ledger(d, password=pw, context=c),
    }


#: An anchor of the right form (made on no document here: answered ``stale`` once opened).
ANCHOR = f"pdfthin:{'ab' * 32}/p/1#c=0-6"


def outcome(call: Any) -> tuple[str, Any]:
    """``("ok", None)`` or ``(code, password_given)``."""
    try:
        call()
    except PdfthinError as exc:
        return exc.code, exc.details.get("password_given")
    return "ok", None


def image_id(data: bytes) -> str:
    return str(list_images(data, password=USER, context=Context())["images"][0]["id"])


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_cached_document_needs_the_password_on_every_call(algorithm: str) -> None:
    data = locked(algorithm)
    context = Context()
    for name, call in operations(image_id(data)).items():
        # The right password first: the document (and what the operation derives from it)
        # is now cached.
        assert outcome(lambda call=call: call(data, USER, context)) == ("ok", None), name
        assert outcome(lambda call=call: call(data, None, context)) == ("encrypted", False), name
        assert outcome(lambda call=call: call(data, "", context)) == ("encrypted", False), name
        assert outcome(lambda call=call: call(data, "wrong", context)) == ("encrypted", True), name
        assert outcome(lambda call=call: call(data, USER + " ", context)) == (
            "encrypted",
            True,
        ), name
        assert outcome(lambda call=call: call(data, OWNER, context)) == ("ok", None), name
    assert len(context.cache) == 1


def test_the_default_context_of_the_python_api() -> None:
    data = locked(tag="default")
    assert SECRET in read_pages(data, password=USER)["pages"][0]["markdown"]
    with pytest.raises(PdfthinError) as info:
        read_pages(data)
    assert (info.value.code, info.value.details) == ("encrypted", {"password_given": False})
    with pytest.raises(PdfthinError) as info:
        find_in_document(data, "secret", password="guess")
    assert (info.value.code, info.value.details) == ("encrypted", {"password_given": True})


def test_a_path_and_a_file_read_again_are_checked_the_same(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    path.write_bytes(locked(tag="path"))
    context = Context()
    assert read_pages(path, password=USER, context=context)["pages"]
    assert outcome(lambda: read_pages(str(path), context=context)) == ("encrypted", False)
    assert outcome(lambda: read_pages(path.read_bytes(), context=context)) == ("encrypted", False)


def test_a_cursor_does_not_carry_the_password() -> None:
    data = long_locked("cursor")
    context = Context()
    first = read_pages(data, max_chars=1_000, password=USER, context=context)
    cursor = first["next_cursor"]
    assert cursor
    for password, expected in ((None, ("encrypted", False)), ("wrong", ("encrypted", True))):
        assert (
            outcome(
                lambda pw=password: read_pages(data, cursor=cursor, password=pw, context=context)
            )
            == expected
        )
    found = find_in_document(data, "secret", max_results=1, password=USER, context=context)
    assert found["next_cursor"]
    assert outcome(
        lambda: find_in_document(data, "secret", cursor=found["next_cursor"], context=context)
    ) == ("encrypted", False)
    assert read_pages(data, cursor=cursor, password=USER, context=context)["pages"]


def test_a_call_waiting_for_another_calls_extraction_proves_its_own_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The second call arrives while the first extracts with the right password; it waits for
    that extraction and must then be refused, not handed the document."""
    from pdfthin.model import document as document_module

    original = document_module._layout
    started = threading.Event()

    def slow_layout(content: Any) -> Any:
        started.set()
        time.sleep(0.3)
        return original(content)

    monkeypatch.setattr(document_module, "_layout", slow_layout)
    data = locked(tag="waiting")
    context = Context()
    results: dict[str, Any] = {}

    def first() -> None:
        results["first"] = outcome(lambda: describe_document(data, password=USER, context=context))

    thread = threading.Thread(target=first)
    thread.start()
    assert started.wait(10)
    results["waiting"] = outcome(lambda: describe_document(data, context=context))
    thread.join()
    assert results == {"first": ("ok", None), "waiting": ("encrypted", False)}


def test_ocr_transcriptions_of_an_encrypted_document_need_its_password() -> None:
    class Raster:
        def render(
            self, pdf: bytes, pages: list[int], dpi: int, signal: Signal
        ) -> list[dict[str, Any]]:
            return [{"page": p, "image": b"img", "media_type": "image/png"} for p in pages]

    class Reader:
        name = "fake"

        def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
            return [{"page": p["page"], "markdown": f"{SECRET} by OCR"} for p in pages]

    b = PdfBuilder()
    image = b.image_xobject(8, 8)
    b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    data = encrypt(b.build(), USER, OWNER)
    context = Context(ocr=OcrBinding(Raster(), Reader()))
    page = read_pages(data, ocr=True, password=USER, context=context)["pages"][0]
    assert (page["status"], page["markdown"]) == ("ocr", f"{SECRET} by OCR")
    assert outcome(lambda: read_pages(data, ocr=True, context=context)) == ("encrypted", False)
    assert outcome(lambda: find_in_document(data, "OCR", ocr=True, context=context)) == (
        "encrypted",
        False,
    )


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_answer_is_the_first_calls_answer(algorithm: str) -> None:
    """Calls with every kind of password, in random orders on one context, each answered as a
    fresh context answers it: the user and the owner password open the file, a password with
    the user password's first 32 bytes does too for RC4 (the PDF check truncates it), and a
    file whose user password is empty opens without one."""
    long_user = "u" * 32
    files = {
        "locked": encrypt(secret_pdf("a"), long_user, OWNER, algorithm=algorithm),
        "empty-user": encrypt(secret_pdf("b"), "", OWNER, algorithm=algorithm),
        "plain": secret_pdf("c"),
    }
    passwords = [None, "", "wrong", long_user, long_user + "tail", OWNER, "\ud800"]
    cold = {
        (name, pw): outcome(lambda d=data, pw=pw: peek(d, password=pw, context=Context()))
        for name, data in files.items()
        for pw in passwords
    }
    assert cold[("locked", long_user)] == cold[("locked", OWNER)] == ("ok", None)
    assert cold[("locked", None)] == ("encrypted", False)
    assert cold[("locked", "wrong")] == ("encrypted", True)
    assert cold[("empty-user", None)] == ("ok", None)
    assert cold[("plain", "wrong")] == ("ok", None)
    rng = random.Random(18)
    for _ in range(3):
        context = Context()
        calls = [(name, pw) for name in files for pw in passwords] * 2
        rng.shuffle(calls)
        for name, pw in calls:
            got = outcome(lambda d=files[name], pw=pw, c=context: peek(d, password=pw, context=c))
            assert got == cold[(name, pw)], (name, pw)


def test_the_password_is_not_kept_in_clear() -> None:
    password = "a-password-" + "x" * 20
    data = locked(user=password)
    context = Context()
    read_pages(data, password=password, context=context)
    list_images(data, password=password, context=context)
    find_in_document(data, "secret", password=password, context=context)
    encoded = password.encode()
    seen: set[int] = set()
    kinds: set[str] = set()
    todo: list[Any] = [context]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, type(sys), type(len))) or callable(obj):
            continue
        seen.add(id(obj))
        kinds.add(type(obj).__name__)
        assert obj != password and obj != encoded, "the password is stored"
        if isinstance(obj, (bytes, str)):
            assert encoded not in (
                obj if isinstance(obj, bytes) else obj.encode("utf-8", "replace")
            )
            continue
        todo.extend(gc.get_referents(obj))
    assert {"Document", "Page", "Keyring"} <= kinds  # the walk reached the cached entry


# --- the keyring --------------------------------------------------------------------------------


def test_a_keyring_proves_what_it_remembers_and_nothing_else() -> None:
    ring = Keyring()
    assert not ring.proves("x")
    ring.remember("x")
    ring.remember(None)
    assert ring.proves("x") and ring.proves(None) and ring.proves("")
    assert not ring.proves("X") and not ring.proves("x ")
    ring.remember("\udc80")  # a lone surrogate has a verifier too
    assert ring.proves("\udc80") and not ring.proves("\udc81")
    for n in range(MAX_VERIFIERS):
        ring.remember(f"p{n}")
    assert len(ring) == MAX_VERIFIERS and not ring.proves("x")  # the oldest went first
    # A verifier is a salted key, different in each keyring.
    assert derive("x", b"1" * 16) != derive("x", b"2" * 16)


def test_a_refused_password_is_refused_again_without_opening_the_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A password the file refused once (none, or a wrong one) gets the same answer at once:
    a caller retrying it neither costs a file open nor waits for an extraction slot (which a
    server under load would answer with busy). One that opens it is still accepted."""
    from pdfthin.operations import context as context_module

    data = locked()
    context = Context(max_extractions=1)
    assert outcome(lambda: peek(data, password=USER, context=context)) == ("ok", None)
    opened: list[str | None] = []
    real_open = context_module.open_pdf

    def counting(source: Any, password: str | None = None, **kwargs: Any) -> Any:
        opened.append(password)
        return real_open(source, password=password, **kwargs)

    monkeypatch.setattr(context_module, "open_pdf", counting)
    for _ in range(3):
        assert outcome(lambda: peek(data, context=context)) == ("encrypted", False)
        assert outcome(lambda: peek(data, password="wrong", context=context)) == (
            "encrypted",
            True,
        )
    assert opened == [None, "wrong"]  # asked the file once each
    # With every extraction slot taken, a refused password is still answered, not busy.
    assert context._slots is not None and context._slots.acquire(blocking=False)
    try:
        assert outcome(lambda: peek(data, password="wrong", context=context)) == (
            "encrypted",
            True,
        )
    finally:
        context._slots.release()
    assert outcome(lambda: peek(data, password=OWNER, context=context)) == ("ok", None)
    assert opened == [None, "wrong", OWNER]


def test_a_keyring_remembers_refused_passwords_apart() -> None:
    ring = Keyring()
    ring.remember("good")
    ring.remember("bad", opens=False)
    assert (ring.verdict("good"), ring.verdict("bad"), ring.verdict("other")) == (True, False, None)
    assert not ring.proves("bad")


def test_the_keyring_without_openssl_derives_the_same_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for secret, salt, rounds in ((b"pw", b"s" * 16, 1), (b"p" * 100, b"salt", 1000), (b"", b"", 7)):
        assert pbkdf2_sha256(secret, salt, rounds) == hashlib.pbkdf2_hmac(
            "sha256", secret, salt, rounds
        )
    expected = derive("caf\u00e9", b"0" * 16, 50)
    monkeypatch.delattr(keyring_module.hashlib, "pbkdf2_hmac")
    assert derive("caf\u00e9", b"0" * 16, 50) == expected


# --- the browser bridge and the Lambda handler --------------------------------------------------


def test_the_browser_bridge() -> None:
    from pdfthin.adapters import browser as bridge

    handle = bridge.open_document(locked(tag="bridge"))
    opened = json.loads(bridge.call("read", handle, json.dumps({"password": USER})))
    assert SECRET in opened["pages"][0]["markdown"]
    for arguments, given in (({}, False), ({"password": "wrong"}, True)):
        error = json.loads(bridge.call("read", handle, json.dumps(arguments)))["error"]
        assert (error["code"], error["details"]["password_given"]) == ("encrypted", given)


def test_a_warm_lambda_container() -> None:
    app = LambdaApp(Config())
    document = b64(long_locked("lambda"))
    opened = app({"operation": "read_pages", "document": document, "password": USER}, None)
    assert "secret lambda" in opened["pages"][0]["markdown"]
    for name in ("read_pages", "describe_document", "get_toc", "peek"):
        for extra, given in (({}, False), ({"password": "wrong"}, True)):
            answer = app({"operation": name, "document": document, **extra}, None)
            assert answer["error"]["code"] == "encrypted", (name, answer)
            assert answer["error"]["details"]["password_given"] is given
    cursor = app(
        {"operation": "read_pages", "document": document, "password": USER, "max_chars": 1000},
        None,
    )
    assert len(app.context.cache) == 1 and cursor["next_cursor"]
    answer = app(
        {"operation": "read_pages", "document": document, "cursor": cursor["next_cursor"]}, None
    )
    assert answer["error"]["code"] == "encrypted"


# --- a source whose bytes change behind its identity --------------------------------------------


class Swapped:
    """An opened source whose identity stays while its bytes are replaced (a file rewritten
    in place between the ``fstat`` that names it and the read)."""

    cached_only = False

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.identity = ("the", "same", "file")
        self.size = len(data)

    def read(self) -> bytes:
        return self.data


def test_bytes_swapped_behind_an_identity_never_unlock_the_cached_document() -> None:
    mine = locked(user="mine", tag="mine")
    theirs = locked(user="theirs", tag="theirs")
    context = Context()
    assert "mine" in peek(Swapped(mine), password="mine", context=context)["text"]
    # Another file now lies behind the same identity, opened with its own password: the
    # answer is that file's, never the cached document the identity named.
    text = peek(Swapped(theirs), password="theirs", context=context)["text"]
    assert "theirs" in text and "mine" not in text
    assert outcome(lambda: peek(mine, password="theirs", context=context)) == ("encrypted", True)


def test_bytes_swapped_behind_an_identity_are_never_cached_as_the_other_document() -> None:
    first, second = secret_pdf("first"), secret_pdf("second")
    context = Context(cache=DocumentCache(1))
    assert "first" in peek(Swapped(first), context=context)["text"]
    peek(secret_pdf("evicts"), context=context)  # the first document leaves the cache
    assert "second" in peek(Swapped(second), context=context)["text"]
    assert "first" in peek(first, context=context)["text"]
