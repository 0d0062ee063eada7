"""A long-lived exec server inside one bwrap per sandbox (the default bwrap mode), and its host side.

One bwrap per sandbox running this stdlib server (`python3 -I -S`) makes a command a plain
fork+exec instead of a new namespace set-up (6-15 ms each). Everything inside is hostile, so:
- requests and replies travel on two pipes passed as extra descriptors, not stdin/stdout:
  bwrap's pid 1 keeps the standard ones (reachable via `/proc/1/fd/1`) but closes the extra
  ones; the server marks them close-on-exec, so no command inherits them;
- the server is non-dumpable (no `/proc/<pid>/fd`, memory or ptrace for anyone inside); as
  host root it is also another uid than every command, keeping only CAP_SETUID/SETGID/KILL;
- every request carries a random id; anything but a well-formed reply with that id (garbage,
  an over-long line, a server gone or silent past the backstop) is `AgentFault`.
Protocol: one JSON line per request `{"id", "argv", "cwd", "timeout", "limit"}`, one per reply
`{"id", "rc", "out" (base64), "timed_out", "truncated"}`.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import os
import queue
import secrets
import select
import signal
import subprocess
import threading
import time

from swerl.log import get_logger
from swerl.sandbox.schema import ExecResult

log = get_logger(__name__)

SERVER = r'''
import base64, ctypes, json, os, signal, subprocess, sys, threading, time
RFD, WFD, UID, GID = (int(a) for a in sys.argv[1:5])
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE 0: no /proc/<pid>/fd, mem or ptrace for anyone inside
    sys.exit(70)
if UID >= 0:  # host root: keep only what starting and killing commands as UID needs
    for cap in range(64):
        if cap not in (5, 6, 7):
            libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP
    libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT_CLEAR_ALL
    class Hdr(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]
    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]
    keep = (1 << 5) | (1 << 6) | (1 << 7)
    data = (Data * 2)(Data(keep, keep, 0), Data(0, 0, 0))
    if libc.capset(ctypes.byref(Hdr(0x20080522, 0)), data) != 0:
        sys.exit(71)
os.set_inheritable(RFD, False)
os.set_inheritable(WFD, False)
inp = os.fdopen(RFD, "rb")
def send(obj):
    data = (json.dumps(obj) + "\n").encode()
    while data:
        data = data[os.write(WFD, data):]
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
drop = {"user": UID, "group": GID, "extra_groups": []} if UID >= 0 else {}
send({"ready": True})
def fail(req, rc, msg):
    send({"id": req["id"], "rc": rc, "out": base64.b64encode(msg.encode()).decode(), "timed_out": False,
          "truncated": False})
LIMIT_HIT = ("swerl: the sandbox's process limit (pids_limit) is reached: every process in the sandbox was killed "
             "and the command was not run; run it again (%s)")
def reclaim(why):
    # the sandbox's own processes hold every pid it may use: kill them all (kill(-1) reaches only this pid
    # namespace and spares its init and this server), so the next command can start
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    for _ in range(100):  # until pid 1 has reaped them (their pids count until then), at most ~2 s
        try:
            os.kill(-1, 0)
        except OSError:
            break
        time.sleep(0.02)
    return LIMIT_HIT % why
for line in inp:
    req = json.loads(line)
    box = {"out": [], "truncated": False}
    try:
        p = subprocess.Popen(req["argv"], cwd=req["cwd"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, start_new_session=True, close_fds=True, **drop)
    except (OSError, subprocess.SubprocessError) as exc:
        if getattr(exc, "errno", None) == 11:  # EAGAIN: fork (pids cgroup) or exec as UID (RLIMIT_NPROC)
            fail(req, 126, reclaim(str(exc)))
        else:
            fail(req, 127, "swerl: the command could not start: " + str(exc))
        continue
    t = threading.Thread(target=pump, args=(p.stdout, req["limit"], box), daemon=True)
    try:
        t.start()
    except RuntimeError as exc:  # no task left for a thread: the sandbox's processes used up its pids limit
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.wait()
        fail(req, 126, reclaim(str(exc)))
        continue
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
    send({"id": req["id"], "rc": -9 if timed_out else rc, "out": base64.b64encode(b"".join(box["out"])).decode(),
          "timed_out": timed_out, "truncated": box["truncated"]})
'''

BACKSTOP_S = 10.0
STDERR_LOG_BYTES = 256 * 1024  # of the exec server's (and bwrap's) stderr kept in server.log
# Capabilities the server keeps when the host is root (bwrap --cap-add); the server cuts its bounding set to these.
SERVER_CAPS = ("CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP")


class ChannelFault(Exception):
    """The exec channel broke after a successful start: the server died, hung, or sent something that is not
    the reply to the command just sent. Raised to the backend, which turns it into `AgentFault`."""


class _Overflow:
    """Queue marker: a line longer than the reply cap arrived (the reader stops there)."""


class ExecServer:
    """Host side: starts `argv_prefix + [python3 -I -S -u -c SERVER RFD WFD UID GID]` and sends requests one at a time.

    `uid`/`gid` >= 0: the server runs as root (host caller is root) and starts every command as that uid.
    """

    # Off only in the audit's deliberately weakened control sandbox (a reader that takes the first line it
    # sees, a reply pipe every command inherits).
    verify_ids = True
    leak_channel = False

    def __init__(self, argv_prefix: list[str], stderr_path: str, *, uid: int = -1, gid: int = -1,
                 max_line: int = 1 << 24) -> None:
        self.argv_prefix = argv_prefix
        self.stderr_path = stderr_path
        self.uid, self.gid = uid, gid
        self.max_line = max_line
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | _Overflow | None] = queue.Queue()
        self.lock = threading.Lock()
        self._req_w: int | None = None

    def _server_argv(self, rfd: int, wfd: int) -> list[str]:
        script = SERVER.replace("os.set_inheritable(WFD, False)\n", "") if self.leak_channel else SERVER
        if self.leak_channel:
            script = script.replace("close_fds=True", "close_fds=False")
        return [*self.argv_prefix, "python3", "-I", "-S", "-u", "-c", script, str(rfd), str(wfd), str(self.uid),
                str(self.gid)]

    def start(self, timeout: float = 30.0) -> bool:
        """Start the server; False if it does not come up (no python3 in the system tree)."""
        self._close_channel()
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            self.proc = subprocess.Popen(self._server_argv(req_r, rep_w), stdin=subprocess.DEVNULL, stdout=err_w,
                                         stderr=err_w, start_new_session=True, pass_fds=(req_r, rep_w),
                                         env={"PATH": "/usr/bin:/bin"})
        finally:
            os.close(req_r)
            os.close(rep_w)
            os.close(err_w)
        # bwrap's pid 1 keeps this stderr, which a command can reach through /proc/1/fd/2 when it runs as the
        # caller's uid: only the first STDERR_LOG_BYTES reach the host's disk
        threading.Thread(target=self._log_stderr, args=(err_r, self.stderr_path), daemon=True).start()
        self._req_w = req_w
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(rep_r, self.lines, self.max_line), daemon=True).start()
        try:
            ready = self.lines.get(timeout=timeout)
        except queue.Empty:
            ready = None
        if ready != b'{"ready": true}\n':
            self.kill()
            return False
        return True

    @staticmethod
    def _log_stderr(fd: int, path: str) -> None:
        """Append at most STDERR_LOG_BYTES of the server's stderr to `path`; read (and drop) the rest."""
        kept = 0
        try:
            with open(path, "ab") as out:
                while chunk := os.read(fd, 65536):
                    if kept < STDERR_LOG_BYTES:
                        out.write(chunk[: STDERR_LOG_BYTES - kept])
                        out.flush()
                        kept += min(len(chunk), STDERR_LOG_BYTES - kept)
        except OSError:
            pass
        finally:
            os.close(fd)

    @staticmethod
    def _read(fd: int, lines: queue.Queue[bytes | _Overflow | None], max_line: int) -> None:
        """Split the reply pipe into lines; a line over `max_line` bytes ends the stream (garbage flood).
        The thread owns `fd` and closes it at the end (closing it elsewhere could hand its number to another file)."""
        buf = b""
        try:
            while True:
                try:
                    chunk = os.read(fd, 1 << 20)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                buf += chunk
                while (nl := buf.find(b"\n")) >= 0:
                    lines.put(buf[: nl + 1])
                    buf = buf[nl + 1:]
                if len(buf) > max_line:
                    lines.put(_Overflow())
                    return
            lines.put(None)
        finally:
            os.close(fd)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _send(self, data: bytes, deadline: float) -> None:
        """Write a request without ever blocking past `deadline` (a stopped server stops reading its pipe)."""
        assert self._req_w is not None
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChannelFault("exec server stopped reading requests")
            poller = select.poll()
            poller.register(self._req_w, select.POLLOUT)
            if poller.poll(min(left, 1.0) * 1000):
                try:
                    n = os.write(self._req_w, view[: 1 << 16])
                except (BrokenPipeError, OSError) as exc:
                    raise ChannelFault(f"exec server request pipe closed: {exc}") from exc
                view = view[n:]

    def run(self, argv: list[str], cwd: str, timeout: float, limit: int) -> ExecResult:
        """One command. Raises ChannelFault if the server is gone, silent, or answers with anything but
        the reply to this request; ConnectionError if it was never running."""
        with self.lock:
            if not self.alive or self._req_w is None:
                raise ConnectionError("exec server is not running")
            t0 = time.monotonic()
            deadline = t0 + timeout + BACKSTOP_S
            nonce = secrets.token_hex(16)
            req = json.dumps({"id": nonce, "argv": argv, "cwd": cwd, "timeout": timeout, "limit": limit}) + "\n"
            try:  # any fault kills the server: the next command gets a fresh one
                self._send(req.encode(), deadline)
                try:
                    line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    raise ChannelFault(f"exec server gave no reply within {timeout + BACKSTOP_S:.0f}s (stopped or "
                                       "starved by the sandbox's processes)") from None
                if line is None:
                    raise ChannelFault("exec server exited during the command (killed from inside the sandbox?)")
                if isinstance(line, _Overflow):
                    raise ChannelFault(f"exec channel carried a line over {self.max_line} bytes")
                return self._parse(line, nonce, time.monotonic() - t0)
            except ChannelFault:
                self.kill()
                raise

    def _parse(self, line: bytes, nonce: str, duration: float) -> ExecResult:
        try:
            reply = json.loads(line)
            if not isinstance(reply, dict):
                raise TypeError("not an object")
            if self.verify_ids and reply.get("id") != nonce:
                raise ChannelFault("exec channel carried a reply that is not for this command")
            rc, out = reply["rc"], reply["out"]
            if not isinstance(rc, int) or isinstance(rc, bool) or not isinstance(out, str):
                raise TypeError("bad field types")
            data = base64.b64decode(out, validate=True)
            return ExecResult(output=data.decode("utf-8", errors="replace"), returncode=rc,
                              timed_out=reply.get("timed_out") is True, truncated=reply.get("truncated") is True,
                              duration_s=duration)
        except ChannelFault:
            raise
        except (ValueError, TypeError, KeyError, binascii.Error) as exc:
            raise ChannelFault(f"exec channel carried garbage ({type(exc).__name__}: {str(exc)[:80]})") from exc

    def _close_channel(self) -> None:
        """Close the request pipe (the reply pipe belongs to its reader thread)."""
        if self._req_w is not None:
            with contextlib.suppress(OSError):
                os.close(self._req_w)
        self._req_w = None

    def kill(self) -> None:
        """Kill bwrap's process group: its pid namespace, and every process in it, goes with it."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=10)
        self._close_channel()
