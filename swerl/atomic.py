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
