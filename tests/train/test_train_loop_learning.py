"""Learning shown on CPU: the toy tool-use task through the real gateway, engine and collocated-async loop.

A tiny random-init model starts near 0.1 mean reward (it must call the tool *and* copy the
secret the tool returned); within a bounded number of updates it reaches >= 0.8, with GRPO
and with SAO. The run stops as soon as two consecutive updates average >= 0.8, so a
typical run takes a few dozen updates; the bound is the failure criterion.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from swerl.config import load_recipe
from swerl.train.loop import Trainer
from swerl.train.loop.metrics import read_metrics

TARGET = 0.8
START_MAX = 0.3


@pytest.fixture(autouse=True)
def _shared_tokenizer_cache(tok_cache: Path, tiny_tok: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWERL_CACHE_DIR", str(tok_cache.parent))


def learn(recipe: str, run: Path, max_updates: int, *overrides: str) -> list[float]:
    r = load_recipe(recipe, [f"train.steps={max_updates}", "train.val_every=0", "train.tensorboard=false",
                             f"train.checkpoint_every={max_updates}", *overrides])
    rewards: list[float] = []

    def watch(p: Any) -> None:
        if p.reward is not None and p.step > len(rewards):
            rewards.append(p.reward)
            if len(rewards) >= 2 and (rewards[-1] + rewards[-2]) / 2 >= TARGET:
                trainer.stop()

    trainer = Trainer(r, run, on_progress=watch)
    trainer.run()
    lines = read_metrics(run / "metrics.jsonl")
    return [ln["train/reward_mean"] for ln in lines]


# SAO's 80-update run is `make test-full`'s (as its sync run below): `make test` keeps its 20-minute budget
@pytest.mark.parametrize(("recipe", "bound"), [("toy", 80), pytest.param("toy-sao", 80, marks=pytest.mark.slow)])
def test_toy_policy_learns_to_use_the_tool(recipe: str, bound: int, tmp_path: Path) -> None:
    rewards = learn(recipe, tmp_path / "run", bound)
    assert rewards[0] <= START_MAX, rewards[:3]
    assert max((a + b) / 2 for a, b in itertools.pairwise(rewards)) >= TARGET, \
        f"{recipe}: no two consecutive updates averaged >= {TARGET} within {bound} updates: {rewards}"


@pytest.mark.slow
@pytest.mark.parametrize("recipe", ["toy", "toy-sao"])
def test_toy_learns_in_sync_mode_and_validation_agrees(recipe: str, tmp_path: Path) -> None:
    """The long variant: on-policy (sync) training for the recipe's 60 updates; greedy validation reaches >= 0.8."""
    run = tmp_path / "run"
    r = load_recipe(recipe, ["train.mode=sync", "train.tensorboard=false", "train.steps=60", "train.val_every=20"])
    Trainer(r, run).run()
    lines = read_metrics(run / "metrics.jsonl")
    rewards = [ln["train/reward_mean"] for ln in lines]
    assert rewards[0] <= START_MAX
    assert max((a + b) / 2 for a, b in itertools.pairwise(rewards)) >= TARGET, rewards
    assert max(ln.get("val/reward_mean", 0.0) for ln in lines) >= TARGET
