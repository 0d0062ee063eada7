"""Outcome advantages with a group baseline over rollouts (docs/algorithms.md sec. 3, AL1 sec. 2.2).

Every sample of rollout rho gets the rollout's advantage. The baseline is computed
over the *rollouts* of a group, so splitting a rollout into more samples changes
nothing (AL1 Fig. 4: baseline 1/2). `level="sample"` treats each sample as a group
member (baseline 3/4 in Fig. 4): the biased variant, kept only as an ablation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from swerl.errors import DataError
from swerl.train.schema import Sample

Estimator = Literal["grpo", "rloo"]
Level = Literal["rollout", "sample"]


def group_advantages(rewards: Sequence[float], estimator: Estimator = "grpo", std_normalize: bool = False,
                     eps: float = 1e-6, negative_scale: float = 1.0) -> list[float]:
    """Advantages of the members of one group from their rewards, shape (G,) -> (G,).

    GRPO: A_i = r_i - mean(r)                       (sec. 3, "baseline_g")
    RLOO: A_i = r_i - mean(r_k for k != i)          (sec. 3, leave-one-out)
    `std_normalize` divides by the group's sample std (Bessel, like verl) + eps.
    `negative_scale` multiplies the advantages below zero (sec. 3, asymmetric advantage): 1 is the plain
    estimator; below 1 a failed rollout pushes its tokens down less than a success pulls them up, which keeps
    a small model from spreading mass off every token when most of a group fails.
    A group of one has no baseline to compare with: its advantage is 0.
    """
    g = len(rewards)
    if g < 2:
        return [0.0] * g
    total = math.fsum(rewards)
    mean = total / g
    if estimator == "grpo":
        adv = [r - mean for r in rewards]
    elif estimator == "rloo":
        adv = [r - (total - r) / (g - 1) for r in rewards]
    else:
        raise DataError(f"estimator {estimator!r}: expected 'grpo' or 'rloo'")
    if std_normalize:
        std = math.sqrt(math.fsum((r - mean) ** 2 for r in rewards) / (g - 1))
        adv = [a / (std + eps) for a in adv]
    if negative_scale != 1.0:
        adv = [a * negative_scale if a < 0 else a for a in adv]  # asymmetric advantage
    return adv


def compute_advantages(
    samples: Sequence[Sample],
    estimator: Estimator = "grpo",
    level: Level = "rollout",
    std_normalize: bool = False,
    eps: float = 1e-6,
    negative_scale: float = 1.0,
) -> list[float]:
    """One advantage per sample, in the order given (docs/algorithms.md sec. 3).

    `level="rollout"` (default, AL1): group statistics over the distinct rollouts of
    each `group_id`; all samples of a rollout share its advantage. `level="sample"`:
    statistics over samples (ablation). Every sample needs a reward, and all samples of
    a rollout must carry the same reward and group; otherwise `DataError` names it.
    """
    if level not in ("rollout", "sample"):
        raise DataError(f"advantage level {level!r}: expected 'rollout' or 'sample'")
    rollout_reward: dict[str, float] = {}
    rollout_group: dict[str, str] = {}
    for s in samples:
        if s.reward is None:
            raise DataError(f"rollout {s.rollout_id!r} sample {s.sample_index}: field reward is missing "
                            "(a rollout must be finished and rewarded before computing advantages)")
        prev = rollout_reward.setdefault(s.rollout_id, float(s.reward))
        if prev != s.reward:
            raise DataError(f"rollout {s.rollout_id!r}: field reward differs between its samples ({prev} vs {s.reward})")
        if rollout_group.setdefault(s.rollout_id, s.group_id) != s.group_id:
            raise DataError(f"rollout {s.rollout_id!r}: field group_id differs between its samples")

    # members[group] = list of keys (rollout ids, or sample positions at sample level)
    members: dict[str, list[str | int]] = {}
    rewards: dict[str | int, float] = {}
    if level == "rollout":
        for rid, gid in rollout_group.items():
            members.setdefault(gid, []).append(rid)
            rewards[rid] = rollout_reward[rid]
    else:
        for i, s in enumerate(samples):
            members.setdefault(s.group_id, []).append(i)
            rewards[i] = float(s.reward)  # type: ignore[arg-type]
    adv_of: dict[str | int, float] = {}
    for keys in members.values():
        for key, a in zip(keys, group_advantages([rewards[k] for k in keys], estimator, std_normalize, eps,
                                                negative_scale),
                          strict=True):
            adv_of[key] = a
    if level == "rollout":
        return [adv_of[s.rollout_id] for s in samples]
    return [adv_of[i] for i in range(len(samples))]


__all__ = ["compute_advantages", "group_advantages"]
