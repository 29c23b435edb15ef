"""Form fields (issue 23): values read from the AcroForm and put on the page where their
widgets stand, so the page text and search hold what a person typed."""

from __future__ import annotations

from pathlib import Path

from pdfthin.engine import EngineDocument
from pdfthin.engine.forms import CHECKED, UNCHECKED
from pdfthin.operations import Context, find_in_document, read_pages


def test_libreoffice_form_values_are_found(corpus: Path, implementation: str) -> None:
    """The regression of issue 23: the typed values were missing and `find` called them
    absent with complete coverage."""
    data = (corpus / "sample-files" / "libreoffice-form.pdf").read_bytes()
    ctx = Context()
    for value in ("Alice", "Bob"):
        result = find_in_document(data, value, context=ctx)
        assert [m["page"] for m in result["matches"]] == [1], value


def test_libreoffice_form_fields_and_page_text(corpus: Path, implementation: str) -> None:
    data = (corpus / "sample-files" / "libreoffice-form.pdf").read_bytes()
    doc = EngineDocument(data)
    fields = {f.name: f for f in doc.form_fields()}
    assert fields["First Name"].kind == "text" and fields["First Name"].value == "Alice"
    assert fields["First Name_2"].value == "Bob"
    assert fields["gdpr"].kind == "checkbox" and fields["gdpr"].value is False
    assert fields["female"].kind == "radio" and len(fields["female"].widgets) == 2
    assert fields["Nationality"].kind == "choice"
    assert "German" in fields["Nationality"].options
    page = doc.page(1)
    marked = {r.form_field for r in page.runs if r.form_field}
    assert {"First Name", "First Name_2", "gdpr"} <= marked
    markdown = read_pages(data, pages="1", context=Context())["pages"][0]["markdown"]
    # The value is read on its label's line, in reading order.
    assert "First Name Alice" in markdown
    assert f"{UNCHECKED} Agree to privacy policy" in markdown
    assert CHECKED not in markdown
