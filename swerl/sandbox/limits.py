"""Per-sandbox resource limits enforced from the host (the bwrap backend's; docker has the engine's own).

- **pids**: a pids cgroup per sandbox - cgroup v1 (`<pids mount>/<own cgroup>/swerl/<owner pid>-<id>`) or
  cgroup v2 (`<mount>/swerl/<owner pid>-<id>`, else next to this process's own cgroup), whichever is
  writable - entered by a tiny `sh` wrapper before bwrap execs, so nothing forks outside it. Neither
  writable (a non-root caller without delegation, a read-only cgroupfs): RLIMIT_NPROC via `prlimit`, set to
  what the command uid already runs plus the limit (the count is per uid, not per sandbox). Which one is
  used is logged once per process.
- **cpus**: the same machinery with the cpu controller: a CPU quota of `cpus` cores' worth of time per 100 ms
  (v1 `cpu.cfs_quota_us`, v2 `cpu.max`; docker's `--cpus`), so one sandbox cannot take every host core. No
  writable cpu cgroup: its processes are pinned to ceil(cpus) cores (`taskset`, chosen at random per sandbox),
  and bwrap's seccomp filter denies `sched_setaffinity`, so nothing inside can widen the set.
- **disk**: a size-limited tmpfs (`size=`, `nr_inodes=`) mounted by root on the sandbox's host directory;
  the work tree, /tmp and $HOME live on it. Writes past it fail with ENOSPC inside, the host disk is never
  touched, and `statvfs` of it tells who filled what - deleted-but-open files included.
- **uid**: the dedicated sandbox uid must not be a host account.

Mounts and cgroups carry the owner's pid in their names; `reap()` removes those of owners that died.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import grp
import math
import os
import pwd
import random
import re
import shutil
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from swerl.log import get_logger

log = get_logger(__name__)

CGROUP_ROOT = Path("/sys/fs/cgroup")
MOUNTINFO = Path("/proc/self/mountinfo")
QUOTA_SOURCE = "swerl-quota"  # tmpfs source name: swerl-quota-<owner pid>-<handle id>
_ENTER = 'echo $$ > "$0" || exit 97; exec "$@"'  # sh wrapper: join the cgroup, then become the command
_LOGGED: set[str] = set()
_LOG_LOCK = threading.Lock()


def log_once(key: str, message: str, *, warn: bool = False, **fields: object) -> None:
    """Log `message` once per process and `key` (a host fact, e.g. which pids limiter is used)."""
    with _LOG_LOCK:
        if key in _LOGGED:
            return
        _LOGGED.add(key)
    (log.warning if warn else log.info)(message, **fields)


# ---------------------------------------------------------------------------------------------------- uid


def host_account(uid: int, gid: int | None = None) -> str | None:
    """What the host's passwd/group databases know about `uid`/`gid` (None: neither is an account/group)."""
    try:
        return f"uid {uid} is the host account {pwd.getpwuid(uid).pw_name!r}"
    except KeyError:
        pass
    if gid is not None:
        try:
            return f"gid {gid} is the host group {grp.getgrgid(gid).gr_name!r}"
        except KeyError:
            pass
    return None


def account_files(etc: dict[str, str], uid: int, gid: int) -> dict[str, str]:
    """{"passwd"/"group": the file's text with a `sandbox` entry for `uid`/`gid` added}, for each of `etc` (the
    system tree's files) that has none: `getpass.getuser()`, `pwd.getpwuid(os.getuid())` and `~` then work for the
    sandbox user as for a login user (a tool that names its user, and its tests: R68-FP), on every backend alike.
    A file that has an entry for the id already is left out (it keeps its own)."""
    out: dict[str, str] = {}
    for name, ident, line in (("passwd", uid, f"sandbox:x:{uid}:{gid}:swerl sandbox:/root:/bin/sh"),
                              ("group", gid, f"sandbox:x:{gid}:")):
        text = etc.get(name, "")
        if not any(row.split(":")[2:3] == [str(ident)] for row in text.splitlines()):
            out[name] = text + ("" if not text or text.endswith("\n") else "\n") + line + "\n"
    return out


# ------------------------------------------------------------------------------------------------ pids, cpu


def _pid_namespace() -> str:
    from swerl.sandbox.owners import pid_namespace

    return pid_namespace()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _mounts(mountinfo: Path) -> list[tuple[str, str, str, str]]:
    """(mount point, fs type, source, super options) of every mount."""
    out = []
    with contextlib.suppress(OSError):
        for line in mountinfo.read_text().splitlines():
            left, _, right = line.partition(" - ")
            fields, rfields = left.split(), right.split()
            if len(fields) >= 5 and len(rfields) >= 3:
                point = fields[4].replace("\\040", " ")
                out.append((point, rfields[0], rfields[1], rfields[2]))
    return out


def _own_cgroup(controller: str | None) -> str:
    """This process's cgroup path for a v1 controller (None: the v2 entry)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            num, ctrls, path = line.split(":", 2)
            if (controller is None and num == "0" and ctrls == "") or (controller in ctrls.split(",")):
                return path
    return "/"


_PROBE = {"pids": 1, "cpu": 1.0}  # a limit every controller accepts, written to prove a probe group


def _limit_file(controller: str, v2: bool, value: float) -> tuple[str, str]:
    """The file and text that set a group's limit: `pids` tasks, or `cpu` cores' worth of time per 100 ms period
    (docker's `--cpus`: a quota, not a core set)."""
    if controller == "pids":
        return "pids.max", str(int(value))
    quota = max(1000, int(value * 100_000))
    return ("cpu.max", f"{quota} 100000") if v2 else ("cpu.cfs_quota_us", str(quota))


@dataclass
class SandboxGroup:
    """One sandbox's limit of one kind: `wrap(argv)` runs argv inside it; `release()` never raises."""

    kind: str  # cgroup-v1 | cgroup-v2 | rlimit (pids) | affinity (cpu) | off
    limit: float
    path: Path | None = None
    nproc: int | None = None
    prlimit: str | None = None
    cpu_list: str | None = None  # affinity: the cores the sandbox's processes may run on

    def wrap(self, argv: list[str]) -> list[str]:
        if self.path is not None:
            return ["/bin/sh", "-c", _ENTER, str(self.path / "cgroup.procs"), *argv]
        if self.nproc is not None and self.prlimit:
            return [self.prlimit, f"--nproc={self.nproc}:{self.nproc}", "--", *argv]
        if self.cpu_list is not None and (taskset := shutil.which("taskset")):
            return [taskset, "--cpu-list", self.cpu_list, *argv]
        return argv

    def pids(self) -> list[int]:
        """Processes in the cgroup (empty for the fallbacks)."""
        if self.path is None:
            return []
        try:
            return [int(x) for x in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def current(self) -> int | None:
        if self.path is None:
            return None
        with contextlib.suppress(OSError, ValueError):
            return int((self.path / "pids.current").read_text())
        return None

    def release(self) -> None:
        if self.path is not None:
            _remove_cgroup(self.path)


def _remove_cgroup(path: Path, timeout: float = 5.0) -> None:
    """Kill what is left in the cgroup and remove it; logs, never raises."""
    try:
        kill = path / "cgroup.kill"
        if kill.exists():
            with contextlib.suppress(OSError):
                kill.write_text("1")
        deadline = time.monotonic() + timeout
        while True:
            try:
                os.rmdir(path)
                return
            except FileNotFoundError:
                return
            except OSError as exc:
                if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                    raise
            with contextlib.suppress(OSError, ValueError):
                for pid in (path / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        os.kill(int(pid), signal.SIGKILL)
            time.sleep(0.01)
    except Exception as exc:
        log.warning("sandbox cgroup left behind", path=str(path), error=str(exc)[:200])


class CgroupLimiter:
    """Chooses, once, how one limit (`controller`: pids or cpu) is enforced on this host (the module docstring)."""

    def __init__(self, mode: str = "auto", *, controller: str = "pids", cgroup_root: Path = CGROUP_ROOT,
                 mountinfo: Path = MOUNTINFO, own_cgroup: dict[str | None, str] | None = None) -> None:
        self.mode, self.controller = mode, controller
        self.prlimit = shutil.which("prlimit")
        self.kind = "off"
        self.base: Path | None = None
        self.reason = ""
        self._cgroup_root, self._mountinfo, self._own = cgroup_root, mountinfo, own_cgroup
        if mode in ("auto", "cgroup"):
            self._find_cgroup()
        if self.base is None and mode in ("auto", "rlimit", "affinity"):  # the fallback, by either name
            fallback = self.prlimit if controller == "pids" else shutil.which("taskset")
            if fallback:
                self.kind = "rlimit" if controller == "pids" else "affinity"
            else:
                self.reason += "; no prlimit for RLIMIT_NPROC" if controller == "pids" else "; no taskset"
        if mode == "cgroup" and self.base is None:
            raise RuntimeError(f"{controller} limiter 'cgroup' but no {controller} cgroup is writable here "
                               f"({self.reason.strip('; ')})")
        if mode != "off":
            warn = self.kind not in ("cgroup-v1", "cgroup-v2")
            log_once(f"{controller}:{self.kind}:{self.base}", f"sandbox {controller} limit: " + {
                "cgroup-v1": f"cgroup v1 {controller} controller", "cgroup-v2": f"cgroup v2 {controller} controller",
                "rlimit": "RLIMIT_NPROC via prlimit (no writable pids cgroup; the count is per uid)",
                "affinity": "pinned to ceil(cpus) cores via taskset (no writable cpu cgroup); seccomp keeps it",
                "off": f"NONE (no writable {controller} cgroup and no fallback)"}[self.kind],
                base=str(self.base or ""), why=self.reason.strip("; "), warn=warn)

    def _own_path(self, controller: str | None) -> str:
        if self._own is not None:
            return self._own.get(controller, "/")
        return _own_cgroup(controller)

    def _find_cgroup(self) -> None:
        mounts = _mounts(self._mountinfo)
        v1 = [m for m in mounts if m[1] == "cgroup" and self.controller in m[3].split(",")]
        v2 = [m for m in mounts if m[1] == "cgroup2"]
        for point, *_ in v1:
            base = Path(point) / self._own_path(self.controller).lstrip("/") / "swerl"
            if self._try_base(base, v2=False):
                self.kind = "cgroup-v1"
                return
        for point, *_ in v2:
            root = Path(point)
            if self.controller not in _read(root / "cgroup.controllers").split():
                self.reason += f"; {root}: no {self.controller} controller in cgroup v2"
                continue
            own = root / self._own_path(None).lstrip("/")
            for base in (root / "swerl", own.parent / "swerl"):
                if self._try_base(base, v2=True):
                    self.kind = "cgroup-v2"
                    return

    def _try_base(self, base: Path, *, v2: bool) -> bool:
        """Create `base` (and in v2, enable the controller for its children); prove it with a probe child."""
        probe = base / f"probe-{os.getpid()}-{threading.get_ident()}"
        enable = f"+{self.controller}"
        try:
            if v2 and self.controller not in _read(base.parent / "cgroup.subtree_control").split():
                (base.parent / "cgroup.subtree_control").write_text(enable)
            base.mkdir(exist_ok=True)
            if v2 and self.controller not in _read(base / "cgroup.subtree_control").split():
                (base / "cgroup.subtree_control").write_text(enable)
            probe.mkdir(exist_ok=True)
            name, text = _limit_file(self.controller, v2, _PROBE[self.controller])
            (probe / name).write_text(text)
            if not os.access(probe / "cgroup.procs", os.W_OK):
                raise PermissionError(f"{probe}/cgroup.procs is not writable")
        except OSError as exc:
            self.reason += f"; {base}: {exc.strerror or exc}"
            with contextlib.suppress(OSError):
                probe.rmdir()
            return False
        with contextlib.suppress(OSError):
            probe.rmdir()
        self.base = base
        self.reap()
        return True

    def create(self, name: str, limit: float, *, uid: int) -> SandboxGroup:
        """A limit for one sandbox (`limit` tasks, or cores); `uid` = the uid its commands run as (rlimit)."""
        if self.base is not None:  # named with the pid namespace: a pid means this process only inside it (R43i-H1)
            path = self.base / f"{os.getpid()}.{_pid_namespace()}-{name}"
            path.mkdir(exist_ok=True)
            file, text = _limit_file(self.controller, self.kind == "cgroup-v2", limit)
            (path / file).write_text(text)
            return SandboxGroup(self.kind, limit, path=path)
        if self.kind == "rlimit":
            return SandboxGroup("rlimit", limit, nproc=tasks_of_uid(uid) + int(limit), prlimit=self.prlimit)
        if self.kind == "affinity":
            cores, need = sorted(os.sched_getaffinity(0)), math.ceil(limit)
            if need < len(cores):  # a random choice spreads sandboxes of many processes over the host
                return SandboxGroup("affinity", limit, cpu_list=",".join(map(str, sorted(random.sample(cores, need)))))
        return SandboxGroup("off", limit)

    def reap(self) -> int:
        """Remove sandbox cgroups whose owner process died (a crashed swerl); never raises."""
        n = 0
        if self.base is None:
            return 0
        with contextlib.suppress(OSError):
            for d in self.base.iterdir():
                m = re.match(r"^(\d+)\.(\d+)-", d.name)  # another pid namespace's groups are never judged
                if d.is_dir() and m and m.group(2) == _pid_namespace() and not _alive(int(m.group(1))):
                    _remove_cgroup(d)
                    n += 1
        return n


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def tasks_of_uid(uid: int) -> int:
    """Tasks (threads) whose real uid is `uid`: what RLIMIT_NPROC counts."""
    n = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        real = threads = None
        for line in status.splitlines():
            if line.startswith("Uid:"):
                real = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
        if real == uid:
            n += threads or 1
    return n


# ---------------------------------------------------------------------------------------------------- disk

MS_NOSUID, MS_NODEV = 2, 4
MNT_DETACH = 2
_libc: ctypes.CDLL | None = None


def _c() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    return _libc


@dataclass
class DiskQuota:
    """A size-limited tmpfs at `path` (mounted by `mount_quota`); `release()` detaches it, never raises."""

    path: Path
    size: int
    inodes: int
    mounted: bool = True
    extra: dict[str, int] = field(default_factory=dict)

    def usage(self) -> tuple[int, int, int, int]:
        """(bytes used, bytes total, inodes used, inodes total) as the filesystem reports them: files deleted
        but still open count until closed."""
        st = os.statvfs(self.path)
        return ((st.f_blocks - st.f_bfree) * st.f_frsize, st.f_blocks * st.f_frsize, st.f_files - st.f_ffree,
                st.f_files)

    def full(self, need: int = 0) -> bool:
        """Whether the sandbox has used up its quota (within 1 MiB, or `need` bytes, or every inode)."""
        used, total, iused, itotal = self.usage()
        return total - used <= max(1 << 20, need) or iused >= itotal

    def describe(self) -> str:
        used, total, iused, itotal = self.usage()
        return f"{used} of {total} bytes, {iused} of {itotal} inodes"

    def release(self) -> None:
        if not self.mounted:
            return
        if _c().umount2(str(self.path).encode(), MNT_DETACH) != 0:
            err = ctypes.get_errno()
            if err not in (errno.EINVAL, errno.ENOENT):  # EINVAL: not (or no longer) a mount point
                log.warning("sandbox disk quota left mounted", path=str(self.path), error=os.strerror(err))
                return
        self.mounted = False


def mount_quota(path: Path, size_bytes: int, name: str, *, inodes: int | None = None) -> DiskQuota:
    """Mount a tmpfs of `size_bytes` (and `inodes`) on the existing directory `path`; OSError if not permitted."""
    inodes = inodes or max(16384, size_bytes // 4096)
    source = f"{QUOTA_SOURCE}-{os.getpid()}-{name}".encode()
    opts = f"size={size_bytes},nr_inodes={inodes},mode=0755".encode()
    if _c().mount(source, str(path).encode(), b"tmpfs", MS_NOSUID | MS_NODEV, opts) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount tmpfs on {path}: {os.strerror(err)}")
    return DiskQuota(path, size_bytes, inodes)


def reap_quotas(mountinfo: Path = MOUNTINFO) -> int:
    """Detach sandbox quota mounts whose owner process died (a crashed swerl); never raises. A mount on a host dir
    with an owner record is left to `owners.reap_host_dirs` (run labels, temp dir, what it removed is reported):
    reaping it here, host-wide, took other runs' (and other tests') debris from under them, unreported."""
    from swerl.sandbox import owners

    n = 0
    for point, fstype, source, _ in _mounts(mountinfo):
        m = re.match(rf"^{QUOTA_SOURCE}-(\d+)-", source)
        if fstype == "tmpfs" and m and not _alive(int(m.group(1))) \
                and not (Path(point).parent / owners.OWNER_FILE).exists() \
                and _c().umount2(point.encode(), MNT_DETACH) == 0:
            n += 1
            from swerl.sandbox.hostfs import rmtree_quietly

            rmtree_quietly(Path(point).parent)
    if n:
        log.info("reaped sandbox disk quotas of dead processes", count=n)
    return n


def detach_mounts_under(path: Path, mountinfo: Path = MOUNTINFO) -> int:
    """Detach every mount at or below `path` (a dead sandbox's quota tmpfs), deepest first; never raises."""
    root = str(path).rstrip("/")
    points = sorted((p for p, *_ in _mounts(mountinfo) if p == root or p.startswith(root + "/")), key=len, reverse=True)
    n = 0
    for point in points:
        with contextlib.suppress(Exception):
            n += _c().umount2(point.encode(), MNT_DETACH) == 0
    return n


def descendants(pid: int) -> list[int]:
    """`pid` and every process below it (by parent pid), read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            data = Path(f"/proc/{entry}/stat").read_text()
            ppid = int(data.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out
