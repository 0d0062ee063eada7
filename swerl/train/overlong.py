"""Trajectory length budget and DAPO's overlong handling (docs/algorithms.md sec. 13, eq. 24).

A rollout's length L_rho is the number of response tokens it trains on, summed over its samples: every call's
response lands in exactly one sample, so L_rho does not depend on how the rollout was split (AL1). Against the
budget L_max (`algorithm.overlong_max_tokens`) with a buffer L_buf (`algorithm.overlong_buffer`):
`penalty` adds the soft penalty of eq. 24 to the rollout's reward before advantages; `mask` keeps an over-budget
rollout in its group's baseline but takes its tokens out of the loss; `none` only counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from swerl.errors import ConfigError
from swerl.train.schema import Sample

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
                   buffer: int, overflowed: Sequence[str] = (), overflow_mode: str = "fail"
                   ) -> tuple[list[Sample], dict[str, float], list[str], dict[str, float]]:
    """(samples with rewards shaped by eq. 24, new rewards per rollout, rollouts to mask, metrics).

    `penalty`: r'_rho = r_rho + R_len(L_rho) on every sample of rho. `mask`: rollouts with L_rho > L_max are
    returned for the loss to skip. Metrics count over-budget and in-buffer rollouts in every mode.
    `overflowed`: rollouts a context overflow ended (reward 0); with `rollout.context_overflow: mask` they are
    masked too, so a budget the model cannot see never teaches it that its work was wrong.
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
    masked = set(over if mode == "mask" else []) | set(overflowed if overflow_mode == "mask" else [])
    return out, new_rewards, sorted(masked), metrics


__all__ = ["Overlong", "apply_overlong", "overlong_penalty", "rollout_lengths"]
