"""Where transcriptions are kept: in the server's memory always, and in a directory when one is
configured (``PDFTHIN_OCR_CACHE_DIR``), so that another process (a restarted server, a Lambda
cold start, the command line) finds them without calling an OCR provider again.

Two kinds of transcription live here:

- an OCR binding's results (:class:`pdfthin.ocr.OcrBinding`), keyed by document fingerprint,
  page, region (``None``: the whole page), the binding's name and its version (the provider's
  ``version`` and the resolution);
- the agent's own (``submit_transcription``): one record per document fingerprint and page,
  holding the whole-page transcription and the regions transcribed, under the provider name
  :data:`AGENT`.

The directory is a cache, never trusted blindly: every entry is written to a temporary file
and renamed into place (a reader never sees half an entry); an entry that cannot be read, is
not JSON, is larger than :data:`MAX_ENTRY_BYTES` or does not name the key it was looked up by
is ignored (as though absent). Entries are never pruned by pdfthin: the directory grows by at
most :data:`MAX_ENTRY_BYTES` per page (and region) transcribed; remove it, or old files in it,
to reclaim the space. Nothing is written anywhere unless the directory is configured.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

#: The environment variable naming the cache directory.
CACHE_DIR_ENV = "PDFTHIN_OCR_CACHE_DIR"
#: The provider name of transcriptions an agent submitted.
AGENT: Final = "agent"
#: The longest transcription kept, in characters (a dense page holds about 6 000).
MAX_TRANSCRIPTION_CHARS = 100_000
#: Regions transcribed per page, at most.
MAX_REGIONS_PER_PAGE = 64
#: The largest entry file read or written (a page's record with all its regions).
MAX_ENTRY_BYTES = 4 * MAX_TRANSCRIPTION_CHARS * 2
#: Pages of agent transcriptions kept in memory (the oldest go first).
MEMORY_PAGES = 20_000
#: The version of the entries' layout, part of every key.
LAYOUT = 1

Region = tuple[float, float, float, float]


def region_key(region: Region | None) -> str:
    """The key of a region: its corners rounded to hundredths of a point, or ``page``."""
    if region is None:
        return "page"
    return ",".join(f"{v:.2f}" for v in region)


class ResultDir:
    """A directory of transcriptions, one JSON file per key."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    @classmethod
    def from_env(cls) -> ResultDir | None:
        """The directory ``PDFTHIN_OCR_CACHE_DIR`` names, or ``None`` when it is not set."""
        value = os.environ.get(CACHE_DIR_ENV, "").strip()
        return cls(value) if value else None

    def _path(self, key: dict[str, Any]) -> Path:
        digest = hashlib.sha256(_canonical(key).encode("utf-8")).hexdigest()
        return self.root / digest[:2] / f"{digest}.json"

    def get(self, key: dict[str, Any]) -> dict[str, Any] | None:
        """The record stored under ``key``; ``None`` when there is none or it cannot be
        trusted (unreadable, too large, not JSON, stored under another key)."""
        path = self._path(key)
        try:
            with path.open("rb") as handle:
                raw = handle.read(MAX_ENTRY_BYTES + 1)
        except OSError:
            return None
        if len(raw) > MAX_ENTRY_BYTES:
            return None
        try:
            entry = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != json.loads(_canonical(key)):
            return None
        record = entry.get("record")
        return record if isinstance(record, dict) else None

    def put(self, key: dict[str, Any], record: dict[str, Any]) -> bool:
        """Store ``record`` under ``key`` atomically; ``False`` when it could not be written
        (the directory is a cache: a failed write loses nothing but time)."""
        path = self._path(key)
        body = json.dumps(
            {"key": json.loads(_canonical(key)), "record": record}, ensure_ascii=False
        ).encode("utf-8")
        if len(body) > MAX_ENTRY_BYTES:
            return False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(body)
                os.replace(temporary, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError:
            return False
        return True


def _canonical(key: dict[str, Any]) -> str:
    return json.dumps({**key, "layout": LAYOUT}, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class AgentText:
    """One transcription the agent submitted: of the whole page (``region`` ``None``) or of a
    region of it (points on the page as displayed)."""

    page: int
    region: Region | None
    markdown: str

    def as_record(self) -> dict[str, Any]:
        return {"region": None if self.region is None else list(self.region), "text": self.markdown}


@dataclass(frozen=True)
class PageTexts:
    """What the agent transcribed of one page: the whole page, and regions."""

    whole: AgentText | None
    regions: tuple[AgentText, ...]

    @property
    def empty(self) -> bool:
        return self.whole is None and not self.regions


_NONE = PageTexts(None, ())


class AgentTranscriptions:
    """The agent's transcriptions, per document fingerprint and page: in memory, and in
    ``directory`` (when given) so that other processes see them."""

    def __init__(self, directory: ResultDir | None = None) -> None:
        self.directory = directory
        self._pages: OrderedDict[tuple[str, int], PageTexts] = OrderedDict()
        self._lock = threading.Lock()
        #: Bumped at every submission: what keeps derived indexes (find's, the chunks') fresh.
        self._generation: dict[str, int] = {}

    def generation(self, fingerprint: str) -> int:
        with self._lock:
            return self._generation.get(fingerprint, 0)

    def page(self, fingerprint: str, page: int) -> PageTexts:
        """What the agent transcribed of ``page`` (here, else in the directory)."""
        with self._lock:
            found = self._pages.get((fingerprint, page))
            if found is not None:
                self._pages.move_to_end((fingerprint, page))
                return found
        if self.directory is None:
            return _NONE
        loaded = _from_record(page, self.directory.get(_agent_key(fingerprint, page)))
        if not loaded.empty:
            with self._lock:
                self._remember(fingerprint, page, loaded)
        return loaded

    def whole_text(self, fingerprint: str, page: int) -> str | None:
        """The agent's transcription of the whole of ``page`` (white space at its ends cut), or
        ``None`` when it has none: what reads in place of a page that needs OCR."""
        whole = self.page(fingerprint, page).whole
        return None if whole is None else whole.markdown.strip()

    def add(self, fingerprint: str, text: AgentText) -> PageTexts:
        """Keep ``text`` (replacing an earlier transcription of the same page or region) and
        answer the page's transcriptions; ``invalid_argument`` past
        :data:`MAX_REGIONS_PER_PAGE` regions."""
        from pdfthin.errors import PdfthinError

        current = self.page(fingerprint, text.page)
        whole = current.whole
        regions = list(current.regions)
        if text.region is None:
            whole = text
        else:
            key = region_key(text.region)
            regions = [r for r in regions if region_key(r.region) != key] + [text]
            if len(regions) > MAX_REGIONS_PER_PAGE:
                raise PdfthinError(
                    "invalid_argument",
                    f"page {text.page} has {MAX_REGIONS_PER_PAGE} regions transcribed already; "
                    "transcribe the whole page (or a larger region) instead",
                    argument="region",
                )
        updated = PageTexts(whole, tuple(regions))
        with self._lock:
            self._remember(fingerprint, text.page, updated)
            self._generation[fingerprint] = self._generation.get(fingerprint, 0) + 1
        if self.directory is not None:
            record = {
                "page": None if whole is None else whole.as_record(),
                "regions": [r.as_record() for r in regions],
            }
            self.directory.put(_agent_key(fingerprint, text.page), record)
        return updated

    def _remember(self, fingerprint: str, page: int, texts: PageTexts) -> None:
        self._pages[(fingerprint, page)] = texts
        self._pages.move_to_end((fingerprint, page))
        while len(self._pages) > MEMORY_PAGES:
            self._pages.popitem(last=False)


def _agent_key(fingerprint: str, page: int) -> dict[str, Any]:
    return {"fingerprint": fingerprint, "page": page, "provider": AGENT, "kind": "agent_page"}


def _from_record(page: int, record: dict[str, Any] | None) -> PageTexts:
    """The record of a page read back from the directory, checked item by item: what is not
    a transcription as :class:`AgentTranscriptions` writes them is left out."""
    if record is None:
        return _NONE
    whole = _text(page, record.get("page"), region_allowed=False)
    raw = record.get("regions")
    regions = [
        text
        for item in (raw if isinstance(raw, list) else [])[:MAX_REGIONS_PER_PAGE]
        if (text := _text(page, item, region_allowed=True)) is not None
    ]
    return PageTexts(whole, tuple(regions))


def _text(page: int, item: Any, *, region_allowed: bool) -> AgentText | None:
    if not isinstance(item, dict):
        return None
    text = item.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TRANSCRIPTION_CHARS:
        return None
    region = item.get("region")
    if region is None:
        return None if region_allowed else AgentText(page, None, text)
    if not region_allowed or not isinstance(region, list) or len(region) != 4:
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in region):
        return None
    x0, y0, x1, y1 = (float(v) for v in region)
    if not (x1 > x0 and y1 > y0):
        return None
    return AgentText(page, (x0, y0, x1, y1), text)
