"""Hand-made page tests (olmOCR-bench style) for the failure kinds of issue 20.

Each test was written by looking at the page (rendered with pypdfium2) or at pypdfium2's text
of it, never from pdfthin's output. Kinds: see :mod:`benchmarks.metrics.texttests`.
"""

from __future__ import annotations

from benchmarks.metrics.texttests import TextTest as T

TEXT_TESTS: tuple[T, ...] = ()
