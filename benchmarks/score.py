"""Turn raw worker results into per-file and per-engine metrics (speed, fidelity, robustness)."""

from __future__ import annotations

import importlib.util
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from benchmarks import sources as src
from benchmarks.corpus import ROBUSTNESS_TAGS, Corpus, Entry
from benchmarks.engines import REFERENCE, Engine
from benchmarks.metrics import camelot as cm
from benchmarks.metrics import headings as hd
from benchmarks.metrics import rows as rw
from benchmarks.metrics import tables as tb
from benchmarks.metrics import tagged as tg
from benchmarks.metrics import text as tx
from benchmarks.metrics import texttests as tt
from benchmarks.text_cases import TEXT_TESTS

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
    #: The tagged ground truth of the run's tagged files, read on first use (``_tagged``).
    tagged_truth: dict[str, tg.TaggedTruth] | None = None

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


def _tagged(run: Run) -> dict[str, tg.TaggedTruth]:
    """The tagged ground truth of every tagged file of the run (read once per run; empty when
    pdfplumber, which reads the trees, is not installed)."""
    if run.tagged_truth is not None:
        return run.tagged_truth
    out: dict[str, tg.TaggedTruth] = {}
    measured = {file for _, file, _ in run.results}
    if importlib.util.find_spec("pdfplumber") is not None:
        for entry in run.entries:
            if "tagged" not in entry.tags or entry.relpath not in measured:
                continue
            truth = tg.read_tagged(run.corpus.path(entry.relpath), entry.password)
            if truth is not None and (truth.tables or truth.headings):
                out[entry.relpath] = truth
    run.tagged_truth = out
    return out


def _plain_text(run: Run, entry: Entry) -> list[str] | None:
    """The file's text page by page as pypdfium2 reads it (the reference reading, whichever
    engines the run has), against which an outline's titles are checked (``hd.shown``);
    ``None`` when pypdfium2 cannot read the file (its outline is then used unchecked)."""
    from benchmarks.extractors import extract_pypdfium2

    try:
        pages = extract_pypdfium2(str(run.corpus.path(entry.relpath)), entry.password)
    except Exception:  # pypdfium2 refuses the file: nothing to check the outline against
        return None
    return [str(page.get("text") or "") for page in pages]


def heading_fidelity(run: Run) -> dict[str, Any]:
    """Headings against the PDF's own outline, the entries whose titles the document shows
    (``hd.shown``); where a file has no usable outline, against the headings its structure
    tree declares (a tagged PDF), which pdfthin's measured path does not read."""
    outlines: dict[str, list[hd.Heading]] = {}
    #: Per file, the pages whose headings are not judged (``hd.unjudged_pages``).
    unjudged: dict[str, set[int]] = {}
    for entry in run.entries:
        for gt in entry.gt(".outline.json"):
            items = hd.read_outline(run.corpus.root / gt)
            reference = _plain_text(run, entry) if len(items) >= hd.MIN_ENTRIES else None
            truth = hd.outline_truth(items, reference)
            if truth is not None:
                outlines[entry.relpath], unjudged[entry.relpath] = truth
    tagged_headings: list[str] = []
    for relpath, truth in _tagged(run).items():
        if relpath not in outlines and len(truth.headings) >= hd.MIN_ENTRIES:
            outlines[relpath] = truth.headings
            tagged_headings.append(relpath)
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        if not engine.markdown:
            continue
        scores: dict[str, dict[str, Any]] = {}
        total = Counter[str]()
        for relpath, expected in outlines.items():
            pages = run.texts(engine.name, relpath) or []
            skip = unjudged.get(relpath, set())
            found = [h for h in hd.headings_from_markdown(pages) if h.page not in skip]
            s = hd.score(found, expected)
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
    return {"files": sorted(outlines), "tagged": sorted(tagged_headings), "engines": per_engine}


# --- tables -----------------------------------------------------------------------------------


def _table_truth(run: Run) -> dict[str, list[tuple[int | None, list[tb.Table], bool]]]:
    """Ground-truth tables per file: ``(page or None for the whole document, tables,
    complete)``; complete truth covers every table there (ICDAR), incomplete truth one table
    of the page (camelot's tests), so only relations between its texts are judged."""
    truth: dict[str, list[tuple[int | None, list[tb.Table], bool]]] = {}
    for entry in run.entries:
        path = run.corpus.icdar_structure(entry)
        if path is not None:
            truth[entry.relpath] = [(None, tb.read_icdar_structure(path), True)]
    wanted = {e.relpath for e in run.entries}
    for relpath, pages in cm.load(run.corpus.root).items():
        if relpath in wanted:
            truth[relpath] = [(page, tables, False) for page, tables in pages]
    # A tagged PDF's trusted tables: judged like camelot's, page by page, only between their
    # own texts (the tree may leave a table untagged or untrusted).
    for relpath, tagged in _tagged(run).items():
        if relpath in truth or not tagged.tables:
            continue
        by_page: dict[int, list[tb.Table]] = {}
        for page, table in tagged.tables:
            by_page.setdefault(page, []).append(table)
        truth[relpath] = [(page, tables, False) for page, tables in sorted(by_page.items())]
    return truth


def _engine_tables(engine: Engine, pages: list[dict[str, Any]]) -> list[list[tb.Table]]:
    """The tables an engine found, page by page."""
    if engine.tables == "markdown":
        return [tb.tables_from_markdown(str(p.get("text") or "")) for p in pages]
    return [tb.tables_from_rows(p.get("tables") or []) for p in pages]


def table_fidelity(run: Run) -> dict[str, Any]:
    truth = _table_truth(run)
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        if engine.tables is None:
            continue
        scores: dict[str, dict[str, Any]] = {}
        for relpath, parts in truth.items():
            r = run.get(engine.name, relpath)
            pages = r.get("pages", []) if r and r.get("outcome") == "ok" else []
            found = _engine_tables(engine, pages)
            total = Counter[str]()
            for page, expected_tables, complete in parts:
                if page is None:
                    mine = [t for tables in found for t in tables]
                else:
                    mine = found[page - 1] if page <= len(found) else []
                predicted = tb.document_relations(mine)
                if not complete:
                    predicted = tb.within(predicted, expected_tables)
                s = tb.score(predicted, tb.document_relations(expected_tables))
                total.update(predicted=s.predicted, expected=s.expected, correct=s.correct)
            s = tb.TableScore(total["predicted"], total["expected"], total["correct"])
            scores[relpath] = {**s.as_dict(), "tables_found": sum(len(t) for t in found)}
        icdar = [v for f, v in scores.items() if src.source_of(f) == "tabula-icdar2013"]
        per_engine[engine.name] = {
            # The headline number stays the ICDAR 2013 one, comparable with earlier reports.
            "micro": _pooled_tables(icdar).as_dict(),
            "mean_f1": _mean([s["f1"] for s in icdar]),
            "by_source": {
                source: {
                    "files": len(files),
                    "value": _pooled_tables([scores[f] for f in files]).f1,
                }
                for source, files in src.group(scores).items()
            },
            "files": scores,
        }
    return {
        "files": sorted(truth),
        "tagged": sorted(r for r, t in _tagged(run).items() if t.tables and r in truth),
        "camelot_tests": {e.file: e.test for e in cm.EXPECTATIONS if e.file in truth},
        "engines": per_engine,
    }


def _pooled_tables(scores: list[dict[str, Any]]) -> tb.TableScore:
    return tb.TableScore(
        sum(s["predicted"] for s in scores),
        sum(s["expected"] for s in scores),
        sum(s["correct"] for s in scores),
    )


# --- per source -------------------------------------------------------------------------------


def mean_by_source(files: dict[str, float | None]) -> dict[str, dict[str, Any]]:
    """Mean of a per-file number per corpus source."""
    out: dict[str, dict[str, Any]] = {}
    for source, relpaths in src.group(files).items():
        values = [v for f in relpaths if (v := files[f]) is not None]
        out[source] = {"files": len(values), "value": _mean(values)}
    return out


def worst_source(by_source: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The source with the lowest value (ties: the first by name)."""
    rated = [(row["value"], name) for name, row in by_source.items() if row["value"] is not None]
    if not rated:
        return None
    value, name = min(rated)
    return {"source": name, "value": value}


def add_sources(metric: str, section: dict[str, Any], value_of: str | None = None) -> None:
    """Put ``by_source`` and ``worst_source`` on every engine of a metric's section."""
    for row in section["engines"].values():
        if "by_source" not in row:
            files = row["files"]
            values = {f: (v[value_of] if value_of else v) for f, v in files.items()}
            row["by_source"] = mean_by_source(values)
        row["worst_source"] = worst_source(row["by_source"])
    section["tuned_on"] = sorted(src.TUNED_ON.get(metric, frozenset()))


# --- label with its values --------------------------------------------------------------------


def _labelled_truth(run: Run) -> dict[str, list[rw.LabelledRow]]:
    truth: dict[str, list[rw.LabelledRow]] = {}
    for entry in run.entries:
        path = run.corpus.icdar_structure(entry)
        if path is not None:
            truth[entry.relpath] = [
                row
                for page, table in tb.read_icdar_pages(path)
                for row in rw.labelled_rows(table, page)
            ]
    wanted = {e.relpath for e in run.entries}
    for relpath, parts in cm.load(run.corpus.root).items():
        if relpath in wanted:
            truth[relpath] = [
                row
                for page, tables in parts
                for table in tables
                for row in rw.labelled_rows(table, page)
            ]
    return {f: rows for f, rows in truth.items() if rows}


def row_kept(run: Run) -> dict[str, Any]:
    """Share of ground-truth label rows whose label and first value share one output line."""
    truth = _labelled_truth(run)
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        files: dict[str, dict[str, Any]] = {}
        for relpath, rows in truth.items():
            texts = run.texts(engine.name, relpath) or []
            kept, total = rw.count_kept(rows, texts, engine.markdown)
            files[relpath] = {"kept": kept, "rows": total, "share": kept / total}
        by_source = {
            source: {
                "files": len(fs),
                "value": sum(files[f]["kept"] for f in fs) / sum(files[f]["rows"] for f in fs),
            }
            for source, fs in src.group(files).items()
        }
        kept = sum(v["kept"] for v in files.values())
        rows_total = sum(v["rows"] for v in files.values())
        per_engine[engine.name] = {
            "share": kept / rows_total if rows_total else None,
            "kept": kept,
            "rows": rows_total,
            "by_source": by_source,
            "files": files,
        }
    return {"files": sorted(truth), "engines": per_engine}


# --- never worse than plain text --------------------------------------------------------------

#: pdfthin is "clearly below" a plain-text engine on a file when its score is lower by more
#: than this (similarities in 0..1): well above the differences whitespace and Markdown leave.
GUARD_MARGIN = 0.05
#: The plain-text engines pdfthin must not fall below.
GUARD_PEERS = ("pypdfium2", "pypdf")
#: A cause is named when characters or words differ by more than this fraction.
CAUSE_FRACTION = 0.1
#: Words that are the same bag but in another order still share this much of the bag.
SAME_WORDS = 0.9


def _guard_pages(run: Run, engine: str, relpath: str) -> list[str] | None:
    """An engine's pages as the text score sees them (Markdown stripped, ligatures expanded)."""
    pages = run.texts(engine, relpath)
    if pages is None:
        return None
    markdown = next((e.markdown for e in run.engines if e.name == engine), False)
    return [tx.document_text([p], markdown) for p in pages]


def _consensus(pages: dict[str, list[str]]) -> dict[str, float]:
    """Each engine's mean similarity to the other engines: no engine is the reference.
    Compared page by page where the page counts agree, as the agreement score is."""
    names = list(pages)
    pair: dict[frozenset[str], float] = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            pair[frozenset((a, b))] = _agreement(pages[a], pages[b])
    return {a: statistics.fmean(pair[frozenset((a, b))] for b in names if b != a) for a in names}


def cause(mine: str, peer: str) -> str:
    """A short, automatically derived reason why ``mine`` differs from ``peer``."""
    chars_mine = len(mine.replace(" ", ""))
    chars_peer = len(peer.replace(" ", "")) or 1
    if chars_mine < (1 - CAUSE_FRACTION) * chars_peer:
        return f"lost {100 * (1 - chars_mine / chars_peer):.0f}% of characters"
    if chars_mine > (1 + CAUSE_FRACTION) * chars_peer:
        return f"{100 * (chars_mine / chars_peer - 1):.0f}% more characters (repeated text?)"
    words_mine, words_peer = mine.split(), peer.split()
    if len(words_mine) > (1 + CAUSE_FRACTION) * len(words_peer):
        return f"words split ({len(words_mine)} words vs {len(words_peer)})"
    if len(words_mine) < (1 - CAUSE_FRACTION) * len(words_peer):
        return f"words run together ({len(words_mine)} words vs {len(words_peer)})"
    shared = sum((Counter(words_mine) & Counter(words_peer)).values())
    if shared >= SAME_WORDS * max(len(words_mine), len(words_peer), 1):
        return "same words, order differs"
    return "different characters (decoding?)"


def plain_text_guard(run: Run) -> dict[str, Any]:
    """Files where pdfthin's text falls clearly below both plain-text engines'.

    With a text ground truth, each engine's whitespace-collapsed text score decides. Without
    one, each of the three engines is rated by its mean similarity to the other two, so no engine
    is the reference: pdfthin is flagged only when its agreement with pypdfium2 is below
    pypdf's agreement with pypdfium2 and its agreement with pypdf below pypdfium2's (by the
    margin, on average). Two peers that share a mistake can flag a pdfthin that is right.
    """
    names = {e.name for e in run.engines}
    if not ({REFERENCE, *GUARD_PEERS} <= names):
        return {"files": 0, "flagged": [], "margin": GUARD_MARGIN}
    flagged: list[dict[str, Any]] = []
    checked = 0
    for entry in run.entries:
        pages = {n: _guard_pages(run, n, entry.relpath) for n in (REFERENCE, *GUARD_PEERS)}
        found = {n: p for n, p in pages.items() if p is not None}
        if len(found) < len(pages):
            continue
        present = {n: _collapse("\n".join(p)) for n, p in found.items()}
        # Too little text to rate (a page that is only its page number): not a text file.
        if max(len(present[p].replace(" ", "")) for p in GUARD_PEERS) < TEXT_PAGE_MIN_CHARS:
            continue
        checked += 1
        gt = run.corpus.text_ground_truth(entry)
        if gt is not None:
            truth = _collapse(tx.expand_ligatures(gt.read_text(encoding="utf-8")))
            rating = {n: tx.indel_similarity(truth, t) for n, t in present.items()}
            basis = "ground truth"
        else:
            rating = _consensus(found)
            basis = "agreement"
        best_peer = max(GUARD_PEERS, key=rating.__getitem__)
        if all(rating[REFERENCE] < rating[p] - GUARD_MARGIN for p in GUARD_PEERS):
            flagged.append(
                {
                    "file": entry.relpath,
                    "basis": basis,
                    REFERENCE: rating[REFERENCE],
                    **{p: rating[p] for p in GUARD_PEERS},
                    "cause": cause(present[REFERENCE], present[best_peer]),
                }
            )
    flagged.sort(key=lambda f: f[REFERENCE] - max(f[p] for p in GUARD_PEERS))
    return {
        "files": checked,
        "flagged": flagged,
        "margin": GUARD_MARGIN,
        "min_chars": TEXT_PAGE_MIN_CHARS,
    }


# --- text unit tests --------------------------------------------------------------------------


def text_tests(run: Run) -> dict[str, Any]:
    """olmOCR-style page tests (``benchmarks/text_cases.py``) on every engine."""
    wanted = {e.relpath for e in run.entries}
    cases = [c for c in TEXT_TESTS if c.file in wanted]
    per_engine: dict[str, Any] = {}
    for engine in run.engines:
        by_file: dict[str, list[int]] = {}
        by_kind: dict[str, list[int]] = {}
        failed: list[str] = []
        kept = 0  # passed with the Markdown syntax left in (olmOCR-bench's reading)
        for case in cases:
            texts = run.texts(engine.name, case.file)
            page = texts[case.page - 1] if texts is not None and case.page <= len(texts) else None
            ok = page is not None and tt.passes(case, page, engine.markdown)
            kept += page is not None and tt.passes(case, page, engine.markdown, kept=True)
            for key, table in ((case.file, by_file), (case.kind, by_kind)):
                table.setdefault(key, [0, 0])
                table[key][0] += ok
                table[key][1] += 1
            if not ok:
                failed.append(
                    f"{case.file}#{case.page} {case.kind} {case.text!r}"
                    + (f" / {case.other!r}" if case.other else "")
                )
        passed = sum(p for p, _ in by_file.values())
        per_engine[engine.name] = {
            "passed": passed,
            "tests": len(cases),
            "rate": passed / len(cases) if cases else None,
            "rate_syntax_kept": kept / len(cases) if cases else None,
            "files": {f: p / n for f, (p, n) in by_file.items()},
            "kinds": {k: p / n for k, (p, n) in by_kind.items()},
            "by_source": {
                source: {
                    "files": len(fs),
                    "value": sum(by_file[f][0] for f in fs) / sum(by_file[f][1] for f in fs),
                }
                for source, fs in src.group(by_file).items()
            },
            "failed": failed,
        }
    return {"tests": len(cases), "files": sorted({c.file for c in cases}), "engines": per_engine}


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
    agree = agreement(run)
    heads = heading_fidelity(run)
    tables = table_fidelity(run)
    kept = row_kept(run)
    tests = text_tests(run)
    add_sources("text", text)
    add_sources("agreement", agree)
    add_sources("headings", heads, "f1")
    add_sources("tables", tables)
    add_sources("row_kept", kept)
    add_sources("text_tests", tests)
    return {
        "speed": speed(run),
        "pdfthin_vs_pypdf_time": pairwise_time(run, REFERENCE, "pypdf"),
        "text": text,
        "agreement": agree,
        "geotopo_cff": geotopo,
        "headings": heads,
        "tables": tables,
        "row_kept": kept,
        "plain_text_guard": plain_text_guard(run),
        "text_tests": tests,
        "ocr": ocr_signal(run),
        "robustness": robustness(run),
        "native_identity": native_identity(run),
        "per_file": per_file(run),
    }
