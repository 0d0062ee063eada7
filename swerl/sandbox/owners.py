"""Who owns a sandbox's host objects, so that what a killed process left behind can be reaped.

Every sandbox's host directory (`/tmp/swerl-<backend>-<id>-*`, all backends) carries an owner record: host
name, pid, the pid's start time (a pid reused by another process is not the owner) and the run label
(`SandboxSettings.run_label`, the trainer's run name). A sandbox whose owner is gone is debris: a SIGKILLed
trainer never runs its `finally` blocks. Backends reap it when they start (a resumed run cleans up after its
dead incarnation), and `swerl sandbox gc` does it on demand and says what it removed. Objects of a live owner
are never touched, and objects of another host are left to that host.
"""

from __future__ import annotations

import json
import os
import socket
import tempfile
from pathlib import Path
from typing import Any

from swerl.log import get_logger
from swerl.sandbox import hostfs, limits

log = get_logger(__name__)

OWNER_FILE = ".swerl-owner"
DIR_PREFIX = "swerl-"


def process_start(pid: int) -> str | None:
    """The pid's start time in clock ticks since boot (`/proc/PID/stat` field 22); None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw.rsplit(")", 1)[-1].split()[19]


def me(run_label: str | None = None) -> dict[str, Any]:
    """The owner record of this process."""
    return {"host": socket.gethostname(), "pid": os.getpid(), "start": process_start(os.getpid()) or "",
            "run": run_label or ""}


def write(host_dir: Path, run_label: str | None = None) -> None:
    """Record this process as the owner of `host_dir` (atomically: a reaper never reads half a record)."""
    tmp = host_dir / f"{OWNER_FILE}.tmp"
    tmp.write_text(json.dumps(me(run_label)))
    os.replace(tmp, host_dir / OWNER_FILE)


def is_dead(owner: dict[str, Any]) -> bool:
    """The owner process is gone (or its pid now belongs to another process); False for another host's."""
    if owner.get("host") != socket.gethostname():
        return False
    try:
        pid = int(owner.get("pid", 0))
    except (TypeError, ValueError):
        return False
    if pid <= 0:
        return False
    start = process_start(pid)
    return start is None or (bool(owner.get("start")) and start != owner.get("start"))


def read(host_dir: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((host_dir / OWNER_FILE).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def reap_host_dirs(root: Path | None = None, run_label: str | None = None) -> list[Path]:
    """Remove the sandbox host directories under `root` (the temp dir) whose owner died; with `run_label`, only
    that run's. Directories without an owner record (not ours, or still being created) are left alone."""
    root = Path(root or tempfile.gettempdir())
    reaped: list[Path] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return reaped
    for entry in entries:
        if not entry.name.startswith(DIR_PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        owner = read(Path(entry.path))
        if owner is None or not is_dead(owner) or (run_label and owner.get("run") != run_label):
            continue
        limits.detach_mounts_under(Path(entry.path))  # bwrap's per-sandbox quota tmpfs outlives its owner
        if hostfs.rmtree_quietly(Path(entry.path)):
            reaped.append(Path(entry.path))
    if reaped:
        log.info("reaped host dirs of dead sandbox owners", count=len(reaped), run=run_label or "")
    return reaped
