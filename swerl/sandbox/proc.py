"""Run a host process with a wall-clock timeout and a cap on captured output: its own session, killed as a
group on timeout (grandchildren cannot hold the pipe), only the first `limit` bytes kept in memory."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from typing import IO

from swerl.sandbox.schema import ExecResult

TIMEOUT_RC = -9


def read_capped(stream: IO[bytes], limit: int, sink: list[bytes], state: dict[str, bool]) -> None:
    """Drain `stream`, keeping at most `limit` bytes in `sink` (reading on so the writer never blocks)."""
    kept = 0
    read = getattr(stream, "read1", stream.read)
    while chunk := read(65536):
        if kept < limit:
            sink.append(chunk[: limit - kept])
            kept += len(sink[-1])
            if kept >= limit and len(chunk) > len(sink[-1]):
                state["truncated"] = True
        else:
            state["truncated"] = True


def run_capped(argv: list[str], *, timeout: float, limit: int, env: Mapping[str, str] | None = None) -> ExecResult:
    """Run `argv`, merge stdout/stderr, kill the whole process group at `timeout` seconds."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=dict(env) if env is not None else None, start_new_session=True)
    sink: list[bytes] = []
    state = {"truncated": False}
    assert proc.stdout is not None
    reader = threading.Thread(target=read_capped, args=(proc.stdout, limit, sink, state), daemon=True)
    reader.start()
    timed_out = False
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        rc = proc.wait()
    reader.join(timeout=5)
    with contextlib.suppress(Exception):
        proc.stdout.close()
    output = b"".join(sink).decode("utf-8", errors="replace")
    return ExecResult(output=output, returncode=TIMEOUT_RC if timed_out else rc, timed_out=timed_out,
                      truncated=state["truncated"], duration_s=time.monotonic() - t0)
