"""Outcome advantages with a group baseline over rollouts (docs/algorithms.md sec. 3, AL1 sec. 2.2).

Every sample of rollout rho gets the rollout's advantage. The baseline is computed
over the *rollouts* of a group, so splitting a rollout into more samples changes
nothing (AL1 Fig. 4: baseline 1/2). `level="sample"` treats each sample as a group
member (baseline 3/4 in Fig. 4): the biased variant, kept only as an ablation.

Rewards are shaped first: trajectory length budget and DAPO's overlong handling (docs/algorithms.md sec. 13, eq. 24).

A rollout's length L_rho is the number of response tokens it trains on, summed over its samples: every call's
response lands in exactly one sample, so L_rho does not depend on how the rollout was split (AL1). Against the
budget L_max (`algorithm.overlong_max_tokens`) with a buffer L_buf (`algorithm.overlong_buffer`):
`penalty` adds the soft penalty of eq. 24 to the rollout's reward before advantages; `mask` keeps an over-budget
rollout in its group's baseline but takes its tokens out of the loss; `none` only counts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

from swerl.errors import ConfigError, DataError
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


# -- trajectory length budget (sec. 13, eq. 24): rewards before advantages --------------------

Overlong = Literal["none", "mask", "penalty"]


def overlong_penalty(length: int, max_tokens: int, buffer: int) -> float:
    """DAPO's soft overlong penalty R_len(L) (eq. 24), a scalar in [-1, 0]:
    0 if L <= L_max - L_buf; ((L_max - L_buf) - L) / L_buf inside the buffer; -1 past L_max."""
    if not 0 < buffer <= max_tokens:
        raise ConfigError(f"algorithm.overlong_buffer={buffer}: must be in (0, overlong_max_tokens={max_tokens}]")
    if length <= max_tokens - buffer:
        return 0.0
    if length <= max_tokens:
        return ((max_tokens - buffer) - length) / buffer  # eq. 24, linear inside the buffer
    return -1.0


def rollout_lengths(samples: Sequence[Sample]) -> dict[str, int]:
    """L_rho per rollout: mask-1 tokens summed over its samples (split-invariant, AL1)."""
    out: dict[str, int] = {}
    for s in samples:
        out[s.rollout_id] = out.get(s.rollout_id, 0) + s.num_response_tokens
    return out


def apply_overlong(samples: Sequence[Sample], rewards: Mapping[str, float], mode: Overlong, max_tokens: int,
                   buffer: int, overflowed: Sequence[str], context_overflow: str
                   ) -> tuple[list[Sample], dict[str, float], list[str], dict[str, float]]:
    """(samples with rewards shaped by eq. 24, new rewards per rollout, rollouts to mask, metrics).

    `penalty`: r'_rho = r_rho + R_len(L_rho) on every sample of rho. `mask`: rollouts with L_rho > L_max are
    returned for the loss to skip. Metrics count over-budget and in-buffer rollouts in every mode.
    `overflowed`: rollouts a context overflow ended (reward 0); with `context_overflow` (the recipe's
    `rollout.context_overflow`, no default of its own here) `mask` they are masked too, so a budget the model
    cannot see never teaches it that its work was wrong.
    """
    if mode not in ("none", "mask", "penalty"):
        raise ConfigError(f"algorithm.overlong {mode!r}: expected none, mask or penalty")
    lengths = {r: n for r, n in rollout_lengths(samples).items() if r in rewards}
    pen = {r: overlong_penalty(n, max_tokens, buffer) for r, n in lengths.items()}
    over = sorted(r for r, n in lengths.items() if n > max_tokens)
    new_rewards = dict(rewards)
    out = list(samples)
    if mode == "penalty":
        new_rewards = {r: v + pen.get(r, 0.0) for r, v in rewards.items()}
        out = [s.model_copy(update={"reward": new_rewards[s.rollout_id]}) if pen.get(s.rollout_id) else s
               for s in samples]
    metrics = {
        "length/rollout_tokens_max": float(max(lengths.values(), default=0)),
        "length/over_budget_rollouts": float(len(over)),
        "length/in_buffer_rollouts": float(sum(1 for p in pen.values() if -1.0 < p < 0.0)),
        "length/penalty_sum": sum(pen.values()) if mode == "penalty" else 0.0,
        "length/masked_rollouts": float(len(over) if mode == "mask" else 0),
        "length/context_overflow_rollouts": float(len(overflowed)),
    }
    masked = set(over if mode == "mask" else []) | set(overflowed if context_overflow == "mask" else [])
    return out, new_rewards, sorted(masked), metrics


__all__ = ["Overlong", "apply_overlong", "compute_advantages", "group_advantages", "overlong_penalty", "rollout_lengths"]
