"""The bwrap seccomp filter, loaded by real bwrap: memory of other processes out of reach, the rest untouched."""

from __future__ import annotations

import os
import shlex
import shutil
import struct
import subprocess

import pytest

from swerl.sandbox.seccomp import deny_trace_program, program_fd

PROBE = r"""
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": 310, "aarch64": 270}[os.uname().machine]
buf = ctypes.create_string_buffer(8)
local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 8)
remote = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 8)
one, zero = ctypes.c_ulong(1), ctypes.c_ulong(0)  # varargs: full-width integers, never 32-bit ints
libc.syscall.restype = ctypes.c_long
r = libc.syscall(ctypes.c_long(nr), ctypes.c_long(os.getpid()), ctypes.byref(local), one, ctypes.byref(remote), one, zero)
print("vm_readv", r, errno.errorcode.get(ctypes.get_errno(), "-") if r < 0 else "ok")
print("files", len(os.listdir("/")) > 0)
key = {"x86_64": 249, "aarch64": 218}[os.uname().machine]  # request_key("user", <absent>, NULL, 0): no side effect
r = libc.syscall(ctypes.c_long(key), b"user", b"swerl-probe-absent", None, ctypes.c_long(0))
print("request_key", "ok" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), "-"))
"""


def _run(extra: list[str], fds: tuple[int, ...] = ()) -> str:
    argv = ["bwrap", "--unshare-pid", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev",
            *extra, "python3", "-c", PROBE]
    return subprocess.run(argv, capture_output=True, text=True, pass_fds=fds, timeout=60).stdout


def test_filter_denies_cross_process_memory_and_allows_the_rest() -> None:
    assert shutil.which("bwrap")
    plain = _run([])
    assert "vm_readv 8 ok" in plain  # control: without the filter the call works (on itself)
    fd = program_fd()
    assert fd is not None
    try:
        out = _run(["--seccomp", str(fd)], (fd,))
    finally:
        os.close(fd)
    assert "vm_readv -1 EPERM" in out and "files True" in out, out
    # R40i-S1: the uid's user keyring outlived every sandbox (one store all sandboxes of the uid share)
    assert "request_key EPERM" in out and "request_key ENOKEY" in plain, (out, plain)


def test_program_shape() -> None:
    """8 bytes per instruction; ends with allow then EPERM; every jump lands inside the program."""
    prog = deny_trace_program("x86_64")
    insns = [struct.unpack("=HBBI", prog[i:i + 8]) for i in range(0, len(prog), 8)]
    assert insns[-2] == (0x06, 0, 0, 0x7FFF0000) and insns[-1] == (0x06, 0, 0, 0x00050001)
    for i, (code, jt, jf, _) in enumerate(insns):
        if code & 0x07 == 0x05:
            assert i + 1 + max(jt, jf) < len(insns)
    with pytest.raises(ValueError):
        deny_trace_program("sparc")


def test_swerl_bwrap_sandboxes_load_the_filter(bwrap_sandbox: object, bwrap_percommand_sandbox: object,
                                               calc_task: tuple[object, object]) -> None:
    """Both bwrap modes (exec server, a bwrap per command): a command cannot read another process's memory."""
    for sandbox in (bwrap_sandbox, bwrap_percommand_sandbox):
        h = sandbox.start(calc_task[1])  # type: ignore[attr-defined]
        try:
            out = sandbox.exec(h, f"python3 -c {shlex.quote(PROBE)}", timeout=60).output  # type: ignore[attr-defined]
        finally:
            sandbox.stop(h)  # type: ignore[attr-defined]
        assert "vm_readv -1 EPERM" in out and "files True" in out, out
