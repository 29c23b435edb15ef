"""The tiers of ``extract_schema``, run in order, each a named stage; a field answered by one
tier is not looked for by the next.

1. ``form_field``: an AcroForm field whose qualified name (or its last part) or label answers
   the field's labels. A matching field that is empty answers "empty", and the text is not
   searched for it (the form is where its value belongs).
2. ``text_pair``: "Label: value" on a line; "Label value" on a line (an exact label only:
   nothing marks where the label ends); a line that is only the label, with the value on the
   same baseline right of it or on the line just below it; a check mark before a label for a
   boolean ("☒ Paid").
3. ``key_value_table``: a row of a two-column table whose first cell is the label.
4. ``line_item_table`` (arrays only): a table whose header cells answer the item properties,
   one row per item, continued by tables with the same header on later pages.

Which of several candidates answers a field: exact label matches before subset matches, then
the first in reading order (page, top, left) whose text reads as the field's type. A label
found again with another value is reported (``also_found``, and a note) and lowers the
confidence; a subset match that two different page labels give is ambiguous and answers
nothing. Every distance is in ems of the label's line (:class:`Settings`).

Confidence is ``TIER_BASE[tier] × MATCH_FACTOR[match] × PLACE_FACTOR[place] ×
(REPEATED_FACTOR if the label was found with another value)``, rounded to two decimals:
it says how the value was found, not how likely a model thinks it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pdfthin.model.extraction import labels as lb
from pdfthin.model.extraction import values
from pdfthin.model.extraction.page_text import (
    Box,
    Table,
    TextLine,
    page_lines,
    page_tables,
    span_box,
)

if TYPE_CHECKING:
    from pdfthin.model.document import Page
    from pdfthin.model.extraction.schema import FieldSpec, SchemaSpec
    from pdfthin.model.forms import LabelledField

Tier = Literal["form_field", "text_pair", "key_value_table", "line_item_table"]
TIERS: tuple[Tier, ...] = ("form_field", "text_pair", "key_value_table", "line_item_table")
#: Where the value stood against its label.
Place = Literal["field", "after_colon", "same_line", "right", "below", "cell", "mark", "column"]

#: How direct each tier's evidence is: a form field holds its value by construction; a table's
#: key cell and a value in the next cell are set apart by the table; a label in running text
#: is the loosest.
TIER_BASE: dict[Tier, float] = {
    "form_field": 0.95,
    "key_value_table": 0.85,
    "line_item_table": 0.85,
    "text_pair": 0.8,
}
MATCH_FACTOR: dict[lb.Match, float] = {"exact": 1.0, "subset": 0.75}
#: A colon, a form field or a table cell says where the value is; a value found beside or
#: below a label is found by position.
PLACE_FACTOR: dict[Place, float] = {
    "field": 1.0,
    "after_colon": 1.0,
    "cell": 1.0,
    "column": 1.0,
    "mark": 1.0,
    "same_line": 0.95,
    "right": 0.9,
    "below": 0.85,
}
#: The label stood elsewhere with another value: the first in reading order was taken.
REPEATED_FACTOR = 0.8


def confidence(tier: Tier, match: lb.Match, place: Place, repeated: bool) -> float:
    """The documented confidence of a filled field (see the module's docstring)."""
    score = TIER_BASE[tier] * MATCH_FACTOR[match] * PLACE_FACTOR[place]
    return round(score * (REPEATED_FACTOR if repeated else 1.0), 2)


@dataclass(frozen=True, slots=True)
class Settings:
    """The thresholds, each in ems of the label's line (its height) unless named otherwise."""

    #: A value right of a label-only line starts at most this far from the label's end
    #: (forms set values in a column after labels of different lengths).
    right_gap_ems: float = 12.0
    #: Lines on one baseline: their middles differ by at most this much.
    baseline_ems: float = 0.5
    #: A value below a label starts at most this far under the label's bottom (a line's
    #: spacing and a little more) ...
    below_gap_ems: float = 1.2
    #: ... and its left edge is within this distance of the label's left edge.
    below_indent_ems: float = 2.0
    #: Words of a page label before a colon that are tried as the label.
    max_label_words: int = 8
    #: A string value longer than this is cut (ending in …): a field is a few words.
    max_value_chars: int = 300
    #: A line-item table needs this many item properties matched to its header (or all of
    #: them when the item has fewer).
    min_item_columns: int = 2
    #: A line-item table's row whose first cell opens with one of these words, and which
    #: leaves empty a column the items fill (their quantity), sums the items up: it is not an
    #: item, and its label and value answer scalar fields (the key/value tier reads it).
    summary_words: frozenset[str] = frozenset(
        {"total", "subtotal", "sub", "tax", "vat", "gst", "hst", "balance", "amount", "grand"}
        | {"discount", "shipping", "freight", "net", "gross", "sum", "due", "rounding"}
    )
    #: ... a column the items fill: at least this share of the table's other rows fill it.
    summary_filled_share: float = 0.5


@dataclass(slots=True)
class Filled:
    path: str
    value: Any
    raw: Any
    page: int
    bbox: Box | None
    tier: Tier
    confidence: float
    #: The page's label (a form field's name, a header cell) that answered the field.
    label: str
    match: lb.Match
    rule: str | None = None
    #: Other places the label stood with another value (the first in reading order answered).
    also_found: list[tuple[int, str]] = field(default_factory=list)
    #: Arrays: the header each item property was read from, and the pages of the tables.
    columns: dict[str, str] | None = None
    pages: list[int] | None = None


@dataclass(frozen=True, slots=True)
class Missing:
    path: str
    #: ``not_found``, ``not_found_coverage_incomplete``, ``empty_form_field``, ``ambiguous``,
    #: or a value's reason (:class:`.values.Unparsed`): ``no_number``, ``ambiguous_date``, ...
    reason: str
    message: str


@dataclass(slots=True)
class Extraction:
    filled: dict[str, Filled] = field(default_factory=dict)
    missing: list[Missing] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Candidate:
    page: int
    y: float
    x: float
    match: lb.Match
    place: Place
    page_label: str
    text: str
    box: Box | None
    tier: Tier
    #: A form field's value as the form holds it (not text): ``True``, a list of options.
    held: Any = None


# --- the run ------------------------------------------------------------------------------------


def extract(
    spec: SchemaSpec,
    pages: Sequence[Page],
    form: Sequence[LabelledField],
    *,
    coverage_complete: bool,
    settings: Settings = Settings(),
) -> Extraction:
    """Fill ``spec`` from ``pages`` (the readable pages in scope) and ``form`` (the form fields
    on them), tier after tier; ``coverage_complete`` is false when pages in scope could not be
    read, and a field not found then says it may stand there."""
    out = Extraction()
    lines = [ln for p in pages for ln in page_lines(p)]
    tables = [t for p in pages for t in page_tables(p)]
    # A table row read as a line, for its "Label: value" pairs only (the colon says where a
    # label ends; cells the layout gathered into a grid are not a line's words otherwise).
    rows = [TextLine(t.page, " ".join(c for c in r if c), t.box) for t in tables for r in t.rows]
    stages: list[tuple[Tier, Callable[[FieldSpec], list[_Candidate]]]] = [
        ("form_field", lambda f: _form_candidates(f, form)),
        ("text_pair", lambda f: _text_candidates(f, lines, rows, spec, settings)),
        ("key_value_table", lambda f: _table_candidates(f, tables)),
    ]
    for spec_field in spec.fields:
        if spec_field.kind == "array":
            _line_items(spec_field, tables, settings, out)
            continue
        problem: values.Unparsed | None = None
        for _tier, stage in stages:
            result = _choose(spec_field, stage(spec_field), settings, out)
            if result is None:
                continue
            if isinstance(result, Filled):
                out.filled[spec_field.path] = result
                problem = None
                break
            problem = result
            if result.reason in ("empty_form_field", "ambiguous"):
                break
        if spec_field.path in out.filled:
            continue
        if problem is not None:
            out.missing.append(Missing(spec_field.path, problem.reason, problem.message))
        else:
            out.missing.append(_not_found(spec_field.path, coverage_complete))
    return out


def _not_found(path: str, complete: bool) -> Missing:
    if complete:
        return Missing(path, "not_found", "no label for it on the pages in scope")
    return Missing(
        path,
        "not_found_coverage_incomplete",
        "no label for it on the pages that could be read; pages in scope need OCR or were "
        "read in part (see coverage), and it may stand there",
    )


def _parse(spec: FieldSpec, text: str, held: Any = None) -> values.Parsed | values.Unparsed:
    if held is not None and not isinstance(held, str):
        if isinstance(held, bool):
            if spec.kind == "boolean":
                return values.Parsed(held, "checked" if held else "unchecked", "FORM_CHECKBOX")
            text = "Yes" if held else "Off"
        elif isinstance(held, list):
            text = ", ".join(str(v) for v in held)
    if spec.kind in ("number", "integer"):
        return values.number(text, integer=spec.kind == "integer")
    if spec.kind == "date":
        return values.date(text, spec.date_order)
    if spec.kind == "boolean":
        return values.boolean(text)
    if spec.enum:
        return values.choice(text, spec.enum)
    return values.Parsed(text.strip(), text.strip(), "TEXT")


def _choose(
    spec: FieldSpec, found: list[_Candidate], settings: Settings, out: Extraction
) -> Filled | values.Unparsed | None:
    """The candidate that answers ``spec``: exact matches first, then reading order; the
    first whose text reads as the field's type. ``None`` when there is none."""
    if not found:
        return None
    exact = [c for c in found if c.match == "exact"]
    pool = exact or found
    if not exact:
        # A subset match is trusted only when one page label gives it.
        distinct = {lb.normalise(c.page_label) for c in pool}
        if len(distinct) > 1:
            listed = ", ".join(sorted({repr(c.page_label) for c in pool})[:4])
            return values.Unparsed(
                "ambiguous",
                f"several page labels contain its label ({listed}); none is its label exactly",
            )
    pool.sort(key=lambda c: (c.page, round(c.y, 1), c.x))
    if pool[0].tier == "form_field" and pool[0].held in (None, "", []):
        return values.Unparsed(
            "empty_form_field", f"the form field {pool[0].page_label!r} has no value"
        )
    parsed: list[tuple[_Candidate, values.Parsed]] = []
    first_problem: values.Unparsed | None = None
    for c in pool:
        p = _parse(spec, c.text, c.held)
        if isinstance(p, values.Parsed):
            parsed.append((c, p))
        elif first_problem is None:
            first_problem = p
    if not parsed:
        return first_problem
    chosen, value = parsed[0]
    others = [(c.page, str(p.value)) for c, p in parsed[1:] if p.value != value.value]
    if others:
        out.notes.append(
            f"{spec.path}: its label stands {len(others) + 1} times with different values; "
            f"the first in reading order (page {chosen.page}) answers, the others are in "
            "also_found"
        )
    shown: Any = value.value
    raw = value.raw
    if isinstance(shown, str) and len(shown) > settings.max_value_chars:
        shown = shown[: settings.max_value_chars - 1] + "…"
        raw = shown
    return Filled(
        path=spec.path,
        value=shown,
        raw=raw,
        page=chosen.page,
        bbox=chosen.box,
        tier=chosen.tier,
        confidence=confidence(chosen.tier, chosen.match, chosen.place, bool(others)),
        label=chosen.page_label,
        match=chosen.match,
        rule=value.rule,
        also_found=others[:10],
    )


# --- 1. form fields -----------------------------------------------------------------------------


def _form_candidates(spec: FieldSpec, form: Sequence[LabelledField]) -> list[_Candidate]:
    out: list[_Candidate] = []
    for f in form:
        if f.password or f.kind in ("signature", "button"):
            continue  # a masked value is not handed on; a signature or button holds none
        names = [f.name, f.name.rsplit(".", 1)[-1]]
        how: lb.Match | None = None
        for name in names:
            how = lb.match(name, spec.labels, spec.exact_labels)
            if how == "exact":
                break
        if how != "exact" and f.label:
            how = lb.match(f.label, spec.labels, spec.exact_labels) or how
        if how is None:
            continue
        value = f.value
        text = value if isinstance(value, str) else ""
        box = f.bbox
        out.append(
            _Candidate(
                page=f.page or 10**9,
                y=box[1] if box else 0.0,
                x=box[0] if box else 0.0,
                match=how,
                place="field",
                page_label=f.name,
                text=text,
                box=box,
                tier="form_field",
                held=value,
            )
        )
    return out


# --- 2. label and value in the text -------------------------------------------------------------

_MARK = re.compile(r"^\s*([☒☑✓✔✗✘☐]|\[[ xX]\])\s*(.+)$")
_LEADING_PUNCT = re.compile(r"^[\s:–—=-]+")


def _text_candidates(
    spec: FieldSpec,
    lines: Sequence[TextLine],
    rows: Sequence[TextLine],
    schema: SchemaSpec,
    s: Settings,
) -> list[_Candidate]:
    every_label = [label for f in schema.fields for label in f.labels]
    out = [c for row in rows if ":" in row.text for c in _colon_pairs(spec, row, every_label, s)]
    for i, line in enumerate(lines):
        text = line.text
        # A check mark before the label: "☒ Paid".
        mark = _MARK.match(text)
        if mark and spec.kind == "boolean":
            how = lb.match(mark.group(2).rstrip(":"), spec.labels, spec.exact_labels)
            if how:
                out.append(_at(line, how, "mark", mark.group(2), mark.group(1)))
                continue
        colon = text.find(":")
        if colon > 0:
            out.extend(_colon_pairs(spec, line, every_label, s))
            head = text[:colon]
            if lb.match(head, spec.labels, spec.exact_labels) and not text[colon + 1 :].strip():
                # "Label:" alone on its line: the value is right of it or below it.
                out.extend(_nearby(spec, line, lines, i, head, s))
            continue
        how_whole = lb.match(text, spec.labels, spec.exact_labels)
        if how_whole:
            out.extend(_nearby(spec, line, lines, i, text, s, how_whole))
            continue
        start = lb.starts_with(text, spec.labels)
        if start:
            end = lb.end_of_words(text, len(start.split()))
            rest = _LEADING_PUNCT.sub("", text[end:])
            if rest:
                out.append(_at(line, "exact", "same_line", text[:end], rest))
    return out


def _at(line: TextLine, how: lb.Match, place: Place, label: str, text: str) -> _Candidate:
    """A value on its label's line: ordered by the line's place, pointing at the value's own
    part of the line (after its label)."""
    value = text.strip()
    after = line.text.find(label.strip())
    after = after + len(label.strip()) if after >= 0 else 0
    at = line.text.find(value, after)
    box = span_box(line, at, at + len(value)) if at >= 0 else line.box
    return _Candidate(
        line.page,
        line.box[1],
        line.box[0],
        how,
        place,
        label.strip(),
        value,
        box,
        "text_pair",
    )


def _colon_pairs(
    spec: FieldSpec, line: TextLine, every_label: Sequence[str], s: Settings
) -> list[_Candidate]:
    """ "Label: value" pairs on one line ("Invoice: 12  Date: 2024-03-02" holds two): the
    label is the words before a colon (the fewest that match, else none); the value runs to
    the next pair's label: a field's label before the next colon, else that colon's last word."""
    text = line.text
    colons = [m.start() for m in re.finditer(r":(?!\d)", text)]
    out: list[_Candidate] = []
    start = 0
    for k, colon in enumerate(colons):
        before = text[start:colon]
        label, how = _label_before(before, spec, s)
        end = colons[k + 1] if k + 1 < len(colons) else len(text)
        segment = text[colon + 1 : end]
        value_end = len(segment)
        if k + 1 < len(colons):
            value_end = _next_label_start(segment, every_label, s)
        if how is not None and label is not None:
            value = segment[:value_end].strip()
            if value:
                out.append(_at(line, how, "after_colon", label, value))
        start = colon + 1 + value_end
    return out


def _label_before(before: str, spec: FieldSpec, s: Settings) -> tuple[str | None, lb.Match | None]:
    """The label of a colon: the last words before it that answer the field (exact preferred,
    the most words first)."""
    raw_words = list(re.finditer(r"\S+", before))
    best: tuple[str | None, lb.Match | None] = (None, None)
    for n in range(min(len(raw_words), s.max_label_words), 0, -1):
        phrase = before[raw_words[-n].start() :]
        how = lb.match(phrase, spec.labels, spec.exact_labels)
        if how == "exact":
            return phrase.strip(), how
        if how == "subset" and best[1] is None and n == len(raw_words):
            best = (phrase.strip(), how)  # a subset only over all the words before the colon
    return best


def _next_label_start(segment: str, every_label: Sequence[str], s: Settings) -> int:
    """Where the next pair's label starts in ``segment`` (the text between two colons)."""
    raw_words = list(re.finditer(r"\S+", segment))
    for n in range(min(len(raw_words) - 1, s.max_label_words), 0, -1):
        phrase = segment[raw_words[-n].start() :]
        if lb.match(phrase, every_label) == "exact":
            return raw_words[-n].start()
    return raw_words[-1].start() if len(raw_words) > 1 else len(segment)


def _nearby(
    spec: FieldSpec,
    label_line: TextLine,
    lines: Sequence[TextLine],
    index: int,
    label: str,
    s: Settings,
    how: lb.Match | None = None,
) -> list[_Candidate]:
    """A value for a label that stands alone: the nearest line on its baseline right of it,
    else the line just below it, starting under it."""
    how = how or lb.match(label, spec.labels, spec.exact_labels)
    if how is None:
        return []
    em = label_line.em
    x0, y0, x1, y1 = label_line.box
    middle = (y0 + y1) / 2
    right: list[tuple[float, TextLine]] = []
    below: list[tuple[float, TextLine]] = []
    for other in lines:
        if other is label_line or other.page != label_line.page:
            continue
        ox0, oy0, _, oy1 = other.box
        if abs((oy0 + oy1) / 2 - middle) <= s.baseline_ems * em and ox0 >= x1:
            gap = ox0 - x1
            if gap <= s.right_gap_ems * em:
                right.append((gap, other))
        elif 0 <= oy0 - y1 <= s.below_gap_ems * em and abs(ox0 - x0) <= s.below_indent_ems * em:
            below.append((oy0 - y1, other))
    out: list[_Candidate] = []
    if right:
        nearest = min(right, key=lambda g: g[0])[1]
        out.append(_beside(label_line, nearest, how, "right", label))
    elif below:
        nearest = min(below, key=lambda g: g[0])[1]
        out.append(_beside(label_line, nearest, how, "below", label))
    return out


def _beside(
    label_line: TextLine, value_line: TextLine, how: lb.Match, place: Place, label: str
) -> _Candidate:
    """A value on its own line: ordered by its label's place, pointing at the value's box."""
    x0, y0 = label_line.box[0], label_line.box[1]
    return _Candidate(
        label_line.page,
        y0,
        x0,
        how,
        place,
        label.strip().rstrip(":"),
        value_line.text,
        value_line.box,
        "text_pair",
    )


# --- 3. key/value tables ------------------------------------------------------------------------


def _table_candidates(spec: FieldSpec, tables: Sequence[Table]) -> list[_Candidate]:
    """A table cell that is the label (a trailing colon aside) and the next non-empty cell
    of its row, the value: a two-column key/value table, and the label/value cells the
    layout gathered into a wider grid."""
    out: list[_Candidate] = []
    for table in tables:
        for row in table.rows:
            for i, cell in enumerate(row):
                how = lb.match(cell.rstrip(":"), spec.labels, spec.exact_labels)
                value = next((c for c in row[i + 1 :] if c), "")
                if how and value:
                    out.append(
                        _Candidate(
                            table.page,
                            table.box[1],
                            table.box[0],
                            how,
                            "cell",
                            cell,
                            value,
                            table.box,
                            "key_value_table",
                        )
                    )
                    break
    return out


# --- 4. line-item tables ------------------------------------------------------------------------


def _columns(spec: FieldSpec, header: Sequence[str]) -> dict[str, tuple[int, lb.Match]]:
    """Item property -> (column, match): exact header matches first, then a subset match
    that one column alone gives; each column answers one property."""
    taken: set[int] = set()
    out: dict[str, tuple[int, lb.Match]] = {}
    order: tuple[lb.Match, ...] = ("exact", "subset")
    for wanted in order:
        for item in spec.items:
            if item.path in out:
                continue
            hits = [
                i
                for i, cell in enumerate(header)
                if i not in taken and lb.match(cell, item.labels, item.exact_labels) == wanted
            ]
            if len(hits) == 1 or (hits and wanted == "exact"):
                out[item.path] = (hits[0], wanted)
                taken.add(hits[0])
    return out


def _line_items(spec: FieldSpec, tables: Sequence[Table], s: Settings, out: Extraction) -> None:
    need = min(s.min_item_columns, len(spec.items))
    best: tuple[int, Table, dict[str, tuple[int, lb.Match]]] | None = None
    for table in tables:
        for at, row in enumerate(table.rows):
            mapping = _columns(spec, row)
            if len(mapping) >= need and (best is None or len(mapping) > best[0]):
                # The layout may gather lines above the header into its table: the rows
                # before the header are not items.
                best = (len(mapping), Table(table.page, table.box, table.rows[at:]), mapping)
    if best is None:
        out.missing.append(
            Missing(
                spec.path,
                "not_found",
                "no table whose header names its item properties on the pages in scope",
            )
        )
        return
    _, first, mapping = best
    header = lb.words(" ".join(first.rows[0]))
    # The table, and its continuations: tables on later pages with the same header.
    chosen = [first] + [
        t for t in tables if t.page > first.page and lb.words(" ".join(t.rows[0])) == header
    ]
    items: list[dict[str, Any]] = []
    raws: list[dict[str, str]] = []
    by_path = {item.path: item for item in spec.items}
    for table in chosen:
        body = table.rows[1:]
        summaries = _summary_rows(body, [c for c, _ in mapping.values()], s)
        for r, row in enumerate(body):
            cells = {p: row[c] if c < len(row) else "" for p, (c, _) in mapping.items()}
            if not any(cells.values()) or r in summaries:
                continue
            item: dict[str, Any] = {}
            for path, item_spec in by_path.items():
                text = cells.get(path, "")
                if not text:
                    item[path] = None
                    continue
                parsed = _parse(item_spec, text)
                if isinstance(parsed, values.Parsed):
                    item[path] = parsed.value
                else:
                    item[path] = None
                    out.missing.append(
                        Missing(f"{spec.path}[{len(items)}].{path}", parsed.reason, parsed.message)
                    )
            items.append(item)
            raws.append({p: t for p, t in cells.items() if t})
    unmatched = [p for p in by_path if p not in mapping]
    for p in unmatched:
        out.missing.append(
            Missing(f"{spec.path}[].{p}", "not_found", "no column of the table's header names it")
        )
    share = sum(MATCH_FACTOR[m] for _, m in mapping.values()) / len(mapping)
    out.filled[spec.path] = Filled(
        path=spec.path,
        value=items,
        raw=raws,
        page=first.page,
        bbox=first.box,
        tier="line_item_table",
        confidence=round(TIER_BASE["line_item_table"] * share, 2),
        label=" | ".join(first.rows[0]),
        match="exact" if share == 1.0 else "subset",
        columns={p: first.rows[0][c] for p, (c, _) in mapping.items()},
        pages=sorted({t.page for t in chosen}),
    )


def _summary_rows(rows: Sequence[tuple[str, ...]], columns: Sequence[int], s: Settings) -> set[int]:
    """The rows of a line-item table's body that sum its items up ("Subtotal", "Tax",
    "Balance due"): a summary word opens the row's first non-empty cell, and a column that
    most other rows fill (the items' quantity) is empty in it."""

    def filled(row: tuple[str, ...], column: int) -> bool:
        return column < len(row) and bool(row[column].strip())

    labelled = {
        r
        for r, row in enumerate(rows)
        for first in (next((c for c in row if c.strip()), ""),)
        if first and lb.words(first)[:1] and lb.words(first)[0] in s.summary_words
    }
    out: set[int] = set()
    for r in labelled:
        others = [row for k, row in enumerate(rows) if k not in labelled]
        if not others:
            continue
        for column in columns:
            share = sum(filled(row, column) for row in others) / len(others)
            if share >= s.summary_filled_share and not filled(rows[r], column):
                out.add(r)
                break
    return out
