"""Where a batch's outputs go, and how a rerun knows which are still good.

Markdown and chunks: one file per document in the output folder, mirroring the sources' tree
(``a/b.pdf`` -> ``a/b.md`` or ``a/b.chunks.jsonl``), each written whole or not at all, plus
two files of the batch's own: ``manifest.jsonl`` (one line per document done: its name, the
fingerprint of the file read, the digest of the options, its outcome and page counts; the
last line of a name wins) and ``summary.json``. JSON Lines: one file, one record per document
carrying the same fields (the file is its own manifest), the summary as the last record.

A rerun skips a document whose last record is ``ok`` with the same fingerprint (SHA-256 of
the file, the documents' own fingerprint) and the same options digest, and whose output file
is still there; every other document (new, changed, asked for with other options, failed
last time) is done again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pdfthin.batch.records import DocumentResult, Format, Options

if TYPE_CHECKING:
    from pdfthin.batch.sources import SourceFile

MANIFEST = "manifest.jsonl"
SUMMARY = "summary.json"
#: The suffix of each per-document output (``.chunks.jsonl``: never the manifest's name).
SUFFIXES = {"markdown": ".md", "chunks": ".chunks.jsonl"}


def output_names(sources: Iterable[SourceFile], format: Format) -> dict[str, str]:
    """Each source's output path, relative to the output folder: its name with ``.pdf``
    replaced. Two names that would meet (``a.pdf`` and ``a.PDF``) keep their whole name
    (``a.PDF.md``) after the first."""
    suffix = SUFFIXES[format]
    out: dict[str, str] = {}
    taken: set[str] = set()
    for source in sorted(sources):
        stem = source.name[:-4] if source.name.lower().endswith(".pdf") else source.name
        name = stem + suffix
        if name.lower() in taken:
            name = source.name + suffix
        taken.add(name.lower())
        out[source.name] = name
    return out


def file_fingerprint(path: str) -> str | None:
    """SHA-256 of the file (``None`` when it cannot be read): what the documents'
    ``fingerprint`` is."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def still_good(entry: dict[str, Any] | None, source: SourceFile, digest: str) -> bool:
    """Whether a previous run's ``entry`` for ``source`` stands for this run."""
    if entry is None or entry.get("status") != "ok" or entry.get("options") != digest:
        return False
    return entry.get("fingerprint") == file_fingerprint(source.path)


def skipped(entry: dict[str, Any], source: SourceFile) -> DocumentResult:
    """The result of a document a previous run did, from its record."""
    return DocumentResult(
        source.name,
        source.path,
        "skipped",
        fingerprint=entry.get("fingerprint"),
        page_count=int(entry.get("page_count", 0)),
        page_statuses=dict(entry.get("page_statuses", {})),
        needs_ocr=str(entry.get("needs_ocr", "")),
        output=entry.get("output"),
    )


def read_records(path: Path) -> dict[str, dict[str, Any]]:
    """The last record of each source in a manifest or JSON Lines output (none if absent);
    a line that is not a record (the summary, a line cut by a crash) is passed over."""
    records: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return records
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("source"), str):
                records[record["source"]] = _resume_fields(record)
    return records


def _resume_fields(record: dict[str, Any]) -> dict[str, Any]:
    """What resuming needs of a record (not a JSON Lines record's pages)."""
    return {k: v for k, v in record.items() if k not in ("pages", "document")}


class FolderOutput:
    """Markdown or chunks: a file per document in ``folder``, the manifest, the summary."""

    def __init__(self, folder: Path, sources: list[SourceFile], options: Options) -> None:
        self.folder = folder
        self.digest = options.digest()
        self.names = output_names(sources, options.format)
        folder.mkdir(parents=True, exist_ok=True)
        self.previous = read_records(folder / MANIFEST)
        self._manifest: IO[str] = open(  # noqa: SIM115  (held open for the run; closed by finish/close)
            folder / MANIFEST, "a", encoding="utf-8", newline="\n"
        )

    def output_of(self, source: SourceFile) -> str:
        return str(self.folder / self.names[source.name])

    def done_before(self, source: SourceFile) -> DocumentResult | None:
        entry = self.previous.get(source.name)
        if not still_good(entry, source, self.digest) or entry is None:
            return None
        if not Path(self.output_of(source)).is_file():
            return None
        return skipped(entry, source)

    def record(self, result: DocumentResult) -> None:
        if result.status == "skipped":
            return
        entry = result.manifest_entry(self.digest)
        if "output" in entry:  # relative: the folder may move
            entry["output"] = self.names[result.name]
        self._manifest.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._manifest.flush()

    def finish(self, summary: dict[str, Any]) -> None:
        self._manifest.close()
        _write_whole(self.folder / SUMMARY, json.dumps(summary, indent=2) + "\n")

    def close(self) -> None:
        self._manifest.close()


class JsonlOutput:
    """JSON Lines: one record per document in ``file``, then the summary. A rerun first
    keeps the records that still stand (one per source, no summary) and drops the rest, so
    the file never holds a document twice; then the new records are added."""

    def __init__(self, file: Path, sources: list[SourceFile], options: Options) -> None:
        self.file = file
        self.digest = options.digest()
        file.parent.mkdir(parents=True, exist_ok=True)
        previous = read_records(file)
        by_name = {s.name: s for s in sources}
        self.kept = {
            name: entry
            for name, entry in previous.items()
            if name in by_name and still_good(entry, by_name[name], self.digest)
        }
        self._compact()
        self._out: IO[str] = open(file, "a", encoding="utf-8", newline="\n")  # noqa: SIM115

    def _compact(self) -> None:
        """Rewrite the file with the kept records only, streamed (records can be large)."""
        if not self.file.exists():
            return
        partial = self.file.with_name(self.file.name + ".part")
        seen: set[str] = set()
        with (
            open(self.file, encoding="utf-8") as src,
            open(partial, "w", encoding="utf-8", newline="\n") as dst,
        ):
            for line in src:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                name = str(record.get("source")) if isinstance(record, dict) else ""
                # the kept record is the last of its name; earlier ones are dropped
                kept = name in self.kept and name not in seen
                if kept and _resume_fields(record) == self.kept[name]:
                    seen.add(name)
                    dst.write(line if line.endswith("\n") else line + "\n")
        os.replace(partial, self.file)

    def output_of(self, source: SourceFile) -> None:
        return None

    def done_before(self, source: SourceFile) -> DocumentResult | None:
        entry = self.kept.get(source.name)
        return None if entry is None else skipped(entry, source)

    def record(self, result: DocumentResult) -> None:
        if result.status == "skipped":
            return
        if result.status == "ok":
            record = result.content
        else:
            record = result.manifest_entry(self.digest)
        self._out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._out.flush()

    def finish(self, summary: dict[str, Any]) -> None:
        self._out.write(json.dumps({"summary": summary}, ensure_ascii=False) + "\n")
        self._out.close()

    def close(self) -> None:
        self._out.close()


def _write_whole(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".part")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
