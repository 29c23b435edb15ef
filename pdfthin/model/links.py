"""Links in the page's Markdown: the text under a link to a web or mail address becomes a
Markdown link, ``[text](address)``, where the page makes it certain.

Certain means: the words under the link's boxes (:func:`pdfthin.layout.covered.covered_text`)
occur exactly once in the Markdown of the blocks the boxes touch, as written there (escapes and
line breaks aside). Anything less (words in another order, split by emphasis, repeated in the
block, under a code block) leaves the text as it was: a link is an addition, never a guess.
Only ``http``, ``https`` and ``mailto`` addresses are written; a ``javascript:`` or ``file:``
target, which a Markdown renderer might act on, stays text (``get_annotations`` lists every
link with its target). The page's plain text does not change, so search and anchors do not.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdfthin.layout.covered import Covering

if TYPE_CHECKING:
    from pdfthin.engine.types import PageLink, TextRun
    from pdfthin.model.markdown import Anchor

#: The addresses written as links (lower case, with their separator).
SCHEMES = ("http://", "https://", "mailto:")
#: Longer addresses stay out of the Markdown (a data: blob dressed as a web address...).
MAX_ADDRESS_CHARS = 2_000
#: Characters percent-encoded in an address: those that would end or break a Markdown link
#: destination, and spaces and controls.
_UNSAFE = frozenset(' ()<>\\"`') | {chr(c) for c in range(0x21)} | {"\x7f"}
#: Blocks whose text is never made a link (a code block shows its text as written).
_LITERAL = frozenset({"code"})
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: Brackets that close and open, and the punctuation that ends a sentence or a clause: a
#: link's box drawn a little wide takes the ")" or "." after an address, which is the
#: sentence's, not the link's.
_PAIRS = {")": "(", "]": "[", "}": "{"}
_TRAILING = frozenset(".,;:!?")
#: Characters of a page's Markdown that the search for its links' words may read in all (each
#: link's words are sought in the blocks under it: a page of thousands of links in one big
#: table would read that table once per link). Past it, the links left stay plain text on the
#: page (``get_annotations`` lists every link with its text either way).
MAX_LINK_SCAN_CHARS = 10_000_000


def destination(uri: str) -> str | None:
    """``uri`` as a Markdown link destination, or ``None`` when it is not written as one."""
    address = uri.strip()
    if not address.lower().startswith(SCHEMES) or len(address) > MAX_ADDRESS_CHARS:
        return None
    if address.lower() in SCHEMES:  # a scheme and nothing else
        return None
    return "".join(
        "".join(f"%{b:02X}" for b in ch.encode("utf-8")) if ch in _UNSAFE else ch for ch in address
    )


def _pattern(words: list[str]) -> re.Pattern[str]:
    """The words as the Markdown may show them: ASCII punctuation possibly escaped with a
    backslash, any run of white space (a line break too) between words."""
    parts = [
        "".join(("\\\\?" + re.escape(ch)) if ch in _PUNCTUATION else re.escape(ch) for ch in word)
        for word in words
    ]
    return re.compile(r"(?<![\w\\])" + r"\s+".join(parts) + r"(?!\w)")


def _touches(box: tuple[float, float, float, float], other: Sequence[float]) -> bool:
    return min(box[2], other[2]) > max(box[0], other[0]) and min(box[3], other[3]) > max(
        box[1], other[1]
    )


def _span(
    link: PageLink,
    markdown: str,
    anchors: Sequence[Anchor],
    covering: Covering,
    scan: list[int],
) -> tuple[int, int] | None:
    """Where the link's text stands in ``markdown``, when that is certain; ``scan`` holds
    what is left of the page's :data:`MAX_LINK_SCAN_CHARS` (spent here)."""
    words = _trimmed(covering.text(link.boxes)).split()
    if not words:
        return None
    pattern = _pattern(words)
    found: list[tuple[int, int]] = []
    for anchor in anchors:
        if anchor.kind in _LITERAL or not any(_touches(b, anchor.box) for b in link.boxes):
            continue
        if anchor.length > scan[0]:
            return None
        scan[0] -= anchor.length
        block = markdown[anchor.offset : anchor.offset + anchor.length]
        for m in pattern.finditer(block):
            found.append((anchor.offset + m.start(), anchor.offset + m.end()))
            if len(found) > 1:
                return None  # the words stand twice: not certain
    if len(found) != 1:
        return None
    start, end = found[0]
    text = markdown[start:end]
    # Brackets in the text would end the link text early; a link already there stays alone.
    if "[" in text or "]" in text or "](" in markdown[end : end + 2]:
        return None
    return start, end


def _alone(found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The spans of ``found`` that overlap no other, in order: two links over the same words
    are neither certain. Sorted by start, a span overlaps a later one only if the next one
    starts before it ends, and an earlier one only if the furthest end before it passes its
    start (a page of thousands of links: comparing every pair cost their square)."""
    ordered = sorted(found)
    alone: list[tuple[int, int, str]] = []
    reach = -1  # the furthest end of the spans before
    for i, (start, end, target) in enumerate(ordered):
        after = i + 1 < len(ordered) and ordered[i + 1][0] < end
        if not after and reach <= start:
            alone.append((start, end, target))
        reach = max(reach, end)
    return alone


def _trimmed(text: str) -> str:
    """``text`` without the punctuation at its ends that is not the link's: a sentence's
    stop or comma after it, a closing bracket whose opening one is not in it, an opening
    bracket whose closing one is not ("(help@gnu.org)" under a box around the address and
    its ")")."""
    text = text.strip()
    while text:
        last = text[-1]
        if last in _TRAILING or (last in _PAIRS and text.count(_PAIRS[last]) < text.count(last)):
            text = text[:-1].rstrip()
            continue
        first = text[0]
        closer = next((c for c, o in _PAIRS.items() if o == first), None)
        if closer is not None and text.count(closer) < text.count(first):
            text = text[1:].lstrip()
            continue
        break
    return text


def with_links(
    markdown: str,
    anchors: list[Anchor],
    image_offsets: tuple[int, ...],
    links: Sequence[PageLink],
    runs: Sequence[TextRun],
) -> tuple[str, list[Anchor], tuple[int, ...]]:
    """The page's Markdown with its links written as Markdown links where certain, its
    anchors and image offsets moved along."""
    found: list[tuple[int, int, str]] = []
    covering = Covering(runs)
    scan = [MAX_LINK_SCAN_CHARS]
    for link in links:
        target = destination(link.uri)
        span = _span(link, markdown, anchors, covering, scan) if target is not None else None
        if target is not None and span is not None:
            found.append((*span, target))
    spans = _alone(found)
    if not spans:
        return markdown, anchors, image_offsets
    out: list[str] = []
    done = 0
    #: (position in the old Markdown, characters inserted there) in order.
    inserted: list[tuple[int, int]] = []
    for start, end, target in spans:
        out.append(markdown[done:start])
        out.append("[" + markdown[start:end] + "](" + target + ")")
        done = end
        inserted.append((start, 1))
        inserted.append((end, len(target) + 3))
    out.append(markdown[done:])

    # What was inserted up to each place, summed once (``inserted`` is in order).
    places = [at for at, _ in inserted]
    totals = [0, *itertools.accumulate(n for _, n in inserted)]

    def shift(offset: int, inclusive: bool) -> int:
        """``offset`` in the new Markdown: after what was inserted before it (at it too, when
        ``inclusive``: a block's end takes the closing part of a link that ends it)."""
        before = (bisect.bisect_right if inclusive else bisect.bisect_left)(places, offset)
        return offset + totals[before]

    moved: list[Anchor] = []
    for anchor in anchors:
        start = shift(anchor.offset, False)
        end = shift(anchor.offset + anchor.length, True)
        moved.append(anchor.spanning(start, end - start))
    offsets = tuple(shift(at, False) for at in image_offsets)
    return "".join(out), moved, offsets
