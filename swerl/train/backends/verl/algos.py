"""swerl's advantage estimators and policy losses, registered in verl on import (imports verl).

Any verl process that imports this module (the driver, and every Ray worker that unpickles
`loss_fns.swerl_actor_loss`) knows `swerl_grpo` / `swerl_rloo` (rollout-level baselines, sec. 3:
verl's GRPO counts a rollout split into N rows N times) and `swerl_ppo` / `swerl_dis`.
`aggregate` reduces with the whole optimizer step's denominators when the batch carries them
(`StepInfo`), so micro-batches and data-parallel ranks add up to the full-step loss (eqs. 14-16,
rollout-mean included); without them it falls back to verl's `agg_loss` (no rollout-mean).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from verl.trainer.ppo.core_algos import (
    ADV_ESTIMATOR_REGISTRY,
    agg_loss,
    register_adv_est,
    register_policy_loss,
)

from swerl.errors import ConfigError, DataError
from swerl.train.advantage import group_advantages
from swerl.train.losses import StepDenominators, aggregate_loss, dis_policy_loss, masked_mean, ppo_clip_loss

STEP_KEY = "swerl_step"
"""Key of the `StepInfo` in `ActorConfig.global_batch_info` (set per micro-batch, then removed)."""
_VERL_AGG_KEYS = ("dp_size", "batch_num_tokens", "global_batch_size", "loss_scale_factor")


@dataclass(frozen=True)
class StepInfo:
    """What one micro-batch needs to be reduced with whole-step denominators.

    rollout_index  (b,) long, step-global rollout id per row (-1: padding row)
    sample_index   (b,) long, step-global sample id per row (-1: padding row)
    dp_size        data-parallel ranks: FSDP averages gradients, so each rank's loss is x dp_size
    correction     rollout correction (docs/algorithms.md sec. 4): none | tis | mis, its threshold C, and
                   whether `old_log_probs` is pi_old recomputed by the trainer (decoupled) or the behaviour's
    """

    mode: str
    denominators: StepDenominators
    rollout_index: torch.Tensor
    sample_index: torch.Tensor
    dp_size: int = 1
    correction: str = "none"
    threshold: float = 2.0
    decoupled: bool = False


def denominators_to_meta(den: StepDenominators) -> dict[str, Any]:
    """Plain-Python form of `StepDenominators` (travels as non-tensor data through verl's dispatch)."""
    return {"num_tokens": den.num_tokens, "num_samples": den.num_samples, "num_rollouts": den.num_rollouts,
            "sample_tokens": den.sample_tokens.tolist(), "rollout_tokens": den.rollout_tokens.tolist()}


def denominators_from_meta(meta: dict[str, Any]) -> StepDenominators:
    return StepDenominators(int(meta["num_tokens"]), int(meta["num_samples"]), int(meta["num_rollouts"]),
                            torch.tensor(meta["sample_tokens"], dtype=torch.float64),
                            torch.tensor(meta["rollout_tokens"], dtype=torch.float64))


def rollout_advantages(
    token_level_rewards: torch.Tensor,
    response_mask: torch.Tensor,
    index: Sequence[Any],
    *,
    rollout_index: Sequence[Any] | None = None,
    estimator: str = "grpo",
    std_normalize: bool = False,
    epsilon: float = 1e-6,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Rollout-level outcome advantages per row, (B, R) -> ((B, R), (B, R)) advantages = returns.

    token_level_rewards (B, R): a row's reward is its sum (every row of a rollout carries r_rho)
    response_mask       (B, R): rows with no response token (padding rows) get 0 and are skipped
    index               (B,): group id per row (verl's `uid`)
    rollout_index       (B,): rollout id per row; -1 / None entries are padding rows
    """
    scores = token_level_rewards.sum(-1).tolist()
    live = (response_mask.sum(-1) > 0).tolist()
    rid = list(rollout_index) if rollout_index is not None else list(range(len(scores)))
    reward_of: dict[Any, float] = {}
    group_of: dict[Any, Any] = {}
    for i, (r, g, alive) in enumerate(zip(rid, index, live, strict=True)):
        if not alive or r is None or (isinstance(r, int | np.integer) and r < 0):
            continue
        if reward_of.setdefault(r, scores[i]) != scores[i]:
            raise DataError(f"rollout {r!r}: rows carry different rewards ({reward_of[r]} vs {scores[i]})")
        if group_of.setdefault(r, g) != g:
            raise DataError(f"rollout {r!r}: rows carry different group ids")
    members: dict[Any, list[Any]] = {}
    for r, g in group_of.items():
        members.setdefault(g, []).append(r)
    adv_of: dict[Any, float] = {}
    for rids in members.values():
        adv = group_advantages([reward_of[r] for r in rids], estimator, std_normalize, epsilon)  # type: ignore[arg-type]
        adv_of.update(zip(rids, adv, strict=True))
    per_row = torch.tensor([adv_of.get(r, 0.0) if alive else 0.0 for r, alive in zip(rid, live, strict=True)],
                           dtype=token_level_rewards.dtype, device=token_level_rewards.device)
    adv_tok = per_row.unsqueeze(-1) * response_mask.to(token_level_rewards.dtype)
    return adv_tok, adv_tok


def _std_flag(config: Any, kwargs: dict[str, Any]) -> bool:
    if "norm_adv_by_std_in_grpo" in kwargs:
        return bool(kwargs["norm_adv_by_std_in_grpo"])
    return bool(config.get("norm_adv_by_std_in_grpo", False)) if config is not None else False


def swerl_grpo_advantage(token_level_rewards: torch.Tensor, response_mask: torch.Tensor, index: Sequence[Any],
                         epsilon: float = 1e-6, config: Any = None, rollout_index: Sequence[Any] | None = None,
                         **kwargs: Any) -> tuple[torch.Tensor, torch.Tensor]:
    """verl estimator `swerl_grpo`: A = r - mean over the *rollouts* of the group (sec. 3)."""
    return rollout_advantages(token_level_rewards, response_mask, index, rollout_index=rollout_index,
                              estimator="grpo", std_normalize=_std_flag(config, kwargs), epsilon=epsilon)


def swerl_rloo_advantage(token_level_rewards: torch.Tensor, response_mask: torch.Tensor, index: Sequence[Any],
                         epsilon: float = 1e-6, config: Any = None, rollout_index: Sequence[Any] | None = None,
                         **kwargs: Any) -> tuple[torch.Tensor, torch.Tensor]:
    """verl estimator `swerl_rloo`: A = r - mean of the group's *other rollouts* (sec. 3)."""
    return rollout_advantages(token_level_rewards, response_mask, index, rollout_index=rollout_index,
                              estimator="rloo", std_normalize=_std_flag(config, kwargs), epsilon=epsilon)


def aggregate(loss_mat: torch.Tensor, response_mask: torch.Tensor, loss_agg_mode: str, config: Any) -> torch.Tensor:
    """Reduce (b, R) per-token losses to this micro-batch's share of the step loss (see module doc)."""
    info = getattr(config, "global_batch_info", None) or {}
    step: StepInfo | None = info.get(STEP_KEY)
    if step is not None:
        return aggregate_loss(loss_mat, response_mask, step.rollout_index, step.mode,  # type: ignore[arg-type]
                              sample_index=step.sample_index, denominators=step.denominators) * step.dp_size
    if loss_agg_mode == "rollout-mean":
        raise ConfigError("rollout-mean needs the step's rollout denominators: train through "
                          "swerl.train.backends.verl.loss_fns.swerl_actor_loss")
    return agg_loss(loss_mat, response_mask, loss_agg_mode, **{k: info[k] for k in _VERL_AGG_KEYS if k in info})


SUM_PREFIX = "actor/swerl_sum_"
"""Per-token sums a policy loss reports (summed over micro-batches, then divided by `tokens` on the driver),
so `policy/clip_frac` & co. are whole-step token means exactly as `TorchBackend` defines them; verl's own
per-micro-batch means (`actor/pg_clipfrac`) weigh a short micro-batch like a long one."""


def token_sums(flagged: torch.Tensor, old_log_prob: torch.Tensor, log_prob: torch.Tensor,
               mask: torch.Tensor) -> dict[str, float]:
    """Sums over the micro-batch's response tokens: flagged (clipped / DIS-masked), log-ratio, ratio, count."""
    m = mask.to(torch.float64)
    lr = (log_prob - old_log_prob).to(torch.float64)
    return {f"{SUM_PREFIX}flagged": float((flagged.to(torch.float64) * m).sum()),
            f"{SUM_PREFIX}kl": float((-lr * m).sum()), f"{SUM_PREFIX}ratio": float((lr.exp() * m).sum()),
            f"{SUM_PREFIX}tokens": float(m.sum())}


def dual_clip(config: Any) -> float | None:
    """verl's `clip_ratio_c` as swerl's dual-clip bound: None (off) when unset or infinite."""
    c = getattr(config, "clip_ratio_c", None)
    return float(c) if c is not None and math.isfinite(float(c)) else None


def swerl_ppo_policy_loss(old_log_prob: torch.Tensor, log_prob: torch.Tensor, advantages: torch.Tensor,
                          response_mask: torch.Tensor, loss_agg_mode: str = "token-mean", config: Any = None,
                          rollout_is_weights: torch.Tensor | None = None) -> tuple[torch.Tensor, dict[str, Any]]:
    """verl policy loss `swerl_ppo`, (b, R) tensors -> (loss, metrics); `old_log_prob` is logp_rollout."""
    tok, clipped = ppo_clip_loss(log_prob, old_log_prob, advantages, config.clip_ratio_low, config.clip_ratio_high,
                                 dual_clip(config))
    if rollout_is_weights is not None:
        tok = tok * rollout_is_weights
    mask = response_mask.bool()
    with torch.no_grad():
        metrics = {"actor/pg_clipfrac": masked_mean(clipped.float(), mask).item(),
                   "actor/ppo_kl": masked_mean(old_log_prob - log_prob, mask).item(),
                   **token_sums(clipped, old_log_prob, log_prob, mask)}
    return aggregate(tok, mask, loss_agg_mode, config), metrics


def swerl_dis_policy_loss(old_log_prob: torch.Tensor, log_prob: torch.Tensor, advantages: torch.Tensor,
                          response_mask: torch.Tensor, loss_agg_mode: str = "token-mean", config: Any = None,
                          rollout_is_weights: torch.Tensor | None = None) -> tuple[torch.Tensor, dict[str, Any]]:
    """verl policy loss `swerl_dis`: SAO DIS with hard masking, eps_low/eps_high = clip_ratio_low/high."""
    tok, keep = dis_policy_loss(log_prob, old_log_prob, advantages, config.clip_ratio_low, config.clip_ratio_high)
    if rollout_is_weights is not None:
        tok = tok * rollout_is_weights
    mask = response_mask.bool()
    with torch.no_grad():
        metrics = {"actor/dis_masked_frac": masked_mean((~keep).float(), mask).item(),
                   "actor/ppo_kl": masked_mean(old_log_prob - log_prob, mask).item(),
                   **token_sums(~keep, old_log_prob, log_prob, mask)}
    return aggregate(tok, mask, loss_agg_mode, config), metrics


def register() -> None:
    """Register swerl's estimators and losses in verl's registries (idempotent; runs on import)."""
    for name, fn in (("swerl_grpo", swerl_grpo_advantage), ("swerl_rloo", swerl_rloo_advantage)):
        if ADV_ESTIMATOR_REGISTRY.get(name) is not fn:
            ADV_ESTIMATOR_REGISTRY.pop(name, None)  # a reloaded module: replace, don't trip verl's duplicate check
            register_adv_est(name)(fn)
    for name, fn in (("swerl_ppo", swerl_ppo_policy_loss), ("swerl_dis", swerl_dis_policy_loss)):
        register_policy_loss(name)(fn)


register()

__all__ = ["STEP_KEY", "SUM_PREFIX", "StepInfo", "aggregate", "denominators_from_meta", "denominators_to_meta",
           "dual_clip", "register", "rollout_advantages", "swerl_dis_policy_loss", "swerl_grpo_advantage",
           "swerl_ppo_policy_loss", "swerl_rloo_advantage", "token_sums"]
