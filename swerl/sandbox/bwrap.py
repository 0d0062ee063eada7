"""bubblewrap backend (laptop/CI default): one bwrap per sandbox, own pid/net/ipc/uts/cgroup namespaces.

Commands never run as host root: a root caller's sandbox uid 0 would be host root for the
kernel (it could open `/proc/sys/kernel/core_pattern`), so a root caller starts bwrap
without a user namespace and runs every command as `BwrapSettings.uid` (a uid no host
account has: refused otherwise); only the exec server (`bwrap_server.py`) keeps uid 0, with
just the capabilities to start and kill them.

Limits (`limits.py`): every bwrap of a sandbox runs in its own pids cgroup (v1 or v2; else
RLIMIT_NPROC) and cpu cgroup (a quota of `cpus`; else pinned to ceil(cpus) cores), and as root the work tree, /tmp and $HOME live on a tmpfs of `disk_mb` mounted
on the host, so the agent's writes end in ENOSPC inside and a full disk is blamed by what
that filesystem reports. What cannot be applied (a non-root caller) is logged.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from pathlib import Path
from typing import Any

from swerl.log import get_logger
from swerl.sandbox import hardening, hostfs, limits, seccomp
from swerl.sandbox.base import (
    AgentFault,
    BackendBase,
    HardeningError,
    HostDiskFull,
    SandboxConfigError,
    SandboxError,
    SandboxHandle,
)
from swerl.sandbox.bwrap_server import SERVER_CAPS, ChannelFault, ExecServer
from swerl.sandbox.patch import git_env, run_git
from swerl.sandbox.proc import run_capped
from swerl.sandbox.schema import ExecResult, SandboxSettings

log = get_logger(__name__)

DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# /etc entries a shell and Python need; never the whole /etc (shadow, ssh host keys, pip.conf with tokens).
HOST_ETC = (
    "passwd", "group", "hosts", "nsswitch.conf", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime",
    "alternatives", "ssl", "ca-certificates", "profile", "profile.d", "bash.bashrc", "inputrc", "mime.types",
    "os-release", "debian_version", "python3", "python3.11", "python3.12", "python3.13",
)
HOST_TOP = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# After this many exec-server losses caused from inside, the sandbox is abandoned (every exec: AgentFault).
MAX_SERVER_RESTARTS = 3
# Namespaces for a root caller: everything but the user namespace (whose uid 0 would be host root).
ROOT_UNSHARE = ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try")
PERCOMMAND_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")  # for setpriv, which drops all of them


def _drop_git_and_bytecode(work: Path) -> None:
    """Remove every .git, __pycache__ and compiled Python file from `work`: what a hardened (not pristine) tree
    must not carry in from the host's repository."""
    junk = (".git", "__pycache__")
    drop = [item.rel for item in hostfs.iter_tree(work, max_depth=1 << 20, prune=lambda i: i.name in junk)
            if item.name in junk or item.name.endswith((".pyc", ".pyo"))]
    for rel in drop:
        hostfs.remove_path(work / rel)


def _git(args: list[str], cwd: Path | None = None) -> str:
    return run_git(["-c", "advice.detachedHead=false", *args], git_env("/nonexistent"), cwd=cwd)


class BwrapSandbox(BackendBase):
    """Sandbox = a host work tree + a bwrap jail around it (one per sandbox, or one per command)."""

    name = "bwrap"

    def pristine_key(self, task: Any) -> str | None:
        """The problem branch's commit and its parent in the host repository (the grader caches exports by it)."""
        if task.repo_dir is None:
            return None
        try:
            head = _git(["-C", str(task.repo_dir), "rev-parse", f"{task.branch}^{{commit}}"]).strip()
        except (RuntimeError, OSError):
            return None
        return f"bwrap:{Path(task.repo_dir).resolve()}:{head}:{self.rootfs}"

    def __init__(self, settings: SandboxSettings | None = None) -> None:
        super().__init__(settings)
        cfg = self.settings.bwrap
        self.executable = shutil.which(cfg.executable) or cfg.executable
        if not Path(self.executable).exists():
            raise SandboxError(f"bubblewrap not found ({cfg.executable!r}); install it: apt-get install bubblewrap")
        self.prlimit = shutil.which("prlimit")
        self.rootfs = cfg.rootfs.resolve() if cfg.rootfs else None
        if self.rootfs is not None and not (self.rootfs / "usr").is_dir():
            raise SandboxError(f"bwrap rootfs {self.rootfs} has no usr/ (build it: swerl sandbox build-images)")
        self.as_root = os.geteuid() == 0
        self.uid = cfg.uid if self.as_root else os.geteuid()
        self.gid = cfg.uid if self.as_root else os.getegid()
        if self.as_root and (known := limits.host_account(cfg.uid, cfg.uid)):
            raise SandboxConfigError(f"sandbox.bwrap.uid={cfg.uid}: {known}; sandbox commands must run as a uid (and "
                                     "gid) no host account or group has - choose another (default "
                                     "2000000000)")
        if not self.as_root:
            limits.log_once("bwrap:nonroot", "bwrap as a non-root caller: commands run as the caller's uid (a user "
                            "namespace), no disk quota (cannot mount); bwrap.uid applies to root callers only",
                            uid=self.uid)
        try:
            self.pids = limits.CgroupLimiter(cfg.pids_limiter)
        except RuntimeError as exc:
            raise SandboxConfigError(f"sandbox.bwrap.pids_limiter: {exc}") from exc
        self.cpu = limits.CgroupLimiter(controller="cpu")
        # where the CPU limit is a core set, nothing inside may widen it; under a cgroup quota pinning is allowed
        self.seccomp_program = seccomp.program_file(affinity=self.cpu.kind == "affinity") if cfg.seccomp else None
        if cfg.seccomp and self.seccomp_program is None:
            log.warning("no seccomp filter for this machine: ptrace between sandbox processes is not filtered")
        if self.as_root and cfg.disk_quota:
            limits.reap_quotas()
        if self.as_root and self.rootfs is not None:
            mode = self.rootfs.stat().st_mode
            if mode & 0o005 != 0o005:  # mkdtemp made it 0700: the sandbox uid could not even traverse "/"
                self.rootfs.chmod(stat.S_IMODE(mode) | 0o055)

    def _system_args(self) -> list[str]:
        if self.rootfs is not None:
            return ["--ro-bind", str(self.rootfs), "/"]
        args = ["--ro-bind", "/usr", "/usr"]
        for top in HOST_TOP:
            p = Path("/") / top
            if p.is_symlink():
                args += ["--symlink", os.readlink(p), f"/{top}"]
            elif p.is_dir():
                args += ["--ro-bind", str(p), f"/{top}"]
        for name in HOST_ETC:
            if (Path("/etc") / name).exists():
                args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
        return args

    def _git_binaries(self) -> list[str]:
        """Git binaries visible in the sandbox's system tree (to be shadowed by the stub)."""
        base = self.rootfs or Path("/")
        found = set()
        for d in DEFAULT_PATH.split(":"):
            cand = base / d.lstrip("/") / "git"
            if cand.exists() or cand.is_symlink():
                found.add(d + "/git")
        return sorted(found)

    def _launch(self, handle: SandboxHandle) -> None:
        """Prepare a sandbox's host side and its bwrap arguments: the quota'd tree, the work tree (the grader's
        copy or a clone), git stubbed out where unusable, ownership and environment; then the exec server."""
        task = handle.task
        grade_tree: Path | None = handle.state.get("grade_tree")
        if grade_tree is None and (task.repo_dir is None or not Path(task.repo_dir).is_dir()):
            raise SandboxError(f"task {task.instance_id}: the bwrap backend needs a local repo_dir (got {task.repo_dir})")
        if self.rootfs is not None and not (self.rootfs / task.workdir.lstrip("/")).is_dir():
            raise SandboxError(f"rootfs {self.rootfs} has no mount point for workdir {task.workdir}")
        fs = self._mount_quota(handle)
        work, tmp, home = fs / "work", fs / "tmp", fs / "home"
        handle.state.update(work=work, tmp=tmp, home=home)
        handle.state["pids"] = self.pids.create(handle.id, self.settings.pids_limit, uid=self.uid)
        handle.state["cpu"] = self.cpu.create(handle.id, self.settings.cpus, uid=self.uid)
        tmp.mkdir()
        home.mkdir()
        (fs / "shm").mkdir()
        os.chmod(fs / "shm", 0o1777)  # POSIX semaphores and shared memory (multiprocessing locks), inside the quota
        saved = handle.host_dir / "git"  # on the host disk, never inside the sandbox's tree or quota
        if grade_tree is not None:  # grading: exactly the grader's host-built tree, never a clone with history
            self._copy_grade_tree(handle, grade_tree, work)
        else:
            self._clone_task_repo(handle, work, saved)
        # grading: the tree is mounted read-only (and, as root, stays host root's), so code under test can neither
        # rewrite a test file before pytest collects it nor plant bytecode/conftest files at run time
        read_only = grade_tree is not None and not handle.state.get("keep_git")  # keep_git: audit controls only
        unshare = list(ROOT_UNSHARE) if self.as_root else ["--unshare-all"]
        args = [*unshare, "--die-with-parent", "--new-session", "--cap-drop", "ALL", *self._system_args(),
                "--proc", "/proc", "--dev", "/dev", "--bind", str(fs / "shm"), "/dev/shm",
                "--bind", str(tmp), "/tmp", "--bind", str(home), "/root",
                "--ro-bind" if read_only else "--bind", str(work), task.workdir, "--hostname", "sandbox",
                *self._account_args(handle)]
        if read_only or not handle.pristine:  # git unusable for agents and graders alike
            stub = hardening.write_stub(handle.host_dir / "stub")
            args += ["--tmpfs", hardening.GIT_CORE]
            for path in self._git_binaries():
                args += ["--ro-bind", str(stub), path]
        if not handle.pristine:
            if grade_tree is None:
                hostfs.remove_path(work / ".git")  # the gitlink; the repository itself is in `saved`
                handle.git_dir = saved / ".git"
            _drop_git_and_bytecode(work)
        if self.as_root:
            for d in ((tmp, home) if read_only else (work, tmp, home)):
                hostfs.chown_tree(d, self.uid, self.gid)
            if read_only:
                hostfs.read_only_tree(work)
        args += ["--remount-ro", "/", "--clearenv"]
        env = {"PATH": DEFAULT_PATH, "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb", **self.settings.env}
        for key, value in env.items():
            args += ["--setenv", key, value]
        handle.state.update(args=args, restarts=0)
        if self.settings.bwrap.persistent:
            server = self._new_server(handle)
            if server.start():
                handle.state["server"] = server
            else:
                log.warning("bwrap exec server did not start (no python3 in the system tree?); one bwrap per command",
                            id=handle.id)

    def _account_args(self, handle: SandboxHandle) -> list[str]:
        """The sandbox uid as an account inside the sandbox only (`limits.account_files`), from a passwd and a group
        file of its own over the system tree's. The host's files are never changed; a uid that has an account there
        already (a non-root caller's own) keeps it."""
        etc: dict[str, str] = {}
        for name in ("passwd", "group"):
            try:
                etc[name] = ((self.rootfs or Path("/")) / "etc" / name).read_text(errors="replace")
            except OSError:
                etc[name] = ""
        out: list[str] = []
        for name, text in limits.account_files(etc, self.uid, self.gid).items():
            path = handle.host_dir / f"etc-{name}"
            path.write_text(text)
            path.chmod(0o644)
            out += ["--ro-bind", str(path), f"/etc/{name}"]
        return out

    def _copy_grade_tree(self, handle: SandboxHandle, grade_tree: Path, work: Path) -> None:
        """Copy the grader's tree into `work`; out of quota, that is the agent's patch's doing (an AgentFault)."""
        try:
            hostfs.copy_tree_safely(grade_tree, work, max_depth=self.settings.limits.max_depth)
        except OSError as exc:
            if hostfs.is_disk_full(exc) and handle.state.get("quota") is not None:
                # the pristine tree (with .git) fit the same quota in the export sandbox: the patch grew it
                raise AgentFault(f"sandbox {handle.id}: the patched tree does not fit the sandbox's disk quota "
                                 f"(sandbox.disk_mb={self.settings.disk_mb}): {exc}") from exc
            raise

    def put_tree_files(self, handle: SandboxHandle, tree: Path, rels: list[str]) -> None:
        work = Path(handle.state["work"])
        for rel in rels:
            if hostfs.crosses_symlink(work, Path(rel).parts[:-1]) or hostfs.crosses_symlink(tree, Path(rel).parts[:-1]):
                raise AgentFault(f"refusing to place {rel} through a symlink")
            hostfs.remove_path(work / rel)
            hostfs.make_dirs((work / rel).parent)
            if (tree / rel).is_symlink():  # as a link, never followed on the host
                os.symlink(os.readlink(tree / rel), work / rel)
            elif (tree / rel).is_file():
                shutil.copyfile(tree / rel, work / rel)
                os.chmod(work / rel, hostfs.git_mode((tree / rel).stat().st_mode))

    def _clone_task_repo(self, handle: SandboxHandle, work: Path, saved: Path) -> None:
        """Clone the task's repo into `work` at its branch; unless pristine, its .git goes to `saved` on the host
        (so the agent cannot read history), and git's failures are classified (missing branch, quota, other)."""
        task = handle.task
        try:
            if handle.pristine:
                _git(["clone", "-q", "--no-hardlinks", str(task.repo_dir), str(work)])
            else:  # .git stays on the host: a gitlink file in the tree, removed below
                saved.mkdir(mode=0o700)
                _git(["clone", "-q", "--no-hardlinks", f"--separate-git-dir={saved / '.git'}", str(task.repo_dir),
                      str(work)])
            _git(["checkout", "-q", "-f", task.branch], cwd=work)
        except RuntimeError as exc:
            if "did not match" in str(exc) or "pathspec" in str(exc) or "invalid reference" in str(exc):
                raise HardeningError(f"task {task.instance_id}: branch {task.branch!r} is missing from {task.repo_dir}") from exc
            if "No space left" in str(exc):
                raise SandboxConfigError(f"task {task.instance_id}: the repository does not fit the sandbox's "
                                         f"disk quota (sandbox.disk_mb={self.settings.disk_mb})") from exc
            raise SandboxError(f"task {task.instance_id}: cannot prepare work tree: {exc}") from exc

    def _new_server(self, handle: SandboxHandle) -> ExecServer:
        # a reply carries at most output_limit bytes, base64-encoded, plus a small JSON envelope
        max_line = self.settings.output_limit_bytes * 4 // 3 + 65536
        return ExecServer(self._command(handle, handle.task.workdir, [], server=True),
                          str(handle.host_dir / "server.log"), uid=self.uid if self.as_root else -1,
                          gid=self.gid if self.as_root else -1, max_line=max_line)

    def _command(self, handle: SandboxHandle, cwd: str, argv: list[str], *, server: bool = False) -> list[str]:
        caps: list[str] = []
        if self.as_root:
            # the exec server keeps what it needs to start/kill commands as `uid`; a per-command bwrap keeps
            # what setpriv needs to become `uid` with no capabilities at all
            for cap in SERVER_CAPS if server else PERCOMMAND_CAPS:
                caps += ["--cap-add", cap]
            if not server:
                argv = ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups",
                        "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all", "--", *argv]
        cmd = [self.executable, *handle.state["args"], *caps, "--chdir", cwd, "--", *argv]
        if self.seccomp_program is not None:
            cmd = seccomp.bwrap_command(cmd, self.seccomp_program)
        cmd = handle.state["cpu"].wrap(cmd)  # a CPU quota's cgroup (or a core set) before bwrap: inherited by all
        pids: limits.SandboxGroup = handle.state["pids"]
        if pids.path is not None:
            cmd = pids.wrap(cmd)  # `sh` joins the sandbox's pids cgroup, then execs bwrap: nothing forks outside it
        if self.prlimit:
            # Cap the address space (an approximation of the memory limit). Via util-linux prlimit, not
            # preexec_fn: that forces fork() of this big process (+15 ms a command). No core dumps (hard limit
            # 0): a crash must never reach the host's core_pattern handler. No writable pids cgroup: RLIMIT_NPROC.
            nproc = [f"--nproc={pids.nproc}:{pids.nproc}"] if pids.nproc is not None else []
            cmd = [self.prlimit, f"--as={self.settings.memory_mb * 1024 * 1024 * 2}", "--core=0:0", *nproc, "--", *cmd]
        return cmd

    def _exec(self, handle: SandboxHandle, argv: list[str], timeout: float, cwd: str) -> ExecResult:
        server: ExecServer | None = handle.state.get("server")
        limit = self.settings.output_limit_bytes
        if server is None:
            return run_capped(self._command(handle, cwd, argv), timeout=timeout, limit=limit, env={"PATH": DEFAULT_PATH})
        if not server.alive:
            # Only a command that broke the channel stops the server (and the whole bwrap with it): start a
            # fresh one for the agent, a bounded number of times, never re-running that command.
            if handle.state["restarts"] >= MAX_SERVER_RESTARTS:
                raise AgentFault(f"sandbox {handle.id}: the exec server was broken from inside "
                                 f"{handle.state['restarts']} times; sandbox abandoned")
            handle.state["restarts"] += 1
            log.warning("bwrap exec server lost; restarting", id=handle.id, restarts=handle.state["restarts"])
            if not server.start():
                raise AgentFault(f"sandbox {handle.id}: the exec server cannot be restarted after the agent broke it")
        try:
            return server.run(argv, cwd, timeout, limit)
        except ChannelFault as exc:
            raise AgentFault(f"sandbox {handle.id}: {exc}") from exc
        except ConnectionError as exc:  # it had started (else no server here) and died just before this command
            raise AgentFault(f"sandbox {handle.id}: {exc} (it died between commands)") from exc

    def _host_path(self, handle: SandboxHandle, path: str) -> Path:
        """Map a sandbox path under the work dir or /tmp to its host location (the only writable places)."""
        work_dir = handle.task.workdir.rstrip("/")
        for prefix, host in ((work_dir, handle.state["work"]), ("/tmp", handle.state["tmp"])):
            if path == prefix or path.startswith(prefix + "/"):
                rel = path[len(prefix):].lstrip("/")
                if hostfs.crosses_symlink(host, Path(rel).parts):  # never follow an agent-made symlink on the host
                    raise AgentFault(f"refusing to copy through symlink {path} (made inside the sandbox)")
                return (host / rel) if rel else host
        raise SandboxError(f"bwrap sandboxes only copy under {work_dir} or /tmp, not {path}")

    def copy_in(self, handle: SandboxHandle, src: Path, dest: str) -> None:
        target = self._host_path(handle, dest)
        try:
            if Path(src).is_dir():
                hostfs.copy_tree_safely(Path(src), target, limit_bytes=self.settings.copy_limit_bytes,
                                        max_depth=self.settings.limits.max_depth)
                if self.as_root:
                    hostfs.chown_tree(target, self.uid, self.gid)
            else:
                hostfs.make_dirs(target.parent)
                hostfs.copy_file_into(Path(src), target)
                if self.as_root:
                    os.chown(target, self.uid, self.gid, follow_symlinks=False)
        except OSError as exc:
            if hostfs.is_disk_full(exc):
                raise self.disk_full_error(handle, exc, into_sandbox=True) from exc
            raise

    def copy_out(self, handle: SandboxHandle, src: str, dest: Path) -> None:
        """Copy out of the agent's tree: whatever goes wrong reading it (size, depth, names, permissions, a tree
        that changes under the copy) is the agent's doing, except the host's own disk filling up without the
        sandbox having filled it."""
        try:
            hostfs.copy_tree_safely(self._host_path(handle, src), dest, limit_bytes=self.settings.copy_limit_bytes,
                                    max_depth=self.settings.limits.max_depth)
        except hostfs.TreeTooDeep as exc:
            raise AgentFault(f"sandbox {handle.id}: {src} is deeper than {self.settings.limits.max_depth} levels "
                             "(limits.max_depth)") from exc
        except hostfs.CopyLimitExceeded as exc:
            raise AgentFault(f"sandbox {handle.id}: {src} is larger than the copy limit "
                             f"({self.settings.copy_limit_bytes} bytes)") from exc
        except SandboxError:
            raise
        except Exception as exc:
            if hostfs.is_disk_full(exc):
                raise self.disk_full_error(handle, exc) from exc
            raise AgentFault(f"sandbox {handle.id}: {src} cannot be copied out: {type(exc).__name__}: {exc}") from exc

    # ------------------------------------------------------------------------------------------ disk quota

    def _mount_quota(self, handle: SandboxHandle) -> Path:
        """The directory holding the work tree, /tmp and $HOME: a tmpfs of `disk_mb` when swerl is root."""
        fs = handle.host_dir / "fs"
        fs.mkdir()
        if not (self.as_root and self.settings.bwrap.disk_quota):
            return fs
        try:
            handle.state["quota"] = limits.mount_quota(fs, self.settings.disk_mb * 1024 * 1024, handle.id)
        except OSError as exc:
            limits.log_once("bwrap:noquota", "bwrap: no disk quota (a size-limited tmpfs cannot be mounted here); "
                            "sandbox trees live on the host disk without a limit", error=str(exc), warn=True)
        return fs

    def disk_usage(self, handle: SandboxHandle) -> int:
        """Bytes the sandbox occupies: what its quota filesystem reports (files deleted but still open count);
        without one, its trees plus the files its processes hold open after deleting them."""
        quota: limits.DiskQuota | None = handle.state.get("quota")
        if quota is not None:
            return quota.usage()[0]
        allowance = self.settings.disk_mb * 1024 * 1024
        dirs = [d for d in (handle.state.get("work"), handle.state.get("tmp"), handle.state.get("home")) if d]
        used = sum(hostfs.tree_bytes(d, allowance) for d in dirs)
        pids: list[int] = []
        if (group := handle.state.get("pids")) is not None:
            pids = group.pids()
        server: ExecServer | None = handle.state.get("server")
        if not pids and server is not None and server.proc is not None:
            pids = limits.descendants(server.proc.pid)
        devices = set()
        for d in dirs:
            with contextlib.suppress(OSError):
                devices.add(os.stat(d).st_dev)
        return used + hostfs.held_deleted_bytes(pids, devices)

    def disk_full_error(self, handle: SandboxHandle, exc: BaseException, *, into_sandbox: bool = False) -> SandboxError:
        """Blamed on the sandbox by what its own filesystem reports, never by walking names alone: with a quota,
        a write into it that hit ENOSPC is the sandbox's (it is the only writer); the host disk is not, since
        the sandbox's files are not on it. Without one: the sandbox's when it occupies `disk_mb` or more."""
        quota: limits.DiskQuota | None = handle.state.get("quota")
        allowance = self.settings.disk_mb * 1024 * 1024
        try:
            if quota is not None:
                if into_sandbox:
                    return AgentFault(f"sandbox {handle.id} filled its disk quota ({quota.describe()}; "
                                      f"sandbox.disk_mb={self.settings.disk_mb}): {exc}")
                return HostDiskFull(f"sandbox {handle.id}: host disk full; the sandbox's files are on its own quota "
                                    f"({quota.describe()}): {exc}")
            used = self.disk_usage(handle)
        except Exception as measure_exc:  # cannot tell: the quota filesystem is gone or unreadable
            return AgentFault(f"sandbox {handle.id}: disk full and the sandbox's usage cannot be measured "
                              f"({measure_exc}): {exc}")
        if used >= allowance:
            return AgentFault(f"sandbox {handle.id} filled the disk: it occupies {used} bytes (allowance "
                              f"sandbox.disk_mb={self.settings.disk_mb}): {exc}")
        return HostDiskFull(f"sandbox {handle.id}: host disk full; the sandbox occupies {used} bytes, within "
                            f"sandbox.disk_mb={self.settings.disk_mb}: {exc}")

    def _teardown(self, handle: SandboxHandle) -> None:
        """Kill the exec server's bwrap (its pid namespace takes every agent process along), then whatever is
        left in the sandbox's pids cgroup; detach its disk quota. Per-command bwraps never outlive their
        command. The work tree goes with `handle.host_dir`. Every step runs even if one before failed."""
        errors: list[str] = []
        server: ExecServer | None = handle.state.get("server")
        for step in (server.kill if server is not None else None,
                     getattr(handle.state.get("pids"), "release", None),
                     getattr(handle.state.get("cpu"), "release", None),
                     getattr(handle.state.get("quota"), "release", None)):
            if step is None:
                continue
            try:
                step()
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
        if errors:
            raise SandboxError(f"sandbox {handle.id} teardown: {'; '.join(errors)[:400]}")
