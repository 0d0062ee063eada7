"""Task sources and the harness for a recipe, and the seeded task sampler.

`rollout.harness` picks the agent program: `toy` (in-process, no sandbox) or
`mini-swe-agent` (the rollout room's runner over a hardened sandbox). The train split is
what rollouts are declared for; the validation split is held out (never trained on).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from swerl.config import Recipe
from swerl.errors import ConfigError
from swerl.train.loop.harness import Harness


class TaskSampler:
    """Epochs over the tasks in a seeded shuffled order; its state is checkpointed."""

    def __init__(self, tasks: list[dict[str, Any]], seed: int) -> None:
        if not tasks:
            raise ConfigError("the recipe's train split has no tasks")
        self.tasks = tasks
        self.rng = random.Random(f"tasks-{seed}")
        self.order: list[int] = []
        self.pos = 0

    def next(self) -> dict[str, Any]:
        if self.pos >= len(self.order):
            self.order = list(range(len(self.tasks)))
            self.rng.shuffle(self.order)
            self.pos = 0
        task = self.tasks[self.order[self.pos]]
        self.pos += 1
        return task

    def state_dict(self) -> dict[str, Any]:
        return {"rng": self.rng.getstate(), "order": self.order, "pos": self.pos}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.rng.setstate(state["rng"])
        self.order, self.pos = list(state["order"]), int(state["pos"])


def build_harness(recipe: Recipe, tokenizer: Any, run_dir: Path) -> tuple[Harness, list[dict], list[dict]]:
    """(harness, train tasks, validation tasks) for `rollout.harness`."""
    name = recipe.rollout.harness
    if name == "toy":
        from swerl.train.loop.toy import ToyHarness, toy_tasks

        harness = ToyHarness(recipe.toy, tokenizer, timeout_s=recipe.inference.request_timeout_s + 60)
        train = toy_tasks(recipe.toy, "train", recipe.train.seed)
        val = toy_tasks(recipe.toy, "val", recipe.train.seed)
        return harness, _limit(train, recipe.data.limit), _limit(val, recipe.data.val_limit)
    if name.startswith("mini-swe-agent") or ":" in name:  # the rollout room's harnesses (or pkg.mod:Class)
        from swerl.train.loop.swe import build_swe_harness

        return build_swe_harness(recipe, tokenizer, run_dir)
    raise ConfigError(f"rollout.harness {name!r}: expected toy, mini-swe-agent, mini-swe-agent-textbased "
                      "or pkg.mod:Class")


def _limit(tasks: list[dict], n: int | None) -> list[dict]:
    return tasks[:n] if n else tasks


__all__ = ["TaskSampler", "build_harness"]
