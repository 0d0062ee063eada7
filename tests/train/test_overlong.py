"""Trajectory length budget (docs/algorithms.md sec. 13, eq. 24): DAPO's soft overlong penalty, masking of
over-budget rollouts out of the loss, and the length/* counts."""

from __future__ import annotations

from typing import Any

import pytest
from train_helpers import make_sample

from swerl.config import load_recipe
from swerl.errors import ConfigError
from swerl.train.advantage import apply_overlong, overlong_penalty
from swerl.train.loop.update import Batch, rl_update
from swerl.train.schema import AssemblyStats


def test_penalty_matches_eq_24() -> None:
    # L_max = 100, L_buf = 20: free up to 80, linear to -1 at 100, -1 past it
    assert overlong_penalty(80, 100, 20) == 0.0
    assert overlong_penalty(90, 100, 20) == pytest.approx(-0.5)
    assert overlong_penalty(100, 100, 20) == pytest.approx(-1.0)
    assert overlong_penalty(101, 100, 20) == -1.0
    with pytest.raises(ConfigError, match="overlong_buffer"):
        overlong_penalty(10, 100, 0)


def _samples(split: int) -> list[Any]:
    """Rollout a: 90 response tokens, b: 40, c: 120 -- a split into `split` samples (AL1)."""
    out = []
    for j in range(split):
        out.append(make_sample("a", j, 100, [(10, 10 + 90 // split)], group_id="g", reward=1.0, seed=j))
    out.append(make_sample("b", 0, 60, [(20, 60)], group_id="g", reward=1.0))
    out.append(make_sample("c", 0, 130, [(10, 130)], group_id="g", reward=0.0))
    return out


@pytest.mark.parametrize("split", [1, 3])
def test_penalty_shapes_rewards_per_rollout_whatever_the_split(split: int) -> None:
    rewards = {"a": 1.0, "b": 1.0, "c": 0.0}
    samples, new, masked, m = apply_overlong(_samples(split), rewards, "penalty", 100, 20, [], "fail")
    assert new == pytest.approx({"a": 0.5, "b": 1.0, "c": -1.0}) and masked == []
    assert {s.rollout_id: s.reward for s in samples} == pytest.approx(new)
    assert m["length/over_budget_rollouts"] == 1 and m["length/in_buffer_rollouts"] == 1
    assert m["length/rollout_tokens_max"] == 120
    off = apply_overlong(_samples(split), rewards, "none", 100, 20, [], "fail")
    assert off[1] == rewards and off[2] == [] and off[3]["length/over_budget_rollouts"] == 1  # counted, not applied


class _Recorder:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def update(self, samples: Any, advantages: Any = (), *, update_index: int | None = None) -> dict[str, float]:
        self.seen += [s.rollout_id for s in samples]
        return {"policy/updated": 1.0}


def test_mask_keeps_the_rollout_in_the_baseline_and_out_of_the_loss() -> None:
    rewards = {"a": 1.0, "b": 1.0, "c": 0.0}
    samples, new, masked, m = apply_overlong(_samples(1), rewards, "mask", 100, 20, [], "fail")
    assert masked == ["c"] and m["length/masked_rollouts"] == 1 and new == rewards
    batch = Batch(samples, [["a", "b", "c"]], new, AssemblyStats(mode="best_effort"), [0, 0, 0], [], [],
                  overlong_masked=masked)
    backend = _Recorder()
    rl_update(backend, batch, load_recipe("toy", ["train.mini_batches=1", "algorithm.std_normalize=false",
                                                  "algorithm.negative_advantage_scale=1"]), update_index=0)  # type: ignore[arg-type]
    assert set(backend.seen) == {"a", "b"}  # c is out of the loss ...
    assert batch.advantages[("a", 0)] == pytest.approx(1 / 3)  # ... but in the group's baseline (mean 2/3)


@pytest.mark.parametrize("overflow_mode", ["fail", "mask"])
def test_context_overflow_is_masked_only_when_the_recipe_says(overflow_mode: str) -> None:
    """`rollout.context_overflow: mask`: b (ended by a context overflow, reward 0) stays in the baseline, out of
    the loss; `fail` trains it as an ordinary reward 0."""
    rewards = {"a": 1.0, "b": 0.0, "c": 0.0}
    samples = [make_sample(r, 0, 40, [(10, 30)], group_id="g", reward=v) for r, v in rewards.items()]
    samples, new, masked, m = apply_overlong(samples, rewards, "none", 100, 20, ["b"], overflow_mode)
    assert m["length/context_overflow_rollouts"] == 1 and new == rewards
    assert masked == (["b"] if overflow_mode == "mask" else [])
    batch = Batch(samples, [["a", "b", "c"]], new, AssemblyStats(mode="best_effort"), [0, 0, 0], [], [],
                  overlong_masked=masked, context_overflow=["b"])
    backend = _Recorder()
    rl_update(backend, batch, load_recipe("toy", ["train.mini_batches=1", "algorithm.std_normalize=false",
                                                  "algorithm.negative_advantage_scale=1"]), update_index=0)  # type: ignore[arg-type]
    assert set(backend.seen) == ({"a", "c"} if overflow_mode == "mask" else {"a", "b", "c"})
    assert batch.advantages[("a", 0)] == pytest.approx(2 / 3)  # b counts in the baseline either way
