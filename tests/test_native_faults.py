"""A failure of the native code itself (a Rust panic) at any entry point of ``pdfthin_native``
becomes the module's ``NativeFault``, an ordinary ``Exception`` — never PyO3's
``PanicException``, a ``BaseException`` that ``except Exception`` lets through and that ends
a server — and where pdfthin calls the native code, the answer is still the pure engine's,
byte for byte.

``pdfthin_native._fail_at(*names)`` arms a deliberate panic at the entry of guarded functions
or methods. Every entry point the module exports (its functions, and its classes' methods and
constructors) is armed in turn while documents that reach all of pdfthin's native calls are
read, and then all of them at once (which reaches the native calls that only Python's own
steps make, once the native step around them has failed); every answer must stay the pure
engine's. The test-only entry points pdfthin never calls are called directly and must raise
``NativeFault``. An entry point neither reached nor called fails the test, so a new one cannot
be left out. An allocation the native code cannot make, where the input multiplies what it
holds, is such a fault too, not the end of the process.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fontprograms import truetype_program
from native_support import engine, first_difference, native_module
from pdfbuilder import PdfBuilder, Ref, Stream, cid_cmap, object_stream_pdf, to_unicode_cmap

import pdfthin
from pdfthin.engine import _native
from pdfthin.engine.fonts.cidmaps import cid_to_unicode


@pytest.fixture(scope="module")
def module() -> ModuleType:
    return native_module()


def entry_points(module: ModuleType) -> set[str]:
    """Everything Python can call in the module: its functions (but the test hook) and its
    classes' methods, with ``Class.__new__`` for a class that has a constructor."""
    names: set[str] = set()
    for name, value in vars(module).items():
        if name.startswith("_") or isinstance(value, ModuleType):
            continue
        if isinstance(value, type):
            if issubclass(value, BaseException):
                continue
            for attr, member in vars(value).items():
                if attr == "__new__":
                    if value.__text_signature__ is not None:  # a #[new] constructor
                        names.add(f"{name}.__new__")
                elif callable(member):
                    names.add(f"{name}.{attr}")
        elif callable(value):
            names.add(name)
    return names


# --- documents that reach every native call pdfthin makes ------------------------------------

#: A ToUnicode CMap the native parser leaves to Python (a CID beyond what it takes exactly),
#: whose operations Python then asks the native tokenizer for.
DECLINED_CMAP = (
    b"1 begincodespacerange <00> <FF> endcodespacerange\n"
    b"1 begincidrange <00> <01> 100000000000000000000 endcidrange\n"
    b"2 beginbfchar <41> <0058> <42> <0059> endbfchar\n"
)


def _rich_pdf() -> bytes:
    """Headings, paragraphs broken with hyphens, a list, a ruled table, simple and composite
    fonts of every kind pdfthin reads natively, compressed streams, and a content stream whose
    /Length is too short (read by the repair of a stream without ``endstream``)."""
    b = PdfBuilder(compress=True)
    helv = b.font_standard("Helvetica")
    bold = b.font_standard("Helvetica-Bold", differences=[65, "/Adieresis", "/fi"])
    widths = b.font_type0(
        "Widths", w=[1, [500, 600, 700], 10, 20, 300], to_unicode={1: "A", 2: "B", 3: "C"}
    )
    declined = b.font_standard("Times-Roman", to_unicode=DECLINED_CMAP)
    program = truetype_program({0x41: "A", 0x42: "B"})
    embedded = b.font_type0("Embedded", font_file=program, cid_to_gid=b"\x00\x00\x00\x01\x00\x02")
    japan = b.font_type0("Japan", cid_subtype="/CIDFontType0")
    cid_font = b.get(b.get(japan)["DescendantFonts"][0])
    cid_font["CIDSystemInfo"] = {"Registry": b"Adobe", "Ordering": b"Japan1", "Supplement": 6}
    encoded = b.font_type0(
        "Encoded", encoding=b.stream(cid_cmap({0x41: 1}, codespace=((0x00, 0xFF, 1),)))
    )
    fonts = {
        "F1": helv, "F2": bold, "F3": widths, "F4": declined,
        "F5": embedded, "F6": japan, "F7": encoded,
    }  # fmt: skip
    body = [b"BT /F2 20 Tf 72 740 Td (1 Introduction) Tj ET"]
    y = 700
    for line in (
        b"The reader of a docu-",
        b"ment reads every page of the docu-",
        b"ment, and the document ends here.",
    ):
        body.append(b"BT /F1 10 Tf 72 %d Td (%s) Tj ET" % (y, line))
        y -= 12
    for item in (b"\x95 the first item", b"\x95 the second item", b"\x95 the third item"):
        y -= 14
        body.append(b"BT /F1 10 Tf 90 %d Td (%s) Tj ET" % (y, item))
    # a ruled table, three rows of two cells
    top = y - 30
    for row in range(4):
        body.append(b"72 %d m 372 %d l S" % (top - 20 * row, top - 20 * row))
    for x in (72, 222, 372):
        body.append(b"%d %d m %d %d l S" % (x, top, x, top - 60))
    for row, (left, right) in enumerate(((b"Name", b"Value"), (b"alpha", b"12"), (b"beta", b"34"))):
        base = top - 20 * row - 15
        body.append(b"BT /F1 9 Tf 80 %d Td (%s) Tj ET" % (base, left))
        body.append(b"BT /F1 9 Tf 230 %d Td (%s) Tj ET" % (base, right))
    y = top - 90
    body.append(b"BT /F3 10 Tf 72 %d Td <000100020003> Tj ET" % y)
    body.append(b"BT /F4 10 Tf 72 %d Td (ABAB) Tj ET" % (y - 14))
    body.append(b"BT /F5 10 Tf 72 %d Td <00010002> Tj ET" % (y - 28))
    body.append(b"BT /F6 10 Tf 72 %d Td <03a103a2> Tj ET" % (y - 42))
    body.append(b"BT /F7 10 Tf 72 %d Td (AA) Tj ET" % (y - 56))
    b.add_page(b"\n".join(body), resources={"Font": fonts})
    marker = b"BT /F1 12 Tf 72 700 Td (A page whose stream is longer than it says) Tj ET"
    b.add_page(
        None,
        resources={"Font": {"F1": helv}},
        extra={"Contents": b.add(Stream(marker, {}, flate=False))},
    )
    b.add_page(b"0 0 0 rg 72 72 200 200 re f")  # nothing to read: its status is Python's
    data = b.build()
    # the second page's stream says it is 10 bytes long: no "endstream" follows them
    at = data.index(marker)
    head = data.rindex(b"/Length %d" % len(marker), 0, at)
    return data[:head] + b"/Length 10" + data[head + 8 + len(str(len(marker))) :]


def _object_stream_pdf() -> bytes:
    """A page whose catalog, page tree and page are in an object stream, found through a
    cross-reference stream."""
    font = {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Helvetica"}
    page = {"Type": "/Page", "Parent": Ref(2), "MediaBox": [0, 0, 612, 792]}
    page.update({"Contents": Ref(4), "Resources": {"Font": {"F1": font}}})
    return object_stream_pdf(
        [
            (1, {"Type": "/Catalog", "Pages": Ref(2)}),
            (2, {"Type": "/Pages", "Kids": [Ref(3)], "Count": 1}),
            (3, page),
        ],
        {4: Stream(b"BT /F1 12 Tf 72 700 Td (Inside an object stream) Tj ET")},
    )


WORKLOAD = (_rich_pdf(), _object_stream_pdf())


def _read(data: bytes) -> str:
    """Everything pdfthin makes of ``data``, every field, every float exactly."""
    doc = pdfthin.open(data)
    parts = (doc.page_count, doc.metadata, doc.outline, doc.outline_problems, doc.pages)
    return repr((*parts, doc.recovered, doc.facts))


def _read_all() -> list[str]:
    cid_to_unicode.cache_clear()  # a table is made natively or by Python each time
    return [_read(data) for data in WORKLOAD]


@contextmanager
def _armed(module: ModuleType, *names: str) -> Iterator[list[str]]:
    """A deliberate panic armed at ``names`` inside the block; the list holds, after it, the
    entry points where one fired."""
    fired: list[str] = []
    module._fail_at(*names)
    try:
        yield fired
    finally:
        fired.extend(module._fail_at())


# --- the test-only entry points, called directly ---------------------------------------------


def _font(module: ModuleType) -> Any:
    trans = [chr(c) for c in range(256)]
    return module.Font(
        "F", False, False, False, 0.8, 1.0, True, trans, [0.5] * 256, 1, None, None, None, {},
        0.5, True,
    )  # fmt: skip


def _cid_table(module: ModuleType) -> Any:
    # one entry: CID 1 -> "A" (zig-zag varints: cid +1, code point +65, no more characters)
    return module.cid_table(bytes([2, 130, 1, 0]))


DIRECT: dict[str, Callable[[ModuleType], object]] = {
    "round2": lambda m: m.round2(1.005),
    "float_sum": lambda m: m.float_sum([0.1, 0.2]),
    "Font.decode": lambda m: _font(m).decode(b"abc"),
    "CidTable.__getitem__": lambda m: _cid_table(m)[1],
    "CidTable.__contains__": lambda m: 1 in _cid_table(m),
    "CidTable.__len__": lambda m: len(_cid_table(m)),
    "CidTable.keys": lambda m: _cid_table(m).keys(),
}


def test_the_direct_calls_answer_when_nothing_is_armed(module: ModuleType) -> None:
    """The calls below reach their entry point (a broken call would raise something else)."""
    for name, call in DIRECT.items():
        call(module)
        assert name in entry_points(module), name
    assert _cid_table(module).get(1) == "A"


def test_a_fault_is_an_exception_not_a_panic(module: ModuleType) -> None:
    assert module.NativeFault is _native.Fault
    assert issubclass(module.NativeFault, Exception)
    panics = module._panics()
    with _armed(module, "round2") as fired:
        try:
            module.round2(1.0)
        except Exception as exc:  # what a server catches
            caught: Exception | None = exc
        else:
            caught = None
    assert isinstance(caught, module.NativeFault), caught
    assert "round2: a deliberate panic" in str(caught)
    assert fired == ["round2"]
    assert module.round2(1.005) == round(1.005, 2)  # disarmed: answers again
    assert module._panics() == panics  # a deliberate panic is not counted as a real one


def test_every_entry_point_turns_a_panic_into_the_pure_answer(module: ModuleType) -> None:
    with engine(None):
        pure = _read_all()
    with engine(module):
        assert _read_all() == pure  # the documents read alike before anything is armed
    reached: set[str] = set()
    for name in sorted(entry_points(module)):
        with engine(module), _armed(module, name) as fired:
            answers = _read_all()
        if not fired:
            continue
        assert set(fired) == {name}, fired
        reached.add(name)
        for got, expected in zip(answers, pure, strict=True):
            assert got == expected, f"{name}: " + first_difference(expected, got)
    # every entry point failing at once: Python's own steps, reached where a native step
    # failed, ask the native code for what they need, and that fails too
    with engine(module), _armed(module, *entry_points(module)) as fired:
        answers = _read_all()
    for got, expected in zip(answers, pure, strict=True):
        assert got == expected, "all: " + first_difference(expected, got)
    reached |= set(fired)
    for name in sorted(entry_points(module) - reached):
        assert name in DIRECT, f"{name}: never reached by pdfthin's reading nor called here"
        with _armed(module, name) as fired, pytest.raises(module.NativeFault, match=name):
            DIRECT[name](module)
        assert fired == [name]
    # pdfthin's own calls: every one reached by the documents above (the test-only entry
    # points are the only ones called directly)
    called = {name for name in entry_points(module) - reached if name not in DIRECT}
    assert not called
    assert reached >= {
        "interpret", "tokenize", "Tokens.__iter__", "Tokens.__next__", "Font.__new__",
        "parse_cmap", "parse_w", "simple_trans", "cid_gid_text", "cid_table", "CidTable.get",
        "truetype_unicodes", "inflate",
    }, sorted(reached)  # fmt: skip


# --- an allocation the native code cannot make -----------------------------------------------

#: The address space of the child below, and what one glyph of its page maps to: 1,200 of them
#: need more text than the child can hold.
CHILD_ADDRESS_SPACE = 1 << 30
GLYPH_TEXT = 1 << 19
GLYPHS = 2_400

CHILD = "import sys, pdfthin; print(repr(pdfthin.open(open(sys.argv[1], 'rb').read()).pages))"


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE))


def test_an_allocation_that_fails_is_a_fault_not_an_abort(
    module: ModuleType, tmp_path: Path
) -> None:
    """A glyph whose ToUnicode text is half a megabyte, shown 2,400 times in a small file (its
    CMap within MAX_CMAP_BYTES): the page's text cannot be held. Python raises MemoryError
    and reads the page in part; the native
    interpreter grew its text with an allocation that aborted the process (exit 134, ending a
    server with it). Now its growth is fallible, a failure is a NativeFault, and the page is
    read by the pure interpreter: the same answer, in a process that goes on."""
    text = {0x41: "x" * GLYPH_TEXT}
    b = PdfBuilder(compress=True)
    cmap = to_unicode_cmap(text, codespace=((0, 0xFF, 1),))
    font = b.font_standard("Helvetica", to_unicode=cmap)
    content = b"BT /F1 12 Tf 72 700 Td (" + b"A" * GLYPHS + b") Tj ET"
    b.add_page(content, resources={"Font": {"F1": font}})
    path = tmp_path / "long_text.pdf"
    path.write_bytes(b.build())
    answers = {}
    for mode in ("off", "require"):
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(path)],
            env={**os.environ, _native.ENV: mode},
            capture_output=True,
            text=True,
            timeout=300,
            preexec_fn=_limit,
            check=False,
        )
        assert done.returncode == 0, f"{mode}: exit {done.returncode}: {done.stderr[-2000:]}"
        answers[mode] = done.stdout
    assert "reading stopped: MemoryError" in answers["off"]
    assert answers["require"] == answers["off"]
