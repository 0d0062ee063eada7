"""Batching (docs/algorithms.md sec. 5, AL1 sec. 2.4): steps of whole rollouts, packed rows, balanced ranks.

Optimizer steps take *whole rollouts* (splitting one would evaluate its parts under different
policies); samples are packed into even rows of at most `row_tokens` (position ids restart per
sample, so HF models attend within each sample only; a longer sample gets its own row, never
cut), rows are dealt to ranks longest-first onto the least loaded one, and each rank's rows form
micro-batches whose padded size fits `micro_batch_tokens`. Every micro-batch's loss uses the
step's denominators, so accumulation reproduces the full-step gradient.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from swerl.errors import ConfigError
from swerl.train.schema import Sample


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

    def rank_tokens(self) -> list[int]:
        return [sum(mb.num_tokens for mb in rank) for rank in self.ranks]


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
