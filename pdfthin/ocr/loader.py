"""``--ocr MODULE``: load an :class:`~pdfthin.ocr.OcrBinding` from a module name or a file.

The module exports the binding as ``binding`` (or ``ocr``), or a function ``make_binding()``
returning one. Loading a module runs its code: it is the user's own configuration, named on
their command line.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from pdfthin.errors import PdfthinError
from pdfthin.ocr import OcrBinding


def load_binding(spec: str) -> OcrBinding:
    module = _import(spec)
    for attribute in ("binding", "ocr"):
        value = getattr(module, attribute, None)
        if isinstance(value, OcrBinding):
            return value
    factory = getattr(module, "make_binding", None)
    if callable(factory):
        value = factory()
        if isinstance(value, OcrBinding):
            return value
    raise PdfthinError(
        "ocr_unavailable",
        f"{spec} does not export an OcrBinding as `binding`, `ocr` or `make_binding()`",
        module=spec,
    )


def _import(spec: str) -> Any:
    path = Path(spec)
    try:
        if spec.endswith(".py") or path.is_file():
            name = f"pdfthin_ocr_binding_{abs(hash(str(path.resolve())))}"
            loader_spec = importlib.util.spec_from_file_location(name, path)
            if loader_spec is None or loader_spec.loader is None:
                raise ImportError(f"cannot load {spec}")
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[name] = module
            # A binding file may import its siblings (examples/ocr_openai.py does).
            folder = str(path.resolve().parent)
            sys.path.insert(0, folder)
            try:
                loader_spec.loader.exec_module(module)
            finally:
                sys.path.remove(folder)
            return module
        return importlib.import_module(spec)
    except PdfthinError:
        raise
    except Exception as exc:
        raise PdfthinError(
            "ocr_unavailable",
            f"cannot load the OCR binding {spec!r}: {type(exc).__name__}: {exc}",
            module=spec,
        ) from None
