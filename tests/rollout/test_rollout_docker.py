"""One rollout with the docker backend: the harness outside the container (network none), the patch taken
out through the engine's archive API, graded in a fresh container, reward through the gateway."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import MEDIAN
from rollout_helpers import SOLVE_MEDIAN, events, live_sandboxes

from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource
from swerl.sandbox.schema import DockerSettings, SandboxSettings

pytestmark = [pytest.mark.docker, pytest.mark.slow]  # ~60 s: a private dockerd, image builds


def test_rollout_in_a_docker_sandbox(engines: Any, gateways: Any, settings: RolloutSettings, dockerd: str,
                                     docker_client: Any, pack: Any) -> None:
    from swerl.sandbox.docker import DockerSandbox
    from swerl.sandbox.images import ensure_taskpack_images

    ensure_taskpack_images(docker_client, pack[0])
    sandbox = DockerSandbox(SandboxSettings(backend="docker", command_timeout_s=30, rollout_timeout_s=120,
                                            memory_mb=512, docker=DockerSettings(base_url=dockerd)))
    _, url = engines.scripted(SOLVE_MEDIAN)
    gw = gateways.start([url])
    gw.client.create_rollout("r-docker", metadata={"instance_id": MEDIAN})
    out = Runner(gw.client, sandbox, TaskSource("taskpack").task, settings).run("r-docker")
    assert (out.state, out.reward) == ("succeeded", 1.0)
    assert out.agent is not None and out.agent.files == ["calc/stats.py"]
    assert [e["reward"] for e in events(gw, "r-docker", "reward")] == [1.0]
    assert live_sandboxes() == []
    assert not docker_client.containers.list(all=True, filters={"label": "swerl.sandbox"})  # nothing left behind
