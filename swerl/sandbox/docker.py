"""Docker backend via the docker SDK (never the `docker` CLI), against a real engine.

A short-lived *prep* container (trusted commands only, the one with CHOWN/DAC_OVERRIDE/FOWNER)
checks out the branch on a volume, hands `.git` to the host and deletes it; the *agent*
container mounts that volume, runs commands as `DockerSettings.user` (a uid no host account
has) while PID 1 stays root with no capabilities (no command can stop it), and never had a `.git`.
Tars travel as streams both ways (`hostfs.tar_stream` in, `extract_tar_safely` out, bounded by
the copy limit and `limits.max_depth`), never whole in memory.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tarfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import docker
import requests

from swerl.log import get_logger
from swerl.sandbox import hardening, hostfs, limits, owners
from swerl.sandbox.base import (
    AgentFault,
    BackendBase,
    EngineUnavailable,
    HardeningError,
    HostDiskFull,
    InfraError,
    SandboxConfigError,
    SandboxError,
    SandboxHandle,
)
from swerl.sandbox.hostfs import CopyLimitExceeded, TreeTooDeep, extract_tar_safely, tar_stream
from swerl.sandbox.proc import read_capped
from swerl.sandbox.schema import ExecResult, SandboxSettings

log = get_logger(__name__)

LABEL = "swerl.sandbox"
TIMEOUT_GRACE_S = 5.0
ROOT_USERS = ("root", "0", "0:0")
PREP_CAPS = ["CHOWN", "DAC_OVERRIDE", "FOWNER"]  # prep containers only: hand the tree to the command user
# A daemon that shuts down (`systemctl restart docker`, SIGTERM) first stops every container and keeps answering the
# API meanwhile (~1 s with a few containers): a sandbox container found stopped while the engine answers is only
# blamed on the agent once the engine has kept answering this long.
ENGINE_STOP_GRACE_S = 5.0
# A finished exec stays inspectable on the daemon that ran it for 5-10 minutes (its exec GC), and is gone after a
# restart (execs live in the daemon's memory): within this age, "no such exec" proves the engine restarted.
EXEC_MARKER_TRUST_S = 240.0
# Disk the sandbox occupies, measured inside (when the host cannot: not root): the work volume (du) plus files its
# processes keep open after deleting them (a name walk never sees those), on the work volume's device.
USAGE_SCRIPT = r"""d=$(stat -c %d "$1") || exit 3
u=$(du -sxB1 "$1" 2>/dev/null | tail -n 1 | cut -f1)
h=$(for f in /proc/[0-9]*/fd/*; do stat -L -c '%h %b %B %d %i' "$f" 2>/dev/null; done |
    awk -v d="$d" '$1 == 0 && $4 == d && !seen[$5]++ { s += $2 * $3 } END { print s + 0 }')
echo "SWERL_USAGE ${u:-0} ${h:-0}"
"""


class _IterStream(io.RawIOBase):
    """A file object over the SDK's chunk generator, so tarfile can stream it."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self._buf = b""

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        while not self._buf:
            try:
                self._buf = next(self._chunks)
            except StopIteration:
                return 0
        n = min(len(b), len(self._buf))
        b[:n] = self._buf[:n]
        self._buf = self._buf[n:]
        return n


def _pid_ns(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def _remove_network(net: Any) -> None:
    for cid in net.attrs.get("Containers") or {}:
        with contextlib.suppress(Exception):  # that container may be gone already
            net.disconnect(cid, force=True)
    net.remove()


class DockerSandbox(BackendBase):
    name = "docker"

    def __init__(self, settings: SandboxSettings | None = None, client: Any = None, *, reap: bool = True) -> None:
        super().__init__(settings)
        cfg = self.settings.docker
        self.non_root = cfg.user not in ROOT_USERS
        if self.non_root:
            uid_s, _, gid_s = cfg.user.partition(":")
            if not uid_s.isdigit() or (gid_s and not gid_s.isdigit()):
                raise SandboxConfigError(f"sandbox.docker.user={cfg.user!r}: give a numeric uid:gid (a uid no host "
                                         "account has), or 'root' for images that need it")
            if known := limits.host_account(int(uid_s), int(gid_s or uid_s)):
                raise SandboxConfigError(f"sandbox.docker.user={cfg.user!r}: {known}; without user-namespace "
                                         "remapping a container uid is the same uid on the host - choose a uid:gid "
                                         "no host account or group has (default 2000000000:2000000000)")
        try:
            api_timeout = int(max(600, self.settings.command_timeout_s + 120))  # streamed exec reads use it
            self.client = client or (docker.DockerClient(base_url=cfg.base_url, timeout=api_timeout) if cfg.base_url
                                     else docker.from_env(timeout=api_timeout))
            self.client.ping()
        except Exception as exc:
            raise EngineUnavailable(f"docker engine not reachable ({cfg.base_url or 'DOCKER_HOST/default'}): {exc}") from exc
        self._pending: list[tuple[str, str]] = []  # (kind, id) a teardown could not remove: the engine was away
        self._etc: dict[str, dict[str, str]] = {}  # image -> its /etc/passwd and /etc/group (`_account_mounts`)
        self._pending_lock = threading.Lock()
        if reap:
            self.reap()

    def _labels(self, handle: SandboxHandle, role: str) -> dict[str, str]:
        return {LABEL: "1", "swerl.role": role, "swerl.handle": handle.id, "swerl.instance": handle.task.instance_id[:200],
                "swerl.host": owners.where(), "swerl.pid": str(os.getpid()),
                "swerl.start": owners.process_start(os.getpid()) or "", "swerl.run": self.settings.run_label or "",
                "swerl.expires": str(int(time.time() + self.settings.rollout_timeout_s + 120))}

    def _is_orphan(self, labels: dict[str, str]) -> bool:
        owner = {"host": labels.get("swerl.host"), "pid": labels.get("swerl.pid", "0") or 0,
                 "start": labels.get("swerl.start", "")}
        return owners.is_dead(owner) or float(labels.get("swerl.expires", "0") or 0) < time.time()

    def reap(self, run_label: str | None = None) -> list[str]:
        """Remove sandbox containers, volumes and networks whose owner process died (a pid now used by another
        process counts as dead) or whose budget expired; with `run_label`, only that run's. Returns what was
        removed (`container <name>`, `network <name>`, `volume <name>`)."""
        removed: list[str] = []
        found = [(c.labels, f"container {c.name}", lambda c=c: c.remove(force=True))
                 for c in self.client.containers.list(all=True, filters={"label": LABEL})]
        found += [(net.attrs.get("Labels") or {}, f"network {net.name}", lambda net=net: _remove_network(net))
                  for net in self.client.networks.list(filters={"label": LABEL})]
        found += [(vol.attrs.get("Labels") or {}, f"volume {vol.name}", lambda vol=vol: vol.remove(force=True))
                  for vol in self.client.volumes.list(filters={"label": LABEL})]
        for labels, what, remove in found:
            if self._is_orphan(labels) and (not run_label or labels.get("swerl.run") == run_label):
                with contextlib.suppress(Exception):
                    remove()
                    removed.append(what)
        if removed:
            log.info("reaped orphaned sandbox objects", count=len(removed), run=run_label or "")
        return removed

    def _run_kwargs(self, handle: SandboxHandle, role: str) -> dict[str, Any]:
        s, cfg = self.settings, self.settings.docker
        kwargs: dict[str, Any] = dict(
            command=["sleep", str(int(s.rollout_timeout_s) + 60)], detach=True, init=True,
            labels=self._labels(handle, role), hostname="sandbox", working_dir=handle.task.workdir,
            user="0:0",  # PID 1: root without capabilities, out of reach of the commands (run as cfg.user)
            environment={"LANG": "C.UTF-8", **({"HOME": "/tmp"} if self.non_root else {}), **s.env},
            cap_drop=["ALL"], security_opt=["no-new-privileges:true"], pids_limit=s.pids_limit,
            mem_limit=f"{s.memory_mb}m", memswap_limit=f"{s.memory_mb}m", nano_cpus=int(s.cpus * 1e9),
            ulimits=[docker.types.Ulimit(name="core", soft=0, hard=0)],  # a crash never reaches the host's core_pattern
            read_only=cfg.read_only_root, tmpfs={"/tmp": f"rw,nosuid,nodev,size={cfg.tmpfs_size_mb}m"},
            volumes={handle.state["volume"]: {"bind": handle.task.workdir, "mode": "rw"}},
            mounts=self._account_mounts(handle),
        )
        if handle.state.get("network"):
            kwargs["network"] = handle.state["network"]
        else:
            kwargs["network_mode"] = "none"
        return kwargs

    def _setup_network(self, handle: SandboxHandle) -> None:
        """An internal network (no route out) joined only by the allow-listed service containers."""
        if not self.settings.network_allow:
            return
        net = self.client.networks.create(f"swerl-{handle.id}", driver="bridge", internal=True,
                                          labels=self._labels(handle, "network"), check_duplicate=True)
        handle.state["network"] = net.name
        for name in self.settings.network_allow:
            try:
                net.connect(name, aliases=[name])
            except Exception as exc:
                raise SandboxError(f"allow-listed service container {name!r} cannot join the sandbox network: {exc}") from exc

    def _launch(self, handle: SandboxHandle) -> None:
        self._remove_pending()  # the engine answers again: what a teardown during its absence left goes now
        task = handle.task
        if not task.image:
            raise SandboxError(f"task {task.instance_id}: the docker backend needs an image")
        try:
            self.client.images.get(task.image)
        except docker.errors.ImageNotFound as exc:
            raise SandboxError(f"image {task.image} not found on the engine (build it: swerl sandbox build-images)") from exc
        vol = self.client.volumes.create(name=f"swerl-{handle.id}", labels=self._labels(handle, "volume"))
        handle.state["volume"] = vol.name
        self._setup_network(handle)
        if handle.state.get("grade_tree") is not None:
            self._launch_grading(handle)
            return
        if handle.pristine:
            if self.non_root:  # a throw-away prep container chowns the volume: the pristine container needs no caps
                with self._prep(handle) as prep:
                    self._chown_workdir(prep, handle, recursive=True)
            handle.state["container"] = self.client.containers.run(task.image, **self._run_kwargs(handle, "pristine"))
            return
        with self._prep(handle) as prep:
            res = self._exec_container(prep, ["sh", "-c", hardening.prep_script(task.branch, task.workdir)], 300,
                                       task.workdir, user="0:0")
            if hardening.branch_missing(res.output):
                raise HardeningError(f"task {task.instance_id}: branch {task.branch!r} is not in image {task.image}")
            if res.returncode != 0:
                raise SandboxError(f"task {task.instance_id}: prep failed: {res.output[-800:]}")
            binaries = hardening.git_binaries(self._exec_container(prep, ["sh", "-c", hardening.FIND_GIT], 60, "/",
                                                                   user="0:0").output)
            with self._archive(prep, f"{task.workdir.rstrip('/')}/.git") as stream:
                extract_tar_safely(stream, handle.host_dir / "git", limit_bytes=self.settings.copy_limit_bytes,
                                   max_depth=1 << 16)
            handle.git_dir = handle.host_dir / "git" / ".git"
            rm = self._exec_container(prep, ["sh", "-c", hardening.remove_git_script(task.workdir)], 120, "/",
                                      user="0:0")
            if "SWERL_GIT_REMOVED" not in rm.output:
                raise HardeningError(f"task {task.instance_id}: removing .git failed: {rm.output[-500:]}")
            if self.non_root:
                self._chown_workdir(prep, handle, recursive=True)
        kwargs = self._run_kwargs(handle, "agent")
        self._shadow_git(handle, kwargs, binaries)
        handle.state["container"] = self.client.containers.run(task.image, **kwargs)

    def _shadow_git(self, handle: SandboxHandle, kwargs: dict[str, Any], binaries: list[str]) -> None:
        """The stub bind-mounted read-only over every git binary, an empty read-only tmpfs over git-core."""
        stub = hardening.write_stub(handle.host_dir / "stub")
        kwargs["tmpfs"][hardening.GIT_CORE] = "ro,size=4k"
        kwargs["mounts"] = [*kwargs.get("mounts", ()),
                            *(docker.types.Mount(target=p, source=str(stub), type="bind", read_only=True) for p in binaries)]

    def _account_mounts(self, handle: SandboxHandle) -> list[Any]:
        """The command user as an account inside the container only, as bwrap has it (`limits.account_files`): the
        image's passwd and group files with a `sandbox` entry added, bind-mounted read-only over its own."""
        if not self.non_root:
            return []
        uid, _, gid = self.settings.docker.user.partition(":")
        mounts = []
        for name, text in limits.account_files(self._image_etc(handle), int(uid), int(gid or uid)).items():
            path = handle.host_dir / f"etc-{name}"
            path.write_text(text)
            path.chmod(0o644)
            mounts.append(docker.types.Mount(target=f"/etc/{name}", source=str(path), type="bind", read_only=True))
        return mounts

    def _image_etc(self, handle: SandboxHandle) -> dict[str, str]:
        """The image's own /etc/passwd and /etc/group, read once per image from a container that never starts."""
        image = handle.task.image
        if image not in self._etc:
            found = {"passwd": "", "group": ""}
            box = self.client.containers.create(image, command=["true"], labels=self._labels(handle, "etc"))
            try:
                for name in found:
                    with contextlib.suppress(docker.errors.APIError, tarfile.TarError), \
                            self._archive(box, f"/etc/{name}") as stream, tarfile.open(fileobj=stream, mode="r|") as tar:
                        for member in tar:
                            data = tar.extractfile(member) if member.isfile() else None
                            if data is not None:
                                found[name] = data.read(1 << 20).decode(errors="replace")
            finally:
                with contextlib.suppress(Exception):
                    box.remove(force=True)
            self._etc[image] = found
        return self._etc[image]

    def _launch_grading(self, handle: SandboxHandle) -> None:
        """Grading: an empty volume (`nocopy`: the image's /testbed with its `.git` is never copied in) receives the
        grader's host-built tree; git is shadowed by the stub unless `keep_git` (audit controls only)."""
        wd = handle.task.workdir
        kwargs = self._run_kwargs(handle, "grade")
        kwargs["volumes"] = {handle.state["volume"]: {"bind": wd, "mode": "rw,nocopy"}}
        read_only = not handle.state.get("keep_git")  # keep_git: the audit's undefended control
        if self.non_root and not read_only:  # PID 1 (root, out of the commands' reach) chowns the volume root below
            kwargs["cap_add"] = ["CHOWN"]
        if read_only:
            self._shadow_git(handle, kwargs, handle.state.get("git_binaries") or [])
        container = self.client.containers.run(handle.task.image, **kwargs)
        handle.state["container"] = container
        tree = Path(handle.state["grade_tree"])  # streamed: never built whole in memory
        stream = tar_stream(tree, "", filter=self._read_only if read_only else self._owned,
                            max_depth=self.settings.limits.max_depth)
        if not container.put_archive(wd, stream):
            raise SandboxError(f"copying the grading tree into {handle.id} failed")
        if self.non_root and not read_only:
            self._chown_workdir(container, handle, recursive=False)
        # the tree (and the volume root) stay root's and read-only to the command user: code under test can neither
        # rewrite a test file before pytest collects it nor plant bytecode/conftest files at run time

    def pristine_key(self, task: Any) -> str | None:
        """The image id: the grader caches pristine exports per task and image content."""
        if not task.image:
            return None
        try:
            return f"docker:{self.client.images.get(task.image).id}"
        except Exception:
            return None

    @contextlib.contextmanager
    def _prep(self, handle: SandboxHandle) -> Iterator[Any]:
        """A prep container: runs only trusted commands, so it may chown (and read root's files to do so)."""
        kwargs = self._run_kwargs(handle, "prep")
        kwargs["cap_add"] = list(PREP_CAPS)
        prep = handle.state["prep"] = self.client.containers.run(handle.task.image, **kwargs)
        try:
            yield prep
        finally:
            with contextlib.suppress(Exception):
                prep.remove(force=True)
            handle.state.pop("prep", None)

    def _chown_workdir(self, container: Any, handle: SandboxHandle, *, recursive: bool) -> None:
        wd, user = handle.task.workdir, self.settings.docker.user
        res = self._exec_container(container, ["chown", *(["-R"] if recursive else []), user, wd],
                                   300 if recursive else 60, "/", user="0:0")
        if res.returncode != 0:
            raise SandboxError(f"giving {wd} to {user} failed: {res.output[-300:]}")

    def _exec_container(self, container: Any, argv: list[str], timeout: float, cwd: str,
                        user: str | None = None, marker: dict[str, Any] | None = None) -> ExecResult:
        """Run `argv` in `container`; `marker` (a handle's state) records the finished exec for `_engine_restarted`."""
        api = self.client.api
        t0 = time.monotonic()
        secs = max(1, int(timeout + 0.999))
        wrapped = ["timeout", "-k", "2", str(secs), *argv]
        exec_id = api.exec_create(container.id, wrapped, stdout=True, stderr=True, stdin=False, tty=False,
                                  workdir=cwd, environment=self.settings.env or None,
                                  user=user or self.settings.docker.user)["Id"]
        stream = api.exec_start(exec_id, stream=True, demux=False)
        sink: list[bytes] = []
        state = {"truncated": False}

        def pump() -> None:
            with contextlib.suppress(Exception):
                read_capped(_IterStream(stream), self.settings.output_limit_bytes, sink, state)

        reader = threading.Thread(target=pump, daemon=True)
        reader.start()
        deadline = t0 + secs + TIMEOUT_GRACE_S
        reader.join(timeout=max(0.0, deadline - time.monotonic()))
        info = api.exec_inspect(exec_id)
        while info.get("Running") and time.monotonic() < deadline:  # stream ended early (socket timeout)
            time.sleep(0.1)
            info = api.exec_inspect(exec_id)
        backstop = bool(info.get("Running"))
        rc = info.get("ExitCode")
        if marker is not None and not backstop:
            marker["exec_marker"] = (exec_id, time.monotonic())
        duration = time.monotonic() - t0
        timed_out = backstop or (rc in (124, 137) and duration >= secs - 0.05)
        output = b"".join(sink).decode("utf-8", errors="replace")
        return ExecResult(output=output, returncode=-9 if timed_out or rc is None else int(rc), timed_out=timed_out,
                          truncated=bool(state["truncated"]), duration_s=duration)

    def _container(self, handle: SandboxHandle) -> Any:
        c = handle.state.get("container")
        if c is None:
            raise SandboxError(f"sandbox {handle.id} has no container")
        return c

    def _exec(self, handle: SandboxHandle, argv: list[str], timeout: float, cwd: str) -> ExecResult:
        try:
            res = self._exec_container(self._container(handle), argv, timeout, cwd, marker=handle.state)
        except SandboxError:
            raise
        except Exception as exc:
            raise self._classify(handle, f"docker exec in {handle.id} failed: {exc}") from exc
        if res.returncode in (126, 137) or res.returncode < 0:  # maybe the container is stopping under us
            err = self._classify(handle, f"docker exec in {handle.id} failed: {res.output.strip()[:200]}")
            if isinstance(err, (AgentFault, InfraError)):  # it stopped: from inside, or the engine went away
                raise err
        return res

    def _classify(self, handle: SandboxHandle, message: str, *, agent_data: bool = False) -> SandboxError:
        """Who broke it: an engine that does not answer is infrastructure; a sandbox container that stopped
        while the engine is fine was stopped from inside (its PID 1 killed, memory exhausted): the agent.
        `agent_data` (copying the agent's tree): anything else is the agent's too."""
        try:
            self.client.ping()
        except Exception:
            return EngineUnavailable(message + " (engine unreachable)")
        oom = False
        try:
            c = self._container(handle)
            c.reload()
            running = c.status == "running"
            oom = bool((c.attrs.get("State") or {}).get("OOMKilled"))
        except Exception:
            running = False
        if not running:
            if not oom and self._engine_stopped(handle):
                return EngineUnavailable(message + " (the engine stopped the sandbox container: it shut down or "
                                                   "restarted)")
            return AgentFault(message + " (the sandbox container stopped from inside)")
        return AgentFault(message) if agent_data else SandboxError(message)

    def _engine_restarted(self, handle: SandboxHandle) -> bool:
        """The daemon that ran this sandbox's last command is gone: that exec is unknown to the engine although it
        finished recently enough that the daemon would still know it. Nothing inside a container can remove it."""
        mark = handle.state.get("exec_marker")
        if not mark or time.monotonic() - mark[1] > EXEC_MARKER_TRUST_S:
            return False
        try:
            self.client.api.exec_inspect(mark[0])
        except docker.errors.NotFound:
            return True
        except Exception:  # the engine is away again: the caller's ping decides
            return False
        return False

    def _engine_stopped(self, handle: SandboxHandle) -> bool:
        """A sandbox container that stopped while the engine answers: did the engine stop it? A daemon restarted
        since the last command (`_engine_restarted`), or one shutting down, which stops every container first and
        stops answering within `ENGINE_STOP_GRACE_S`. Otherwise it stopped from inside (a root command signalling
        PID 1, the memory limit): the agent's doing."""
        deadline = time.monotonic() + ENGINE_STOP_GRACE_S
        while True:
            if self._engine_restarted(handle):
                return True
            try:
                self.client.ping()
            except Exception:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.2)

    def copy_in(self, handle: SandboxHandle, src: Path, dest: str) -> None:
        """put_archive works on the work-tree volume (not on tmpfs): other targets are staged there and moved."""
        c = self._container(handle)
        workdir = handle.task.workdir.rstrip("/")
        dest_p = PurePosixPath(dest)
        direct = dest == workdir or dest.startswith(workdir + "/")
        stage_name = dest_p.name if direct else f".swerl-in-{os.urandom(6).hex()}"
        parent = str(dest_p.parent) if direct else workdir
        if direct:
            self._exec_container(c, ["mkdir", "-p", parent], 30, "/")
        stream = tar_stream(Path(src), stage_name, filter=self._owned, max_depth=self.settings.limits.max_depth)
        try:
            ok = c.put_archive(parent, stream)  # streamed: never built whole in memory
        except docker.errors.APIError as exc:
            if "no space left" in str(exc).lower():
                raise self.disk_full_error(handle, exc, into_sandbox=True) from exc
            raise self._classify(handle, f"copy into {handle.id}:{dest} failed: {exc}") from exc
        if not ok:
            raise SandboxError(f"copy into {handle.id}:{dest} failed")
        if not direct:
            # a grading tree is root's and read-only to the command user: only root can take the staged file out
            ro_tree = handle.state.get("grade_tree") is not None and not handle.state.get("keep_git")
            res = self._exec_container(c, ["sh", "-c", 'mkdir -p "$(dirname "$2")" && mv "$1" "$2"', "mv",
                                           f"{workdir}/{stage_name}", dest], 60, "/",
                                       **({"user": "0:0"} if ro_tree else {}))
            if res.returncode != 0:
                raise SandboxError(f"copy into {handle.id}:{dest} failed: {res.output}")

    def put_tree_files(self, handle: SandboxHandle, tree: Path, rels: list[str]) -> None:
        c = self._container(handle)
        buf, gone = io.BytesIO(), []
        with tarfile.open(fileobj=buf, mode="w") as tar:
            for rel in rels:
                if hostfs.crosses_symlink(tree, Path(rel).parts[:-1]):
                    gone.append(rel)
                    continue
                if (tree / rel).is_symlink():  # as a link, never followed on the host
                    info = self._read_only(tarfile.TarInfo(rel))
                    info.type, info.linkname = tarfile.SYMTYPE, os.readlink(tree / rel)
                    tar.addfile(info)
                    continue
                if not (tree / rel).is_file():
                    gone.append(rel)
                    continue
                data = (tree / rel).read_bytes()
                info = self._read_only(tarfile.TarInfo(rel))
                info.size, info.mode = len(data), hostfs.git_mode((tree / rel).stat().st_mode)
                tar.addfile(info, io.BytesIO(data))
        workdir = handle.task.workdir.rstrip("/")
        if gone:  # root's tree: only root removes from it
            res = self._exec_container(c, ["rm", "-f", "--", *gone], 60, workdir, user="0:0")
            if res.returncode != 0:
                raise SandboxError(f"removing files from {handle.id}'s tree failed: {res.output[-300:]}")
        if len(rels) > len(gone) and not c.put_archive(workdir, buf.getvalue()):
            raise SandboxError(f"placing files in {handle.id}'s tree failed")

    @staticmethod
    def _read_only(info: tarfile.TarInfo) -> tarfile.TarInfo:
        """Grading tree members: root's, readable by the command user whatever the host's umask, no write bits for
        it, never setuid."""
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return hostfs.readable_member(info)

    def _owned(self, info: tarfile.TarInfo) -> tarfile.TarInfo:
        """Files copied in belong to the command user, readable by root too whatever the host's umask (root has no
        CAP_DAC_OVERRIDE here, and moves staged files), and never carry setuid bits."""
        user, _, group = self.settings.docker.user.partition(":")
        if self.non_root and user.isdigit():
            info.uid, info.gid = int(user), int(group or user)
            info.uname = info.gname = ""
        return hostfs.readable_member(info)

    @contextlib.contextmanager
    def _archive(self, container: Any, path: str) -> Iterator[_IterStream]:
        """`get_archive` as a stream that is always closed: the engine keeps the container locked (every exec,
        even removal, waits) until the archive response is closed, e.g. after the copy limit stopped reading."""
        api = self.client.api
        res = api._get(api._url("/containers/{0}/archive", container.id), params={"path": path}, stream=True,
                       headers={"Accept-Encoding": "identity"})
        try:
            api._raise_for_status(res)
            yield _IterStream(res.iter_content(1 << 16, False))
        finally:
            res.close()

    def copy_out(self, handle: SandboxHandle, src: str, dest: Path) -> None:
        """The archive is read as a stream, bounded by the copy limit and `limits.max_depth`. Whatever the agent's
        tree does to the copy (size, depth, names the host cannot write, a broken archive) is its fault; only an
        engine that does not answer, or a full host disk the sandbox did not fill, is infrastructure."""
        try:
            with self._archive(self._container(handle), src) as stream:
                extract_tar_safely(stream, dest, strip=1, limit_bytes=self.settings.copy_limit_bytes,
                                   max_depth=self.settings.limits.max_depth + 1)
        except TreeTooDeep as exc:
            raise AgentFault(f"sandbox {handle.id}: {src} is deeper than {self.settings.limits.max_depth} levels "
                             "(limits.max_depth)") from exc
        except CopyLimitExceeded as exc:
            raise AgentFault(f"sandbox {handle.id}: {src} is larger than the copy limit "
                             f"({self.settings.copy_limit_bytes} bytes)") from exc
        except (tarfile.TarError, UnicodeError, ValueError) as exc:
            raise AgentFault(f"sandbox {handle.id}: {src} cannot be archived: {exc}") from exc
        except SandboxError:
            raise
        except Exception as exc:
            if isinstance(exc, OSError) and not isinstance(exc, requests.RequestException):
                if hostfs.is_disk_full(exc):
                    raise self.disk_full_error(handle, exc) from exc
                raise AgentFault(f"sandbox {handle.id}: {src} cannot be copied out: {exc}") from exc
            raise self._classify(handle, f"copy out of {handle.id}:{src} failed: {type(exc).__name__}: {exc}",
                                 agent_data=True) from exc

    def disk_usage(self, handle: SandboxHandle) -> int:
        """Bytes the sandbox occupies on the engine's disk: its work volume plus the files its processes hold
        open after deleting them (a name walk never sees those); /tmp is a size-limited tmpfs.

        The engine runs on this host (the git stub is a host bind mount), so as root this is measured from
        the host: the volume's mount point and /proc of every process in the container's pid namespace -
        nothing inside can hide from it. Otherwise `USAGE_SCRIPT` runs inside as the sandbox user (who owns
        the agent's processes and tree)."""
        c = self._container(handle)
        c.reload()
        pid = int((c.attrs.get("State") or {}).get("Pid") or 0)
        mount = Path(self.client.api.inspect_volume(handle.state["volume"]).get("Mountpoint") or "/nonexistent")
        if os.geteuid() == 0 and pid > 0 and mount.is_dir():
            with contextlib.suppress(OSError):
                ns = os.readlink(f"/proc/{pid}/ns/pid")
                procs = [int(p) for p in os.listdir("/proc") if p.isdigit() and _pid_ns(int(p)) == ns]
                return hostfs.tree_bytes(mount) + hostfs.held_deleted_bytes(procs, {os.stat(mount).st_dev})
        res = self._exec_container(c, ["sh", "-c", USAGE_SCRIPT, "usage", handle.task.workdir], 120, "/")
        m = re.search(r"^SWERL_USAGE (\d+) (\d+)\s*$", res.output, re.M)
        if m is None:
            raise RuntimeError(f"disk usage not measurable (rc={res.returncode}: {res.output[-200:]})")
        return int(m.group(1)) + int(m.group(2))

    def disk_full_error(self, handle: SandboxHandle, exc: BaseException, *, into_sandbox: bool = False) -> SandboxError:
        """The work volume has no quota of its own: the sandbox is blamed when it occupies `disk_mb` or more
        (deleted-but-open files included); an engine that does not answer is infrastructure; a usage that
        cannot be measured otherwise (container gone, script broken from inside) is the agent's."""
        allowance = self.settings.disk_mb * 1024 * 1024
        try:
            used = self.disk_usage(handle)
        except Exception as measure_exc:
            err = self._classify(handle, f"sandbox {handle.id}: disk full ({exc}); usage not measurable: "
                                         f"{measure_exc}", agent_data=True)
            return err
        if used >= allowance:
            return AgentFault(f"sandbox {handle.id} filled the disk: it occupies {used} bytes (allowance "
                              f"sandbox.disk_mb={self.settings.disk_mb}): {exc}")
        return HostDiskFull(f"sandbox {handle.id}: host disk full; the sandbox occupies {used} bytes, within "
                            f"sandbox.disk_mb={self.settings.disk_mb}: {exc}")

    def _teardown(self, handle: SandboxHandle) -> None:
        """Remove the sandbox's containers, network and volume. What the engine could not remove because it did not
        answer (restarting, say) is remembered and removed at the next launch, once it answers again: otherwise a
        live run would leave it until a later process reaps it as an orphan."""
        objects = [("container", c.id) for c in (handle.state.get(k) for k in ("prep", "container")) if c is not None]
        objects += [(kind, handle.state[kind]) for kind in ("network", "volume") if handle.state.get(kind)]
        for kind, ident in objects:
            if not self._remove(kind, ident):
                with self._pending_lock:
                    self._pending.append((kind, ident))

    def _remove(self, kind: str, ident: str) -> bool:
        """Remove one sandbox object; False only when it may still exist (the engine did not answer)."""
        try:
            if kind == "container":
                self.client.api.remove_container(ident, force=True)
            elif kind == "network":
                net = self.client.networks.get(ident)
                net.reload()
                _remove_network(net)
            else:
                self.client.api.remove_volume(ident, force=True)
        except docker.errors.NotFound:
            return True
        except Exception:
            try:
                self.client.ping()
            except Exception:
                return False
            return True  # the engine answers and refused: retrying will not help (never raises, as before)
        return True

    def _remove_pending(self) -> None:
        with self._pending_lock:
            pending, self._pending = self._pending, []
        if not pending:
            return
        left = [(kind, ident) for kind, ident in pending if not self._remove(kind, ident)]
        with self._pending_lock:
            self._pending[:0] = left
        log.info("removed sandbox objects a teardown left while the engine was away", count=len(pending) - len(left),
                 left=len(left))
