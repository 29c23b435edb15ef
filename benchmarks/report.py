"""Targets, and the Markdown report (engine x metric tables) of one benchmark run."""

from __future__ import annotations

from typing import Any

from benchmarks import sources as src
from benchmarks.engines import REFERENCE

#: "Cold start well under PyMuPDF's": at most this fraction of PyMuPDF's.
COLD_START_FRACTION = 0.5
#: "Far faster than pymupdf4llm": pymupdf4llm takes at least this many times longer.
FAR_FASTER = 5.0
#: Foundation issue: ``import pdfthin`` under this many milliseconds.
IMPORT_BUDGET_MS = 150.0


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _ms(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value < 1:  # a difference of two medians: below the noise of process start
        return "<1"
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _target(name: str, measured: str, met: bool | None) -> dict[str, Any]:
    return {"target": name, "measured": measured, "met": met}


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    ev = results["evaluation"]
    cold = results.get("coldstart") or {}
    cold_engines = cold.get("engines", {})
    out: list[dict[str, Any]] = []

    pair = ev.get("pdfthin_vs_pypdf_time")
    if pair and pair.get("cpu_ratio") is not None:
        out.append(
            _target(
                "whole corpus to Markdown in no more time than pypdf's extract_text",
                f"CPU: pdfthin {pair['pdfthin_cpu_s']:.1f} s vs pypdf {pair['pypdf_cpu_s']:.1f} s "
                f"(x{pair['cpu_ratio']:.2f}); wall: {pair['pdfthin_s']:.1f} s vs "
                f"{pair['pypdf_s']:.1f} s (x{pair['ratio']:.2f}); on the {pair['files']} files "
                f"/ {pair['pages']} pages both read",
                pair["cpu_ratio"] <= 1.0,
            )
        )
    if REFERENCE in cold_engines and "pymupdf" in cold_engines:
        a = cold_engines[REFERENCE]["cold_start_ms"]
        b = cold_engines["pymupdf"]["cold_start_ms"]
        out.append(
            _target(
                f"cold start well under PyMuPDF's (at most {COLD_START_FRACTION:.0%} of it)",
                f"{a:.0f} ms vs {b:.0f} ms (x{a / b:.2f})",
                a <= COLD_START_FRACTION * b,
            )
        )
    if cold.get("pdfthin_import_ms") is not None:
        ms = cold["pdfthin_import_ms"]
        out.append(
            _target(
                f"`import pdfthin` under {IMPORT_BUDGET_MS:.0f} ms",
                f"{ms:.1f} ms (python -c 'import pdfthin' minus bare start; -X importtime: "
                f"{_fmt(cold.get('pdfthin_importtime_ms'), 1)} ms)",
                ms < IMPORT_BUDGET_MS,
            )
        )
    speed = ev["speed"]["engines"]
    if REFERENCE in speed and "pymupdf4llm" in speed and speed[REFERENCE]["total_s"]:
        ratio = speed["pymupdf4llm"]["total_s"] / speed[REFERENCE]["total_s"]
        out.append(
            _target(
                f"far faster than pymupdf4llm (at least {FAR_FASTER:.0f}x)",
                f"pymupdf4llm takes x{ratio:.1f} pdfthin's time on the common files",
                ratio >= FAR_FASTER,
            )
        )
    text = ev["text"]["engines"]
    if REFERENCE in text and "pypdf" in text:
        a, b = text[REFERENCE]["mean"], text["pypdf"]["mean"]
        out.append(
            _target(
                "text score at least pypdf's",
                f"{_fmt(a)} vs {_fmt(b)} (mean of {len(ev['text']['files'])} files)",
                a is not None and b is not None and a >= b,
            )
        )
    heads = ev["headings"]["engines"]
    if REFERENCE in heads and "pymupdf4llm" in heads:
        a, b = heads[REFERENCE]["mean_f1"], heads["pymupdf4llm"]["mean_f1"]
        out.append(
            _target(
                "heading F1 above pymupdf4llm's",
                f"{_fmt(a)} vs {_fmt(b)} (mean over {len(ev['headings']['files'])} outlines)",
                a is not None and b is not None and a > b,
            )
        )
    ocr = ev["ocr"]["engines"].get(REFERENCE)
    if ocr:
        out.append(
            _target(
                "every image-only page flagged as needing OCR",
                f"{ocr['flagged']} of {ocr['image_only_pages']} flagged, "
                f"{ocr['silently_empty']} silently empty, {ocr['with_text']} with text, "
                f"{ocr['failed']} in failed files",
                ocr["flagged"] == ocr["image_only_pages"],
            )
        )
        out.append(
            _target(
                "no text page falsely flagged",
                f"{ocr['text_pages_flagged']} of {ocr['text_pages']} text pages flagged",
                ocr["text_pages_flagged"] == 0,
            )
        )
    rob = ev["robustness"]["engines"].get(REFERENCE)
    if rob:
        counts = rob["all_runs"]["counts"]
        bad = counts["crash"] + counts["timeout"] + counts["memory"]
        out.append(
            _target(
                "robustness: no crash and no timeout on any file",
                f"{counts['crash']} crash, {counts['timeout']} timeout, {counts['memory']} memory "
                f"in {sum(counts.values())} runs",
                bad == 0,
            )
        )
    return out


# --- Markdown ---------------------------------------------------------------------------------


def _held_out_tables(engine: dict[str, Any] | None) -> float | None:
    """An engine's table F1 on camelot's test expectations, if the run had them."""
    if not engine:
        return None
    value = engine.get("by_source", {}).get("camelot", {}).get("value")
    return float(value) if value is not None else None


def _icdar(files: list[str]) -> list[str]:
    return [f for f in files if src.source_of(f) == "tabula-icdar2013"]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _mark(met: bool | None) -> str:
    return "n/a" if met is None else ("yes" if met else "**MISSED**")


def _counts(c: dict[str, int]) -> str:
    return "/".join(str(c[k]) for k in ("ok", "error", "crash", "timeout", "memory"))


def render(results: dict[str, Any]) -> str:
    meta = results["meta"]
    ev = results["evaluation"]
    engines: list[str] = meta["engines"]
    info = results["engine_info"]
    cold = results.get("coldstart") or {}
    out: list[str] = [
        f"# pdfthin benchmark ({meta['mode']} run)",
        "",
        f"- date: {meta['date']}; machine: {meta['machine']}; Python {meta['python']}",
        f"- pdfthin {meta['pdfthin_version']} at commit {meta['git_commit']} "
        f"(pdfthin measured from: {meta.get('pdfthin_source', 'working tree')})",
        f"- command: `{meta['command']}`",
        f"- corpus: {meta['files']} files; runs: {meta['runs']}; workers: {meta['workers']} "
        f"(timings {'sequential' if meta['workers'] == 1 else 'with parallel workers: noisier'}); "
        f"limits: {meta['timeout_s']:.0f} s + {meta['timeout_per_page_s']:.1f} s/page, "
        f"{meta['mem_bytes'] >> 20} MiB address space per run",
    ]
    if meta.get("loadavg_median") is not None:
        out.append(
            f"- machine load (1-min load average while measuring): median "
            f"{meta['loadavg_median']:.1f}, max {meta['loadavg_max']:.1f} on "
            f"{meta['machine'].split(', ')[1]}; CPU times are less disturbed by other load "
            "than wall times"
        )
    if meta.get("reused"):
        reused = meta["reused"]
        load = reused.get("loadavg_median")
        out.append(
            f"- outputs and timings of {', '.join(reused['engines'])} are from the run of "
            f"{reused['date']}"
            + (f" (median load {load:.1f})" if load is not None else "")
            + "; the other engines were measured again with this pdfthin"
        )
    if meta.get("rescored"):
        out.append(
            f"- re-scored from the cached outputs on {meta['rescored']['date']} "
            f"(`{meta['rescored']['command']}`)"
        )
    if meta.get("skipped"):
        out.append(f"- not run: {'; '.join(meta['skipped'])}")
    out += ["", "## Targets", ""]
    out += _table(
        ["target", "measured", "met"],
        [[t["target"], t["measured"], _mark(t["met"])] for t in results["targets"]],
    )

    sp = ev["speed"]
    out += [
        "",
        "## Speed",
        "",
        f"Whole-document extraction on the {sp['files']} files ({sp['pages']} pages) that every "
        "engine read; each file in a fresh process after a warm-up page, import excluded. Cold "
        f"start: a new process importing the engine and reading `{cold.get('file', '?')}` "
        f"(1 page), median of {cold.get('repeat', '?')} (bare interpreter start "
        f"{_ms(cold.get('interpreter_start_ms'))} ms, included), wall and CPU (user + system, "
        "all threads). Import: median wall, bare start subtracted. Installed: the engine's "
        "distributions with their dependencies.",
        "",
    ]
    rows = []
    for name in engines:
        s = sp["engines"].get(name, {})
        c = cold.get("engines", {}).get(name, {})
        size = info[name]["installed"]["bytes"] / 1e6
        rows.append(
            [
                name,
                ", ".join(f"{k} {v}" for k, v in info[name]["versions"].items()),
                _ms(s.get("ms_per_page")),
                _ms(s.get("median_ms_per_page")),
                _ms(s.get("cpu_ms_per_page")),
                _fmt(s.get("time_ratio_to_pdfthin"), 2),
                _fmt(s.get("cpu_ratio_to_pdfthin"), 2),
                _ms(c.get("cold_start_ms")),
                _ms(c.get("cold_start_cpu_ms")),
                _ms(c.get("import_ms")),
                f"{_fmt(s.get('peak_rss_mib_median'), 0)} / {_fmt(s.get('peak_rss_mib_max'), 0)}",
                f"{size:.1f}",
            ]
        )
    out += _table(
        [
            "engine",
            "version",
            "ms/page",
            "median ms/page",
            "CPU ms/page",
            "time / pdfthin",
            "CPU / pdfthin",
            "cold start ms",
            "cold start CPU ms",
            "import ms",
            "peak RSS MiB (median / max)",
            "installed MB",
        ],
        rows,
    )

    text, heads, tabs, ocr = ev["text"], ev["headings"], ev["tables"], ev["ocr"]
    out += [
        "",
        "## Fidelity",
        "",
        f"Text: py-pdf/benchmarks score (Indel similarity, ligatures expanded, pages joined by "
        f"newlines, Markdown stripped) on {len(text['files'])} files with ground truth; "
        "'ws' is the same with all whitespace runs collapsed to one space. Agreement: the same "
        f"similarity (whitespace collapsed) to {ev.get('agreement', {}).get('reference', 'n/a')}'s "
        "text, mean over every file both read (agreement, not truth). "
        f"Headings: {len(heads['files'])} files with at least 3 outline entries (or, without "
        f"an outline, 3 headings in a tagged PDF's structure tree: {len(heads.get('tagged', []))}"
        "); title match at "
        "ratio >= 85 after normalisation; level agreement on matched pairs. Tables: ICDAR 2013 "
        f"adjacency relations on {len(_icdar(tabs['files']))} files, pooled (micro); camelot's "
        "test expectations are in the per-source tables below.",
        "",
    ]
    rows = []
    agreement = ev.get("agreement", {}).get("engines", {})
    for name in engines:
        t = text["engines"].get(name, {})
        h = heads["engines"].get(name)
        tb = tabs["engines"].get(name)
        rows.append(
            [
                name,
                _fmt(t.get("mean")),
                _fmt(t.get("mean_ws")),
                _fmt(agreement.get(name, {}).get("mean")),
                _fmt(h["mean_f1"]) if h else "n/a",
                f"{_fmt(h['micro']['precision'], 2)} / {_fmt(h['micro']['recall'], 2)}"
                if h
                else "n/a",
                _fmt(h["micro"]["level_agreement"], 2) if h else "n/a",
                _fmt(tb["micro"]["f1"]) if tb else "n/a",
                f"{_fmt(tb['micro']['precision'], 2)} / {_fmt(tb['micro']['recall'], 2)}"
                if tb
                else "n/a",
                _fmt(_held_out_tables(tb)),
                _fmt(ev.get("row_kept", {}).get("engines", {}).get(name, {}).get("share")),
                _fmt(ev.get("text_tests", {}).get("engines", {}).get(name, {}).get("rate")),
            ]
        )
    out += _table(
        [
            "engine",
            "text score",
            "text score (ws)",
            "agreement",
            "heading F1 (mean)",
            "heading P / R (micro)",
            "heading level agreement",
            "table F1 (micro)",
            "table P / R",
            "camelot table F1 (held out)",
            "row kept together",
            "page tests passed",
        ],
        rows,
    )

    out += [
        "",
        "## OCR signal",
        "",
        f"Pages of the {ocr['image_only_files']} `image-only` files: flagged as needing OCR "
        "(only pdfthin can say so) / silently empty / with some text / in a file the engine "
        f"failed on. Text pages: pages of other files where {ocr['text_page_reference']} "
        f"finds at least {ocr['text_page_min_chars']} printable characters.",
        "",
    ]
    rows = []
    for name in engines:
        o = ocr["engines"][name]
        rows.append(
            [
                name,
                str(o["image_only_pages"]),
                str(o["flagged"]),
                str(o["silently_empty"]),
                str(o["with_text"]),
                str(o["failed"]),
                f"{o['text_pages_flagged']} / {o['text_pages']}",
                str(o["text_pages_empty"]),
            ]
        )
    out += _table(
        [
            "engine",
            "image-only pages",
            "flagged",
            "silently empty",
            "with text",
            "failed",
            "text pages flagged",
            "text pages empty",
        ],
        rows,
    )

    rob = ev["robustness"]
    out += [
        "",
        "## Robustness",
        "",
        "Counts ok / clean error / crash / timeout / memory. A clean error is the library's own "
        "exception type (pdfthin: `PdfthinError`); any other exception, a signal or an exit "
        "without a result is a crash.",
        "",
    ]
    rows = []
    for name in engines:
        r = rob["engines"][name]
        rows.append(
            [
                name,
                _counts(r["broken"]["counts"]),
                _counts(r["encrypted_with_password"]["counts"]),
                _counts(r["encrypted_without_password"]["counts"]),
                _counts(r["all_runs"]["counts"]),
            ]
        )
    out += _table(
        [
            "engine",
            "malformed / fuzzed / bomb",
            "encrypted, with password",
            "encrypted, no password",
            "all runs",
        ],
        rows,
    )
    problems = rob["engines"].get(REFERENCE, {}).get("all_runs", {}).get("problems", [])
    if problems:
        out += ["", "pdfthin crashes, timeouts and memory failures:", ""]
        out += [f"- {p}" for p in problems]

    out += generalisation_section(ev, engines)
    out += native_section(ev)
    geo = ev.get("geotopo_cff") or {}
    if geo:
        out += [
            "",
            "## Embedded CFF encodings (GeoTopo)",
            "",
            "Text score on `sample-files/GeoTopo-komprimiert.pdf`; pypdf decodes embedded CFF "
            "Type1 encodings only when fontTools is installed.",
            "",
        ]
        out += _table(["engine", "GeoTopo text score"], [[n, _fmt(v)] for n, v in geo.items()])

    out += ["", "## Details", ""]
    out += _details(ev, engines)
    return "\n".join(out) + "\n"


def native_section(ev: dict[str, Any]) -> list[str]:
    """The native accelerator's answers and memory beside the pure engine's."""
    native = ev.get("native_identity")
    if not native:
        return []
    out = [
        "",
        "## Native accelerator",
        "",
        f"pdfthin-native against pure pdfthin: {native['runs_compared']} runs compared, "
        f"{len(native['differing'])} with a different outcome or different page output"
        + (": " + ", ".join(native["differing"][:20]) if native["differing"] else "."),
    ]
    mem = native.get("memory")
    if mem:
        out += [
            "",
            f"Peak memory (`VmHWM`) on the {mem['files']} files both read, pure / native: "
            f"the warmed-up process (before the document; median) "
            f"{_fmt(mem['warmed_mib_median'][0], 1)} / {_fmt(mem['warmed_mib_median'][1], 1)}"
            f" MiB; what the document adds on top of it, median "
            f"{_fmt(mem['document_mib_median'][0], 2)} / "
            f"{_fmt(mem['document_mib_median'][1], 2)} MiB, largest "
            f"{_fmt(mem['document_mib_max'][0], 1)} / {_fmt(mem['document_mib_max'][1], 1)}"
            f" MiB, summed over the files {_fmt(mem['document_mib_total'][0], 0)} / "
            f"{_fmt(mem['document_mib_total'][1], 0)} MiB, no higher natively on "
            f"{mem['document_native_not_higher']} files; the whole process's peak: native "
            f"minus pure {_fmt(mem['process_peak_difference_mib_median'], 2)} MiB (median), "
            f"no higher natively on {mem['process_peak_native_not_higher']} files.",
        ]
    return out


def _details(ev: dict[str, Any], engines: list[str]) -> list[str]:
    out: list[str] = []
    text = ev["text"]
    if text["files"]:
        out += ["### Text score per file", ""]
        out += _table(
            ["file", *engines],
            [
                [f, *(_fmt(text["engines"][n]["files"].get(f)) for n in engines)]
                for f in text["files"]
            ],
        )
    worst = ev.get("agreement", {}).get("worst_pdfthin_vs_pypdf") or []
    if worst:
        out += [
            "",
            f"### 10 files where pdfthin agrees least with "
            f"{ev['agreement']['reference']} (pypdf alongside)",
            "",
        ]
        out += _table(
            ["file", "pdfthin", "pypdf"],
            [[w["file"], _fmt(w["pdfthin"]), _fmt(w["pypdf"])] for w in worst],
        )
    heads = ev["headings"]
    md_engines = [n for n in engines if n in heads["engines"]]
    if heads["files"] and md_engines:
        out += ["", "### Heading F1 per file (matched / predicted / expected)", ""]
        rows = []
        for f in heads["files"]:
            row = [f]
            for n in md_engines:
                s = heads["engines"][n]["files"][f]
                row.append(f"{s['f1']:.2f} ({s['matched']}/{s['predicted']}/{s['expected']})")
            rows.append(row)
        out += _table(["file", *md_engines], rows)
    tabs = ev["tables"]
    tab_engines = [n for n in engines if n in tabs["engines"]]
    if tabs["files"] and tab_engines:
        out += [
            "",
            "### Table F1 per file (adjacency relations: ICDAR 2013, then camelot's tests)",
            "",
        ]
        rows = []
        for f in tabs["files"]:
            row = [f if src.source_of(f) != "tabula-icdar2013" else f.rsplit("/", 1)[-1]]
            for n in tab_engines:
                s = tabs["engines"][n]["files"][f]
                row.append(f"{s['f1']:.2f} ({s['correct']}/{s['predicted']}/{s['expected']})")
            rows.append(row)
        out += _table(["file", *tab_engines], rows)
    return out


# --- per source, held out, guards, page tests ----------------------------------------------------

#: (evaluation key, title, what the number is) of the metrics reported per corpus source.
SOURCE_METRICS: tuple[tuple[str, str, str], ...] = (
    ("text", "Text score", "mean text score of the files with a text ground truth"),
    ("agreement", "Agreement", "mean similarity to pypdfium2's text (not truth)"),
    ("headings", "Heading F1", "mean F1 over files with an outline"),
    (
        "tables",
        "Table F1",
        "adjacency relations pooled per source (ICDAR 2013 -str.xml; camelot's test "
        "expectations, judged only on relations between their own texts)",
    ),
    (
        "row_kept",
        "Row kept together",
        "share of ground-truth rows (label + number) whose label and first value share one "
        "output line",
    ),
    ("text_tests", "Text unit tests", "pass rate of the page tests of benchmarks/text_cases.py"),
)


def _source_table(section: dict[str, Any], metric: str, engines: list[str]) -> list[str]:
    present = [n for n in engines if n in section.get("engines", {})]
    sources = sorted({s for n in present for s in section["engines"][n].get("by_source", {})})
    if not present or not sources:
        return ["(no file of this run has ground truth for it)"]
    rows = []
    for source in sources:
        cells = [source, src.role(metric, source)]
        files = 0
        for n in present:
            entry = section["engines"][n]["by_source"].get(source)
            files = max(files, entry["files"] if entry else 0)
            cells.append(_fmt(entry["value"]) if entry else "n/a")
        rows.append([cells[0], cells[1], str(files), *cells[2:]])
    worst = []
    for n in present:
        w = section["engines"][n].get("worst_source")
        worst.append(f"{w['source']} {_fmt(w['value'])}" if w else "n/a")
    rows.append(["**worst source**", "", "", *worst])
    return _table(["source", "role", "files", *present], rows)


def generalisation_section(ev: dict[str, Any], engines: list[str]) -> list[str]:
    """Every fidelity metric per corpus source, the worst source, the plain-text guard, the
    page tests, and the camelot ground truth used."""
    out = [
        "",
        "## Fidelity per corpus source",
        "",
        "A source is the first folder of a file's relpath. 'tuned' marks the sources the "
        "metric's rules were developed on (benchmarks/sources.py); every other source is held "
        "out, and its numbers are the ones that say whether a rule generalises. "
        "`python -m benchmarks compare A B` shows the change per source between two runs.",
    ]
    for key, title, what in SOURCE_METRICS:
        section = ev.get(key)
        if not section:
            continue
        out += ["", f"### {title} per source", "", f"{what}.", ""]
        out += _source_table(section, key, engines)
    kept = ev.get("row_kept")
    if kept and kept.get("engines"):
        out += ["", "Row kept together, all sources: "]
        out[-1] += "; ".join(
            f"{n} {_fmt(e['share'])} ({e['kept']}/{e['rows']})" for n, e in kept["engines"].items()
        )
    tabs = ev.get("tables", {})
    if tabs.get("camelot_tests"):
        out += [
            "",
            "camelot ground truth used (file: the camelot test its expected table comes from):",
            "",
        ]
        out += [f"- `{f}`: `{t}`" for f, t in sorted(tabs["camelot_tests"].items())]
    if tabs.get("tagged"):
        out += [
            "",
            "Tagged PDFs whose structure tree's tables are ground truth (pdfthin does not read the "
            "tree; a table is trusted with 2+ rows, 2+ columns and half its cells filled): "
            + ", ".join(f"`{f}`" for f in tabs["tagged"]),
        ]
    out += guard_section(ev)
    out += text_tests_section(ev, engines)
    return out


def guard_section(ev: dict[str, Any]) -> list[str]:
    guard = ev.get("plain_text_guard")
    if not guard:
        return []
    out = [
        "",
        "## Never worse than plain text",
        "",
        f"On {guard['files']} files that pdfthin, pypdfium2 and pypdf all read (and where a "
        f"plain-text engine finds at least {guard.get('min_chars', '?')} characters): "
        "pdfthin's text "
        "(Markdown stripped, whitespace collapsed) is rated against the text ground truth where "
        "the file has one; elsewhere each of the three is rated by its mean similarity to the "
        "other two, so that no engine is the reference (two plain-text engines sharing a mistake "
        f"can flag a pdfthin that is right). Listed: files where pdfthin is more than "
        f"{guard['margin']} below both. Cause: pdfthin's text against the better plain-text "
        "engine's.",
        "",
    ]
    flagged = guard["flagged"]
    if not flagged:
        return [*out, "No file."]
    rows = [
        [
            f["file"],
            f["basis"],
            _fmt(f["pdfthin"]),
            _fmt(f["pypdfium2"]),
            _fmt(f["pypdf"]),
            f["cause"],
        ]
        for f in flagged
    ]
    return out + _table(["file", "rated by", "pdfthin", "pypdfium2", "pypdf", "cause"], rows)


def text_tests_section(ev: dict[str, Any], engines: list[str]) -> list[str]:
    tests = ev.get("text_tests")
    if not tests or not tests.get("tests"):
        return []
    present = [n for n in engines if n in tests["engines"]]
    out = [
        "",
        "## Text unit tests (olmOCR-bench style)",
        "",
        f"{tests['tests']} hand-made tests on {len(tests['files'])} files "
        "(benchmarks/text_cases.py): a phrase present, a header or footer absent, phrase A "
        "before phrase B, two cells on one line. Pass rate per engine, per kind, per file. "
        "'syntax kept': the same tests on the Markdown as olmOCR-bench reads it (only "
        "emphasis markers taken out; escapes, links and footnote references left in).",
        "",
    ]
    kinds = sorted({k for n in present for k in tests["engines"][n]["kinds"]})
    rows = [
        [
            n,
            f"{_fmt(tests['engines'][n]['rate'])} ({tests['engines'][n]['passed']}"
            f"/{tests['engines'][n]['tests']})",
            _fmt(tests["engines"][n].get("rate_syntax_kept")),
            *(_fmt(tests["engines"][n]["kinds"].get(k), 2) for k in kinds),
        ]
        for n in present
    ]
    out += _table(["engine", "all", "syntax kept", *kinds], rows)
    out += [""]
    out += _table(
        ["file", *present],
        [
            [f, *(_fmt(tests["engines"][n]["files"].get(f), 2) for n in present)]
            for f in tests["files"]
        ],
    )
    failed = tests["engines"].get(REFERENCE, {}).get("failed", [])
    if failed:
        out += ["", "pdfthin's failed tests:", ""]
        out += [f"- {f}" for f in failed]
    return out
