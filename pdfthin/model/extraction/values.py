"""Found text turned into a field's value, one named rule at a time; text no rule reads is
not a value (the field stays ``null`` and says so), never a guess.

Numbers (:func:`number`):

- ``CURRENCY``: a currency sign or ISO code before or after the digits is dropped
  ($ € £ ¥ ₹, USD EUR GBP CHF JPY CAD AUD).
- ``PARENTHESES_NEGATIVE``: ``(15.00)`` is -15.00, as accounts print it; so is a leading or
  trailing minus (also the Unicode minus sign).
- ``LAST_SEPARATOR_DECIMAL``: with both ``,`` and ``.`` in a number, the last one is the
  decimal mark and the other groups thousands (``1,234.50`` and ``1.234,50`` are both 1234.5).
- ``REPEATED_SEPARATOR_GROUPS``: one separator met several times groups thousands
  (``1,234,567``).
- ``THREE_DIGITS_GROUP``: one separator, once, followed by exactly three digits and preceded
  by a group of one to three digits not ``0``, groups thousands (``1,234`` and ``1.234`` are
  1234); followed by other than three digits it is the decimal mark (``12,5``, ``0.125``).
- ``APOSTROPHE_GROUPS``: ``'`` and narrow or no-break spaces only ever group (``1'234.50``);
  an ordinary space groups only when the text is that one number (``1 234,50``), since in a
  line "2 100.00" is a quantity and a price.

Dates (:func:`date`), to ISO 8601 (``YYYY-MM-DD``):

- ``ISO_DATE``: ``2024-03-02`` and ``2024/03/02``, year first.
- ``DOTTED_DAY_FIRST``: ``02.03.2024`` is day, month, year (the European dotted form).
- ``SLASHED_ORDER``: ``03/02/2024`` (or with ``-``) is day first when the first number is
  over 12, month first when the second is; when both could be months it is ambiguous, and the
  field stays ``null`` unless the schema says ``x-date-order``.
- ``MONTH_NAME``: ``2 March 2024``, ``2nd Mar. 2024``, ``March 2, 2024``, ``2-Mar-2024``
  (English month names and their three-letter forms, and ``Sept``).
- ``TWO_DIGIT_YEAR``: ``24`` is 2024 and ``85`` is 1985 (below 70 is this century: the POSIX
  ``%y`` rule).

Booleans (:func:`boolean`): ``yes``/``no``, ``true``/``false``, ``y``/``n``, ``on``/``off``,
``checked``/``unchecked``, ``x`` alone, and the marks ☒ ☑ ✓ ✔ ✗ (ticked) and ☐ (empty).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from pdfthin.model.extraction.labels import normalise

if TYPE_CHECKING:
    from pdfthin.model.extraction.schema import DateOrder


@dataclass(frozen=True, slots=True)
class Parsed:
    value: str | int | float | bool
    #: The text the value was read from, as it stands on the page.
    raw: str
    #: The rule that read it (one of the names above), for the answer's ``rule``.
    rule: str


@dataclass(frozen=True, slots=True)
class Unparsed:
    #: ``no_number``, ``not_an_integer``, ``no_date``, ``ambiguous_date``, ``not_a_boolean``,
    #: ``not_in_enum``.
    reason: str
    message: str


# --- numbers ------------------------------------------------------------------------------------

_CURRENCY = r"(?:[$€£¥₹]|USD|EUR|GBP|CHF|JPY|CAD|AUD)"
_GROUPING = "'\u00a0\u202f\u2009"
_NUMBER = re.compile(
    rf"(?P<open>\()?\s?(?P<lead>[-−])?\s?{_CURRENCY}?\s?(?P<sign>[-−])?"
    rf"(?P<digits>\d[\d,.{_GROUPING}]*\d|\d)"
    rf"\s?{_CURRENCY}?(?P<close>\))?(?P<trail>-(?!\d))?"
)
_SPACED = re.compile(
    rf"^\(?\s?[-−]?\s?{_CURRENCY}?\s?[-−]?\d{{1,3}}(?: \d{{3}})+(?:[.,]\d+)?"
    rf"\s?{_CURRENCY}?\)?-?$"
)


def number(text: str, integer: bool = False) -> Parsed | Unparsed:
    """The first number in ``text`` by the rules above (an integer field takes only an
    integral one)."""
    stripped = text.strip()
    spaced = _SPACED.match(stripped)
    subject = stripped.replace(" ", "\u00a0") if spaced else stripped
    for m in _NUMBER.finditer(subject):
        digits = m.group("digits")
        value = _digits_value(digits)
        if value is None:
            continue
        negative = bool(m.group("lead") or m.group("sign") or m.group("trail"))
        rule = "LAST_SEPARATOR_DECIMAL" if ("," in digits and "." in digits) else "NUMBER"
        if m.group("open") and m.group("close"):
            negative, rule = True, "PARENTHESES_NEGATIVE"
        raw = stripped[m.start() : m.end()].strip()
        if raw.startswith("(") and not raw.endswith(")"):
            raw = raw[1:].strip()
        if negative:
            value = -value
        if integer:
            if value != value.to_integral_value():
                return Unparsed("not_an_integer", f"{raw!r} is not an integer")
            return Parsed(int(value), raw, rule)
        return Parsed(float(value), raw, rule)
    return Unparsed("no_number", f"no number in {_shown(text)}")


def _digits_value(digits: str) -> Decimal | None:
    """The number ``digits`` writes (only digits and separators), by the separator rules."""
    for ch in _GROUPING:
        digits = digits.replace(ch, "")
    marks = [ch for ch in digits if ch in ",."]
    if marks:
        if len(set(marks)) == 2:
            decimal = marks[-1]
            if digits.count(decimal) > 1:
                return None
            digits = digits.replace("," if decimal == "." else ".", "").replace(decimal, ".")
        elif len(marks) > 1:
            groups = digits.split(marks[0])
            if any(len(g) != 3 for g in groups[1:]) or not 1 <= len(groups[0]) <= 3:
                return None
            digits = "".join(groups)
        else:
            head, tail = digits.split(marks[0])
            if len(tail) == 3 and 1 <= len(head) <= 3 and head != "0":
                digits = head + tail
            else:
                digits = head + "." + tail
    try:
        return Decimal(digits)
    except InvalidOperation:
        return None


# --- dates --------------------------------------------------------------------------------------

_MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = r"(?P<month>[A-Za-z]{3,9})\.?"
_ISO = re.compile(r"(?<!\d)(?P<y>\d{4})[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})(?!\d)")
_NUMERIC = re.compile(
    r"(?<![\d.])(?P<a>\d{1,2})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)"
    r"(?P<y>\d{4}|\d{2})(?![\d])"
)
_DAY_MONTH = re.compile(
    rf"(?<!\d)(?P<d>\d{{1,2}})(?:st|nd|rd|th)?[ -]+{_MONTH},?[ -]+"
    r"(?P<y>\d{4})(?!\d)"
)
_MONTH_DAY = re.compile(
    rf"\b{_MONTH}[ -]+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?[ -]+"
    r"(?P<y>\d{4})(?!\d)"
)


def date(text: str, order: DateOrder | None = None) -> Parsed | Unparsed:
    """The first date in ``text`` by the rules above, as ``YYYY-MM-DD``."""
    found: list[tuple[int, Parsed | Unparsed]] = []
    for m in _ISO.finditer(text):
        found.append(
            (
                m.start(),
                _make(
                    m.group(0), int(m.group("y")), int(m.group("m")), int(m.group("d")), "ISO_DATE"
                ),
            )
        )
        break
    for m in _NUMERIC.finditer(text):
        a, b, year = int(m.group("a")), int(m.group("b")), _year(m.group("y"))
        raw = m.group(0)
        if m.group("sep") == ".":
            found.append((m.start(), _make(raw, year, b, a, "DOTTED_DAY_FIRST")))
        elif a > 12 or order == "DMY":
            found.append((m.start(), _make(raw, year, b, a, "SLASHED_ORDER")))
        elif b > 12 or order == "MDY":
            found.append((m.start(), _make(raw, year, a, b, "SLASHED_ORDER")))
        else:
            found.append(
                (
                    m.start(),
                    Unparsed(
                        "ambiguous_date",
                        f"{raw!r} could be day or month first; give the field x-date-order "
                        "('DMY' or 'MDY')",
                    ),
                )
            )
        break
    for pattern in (_DAY_MONTH, _MONTH_DAY):
        for m in pattern.finditer(text):
            month = _MONTHS.get(m.group("month").lower())
            if month is None:
                continue
            found.append(
                (
                    m.start(),
                    _make(m.group(0), int(m.group("y")), month, int(m.group("d")), "MONTH_NAME"),
                )
            )
            break
    usable = [f for f in found if isinstance(f[1], Parsed)] or found
    if not usable:
        return Unparsed("no_date", f"no date in {_shown(text)}")
    return min(usable, key=lambda f: f[0])[1]


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:  # TWO_DIGIT_YEAR
        year += 2000 if year < 70 else 1900
    return year


def _make(raw: str, year: int, month: int, day: int, rule: str) -> Parsed | Unparsed:
    try:
        when = datetime.date(year, month, day)
    except ValueError:
        return Unparsed("no_date", f"{raw!r} is not a calendar date")
    return Parsed(when.isoformat(), raw.strip(), rule)


# --- booleans -----------------------------------------------------------------------------------

_TRUE_MARKS = "☒☑✓✔✗✘"
_FALSE_MARKS = "☐"
_TRUE_WORDS = frozenset({"yes", "y", "true", "x", "checked", "on"})
_FALSE_WORDS = frozenset({"no", "n", "false", "unchecked", "off"})


def boolean(text: str) -> Parsed | Unparsed:
    """``text`` as a yes or a no: a mark, or a yes/no word standing alone."""
    stripped = text.strip()
    if stripped[:1] in _TRUE_MARKS:
        return Parsed(True, stripped[:1], "CHECK_MARK")
    if stripped[:1] in _FALSE_MARKS:
        return Parsed(False, stripped[:1], "CHECK_MARK")
    word = normalise(stripped)
    if stripped in ("[x]", "[X]") or word in _TRUE_WORDS:
        return Parsed(True, stripped, "YES_NO_WORD")
    if stripped == "[ ]" or word in _FALSE_WORDS:
        return Parsed(False, stripped, "YES_NO_WORD")
    return Unparsed("not_a_boolean", f"{_shown(text)} is not a yes or a no")


def choice(text: str, options: tuple[str, ...]) -> Parsed | Unparsed:
    """The option of ``options`` that ``text`` names (normalised, whole)."""
    seen = normalise(text)
    for option in options:
        if normalise(option) == seen:
            return Parsed(option, text.strip(), "ENUM")
    return Unparsed("not_in_enum", f"{_shown(text)} is none of the schema's enum values")


def _shown(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= 60 else text[:59] + "…")
