"""The hidden-text test's fast paths (pdfthin/engine/content/visibility.py) against the plain
reading of its rules, and the look-ups the engine no longer repeats.

The covered test finds the paints near a run through a grid (a bit mask of painted cells per
row, the areas of each cell flattened once per page), and reads looks and paints by position,
so that the native side's plain tuples need no named tuple each. Here random pages are judged
both ways: through the grid, and by a scan of every paint at every point sampled, written from
the module's docstrings; and plain tuples against :class:`Look` and :class:`Paint`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from pdfbuilder import PdfBuilder

from pdfthin.engine import open_pdf
from pdfthin.engine.content import interpreter, visibility
from pdfthin.engine.content.visibility import Look, Paint, Rgb
from pdfthin.engine.types import PageContent, TextRun

WIDTH, HEIGHT = 600.0, 800.0


def _colour(rng: random.Random) -> Rgb | None:
    if rng.random() < 0.15:
        return None
    if rng.random() < 0.5:
        grey = rng.choice((0.0, 1.0, 0.97, 0.5))
        return (grey, grey, grey)
    return (rng.random(), rng.random(), rng.random())


def _paints(rng: random.Random, runs: int) -> list[Paint]:
    out = []
    after = -1
    for _ in range(rng.randrange(0, 40)):
        after = min(after + rng.randrange(0, 3), runs)  # drawn in order, between the runs
        x0, y0 = rng.uniform(-50, WIDTH), rng.uniform(-50, HEIGHT)
        box = (x0, y0, x0 + rng.uniform(0, 300), y0 + rng.uniform(0, 120))
        out.append(
            Paint(
                after,
                box,
                _colour(rng),
                rng.choice((1.0, 1.0, 0.96, 0.5, 0.0)),
                rng.random() < 0.9,
                rng.random() < 0.8,
                rng.random() < 0.8,
                rng.choice(("fill", "stroke", "image", "shading")),
            )
        )
    return out


def _drawn(rng: random.Random, count: int) -> list[tuple[TextRun, Look]]:
    out = []
    for seq in range(count):
        x0, y0 = rng.uniform(0, WIDTH - 100), rng.uniform(0, HEIGHT - 20)
        glyphs = rng.randrange(1, 30)
        run = TextRun("w" * glyphs, x0, y0, x0 + rng.uniform(5, 200), y0 + 10, 10.0, "F", seq=seq)
        # White text often: whether it shows depends on every paint beneath it.
        fill = (1.0, 1.0, 1.0) if rng.random() < 0.5 else _colour(rng)
        look = Look(
            rng.choice((0, 0, 0, 1, 2)),
            fill,
            _colour(rng),
            rng.choice((1.0, 0.5)),
            rng.choice((1.0, 0.5)),
            None,
            False,
            5.0 * glyphs,
            glyphs,
        )
        out.append((run, look))
    return out


def _at_by_scan(paints: list[Paint], x: float, y: float, seq: int) -> tuple[bool, Rgb | None]:
    """The module's ``_at`` with every paint looked at, topmost first."""
    beneath: list[Paint] = []
    for paint in reversed(paints):
        x0, y0, x1, y1 = paint.box
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            continue
        opaque = paint.solid and paint.normal and paint.alpha >= visibility.OPAQUE
        if paint.after >= seq:
            if paint.exact and opaque:
                return True, None
            continue
        top = beneath[-1] if beneath else None
        if top is not None and top.solid and top.normal and top.alpha >= visibility.OPAQUE:
            continue
        if not paint.exact or paint.colour is None:
            return False, None  # what is painted there cannot be told
        beneath.append(paint)
    colour: Rgb = (1.0, 1.0, 1.0)
    for paint in reversed(beneath):
        assert paint.colour is not None
        a = paint.alpha
        c = paint.colour
        colour = (
            a * c[0] + (1 - a) * colour[0],
            a * c[1] + (1 - a) * colour[1],
            a * c[2] + (1 - a) * colour[2],
        )
    return False, colour


def _painted_over_by_scan(paints: list[Paint], run: TextRun, look: Look) -> str | None:
    """The module's ``_painted_over`` with every point looked at and every paint scanned."""
    fills = look.mode in (0, 2, 4, 6)
    strokes = look.mode in (1, 2, 5, 6)
    columns = min(max(look.glyphs, 2), visibility.MAX_SAMPLES)
    total = 2 * columns
    shown = covered = 0
    white = True
    for row in (0.35, 0.65):
        y = run.y0 + row * (run.y1 - run.y0)
        for i in range(columns):
            x = run.x0 + (i + 0.5) / columns * (run.x1 - run.x0)
            over, beneath = _at_by_scan(paints, x, y, run.seq)
            if over:
                covered += 1
            elif (
                beneath is None
                or (fills and visibility._stands_out(look.fill, look.fill_alpha, beneath))
                or (strokes and visibility._stands_out(look.stroke, look.stroke_alpha, beneath))
            ):
                shown += 1
            else:
                white = white and visibility.is_white(beneath)
    if shown > total - visibility.COVERED_SHARE * total:
        return None
    if covered >= visibility.COVERED_SHARE * total:
        return "covered"
    if white and visibility.is_white(look.fill if fills else look.stroke):
        return "white"
    return "low_contrast"


@pytest.mark.parametrize("seed", range(200))
def test_the_grid_finds_what_a_scan_of_every_paint_finds(seed: int) -> None:
    rng = random.Random(seed)
    drawn = _drawn(rng, rng.randrange(1, 30))
    paints = _paints(rng, len(drawn))
    grid = visibility._Grid(WIDTH, HEIGHT, paints)
    for run, look in drawn:
        tests = visibility._Tests()
        got = visibility._painted_over(grid, run, look, tests)
        assert got == _painted_over_by_scan(paints, run, look), (run, look)


@pytest.mark.parametrize("seed", range(20))
def test_plain_tuples_read_as_looks_and_paints(seed: int) -> None:
    """What the native interpreter hands over (tuples in the fields' order) is judged as the
    named tuples the Python interpreter makes."""
    rng = random.Random(seed)
    drawn = _drawn(rng, rng.randrange(1, 30))
    paints = _paints(rng, len(drawn))

    def judged(pairs: Any, areas: Any) -> tuple[str | None, list[str], list[tuple[str, str]]]:
        page = PageContent(1, WIDTH, HEIGHT, 0)
        problem = visibility.sort_runs(page, pairs, areas, True)
        return problem, [r.text for r in page.runs], [(h.text, h.reason) for h in page.hidden]

    named = judged(drawn, paints)
    plain = judged([(run, tuple(look)) for run, look in drawn], [tuple(p) for p in paints])
    assert plain == named


def test_a_font_set_again_is_not_looked_up_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python interpreter keeps a page's fonts by (resources, name): a page that sets the
    same font a thousand times asks for it once (each look-up asks pypdf for the resource
    dictionaries again)."""
    from native_support import engine

    calls: list[str] = []
    font_for = interpreter.font_for

    def counted(resources: Any, name: Any, *args: Any) -> Any:
        calls.append(name)
        return font_for(resources, name, *args)

    monkeypatch.setattr(interpreter, "font_for", counted)
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    content = b"BT " + b"/F1 9 Tf (a) Tj " * 1000 + b"/F2 9 Tf (b) Tj /F2 9 Tf (c) Tj ET"
    b.add_page(content, {"Font": {"F1": font}})
    with engine(None):
        page = open_pdf(b.build()).page(1)
    # A missing font is looked for each time it is set (and reported each time).
    assert calls == ["/F1", "/F2", "/F2"]
    assert [r.text for r in page.runs[:2]] == ["a", "a"]
    assert any("/F2" in problem for problem in page.problems)


def test_a_colour_space_set_again_is_not_looked_up_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for colour spaces: a page that selects its colour space before each fill asks
    the resources once per name."""
    from native_support import engine

    calls: list[str] = []
    colour_components = interpreter.colour_components

    def counted(resources: Any, name: Any) -> int:
        calls.append(name)
        return colour_components(resources, name)

    monkeypatch.setattr(interpreter, "colour_components", counted)
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    fills = b"/CS0 cs 1 1 1 sc 0 0 10 10 re f /CS1 CS " * 200
    text = b"BT /F1 9 Tf 72 700 Td /CS0 cs 0 0 1 sc (blue) Tj ET"
    b.add_page(
        fills + text,
        {"Font": {"F1": font}, "ColorSpace": {"CS0": "/DeviceRGB", "CS1": "/DeviceGray"}},
    )
    with engine(None):
        page = open_pdf(b.build()).page(1)
    assert calls == ["/CS0", "/CS1"]
    assert [r.text for r in page.runs] == ["blue"]
