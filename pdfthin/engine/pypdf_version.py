"""Which pypdf releases pdfthin is tested with, and whether the one installed is among them.

pdfthin uses pypdf's public API only (``tests/test_pypdf_public.py`` holds it to that), but
what that API answers for a damaged file, how fast, and which files it opens at all changes
between releases. pyproject.toml admits every 7.x; the suite runs against the oldest release
it admits (tox's ``lowest``) and the newest one out (every other environment): that is the
tested range. Outside it pdfthin still runs, and says so: :func:`pypdf_info` in
``engine_info()`` (``describe_document``'s capabilities), and a line on stderr when the
command line or the server starts (:func:`pypdf_warning`).
"""

from __future__ import annotations

import re

#: The pypdf releases the suite runs against, as (major, minor): from the first to the last,
#: both included. The first is tox's ``lowest`` pin; widen the last when a newer release has
#: passed the suite (``tests/test_pypdf_version.py`` checks both ends against the project's
#: files).
TESTED_PYPDF = ((7, 0), (7, 1))

_RELEASE = re.compile(r"(\d+)\.(\d+)")


def tested_range() -> str:
    """The tested range as a version specifier, e.g. ``>=7.0,<7.2``."""
    (low_major, low_minor), (high_major, high_minor) = TESTED_PYPDF
    return f">={low_major}.{low_minor},<{high_major}.{high_minor + 1}"


def in_tested_range(version: str) -> bool:
    """Whether pypdf ``version`` (``__version__``'s text) is a release of the tested range.
    Something that is not a release number is not."""
    found = _RELEASE.match(version)
    if found is None:
        return False
    release = (int(found.group(1)), int(found.group(2)))
    return TESTED_PYPDF[0] <= release <= TESTED_PYPDF[1]


def pypdf_info() -> dict[str, str | bool]:
    """The installed pypdf's version, the tested range and whether it is inside it."""
    import pypdf

    version = str(pypdf.__version__)
    return {
        "pypdf": version,
        "pypdf_tested": tested_range(),
        "pypdf_in_tested_range": in_tested_range(version),
    }


def pypdf_warning() -> str | None:
    """One line for stderr when the installed pypdf is outside the tested range, else
    ``None``."""
    info = pypdf_info()
    if info["pypdf_in_tested_range"]:
        return None
    return (
        f"pdfthin: warning: pypdf {info['pypdf']} is outside the tested range "
        f"({info['pypdf_tested']}); what it opens, how fast and what pages say may differ"
    )
