"""camelot's own test expectations as held-out table ground truth.

``camelot/gt/camelot-tests-data.py`` is camelot's ``tests/data.py``: module-level lists of
rows (``data_stream_*``, ``data_lattice_*``, ...), each the DataFrame one of camelot's tests
expects for one table of one file. Which test (and so which file and page) each list belongs
to is not in the data file: :data:`EXPECTATIONS` records it, from camelot's public tests
(``tests/test_stream.py``, ``test_lattice.py``, ``test_hybrid.py``, ``test_network.py``).

The data file is parsed, never executed: list literals go through ``ast.literal_eval``, and
the few derived assignments it has (``x = y[1:]``, ``x = list(y)``, ``x.extend(y)``) are
replayed on the literals already read.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.metrics.tables import Cell, Table

#: The data file, relative to the corpus root.
DATA_FILE = "camelot/gt/camelot-tests-data.py"


@dataclass(frozen=True)
class Expectation:
    """One camelot test's expected table(s) on one page of one corpus file."""

    file: str
    page: int
    data: tuple[str, ...]
    test: str


#: Which ``data_*`` lists belong to which file and page, with the camelot test that says so.
#: Left out on purpose: tests whose expectation is not the table as the page shows it
#: (``copy_text`` duplicates a spanning cell's text into every cell it spans;
#: ``strip_text`` removes spaces; ``table_areas`` on ``twotables_2.pdf`` repeats its first
#: table), tests of files outside the corpus (``tabula/12s0324.pdf``, ``tabula/us-007.pdf``,
#: ``tabula/m27.pdf``), and ``data_arabic``, whose cells are presentation forms in visual
#: order, which no text extractor is asked to produce.
EXPECTATIONS: tuple[Expectation, ...] = (
    Expectation("camelot/health.pdf", 1, ("data_stream",), "test_stream.py::test_stream"),
    Expectation(
        "camelot/clockwise_table_2.pdf",
        1,
        ("data_stream_table_rotated",),
        "test_stream.py::test_stream_table_rotated",
    ),
    Expectation(
        "camelot/anticlockwise_table_2.pdf",
        1,
        ("data_stream_table_rotated",),
        "test_stream.py::test_stream_table_rotated",
    ),
    Expectation(
        "camelot/mexican_towns.pdf",
        1,
        ("data_stream_columns",),
        "test_stream.py::test_stream_columns",
    ),
    Expectation(
        "camelot/superscript.pdf",
        1,
        ("data_stream_flag_size",),
        "test_stream.py::test_stream_flag_size",
    ),
    Expectation(
        "camelot/detect_vertical_false.pdf",
        1,
        ("data_stream_layout_kwargs",),
        "test_stream.py::test_stream_layout_kwargs",
    ),
    Expectation(
        "camelot/edge_tol.pdf", 1, ("data_stream_edge_tol",), "test_stream.py::test_stream_edge_tol"
    ),
    Expectation(
        "camelot/birdisland.pdf",
        1,
        ("data_stream_duplicated_text",),
        "test_stream.py::test_stream_duplicated_text",
    ),
    Expectation(
        "camelot/stream_inner_outer_columns.pdf",
        1,
        ("data_stream_inner_outer_columns",),
        "test_stream.py::test_stream_inner_outer_columns",
    ),
    Expectation(
        "camelot/multiple_tables.pdf",
        1,
        ("data_network_two_tables_b_1", "data_network_two_tables_b_2"),
        "test_network.py::test_network_two_tables_b",
    ),
    Expectation(
        "camelot/vertical_header.pdf",
        1,
        ("data_hybrid_vertical_headers",),
        "test_hybrid.py::test_hybrid_vertical_header",
    ),
    Expectation(
        "camelot/clockwise_table_1.pdf",
        1,
        ("data_lattice_table_rotated",),
        "test_lattice.py::test_lattice_table_rotated",
    ),
    Expectation(
        "camelot/anticlockwise_table_1.pdf",
        1,
        ("data_lattice_table_rotated",),
        "test_lattice.py::test_lattice_table_rotated",
    ),
    Expectation(
        "camelot/twotables_2.pdf",
        1,
        ("data_lattice_two_tables_1", "data_lattice_two_tables_2"),
        "test_lattice.py::test_lattice_two_tables",
    ),
    Expectation(
        "camelot/table_region.pdf",
        1,
        ("data_lattice_table_regions",),
        "test_lattice.py::test_lattice_table_regions",
    ),
    Expectation(
        "camelot/background_lines_1.pdf",
        1,
        ("data_lattice_process_background",),
        "test_lattice.py::test_lattice_process_background",
    ),
    Expectation(
        "camelot/column_span_2.pdf",
        1,
        ("data_lattice_shift_text_left_top",),
        "test_lattice.py::test_lattice_shift_text",
    ),
    Expectation(
        "camelot/split_text_lattice.pdf",
        1,
        ("data_lattice_split_text",),
        "test_lattice.py::test_lattice_split_text",
    ),
)

#: camelot's ``flag_size`` marks super/subscripts as ``<s>..</s>``; the page shows the text.
_FLAG_TAG = re.compile(r"</?s>")


def read_data(source: str) -> dict[str, Any]:
    """The ``data_*`` values of camelot's test data, without executing it."""
    env: dict[str, Any] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                value = _value(node.value, env)
                if value is not None:
                    env[target.id] = value
        elif isinstance(node, ast.Expr):
            _extend(node.value, env)
    return env


def _value(node: ast.expr, env: dict[str, Any]) -> Any:
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        base = env.get(node.value.id)
        piece = node.slice
        if base is None or not isinstance(piece, ast.Slice):
            return None
        bounds = [
            ast.literal_eval(b) if b is not None else None for b in (piece.lower, piece.upper)
        ]
        return list(base[bounds[0] : bounds[1]])
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "list"
        and len(node.args) == 1
    ):
        inner = _value(node.args[0], env)
        return list(inner) if inner is not None else None
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _extend(node: ast.expr, env: dict[str, Any]) -> None:
    """``a.extend(b)`` on two lists already read."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "extend"
        and isinstance(node.func.value, ast.Name)
        and len(node.args) == 1
    ):
        return
    target, extra = env.get(node.func.value.id), _value(node.args[0], env)
    if isinstance(target, list) and isinstance(extra, list):
        env[node.func.value.id] = [*target, *extra]


def table_from_rows(rows: list[list[str]]) -> Table:
    return [
        Cell(r, c, _FLAG_TAG.sub("", str(text)))
        for r, row in enumerate(rows)
        for c, text in enumerate(row)
    ]


def load(corpus_root: Path) -> dict[str, list[tuple[int, list[Table]]]]:
    """Ground-truth tables per corpus file: ``{relpath: [(page, tables), ...]}``."""
    path = corpus_root / DATA_FILE
    if not path.exists():
        return {}
    data = read_data(path.read_text(encoding="utf-8"))
    out: dict[str, list[tuple[int, list[Table]]]] = {}
    for exp in EXPECTATIONS:
        tables = [table_from_rows(data[name]) for name in exp.data if name in data]
        if tables:
            out.setdefault(exp.file, []).append((exp.page, tables))
    return out
