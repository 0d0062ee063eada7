"""Rollout test fixtures: the real bwrap sandbox, the bundled task pack, scripted/embedded engines, gateways.

Everything runs for real on loopback: the gateway (`LocalGateway`: the real app in a
uvicorn thread), engines serving real token ids of the project's tiny tokenizer,
mini-swe-agent itself, bwrap sandboxes and git.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The gateway retries engine failures itself; one harness-side try keeps infra classification fast in tests.
os.environ.setdefault("MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT", "1")

from rollout_helpers import ADMIN, Engines, Gateways

from swerl.config import RolloutConfig
from swerl.rollout.schema import HARNESS_TEXT, RolloutSettings
from swerl.sandbox.schema import BwrapSettings, SandboxSettings, SandboxTask

MEDIAN = "swerl-taskpack__calc.median_even"


@pytest.fixture(scope="session")
def rootfs() -> Path:
    from swerl.sandbox.images import ensure_rootfs

    return ensure_rootfs()


@pytest.fixture(scope="session")
def pack() -> Any:
    """The bundled task pack materialised in the shared cache (what `TaskSource('taskpack')` uses)."""
    from swerl.sandbox.tasks import load_taskpack

    return load_taskpack()


@pytest.fixture(scope="session")
def median_task(pack: Any) -> SandboxTask:
    return pack[1][MEDIAN]


@pytest.fixture(scope="session")
def sandbox(rootfs: Path) -> Any:
    from swerl.sandbox.bwrap import BwrapSandbox

    return BwrapSandbox(SandboxSettings(command_timeout_s=30, rollout_timeout_s=120,
                                        bwrap=BwrapSettings(rootfs=rootfs)))


@pytest.fixture(scope="session")
def tiny_tok() -> Any:
    from swerl.models import build_tiny_tokenizer

    return build_tiny_tokenizer()


@pytest.fixture
def engines(tiny_tok: Any) -> Iterator[Engines]:
    e = Engines(tiny_tok)
    yield e
    e.stop()


@pytest.fixture
def gateways(tmp_path: Path) -> Iterator[Gateways]:
    g = Gateways(tmp_path)
    yield g
    g.stop()


@pytest.fixture
def settings(tmp_path: Path) -> RolloutSettings:
    return RolloutSettings(rollout=RolloutConfig(harness=HARNESS_TEXT, max_steps=8, max_tokens=256), model="scripted",
                           retry_delay_s=0, trajectories_dir=tmp_path / "traj")


__all__ = ["ADMIN"]
