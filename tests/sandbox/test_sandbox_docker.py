"""Docker-only behaviour against the private engine: hardening flags, limits, reaping, allow-list, inventory."""

from __future__ import annotations

import contextlib
import subprocess
import time
from typing import Any

import pytest

from swerl.sandbox import owners
from swerl.sandbox.schema import SANDBOX_UID, SandboxSettings, SandboxTask

pytestmark = pytest.mark.docker


def test_agent_container_hardening_flags(docker_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    with docker_sandbox.session(task) as h:
        c = h.state["container"]
        c.reload()
        hc = c.attrs["HostConfig"]
        assert hc["NetworkMode"] == "none"
        assert hc["CapDrop"] == ["ALL"] and not hc.get("CapAdd")
        assert "no-new-privileges:true" in hc["SecurityOpt"]
        assert hc["ReadonlyRootfs"] is True and hc["Privileged"] is False
        assert hc["PidsLimit"] == 128 and hc["Memory"] == 512 * 1024 * 1024 and hc["MemorySwap"] == hc["Memory"]
        assert hc["NanoCpus"] == 1_000_000_000
        assert hc["Ulimits"] == [{"Name": "core", "Soft": 0, "Hard": 0}]
        # the runtime's read-only / masked /proc paths are kept (a root command could write /proc/sys otherwise)
        assert {"/proc/sys", "/proc/sysrq-trigger"} <= set(hc["ReadonlyPaths"]) and "/proc/kcore" in hc["MaskedPaths"]
        assert docker_sandbox.exec(h, "id -u").output.strip() == str(SANDBOX_UID)  # not root, not a host account
        assert c.labels["swerl.sandbox"] == "1" and c.labels["swerl.handle"] == h.id
        # only the agent container is left: the prep container (which saw .git) is gone
        left = docker_sandbox.client.containers.list(all=True, filters={"label": f"swerl.handle={h.id}"})
        assert [x.labels["swerl.role"] for x in left] == ["agent"]
        # memory limit is enforced: allocating past it kills the process
        res = docker_sandbox.exec(h, "python3 -c 'x = bytearray(900 * 1024 * 1024); print(len(x))'", timeout=30)
        assert res.returncode != 0 and "943718400" not in res.output
        # pids limit is enforced
        res = docker_sandbox.exec(h, "for i in $(seq 300); do (sleep 3 &) 2>/dev/null; done; "
                                     "ls /proc | grep -c '^[0-9]*$'", timeout=60)
        assert 20 < int(res.output.split()[-1]) <= 128


def test_reap_removes_orphans_of_dead_processes(docker_sandbox: Any, base_image: str) -> None:
    from swerl.sandbox.docker import DockerSandbox

    dead = subprocess.Popen(["true"])
    dead.wait()
    client = docker_sandbox.client
    future = str(int(time.time() + 3600))
    common = {"swerl.sandbox": "1", "swerl.host": owners.where(), "swerl.expires": future}
    orphan = client.containers.run(base_image, ["sleep", "300"], detach=True, network_mode="none",
                                   labels={**common, "swerl.pid": str(dead.pid), "swerl.handle": "orphan"})
    expired = client.containers.run(base_image, ["sleep", "300"], detach=True, network_mode="none",
                                    labels={**common, "swerl.pid": "1", "swerl.expires": "1", "swerl.handle": "expired"})
    alive = client.containers.run(base_image, ["sleep", "300"], detach=True, network_mode="none",
                                  labels={**common, "swerl.pid": "1", "swerl.handle": "alive"})
    try:
        DockerSandbox(docker_sandbox.settings)  # reaps on start-up
        ids = {c.id for c in client.containers.list(all=True, filters={"label": "swerl.sandbox=1"})}
        assert orphan.id not in ids and expired.id not in ids and alive.id in ids
    finally:
        for c in (orphan, expired, alive):
            with contextlib.suppress(Exception):
                c.remove(force=True)


def test_resume_reaps_only_its_runs_dead_containers_and_names_them(docker_sandbox: Any, base_image: str) -> None:
    """What `swerl train --resume` calls (owners.reap_run): the dead incarnation's container goes and is named;
    another run's dead container stays (its own resume, or `swerl sandbox gc`, takes it)."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    client = docker_sandbox.client
    common = {"swerl.sandbox": "1", "swerl.host": owners.where(), "swerl.pid": str(dead.pid),
              "swerl.expires": str(int(time.time() + 3600))}
    ours = client.containers.run(base_image, ["sleep", "300"], detach=True, network_mode="none",
                                 labels={**common, "swerl.run": "run-a-1234", "swerl.handle": "ours"})
    other = client.containers.run(base_image, ["sleep", "300"], detach=True, network_mode="none",
                                  labels={**common, "swerl.run": "run-b-1234", "swerl.handle": "other"})
    try:
        settings = docker_sandbox.settings.model_copy(update={"run_label": "run-a-1234", "backend": "docker"})
        assert f"container {ours.name}" in owners.reap_run(settings)
        ids = {c.id for c in client.containers.list(all=True, filters={"label": "swerl.sandbox=1"})}
        assert ours.id not in ids and other.id in ids
    finally:
        for c in (ours, other):
            with contextlib.suppress(Exception):
                c.remove(force=True)


def test_allow_list_uses_an_internal_network_shared_only_with_named_services(
        docker_settings: SandboxSettings, calc_task: tuple[Any, SandboxTask], base_image: str,
        taskpack_images: dict[str, str]) -> None:
    """No traffic is sent (tests only ever address loopback servers): the wiring is checked on the engine."""
    from swerl.sandbox.docker import DockerSandbox

    _, task = calc_task
    sb = DockerSandbox(docker_settings.model_copy(update={"network_allow": ["swerl-test-gateway"]}))
    gateway = sb.client.containers.run(base_image, ["sleep", "300"], detach=True, network_mode="none",
                                       name="swerl-test-gateway")
    try:
        gateway.remove(force=True)
        gateway = sb.client.containers.run(base_image, ["sleep", "300"], detach=True, name="swerl-test-gateway",
                                           network_disabled=False)
        with sb.session(task) as h:
            net = sb.client.networks.get(h.state["network"])
            net.reload()
            assert net.attrs["Internal"] is True
            members = {v["Name"] for v in net.attrs["Containers"].values()}
            agent = h.state["container"]
            agent.reload()
            assert members == {agent.name, "swerl-test-gateway"}
            assert list(agent.attrs["NetworkSettings"]["Networks"]) == [net.name]
            assert agent.attrs["HostConfig"]["NetworkMode"] == net.name
        assert sb.client.networks.list(names=[h.state["network"]]) == []
    finally:
        gateway.remove(force=True)


def test_inventory_lists_image_branches_once(docker_client: Any, dockerd: str,
                                             taskpack: tuple[Any, dict[str, SandboxTask]],
                                             taskpack_images: dict[str, str]) -> None:
    from swerl.data.inventory import BranchInventory, ImageUnavailable
    from swerl.sandbox.inventory import DockerInventory

    pack = taskpack[0]
    inv = DockerInventory(base_url=dockerd)
    assert isinstance(inv, BranchInventory)
    image = "swerl-taskpack/calc:latest"
    names = inv.branches(image)
    expected = {r.instance_id for r in pack.rows if r.image_name == image} | {"main"}
    assert expected <= names
    before = len(docker_client.containers.list(all=True))
    assert inv.branches(image) == names  # cached: no new container
    assert len(docker_client.containers.list(all=True)) == before
    with pytest.raises(ImageUnavailable):
        inv.branches("swerl-taskpack/does-not-exist:latest")


def test_repo_image_is_rebuilt_only_when_refs_change(docker_client: Any, base_image: str, tmp_path: Any) -> None:
    from swerl.sandbox.audit import make_canary_repo
    from swerl.sandbox.images import ensure_repo_image

    repo = make_canary_repo(tmp_path / "r", "TOKEN")
    first = docker_client.images.get(ensure_repo_image(docker_client, repo, "swerl-test/r:latest", base=base_image)).id
    again = docker_client.images.get(ensure_repo_image(docker_client, repo, "swerl-test/r:latest", base=base_image)).id
    assert first == again
    subprocess.run(["git", "-C", str(repo), "branch", "extra"], check=True)
    third = docker_client.images.get(ensure_repo_image(docker_client, repo, "swerl-test/r:latest", base=base_image)).id
    assert third != first
    refs = docker_client.containers.run("swerl-test/r:latest", ["git", "-C", "/testbed", "branch", "-r"], remove=True,
                                        network_mode="none").decode()
    assert "origin/extra" in refs and "origin/swerl-audit__canary.bug" in refs
