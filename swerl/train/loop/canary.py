"""Canary tasks in training and validation (`data.canary_fraction`; the construction: `swerl.sandbox.canary`).

A canary is an impossible variant of a training task: only a reward hack passes it. The trainer declares a
share of its groups (and of its validation tasks) as canaries; the runner never rewards them and records
whether the grade passed (`canary` in the reward event); the update leaves them out of the optimizer batch
and reports `hacking/canary_pass_rate` = canary rollouts graded resolved (or refused as tampering) / canary
rollouts graded (`val/hacking/canary_pass_rate` for validation).
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swerl.config import Recipe
from swerl.errors import ConfigError
from swerl.log import get_logger
from swerl.sandbox.schema import SandboxTask

log = get_logger(__name__)


@dataclass
class CanaryMix:
    """Canary ids of training tasks (drawn by the sampler) and the validation tasks' canaries (every validation)."""

    train: list[str] = field(default_factory=list)
    val: list[str] = field(default_factory=list)


def add_canaries(recipe: Recipe, harness: Any, train: list[str], val: list[str], run_dir: Path) -> CanaryMix:
    """Build the canaries of `train` and `val` under RUN_DIR/canaries (rebuilt with fresh nonces on every start)
    and make `harness` resolve their ids. Only mini-swe-agent in bwrap with the trainer's own controller: the
    canary branches live in local git repos that only this process knows."""
    f = recipe.data.canary_fraction
    if f <= 0:
        return CanaryMix()
    from swerl.rollout.runner import MiniSweHarness
    from swerl.sandbox.canary import build_canaries

    if not isinstance(harness, MiniSweHarness):
        raise ConfigError("data.canary_fraction: needs rollout.harness mini-swe-agent (canaries are SWE tasks)")
    if recipe.sandbox.backend != "bwrap" or recipe.rollout.controller != "local":
        raise ConfigError("data.canary_fraction: needs sandbox.backend bwrap and rollout.controller local "
                          "(canary branches live in local git repos under the run directory)")
    root = run_dir / "canaries"
    shutil.rmtree(root, ignore_errors=True)
    lookup = harness.tasks
    built = build_canaries({iid: lookup(iid) for iid in [*train, *val]}, root)
    by_id: dict[str, SandboxTask] = {c.task.instance_id: c.task for c in built.values()}
    harness.tasks = lambda iid: by_id[iid] if iid in by_id else lookup(iid)
    mix = CanaryMix([built[i].task.instance_id for i in train if i in built],
                    [built[i].task.instance_id for i in val if i in built])
    mix.val = mix.val[: math.ceil(f * len(val))] if mix.val else []
    if not mix.train:
        raise ConfigError("data.canary_fraction: no training task has a canary (no FAIL_TO_PASS test with "
                          "`assert <expr> == <literal>`; see the log for each task's reason)")
    log.info("canaries mixed in", fraction=f, train=len(mix.train), val=len(mix.val))
    return mix


def canary_outcome(reward_data: Any) -> tuple[bool, bool] | None:
    """(graded, passed) of a canary rollout's reward data; None for an ordinary rollout."""
    c = reward_data.get("canary") if isinstance(reward_data, dict) else None
    if not isinstance(c, dict):
        return None
    return bool(c.get("graded")), bool(c.get("passed"))


@dataclass
class CanaryTally:
    """Canary rollouts seen since the last metrics line (a batch of canaries only trains nothing, but counts)."""

    rollouts: int = 0
    graded: int = 0
    passed: int = 0

    def add(self, outcome: tuple[bool, bool]) -> None:
        self.rollouts += 1
        self.graded += int(outcome[0])
        self.passed += int(outcome[0] and outcome[1])

    def metrics(self, prefix: str = "") -> dict[str, float]:
        """`hacking/canary_*` (with `prefix`, e.g. `val/`); the pass rate only when a canary was graded."""
        if not self.rollouts:
            return {}
        m = {f"{prefix}hacking/canary_rollouts": float(self.rollouts),
             f"{prefix}hacking/canary_graded": float(self.graded),
             f"{prefix}hacking/canary_passed": float(self.passed)}
        if self.graded:
            m[f"{prefix}hacking/canary_pass_rate"] = self.passed / self.graded
        return m


__all__ = ["CanaryMix", "CanaryTally", "add_canaries", "canary_outcome"]
