"""Where a claimed rollout attempt runs: threads or processes on this machine (Kubernetes Jobs: `k8s.py`).

A launcher only starts one attempt per unit of work and reports what runs and what ended; the
controller decides everything from the gateway, so retries stay its business and a stale worker
can never finish a newer attempt.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from swerl.log import get_logger

log = get_logger(__name__)


@dataclass(frozen=True)
class Finished:
    """A unit of work that ended. `ok` False = it crashed before recording an outcome (an infra failure)."""

    rollout_id: str
    attempt: int
    ok: bool
    detail: str = ""


@runtime_checkable
class Launcher(Protocol):
    def launch(self, rollout_id: str, attempt: int) -> None:
        """Start one attempt of a rollout the controller has claimed (state `running`)."""

    def active(self) -> dict[str, int]:
        """Rollout id -> attempt of the work this launcher still runs (counts against concurrency)."""

    def reap(self) -> list[Finished]:
        """Work that ended since the last call."""

    def cancel(self, rollout_id: str) -> None:
        """Stop the work of a rollout (deadline); best effort for threads."""

    def close(self) -> None: ...


class ThreadLauncher:
    """Each attempt in a daemon thread of this process: cheapest (mini-swe-agent and the task pack are
    imported once). A thread cannot be killed: `cancel` only stops counting on it; the rollout's own
    time budget and the token rotated for the next attempt end it soon after."""

    def __init__(self, work: Callable[[str, int], object], on_finish: Callable[[], None] | None = None) -> None:
        self.work, self.on_finish = work, on_finish
        self._lock = threading.Lock()
        self._active: dict[str, tuple[int, threading.Thread]] = {}
        self._finished: list[Finished] = []

    def launch(self, rollout_id: str, attempt: int) -> None:
        t = threading.Thread(target=self._run, args=(rollout_id, attempt), daemon=True, name=f"rollout-{rollout_id}")
        with self._lock:
            self._active[rollout_id] = (attempt, t)
        t.start()

    def _run(self, rollout_id: str, attempt: int) -> None:
        ok, detail = True, ""
        try:
            self.work(rollout_id, attempt)
        except BaseException as exc:  # a crashed worker is reported, never lost
            ok, detail = False, f"{type(exc).__name__}: {exc}"
            log.warning("rollout worker crashed", rollout=rollout_id, attempt=attempt, error=detail[:300])
        with self._lock:
            cur = self._active.get(rollout_id)
            if cur is not None and cur[0] == attempt:
                del self._active[rollout_id]
            self._finished.append(Finished(rollout_id, attempt, ok, detail))
        if self.on_finish is not None:
            self.on_finish()

    def active(self) -> dict[str, int]:
        with self._lock:
            return {rid: att for rid, (att, _) in self._active.items()}

    def reap(self) -> list[Finished]:
        with self._lock:
            out, self._finished = self._finished, []
        return out

    def cancel(self, rollout_id: str) -> None:
        with self._lock:
            self._active.pop(rollout_id, None)

    def close(self) -> None:
        with self._lock:
            threads = [t for _, t in self._active.values()]
        for t in threads:
            t.join(timeout=0.1)


def _die_with_parent() -> None:
    """Child side of Popen: get SIGKILL when the controller dies (Linux prctl PR_SET_PDEATHSIG)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)


class ProcessLauncher:
    """Each attempt as its own process (`command(rollout_id, attempt)` -> argv, normally
    `python -m swerl.rollout run-one ...`), in its own process group so a deadline kills the
    worker and everything under it; workers die with the controller (PR_SET_PDEATHSIG) and
    their bwrap sandboxes with them (`--die-with-parent`)."""

    def __init__(self, command: Callable[[str, int], list[str]], log_dir: Path | None = None) -> None:
        self.command, self.log_dir = command, log_dir
        self._active: dict[str, tuple[int, subprocess.Popen]] = {}
        self._finished: list[Finished] = []

    def launch(self, rollout_id: str, attempt: int) -> None:
        argv = self.command(rollout_id, attempt)
        out: int | object = subprocess.DEVNULL
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            out = os.open(self.log_dir / f"{rollout_id}.attempt{attempt}.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND,
                          0o600)
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True,
                                    preexec_fn=_die_with_parent)  # only a prctl call: safe with threads
        finally:
            if isinstance(out, int) and out != subprocess.DEVNULL:
                os.close(out)
        self._active[rollout_id] = (attempt, proc)

    def _poll(self) -> None:
        for rid, (att, proc) in list(self._active.items()):
            rc = proc.poll()
            if rc is not None:
                del self._active[rid]
                self._finished.append(Finished(rid, att, rc == 0, f"exit code {rc}"))

    def active(self) -> dict[str, int]:
        self._poll()
        return {rid: att for rid, (att, _) in self._active.items()}

    def reap(self) -> list[Finished]:
        self._poll()
        out, self._finished = self._finished, []
        return out

    def cancel(self, rollout_id: str) -> None:
        item = self._active.get(rollout_id)
        if item is None:
            return
        proc = item[1]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 5
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def close(self) -> None:
        for rid in list(self._active):
            self.cancel(rid)
        self._poll()
