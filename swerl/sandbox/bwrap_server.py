"""A long-lived exec server inside one bwrap per sandbox (the default bwrap mode).

Why: a fresh bwrap per command costs the namespace set-up every time (6-15 ms on a
2-core machine, more under load); the agent runs thousands of commands. One bwrap per
sandbox runs this tiny Python server (stdlib only, `python3 -I -S`); each command is then
a plain fork+exec inside the existing namespaces.

The server has no privilege the agent lacks (same uid, no capabilities, same
namespaces): an agent that tampers with it can only confuse what it is shown itself;
the patch is still computed on the host and graded elsewhere. If the server dies the
host restarts it; if it hangs the host kills the whole bwrap.

Protocol: one JSON line per request `{"argv", "cwd", "timeout", "limit"}` on stdin,
one JSON line per reply `{"rc", "out" (base64), "timed_out", "truncated"}` on stdout.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
import time

from swerl.log import get_logger
from swerl.sandbox.schema import ExecResult

log = get_logger(__name__)

SERVER = r'''
import base64, json, os, signal, subprocess, sys, threading
def pump(stream, limit, box):
    kept = 0
    while True:
        chunk = stream.read1(65536)
        if not chunk:
            break
        if kept < limit:
            part = chunk[: limit - kept]
            box["out"].append(part)
            kept += len(part)
            if len(part) < len(chunk):
                box["truncated"] = True
        else:
            box["truncated"] = True
out = sys.stdout
out.write("SWERL_SERVER_READY\n"); out.flush()
for line in sys.stdin:
    req = json.loads(line)
    box = {"out": [], "truncated": False}
    try:
        p = subprocess.Popen(req["argv"], cwd=req["cwd"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as exc:
        reply = {"rc": 127, "out": base64.b64encode(str(exc).encode()).decode(), "timed_out": False, "truncated": False}
        out.write(json.dumps(reply) + "\n"); out.flush()
        continue
    t = threading.Thread(target=pump, args=(p.stdout, req["limit"], box), daemon=True)
    t.start()
    timed_out = False
    try:
        rc = p.wait(timeout=req["timeout"])
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        rc = p.wait()
    t.join(timeout=1.0)
    reply = {"rc": -9 if timed_out else rc, "out": base64.b64encode(b"".join(box["out"])).decode(),
             "timed_out": timed_out, "truncated": box["truncated"]}
    out.write(json.dumps(reply) + "\n"); out.flush()
'''

BACKSTOP_S = 10.0


class ExecServer:
    """Host side: starts `argv_prefix + [python3 -I -S -u -c SERVER]` and sends requests one at a time."""

    def __init__(self, argv_prefix: list[str], stderr_path: str) -> None:
        self.argv = [*argv_prefix, "python3", "-I", "-S", "-u", "-c", SERVER]
        self.stderr_path = stderr_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.lock = threading.Lock()

    def start(self, timeout: float = 30.0) -> bool:
        """Start the server; False if it does not come up (no python3 in the system tree)."""
        with open(self.stderr_path, "ab") as err:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                         start_new_session=True, env={"PATH": "/usr/bin:/bin"})
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        try:
            ready = self.lines.get(timeout=timeout)
        except queue.Empty:
            ready = None
        if ready != b"SWERL_SERVER_READY\n":
            self.kill()
            return False
        return True

    @staticmethod
    def _read(proc: subprocess.Popen[bytes], lines: queue.Queue[bytes | None]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def run(self, argv: list[str], cwd: str, timeout: float, limit: int) -> ExecResult:
        """One command. Raises ConnectionError if the server is gone (the caller restarts it)."""
        with self.lock:
            if not self.alive or self.proc is None or self.proc.stdin is None:
                raise ConnectionError("exec server is not running")
            t0 = time.monotonic()
            req = json.dumps({"argv": argv, "cwd": cwd, "timeout": timeout, "limit": limit}) + "\n"
            try:
                self.proc.stdin.write(req.encode())
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError) as exc:
                raise ConnectionError(f"exec server stdin closed: {exc}") from exc
            try:
                line = self.lines.get(timeout=timeout + BACKSTOP_S)
            except queue.Empty:
                # the server itself hangs (the agent stopped it?): kill the sandbox's processes
                log.warning("exec server unresponsive; killing it", timeout=timeout)
                self.kill()
                return ExecResult(output="", returncode=-9, timed_out=True, duration_s=time.monotonic() - t0)
            if line is None:
                self.kill()
                raise ConnectionError("exec server exited")
            reply = json.loads(line)
            return ExecResult(output=base64.b64decode(reply["out"]).decode("utf-8", errors="replace"),
                              returncode=int(reply["rc"]), timed_out=bool(reply["timed_out"]),
                              truncated=bool(reply["truncated"]), duration_s=time.monotonic() - t0)

    def kill(self) -> None:
        """Kill bwrap's process group: its pid namespace, and every process in it, goes with it."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.close()
