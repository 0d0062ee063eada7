"""Results that appear whole or not at all."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def publish_dir(out: Path) -> Iterator[Path]:
    """Build a directory in a hidden sibling and swap it in as `out` only when the block succeeds.

    Why: a kill or an error mid-way (an SFT run, an export, a task pack) must leave either the old
    `out` or nothing, never half a model dir that a later command would load.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        yield tmp
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def append_line(path: Path, line: bytes) -> None:
    """Append one whole line: a single `write` on an `O_APPEND` descriptor, then `fsync`.

    Why: a results file (probe results, eval records) is read back after a crash; a line on disk
    must be complete, and concurrent appenders must never interleave within a line.
    """
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        n = os.write(fd, line)
        if n != len(line):
            raise OSError(f"short write to {path} ({n} of {len(line)} bytes)")
        os.fsync(fd)
    finally:
        os.close(fd)


def repair_tail(path: Path) -> int:
    """Cut a last line that a crash left without its newline (it was never acknowledged); the bytes cut."""
    if not path.exists() or path.stat().st_size == 0:
        return 0
    with open(path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return 0
        fh.seek(0)
        data = fh.read()
        keep = data.rfind(b"\n") + 1
        fh.truncate(keep)
        os.fsync(fh.fileno())
    return len(data) - keep


def write_text_atomic(path: Path, text: str) -> None:
    """Write `path` through a unique temp file in its directory, renamed over it: readers (and a crash) see the
    old content or the new, never half of it, and concurrent writers never share a temp file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
