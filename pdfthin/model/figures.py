"""Where a page's images stand in its Markdown: a reference to each, in reading order, so an
agent reading a page or a section sees that there is a figure and can fetch it by its id.

A reference is an image in Markdown's own syntax,
``![image p3-x12 (640×480 px)](pdfthin:image/p3-x12)``: its alt text names the id
``get_image`` takes and the picture's size in pixels, its address the same id under the
``pdfthin:`` scheme (nothing a renderer would fetch from the network).
It is placed after the last block of text above the image that shares its column, else before
the first block of its column below it, else by height on the page; tiny images (rules,
bullets, spacers) are left out, as ``list_images`` marks them decorative.

Image ids are made here (:func:`placement_ids`), as ``list_images`` and ``get_image`` give them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdfthin.engine import ImagePlacement
    from pdfthin.model.markdown import Anchor

#: A reference as :func:`reference` writes it (ids hold no ``]`` or ``)``).
REFERENCE = re.compile(r"!\[image p\d+-[^\]\n]*\]\(pdfthin:image/[^)\s]*\)")
#: Smaller than this on the page (points, either side): tiny.
TINY_POINTS = 2.0
#: Pixels or fewer in all: tiny, whatever its size on the page (a spacer stretched).
TINY_PIXELS = 4


def placement_ids(page: int, placements: Sequence[ImagePlacement]) -> list[str]:
    """The ids of a page's image placements, in drawing order: ``p{page}-x{object}`` (then
    ``-2``, ``-3``... for later placements of the same object), ``p{page}-i{n}`` for inline
    images, ``p{page}-d{n}`` for image XObjects that are not indirect objects."""
    seen: dict[str, int] = defaultdict(int)
    inline = 0
    direct = 0
    out = []
    for p in placements:
        if p.inline:
            inline += 1
            out.append(f"p{page}-i{inline}")
            continue
        if p.ref is None:
            direct += 1
            out.append(f"p{page}-d{direct}")
            continue
        number, generation = p.ref
        base = f"p{page}-x{number}" + (f".{generation}" if generation else "")
        seen[base] += 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def is_tiny(placement: ImagePlacement) -> bool:
    x0, y0, x1, y1 = placement.bbox
    return min(x1 - x0, y1 - y0) < TINY_POINTS or placement.width * placement.height <= TINY_PIXELS


def reference(image_id: str, placement: ImagePlacement) -> str:
    return (
        f"![image {image_id} ({placement.width}×{placement.height} px)](pdfthin:image/{image_id})"
    )


def _place(anchors: Sequence[Anchor], box: tuple[float, float, float, float]) -> int:
    """The index of the block the image goes before (``len(anchors)``: after the last)."""
    x0, y0, x1, y1 = box
    middle = (y0 + y1) / 2
    column = [i for i, a in enumerate(anchors) if min(x1, a.box[2]) > max(x0, a.box[0])]
    above = [i for i in column if (anchors[i].box[1] + anchors[i].box[3]) / 2 < middle]
    if above:
        return max(above) + 1
    if column:
        return min(column)
    higher = [i for i, a in enumerate(anchors) if a.box[1] < y0]
    return max(higher) + 1 if higher else 0


def with_figures(
    markdown: str,
    anchors: list[Anchor],
    page: int,
    images: Sequence[ImagePlacement],
    in_drawing_order: bool = False,
) -> tuple[str, list[Anchor], tuple[int, ...]]:
    """The page's Markdown with a reference to each image that is not tiny, its anchors moved
    along, and where each image stands in it (in drawing order: its reference's offset, or
    for a tiny image where its reference would be). ``in_drawing_order`` puts them all at
    the end (a page laid out turned, whose reading order is not the displayed page's)."""
    ids = placement_ids(page, images)
    at = [len(anchors) if in_drawing_order else _place(anchors, p.bbox) for p in images]
    placed: dict[int, list[int]] = defaultdict(list)  # block index -> images before it
    for index, block in enumerate(at):
        placed[block].append(index)
    out: list[str] = []
    moved: list[Anchor] = []
    offsets = [0] * len(images)
    length = 0  # of what ``out`` holds
    done = 0  # how much of ``markdown`` it holds

    def put(text: str) -> None:
        nonlocal length
        out.append(text)
        length += len(text)

    def insert(block: int, lead: str, trail: str) -> None:
        refs = [i for i in placed.get(block, ()) if not is_tiny(images[i])]
        # A tiny image stands where the references would: with them, else at the end of
        # what comes before (inside the text before a heading, as a reference would be).
        for i in placed.get(block, ()):
            offsets[i] = length + len(lead) if refs else max(0, length - 1)
        if refs:
            put(lead)
            for n, i in enumerate(refs):
                offsets[i] = length
                put(("\n\n" if n else "") + reference(ids[i], images[i]))
            put(trail)

    for block, anchor in enumerate(anchors):
        put(markdown[done : anchor.offset])
        done = anchor.offset
        # A blank line on each side: a reference after a list item must not join it.
        lead = "" if anchor.offset == 0 or markdown.endswith("\n\n", 0, anchor.offset) else "\n"
        insert(block, lead, "\n\n")
        moved.append(anchor.moved(length) if length != anchor.offset else anchor)
    put(markdown[done:])
    insert(len(anchors), "\n\n" if markdown else "", "")
    return "".join(out), moved, tuple(offsets)
