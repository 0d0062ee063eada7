"""Checkpoints: everything `--resume` needs to continue exactly where the run stopped.

`RUN_DIR/checkpoints/step-NNNNNN/state.pt` (backend, RNG and loop states) is written to a
temporary directory and renamed, then `checkpoints/latest` is replaced atomically: a crash
mid-save leaves the previous checkpoint in place.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import torch

from swerl.errors import SwerlError
from swerl.log import get_logger

log = get_logger(__name__)


def rng_state() -> dict[str, Any]:
    return {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])


def save_checkpoint(run_dir: Path, step: int, state: dict[str, Any], keep: int = 2) -> Path:
    """Write, then publish by renames. A failed write (a full disk) removes its partial copy and raises a
    SwerlError naming the path: the previous checkpoint stays the latest and `--resume` continues from it."""
    root = run_dir / "checkpoints"
    root.mkdir(parents=True, exist_ok=True)
    for stale in root.glob(".tmp-*"):  # a save a SIGKILLed incarnation never finished: one trainer per run dir
        shutil.rmtree(stale, ignore_errors=True)
    final = root / f"step-{step:06d}"
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=root))
    try:
        torch.save(state, tmp / "state.pt")
        (tmp / "meta.json").write_text(json.dumps({"step": step}))
    except (OSError, RuntimeError) as exc:  # torch reports a failed write as RuntimeError ("file write failed")
        shutil.rmtree(tmp, ignore_errors=True)
        free = shutil.disk_usage(root).free
        previous = latest_checkpoint(run_dir)
        raise SwerlError(f"could not write the checkpoint of step {step} to {tmp / 'state.pt'} ({free} bytes free "
                         f"on that filesystem; disk full?): {str(exc)[:200]}. The last checkpoint "
                         f"{previous or '(none)'} is intact: free space, then `swerl train --resume --out "
                         f"{run_dir}`") from exc
    if final.exists():
        shutil.rmtree(final)
    tmp.rename(final)
    latest_tmp = root / ".latest.tmp"
    latest_tmp.write_text(final.name)
    os.replace(latest_tmp, root / "latest")
    for old in sorted(root.glob("step-*"))[:-keep]:
        shutil.rmtree(old, ignore_errors=True)
    log.info("checkpoint saved", step=step, path=str(final))
    return final


def latest_checkpoint(run_dir: Path) -> Path | None:
    pointer = run_dir / "checkpoints" / "latest"
    if not pointer.is_file():
        return None
    path = run_dir / "checkpoints" / pointer.read_text().strip()
    return path if (path / "state.pt").is_file() else None


def load_checkpoint(run_dir: Path) -> dict[str, Any]:
    path = latest_checkpoint(run_dir)
    if path is None:
        raise SwerlError(f"--resume: no checkpoint in {run_dir / 'checkpoints'} (was the run started with --out?)")
    # Our own file; it holds numpy RNG state and plain containers, so weights_only cannot load it.
    return torch.load(path / "state.pt", map_location="cpu", weights_only=False)


__all__ = ["latest_checkpoint", "load_checkpoint", "rng_state", "save_checkpoint", "set_rng_state"]
