"""Eval test fixtures: SWE-bench-schema instances built from the bundled task pack, bwrap sandboxes.

The docker fixtures (`dockerd`, `docker_client`) come from tests/conftest.py (one private
daemon per session, shared with tests/sandbox).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox.schema import BwrapSettings, SandboxSettings


@pytest.fixture(scope="session")
def rootfs() -> Path:
    from swerl.sandbox.images import ensure_rootfs

    return ensure_rootfs()


@pytest.fixture(scope="session")
def sb_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`instances.jsonl` of the pack in the SWE-bench schema (one git repo per instance beside it)."""
    from swerl.eval.taskpack import build

    return build(tmp_path_factory.mktemp("sbpack") / "pack")


@pytest.fixture(scope="session")
def sb_rows(sb_pack: Path) -> list[dict[str, Any]]:
    import json

    return [json.loads(line) for line in sb_pack.read_text().splitlines()]


@pytest.fixture(scope="session")
def bwrap_settings(rootfs: Path) -> SandboxSettings:
    """8 s per agent run: enough for the scripted runs (~1 s), short for the one that sleeps."""
    return SandboxSettings(backend="bwrap", command_timeout_s=30, rollout_timeout_s=8,
                           bwrap=BwrapSettings(rootfs=rootfs))
