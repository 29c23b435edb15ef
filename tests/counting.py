"""How much work a call does, counted: a test of a bound on work ("each page looks the list up
once, not once per bookmark") counts the calls of the function doing the work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


class Calls:
    """The calls of ``owner.name`` from when it is made until ``monkeypatch`` is undone:
    ``count`` adds ``weigh(*args, **kwargs)`` for each call (1 without ``weigh``)."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        owner: Any,
        name: str,
        weigh: Callable[..., int] | None = None,
    ) -> None:
        self.count = 0
        original = getattr(owner, name)

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.count += 1 if weigh is None else weigh(*args, **kwargs)
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)
