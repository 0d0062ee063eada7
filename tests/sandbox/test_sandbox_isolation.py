"""Host privilege, exec channel and agent-chosen infra failures (classes 5-7), on bwrap and docker, with controls.

Every blocked route is also shown *open* on a deliberately weakened sandbox (the
configuration this project had before, or a runtime default switched off), so a green
probe means the probe can see an escape. The suite runs as root, like CI: exactly the
case where a sandbox's uid 0 would be host root.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import time
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox import audit_isolation as iso
from swerl.sandbox.audit import Ctx
from swerl.sandbox.base import AgentFault, InfraError, SandboxError, SandboxHandle
from swerl.sandbox.bwrap import BwrapSandbox
from swerl.sandbox.bwrap_server import ChannelFault, ExecServer, _Overflow
from swerl.sandbox.schema import SANDBOX_UID, BwrapSettings, SandboxSettings, SandboxTask


def _ctx(sandbox: Any, handle: SandboxHandle) -> Ctx:
    return Ctx(sandbox, handle, None, "unused-gold", Path("/nonexistent"))  # type: ignore[arg-type]


def _probe(sandbox: Any, task: SandboxTask, *names: str) -> dict[str, tuple[bool, str]]:
    rows = {name: fn for name, _expected, fn in iso.isolation_probes()}
    with sandbox.session(task) as h:
        return {name: rows[name](_ctx(sandbox, h)) for name in names}


CLASS5 = ("host kernel settings (/proc/sys, sysrq, /sys)", "commands run as host root",
          "devices, sockets, inherited descriptors")
FORGE = "forged exec reply"
INFRA = "agent-chosen infra failure"


# ---------------------------------------------------------------------------- weakened bwrap controls


class HostRootBwrap(BwrapSandbox):
    """Before the fix: a root caller's bwrap with a user namespace mapping uid 0 to host root."""

    def __init__(self, settings: SandboxSettings) -> None:
        super().__init__(settings)
        self.as_root, self.uid, self.gid = False, 0, 0


class LeakyChannelBwrap(BwrapSandbox):
    """Before the fix: commands inherit the reply pipe and the host takes the first line it reads."""

    def _new_server(self, handle: SandboxHandle) -> ExecServer:
        server = super()._new_server(handle)
        server.verify_ids, server.leak_channel = False, True
        return server


class InfraBlamingBwrap(BwrapSandbox):
    """Before the fix: whatever the agent broke surfaced as a plain SandboxError (retried as infrastructure)."""

    def _exec(self, handle: SandboxHandle, argv: list[str], timeout: float, cwd: str) -> Any:
        try:
            return super()._exec(handle, argv, timeout, cwd)
        except AgentFault as exc:
            raise SandboxError(str(exc)) from exc

    def copy_out(self, handle: SandboxHandle, src: str, dest: Path) -> None:
        try:
            super().copy_out(handle, src, dest)
        except AgentFault as exc:  # a plain SandboxError is the agent's there now: blame a named infra error
            raise InfraError(str(exc)) from exc


@pytest.fixture(params=["bwrap", "bwrap_percommand"])
def bwrap_any(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(f"{request.param}_sandbox")


def test_bwrap_blocks_host_privilege_forgery_and_infra_blame(bwrap_any: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    found = _probe(bwrap_any, task, *CLASS5, FORGE, INFRA)
    for name, (escaped, observed) in found.items():
        assert not escaped, f"{name}: {observed}"
    assert f"host uid {SANDBOX_UID}" in found["commands run as host root"][1]
    assert "core limit 0" in found["commands run as host root"][1]  # no crash ever reaches the host's handler
    assert "copy limit:agent" in found[INFRA][1]  # the size route is taken, and blamed on the agent


def test_control_host_root_bwrap_can_open_core_pattern(rootfs: Path, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    weak = HostRootBwrap(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs)))
    found = _probe(weak, task, *CLASS5[:2])
    escaped, observed = found["host kernel settings (/proc/sys, sysrq, /sys)"]
    assert escaped and "/proc/sys/kernel/core_pattern" in observed, observed
    escaped, observed = found["commands run as host root"]
    assert escaped and "runs as host root" in observed, observed


def test_control_leaky_channel_takes_a_forged_reply(rootfs: Path, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    weak = LeakyChannelBwrap(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs)))
    found = _probe(weak, task, "devices, sockets, inherited descriptors", FORGE)
    assert found["devices, sockets, inherited descriptors"][0]  # the leaked pipe shows as an inherited fd
    escaped, observed = found[FORGE]
    assert escaped and "forged" in observed, observed


def test_control_infra_blaming_backend_is_caught(rootfs: Path, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    weak = InfraBlamingBwrap(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs)))
    escaped, observed = _probe(weak, task, INFRA)[INFRA]
    assert escaped and "copy limit:INFRA" in observed, observed


# ---------------------------------------------------------------------------- the host reader


def test_reader_rejects_garbage_foreign_ids_and_floods() -> None:
    srv = ExecServer([], "/dev/null")
    good = json.dumps({"id": "n1", "rc": 3, "out": "aGk=", "timed_out": False, "truncated": False}).encode()
    assert srv._parse(good, "n1", 0.1).output == "hi"
    for line in (b"not json\n", b"[1, 2]\n", good.replace(b'"n1"', b'"n0"'), good.replace(b'"aGk="', b'"@@"'),
                 good.replace(b'"rc": 3', b'"rc": "0"'), b'{"rc": 0, "out": ""}\n'):
        with pytest.raises(ChannelFault):
            srv._parse(line, "n1", 0.1)
    r, w = os.pipe()
    os.write(w, b"short\n" + b"x" * 5000)
    os.close(w)
    import queue

    lines: queue.Queue[Any] = queue.Queue()
    ExecServer._read(r, lines, 4096)
    assert lines.get_nowait() == b"short\n" and isinstance(lines.get_nowait(), _Overflow)


# ---------------------------------------------------------------------------- public commands


def _run_cli(args: list[str]) -> Any:
    from typer.testing import CliRunner

    from swerl.cli import app

    return CliRunner().invoke(app, ["sandbox", "run", "calc.median_even", *args])


def test_cli_run_on_bwrap_shows_no_host_privilege_and_no_forgery(rootfs: Path) -> None:
    res = _run_cli(["--backend", "bwrap", "--rootfs", str(rootfs),
                    "--cmd", f"python3 -c {shlex.quote(iso.KERNEL_KNOBS)}",
                    "--cmd", f"python3 -c {shlex.quote(iso.HOST_ROOT)}",
                    "--cmd", f"python3 -c {shlex.quote(iso.FORGE)} {iso.FORGED_MARK}",
                    "--cmd", "echo after-forgery"])
    assert res.exit_code == 0, res.output
    assert "NONE-WRITABLE" in res.output and f"HOSTUID {SANDBOX_UID}" in res.output
    assert "REACHED 0 of" in res.output and "# rc=7" in res.output and "after-forgery" in res.output
    assert iso.FORGED_MARK not in res.output


# ---------------------------------------------------------------------------- docker


@pytest.mark.docker
def test_docker_blocks_host_privilege_forgery_and_infra_blame(docker_sandbox: Any,
                                                              calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    found = _probe(docker_sandbox, task, *CLASS5, FORGE, INFRA)
    for name, (escaped, observed) in found.items():
        assert not escaped, f"{name}: {observed}"
    assert f"uid {SANDBOX_UID}" in found["commands run as host root"][1] and "core limit 0" in found["commands run as host root"][1]


@pytest.mark.docker
def test_control_docker_root_with_unmasked_proc_can_open_core_pattern(docker_settings: SandboxSettings,
                                                                      calc_task: tuple[Any, SandboxTask],
                                                                      taskpack_images: dict[str, str]) -> None:
    """The runtime's read-only/masked /proc paths are what stop a root command: switched off (empty MaskedPaths
    and ReadonlyPaths, what `docker run --security-opt systempaths=unconfined` sends), the probe sees it.
    Opened, never written."""
    from swerl.sandbox.docker import DockerSandbox

    class Unmasked(DockerSandbox):
        def __init__(self, settings: SandboxSettings) -> None:
            super().__init__(settings)
            api = self.client.api
            create = api.create_container

            def unmasked(*args: Any, **kwargs: Any) -> Any:
                kwargs["host_config"].update(MaskedPaths=[], ReadonlyPaths=[])
                return create(*args, **kwargs)

            api.create_container = unmasked

    _, task = calc_task
    root = docker_settings.model_copy(update={"docker": docker_settings.docker.model_copy(update={"user": "root"})})
    escaped, observed = _probe(Unmasked(root), task, CLASS5[0])[CLASS5[0]]
    assert escaped and "core_pattern" in observed, observed
    # same weakening, default non-root user: still blocked
    escaped, observed = _probe(Unmasked(docker_settings), task, CLASS5[0])[CLASS5[0]]
    assert not escaped, observed


@pytest.mark.docker
def test_docker_container_killed_from_inside_is_an_agent_fault(docker_settings: SandboxSettings,
                                                               calc_task: tuple[Any, SandboxTask],
                                                               taskpack_images: dict[str, str]) -> None:
    """As root a command can stop the container (tini forwards SIGTERM to PID 1's child): the next command
    is an AgentFault, not infra; as the default user it cannot stop it at all."""
    from swerl.sandbox.docker import DockerSandbox

    _, task = calc_task
    root = DockerSandbox(docker_settings.model_copy(update={"docker": docker_settings.docker.model_copy(
        update={"user": "root"})}))
    with root.session(task) as h:
        with contextlib.suppress(AgentFault):  # the command itself may already see the container go
            root.exec(h, "kill -TERM 1; sleep 3", timeout=10)
        container = h.state["container"]
        for _ in range(60):  # the engine takes a moment to mark the container stopped on a loaded machine
            container.reload()
            if container.status != "running":
                break
            time.sleep(0.5)
        with pytest.raises(AgentFault, match="stopped from inside"):
            root.exec(h, "echo alive")
    default = DockerSandbox(docker_settings)
    with default.session(task) as h:
        res = default.exec(h, "kill -TERM 1; kill -9 -1; echo tried", timeout=10)
        assert "tried" in res.output or res.returncode != 0
        assert default.exec(h, "echo alive").output.strip() == "alive"


@pytest.mark.docker
def test_cli_run_on_docker_shows_no_host_privilege(dockerd: str, taskpack_images: dict[str, str]) -> None:
    res = _run_cli(["--backend", "docker", "--docker-host", dockerd,
                    "--cmd", f"python3 -c {shlex.quote(iso.KERNEL_KNOBS)}",
                    "--cmd", f"python3 -c {shlex.quote(iso.HOST_ROOT)}", "--cmd", "id -u; touch ok && echo writable"])
    assert res.exit_code == 0, res.output
    assert "NONE-WRITABLE" in res.output and f"HOSTUID {SANDBOX_UID}" in res.output and "writable" in res.output
