"""The engines under comparison: what they import, what they are called, what they output."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Engine:
    name: str
    description: str
    #: Modules imported before extraction (timed as import, not as extraction).
    modules: tuple[str, ...]
    #: Distributions whose versions are reported and whose installed size is summed (with deps).
    dists: tuple[str, ...]
    #: Output is Markdown: strip its syntax for the text score; read headings and tables from it.
    markdown: bool = False
    #: Output carries a per-page status (pdfthin: text / empty / needs_ocr / ocr).
    has_status: bool = False
    #: Where tables come from: "markdown", "pdfplumber" or None.
    tables: str | None = None
    #: Optional modules made unimportable in the worker (fontTools: pypdf's optional CFF parser).
    block: tuple[str, ...] = ("fontTools",)
    #: Extra environment for the worker.
    env: dict[str, str] = field(default_factory=dict)
    #: A module that must be importable for the engine to run at all.
    requires: str | None = None

    def available(self) -> bool:
        module = self.requires or self.modules[0]
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            return False
        # A source folder of the same name (e.g. the Rust crate ``pdfthin_native/`` at the
        # project root) is found as a namespace package: that is not an installed module.
        return spec is not None and spec.origin is not None


#: pdfthin is measured on its geometric path, the structure tree of a tagged PDF ignored
#: (``pdfthin.layout.tagged.IGNORE_ENV``): the tagged files' ground truth comes from that
#: tree (``metrics/tagged.py``), and scoring the tree against itself would measure nothing.
GEOMETRY_ONLY = {"PDFTHIN_IGNORE_STRUCTURE_TREE": "1"}

ENGINES: dict[str, Engine] = {
    engine.name: engine
    for engine in (
        Engine(
            "pdfthin",
            "pdfthin.open(), page.markdown (pure Python)",
            ("pdfthin",),
            ("pdfthin",),
            markdown=True,
            has_status=True,
            tables="markdown",
            env={"PDFTHIN_NATIVE": "off", **GEOMETRY_ONLY},
        ),
        Engine(
            "pdfthin-native",
            "pdfthin.open() with the native accelerator required",
            ("pdfthin",),
            ("pdfthin", "pdfthin-native"),
            markdown=True,
            has_status=True,
            tables="markdown",
            env={"PDFTHIN_NATIVE": "require", **GEOMETRY_ONLY},
            requires="pdfthin_native",
        ),
        Engine("pypdf", "PdfReader, page.extract_text() (no fontTools)", ("pypdf",), ("pypdf",)),
        Engine(
            "pypdf+fonttools",
            "PdfReader, page.extract_text() with fontTools installed",
            ("pypdf",),
            ("pypdf", "fonttools"),
            block=(),
            requires="fontTools",
        ),
        Engine(
            "pdfminer.six",
            "pdfminer.high_level.extract_text, split on form feeds",
            ("pdfminer.high_level",),
            ("pdfminer.six",),
        ),
        Engine(
            "pdfplumber",
            "page.extract_text() and page.extract_tables()",
            ("pdfplumber",),
            ("pdfplumber",),
            tables="pdfplumber",
        ),
        Engine(
            "pypdfium2",
            "textpage.get_text_range()",
            ("pypdfium2",),
            ("pypdfium2",),
        ),
        Engine("pymupdf", "page.get_text()", ("pymupdf",), ("pymupdf",)),
        Engine(
            "pymupdf4llm",
            "to_markdown(page_chunks=True, use_ocr=False); Layout model as installed",
            ("pymupdf4llm",),
            ("pymupdf4llm", "pymupdf"),
            markdown=True,
            tables="markdown",
        ),
        Engine(
            "pymupdf4llm-legacy",
            "to_markdown(page_chunks=True) after use_layout(False)",
            ("pymupdf4llm",),
            ("pymupdf4llm", "pymupdf"),
            markdown=True,
            tables="markdown",
        ),
    )
}

#: What runs when --engines is not given (every engine whose library is installed).
DEFAULT_ENGINES: tuple[str, ...] = tuple(ENGINES)
#: The engine every ratio is taken against.
REFERENCE = "pdfthin"


def select(names: list[str] | None) -> tuple[list[Engine], list[str]]:
    """The engines to run, and a note for each requested engine that cannot run here."""
    wanted = names or list(DEFAULT_ENGINES)
    unknown = [n for n in wanted if n not in ENGINES]
    if unknown:
        raise SystemExit(f"unknown engine(s): {', '.join(unknown)}; known: {', '.join(ENGINES)}")
    chosen: list[Engine] = []
    skipped: list[str] = []
    for name in wanted:
        engine = ENGINES[name]
        if engine.available():
            chosen.append(engine)
        else:
            skipped.append(f"{name}: {engine.requires or engine.modules[0]} is not installed")
    return chosen, skipped
