"""Small unit tests of a page's text, in the manner of olmOCR-bench.

Each test looks at one page of one engine's output:

- ``present``: the phrase is on the page;
- ``absent``: the phrase is not (running headers, footers, page numbers);
- ``order``: the phrase comes before ``other`` (reading order);
- ``row``: the phrase and ``other`` are on one line, in that order (a table cell next to
  the next one, a label with its value; a Markdown table row is one line).

Texts are compared the way the text score compares them: ligatures expanded, Markdown stripped
for Markdown engines, then NFKC, case folded, dashes unified and whitespace runs collapsed to
one space (``present``, ``absent`` and ``order`` ignore line breaks).

``kept=True`` reads a Markdown page the way olmOCR-bench does instead: only ``<br>``
and emphasis markers (``**``, ``__``, ``*``, ``_`` pairs within a line) are taken out, and
every other character of the Markdown (backslash escapes, link targets, footnote references,
table pipes) stays in the text a phrase is looked for in. What Markdown syntax costs an engine
on such a test is the difference between the two rates.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from benchmarks.metrics.text import expand_ligatures, strip_markdown

KINDS = ("present", "absent", "order", "row")


@dataclass(frozen=True)
class TextTest:
    file: str
    page: int
    kind: str
    text: str
    reason: str
    other: str = ""


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", expand_ligatures(text)).casefold()
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)
    text = text.replace("\u00ad", "")
    return " ".join(text.split())


_BR = re.compile(r"<br/?>")
_EMPHASIS = (
    re.compile(r"\*\*(.*?)\*\*"),
    re.compile(r"__(.*?)__"),
    re.compile(r"</?[bi]>"),
    re.compile(r"(\*|_)(.*?)\1"),
)


def syntax_kept(markdown: str) -> str:
    """A Markdown page as olmOCR-bench reads it: ``<br>`` a space, emphasis markers out."""
    text = _BR.sub(" ", markdown)
    bold, strong, tags, emphasis = _EMPHASIS
    text = bold.sub(r"\1", text)
    text = strong.sub(r"\1", text)
    text = tags.sub("", text)
    return emphasis.sub(r"\2", text)


def page_text(text: str, markdown: bool, kept: bool = False) -> str:
    if not markdown:
        return text
    return syntax_kept(text) if kept else strip_markdown(text)


def passes(test: TextTest, text: str, markdown: bool, *, kept: bool = False) -> bool:
    """Whether one engine's page passes one test (``kept``: with its Markdown syntax left in,
    as olmOCR-bench reads it)."""
    plain = page_text(text, markdown, kept)
    flat = normalise(plain)
    phrase = normalise(test.text)
    if test.kind == "present":
        return phrase in flat
    if test.kind == "absent":
        return phrase not in flat
    other = normalise(test.other)
    if test.kind == "order":
        first = flat.find(phrase)
        return first >= 0 and flat.find(other, first + len(phrase)) >= 0
    if test.kind == "row":
        for line in plain.split("\n"):
            line = normalise(line)
            at = line.find(phrase)
            if at >= 0 and line.find(other, at + len(phrase)) >= 0:
                return True
        return False
    raise ValueError(f"unknown text test kind {test.kind!r}")
