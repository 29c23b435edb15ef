"""Which objects pypdf's reader parses while a test runs: how a test tells a read of the few
objects an answer needs from a walk of every page object."""

from __future__ import annotations

from typing import Any

import pypdf
import pytest


class ObjectReads:
    """The distinct object numbers ``PdfReader.get_object`` (public) is asked for, from
    when it is made until ``monkeypatch`` is undone."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.objects: set[int] = set()
        original = pypdf.PdfReader.get_object

        def counting(reader: pypdf.PdfReader, indirect: Any) -> Any:
            self.objects.add(indirect if isinstance(indirect, int) else indirect.idnum)
            return original(reader, indirect)

        monkeypatch.setattr(pypdf.PdfReader, "get_object", counting)
