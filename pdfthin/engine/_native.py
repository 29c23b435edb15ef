"""The one place that imports ``pdfthin_native`` (docs/design.md, invariant 10).

The native accelerator changes speed, never answers. Which engine reads pages is chosen once,
at startup, by ``PDFTHIN_NATIVE`` (or the command line's ``--native``, which sets the same
thing through :func:`select`):

- ``auto`` (the default): use the native module when it loads, else pure Python;
- ``require``: use it, and refuse to run where it cannot load (:func:`require` raises
  :class:`NativeUnavailable`; the command line prints its one line and exits with code 3);
- ``off``: pure Python, even where the native module is installed.

``NATIVE`` is the loaded module or ``None``; ``reason`` says why it is ``None``.

A failure of the native code itself (a Rust panic: a bug, never the input's fault) reaches
Python as the module's ``NativeFault`` (:data:`Fault`), an ordinary ``Exception``: every
function and method of the module turns a panic into it at its own boundary, so PyO3's
``PanicException`` (a ``BaseException``, which ``except Exception`` lets through and which
would end a server) never gets out. Each caller catches :data:`Fault` where it calls and lets
the pure-Python code answer, so a fault costs speed, never a different answer.
"""

from __future__ import annotations

import os
import platform
import sys
from types import ModuleType

ENV = "PDFTHIN_NATIVE"
MODES = ("auto", "require", "off")
#: The native module versions this package was written against (same answers, same API).
COMPATIBLE = ("0.16.",)
#: What the engine calls; a module without them is from another release.
_API = (
    "NativeFault",
    "interpret",
    "tokenize",
    "Font",
    "parse_cmap",
    "parse_w",
    "simple_trans",
    "cid_gid_text",
    "cid_table",
    "truetype_unicodes",
    "inflate",
)

NATIVE: ModuleType | None = None
mode: str = "auto"
reason: str | None = None


class _NoFault(Exception):
    """What :data:`Fault` is until the native module loads: never raised."""


#: The native module's ``NativeFault``, set when the module loads (whatever the switch says,
#: so that a caller handed the module another way catches it too).
Fault: type[Exception] = _NoFault


class NativeUnavailable(RuntimeError):
    """``require`` was asked for on a host where the native module cannot load."""


def host() -> str:
    """This host, as a platform tag reader would name it."""
    return (
        f"{platform.system() or sys.platform} {platform.machine() or '?'}, "
        f"{platform.python_implementation()} {platform.python_version()} "
        f"({platform.platform()})"
    )


#: How to get the module: it is built from a checkout (it is not published).
INSTALL_HINT = "build it from a checkout: pip install ./pdfthin_native"


def _load() -> tuple[ModuleType | None, str | None]:
    global Fault
    try:
        import pdfthin_native as module
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and exc.name == "pdfthin_native":
            return None, f"pdfthin-native is not installed ({INSTALL_HINT})"
        return None, f"pdfthin_native cannot be loaded: {' '.join(str(exc).split())}"
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a broken build: anything its initialisation raises,
        # a panic too (PyO3's PanicException is a BaseException)
        return None, f"pdfthin_native failed to initialise: {' '.join(str(exc).split())}"
    if getattr(module, "__file__", None) is None:
        # A namespace package: a directory named pdfthin_native on the import path (the
        # crate's source folder, when Python runs from a checkout's root), not the module.
        where = ", ".join(dict.fromkeys(str(p) for p in getattr(module, "__path__", [])))
        return None, (
            f"pdfthin-native is not installed ({INSTALL_HINT}); "
            f"{where or 'a folder'} is a directory named pdfthin_native, not the module"
        )
    version = str(getattr(module, "__version__", "?"))
    missing = [name for name in _API if not hasattr(module, name)]
    if missing or not version.startswith(COMPATIBLE):
        return None, (
            f"pdfthin_native {version} does not match this pdfthin (needs "
            f"{' or '.join(v + 'x' for v in COMPATIBLE)})"
        )
    Fault = vars(module)["NativeFault"]  # there: checked above (_API)
    return module, None


def select(requested: str | None = None) -> None:
    """Choose the engine: ``requested``, else ``PDFTHIN_NATIVE``, else ``auto``."""
    global NATIVE, mode, reason
    value = (requested if requested is not None else os.environ.get(ENV, "auto")).strip()
    value = value.lower() or "auto"
    if value not in MODES:
        NATIVE, mode = None, value
        reason = f"{ENV} must be one of {', '.join(MODES)}, not {value!r}"
        return
    mode = value
    if value == "off":
        NATIVE, reason = None, f"switched off ({ENV}=off or --native off)"
        return
    NATIVE, reason = _load()


def require() -> None:
    """Raise :class:`NativeUnavailable` (one line: the host and the reason) when the native
    module is required but not loaded, or when the switch holds an unknown value."""
    if mode not in MODES:
        raise NativeUnavailable(f"pdfthin: {reason}")
    if mode == "require" and NATIVE is None:
        raise NativeUnavailable(
            f"pdfthin: the native accelerator is required but cannot load on {host()}: {reason}"
        )


def info() -> dict[str, str]:
    """Which engine answers, for :func:`pdfthin.engine.engine_info`."""
    if NATIVE is not None:
        return {"engine": "native", "native": str(NATIVE.__version__), "native_mode": mode}
    out = {"engine": "pure", "native_mode": mode}
    if reason and mode != "off":
        out["native_unavailable"] = reason
    return out


select()
