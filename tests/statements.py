"""Generated pages of the kind that break whitespace table detection: financial statements
(a label column, one column per period, ``$`` signs in a narrow column of their own,
right-aligned numbers, no rules) and a newspaper page of narrow text columns.

Everything is drawn in Helvetica with each piece placed by ``Td``, as a typesetting program
places table cells; numbers are right-aligned on their column's right edge with Helvetica's
own advance widths, so their right edges line up exactly as in a real statement.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pdfbuilder import PdfBuilder

#: Helvetica advance widths (thousandths of an em) of what statements print.
_WIDTHS = {
    **dict.fromkeys("0123456789$", 556),
    ",": 278,
    ".": 278,
    "(": 333,
    ")": 333,
    "-": 333,
    " ": 278,
    "%": 889,
    "—": 1000,
}


def width(text: str, size: float) -> float:
    """The advance of ``text`` in Helvetica at ``size`` (characters not listed count as 556)."""
    return sum(_WIDTHS.get(ch, 556) for ch in text) * size / 1000.0


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


@dataclass
class Canvas:
    """Pieces of text at absolute places (baseline ``y`` measured from the top), and rules."""

    height: float = 792.0
    texts: list[tuple[str, float, float, float, bool]] = field(default_factory=list)
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)
    #: Rows drawn as one ``TJ`` array each: (pieces with their x, baseline y, size, word
    #: spacing).
    arrays: list[tuple[list[tuple[str, float]], float, float, float]] = field(default_factory=list)

    def text(self, text: str, x: float, y: float, size: float = 9.0, bold: bool = False) -> None:
        self.texts.append((text, x, y, size, bold))

    def right(self, text: str, x1: float, y: float, size: float = 9.0, bold: bool = False) -> None:
        """``text`` ending at ``x1`` (a right-aligned cell)."""
        self.text(text, x1 - width(text, size), y, size, bold)

    def array(
        self, pieces: list[tuple[str, float]], y: float, size: float = 9.0, spacing: float = 0.0
    ) -> None:
        """``pieces`` (text, x) drawn by one ``TJ`` array, each moved to its x by a
        displacement after the one before: how some producers set a whole table row.
        ``spacing`` is the word spacing (``Tw``, points) every space of the row is set with."""
        self.arrays.append((pieces, y, size, spacing))

    def rule(self, x0: float, y: float, x1: float) -> None:
        self.rules.append((x0, y, x1, y))

    def content(self) -> bytes:
        parts = []
        for text, x, y, size, bold in self.texts:
            font = "F2" if bold else "F1"
            parts.append(
                f"BT /{font} {size:g} Tf 1 0 0 1 {x:.2f} {self.height - y:.2f} Tm "
                f"({_escape(text)}) Tj ET"
            )
        for pieces, y, size, spacing in self.arrays:
            (first, x), *rest = pieces
            items = [f"({_escape(first)})"]
            end = x + width(first, size) + spacing * first.count(" ")
            for text, at in rest:
                items.append(f"{-(at - end) / size * 1000:.1f} ({_escape(text)})")
                end = at + width(text, size) + spacing * text.count(" ")
            parts.append(
                f"BT /F1 {size:g} Tf {spacing:.3f} Tw 1 0 0 1 {x:.2f} {self.height - y:.2f} Tm "
                f"[{' '.join(items)}] TJ ET"
            )
        for x0, y, x1, _ in self.rules:
            parts.append(
                f"0.5 w {x0:.2f} {self.height - y:.2f} m {x1:.2f} {self.height - y:.2f} l S"
            )
        return "\n".join(parts).encode("cp1252")


def pdf(*canvases: Canvas) -> bytes:
    b = PdfBuilder()
    fonts = {
        "F1": b.font_standard("Helvetica", encoding="/WinAnsiEncoding"),
        "F2": b.font_standard("Helvetica-Bold", encoding="/WinAnsiEncoding"),
    }
    for canvas in canvases:
        b.add_page(canvas.content(), {"Font": fonts})
    return b.build()


# --- a financial statement ----------------------------------------------------------------------

#: (label, indent level, values per period; ``None`` for a label-only row). A value starting
#: with ``$`` gets its dollar sign in the narrow column before the number.
STATEMENT: list[tuple[str, int, list[str] | None]] = [
    ("Current assets:", 0, None),
    ("Cash and cash equivalents", 1, ["$14,259", "$13,931", "$12,004", "$9,880"]),
    ("Short-term investments", 1, ["5,227", "4,890", "3,115", "2,760"]),
    ("Accounts receivable, net", 1, ["23,188", "21,456", "20,317", "18,902"]),
    ("Inventories", 1, ["3,467", "4,061", "2,908", "3,310"]),
    ("Other current assets", 1, ["1,052", "(338)", "976", "(1,204)"]),
    ("Total current assets", 2, ["47,193", "44,000", "39,320", "33,648"]),
    ("Property and equipment, net", 0, ["9,874", "9,115", "8,422", "7,730"]),
    ("Goodwill", 0, ["1,235", "1,235", "1,180", "1,180"]),
    ("Deferred income taxes", 0, ["(412)", "(390)", "207", "(45)"]),
    ("Total assets", 0, ["$57,890", "$53,960", "$49,129", "$42,513"]),
]
PERIODS = [
    ("March 31,", "2024"),
    ("December 31,", "2023"),
    ("March 31,", "2023"),
    ("June 30,", "2022"),
]


def statement(
    canvas: Canvas,
    top: float,
    periods: int = 4,
    *,
    column_gap_em: float = 3.0,
    header_rules: bool = False,
    size: float = 9.0,
    left: float = 72.0,
) -> float:
    """A balance sheet fragment from ``top`` (the first baseline); returns the last baseline.

    Labels start at ``left`` (sub-labels indented an em per level); each period's numbers are
    right-aligned on their column's right edge, columns ``column_gap_em`` ems apart (between
    the widest number of one column and the ``$`` of the next), ``$`` in a column of its own
    at the column's left. The header names each period over two lines."""
    pitch = 1.35 * size
    label_width = 190.0
    number = width("$57,890", size)
    # A column is as wide as its widest entry (a header's line or the widest number).
    widest = max([number] + [width(text, size) * 1.1 for pair in PERIODS for text in pair])
    column = widest + column_gap_em * size
    rights = [left + label_width + column * (k + 1) for k in range(periods)]
    y = top
    for line in range(2):
        for k in range(periods):
            text = PERIODS[k][line]
            canvas.right(text, rights[k], y, size, bold=True)
        y += pitch
    if header_rules:
        for k in range(periods):
            canvas.rule(rights[k] - number, y - pitch + 0.4 * size, rights[k])
    for label, level, values in STATEMENT:
        canvas.text(label, left + level * size, y, size, bold=level == 2)
        for k, value in enumerate(values[:periods] if values else []):
            if value.startswith("$"):
                canvas.text("$", rights[k] - widest, y, size)
                value = value[1:]
            # Parenthesised negatives hang their ")" past the column's right edge.
            canvas.right(
                value, rights[k] + (width(")", size) if value.endswith(")") else 0), y, size
            )
        y += pitch
    return y - pitch


#: An income statement as filings print it: a header naming periods over three lines (a span
#: over two columns, the month, the year), sections of label-only rows, a label wrapped over
#: two lines, dashes for nothing, ``$`` far from short numbers.
INCOME: list[tuple[str, int, list[str] | None]] = [
    ("Revenues:", 0, None),
    ("Product", 1, ["$178", "$152", "$1,023", "$876"]),
    ("Services", 1, ["95", "88", "402", "371"]),
    ("Total revenues", 2, ["273", "240", "1,425", "1,247"]),
    ("Costs and expenses:", 0, None),
    ("Operating expenses:", 1, None),
    ("Cost of revenues", 2, ["112", "97", "588", "515"]),
    ("Research and development", 2, ["23.2", "10.3", "27.0", "19.8"]),
    ("Selling, general and administrative expenses, including", 2, None),
    ("stock-based compensation", 3, ["41", "39", "170", "158"]),
    ("Restructuring", 2, ["—", "5", "—", "12"]),
    ("Total costs and expenses", 1, ["176", "151", "785", "705"]),
    ("Income from operations", 0, ["97", "89", "640", "542"]),
    ("Other income (expense), net", 0, ["(4)", "2", "(11)", "7"]),
    ("Net income", 0, ["$93", "$91", "$629", "$549"]),
]


def income_statement(
    canvas: Canvas, top: float, *, column_gap_em: float = 1.0, size: float = 9.0
) -> float:
    """An income statement from ``top``; returns the last baseline. Four period columns, 6.5
    ems wide each (the width of "December 31,"), ``column_gap_em`` apart; the ``$`` of a
    value sits at its column's left edge, the number at its right edge."""
    pitch = 1.3 * size
    left, label_width = 54.0, 210.0
    column = 7.5 * size  # "September 30," in bold, and a little air
    rights = [left + label_width + (column + column_gap_em * size) * (k + 1) for k in range(4)]
    y = top
    for pair, title in enumerate(("Three Months Ended", "Nine Months Ended")):
        a, b = rights[2 * pair] - column, rights[2 * pair + 1]
        canvas.text(title, (a + b - width(title, size)) / 2, y, size, bold=True)
    y += pitch
    for k in range(4):
        month = "September 30," if k % 2 == 0 else "October 1,"
        canvas.right(month, rights[k], y, size, bold=True)
        canvas.right("2024" if k % 2 == 0 else "2023", rights[k], y + pitch, size, bold=True)
    y += 2 * pitch
    for label, level, values in INCOME:
        if level == 0 and values is None:
            y += 0.6 * pitch  # a little air before a section
        canvas.text(label, left + level * size, y, size)
        for k, value in enumerate(values or []):
            if value.startswith("$"):
                canvas.text("$", rights[k] - column, y, size)
                value = value[1:]
            hang = width(")", size) if value.endswith(")") else 0
            canvas.right(value, rights[k] + hang, y, size)
        y += pitch
    return y - pitch


PARAGRAPH = (
    "The following table presents the condensed consolidated balance sheets of the Company as "
    "of the dates indicated. Amounts are in thousands of dollars, except where otherwise noted, "
    "and reflect the adoption of the new accounting standard for all periods presented herein."
)


def paragraph(
    canvas: Canvas, text: str, x: float, y: float, column: float, size: float = 10.0
) -> float:
    """``text`` set ragged-right in a column ``column`` points wide; returns the last baseline."""
    line: list[str] = []
    for word in text.split():
        if line and width(" ".join([*line, word]), size) > column:
            canvas.text(" ".join(line), x, y, size)
            y += 1.2 * size
            line = []
        line.append(word)
    if line:
        canvas.text(" ".join(line), x, y, size)
    return y


NEWS = (
    "City council members voted on Tuesday to approve the long delayed budget for the coming "
    "year after a heated debate that lasted well into the night and drew a large crowd of "
    "residents who had come to speak about the proposed cuts to library hours and the transit "
    "service that many of them rely on every day to reach work and school across the region"
)


def newspaper(canvas: Canvas, columns: int = 4, top: float = 80.0) -> None:
    """A page of ``columns`` narrow text columns, each with a different story length."""
    left, right, gutter = 36.0, 576.0, 12.0
    col = (right - left - gutter * (columns - 1)) / columns
    words = NEWS.split()
    for k in range(columns):
        text = " ".join(words[k * 3 :] + words[: k * 3]) + " " + NEWS
        paragraph(canvas, text, left + k * (col + gutter), top, col, size=9.0)
