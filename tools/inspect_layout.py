"""Draw what the layout decided on one page: runs, lines, column gutters, tables and blocks in
reading order, as an SVG (``pdfthin.layout.inspect``).

    python tools/inspect_layout.py FILE.pdf --page 3 -o page3.svg
    python tools/inspect_layout.py FILE.pdf --page 3 -o page3.svg --background  # pypdfium2
    python tools/inspect_layout.py FILE.pdf --page 3 -o page3.png  # needs rsvg-convert

Grey boxes are runs, blue boxes lines, orange bands gutters; each block is framed in the
colour of its kind and labelled with its place in the reading order.
"""

from __future__ import annotations

import argparse
import base64
import io
import shutil
import subprocess
import sys
from pathlib import Path

from pdfthin.engine import open_pdf
from pdfthin.layout.inspect import trace_page, trace_svg


def _page_png(path: Path, number: int, password: str | None) -> str:
    """The page rendered by pypdfium2 (a development tool, not a pdfthin dependency), as a
    ``data:`` URL."""
    import pypdfium2  # type: ignore[import-not-found]  # optional, for this tool only

    pdf = pypdfium2.PdfDocument(str(path), password=password)
    image = pdf[number - 1].render(scale=2).to_pil()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--page", type=int, default=1, help="1-based page number")
    parser.add_argument("--password")
    parser.add_argument("-o", "--out", type=Path, required=True, help=".svg or .png")
    parser.add_argument("--background", action="store_true", help="draw the rendered page under")
    args = parser.parse_args(argv)

    engine = open_pdf(args.file, password=args.password)
    try:
        trace = trace_page(engine.page(args.page))
    finally:
        engine.close()
    background = _page_png(args.file, args.page, args.password) if args.background else None
    svg = trace_svg(trace, background)
    if args.out.suffix.lower() != ".png":
        args.out.write_text(svg, encoding="utf-8")
        return 0
    converter = shutil.which("rsvg-convert")
    if converter is None:
        print("writing PNG needs rsvg-convert (apt-get install librsvg2-bin)", file=sys.stderr)
        return 2
    subprocess.run([converter, "--zoom", "2", "-o", str(args.out)], input=svg.encode(), check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
