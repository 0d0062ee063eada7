"""Dynamic sampling (docs/algorithms.md sec. 11, eq. 22): zero-variance groups are dropped and the update is
refilled from new groups, within `algorithm.dynamic_sampling_max_extra`."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from train_helpers import make_sample

import swerl.train.loop.trainer as trainer_mod
from swerl.config import load_recipe
from swerl.train.loop import train
from swerl.train.loop.dynamic import DynamicSampler, keep_informative
from swerl.train.loop.metrics import read_metrics
from swerl.train.loop.update import Batch
from swerl.train.schema import AssemblyStats


def _batch(groups: dict[str, dict[str, float]], samples_per_rollout: int = 1) -> Batch:
    samples, rewards, ages = [], {}, {}
    for gid, members in groups.items():
        for rid, r in members.items():
            for j in range(samples_per_rollout):
                s = make_sample(rid, j, 4, [(2, 4)], group_id=gid, reward=r)
                samples.append(s)
            rewards[rid], ages[rid] = r, 0
    stats = AssemblyStats(mode="best_effort", num_rollouts=len(rewards), num_samples=len(samples))
    return Batch(samples, [list(m) for m in groups.values()], rewards, stats, [0] * len(rewards), [], [], ages=ages)


def test_zero_variance_groups_are_dropped_whatever_the_split() -> None:
    groups = {"g0": {"a": 0.0, "b": 0.0}, "g1": {"c": 1.0, "d": 0.0}, "g2": {"e": 1.0, "f": 1.0}, "g3": {"h": 1.0}}
    for split in (1, 3):  # AL1: how many samples a rollout splits into never changes what is kept
        kept, dropped = keep_informative(_batch(groups, split))
        assert kept.groups == [["c", "d"]] and dropped == [["a", "b"], ["e", "f"], ["h"]]
        assert {s.rollout_id for s in kept.samples} == {"c", "d"} and len(kept.samples) == 2 * split
        assert set(kept.rewards) == set(kept.ages) == {"c", "d"}


def test_refill_stops_at_the_target_or_the_extra_bound() -> None:
    dyn = DynamicSampler(target=4, max_extra=4)
    assert not dyn.add(_batch({"g0": {"a": 0.0, "b": 0.0}, "g1": {"c": 1.0, "d": 0.0}}), taken=4)
    assert dyn.want() == 2
    assert dyn.add(_batch({"g2": {"e": 1.0, "f": 0.0}}), taken=2)
    batch, m = dyn.pop()
    assert batch.groups == [["c", "d"], ["e", "f"]] and batch.stats.num_rollouts == 6  # all assembled
    assert m["dynamic/dropped_groups"] == 1 and m["dynamic/dropped_rollouts"] == 2
    assert m["dynamic/extra_rollouts"] == 2 and m["dynamic/refills"] == 1 and m["dynamic/underfilled"] == 0
    dyn = DynamicSampler(target=4, max_extra=2)  # the bound: all-fail for 6 rollouts, then train on what there is
    assert not dyn.add(_batch({"g0": {"a": 0.0, "b": 0.0}, "g1": {"c": 0.0, "d": 0.0}}), taken=4)
    assert dyn.add(_batch({"g2": {"e": 0.0, "f": 0.0}}), taken=2)
    batch, m = dyn.pop()
    assert batch.samples == [] and m["dynamic/underfilled"] == 1 and m["dynamic/extra_rollouts"] == 2


@pytest.fixture()
def _tok(tok_cache: Path, tiny_tok: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWERL_CACHE_DIR", str(tok_cache.parent))


@pytest.mark.usefixtures("_tok")
def test_loop_trains_only_on_informative_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first batch built is made all-fail; with dynamic sampling the update refills instead of training on it
    (with `algorithm.dynamic_sampling=false` the update trains on the all-fail groups and this fails)."""
    real_build, real_update = trainer_mod.build_batch, trainer_mod.rl_update
    calls = {"n": 0}
    trained: list[Batch] = []

    def build_batch(*args: Any, **kwargs: Any) -> Batch:
        batch = real_build(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == 1:
            return dataclasses.replace(batch, rewards=dict.fromkeys(batch.rewards, 0.0),
                                       samples=[s.model_copy(update={"reward": 0.0}) for s in batch.samples])
        return batch

    def rl_update(backend: Any, batch: Batch, recipe: Any, update_index: int) -> dict[str, float]:
        trained.append(batch)
        return real_update(backend, batch, recipe, update_index)

    monkeypatch.setattr(trainer_mod, "build_batch", build_batch)
    monkeypatch.setattr(trainer_mod, "rl_update", rl_update)
    recipe = load_recipe("toy", ["train.rollouts_per_step=8", "rollout.concurrency=8", "train.mini_batches=1",
                                 "train.val_every=0", "train.tensorboard=false", "train.steps=1",
                                 "algorithm.dynamic_sampling=true", "algorithm.dynamic_sampling_max_extra=64"])
    res = train(recipe, tmp_path / "run")
    assert res.steps == 1 and calls["n"] >= 2 and len(trained) == 1
    for rs in trained[0].groups:
        rewards = {trained[0].rewards[r] for r in rs}
        assert len(rs) > 1 and len(rewards) > 1, f"trained on a zero-variance group {rs}: {rewards}"
    line = read_metrics(tmp_path / "run" / "metrics.jsonl")[-1]
    assert line["dynamic/dropped_groups"] >= 1 and line["dynamic/refills"] >= 1
    assert line["dynamic/taken_rollouts"] >= 16 and line["policy_version"] == 1
    assert line["length/rollout_tokens_max"] > 0 and line["length/over_budget_rollouts"] == 0  # sec. 13 counts
