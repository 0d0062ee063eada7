"""Policy losses, loss aggregation and rollout correction (docs/algorithms.md sec. 4 eqs. 14-21, sec. 8 DIS), as
pure tensor functions.

Shapes: B rows, T positions. A row may hold one sample or several packed samples,
so aggregation is driven by per-token `sample_index` / `rollout_index` tensors, not
by rows. All denominators can be those of the whole optimizer step
(`StepDenominators`), which makes every mode linear in the tokens: the losses of
micro-batches (or data-parallel shards) of one step add up to exactly the
full-batch loss, and so do their gradients.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import torch
import torch.nn.functional as F

from swerl.errors import ConfigError

if TYPE_CHECKING:  # only for annotations: torch-only machines (scripts/gpu_check.sh) import these losses
    from swerl.train.schema import Sample

LossAgg = Literal["token-mean", "seq-mean-token-mean", "rollout-mean"]
LOSS_AGG_MODES: tuple[str, ...] = ("token-mean", "seq-mean-token-mean", "rollout-mean")


@dataclass(frozen=True)
class StepDenominators:
    """Counts of one whole optimizer step, indexed by step-global sample / rollout ids.

    num_tokens      sum_{rho,j} L_{rho,j}                  (eq. 14 denominator)
    num_samples     sum_rho N_rho                          (eq. 15; samples with response tokens)
    num_rollouts    R                                      (eq. 16; rollouts with response tokens)
    sample_tokens   (S,) L_{rho,j} per sample              (eq. 15)
    rollout_tokens  (R,) sum_j L_{rho,j} per rollout       (eq. 16)
    """

    num_tokens: int
    num_samples: int
    num_rollouts: int
    sample_tokens: torch.Tensor
    rollout_tokens: torch.Tensor

    @classmethod
    def from_samples(cls, samples: Sequence[Sample]) -> tuple[StepDenominators, list[int]]:
        """Denominators of a step made of `samples`, plus each sample's step-global rollout index."""
        rollout_of: dict[str, int] = {}
        idx = [rollout_of.setdefault(s.rollout_id, len(rollout_of)) for s in samples]
        sample_tokens = torch.tensor([s.num_response_tokens for s in samples], dtype=torch.float64)
        rollout_tokens = torch.zeros(len(rollout_of), dtype=torch.float64)
        if samples:
            rollout_tokens.index_add_(0, torch.tensor(idx), sample_tokens)
        # A rollout (sample) without response tokens has nothing to average: it is not in R (sum N).
        den = cls(int(sample_tokens.sum().item()), int((sample_tokens > 0).sum().item()),
                  int((rollout_tokens > 0).sum().item()), sample_tokens, rollout_tokens)
        return den, idx

    @classmethod
    def from_batch(cls, loss_mask: torch.Tensor, rollout_index: torch.Tensor,
                   sample_index: torch.Tensor) -> StepDenominators:
        """Denominators when the given tensors are the whole step (no accumulation); -1 indices are padding."""
        m = loss_mask.detach().to(torch.float64)
        r_idx = torch.broadcast_to(_per_token(rollout_index, m), m.shape)
        s_idx = torch.broadcast_to(_per_token(sample_index, m), m.shape)
        keep = (r_idx >= 0) & (s_idx >= 0)
        r, s, w = r_idx[keep], s_idx[keep], m[keep]
        n_r = int(r.max().item()) + 1 if r.numel() else 0
        n_s = int(s.max().item()) + 1 if s.numel() else 0
        rollout_tokens = torch.zeros(n_r, dtype=torch.float64, device=m.device).index_add_(0, r, w)
        sample_tokens = torch.zeros(n_s, dtype=torch.float64, device=m.device).index_add_(0, s, w)
        return cls(int(w.sum().item()), int((sample_tokens > 0).sum().item()), int((rollout_tokens > 0).sum().item()),
                   sample_tokens, rollout_tokens)


def _per_token(index: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    """(B,) row indices broadcast to (B, T); (B, T) token indices unchanged."""
    index = torch.as_tensor(index, device=like.device).long()
    return index.unsqueeze(-1) if index.dim() == like.dim() - 1 else index


def aggregate_loss(
    token_loss: torch.Tensor,
    loss_mask: torch.Tensor,
    rollout_index: torch.Tensor,
    mode: LossAgg = "rollout-mean",
    *,
    sample_index: torch.Tensor | None = None,
    denominators: StepDenominators | None = None,
) -> torch.Tensor:
    """Reduce per-token losses l_{rho,j,t} to a scalar (docs/algorithms.md sec. 4).

    token_loss     (B, T) float  l per position (any value where the mask is 0)
    loss_mask      (B, T) {0,1}  1 on response tokens
    rollout_index  (B,) or (B, T) long, step-global rollout id (-1 on padding)
    sample_index   (B,) or (B, T) long, step-global sample id; default: row b is sample b
    denominators   whole-step counts; default: computed from these tensors (full batch)

        token-mean          = sum l / sum L                                   (14)
        seq-mean-token-mean = 1/sum N * sum_{rho,j} 1/L_{rho,j} sum_t l       (15)
        rollout-mean        = 1/R * sum_rho [sum_{j,t} l / sum_j L_{rho,j}]   (16)

    Each mode is sum_tokens w_t * l_t with fixed weights, so summing this function over
    the micro-batches of a step (same `denominators`) equals the full-step value.
    With DDP (which averages gradients over ranks) multiply by the world size.
    """
    if mode not in LOSS_AGG_MODES:
        raise ConfigError(f"loss_agg {mode!r}: expected one of {', '.join(LOSS_AGG_MODES)}")
    mask = loss_mask.to(token_loss.dtype)
    r_idx = _per_token(rollout_index, mask)
    if sample_index is None:
        sample_index = torch.arange(mask.shape[0], device=mask.device) if mask.dim() > 1 else torch.zeros(
            (), dtype=torch.long, device=mask.device)
    s_idx = _per_token(sample_index, mask)
    if denominators is None:
        denominators = StepDenominators.from_batch(loss_mask, r_idx, s_idx)
    den = denominators
    if mode == "token-mean":
        weight = mask / max(den.num_tokens, 1)  # (14)
    elif mode == "seq-mean-token-mean":
        per_sample = den.sample_tokens.to(mask.device, token_loss.dtype).clamp(min=1.0)
        weight = mask / (max(den.num_samples, 1) * per_sample[s_idx.clamp(min=0)])  # (15)
    else:
        per_rollout = den.rollout_tokens.to(mask.device, token_loss.dtype).clamp(min=1.0)
        weight = mask / (max(den.num_rollouts, 1) * per_rollout[r_idx.clamp(min=0)])  # (16)
    return (token_loss * weight).sum()


def dis_mask(
    logp: torch.Tensor, rollout_logp: torch.Tensor, eps_low: float, eps_high: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """SAO direct importance sampling (docs/algorithms.md sec. 8), shapes (...) -> ((...), (...) bool).

    r_t = exp(logp_theta - logp_rollout); f(r) = r if 1-eps_low < r < 1+eps_high else 0.
    Returns (ratio, keep): `ratio` carries the gradient of logp; `keep` is the hard
    band mask (tokens outside are fully masked from the gradient). The logged
    rollout log-probs are the only behaviour distribution.
    Example: rollout p 0.1, current 0.3 -> r = 3.0: masked at eps_high 1.5, kept at 2.5.
    """
    ratio = torch.exp(logp - rollout_logp)
    with torch.no_grad():
        keep = (ratio > 1.0 - eps_low) & (ratio < 1.0 + eps_high)
    return ratio, keep


def dis_policy_loss(
    logp: torch.Tensor, rollout_logp: torch.Tensor, advantages: torch.Tensor, eps_low: float, eps_high: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """DIS-masked REINFORCE per token, shapes (...) -> (loss (...), keep (...) bool).

    l_t = -f(r_t) * A_t, whose gradient is -r_t A_t grad(logp_t) inside the band and 0
    outside (sec. 8).
    """
    ratio, keep = dis_mask(logp, rollout_logp, eps_low, eps_high)
    return -advantages * ratio * keep.to(ratio.dtype), keep


def ppo_clip_loss(
    logp: torch.Tensor,
    rollout_logp: torch.Tensor,
    advantages: torch.Tensor,
    clip_low: float,
    clip_high: float,
    clip_ratio_c: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """PPO-clip per token with the logged rollout log-probs as the behaviour policy, shapes (...) -> (...).

    l_t = max(-A r, -A clip(r, 1-clip_low, 1+clip_high)), r = exp(logp - logp_rollout)
    (asymmetric "clip-higher" bounds). `clip_ratio_c` enables dual-clip for A < 0
    (l_t <= -A c), as verl's `clip_ratio_c`. Returns (loss, clipped) where `clipped`
    marks tokens whose gradient the clip removed.
    """
    ratio = torch.exp(logp - rollout_logp)
    unclipped = -advantages * ratio
    clipped_loss = -advantages * torch.clamp(ratio, 1.0 - clip_low, 1.0 + clip_high)
    loss = torch.maximum(unclipped, clipped_loss)
    clipped = clipped_loss > unclipped
    if clip_ratio_c is not None:
        bound = -advantages * clip_ratio_c
        dual = (advantages < 0) & (loss > bound)
        loss = torch.where(dual, bound, loss)
        clipped = clipped | dual
    return loss, clipped


RolloutCorrection = Literal["none", "tis", "mis"]
ROLLOUT_CORRECTIONS: tuple[str, ...] = ("none", "tis", "mis")
_LOG_RATIO_BOUND = 20.0
"""|log rho| is clamped here before exp (verl's rollout_corr_helper.SAFETY_BOUND): exp(20) ~ 4.9e8."""


def rollout_correction_weights(
    ref_logp: torch.Tensor, behaviour_logp: torch.Tensor, mode: RolloutCorrection, threshold: float,
    *, decoupled: bool,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-token factor w_t on the policy loss that corrects for the engine/trainer mismatch (docs/algorithms.md
    sec. 4, rollout correction), shapes (...) -> (w (...), changed (...) bool). No gradient flows through w.

    rho_t = exp(ref_logp - behaviour_logp)                              (17)
        ref_logp is pi_old recomputed by the trainer (`decoupled`), else the current policy's log-probs
        (detached): the loss's own ratio then already holds rho_t, so w only corrects it.
    tis:  g(rho) = min(rho, C)                                          (18)
    mis:  g(rho) = rho * 1[1/C <= rho <= C]                             (19)
    w_t  = g(rho_t)          decoupled (loss ratio pi_theta / pi_old)   (20)
    w_t  = g(rho_t) / rho_t  bypass    (loss ratio pi_theta / pi_behaviour)
    `changed` marks tokens the threshold truncated (tis) or masked (mis); `none` gives w = 1.
    Example: rho = 3, C = 2: tis w = 2 (decoupled) or 2/3 (bypass); mis w = 0.
    """
    with torch.no_grad():
        log_rho = (ref_logp.detach() - behaviour_logp).clamp(-_LOG_RATIO_BOUND, _LOG_RATIO_BOUND)
        rho = torch.exp(log_rho)
        if mode == "none":
            return torch.ones_like(rho), torch.zeros_like(rho, dtype=torch.bool)
        if mode == "tis":
            changed = rho > threshold
            g = rho.clamp(max=threshold)  # (18)
        elif mode == "mis":
            changed = (rho < 1.0 / threshold) | (rho > threshold)
            g = torch.where(changed, torch.zeros_like(rho), rho)  # (19)
        else:
            raise ConfigError(f"algorithm.rollout_correction {mode!r}: expected one of {', '.join(ROLLOUT_CORRECTIONS)}")
        return (g if decoupled else g / rho), changed  # (20)


def mismatch_sums(ref_logp: torch.Tensor, behaviour_logp: torch.Tensor, changed: torch.Tensor) -> dict[str, float]:
    """Sums over N response tokens, (N,) each, of what `mismatch/*` reports (divided by `tokens` on the way out).

    kl    sum (logp_behaviour - logp_ref): k1 estimate of KL(pi_behaviour || pi_ref) on tokens pi_behaviour
          sampled (21)
    ratio sum rho_t; changed: tokens the correction truncated or masked; max_abs: max |log rho_t| (a max, not a sum)
    """
    d = (ref_logp.detach() - behaviour_logp).double()
    return {"kl": float(-d.sum()), "ratio": float(d.clamp(-_LOG_RATIO_BOUND, _LOG_RATIO_BOUND).exp().sum()),
            "changed": float(changed.sum()), "tokens": float(d.numel()),
            "max_abs": float(d.abs().max()) if d.numel() else 0.0}


def mismatch_metrics(sums: dict[str, float]) -> dict[str, float]:
    """`mismatch/*` from accumulated `mismatch_sums` (token sums added, max_abs maxed)."""
    n = max(sums.get("tokens", 0.0), 1.0)
    return {"mismatch/kl": sums.get("kl", 0.0) / n, "mismatch/ratio_mean": sums.get("ratio", 0.0) / n,
            "mismatch/max_abs_logprob_diff": sums.get("max_abs", 0.0), "mismatch/masked_frac": sums.get("changed", 0.0) / n}


def add_mismatch_sums(total: dict[str, float], part: dict[str, float]) -> dict[str, float]:
    """Accumulate `mismatch_sums` of micro-batches / ranks: sums add, `max_abs` is the max."""
    for k, v in part.items():
        total[k] = max(total.get(k, 0.0), v) if k == "max_abs" else total.get(k, 0.0) + v
    return total


def token_logprobs(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """log p(labels) under `logits`, (..., V), (...) -> (...), computed in float32 via cross-entropy
    (log-softmax + gather in one op), so callers never hold a separate (..., V) log-prob tensor."""
    flat = logits.reshape(-1, logits.shape[-1])
    return -F.cross_entropy(flat.float(), labels.reshape(-1), reduction="none").view(labels.shape)


@torch.no_grad()
def entropy_from_logits(logits: torch.Tensor) -> torch.Tensor:
    """Entropy of the categorical distribution per position, (..., V) -> (...). A metric; no gradient."""
    logits = logits.float()
    logp = torch.log_softmax(logits, dim=-1)
    return -(logp.exp() * logp).sum(-1)


def masked_mean(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean of `x` over mask-1 positions (0 if none), any matching shapes."""
    m = mask.to(x.dtype)
    return (x * m).sum() / m.sum().clamp(min=1.0)


__all__ = ["LOSS_AGG_MODES", "ROLLOUT_CORRECTIONS", "LossAgg", "RolloutCorrection", "StepDenominators",
           "add_mismatch_sums", "aggregate_loss", "dis_mask", "dis_policy_loss", "entropy_from_logits", "masked_mean",
           "mismatch_metrics", "mismatch_sums", "ppo_clip_loss", "rollout_correction_weights", "token_logprobs"]
