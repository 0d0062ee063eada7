"""mini-swe-agent as the loop's harness, through the rollout room's runner pieces.

One attempt = `swerl.rollout.runner.evaluate`: mini-swe-agent (unchanged) in a fresh
hardened sandbox against the gateway's per-rollout proxy, the submission graded in
another fresh sandbox. The loop's driver records state and reward; this adapter only
maps the outcome: `failed_infra` -> `InfraError` (retried, never trained), otherwise the
reward (1.0 resolved, 0.0 not) with the runner's reward data (exit status, dropped
test-file hunks for the hacking counters, grade details).

Tasks: the recipe's `data.dataset` split `data.split`; validation uses `data.val_split`.
The bundled task pack has no splits, so its validation set is `data.val_limit` (default
2) tasks held out by a seeded shuffle and never trained on.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from swerl.config import Recipe
from swerl.errors import ConfigError
from swerl.log import get_logger
from swerl.train.loop.harness import InfraError, RolloutContext, RolloutResult

log = get_logger(__name__)

TASKPACK_VAL = 2


class SweHarness:
    """Thread-safe: every attempt gets its own sandboxes; the sandbox backend and task source are shared."""

    def __init__(self, recipe: Recipe, run_dir: Path, tasks: dict[str, Any]) -> None:
        from swerl.rollout.context import WorkerContext, WorkerOptions

        self.name = recipe.rollout.harness
        self.ctx = WorkerContext(WorkerOptions(recipe=str(run_dir / "recipe.yaml"), rootfs="auto"))
        self.sandbox = self.ctx.sandbox  # an unavailable backend fails here, before any rollout
        self.ctx.prepare_images()
        self.tasks = tasks
        self.trajectories = run_dir / "trajectories"

    def close(self) -> None:
        """Sandboxes are stopped per attempt by `run_agent`; nothing is left to close."""

    def run(self, ctx: RolloutContext) -> RolloutResult:
        from swerl.rollout.runner import evaluate, reward_data

        ctx.check_stop()
        task = self.tasks[ctx.task["id"]]
        settings = self.ctx.settings.model_copy(update={"temperature": ctx.temperature})
        endpoint = settings.endpoint(ctx.base_url, ctx.api_key)
        traj = self.trajectories / f"{ctx.rollout_id}.attempt{ctx.attempt}.traj.json"
        att = evaluate(task, self.sandbox, endpoint, settings, traj)
        if att.state == "failed_infra":
            raise InfraError(att.error or "infrastructure failure")
        state = "succeeded" if att.state == "succeeded" else "failed_agent"
        return RolloutResult(reward=float(att.reward or 0.0), state=state, data=reward_data(att.agent, att.grade))


def _source(dataset: str, split: str) -> Any:
    from swerl.rollout.tasks import TaskSource

    try:
        return TaskSource(dataset, split)
    except Exception as exc:  # a missing file / split / hub name: before any work starts
        raise ConfigError(f"data.dataset {dataset!r} split {split!r}: cannot load tasks: {exc}") from exc


def build_swe_harness(recipe: Recipe, tokenizer: Any, run_dir: Path) -> tuple[SweHarness, list[dict], list[dict]]:
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
    if d.limit:
        ids = ids[:d.limit]
    if d.val_limit:
        val_ids = val_ids[:d.val_limit]
    if not ids:
        raise ConfigError(f"data.dataset {d.dataset!r}: no training tasks")
    harness = SweHarness(recipe, run_dir, by_id)
    log.info("tasks", train=len(ids), val=len(val_ids))
    return harness, [{"id": i} for i in ids], [{"id": i} for i in val_ids]


__all__ = ["SweHarness", "build_swe_harness"]
