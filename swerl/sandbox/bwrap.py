"""bubblewrap backend: the laptop/CI default.

One `bwrap` per sandbox with all namespaces unshared (so no network at all: only `lo`,
which is the sandbox's own), all capabilities dropped, a read-only system (the host's
/usr or a root filesystem such as the debootstrap base), the task's work tree bound
read-write at /testbed, a private /tmp and $HOME, and `--die-with-parent` so a crashed
harness leaves no process behind. Without `--cap-drop ALL` a root caller would keep
every capability inside. Commands go to a small exec server inside it
(`bwrap_server.py`); `persistent=False` starts a fresh bwrap per command instead
(slower, and background processes then die with their command).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from swerl.log import get_logger
from swerl.sandbox import hardening
from swerl.sandbox.base import BackendBase, HardeningError, SandboxError, SandboxHandle
from swerl.sandbox.bwrap_server import ExecServer
from swerl.sandbox.hostfs import copy_tree_safely
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


def _git(args: list[str], cwd: Path | None = None) -> str:
    env = {"PATH": os.environ.get("PATH", DEFAULT_PATH), "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0", "LANG": "C.UTF-8"}
    proc = subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip() or proc.stdout.strip())
    return proc.stdout


class BwrapSandbox(BackendBase):
    """Sandbox = a host work tree + a bwrap jail around it (one per sandbox, or one per command)."""

    name = "bwrap"

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

    # ------------------------------------------------------------------ launch
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
        if task.repo_dir is None or not Path(task.repo_dir).is_dir():
            raise SandboxError(f"task {task.instance_id}: the bwrap backend needs a local repo_dir (got {task.repo_dir})")
        if self.rootfs is not None and not (self.rootfs / task.workdir.lstrip("/")).is_dir():
            raise SandboxError(f"rootfs {self.rootfs} has no mount point for workdir {task.workdir}")
        work, tmp, home = handle.host_dir / "work", handle.host_dir / "tmp", handle.host_dir / "home"
        tmp.mkdir()
        home.mkdir()
        try:
            _git(["clone", "-q", "--no-hardlinks", str(task.repo_dir), str(work)])
            _git(["checkout", "-q", "-f", task.branch], cwd=work)
        except RuntimeError as exc:
            if "did not match" in str(exc) or "pathspec" in str(exc) or "invalid reference" in str(exc):
                raise HardeningError(f"task {task.instance_id}: branch {task.branch!r} is missing from {task.repo_dir}") from exc
            raise SandboxError(f"task {task.instance_id}: cannot prepare work tree: {exc}") from exc
        args = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                *self._system_args(),
                "--proc", "/proc", "--dev", "/dev",
                "--bind", str(tmp), "/tmp", "--bind", str(home), "/root",
                "--bind", str(work), task.workdir,
                "--hostname", "sandbox"]
        if not handle.pristine:
            for pycache in [p for p in work.rglob("__pycache__") if p.is_dir()]:
                shutil.rmtree(pycache, ignore_errors=True)
            for pyc in list(work.rglob("*.py[co]")):
                pyc.unlink(missing_ok=True)
            saved = handle.host_dir / "git"
            saved.mkdir()
            (work / ".git").rename(saved / ".git")  # leaves the bind-mounted tree; stays on the host
            handle.git_dir = saved / ".git"
            for extra in [p for p in work.rglob(".git")]:
                shutil.rmtree(extra) if extra.is_dir() and not extra.is_symlink() else extra.unlink()
            stub = hardening.write_stub(handle.host_dir / "stub")
            args += ["--tmpfs", hardening.GIT_CORE]
            for path in self._git_binaries():
                args += ["--ro-bind", str(stub), path]
        args += ["--remount-ro", "/"]
        env = {"PATH": DEFAULT_PATH, "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb", **self.settings.env}
        args += ["--clearenv"]
        for key, value in env.items():
            args += ["--setenv", key, value]
        handle.state.update(work=work, args=args)
        if self.settings.bwrap.persistent:
            server = ExecServer(self._command(handle, task.workdir, []), str(handle.host_dir / "server.log"))
            if server.start():
                handle.state["server"] = server
            else:
                log.warning("bwrap exec server did not start (no python3 in the system tree?); one bwrap per command",
                            id=handle.id)

    # ------------------------------------------------------------------ exec / copy
    def _command(self, handle: SandboxHandle, cwd: str, argv: list[str]) -> list[str]:
        cmd = [self.executable, *handle.state["args"], "--chdir", cwd, "--", *argv]
        if self.prlimit:
            # bwrap has no cgroups: cap the address space (an approximation of the memory limit). Via
            # util-linux prlimit, not preexec_fn: that forces fork() of this big process (+15 ms a command).
            cmd = [self.prlimit, f"--as={self.settings.memory_mb * 1024 * 1024 * 2}", "--", *cmd]
        return cmd

    def _exec(self, handle: SandboxHandle, argv: list[str], timeout: float, cwd: str) -> ExecResult:
        server: ExecServer | None = handle.state.get("server")
        limit = self.settings.output_limit_bytes
        if server is None:
            return run_capped(self._command(handle, cwd, argv), timeout=timeout, limit=limit, env={"PATH": DEFAULT_PATH})
        try:
            return server.run(argv, cwd, timeout, limit)
        except ConnectionError as exc:
            # The command (or an earlier one) killed the server: restart it, never re-run the command.
            log.warning("bwrap exec server lost; restarting", id=handle.id, error=str(exc))
            if not server.start():
                raise SandboxError(f"bwrap exec server of {handle.id} cannot be restarted") from exc
            return ExecResult(output="swerl: the sandbox's processes were killed during this command\n",
                              returncode=-9, duration_s=0.0)

    def _host_path(self, handle: SandboxHandle, path: str) -> Path:
        """Map a sandbox path under the work dir or /tmp to its host location (the only writable places)."""
        work_dir = handle.task.workdir.rstrip("/")
        for prefix, host in ((work_dir, handle.state["work"]), ("/tmp", handle.host_dir / "tmp")):
            if path == prefix or path.startswith(prefix + "/"):
                rel = path[len(prefix):].lstrip("/")
                target = (host / rel) if rel else host
                cur = host
                for part in Path(rel).parts:  # never follow an agent-made symlink on the host
                    cur = cur / part
                    if cur.is_symlink():
                        raise SandboxError(f"refusing to copy through symlink {path}")
                return target
        raise SandboxError(f"bwrap sandboxes only copy under {work_dir} or /tmp, not {path}")

    def copy_in(self, handle: SandboxHandle, src: Path, dest: str) -> None:
        target = self._host_path(handle, dest)
        if Path(src).is_dir():
            copy_tree_safely(Path(src), target, limit_bytes=self.settings.copy_limit_bytes)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)

    def copy_out(self, handle: SandboxHandle, src: str, dest: Path) -> None:
        copy_tree_safely(self._host_path(handle, src), dest, limit_bytes=self.settings.copy_limit_bytes)

    def _teardown(self, handle: SandboxHandle) -> None:
        """Kill the exec server's bwrap (its pid namespace takes every agent process along); per-command
        bwraps never outlive their command. The work tree goes with `handle.host_dir`."""
        server: ExecServer | None = handle.state.get("server")
        if server is not None:
            server.kill()
