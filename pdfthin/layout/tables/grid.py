"""Ruled grids: the cell lattice a page draws with horizontal and vertical rules.

Rules that touch form one connected structure; each structure with column and row lines is a
candidate grid. Its boundaries are the distinct rule positions, and each boundary records
where a rule actually runs along it: a boundary without a rule through a cell is a merged
(spanning) cell. Pure geometry: rules in, grids out.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

Rule = tuple[float, float, float, float]

#: Rules this close (points) across their direction are the same line (a cell border drawn
#: once per neighbouring cell, or a hairline drawn as a thin filled box).
SAME_LINE = 1.2
#: Collinear rules with a gap at most this wide are one line.
JOIN_GAP = 2.5
#: A vertical and a horizontal rule this close are connected.
TOUCH = 2.5
#: Boundaries closer than this are one (double rules around a table frame).
MIN_CELL = 4.0
#: More rules than this after merging: a vector drawing, not a table.
MAX_SEGMENTS = 4000


@dataclass(slots=True)
class Grid:
    """A lattice of ``len(xs) - 1`` columns and ``len(ys) - 1`` row bands."""

    xs: list[float]
    ys: list[float]
    #: ``vrule[r][k]``: a rule runs along ``xs[k]`` through row band ``r``.
    vrule: list[list[bool]]
    #: ``hrule[k][c]``: a rule runs along ``ys[k]`` across column ``c``.
    hrule: list[list[bool]]

    @property
    def x0(self) -> float:
        return self.xs[0]

    @property
    def x1(self) -> float:
        return self.xs[-1]

    @property
    def y0(self) -> float:
        return self.ys[0]

    @property
    def y1(self) -> float:
        return self.ys[-1]


def find_grids(rules: list[Rule]) -> list[Grid]:
    """Grids of at least two columns drawn by connected horizontal and vertical rules."""
    if not rules:
        return []
    hs = _merge([(y0, x0, x1) for x0, y0, x1, y1 in rules if y0 == y1 and x1 > x0])
    vs = _merge([(x0, y0, y1) for x0, y0, x1, y1 in rules if x0 == x1 and y1 > y0])
    if not hs or not vs or len(hs) + len(vs) > MAX_SEGMENTS:
        return []
    grids = []
    for comp_h, comp_v in _stacked(_components(hs, vs)):
        grid = _grid(comp_h, comp_v)
        if grid is not None:
            grids.append(grid)
    return grids


def _merge(segments: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Collinear segments ``(position, start, end)`` joined into lines."""
    segments.sort()
    out: list[list[float]] = []
    # Group by position first (a border drawn twice lands a fraction of a point apart), then
    # join overlapping or nearly touching pieces along the line.
    group: list[tuple[float, float, float]] = []
    for seg in segments:
        if group and seg[0] - group[0][0] > SAME_LINE:
            out.extend(_join(group))
            group = []
        group.append(seg)
    if group:
        out.extend(_join(group))
    return [(p, a, b) for p, a, b in out]


def _join(group: list[tuple[float, float, float]]) -> list[list[float]]:
    pos = sum(s[0] for s in group) / len(group)
    pieces = sorted((s[1], s[2]) for s in group)
    out: list[list[float]] = []
    for a, b in pieces:
        if out and a <= out[-1][2] + JOIN_GAP:
            out[-1][2] = max(out[-1][2], b)
        else:
            out.append([pos, a, b])
    return out


def _components(
    hs: list[tuple[float, float, float]], vs: list[tuple[float, float, float]]
) -> list[Component]:
    """Groups of rules connected by crossings or touching ends (union-find)."""
    parent = list(range(len(hs) + len(vs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(vs)), key=lambda k: vs[k][0])
    xs = [vs[k][0] for k in order]
    for i, (y, hx0, hx1) in enumerate(hs):
        lo = bisect.bisect_left(xs, hx0 - TOUCH)
        hi = bisect.bisect_right(xs, hx1 + TOUCH)
        for k in order[lo:hi]:
            _, vy0, vy1 = vs[k]
            if vy0 - TOUCH <= y <= vy1 + TOUCH:
                a, b = find(i), find(len(hs) + k)
                if a != b:
                    parent[a] = b
    groups: dict[int, Component] = {}
    for i, h in enumerate(hs):
        groups.setdefault(find(i), ([], []))[0].append(h)
    for k, v in enumerate(vs):
        groups.setdefault(find(len(hs) + k), ([], []))[1].append(v)
    return [g for g in groups.values() if g[0] and g[1]]


Component = tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]


def _stacked(components: list[Component]) -> list[Component]:
    """Components one right above the other across the same width are one table: a header
    and a body separated by a double rule whose two lines do not touch the same verticals."""
    boxes = [_box(c) for c in components]
    order = sorted(range(len(components)), key=lambda i: boxes[i][1])
    out: list[Component] = []
    out_boxes: list[tuple[float, float, float, float]] = []
    for i in order:
        x0, y0, x1, y1 = boxes[i]
        for k, (bx0, by0, bx1, by1) in enumerate(out_boxes):
            if 0 <= y0 - by1 <= MIN_CELL and abs(x0 - bx0) <= TOUCH and abs(x1 - bx1) <= TOUCH:
                out[k] = (out[k][0] + components[i][0], out[k][1] + components[i][1])
                out_boxes[k] = (min(x0, bx0), by0, max(x1, bx1), y1)
                break
        else:
            out.append(components[i])
            out_boxes.append(boxes[i])
    return out


def _box(comp: Component) -> tuple[float, float, float, float]:
    hs, vs = comp
    return (
        min([h[1] for h in hs] + [v[0] for v in vs]),
        min([v[1] for v in vs] + [h[0] for h in hs]),
        max([h[2] for h in hs] + [v[0] for v in vs]),
        max([v[2] for v in vs] + [h[0] for h in hs]),
    )


def _grid(
    hs: list[tuple[float, float, float]], vs: list[tuple[float, float, float]]
) -> Grid | None:
    x0, y0, x1, y1 = _box((hs, vs))
    if x1 - x0 < 2 * MIN_CELL or y1 - y0 < 2 * MIN_CELL:
        return None
    # A table is closed above and below by rules across its width (its frame, or the rules
    # of a ruled table); a plot's axes cross or meet in a corner.
    across = _boundaries([y for y, a, b in hs if b - a >= 0.9 * (x1 - x0)])
    if len(across) < 2:
        return None
    xs = _boundaries([x0, x1, *(v[0] for v in vs)])
    ys = _boundaries([y0, y1, *(h[0] for h in hs)])
    if len(xs) < 2 or len(ys) < 2:
        return None
    vlines = [_along(vs, x) for x in xs]
    hlines = [_along(hs, y) for y in ys]
    vrule = [
        [_covered(vlines[k], (ys[r] + ys[r + 1]) / 2) for k in range(len(xs))]
        for r in range(len(ys) - 1)
    ]
    hrule = [
        [_covered(hlines[k], (xs[c] + xs[c + 1]) / 2) for c in range(len(xs) - 1)]
        for k in range(len(ys))
    ]
    return Grid(xs, ys, vrule, hrule)


def _boundaries(values: list[float]) -> list[float]:
    """Distinct positions, nearby ones (double rules) taken as one."""
    values.sort()
    clusters: list[list[float]] = []
    for v in values:
        if clusters and v - clusters[-1][-1] < MIN_CELL:
            clusters[-1].append(v)
        else:
            clusters.append([v])
    return [sum(c) / len(c) for c in clusters]


def _along(segments: list[tuple[float, float, float]], pos: float) -> list[tuple[float, float]]:
    """The extents of the segments that run along ``pos`` (within a double rule's width)."""
    return [(a, b) for p, a, b in segments if abs(p - pos) < MIN_CELL]


def _covered(extents: list[tuple[float, float]], at: float) -> bool:
    return any(a - TOUCH <= at <= b + TOUCH for a, b in extents)
