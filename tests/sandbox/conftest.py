"""Session fixtures for the sandbox suite: the debootstrap rootfs, a private dockerd, images, the task pack.

Everything is real: bwrap, a private dockerd (the `dockerd` / `docker_client` session fixtures live in
tests/conftest.py, shared with tests/eval, so one session starts one daemon; killed at the end),
images built locally from the cached debootstrap base, git repositories from the task pack.
If dockerd cannot start, the docker tests fail with the daemon's log: they are never skipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox.schema import BwrapSettings, DockerSettings, SandboxSettings, SandboxTask


@pytest.fixture(scope="session")
def rootfs() -> Path:
    """The cached debootstrap tree (~60-90 s the first time on a machine, then instant)."""
    from swerl.sandbox.images import ensure_rootfs

    return ensure_rootfs()


@pytest.fixture(scope="session")
def taskpack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, SandboxTask]]:
    from swerl.sandbox.tasks import load_taskpack

    return load_taskpack(tmp_path_factory.mktemp("taskpack") / "pack")


@pytest.fixture(scope="session")
def calc_task(taskpack: tuple[Any, dict[str, SandboxTask]]) -> tuple[Any, SandboxTask]:
    """A small bundled task (one FAIL_TO_PASS test) and its row."""
    pack, tasks = taskpack
    row = next(r for r in pack.rows if r.instance_id.endswith("calc.median_even"))
    return row, tasks[row.instance_id]


@pytest.fixture(scope="session")
def bwrap_sandbox(rootfs: Path) -> Any:
    from swerl.sandbox.bwrap import BwrapSandbox

    return BwrapSandbox(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs)))


@pytest.fixture(scope="session")
def bwrap_percommand_sandbox(rootfs: Path) -> Any:
    """bwrap without the exec server: a fresh bwrap per command."""
    from swerl.sandbox.bwrap import BwrapSandbox

    return BwrapSandbox(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs, persistent=False)))


@pytest.fixture(scope="session")
def base_image(docker_client: Any, rootfs: Path) -> str:
    from swerl.sandbox.images import ensure_base_image

    return ensure_base_image(docker_client)


@pytest.fixture(scope="session")
def taskpack_images(docker_client: Any, base_image: str, taskpack: tuple[Any, dict[str, SandboxTask]]) -> dict[str, str]:
    from swerl.sandbox.images import ensure_taskpack_images

    return ensure_taskpack_images(docker_client, taskpack[0])


@pytest.fixture(scope="session")
def docker_settings(dockerd: str) -> SandboxSettings:
    return SandboxSettings(command_timeout_s=30, memory_mb=512, pids_limit=128, docker=DockerSettings(base_url=dockerd))


@pytest.fixture(scope="session")
def docker_sandbox(docker_settings: SandboxSettings, taskpack_images: dict[str, str]) -> Any:
    from swerl.sandbox.docker import DockerSandbox

    return DockerSandbox(docker_settings)
