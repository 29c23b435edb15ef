"""OCR through two injected ports; pdfthin performs OCR only through a binding the user
chooses (its own, :mod:`pdfthin.ocr.tesseract`, drives programs the user installs).

A **rasterizer** turns pages of a PDF into images; a **recognizer** turns page images into
Markdown. Neither is a dependency of the package: the user binds implementations with an
:class:`OcrBinding` and passes it as ``ocr=`` to an operations
:class:`~pdfthin.operations.Context`, or with ``--ocr MODULE`` on the command line and the MCP
server.

Invariant 9 of docs/design.md, enforced here and in the operations:

- OCR runs only when a call asks for it, and only on ``needs_ocr`` pages;
- results are matched to the requested page numbers: a port's reordered, skipped, duplicated
  or invented pages are ignored, so it can never overwrite a page the text layer answered;
- an empty transcription leaves the page ``needs_ocr``;
- transcriptions are cached by document fingerprint, page, provider name and resolution (in
  memory, and in the directory ``PDFTHIN_OCR_CACHE_DIR`` names when it is set:
  :mod:`pdfthin.ocr.store`), a region's under its region too;
- a recognizer that declares ``supports_regions = True`` is sent the image of a region alone
  (:meth:`OcrBinding.transcribe_region`); any other still gets whole pages;
- a call that times out answers ``timeout``, but the port's concurrency slot stays held until
  the port's work has really ended.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from pdfthin.deadline import current, timeout_error
from pdfthin.errors import PdfthinError
from pdfthin.ocr.store import Region, ResultDir, region_key

_T = TypeVar("_T")

__all__ = [
    "OcrBinding",
    "PageImage",
    "Rasterizer",
    "Recognizer",
    "Signal",
    "Transcription",
]


class Signal:
    """Cancellation for a port: set when the caller stopped waiting (timeout). Ports should
    check :attr:`cancelled` between pages and stop early."""

    def __init__(self) -> None:
        self._event = threading.Event()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self) -> None:
        self._event.set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True when cancelled meanwhile."""
        return self._event.wait(seconds)


class PageImage(dict[str, Any]):
    """``{"page": int, "image": bytes, "media_type": str}`` (a dict, so ports may be plain
    functions returning dicts)."""


@runtime_checkable
class Rasterizer(Protocol):
    def render(
        self, pdf: bytes, pages: list[int], dpi: int, signal: Signal
    ) -> list[dict[str, Any]]:
        """Images of the given 1-based pages: ``[{"page", "image", "media_type"}]``."""
        ...


@runtime_checkable
class Recognizer(Protocol):
    """Turns images into Markdown. Optional attributes: ``version`` (a string, part of the
    cache key: change it when the same name reads differently) and ``supports_regions``
    (``True``: it may be sent the image of a region of a page, its item carrying
    ``"region": {"x0", "y0", "x1", "y1"}`` in points on the page as displayed)."""

    name: str

    def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
        """Markdown for page images: ``[{"page", "markdown", "confidence"?}]``."""
        ...


@dataclass(frozen=True)
class Transcription:
    page: int
    markdown: str
    provider: str
    dpi: int
    confidence: float | None = None
    #: The region transcribed (points on the page as displayed); ``None``: the whole page.
    region: Region | None = None

    @property
    def empty(self) -> bool:
        return not self.markdown.strip()

    def as_record(self) -> dict[str, Any]:
        return {"markdown": self.markdown, "confidence": self.confidence}


#: Transcriptions kept per binding (pages); the oldest go first.
CACHE_PAGES = 20_000


@dataclass(eq=False)
class OcrBinding:
    """A rasterizer and a recognizer bound together, with their limits."""

    rasterizer: Rasterizer
    provider: Recognizer
    dpi: int = 200
    max_pages_per_call: int = 4
    #: Seconds a call waits for the ports before answering ``timeout``.
    timeout: float = 120.0
    #: Port calls running at once; one more waits (up to ``timeout``) for a slot.
    max_concurrent: int = 1
    #: Where results persist across processes: the directory ``PDFTHIN_OCR_CACHE_DIR`` names
    #: (read when the binding is made), or ``None`` (memory only).
    store: ResultDir | None = field(default_factory=ResultDir.from_env)
    _cache: OrderedDict[tuple[str, int, str, int, str], Transcription] = field(
        default_factory=OrderedDict, repr=False
    )
    _cache_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _slots: threading.BoundedSemaphore = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.provider, Recognizer) or not isinstance(self.rasterizer, Rasterizer):
            raise TypeError("OcrBinding needs a rasterizer (render) and a recognizer (recognize)")
        if not 36 <= self.dpi <= 1200:
            raise ValueError("dpi must be between 36 and 1200")
        if self.max_pages_per_call < 1 or self.max_concurrent < 1 or self.timeout <= 0:
            raise ValueError("max_pages_per_call, max_concurrent and timeout must be positive")
        self._slots = threading.BoundedSemaphore(self.max_concurrent)

    @property
    def name(self) -> str:
        return str(getattr(self.provider, "name", type(self.provider).__name__))

    @property
    def version(self) -> str:
        """The provider's ``version`` (empty when it declares none): part of the cache key."""
        return str(getattr(self.provider, "version", ""))

    @property
    def supports_regions(self) -> bool:
        return getattr(self.provider, "supports_regions", False) is True

    @property
    def cache_key(self) -> tuple[str, int]:
        return (self.name, self.dpi)

    def _key(self, fingerprint: str, page: int, region: Region | None) -> dict[str, Any]:
        return {
            "fingerprint": fingerprint,
            "page": page,
            "region": region_key(region),
            "provider": self.name,
            "version": self.version,
            "dpi": self.dpi,
        }

    def cached(
        self, fingerprint: str, page: int, region: Region | None = None
    ) -> Transcription | None:
        """The transcription of ``page`` (or of ``region`` of it) kept in memory or, when a
        directory is configured, found there (checked: :class:`~.store.ResultDir`)."""
        key = (fingerprint, page, self.name, self.dpi, region_key(region))
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        if self.store is None:
            return None
        record = self.store.get(self._key(fingerprint, page, region))
        markdown = None if record is None else record.get("markdown")
        if not isinstance(markdown, str):
            return None
        confidence = record.get("confidence") if record is not None else None
        found = Transcription(
            page,
            markdown,
            self.name,
            self.dpi,
            float(confidence) if isinstance(confidence, (int, float)) else None,
            region,
        )
        self._remember(fingerprint, found)
        return found

    def _remember(self, fingerprint: str, result: Transcription) -> None:
        key = (fingerprint, result.page, self.name, self.dpi, region_key(result.region))
        with self._cache_lock:
            self._cache[key] = result
            while len(self._cache) > CACHE_PAGES:
                self._cache.popitem(last=False)

    def _store(self, fingerprint: str, result: Transcription) -> None:
        self._remember(fingerprint, result)
        if self.store is not None:
            self.store.put(self._key(fingerprint, result.page, result.region), result.as_record())

    def transcribe_region(
        self, pdf: bytes, region_pdf: bytes, fingerprint: str, page: int, region: Region
    ) -> Transcription | None:
        """The transcription of ``region`` of ``page``: a recognizer that supports regions is
        sent the image of the region alone (``region_pdf``: a one-page PDF showing just the
        region, as :meth:`pdfthin.engine.EngineDocument.citation_pdf` makes it), rendered by
        the rasterizer; any other is sent the whole page (``pdf``), and its whole-page
        transcription (``region`` ``None``) is answered. Cached as :meth:`transcribe` caches.
        ``None`` when the port answered nothing for it."""
        if not self.supports_regions:
            return self.transcribe(pdf, fingerprint, [page]).get(page)
        hit = self.cached(fingerprint, page, region)
        if hit is not None:
            return hit
        x0, y0, x1, y1 = region

        def work(signal: Signal) -> Transcription | None:
            images = self.rasterizer.render(region_pdf, [1], self.dpi, signal)
            image = next(
                (i for i in images or [] if _page_of(i) == 1 and isinstance(i.get("image"), bytes)),
                None,
            )
            if image is None or signal.cancelled:
                return None
            item = {
                **image,
                "page": page,
                "region": {"x0": x0, "y0": y0, "x1": x1, "y1": y1},
            }
            for answer in self.provider.recognize([item], signal) or []:
                if _page_of(answer) != page:
                    continue  # only the page asked about
                markdown = answer.get("markdown")
                confidence = answer.get("confidence")
                result = Transcription(
                    page,
                    markdown if isinstance(markdown, str) else "",
                    self.name,
                    self.dpi,
                    float(confidence) if isinstance(confidence, (int, float)) else None,
                    region,
                )
                self._store(fingerprint, result)
                return result
            return None

        return self._bounded(work, [page], f"the OCR provider {self.name!r}", "ocr_unavailable")

    def transcribe(
        self, pdf: bytes, fingerprint: str, pages: list[int]
    ) -> dict[int, Transcription]:
        """Transcriptions of ``pages`` (1-based, all of them ``needs_ocr``), from the cache or
        from the ports in batches of ``max_pages_per_call``. Raises ``timeout`` or ``busy``."""
        out: dict[int, Transcription] = {}
        todo: list[int] = []
        for page in dict.fromkeys(pages):
            hit = self.cached(fingerprint, page)
            if hit is not None:
                out[page] = hit
            else:
                todo.append(page)
        for start in range(0, len(todo), self.max_pages_per_call):
            batch = todo[start : start + self.max_pages_per_call]
            for result in self._run(pdf, fingerprint, batch):
                out[result.page] = result
        return out

    def _run(self, pdf: bytes, fingerprint: str, pages: list[int]) -> list[Transcription]:
        def work(signal: Signal) -> list[Transcription]:
            results = self._call_ports(pdf, pages, signal)
            # Cached even when the caller has stopped waiting: the work is done.
            for result in results:
                self._store(fingerprint, result)
            return results

        return self._bounded(work, pages, f"the OCR provider {self.name!r}", "ocr_unavailable")

    def rasterize(self, pdf: bytes, page: int, dpi: int) -> dict[str, Any]:
        """The rasterizer's image of page ``page`` of ``pdf`` at ``dpi``, under the binding's
        limits (its slots and timeout, as :meth:`transcribe`): ``{"page", "image",
        "media_type"}``. A port that fails, or answers no image of that page, is
        ``renderer_unavailable``; raises ``timeout`` or ``busy`` as OCR does."""

        def work(signal: Signal) -> dict[str, Any]:
            try:
                images = self.rasterizer.render(pdf, [page], dpi, signal)
            except PdfthinError as exc:
                if exc.code != "ocr_unavailable":
                    raise
                raise PdfthinError("renderer_unavailable", exc.message, **exc.details) from None
            for item in images or []:
                if _page_of(item) == page and isinstance(item.get("image"), bytes):
                    return dict(item)
            raise PdfthinError(
                "renderer_unavailable",
                f"the rasterizer of {self.name!r} gave no image of the page",
                provider=self.name,
            )

        return self._bounded(
            work, [page], f"the rasterizer of {self.name!r}", "renderer_unavailable"
        )

    def _bounded(self, call: Callable[[Signal], _T], pages: list[int], who: str, failed: str) -> _T:
        """``call(signal)`` on a thread of its own, within a slot of the binding and its
        timeout (or less when the call has less time left): ``busy`` when no slot frees in
        time, ``timeout`` when the port does not answer in time (``signal`` is then
        cancelled); an exception of the port that is not a :class:`PdfthinError` is
        ``failed`` (the code), naming ``who``."""
        # The binding's own timeout, or less when the call has less time left.
        deadline = current()
        left = deadline.remaining()
        wait = self.timeout if left is None else min(self.timeout, left)
        if not self._slots.acquire(timeout=wait):
            deadline.check()
            raise PdfthinError(
                "busy",
                f"{who} is busy with other pages; retry shortly",
                retry_after_seconds=max(1, round(self.timeout / 4)),
            )
        signal = Signal()
        box: dict[str, Any] = {}
        done = threading.Event()

        def work() -> None:
            # The slot is released here, when the ports have really returned, not when the
            # caller stops waiting.
            try:
                box["result"] = call(signal)
            except BaseException as exc:  # reported to the caller below
                box["error"] = exc
            finally:
                done.set()
                self._slots.release()

        threading.Thread(target=work, name="pdfthin-ocr", daemon=True).start()
        left = deadline.remaining()
        if not done.wait(self.timeout if left is None else min(self.timeout, left)):
            signal.cancel()
            if deadline.expired():
                raise timeout_error()
            raise PdfthinError(
                "timeout",
                f"{who} did not answer within {self.timeout:g} s",
                pages=pages,
                provider=self.name,
            )
        error = box.get("error")
        if isinstance(error, PdfthinError):
            raise error
        if error is not None:
            raise PdfthinError(
                failed,
                f"{who} failed: {type(error).__name__}: {error}",
                provider=self.name,
            )
        result: _T = box["result"]
        return result

    def _call_ports(self, pdf: bytes, pages: list[int], signal: Signal) -> list[Transcription]:
        wanted = set(pages)
        images = self.rasterizer.render(pdf, list(pages), self.dpi, signal)
        # Only images of pages that were asked for, once each, in the order asked.
        by_page: dict[int, dict[str, Any]] = {}
        for item in images or []:
            page = _page_of(item)
            if page in wanted and page not in by_page and isinstance(item.get("image"), bytes):
                by_page[page] = item
        ordered = [by_page[p] for p in pages if p in by_page]
        if not ordered or signal.cancelled:
            return [Transcription(p, "", self.name, self.dpi) for p in pages if p in by_page]
        answers = self.provider.recognize(ordered, signal)
        sent = {_page_of(item) for item in ordered}
        results: dict[int, Transcription] = {}
        for item in answers or []:
            page = _page_of(item)
            if page is None or page not in sent or page in results:
                continue  # invented, unrequested or duplicated pages are ignored
            markdown = item.get("markdown")
            confidence = item.get("confidence")
            results[page] = Transcription(
                page,
                markdown if isinstance(markdown, str) else "",
                self.name,
                self.dpi,
                float(confidence) if isinstance(confidence, (int, float)) else None,
            )
        return [results[p] for p in pages if p in results]


def _page_of(item: Any) -> int | None:
    if not isinstance(item, dict):
        return None
    page = item.get("page")
    return page if isinstance(page, int) and not isinstance(page, bool) else None
