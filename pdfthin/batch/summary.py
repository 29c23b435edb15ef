"""What a batch did, counted as its results come: documents by outcome, pages by status, the
documents that failed with their error codes, and the pages that need OCR."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pdfthin.batch.records import DocumentResult


@dataclass
class Summary:
    """Every document of the batch, counted once (``skipped``: a previous run's output was
    still good, and its page counts are that run's)."""

    total: int
    documents: Counter[str] = field(default_factory=Counter)
    pages: Counter[str] = field(default_factory=Counter)
    #: Pages read by this run (the throughput of the run, not of the skipped documents).
    pages_read: int = 0
    failed: list[dict[str, str]] = field(default_factory=list)
    needs_ocr: dict[str, str] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0

    def add(self, result: DocumentResult) -> None:
        self.documents[result.status] += 1
        self.seconds = time.monotonic() - self.started
        if result.error is not None:
            self.failed.append(
                {"source": result.name, "code": result.error.code, "message": result.error.message}
            )
            return
        self.pages.update(result.page_statuses)
        if result.status == "ok":
            self.pages_read += result.page_count
        if result.needs_ocr:
            self.needs_ocr[result.name] = result.needs_ocr

    @property
    def done(self) -> int:
        return sum(self.documents.values())

    def as_json(self) -> dict[str, Any]:
        """``summary.json`` (and the last record of a JSON Lines output): in name order, so
        two runs over the same files give the same summary but for ``seconds``."""
        return {
            "documents": {
                "total": self.total,
                **{k: self.documents.get(k, 0) for k in ("ok", "skipped", "failed")},
            },
            "pages": dict(sorted(self.pages.items())),
            "failed": sorted(self.failed, key=lambda f: f["source"]),
            "needs_ocr": dict(sorted(self.needs_ocr.items())),
            "seconds": round(self.seconds, 3),
        }

    def lines(self) -> list[str]:
        """The short human summary (stderr)."""
        docs = self.documents
        pages = ", ".join(f"{n} {status}" for status, n in sorted(self.pages.items()))
        out = [
            f"{self.total} document(s): {docs.get('ok', 0)} read, "
            f"{docs.get('skipped', 0)} already done, {docs.get('failed', 0)} failed "
            f"in {self.seconds:.1f} s; pages: {pages or 'none'}"
        ]
        for failure in sorted(self.failed, key=lambda f: f["source"]):
            out.append(f"failed: {failure['source']}: {failure['code']}: {failure['message']}")
        if self.needs_ocr:
            count = len(self.needs_ocr)
            out.append(f"{count} document(s) have pages that need OCR (see the summary)")
        return out
