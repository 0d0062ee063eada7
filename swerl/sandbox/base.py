"""The `Sandbox` Protocol, its handle, the error classes, and the skeleton every backend shares.

`BackendBase` holds what is identical across backends (per-rollout deadline, hardening
checks, host-side patch extraction, fresh-sandbox grading); a backend implements only
launch, exec, copy and tear-down, so backends (or a user's class) are swappable.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import tempfile
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from swerl.errors import ConfigError
from swerl.log import get_logger
from swerl.sandbox import hostfs, owners
from swerl.sandbox.schema import ExecResult, GradeResult, PatchResult, SandboxSettings, SandboxTask

log = get_logger(__name__)

BACKENDS = {
    "bwrap": "swerl.sandbox.bwrap:BwrapSandbox",
    "docker": "swerl.sandbox.docker:DockerSandbox",
    "kubernetes": "swerl.sandbox.kubernetes:KubernetesSandbox",
}


class SandboxError(RuntimeError):
    """Infrastructure failure (engine down, image missing, copy failed): retry, never train on it as reward 0."""


class AgentFault(SandboxError):
    """The sandbox failed because of what the agent did inside it (killed exec server, garbage on the channel,
    copy/size/depth limits, hostile file names, its disk quota filled): an agent failure, trained as reward 0,
    never retried as infra. Any failure while the host handles agent-produced data is this, unless it is an
    `InfraError`."""


class InfraError(SandboxError):
    """A *named* infrastructure failure the agent cannot cause; only these stay infrastructure when they happen
    while the host handles agent-produced data (copy-out, patch extraction, tree diff, patch apply)."""


class EngineUnavailable(InfraError):
    """The container engine / API server does not answer."""


class HostDiskFull(InfraError):
    """The host's disk is full and the sandbox did not fill it (its usage, as its quota reports it, is within
    `SandboxSettings.disk_mb`)."""


class SandboxConfigError(SandboxError, ConfigError):
    """A sandbox setting is unusable on this host (the message names it); raised when the backend is created."""


class HardeningError(SandboxError):
    """The sandbox could not be put into its hardened state (branch missing, .git still visible, git usable)."""


class RolloutDeadline(Exception):
    """The agent used up its per-rollout time budget: an agent failure (reward 0), not infrastructure."""


@dataclass
class SandboxHandle:
    """A live sandbox. `git_dir` is the task's `.git` saved on the host (None for pristine grading sandboxes)."""

    id: str
    task: SandboxTask
    backend: str
    host_dir: Path
    deadline: float
    pristine: bool = False
    git_dir: Path | None = None
    state: dict[str, Any] = field(default_factory=dict)
    stopped: bool = False

    @property
    def remaining_s(self) -> float:
        return self.deadline - time.monotonic()


@runtime_checkable
class Sandbox(Protocol):
    """What every backend offers. `stop` must be safe to call twice and after a failed `start`."""

    settings: SandboxSettings

    def start(self, task: SandboxTask) -> SandboxHandle: ...
    def exec(self, handle: SandboxHandle, command: str, timeout: float | None = None, cwd: str | None = None) -> ExecResult: ...
    def copy_in(self, handle: SandboxHandle, src: Path, dest: str) -> None: ...
    def copy_out(self, handle: SandboxHandle, src: str, dest: Path) -> None: ...
    def extract_patch(self, handle: SandboxHandle) -> PatchResult: ...
    def stop(self, handle: SandboxHandle) -> None: ...
    def grade(self, task: SandboxTask, patch: str) -> GradeResult: ...


# Every started handle is tracked until stopped, so that interpreter exit (also after Ctrl-C) stops it.
_LIVE: dict[str, tuple[SandboxHandle, BackendBase]] = {}
_LIVE_LOCK = threading.Lock()
_REAPED: set[str] = set()  # temp dirs already swept for dead owners' sandbox dirs in this process


def _stop_all_at_exit() -> None:
    with _LIVE_LOCK:
        pending = list(_LIVE.values())
    for handle, owner in pending:
        with contextlib.suppress(Exception):
            owner.stop(handle)


atexit.register(_stop_all_at_exit)


class BackendBase(ABC):
    """Shared skeleton; subclasses implement `_launch`, `_exec`, `copy_in`, `copy_out`, `_teardown`."""

    name = "base"

    def __init__(self, settings: SandboxSettings | None = None) -> None:
        self.settings = settings or SandboxSettings()
        if tempfile.gettempdir() not in _REAPED:  # once per process: what a killed run left (see owners.py)
            _REAPED.add(tempfile.gettempdir())
            owners.reap_host_dirs()

    @abstractmethod
    def _launch(self, handle: SandboxHandle) -> None:
        """Create the sandbox. Hardened (not pristine): check out the branch, save `.git` to
        `handle.git_dir` on the host, remove every `.git` inside and disable git."""

    @abstractmethod
    def _exec(self, handle: SandboxHandle, argv: list[str], timeout: float, cwd: str) -> ExecResult: ...

    @abstractmethod
    def copy_in(self, handle: SandboxHandle, src: Path, dest: str) -> None:
        """Copy a host file or directory to the absolute sandbox path `dest` (a file path or a directory)."""

    @abstractmethod
    def copy_out(self, handle: SandboxHandle, src: str, dest: Path) -> None:
        """Copy the sandbox directory `src` into the host directory `dest` (regular files, dirs, symlinks only)."""

    @abstractmethod
    def _teardown(self, handle: SandboxHandle) -> None: ...

    def start(self, task: SandboxTask) -> SandboxHandle:
        """Start a hardened sandbox: the agent only ever sees the checked-out problem branch, no `.git`, no git."""
        return self._start(task, pristine=False, verify=True)

    def start_pristine(self, task: SandboxTask) -> SandboxHandle:
        """A fresh sandbox from the pristine image with `.git` intact: only trusted commands run in it (the grader's
        pristine-tree export, branch inspection). Never for agents, never for tests."""
        return self._start(task, pristine=True)

    def start_grading(self, task: SandboxTask, tree: Path, *, git_binaries: list[str] | None = None,
                      keep_git: bool = False) -> SandboxHandle:
        """A fresh sandbox whose work dir holds exactly the host directory `tree` (built by the grader: no `.git`),
        with git shadowed by the stub like an agent sandbox. `keep_git` (audit controls only) leaves git usable."""
        state = {"grade_tree": tree, "git_binaries": list(git_binaries or []), "keep_git": keep_git}
        return self._start(task, pristine=True, state=state, verify=not keep_git)

    @abstractmethod
    def put_tree_files(self, handle: SandboxHandle, tree: Path, rels: list[str]) -> None:
        """The grader changed files `rels` of the host tree `tree` after `start_grading` copied it in: the
        sandbox's tree now holds them as the host does, read-only to the commands (a file the host removed goes)."""

    def pristine_key(self, task: SandboxTask) -> str | None:
        """What identifies the pristine content of `task` for the grader's export cache (None: do not cache)."""
        return None

    def _start(self, task: SandboxTask, *, pristine: bool, state: dict[str, Any] | None = None,
               verify: bool = False) -> SandboxHandle:
        """Launch; then, with `verify`, check the hardening from inside (or stop and raise)."""
        from swerl.sandbox import hardening

        hid = f"{self.name}-{uuid.uuid4().hex[:12]}"
        host_dir = Path(tempfile.mkdtemp(prefix=f"swerl-{hid}-", dir=owners.temp_root()))
        handle = SandboxHandle(id=hid, task=task, backend=self.name, host_dir=host_dir,
                               deadline=time.monotonic() + self.settings.rollout_timeout_s, pristine=pristine,
                               state=dict(state or {}))
        with _LIVE_LOCK:
            _LIVE[hid] = (handle, self)
        t0 = time.monotonic()
        try:
            owners.write(handle.host_dir, self.settings.run_label)
            self._launch(handle)
            if verify:
                hardening.verify(self, handle)
        except BaseException:
            self.stop(handle)
            raise
        log.info("sandbox started", backend=self.name, id=hid, instance=task.instance_id, pristine=pristine,
                 seconds=round(time.monotonic() - t0, 3))
        return handle

    def exec(self, handle: SandboxHandle, command: str, timeout: float | None = None, cwd: str | None = None) -> ExecResult:
        """Run `command` through the configured interpreter (bash -lc); the per-rollout deadline caps the timeout."""
        if handle.stopped:
            raise SandboxError(f"sandbox {handle.id} is stopped")
        remaining = handle.remaining_s
        if remaining <= 0:
            raise RolloutDeadline(f"rollout time budget of {self.settings.rollout_timeout_s:.0f}s used up ({handle.id})")
        limit = min(timeout or self.settings.command_timeout_s, remaining)
        return self._exec(handle, [*self.settings.interpreter, command], limit, cwd or handle.task.workdir)

    def exec_argv(self, handle: SandboxHandle, argv: list[str], timeout: float | None = None, cwd: str | None = None) -> ExecResult:
        """Run an argv without a shell (hardening, grading); same deadline rules as `exec`."""
        if handle.stopped:
            raise SandboxError(f"sandbox {handle.id} is stopped")
        limit = min(timeout or self.settings.command_timeout_s, max(handle.remaining_s, 1.0))
        return self._exec(handle, argv, limit, cwd or handle.task.workdir)

    def extract_patch(self, handle: SandboxHandle) -> PatchResult:
        """Copy the work tree to the host and diff it there against the saved `.git` (see `patch.py`).

        Whatever goes wrong on the way (size, depth, names, modes, git choking on the tree, a tree that changes
        under the copy) is the agent's doing (`AgentFault`), unless it is a named `InfraError` (engine down,
        host disk full without the sandbox having filled it)."""
        from swerl.sandbox.patch import compute_patch, test_files_of

        if handle.git_dir is None:
            raise SandboxError(f"sandbox {handle.id} has no saved .git (pristine sandboxes have no patch)")
        tree: Path | None = None
        try:
            tree = Path(tempfile.mkdtemp(prefix="tree-", dir=handle.host_dir))
            self.copy_out(handle, handle.task.workdir, tree)
            task = handle.task
            return compute_patch(handle.git_dir, tree, test_files=test_files_of(task.FAIL_TO_PASS + task.PASS_TO_PASS),
                                 max_depth=self.settings.limits.max_depth)
        except (AgentFault, InfraError):
            raise
        except Exception as exc:
            if hostfs.is_disk_full(exc):
                raise self.disk_full_error(handle, exc) from exc
            raise AgentFault(f"sandbox {handle.id}: the work tree cannot be copied out or diffed: "
                             f"{type(exc).__name__}: {str(exc)[:300]}") from exc
        finally:
            if tree is not None:
                hostfs.rmtree_quietly(tree)

    def disk_full_error(self, handle: SandboxHandle, exc: BaseException, *, into_sandbox: bool = False) -> SandboxError:
        """Who filled the disk when the host got ENOSPC/EDQUOT handling `handle`'s data: `AgentFault` if the
        sandbox did (its own quota full; `into_sandbox`: the write went to the sandbox's own filesystem), else
        `HostDiskFull`. Backends that can measure a sandbox's usage override this."""
        return HostDiskFull(f"sandbox {handle.id}: host disk full: {exc}")

    def stop(self, handle: SandboxHandle) -> None:
        """Tear down; idempotent; never raises (for an already-gone sandbox, a tree the agent made hostile, ...)."""
        if handle.stopped:
            return
        handle.stopped = True
        try:
            self._teardown(handle)
        except Exception as exc:  # stop must not mask the error that led here
            log.warning("sandbox teardown failed", id=handle.id, error=f"{type(exc).__name__}: {exc}"[:300])
        finally:
            try:
                hostfs.rmtree_quietly(handle.host_dir)
            except Exception as exc:  # pragma: no cover - rmtree_quietly does not raise
                log.warning("sandbox host dir left behind", id=handle.id, error=str(exc)[:200])
            with _LIVE_LOCK:
                _LIVE.pop(handle.id, None)
            log.info("sandbox stopped", backend=self.name, id=handle.id)

    def grade(self, task: SandboxTask, patch: str) -> GradeResult:
        """Grade `patch`: tree built on the host, tests in a fresh sandbox without `.git` (see `grade.py`)."""
        from swerl.sandbox.grade import grade

        return grade(self, task, patch)

    @contextlib.contextmanager
    def session(self, task: SandboxTask) -> Iterator[SandboxHandle]:
        """`with sandbox.session(task) as h:` stops the sandbox on any exit, including Ctrl-C."""
        handle = self.start(task)
        try:
            yield handle
        finally:
            self.stop(handle)


def load_backend(settings: SandboxSettings | None = None, **kwargs: Any) -> BackendBase:
    """Instantiate the backend named by `settings.backend` (a short name or 'pkg.module:Class')."""
    from swerl.errors import SwerlError

    settings = settings or SandboxSettings()
    spec = BACKENDS.get(settings.backend, settings.backend)
    if ":" not in spec:
        raise SwerlError(f"--backend: unknown sandbox backend {settings.backend!r} (bwrap, docker, kubernetes or pkg.mod:Class)")
    mod_name, cls_name = spec.split(":", 1)
    try:
        cls = getattr(importlib.import_module(mod_name), cls_name)
    except (ImportError, AttributeError) as exc:
        raise SwerlError(f"--backend: cannot import {spec!r}: {exc}") from exc
    return cls(settings, **kwargs)
