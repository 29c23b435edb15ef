"""Turn raw worker results into per-file and per-engine metrics (speed, fidelity, robustness)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from benchmarks.corpus import ROBUSTNESS_TAGS, Corpus, Entry
from benchmarks.engines import REFERENCE, Engine
from benchmarks.metrics import headings as hd
from benchmarks.metrics import tables as tb
from benchmarks.metrics import text as tx

OUTCOMES = ("ok", "error", "crash", "timeout", "memory")
#: Engines whose output, in this order of preference, decides whether a page "has text".
TEXT_REFERENCES = ("pypdfium2", "pymupdf", "pypdf", "pdfminer.six")
#: A page whose reference text has at least this many non-space characters is a text page.
TEXT_PAGE_MIN_CHARS = 20
#: Files never counted as text files for the false-flag count.
NOT_TEXT_TAGS = frozenset({"image-only", "scanned", "no-text"})
GEOTOPO = "sample-files/GeoTopo-komprimiert.pdf"

Result = dict[str, Any]


@dataclass
class Run:
    """Results indexed by (engine, file, variant)."""

    results: dict[tuple[str, str, str], Result]
    engines: list[Engine]
    entries: list[Entry]
    corpus: Corpus

    @classmethod
    def build(
        cls, raw: Iterable[Result], engines: list[Engine], entries: list[Entry], corpus: Corpus
    ) -> Run:
        index = {(r["engine"], r["file"], r["variant"]): r for r in raw}
        return cls(index, engines, entries, corpus)

    def get(self, engine: str, file: str, variant: str = "main") -> Result | None:
        return self.results.get((engine, file, variant))

    def ok(self, engine: str, file: str) -> bool:
        r = self.get(engine, file)
        return r is not None and r.get("outcome") == "ok"

    def texts(self, engine: str, file: str) -> list[str] | None:
        r = self.get(engine, file)
        if r is None or r.get("outcome") != "ok":
            return None
        return [str(p.get("text") or "") for p in r.get("pages", [])]

    def page_count(self, entry: Entry) -> int:
        if entry.pages:
            return entry.pages
        counts = [
            len(r.get("pages", []))
            for e in self.engines
            if (r := self.get(e.name, entry.relpath)) and r.get("outcome") == "ok"
        ]
        return max(counts, default=0)


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


# --- speed ------------------------------------------------------------------------------------


def speed(run: Run) -> dict[str, Any]:
    """Whole-document extraction times on the files where every engine succeeded."""
    names = [e.name for e in run.engines]
    common = [
        entry
        for entry in run.entries
        if run.page_count(entry) > 0 and all(run.ok(n, entry.relpath) for n in names)
    ]
    pages = sum(run.page_count(e) for e in common)
    per_engine: dict[str, Any] = {}
    for name in names:
        seconds = [_seconds(run, name, e, "extract_s") for e in common]
        cpu = [_seconds(run, name, e, "extract_cpu_s") for e in common]
        per_page = [1000 * s / run.page_count(e) for s, e in zip(seconds, common, strict=True)]
        ok_results = [
            r
            for e in run.entries
            if (r := run.get(name, e.relpath)) is not None and r.get("outcome") == "ok"
        ]
        # Results from before the VmHWM fix carry the harness's RSS as a floor: not used.
        rss = [
            r["maxrss_kib"] / 1024
            for r in ok_results
            if r.get("maxrss_kib") and r.get("rss_source") == "VmHWM"
        ]
        per_engine[name] = {
            "total_s": sum(seconds),
            "total_cpu_s": sum(cpu),
            "ms_per_page": 1000 * sum(seconds) / pages if pages else None,
            "cpu_ms_per_page": 1000 * sum(cpu) / pages if pages else None,
            "median_ms_per_page": _median(per_page),
            "peak_rss_mib_median": _median(rss),
            "peak_rss_mib_max": max(rss) if rss else None,
        }
    ref = per_engine.get(REFERENCE)
    for row in per_engine.values():
        row["time_ratio_to_pdfthin"] = (
            row["total_s"] / ref["total_s"] if ref and ref["total_s"] else None
        )
        row["cpu_ratio_to_pdfthin"] = (
            row["total_cpu_s"] / ref["total_cpu_s"] if ref and ref["total_cpu_s"] else None
        )
    return {"files": len(common), "pages": pages, "engines": per_engine}


def _seconds(run: Run, engine: str, entry: Entry, key: str) -> float:
    result = run.get(engine, entry.relpath) or {}
    return float(result.get(key) or 0.0)


def pairwise_time(run: Run, a: str, b: str) -> dict[str, Any] | None:
    """Total extraction time of ``a`` and ``b`` on the files both extracted."""
    files = [e for e in run.entries if run.ok(a, e.relpath) and run.ok(b, e.relpath)]
    if not files:
        return None
    ta = sum(_seconds(run, a, e, "extract_s") for e in files)
    tb_ = sum(_seconds(run, b, e, "extract_s") for e in files)
    ca = sum(_seconds(run, a, e, "extract_cpu_s") for e in files)
    cb = sum(_seconds(run, b, e, "extract_cpu_s") for e in files)
    return {
        "files": len(files),
        "pages": sum(run.page_count(e) for e in files),
        f"{a}_s": ta,
        f"{b}_s": tb_,
        f"{a}_cpu_s": ca,
        f"{b}_cpu_s": cb,
        "ratio": ta / tb_ if tb_ else None,
        "cpu_ratio": ca / cb if cb else None,
    }


# --- text -------------------------------------------------------------------------------------


def text_fidelity(run: Run) -> dict[str, Any]:
    files: dict[str, str] = {}
    for entry in run.entries:
        gt = run.corpus.text_ground_truth(entry)
        if gt is not None:
            files[entry.relpath] = gt.read_text(encoding="utf-8")
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        scores: dict[str, float] = {}
        ws_scores: dict[str, float] = {}
        for relpath, truth in files.items():
            pages = run.texts(engine.name, relpath)
            if pages is None:
                scores[relpath] = ws_scores[relpath] = 0.0
                continue
            extracted = tx.document_text(pages, engine.markdown)
            truth = tx.expand_ligatures(truth)
            scores[relpath] = tx.indel_similarity(truth, extracted)
            ws_scores[relpath] = tx.indel_similarity(_collapse(truth), _collapse(extracted))
        per_engine[engine.name] = {
            "mean": _mean(list(scores.values())),
            "mean_ws": _mean(list(ws_scores.values())),
            "files": scores,
            "files_ws": ws_scores,
        }
    return {"files": sorted(files), "engines": per_engine}


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _agreement(a: list[str], b: list[str]) -> float:
    """Whitespace-insensitive similarity of two documents; page by page when both have the same
    page count (weighted by length), which keeps long documents cheap."""
    if len(a) == len(b) and a:
        pairs = [(_collapse(x), _collapse(y)) for x, y in zip(a, b, strict=True)]
        weight = sum(len(x) + len(y) for x, y in pairs)
        if not weight:
            return 1.0
        return sum(tx.indel_similarity(x, y) * (len(x) + len(y)) for x, y in pairs) / weight
    return tx.indel_similarity(_collapse("\n".join(a)), _collapse("\n".join(b)))


def agreement(run: Run) -> dict[str, Any]:
    """Similarity of every engine's text to a reference engine's, on every file both read."""
    names = {e.name for e in run.engines}
    reference = next((n for n in TEXT_REFERENCES if n in names), None)
    if reference is None:
        return {"reference": None, "engines": {}}
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        scores: dict[str, float] = {}
        for entry in run.entries:
            ref = run.texts(reference, entry.relpath)
            mine = run.texts(engine.name, entry.relpath)
            if not ref or mine is None or not "".join(ref).strip():
                continue
            if engine.markdown:
                mine = [tx.strip_markdown(p) for p in mine]
            scores[entry.relpath] = _agreement(
                [tx.expand_ligatures(p) for p in mine], [tx.expand_ligatures(p) for p in ref]
            )
        per_engine[engine.name] = {"mean": _mean(list(scores.values())), "files": scores}
    worst: list[dict[str, Any]] = []
    if REFERENCE in per_engine:
        mine = per_engine[REFERENCE]["files"]
        other = per_engine.get("pypdf", {}).get("files", {})
        for relpath in sorted(mine, key=mine.__getitem__)[:10]:
            worst.append({"file": relpath, "pdfthin": mine[relpath], "pypdf": other.get(relpath)})
    return {"reference": reference, "engines": per_engine, "worst_pdfthin_vs_pypdf": worst}


# --- headings ---------------------------------------------------------------------------------


def heading_fidelity(run: Run) -> dict[str, Any]:
    outlines: dict[str, list[hd.Heading]] = {}
    for entry in run.entries:
        for gt in entry.gt(".outline.json"):
            items = hd.read_outline(run.corpus.root / gt)
            if len(items) >= hd.MIN_ENTRIES:
                outlines[entry.relpath] = items
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        if not engine.markdown:
            continue
        scores: dict[str, dict[str, Any]] = {}
        total = Counter[str]()
        for relpath, expected in outlines.items():
            pages = run.texts(engine.name, relpath) or []
            s = hd.score(hd.headings_from_markdown(pages), expected)
            scores[relpath] = s.as_dict()
            total.update(
                predicted=s.predicted, expected=s.expected, matched=s.matched, agreed=s.level_agreed
            )
        micro = hd.HeadingScore(
            total["predicted"], total["expected"], total["matched"], total["agreed"]
        )
        per_engine[engine.name] = {
            "mean_f1": _mean([s["f1"] for s in scores.values()]),
            "micro": micro.as_dict(),
            "files": scores,
        }
    return {"files": sorted(outlines), "engines": per_engine}


# --- tables -----------------------------------------------------------------------------------


def table_fidelity(run: Run) -> dict[str, Any]:
    truth: dict[str, Counter[tb.Relation]] = {}
    for entry in run.entries:
        path = run.corpus.icdar_structure(entry)
        if path is not None:
            truth[entry.relpath] = tb.document_relations(tb.read_icdar_structure(path))
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        if engine.tables is None:
            continue
        scores: dict[str, dict[str, Any]] = {}
        total = Counter[str]()
        for relpath, expected in truth.items():
            r = run.get(engine.name, relpath)
            pages = r.get("pages", []) if r and r.get("outcome") == "ok" else []
            if engine.tables == "markdown":
                found = [
                    t for p in pages for t in tb.tables_from_markdown(str(p.get("text") or ""))
                ]
            else:
                found = [t for p in pages for t in tb.tables_from_rows(p.get("tables") or [])]
            s = tb.score(tb.document_relations(found), expected)
            scores[relpath] = {**s.as_dict(), "tables_found": len(found)}
            total.update(predicted=s.predicted, expected=s.expected, correct=s.correct)
        micro = tb.TableScore(total["predicted"], total["expected"], total["correct"])
        per_engine[engine.name] = {
            "micro": micro.as_dict(),
            "mean_f1": _mean([s["f1"] for s in scores.values()]),
            "files": scores,
        }
    return {"files": sorted(truth), "engines": per_engine}


# --- OCR signal -------------------------------------------------------------------------------


def _visible(text: str, markdown: bool) -> str:
    return "".join((tx.strip_markdown(text) if markdown else text).split())


def _page_class(page: dict[str, Any], markdown: bool) -> str:
    if page.get("status") == "needs_ocr":
        return "flagged"
    return "text" if _visible(str(page.get("text") or ""), markdown) else "empty"


def ocr_signal(run: Run) -> dict[str, Any]:
    image_only = [e for e in run.entries if "image-only" in e.tags]
    names = {e.name for e in run.engines}
    reference = next((n for n in TEXT_REFERENCES if n in names), None)
    text_pages: list[tuple[str, int]] = []
    if reference is not None:
        for entry in run.entries:
            if entry.tags & NOT_TEXT_TAGS:
                continue
            for number, text in enumerate(run.texts(reference, entry.relpath) or [], start=1):
                # Printable characters only: glyphs without a Unicode mapping come out of some
                # engines as control characters, which is not text a reader could use.
                printable = sum(1 for ch in text if ch.isprintable() and not ch.isspace())
                if printable >= TEXT_PAGE_MIN_CHARS:
                    text_pages.append((entry.relpath, number))
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        counts = Counter[str]()
        empty_files: list[str] = []
        for entry in image_only:
            r = run.get(engine.name, entry.relpath)
            if r is None or r.get("outcome") != "ok":
                counts["failed"] += run.page_count(entry)
                continue
            for page in r.get("pages", []):
                kind = _page_class(page, engine.markdown)
                counts[kind] += 1
                if kind == "empty":
                    empty_files.append(entry.relpath)
        false_flags: list[str] = []
        missed = 0
        for relpath, number in text_pages:
            r = run.get(engine.name, relpath)
            pages = r.get("pages", []) if r and r.get("outcome") == "ok" else []
            if number > len(pages):
                continue
            kind = _page_class(pages[number - 1], engine.markdown)
            if kind == "flagged":
                false_flags.append(f"{relpath}#{number}")
            elif kind == "empty":
                missed += 1
        per_engine[engine.name] = {
            "image_only_pages": sum(counts.values()),
            "flagged": counts["flagged"],
            "silently_empty": counts["empty"],
            "with_text": counts["text"],
            "failed": counts["failed"],
            "silently_empty_files": sorted(set(empty_files)),
            "text_pages": len(text_pages),
            "text_pages_flagged": len(false_flags),
            "text_pages_flagged_list": false_flags,
            "text_pages_empty": missed,
        }
    return {
        "image_only_files": len(image_only),
        "text_page_reference": reference,
        "text_page_min_chars": TEXT_PAGE_MIN_CHARS,
        "engines": per_engine,
    }


# --- robustness -------------------------------------------------------------------------------


def robustness(run: Run) -> dict[str, Any]:
    groups = {
        "broken": lambda e: bool(e.tags & {"malformed", "fuzzed", "bomb"}),
        "encrypted_with_password": lambda e: e.encrypted and e.password is not None,
        "encrypted_without_password": lambda e: e.encrypted,
    }
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        row: dict[str, Any] = {}
        for group, wanted in groups.items():
            counts = Counter[str]()
            details: list[str] = []
            for entry in run.entries:
                if not wanted(entry):
                    continue
                variant = "main"
                if group == "encrypted_without_password" and entry.password is not None:
                    variant = "nopw"
                r = run.get(engine.name, entry.relpath, variant)
                outcome = r.get("outcome", "crash") if r else "missing"
                counts[outcome] += 1
                if outcome not in ("ok", "error"):
                    details.append(
                        f"{entry.relpath}: {outcome} {r.get('error_type', '') if r else ''}"
                    )
            row[group] = {"counts": {o: counts[o] for o in OUTCOMES}, "problems": details}
        everywhere = Counter[str]()
        problems: list[str] = []
        for (name, file, variant), r in run.results.items():
            if name != engine.name:
                continue
            everywhere[r.get("outcome", "crash")] += 1
            if r.get("outcome") in ("crash", "timeout", "memory"):
                problems.append(
                    f"{file} ({variant}): {r['outcome']} {r.get('error_type', '')}"
                    f" {r.get('message', '')}".strip()[:240]
                )
        row["all_runs"] = {"counts": {o: everywhere[o] for o in OUTCOMES}, "problems": problems}
        per_engine[engine.name] = row
    robust_files = [e.relpath for e in run.entries if e.tags & ROBUSTNESS_TAGS]
    return {"files": len(robust_files), "engines": per_engine}


# --- per-file speed detail --------------------------------------------------------------------


def per_file(run: Run) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for entry in run.entries:
        row: dict[str, Any] = {"pages": run.page_count(entry), "tags": sorted(entry.tags)}
        for engine in run.engines:
            r = run.get(engine.name, entry.relpath)
            if r is None:
                continue
            cell: dict[str, Any] = {"outcome": r.get("outcome")}
            if r.get("extract_s") is not None:
                cell["extract_ms"] = round(1000 * float(r["extract_s"]), 2)
            if r.get("maxrss_kib"):
                cell["rss_mib"] = round(r["maxrss_kib"] / 1024, 1)
            if r.get("outcome") != "ok":
                cell["error"] = f"{r.get('error_type', '')} {r.get('message', '')}".strip()[:200]
            if engine.has_status and r.get("pages"):
                cell["statuses"] = dict(Counter(p.get("status") for p in r["pages"]))
            row[engine.name] = cell
        out[entry.relpath] = row
    return out


def native_identity(run: Run) -> dict[str, Any] | None:
    """docs/design.md, invariant 10: the native accelerator changes speed, never answers."""
    names = {e.name for e in run.engines}
    if not {"pdfthin", "pdfthin-native"} <= names:
        return None
    compared = 0
    differing: list[str] = []
    for (engine, file, variant), native in run.results.items():
        if engine != "pdfthin-native":
            continue
        pure = run.get("pdfthin", file, variant)
        if pure is None:
            continue
        compared += 1
        same_outcome = pure.get("outcome") == native.get("outcome")
        if not same_outcome or pure.get("pages") != native.get("pages"):
            differing.append(f"{file} ({variant})")
    return {"runs_compared": compared, "differing": differing, "memory": native_memory(run)}


def native_memory(run: Run) -> dict[str, Any] | None:
    """Peak memory of the native engine beside the pure one, file by file.

    A worker's peak (``VmHWM``) is the warmed-up process (interpreter, libraries, the engine's
    own code: for the native engine its extension module, mapped from disk) plus whatever the
    document adds on top. The two are reported apart: the first is paid once per process, the
    second per document.
    """
    process: list[float] = []
    warmed: list[tuple[float, float]] = []
    document: list[tuple[float, float]] = []
    for entry in run.entries:
        pure, native = run.get("pdfthin", entry.relpath), run.get("pdfthin-native", entry.relpath)
        pair = [r for r in (pure, native) if r is not None and _has_peaks(r)]
        if len(pair) != 2:
            continue
        p, n = pair
        process.append((n["maxrss_kib"] - p["maxrss_kib"]) / 1024)
        warmed.append((p["maxrss_before_kib"] / 1024, n["maxrss_before_kib"] / 1024))
        document.append(
            (
                (p["maxrss_kib"] - p["maxrss_before_kib"]) / 1024,
                (n["maxrss_kib"] - n["maxrss_before_kib"]) / 1024,
            )
        )
    if not process:
        return None
    return {
        "files": len(process),
        "process_peak_difference_mib_median": _median(process),
        "process_peak_native_not_higher": sum(1 for d in process if d <= 0),
        "warmed_mib_median": [_median([w[i] for w in warmed]) for i in (0, 1)],
        "document_mib_median": [_median([d[i] for d in document]) for i in (0, 1)],
        "document_mib_total": [sum(d[i] for d in document) for i in (0, 1)],
        "document_mib_max": [max(d[i] for d in document) for i in (0, 1)],
        "document_native_not_higher": sum(1 for p, n in document if n <= p),
    }


def _has_peaks(result: Result) -> bool:
    return (
        result.get("outcome") == "ok"
        and result.get("rss_source") == "VmHWM"
        and bool(result.get("maxrss_kib"))
        and result.get("maxrss_before_kib") is not None
    )


def evaluate(run: Run) -> dict[str, Any]:
    text = text_fidelity(run)
    geotopo = {
        name: scores["files"][GEOTOPO]
        for name, scores in text["engines"].items()
        if GEOTOPO in scores["files"]
    }
    return {
        "speed": speed(run),
        "pdfthin_vs_pypdf_time": pairwise_time(run, REFERENCE, "pypdf"),
        "text": text,
        "agreement": agreement(run),
        "geotopo_cff": geotopo,
        "headings": heading_fidelity(run),
        "tables": table_fidelity(run),
        "ocr": ocr_signal(run),
        "robustness": robustness(run),
        "native_identity": native_identity(run),
        "per_file": per_file(run),
    }
