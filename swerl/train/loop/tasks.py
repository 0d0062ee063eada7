"""The recipe's harness and task ids (train and held-out validation), and the seeded task sampler.

Validation tasks are never trained on: `data.val_split` of the dataset, or for the bundled task
pack (no splits) `data.val_limit` (default 2) tasks held out by a seeded shuffle.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

from swerl.config import Recipe
from swerl.errors import ConfigError
from swerl.log import get_logger
from swerl.rollout.runner import Harness
from swerl.rollout.schema import RolloutSettings

log = get_logger(__name__)

TASKPACK_VAL = 2


class TaskSampler:
    """Epochs over the task ids in a seeded shuffled order; its state is checkpointed. With `canaries` and a
    `canary_fraction` f, draw i is a canary (from its own seeded epochs) when floor((i+1)f) > floor(if): exactly
    f of every draw prefix (to one), and the ordinary epochs are not disturbed."""

    def __init__(self, tasks: list[str], seed: int, canaries: list[str] | None = None,
                 canary_fraction: float = 0.0) -> None:
        if not tasks:
            raise ConfigError("the recipe's train split has no tasks")
        self.tasks = tasks
        self.rng = random.Random(f"tasks-{seed}")
        self.order: list[int] = []
        self.pos = 0
        self.canaries = list(canaries or [])
        self.fraction = canary_fraction if self.canaries else 0.0
        self.canary_rng = random.Random(f"canaries-{seed}")
        self.canary_order: list[int] = []
        self.canary_pos = 0
        self.drawn = 0

    def next(self) -> str:
        i = self.drawn
        self.drawn += 1
        if math.floor((i + 1) * self.fraction) > math.floor(i * self.fraction):
            if self.canary_pos >= len(self.canary_order):
                self.canary_order = list(range(len(self.canaries)))
                self.canary_rng.shuffle(self.canary_order)
                self.canary_pos = 0
            self.canary_pos += 1
            return self.canaries[self.canary_order[self.canary_pos - 1]]
        if self.pos >= len(self.order):
            self.order = list(range(len(self.tasks)))
            self.rng.shuffle(self.order)
            self.pos = 0
        task = self.tasks[self.order[self.pos]]
        self.pos += 1
        return task

    def state_dict(self) -> dict[str, Any]:
        return {"rng": self.rng.getstate(), "order": self.order, "pos": self.pos, "drawn": self.drawn,
                "canary_rng": self.canary_rng.getstate(), "canary_order": self.canary_order,
                "canary_pos": self.canary_pos}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.rng.setstate(state["rng"])
        self.order, self.pos = list(state["order"]), int(state["pos"])
        self.drawn = int(state.get("drawn", 0))  # checkpoints from before canaries: no canary drawn yet
        if "canary_rng" in state:
            self.canary_rng.setstate(state["canary_rng"])
            self.canary_order, self.canary_pos = list(state["canary_order"]), int(state["canary_pos"])


def build_harness(recipe: Recipe, tokenizer: Any, run_dir: Path) -> tuple[Harness, RolloutSettings, list[str],
                                                                          list[str]]:
    """(harness, rollout settings, train task ids, validation task ids) for `rollout.harness`."""
    name = recipe.rollout.harness
    if name == "toy":
        from swerl.rollout.toy import ToyHarness, toy_tasks

        train = _limit(toy_tasks(recipe.toy, "train", recipe.train.seed), recipe.data.limit)
        val = _limit(toy_tasks(recipe.toy, "val", recipe.train.seed), recipe.data.val_limit)
        harness = ToyHarness(recipe.toy, tokenizer, train + val, timeout_s=recipe.inference.request_timeout_s + 60)
        return harness, RolloutSettings.from_recipe(recipe), [t["id"] for t in train], [t["id"] for t in val]
    if name.startswith("mini-swe-agent") or name == "terminus-2" or ":" in name:
        return _swe(recipe, run_dir)
    raise ConfigError(f"rollout.harness {name!r}: expected toy, mini-swe-agent, mini-swe-agent-textbased, "
                      "terminus-2 or pkg.mod:Class")


def _source(dataset: str, split: str) -> Any:
    from swerl.rollout.tasks import TaskSource

    try:
        return TaskSource(dataset, split)
    except Exception as exc:  # a missing file / split / hub name: before any work starts
        raise ConfigError(f"data.dataset {dataset!r} split {split!r}: cannot load tasks: {exc}") from exc


def _swe(recipe: Recipe, run_dir: Path) -> tuple[Harness, RolloutSettings, list[str], list[str]]:
    from swerl.rollout.context import WorkerContext, WorkerOptions
    from swerl.rollout.runner import MiniSweHarness

    d = recipe.data
    train_src = _source(d.dataset, d.split)
    ids = list(train_src.instance_ids)
    by_id = {i: train_src.task(i) for i in ids}
    if d.val_split and d.dataset != "taskpack":
        val_src = _source(d.dataset, d.val_split)
        val_ids = list(val_src.instance_ids)
        by_id |= {i: val_src.task(i) for i in val_ids}
    else:  # the task pack: hold out a seeded few (never trained on)
        shuffled = sorted(ids)
        random.Random(f"val-{recipe.train.seed}").shuffle(shuffled)
        n_val = min(d.val_limit or TASKPACK_VAL, max(0, len(ids) - 1))
        val_ids = sorted(shuffled[:n_val])
        ids = [i for i in ids if i not in set(val_ids)]
    ids, val_ids = _limit(ids, d.limit), _limit(val_ids, d.val_limit)
    if not ids:
        raise ConfigError(f"data.dataset {d.dataset!r}: no training tasks")
    ctx = WorkerContext(WorkerOptions(recipe=str(run_dir / "recipe.yaml"), rootfs="auto",
                                      trajectories=run_dir / "trajectories"))
    sandbox = ctx.sandbox  # an unavailable backend fails here, before any rollout
    ctx.prepare_images()
    log.info("tasks", train=len(ids), val=len(val_ids))
    return MiniSweHarness(sandbox, by_id.__getitem__, ctx.settings), ctx.settings, ids, val_ids


def _limit(items: list[Any], n: int | None) -> list[Any]:
    return items[:n] if n else items


__all__ = ["TaskSampler", "build_harness"]
