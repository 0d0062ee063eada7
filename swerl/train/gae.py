"""Skip-observation GAE (docs/algorithms.md sec. 8, SAO).

A rollout is [a_0, o_0, a_1, o_1, ...]; the recursion runs over action tokens only, so the last
token of action i links straight to the first token of action i+1:

    delta(a_{i,N}) = r_t + gamma * V(a_{i+1,0}) - V(a_{i,N})
    A(a_{i,N})     = delta + gamma * lambda * A(a_{i+1,0})

The samples of one rollout are linked too (a rollout split by retokenisation is still one
trajectory); the value after the last action token is 0 (terminal).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch


def _discounted_reverse_cumsum(x: list[float], discount: float) -> list[float]:
    out = [0.0] * len(x)
    acc = 0.0
    for k in range(len(x) - 1, -1, -1):
        acc = x[k] + discount * acc
        out[k] = acc
    return out


@torch.no_grad()
def skip_observation_gae(
    token_rewards: torch.Tensor, values: torch.Tensor, action_mask: torch.Tensor, gamma: float, lam: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE over one rollout's concatenated samples, skipping observation tokens.

    token_rewards  (T,) reward per token (put the outcome reward on the last action token;
                   rewards on observation tokens are ignored)
    values         (T,) V at each position (only action positions are read)
    action_mask    (T,) 1 on action (response) tokens
    Returns (advantages (T,), returns (T,)) with zeros on observation tokens;
    returns = advantages + values on action tokens (the critic's regression target).
    """
    idx = torch.nonzero(action_mask.reshape(-1) > 0).squeeze(-1)
    adv = torch.zeros_like(values, dtype=torch.float64).reshape(-1)
    ret = torch.zeros_like(adv)
    if idx.numel() == 0:
        return adv.to(values.dtype).view_as(values), ret.to(values.dtype).view_as(values)
    r = token_rewards.reshape(-1)[idx].to(torch.float64)
    v = values.reshape(-1)[idx].to(torch.float64)
    v_next = torch.cat([v[1:], v.new_zeros(1)])  # next *action* token: observations skipped
    delta = r + gamma * v_next - v
    decay = gamma * lam
    if decay == 1.0:
        a = delta.flip(0).cumsum(0).flip(0)
    elif decay == 0.0:
        a = delta
    else:
        a = torch.tensor(_discounted_reverse_cumsum(delta.tolist(), decay), dtype=torch.float64)
    adv[idx] = a
    ret[idx] = a + v
    return adv.to(values.dtype).view_as(values), ret.to(values.dtype).view_as(values)


@torch.no_grad()
def rollout_gae(
    values: Sequence[torch.Tensor], action_masks: Sequence[torch.Tensor], reward: float, gamma: float, lam: float
) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """Skip-observation GAE for one rollout given per-sample (T_j,) values and masks, in sample order.

    The samples are concatenated, the outcome `reward` is placed on the rollout's last
    action token, and the result is split back per sample.
    """
    lengths = [len(v) for v in values]
    v = torch.cat([x.reshape(-1) for x in values])
    m = torch.cat([x.reshape(-1) for x in action_masks])
    r = torch.zeros_like(v)
    action_pos = torch.nonzero(m > 0).squeeze(-1)
    if action_pos.numel():
        r[action_pos[-1]] = reward
    adv, ret = skip_observation_gae(r, v, m, gamma, lam)
    return list(adv.split(lengths)), list(ret.split(lengths))


__all__ = ["rollout_gae", "skip_observation_gae"]
