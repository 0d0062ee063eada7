"""Micro-batch tensors from a batching plan: packed rows with per-sample position ids.

A row holds several samples end to end; position ids restart at 0 for each sample
(and for the trailing padding), and no attention mask is passed, so Hugging Face
models build a block-diagonal causal mask (`find_packed_sequence_indices`) and each
sample attends only to itself — the same numbers as running the samples one by one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from swerl.errors import DataError
from swerl.train.batching import MicroBatch
from swerl.train.schema import Sample


@dataclass
class TensorBatch:
    """One micro-batch. Target tensors are aligned with the token each position *predicts*.

    input_ids     (B, T) long
    position_ids  (B, T) long, restarting per sample
    target_mask   (B, T) bool: position t predicts token t+1, and t+1 is a response token of the same sample
    target_ids    (B, T) long: token t+1
    rollout_logp  (B, T) float: logp_rollout of token t+1
    sample_index  (B, T) long: step-global sample id of token t+1 (-1 on padding)
    rollout_index (B, T) long: step-global rollout id of token t+1 (-1 on padding)
    target_pos    (B, T) long: index of token t+1 inside its sample
    extra         name -> (B, T) float: per-token arrays given to `collate`, read at token t+1
    """

    input_ids: torch.Tensor
    position_ids: torch.Tensor
    target_mask: torch.Tensor
    target_ids: torch.Tensor
    rollout_logp: torch.Tensor
    sample_index: torch.Tensor
    rollout_index: torch.Tensor
    target_pos: torch.Tensor
    extra: dict[str, torch.Tensor] = field(default_factory=dict)

    def to(self, device: torch.device | str) -> TensorBatch:
        moved = {k: v.to(device) for k, v in self.__dict__.items() if isinstance(v, torch.Tensor)}
        return TensorBatch(**moved, extra={k: v.to(device) for k, v in self.extra.items()})

    def targets(self, name: str) -> torch.Tensor:
        """(N,) values of `extra[name]` at the response targets, in row-major order."""
        return self.extra[name][self.target_mask]


def check_trainable(samples: Sequence[Sample], vocab_size: int | None = None) -> None:
    """Reject what the model cannot train on, naming the sample: ids outside the vocabulary, or a
    response token at position 0 (nothing predicts it; assembly never makes one)."""
    for s in samples:
        if len(s.loss_mask) and s.loss_mask[0]:
            raise DataError(f"rollout {s.rollout_id!r} sample {s.sample_index}: field loss_mask is 1 at position 0; "
                            "a sample needs at least one prompt token")
        if vocab_size is not None and s.num_tokens and (int(s.input_ids.min()) < 0 or
                                                        int(s.input_ids.max()) >= vocab_size):
            raise DataError(f"rollout {s.rollout_id!r} sample {s.sample_index}: field input_ids has ids outside "
                            f"the model's vocabulary [0, {vocab_size})")


def collate(
    mb: MicroBatch,
    samples: Sequence[Sample],
    rollout_index: Sequence[int],
    pad_id: int,
    per_token: Mapping[str, Sequence[np.ndarray]] | None = None,
) -> TensorBatch:
    """Build the (B, T) tensors of micro-batch `mb`; `per_token[name][i]` is a (T_i,) array of sample i."""
    per_token = per_token or {}
    B = len(mb.rows)
    T = max(r.num_tokens for r in mb.rows)
    ids = np.full((B, T), pad_id, dtype=np.int64)
    pos = np.zeros((B, T), dtype=np.int64)
    tmask = np.zeros((B, T), dtype=bool)
    tids = np.zeros((B, T), dtype=np.int64)
    logp = np.zeros((B, T), dtype=np.float32)
    sidx = np.full((B, T), -1, dtype=np.int64)
    ridx = np.full((B, T), -1, dtype=np.int64)
    tpos = np.zeros((B, T), dtype=np.int64)
    extra = {k: np.zeros((B, T), dtype=np.float32) for k in per_token}
    for b, row in enumerate(mb.rows):
        off = 0
        for sid in row.sample_ids:
            s = samples[sid]
            n = s.num_tokens
            e = off + n
            ids[b, off:e] = s.input_ids
            pos[b, off:e] = np.arange(n)
            # position off+t predicts token off+t+1 (never across samples)
            tmask[b, off:e - 1] = s.loss_mask[1:] > 0
            tids[b, off:e - 1] = s.input_ids[1:]
            logp[b, off:e - 1] = s.rollout_logprobs[1:]
            sidx[b, off:e - 1] = sid
            ridx[b, off:e - 1] = rollout_index[sid]
            tpos[b, off:e - 1] = np.arange(1, n)
            for k, arrays in per_token.items():
                extra[k][b, off:e - 1] = arrays[sid][1:]
            off = e
        pos[b, off:] = np.arange(T - off)  # padding: its own segment
    t = torch.from_numpy
    return TensorBatch(t(ids), t(pos), t(tmask), t(tids), t(logp), t(sidx), t(ridx), t(tpos),
                       {k: t(v) for k, v in extra.items()})


def scatter_targets(values: np.ndarray, sample_index: np.ndarray, target_pos: np.ndarray,
                    out: list[np.ndarray]) -> None:
    """Write flat (N,) target values back into per-sample arrays: out[sid][pos] = value."""
    for sid in np.unique(sample_index):
        sel = sample_index == sid
        out[int(sid)][target_pos[sel]] = values[sel]


__all__ = ["TensorBatch", "check_trainable", "collate", "scatter_targets"]
