"""Rollout-level advantages (docs/algorithms.md sec. 3, AL1 Fig. 4) and their split invariance."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from train_helpers import make_sample

from swerl.errors import DataError
from swerl.train.advantage import compute_advantages, group_advantages


def fig4_samples() -> list:
    """AL1 Fig. 4: rollout 1 (reward 1) split into 3 samples, rollout 2 (reward 0) one sample, one group."""
    return [make_sample("rho1", j, 10, [(5, 10)], reward=1.0) for j in range(3)] + [
        make_sample("rho2", 0, 10, [(5, 10)], reward=0.0)]


def test_fig4_rollout_level_baseline_is_one_half() -> None:
    assert compute_advantages(fig4_samples(), "grpo", "rollout") == [0.5, 0.5, 0.5, -0.5]


def test_fig4_sample_level_baseline_is_three_quarters() -> None:
    assert compute_advantages(fig4_samples(), "grpo", "sample") == [0.25, 0.25, 0.25, -0.75]


def test_rloo_uses_the_other_rollouts() -> None:
    samples = [*fig4_samples(), make_sample("rho3", 0, 10, [(5, 10)], reward=1.0)]
    # rho1: 1 - (0+1)/2 = 0.5; rho2: 0 - (1+1)/2 = -1; rho3: 1 - (1+0)/2 = 0.5
    assert compute_advantages(samples, "rloo", "rollout") == [0.5, 0.5, 0.5, -1.0, 0.5]
    # sample level: rho1's samples see the other two rho1 samples as "other rollouts" (the bias)
    assert compute_advantages(samples, "rloo", "sample")[3] == pytest.approx(0 - 4 / 4)


def test_std_normalize_and_groups_of_one() -> None:
    adv = compute_advantages(fig4_samples(), "grpo", "rollout", std_normalize=True)
    std = math.sqrt(((1 - 0.5) ** 2 + (0 - 0.5) ** 2) / 1)
    assert adv == pytest.approx([0.5 / std, 0.5 / std, 0.5 / std, -0.5 / std], rel=1e-5)
    solo = [make_sample("x", 0, 5, [(2, 5)], group_id="alone", reward=1.0)]
    assert compute_advantages(solo) == [0.0]
    assert group_advantages([3.0, 3.0], std_normalize=True) == [0.0, 0.0]


def test_missing_or_inconsistent_rewards_name_the_rollout() -> None:
    with pytest.raises(DataError, match="rollout 'r' sample 0: field reward is missing"):
        compute_advantages([make_sample("r", 0, 4, [(2, 4)], reward=None)])
    with pytest.raises(DataError, match="field reward differs"):
        compute_advantages([make_sample("r", 0, 4, [(2, 4)], reward=1.0), make_sample("r", 1, 4, [(2, 4)], reward=0.0)])
    with pytest.raises(DataError, match="level"):
        compute_advantages(fig4_samples(), level="token")  # type: ignore[arg-type]


def test_negative_scale_shrinks_only_the_failures() -> None:
    # one success in four (the usual swe-tiny group): mean 1/4, so +0.75 once and -0.25 three times
    assert group_advantages([1.0, 0.0, 0.0, 0.0], negative_scale=0.1) == pytest.approx([0.75, -0.025, -0.025, -0.025])
    assert group_advantages([1.0, 0.0, 0.0, 0.0], negative_scale=0.0) == pytest.approx([0.75, 0.0, 0.0, 0.0])
    assert group_advantages([1.0, 1.0], negative_scale=0.1) == [0.0, 0.0]  # no signal stays no signal
    # applied after the std division, per rollout: Fig. 4's rollout 2 gets -0.5 * 0.2 on its one sample
    assert compute_advantages(fig4_samples(), "grpo", "rollout", negative_scale=0.2) == pytest.approx(
        [0.5, 0.5, 0.5, -0.1])


@settings(max_examples=80, deadline=None)
@given(
    rewards=st.lists(st.sampled_from([0.0, 0.25, 1.0]), min_size=1, max_size=6),
    groups=st.lists(st.integers(0, 2), min_size=6, max_size=6),
    splits=st.lists(st.integers(1, 4), min_size=6, max_size=6),
    estimator=st.sampled_from(["grpo", "rloo"]),
    std=st.booleans(),
    neg=st.sampled_from([1.0, 0.1]),
)
def test_splitting_rollouts_never_changes_rollout_level_advantages(
    rewards: list[float], groups: list[int], splits: list[int], estimator: str, std: bool, neg: float
) -> None:
    one = [make_sample(f"r{i}", 0, 8, [(4, 8)], group_id=f"g{groups[i]}", reward=r) for i, r in enumerate(rewards)]
    many = [make_sample(f"r{i}", j, 8, [(4, 8)], group_id=f"g{groups[i]}", reward=r)
            for i, r in enumerate(rewards) for j in range(splits[i])]
    base = dict(zip([s.rollout_id for s in one], compute_advantages(one, estimator, "rollout", std,
                                                                     negative_scale=neg), strict=True))
    split = compute_advantages(many, estimator, "rollout", std, negative_scale=neg)
    assert split == [base[s.rollout_id] for s in many]
