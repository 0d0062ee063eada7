"""bubblewrap backend (laptop/CI default): one bwrap per sandbox, own pid/net/ipc/uts/cgroup namespaces.

Commands never run as host root: a root caller's sandbox uid 0 would be host root for the
kernel (it could open `/proc/sys/kernel/core_pattern`), so a root caller starts bwrap
without a user namespace and runs every command as `BwrapSettings.uid`; only the exec
server (`bwrap_server.py`) keeps uid 0, with just the capabilities to start and kill them.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path
from typing import Any

from swerl.log import get_logger
from swerl.sandbox import hardening, hostfs
from swerl.sandbox.base import AgentFault, BackendBase, HardeningError, SandboxError, SandboxHandle
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
        task = handle.task
        grade_tree: Path | None = handle.state.get("grade_tree")
        if grade_tree is None and (task.repo_dir is None or not Path(task.repo_dir).is_dir()):
            raise SandboxError(f"task {task.instance_id}: the bwrap backend needs a local repo_dir (got {task.repo_dir})")
        if self.rootfs is not None and not (self.rootfs / task.workdir.lstrip("/")).is_dir():
            raise SandboxError(f"rootfs {self.rootfs} has no mount point for workdir {task.workdir}")
        work, tmp, home = handle.host_dir / "work", handle.host_dir / "tmp", handle.host_dir / "home"
        tmp.mkdir()
        home.mkdir()
        if grade_tree is not None:  # grading: exactly the grader's host-built tree, never a clone with history
            shutil.copytree(grade_tree, work, symlinks=True)
        else:
            try:
                _git(["clone", "-q", "--no-hardlinks", str(task.repo_dir), str(work)])
                _git(["checkout", "-q", "-f", task.branch], cwd=work)
            except RuntimeError as exc:
                if "did not match" in str(exc) or "pathspec" in str(exc) or "invalid reference" in str(exc):
                    raise HardeningError(f"task {task.instance_id}: branch {task.branch!r} is missing from {task.repo_dir}") from exc
                raise SandboxError(f"task {task.instance_id}: cannot prepare work tree: {exc}") from exc
        # grading: the tree is mounted read-only (and, as root, stays host root's), so code under test can neither
        # rewrite a test file before pytest collects it nor plant bytecode/conftest files at run time
        read_only = grade_tree is not None and not handle.state.get("keep_git")  # keep_git: audit controls only
        unshare = list(ROOT_UNSHARE) if self.as_root else ["--unshare-all"]
        args = [*unshare, "--die-with-parent", "--new-session", "--cap-drop", "ALL", *self._system_args(),
                "--proc", "/proc", "--dev", "/dev", "--bind", str(tmp), "/tmp", "--bind", str(home), "/root",
                "--ro-bind" if read_only else "--bind", str(work), task.workdir, "--hostname", "sandbox"]
        if read_only or not handle.pristine:  # git unusable for agents and graders alike
            stub = hardening.write_stub(handle.host_dir / "stub")
            args += ["--tmpfs", hardening.GIT_CORE]
            for path in self._git_binaries():
                args += ["--ro-bind", str(stub), path]
        if not handle.pristine:
            for pycache in [p for p in work.rglob("__pycache__") if p.is_dir()]:
                shutil.rmtree(pycache, ignore_errors=True)
            for pyc in list(work.rglob("*.py[co]")):
                pyc.unlink(missing_ok=True)
            saved = handle.host_dir / "git"
            saved.mkdir(mode=0o700)
            (work / ".git").rename(saved / ".git")  # leaves the bind-mounted tree; stays on the host
            handle.git_dir = saved / ".git"
            for extra in list(work.rglob(".git")):
                hostfs.remove_path(extra)
        if self.as_root:
            for d in ((tmp, home) if read_only else (work, tmp, home)):
                hostfs.chown_tree(d, self.uid, self.gid)
            if read_only:
                hostfs.read_only_tree(work)
        args += ["--remount-ro", "/", "--clearenv"]
        env = {"PATH": DEFAULT_PATH, "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb", **self.settings.env}
        for key, value in env.items():
            args += ["--setenv", key, value]
        handle.state.update(work=work, args=args, restarts=0)
        if self.settings.bwrap.persistent:
            server = self._new_server(handle)
            if server.start():
                handle.state["server"] = server
            else:
                log.warning("bwrap exec server did not start (no python3 in the system tree?); one bwrap per command",
                            id=handle.id)

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
        if self.prlimit:
            # bwrap has no cgroups: cap the address space (an approximation of the memory limit). Via
            # util-linux prlimit, not preexec_fn: that forces fork() of this big process (+15 ms a command).
            # No core dumps (hard limit 0): a crash must never reach the host's core_pattern handler.
            cmd = [self.prlimit, f"--as={self.settings.memory_mb * 1024 * 1024 * 2}", "--core=0:0", "--", *cmd]
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
        for prefix, host in ((work_dir, handle.state["work"]), ("/tmp", handle.host_dir / "tmp")):
            if path == prefix or path.startswith(prefix + "/"):
                rel = path[len(prefix):].lstrip("/")
                if hostfs.crosses_symlink(host, Path(rel).parts):  # never follow an agent-made symlink on the host
                    raise AgentFault(f"refusing to copy through symlink {path} (made inside the sandbox)")
                return (host / rel) if rel else host
        raise SandboxError(f"bwrap sandboxes only copy under {work_dir} or /tmp, not {path}")

    def copy_in(self, handle: SandboxHandle, src: Path, dest: str) -> None:
        target = self._host_path(handle, dest)
        if Path(src).is_dir():
            hostfs.copy_tree_safely(Path(src), target, limit_bytes=self.settings.copy_limit_bytes)
            if self.as_root:
                hostfs.chown_tree(target, self.uid, self.gid)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
            with os.fdopen(fd, "wb") as out, open(src, "rb") as inp:
                shutil.copyfileobj(inp, out)
            if self.as_root:
                os.chown(target, self.uid, self.gid, follow_symlinks=False)

    def copy_out(self, handle: SandboxHandle, src: str, dest: Path) -> None:
        """Copy out of the agent's tree: whatever goes wrong reading it (size, names, permissions, a tree that
        changes under the copy) is the agent's doing, except the host's own disk filling up."""
        try:
            hostfs.copy_tree_safely(self._host_path(handle, src), dest, limit_bytes=self.settings.copy_limit_bytes)
        except hostfs.CopyLimitExceeded as exc:
            raise AgentFault(f"sandbox {handle.id}: {src} is larger than the copy limit "
                             f"({self.settings.copy_limit_bytes} bytes)") from exc
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                limit = self.settings.copy_limit_bytes
                own = (handle.state["work"], handle.host_dir / "tmp", handle.host_dir / "home")
                if sum(hostfs.tree_bytes(d, limit) for d in own) > limit:
                    raise AgentFault(f"sandbox {handle.id} filled the host disk: its own files exceed the copy "
                                     f"limit ({exc})") from exc
                raise SandboxError(f"copy out of {handle.id}: host disk full: {exc}") from exc
            raise AgentFault(f"sandbox {handle.id}: {src} cannot be copied out: {exc}") from exc

    def _teardown(self, handle: SandboxHandle) -> None:
        """Kill the exec server's bwrap (its pid namespace takes every agent process along); per-command
        bwraps never outlive their command. The work tree goes with `handle.host_dir`."""
        server: ExecServer | None = handle.state.get("server")
        if server is not None:
            server.kill()
