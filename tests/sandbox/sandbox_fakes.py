"""What the strict comparison needs of the launcher's guard, for in-process tests of `swerl_witness`."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class FakeGuard:
    """A findings sink and a file classifier: code of `changed` (the test module that defines the hostile values)
    is the patch's, other `test_*.py` files are protected tests, everything else is a library."""

    def __init__(self, changed: str) -> None:
        self.changed = changed
        self.found: list[str] = []
        self.probes: list[Any] = []
        self.tables: tuple[Any, ...] = ()  # no looped tables sent by a host

    def record(self, text: str) -> None:
        self.found.append(text)

    def wrote(self, filename: str, first: int, last: int, whole: bool = False) -> bool:
        """All of the changed module is the patch's (the real guard without line ranges for a file says the same)."""
        return self.kind(filename) == "changed"

    def kind(self, filename: str) -> str:
        if filename == self.changed:
            return "changed"
        return "test" if Path(filename).name.startswith("test_") else "lib"
