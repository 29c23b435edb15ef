"""Second chances for files pypdf cannot open as they are.

- :func:`rebuild_xref` scans the bytes for ``N G obj`` headers and appends a fresh
  cross-reference table and trailer, for files whose xref is missing or broken beyond pypdf's
  own repair (no ``startxref`` at all, a trailer that cannot be parsed).
- :func:`walk_page_tree` collects the pages itself, skipping cycles and malformed kids, for
  files whose page tree pypdf refuses (cyclic references, ``/Kids`` that is not an array).
"""

from __future__ import annotations

import re
from typing import Any

from pypdf.generic import IndirectObject

from pdfthin.engine.objects import get, resolve
from pdfthin.engine.walk import Walk, depth_first

_OBJ = re.compile(rb"(?<![0-9])(\d{1,10})[\x00\t\n\x0c\r ]+(\d{1,5})[\x00\t\n\x0c\r ]+obj\b")
_OBJ_KEYWORD = re.compile(rb"obj\b")
_SPACE = frozenset(b"\x00\t\n\x0c\r ")
_DIGIT = frozenset(b"0123456789")
_CATALOG = re.compile(rb"/Type\s*/Catalog\b")
_INFO_KEYS = re.compile(rb"/(?:Producer|Creator|CreationDate|Title)\b")
MAX_OBJECTS = 1_000_000
MAX_PAGES = 100_000
#: Objects the last-resort scan for pages reads (each costs a parse by pypdf).
MAX_SCANNED_OBJECTS = 200_000


def rebuild_xref(data: bytes) -> bytes | None:
    """Return ``data`` with a rebuilt xref table and trailer appended, or ``None`` when no
    catalog can be found."""
    offsets: dict[int, tuple[int, int]] = {}
    catalog: int | None = None
    info: int | None = None
    matches = _object_headers(data)
    if not matches or len(matches) > MAX_OBJECTS:
        return None
    for i, m in enumerate(matches):
        number, generation = int(m.group(1)), int(m.group(2))
        if number > MAX_OBJECTS:
            continue
        offsets[number] = (m.start(), generation)  # a later definition wins (updates)
        end = matches[i + 1].start() if i + 1 < len(matches) else len(data)
        body = data[m.end() : min(end, m.end() + 4096)]
        if _CATALOG.search(body):
            catalog = number
        elif info is None and _INFO_KEYS.search(body) and b"stream" not in body[:200]:
            info = number
    if catalog is None:
        return None
    size = max(offsets) + 1
    lines = [b"xref\n", b"0 %d\n" % size, b"0000000000 65535 f \n"]
    for number in range(1, size):
        hit = offsets.get(number)
        if hit is None:
            lines.append(b"0000000000 65535 f \n")
        else:
            lines.append(b"%010d %05d n \n" % hit)
    xref_at = len(data) + 1
    trailer = b"trailer\n<< /Size %d /Root %d %d R" % (size, catalog, offsets[catalog][1])
    if info is not None:
        trailer += b" /Info %d %d R" % (info, offsets[info][1])
    trailer += b" >>\nstartxref\n%d\n%%%%EOF\n" % xref_at
    return data + b"\n" + b"".join(lines) + trailer


def _object_headers(data: bytes) -> list[re.Match[bytes]]:
    """``list(_OBJ.finditer(data))``, found from each ``obj`` keyword instead of trying the
    pattern at every byte (twenty times faster on a large file).

    A header is digits, white space, digits, white space, then the keyword; each part is the
    whole run of its kind (the pattern needs a different kind of byte after each), so from a
    keyword the one place its header can start is found by stepping back over the runs, and
    the pattern itself, matched there, decides. Headers hold no letters, so they cannot
    overlap and come out in the order ``finditer`` gives."""
    found: list[re.Match[bytes]] = []
    for keyword in _OBJ_KEYWORD.finditer(data):
        at = keyword.start()
        for kind in (_SPACE, _DIGIT, _SPACE, _DIGIT):
            run = at
            while at > 0 and data[at - 1] in kind:
                at -= 1
            if at == run:
                break
        else:
            header = _OBJ.match(data, at)
            if header is not None and header.end() == keyword.end():
                found.append(header)
    return found


def walk_page_tree(reader: Any) -> tuple[list[Any], list[IndirectObject | None]]:
    """Leaves of the page tree in order, visiting each node once (a bounded walk)."""
    try:
        root = resolve(reader.trailer.get("/Root"))
    except Exception:
        return [], []
    top_ref = dict.get(root, "/Pages") if isinstance(root, dict) else None
    pages: list[Any] = []
    refs: list[IndirectObject | None] = []
    walk = Walk("the page tree")

    def kids(node: Any) -> list[Any]:
        raw = dict.get(node, "/Kids")
        if get(node, "/Type") == "/Page" or (raw is None and get(node, "/Contents") is not None):
            return []
        if isinstance(resolve(raw), dict):
            return [raw]  # a single kid where an array belongs
        return walk.items(node, "/Kids")

    for ref, node in depth_first(walk, [top_ref], kids):
        raw = dict.get(node, "/Kids")
        if get(node, "/Type") == "/Page" or (raw is None and get(node, "/Contents") is not None):
            pages.append(node)
            refs.append(ref if isinstance(ref, IndirectObject) else None)
            if len(pages) >= MAX_PAGES:
                break
    return pages, refs


def scan_pages(reader: Any) -> tuple[list[Any], list[IndirectObject | None]]:
    """Every object that says ``/Type /Page``, in object-number order: the last resort when
    the page tree is missing altogether."""
    # Where each object is stored: in the file, or in an object stream. Entries that point
    # at the same place hold the same object (however many numbers the table gives it), so
    # each place is read once: many entries for one large object cost one read.
    places: dict[tuple[int, int], Any] = {}
    try:
        for generation, table in reader.xref.items():
            for idnum, offset in table.items():
                places.setdefault((int(idnum), int(generation)), ("file", offset))
        for idnum, where in reader.xref_objStm.items():
            places.setdefault((int(idnum), 0), ("stream", where))
    except Exception:
        return [], []
    read: set[Any] = set()
    pages: list[Any] = []
    refs: list[IndirectObject | None] = []
    walk = Walk("the object scan", MAX_SCANNED_OBJECTS)
    for (idnum, generation), where in sorted(places.items()):
        if where in read:
            continue
        read.add(where)
        if not walk.step():
            break
        try:
            ref = IndirectObject(idnum, generation, reader)
            obj: Any = ref.get_object()
        except Exception:
            continue
        if isinstance(obj, dict) and get(obj, "/Type") == "/Page":
            pages.append(obj)
            refs.append(ref)
            if len(pages) >= MAX_PAGES:
                break
    return pages, refs
