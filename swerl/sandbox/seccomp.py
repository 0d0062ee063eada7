"""A seccomp filter for bwrap sandboxes: no process can trace or read/write another's memory, or keep state in
the kernel's keyrings.

bwrap takes a compiled classic-BPF program (`--seccomp FD`). This one returns EPERM for `ptrace`,
`process_vm_readv` and `process_vm_writev`, and for `add_key`, `request_key` and `keyctl` (a uid's user keyring
outlives every sandbox of that uid, and all of them share one uid: a store one sandbox writes and a later one
reads, as docker's default profile denies too), and for `sched_setaffinity` (where no cpu cgroup is writable,
a sandbox's `cpus` is a core set it must not widen), on the native architecture, and for *every* system call
made through another ABI (32-bit `int 0x80` or x32 on x86_64), which would otherwise reach the same
calls under other numbers. Everything else is allowed: the other limits come from namespaces,
dropped capabilities and no_new_privs. The launcher is non-dumpable too; this closes the same door
for every other process of the sandbox (a test process cannot be driven by what it forks).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import platform
import struct
import tempfile

# (audit arch, (ptrace, process_vm_readv, process_vm_writev, add_key, request_key, keyctl, sched_setaffinity))
ARCHES = {
    "x86_64": (0xC000003E, (101, 310, 311, 248, 249, 250, 203)),
    "aarch64": (0xC00000B7, (117, 270, 271, 217, 218, 219, 122)),
}
X32_BIT = 0x40000000
_LD_W_ABS, _JEQ_K, _JGE_K, _RET_K = 0x20, 0x15, 0x35, 0x06
_RET_ALLOW, _RET_EPERM = 0x7FFF0000, 0x00050000 | 1
_ARCH_OFFSET, _NR_OFFSET = 4, 0  # struct seccomp_data {int nr; u32 arch; ...}


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def deny_trace_program(machine: str | None = None, *, affinity: bool = True) -> bytes:
    """The filter for `machine` (default: this one); `affinity=False` leaves `sched_setaffinity` allowed (where a
    cpu cgroup holds the sandbox's CPU limit, pinning is the tests' own business, R43i-FP3)."""
    arch = ARCHES.get(machine or platform.machine())
    if arch is None:
        raise ValueError(f"no seccomp filter for machine {machine or platform.machine()!r}")
    audit_arch, denied = arch[0], arch[1] if affinity else arch[1][:-1]
    n = len(denied)
    prog = [_insn(_LD_W_ABS, 0, 0, _ARCH_OFFSET),
            _insn(_JEQ_K, 1, 0, audit_arch),  # native: go on; else fall through to EPERM
            _insn(_RET_K, 0, 0, _RET_EPERM),
            _insn(_LD_W_ABS, 0, 0, _NR_OFFSET),
            _insn(_JGE_K, n + 1, 0, X32_BIT)]  # x32 numbers: EPERM
    for i, nr in enumerate(denied):
        prog.append(_insn(_JEQ_K, n - i, 0, nr))  # jump to the EPERM at the end
    prog += [_insn(_RET_K, 0, 0, _RET_ALLOW), _insn(_RET_K, 0, 0, _RET_EPERM)]
    return b"".join(prog)


_FILE: dict[bool, str] = {}


def program_file(affinity: bool = True) -> str | None:
    """A file holding the program (written once per process and variant), or None on an unknown machine. bwrap
    reads it on a descriptor: `bwrap_command` opens it as fd 9 through a host shell that then execs bwrap."""
    if affinity in _FILE and os.path.exists(_FILE[affinity]):
        return _FILE[affinity]
    try:
        prog = deny_trace_program(affinity=affinity)
    except ValueError:
        return None
    from swerl.sandbox import owners

    # Named after its owner (pid, start time), so `owners.reap_host_dirs` removes the file a SIGKILLed process left.
    fd, path = tempfile.mkstemp(prefix=f"{owners.seccomp_prefix()}", suffix=".bpf")
    with os.fdopen(fd, "wb") as fh:
        fh.write(prog)
    os.chmod(path, 0o644)
    _FILE[affinity] = path
    atexit.register(_remove, path)
    return path


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def bwrap_command(bwrap_argv: list[str], program: str) -> list[str]:
    """`bwrap ARGS -- CMD` with `--seccomp 9` before its `--`, fd 9 opened on `program` by a host `sh`."""
    cut = bwrap_argv.index("--")
    argv = [*bwrap_argv[:cut], "--seccomp", "9", *bwrap_argv[cut:]]
    return ["/bin/sh", "-c", 'exec "$@" 9<"$0"', program, *argv]


def program_fd() -> int | None:
    """A readable descriptor holding the program (bwrap reads it to the end), or None on an unknown machine."""
    path = program_file()
    return None if path is None else os.open(path, os.O_RDONLY)
