"""Append-only JSONL files read incrementally: a run keeps appending while the viewer reads.

Each refresh reads only the bytes added since the last one and stops at the last complete line
(a line being written is picked up next time). A file that shrank (`--resume` truncates the
metrics beyond its checkpoint) is read again from the start.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson


class JsonlTail:
    """The parsed lines of one JSONL file, kept up to date on `items()`; a malformed line is skipped."""

    def __init__(self, path: Path, parse: Callable[[bytes, int], Any] | None = None) -> None:
        self.path = path
        self._parse = parse or (lambda line, _offset: orjson.loads(line))
        self._offset = 0
        self._items: list[Any] = []
        self._lock = threading.Lock()

    def items(self) -> list[Any]:
        """Every complete line so far, parsed (a snapshot: callers may keep it)."""
        with self._lock:
            self._refresh()
            return list(self._items)

    def _refresh(self) -> None:
        try:
            size = self.path.stat().st_size
        except OSError:
            self._offset, self._items = 0, []
            return
        if size < self._offset:
            self._offset, self._items = 0, []
        if size == self._offset:
            return
        with self.path.open("rb") as fh:
            fh.seek(self._offset)
            chunk = fh.read(size - self._offset)
        end = chunk.rfind(b"\n") + 1
        pos = 0
        while pos < end:
            nl = chunk.index(b"\n", pos)
            line = chunk[pos:nl]
            if line.strip():
                # a torn or foreign line is skipped: the record stays readable around it
                with contextlib.suppress(orjson.JSONDecodeError, ValueError, TypeError):
                    self._items.append(self._parse(line, self._offset + pos))
            pos = nl + 1
        self._offset += end

    def read_at(self, offset: int) -> Any:
        """The line starting at `offset` (an offset handed out by `parse`), parsed in full."""
        with self.path.open("rb") as fh:
            fh.seek(offset)
            return orjson.loads(fh.readline())


__all__ = ["JsonlTail"]
