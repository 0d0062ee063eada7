"""Batching (docs/algorithms.md sec. 5, AL1 sec. 2.4): steps of whole rollouts, packed rows, balanced ranks.

Optimizer steps take *whole rollouts* (splitting one would evaluate its parts under different
policies); samples are packed into even rows of at most `row_tokens` (position ids restart per
sample, so HF models attend within each sample only; a longer sample gets its own row, never
cut), rows are dealt to ranks longest-first onto the least loaded one, and each rank's rows form
micro-batches whose padded size fits `micro_batch_tokens`. Every micro-batch's loss uses the
step's denominators, so accumulation reproduces the full-step gradient.

Then `collate` turns a micro-batch into (B, T) tensors: position ids restart at 0 for each sample (and for the
trailing padding) and no attention mask is passed, so Hugging Face models build a block-diagonal causal mask
(`find_packed_sequence_indices`) and each sample attends only to itself, the same numbers as running the samples
one by one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from swerl.errors import ConfigError, DataError
from swerl.train.schema import Sample

if TYPE_CHECKING:
    import torch


@dataclass
class Row:
    """One packed sequence: sample ids (indices into the planner's input) laid end to end."""

    sample_ids: list[int] = field(default_factory=list)
    num_tokens: int = 0


@dataclass
class MicroBatch:
    """Rows fed to one forward/backward; the tensor is (len(rows), max row length)."""

    rows: list[Row] = field(default_factory=list)

    @property
    def num_tokens(self) -> int:
        return sum(r.num_tokens for r in self.rows)

    @property
    def padded_tokens(self) -> int:
        return len(self.rows) * max((r.num_tokens for r in self.rows), default=0)


@dataclass
class StepPlan:
    """One optimizer step: its rollouts, its samples, and per-rank micro-batches."""

    rollout_ids: list[str]
    sample_ids: list[int]
    ranks: list[list[MicroBatch]]

    @property
    def num_tokens(self) -> int:
        return sum(mb.num_tokens for rank in self.ranks for mb in rank)

    @property
    def padded_tokens(self) -> int:
        return sum(mb.padded_tokens for rank in self.ranks for mb in rank)

    @property
    def padding_waste(self) -> float:
        """Fraction of computed positions that are padding."""
        padded = self.padded_tokens
        return 1.0 - self.num_tokens / padded if padded else 0.0


def pack_rows(lengths: Sequence[int], ids: Sequence[int], row_tokens: int) -> list[Row]:
    """Pack sequences `ids` (with `lengths`) into rows of at most `row_tokens`, keeping rows even.

    Start from the lower bound k = ceil(total / row_tokens) rows and place sequences,
    longest first, into the least-filled row that still has room (opening a row only
    when none has). Even rows matter as much as few rows: rows sharing a micro-batch
    are padded to the longest, so a half-empty last row would be padding.
    """
    total = sum(lengths[i] for i in ids)
    k = max(1, -(-total // row_tokens)) if ids else 0
    rows = [Row() for _ in range(k)]
    for i in sorted(ids, key=lambda j: (-lengths[j], j)):
        n = lengths[i]
        room = [r for r in rows if r.num_tokens + n <= row_tokens]
        if room:
            target = min(room, key=lambda r: r.num_tokens)
        else:  # an oversize sequence takes an empty row of its own
            target = next((r for r in rows if not r.sample_ids), None)
            if target is None:
                target = Row()
                rows.append(target)
        target.sample_ids.append(i)
        target.num_tokens += n
    return [r for r in rows if r.sample_ids]


def _micro_batches(rows: list[Row], micro_batch_tokens: int) -> list[MicroBatch]:
    """Rows, longest first, grouped while rows x longest row fits the budget."""
    out: list[MicroBatch] = []
    for row in sorted(rows, key=lambda r: -r.num_tokens):
        mb = out[-1] if out else None
        # rows are sorted, so the first row of a micro-batch is its longest
        if mb is not None and (len(mb.rows) + 1) * mb.rows[0].num_tokens <= micro_batch_tokens:
            mb.rows.append(row)
        else:
            out.append(MicroBatch([row]))
    return out


def plan_batches(
    samples: Sequence[Sample],
    *,
    micro_batch_tokens: int,
    row_tokens: int | None = None,
    rollouts_per_step: int | None = None,
    dp_size: int = 1,
) -> list[StepPlan]:
    """Plan optimizer steps, rows and micro-batches for `samples` (see module doc).

    `rollouts_per_step=None` puts everything into one step. Sample ids in the plan
    index into `samples`. Steps take rollouts in order of first appearance.
    """
    if micro_batch_tokens <= 0:
        raise ConfigError(f"train.micro_batch_tokens must be > 0 (got {micro_batch_tokens})")
    if dp_size <= 0:
        raise ConfigError(f"dp_size must be > 0 (got {dp_size})")
    if rollouts_per_step is not None and rollouts_per_step <= 0:
        raise ConfigError(f"train.rollouts_per_step must be > 0 (got {rollouts_per_step})")
    row_cap = row_tokens or micro_batch_tokens
    by_rollout: dict[str, list[int]] = {}
    for i, s in enumerate(samples):
        by_rollout.setdefault(s.rollout_id, []).append(i)
    order = list(by_rollout)
    per_step = rollouts_per_step or max(len(order), 1)
    lengths = [s.num_tokens for s in samples]
    plans: list[StepPlan] = []
    for start in range(0, len(order), per_step):
        rids = order[start:start + per_step]
        sids = [i for rid in rids for i in by_rollout[rid]]
        rows = pack_rows(lengths, sids, row_cap)
        ranks: list[list[Row]] = [[] for _ in range(dp_size)]
        load = [0] * dp_size
        for row in sorted(rows, key=lambda r: -r.num_tokens):
            k = min(range(dp_size), key=lambda r: (load[r], len(ranks[r])))
            ranks[k].append(row)
            load[k] += row.num_tokens
        plans.append(StepPlan(rids, sids, [_micro_batches(r, micro_batch_tokens) for r in ranks]))
    return plans


__all__ = ["MicroBatch", "Row", "StepPlan", "pack_rows", "plan_batches"]


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
        import torch

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
    import torch  # here, not at import: planning (and the verl driver's) needs no torch
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
