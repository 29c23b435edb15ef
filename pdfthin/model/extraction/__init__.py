"""Structured extraction: a JSON Schema filled from a document by geometry and text matching,
in named tiers (form fields, "Label: value" pairs in the text, key/value tables, line-item
tables), each field with where it was found and how sure the match is; never a guess.

- :mod:`.schema` compiles the accepted subset of JSON Schema (and refuses the rest, naming
  the path);
- :mod:`.labels` normalises labels and matches them (exact, then token subset);
- :mod:`.values` turns found text into a typed value (numbers, dates, booleans), one named
  rule at a time;
- :mod:`.page_text` reads a model page's lines and tables (what ``read_pages`` renders);
- :mod:`.tiers` runs the tiers in order and answers each field or says why not.
"""

from pdfthin.model.extraction.schema import FieldSpec, SchemaSpec, compile_schema
from pdfthin.model.extraction.tiers import (
    Extraction,
    Filled,
    Missing,
    Settings,
    extract,
)

__all__ = [
    "Extraction",
    "FieldSpec",
    "Filled",
    "Missing",
    "SchemaSpec",
    "Settings",
    "compile_schema",
    "extract",
]
