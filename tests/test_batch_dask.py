"""``pdfthin.batch.iter_documents`` driven by a real Dask cluster, as docs/batch.md shows it.

Dask (``dask[distributed]``, about 45 MB installed with tornado, psutil and the rest) is not
a test dependency of every environment: this test skips where it is missing, and tox's
``integrations`` environment installs it and sets ``PDFTHIN_INTEGRATIONS=require``, where a
missing Dask fails instead (as the retrieval frameworks' tests in tests/test_exports.py do).
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pdfbuilder import PdfBuilder

from pdfthin.batch import DocumentResult, iter_documents
from pdfthin.exports import chunks


def report_pdf(name: str, pages: int) -> bytes:
    """``pages`` pages of Helvetica lines naming ``name`` (its text and fingerprint its own)."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    for n in range(1, pages + 1):
        body = [b"BT /F1 10 Tf 50 760 Td 12 TL"]
        body += [
            b"(Line %d of page %d in %s: alpha beta gamma.) Tj T*" % (i, n, name.encode())
            for i in range(30)
        ]
        body.append(b"ET")
        b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    return b.build()


def _package(name: str) -> ModuleType:
    """``name`` imported; where it is missing, a skip (a failure in tox's integrations env)."""
    if os.environ.get("PDFTHIN_INTEGRATIONS", "").strip().lower() == "require":
        return importlib.import_module(name)
    return pytest.importorskip(name)


def read_part(paths: list[str]) -> list[DocumentResult]:
    """One Dask task: a part of the documents, read in a worker process of its own."""
    return list(iter_documents(paths, format="chunks", timeout_seconds=60))


def test_iter_documents_from_a_dask_local_cluster(tmp_path: Path) -> None:
    distributed: Any = _package("dask.distributed")
    paths = []
    for name in ("alpha", "beta", "gamma"):
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(report_pdf(name, pages=2))
        paths.append(str(path))
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nnot a PDF\n")
    paths.append(str(broken))

    parts = [paths[0::2], paths[1::2]]
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        futures = client.map(read_part, parts)
        results = [
            r for _, part in distributed.as_completed(futures, with_results=True) for r in part
        ]

    by_name = {r.name: r for r in results}
    assert sorted(by_name) == ["alpha.pdf", "beta.pdf", "broken.pdf", "gamma.pdf"]
    for name in ("alpha", "beta", "gamma"):
        result, path = by_name[f"{name}.pdf"], tmp_path / f"{name}.pdf"
        assert result.status == "ok" and result.page_count == 2
        assert result.fingerprint == hashlib.sha256(path.read_bytes()).hexdigest()
        assert result.content == list(chunks(str(path)))  # the chunks, as pdfthin.chunks gives
    failed = by_name["broken.pdf"]
    assert failed.status == "failed" and failed.error is not None
    assert failed.error.code in ("not_a_pdf", "malformed")
