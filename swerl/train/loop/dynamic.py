"""Dynamic sampling (docs/algorithms.md sec. 11, DAPO): drop groups whose rollouts all got the same reward and
refill the update from new groups, up to `algorithm.dynamic_sampling_max_extra` extra rollouts.

A group whose rewards are all equal has zero advantage under GRPO and RLOO (eq. 22), so it adds no gradient but
does add tokens to the loss denominators; with a sparse SWE reward most early groups are all-fail. The filter
looks at the *rollouts'* rewards, never at samples, so how many samples a rollout splits into cannot change
whether it is kept (AL1).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from swerl.train.loop.update import Batch
from swerl.train.schema import AssemblyStats

REWARD_TOL = 1e-12
"""Rewards closer than this count as equal (eq. 22)."""


def keep_informative(batch: Batch) -> tuple[Batch, list[list[str]]]:
    """The batch without its zero-variance groups (eq. 22), and the dropped groups' rollout ids.

    A group is dropped when max(r) - min(r) <= REWARD_TOL over its kept rollouts; a group of one rollout has no
    baseline (advantage 0, sec. 3) and is dropped too. Assembly stats still describe everything assembled.
    """
    kept: list[list[str]] = []
    dropped: list[list[str]] = []
    for rs in batch.groups:
        rewards = [batch.rewards[r] for r in rs]
        (kept if len(rs) > 1 and max(rewards) - min(rewards) > REWARD_TOL else dropped).append(rs)
    keep = {r for rs in kept for r in rs}
    ages = {r: a for r, a in batch.ages.items() if r in keep}
    return replace(batch, samples=[s for s in batch.samples if s.rollout_id in keep], groups=kept,
                   rewards={r: v for r, v in batch.rewards.items() if r in keep}, staleness=list(ages.values()),
                   ages=ages), dropped


def merge_stats(a: AssemblyStats, b: AssemblyStats) -> AssemblyStats:
    """Assembly statistics of two batches together (counts add; per-rollout fractions recomputed)."""
    out = a.model_copy(deep=True)
    for name, field in AssemblyStats.model_fields.items():
        if field.annotation is int:
            setattr(out, name, getattr(a, name) + getattr(b, name))
    for attr in ("samples_per_rollout", "merge_failures"):
        merged = dict(getattr(a, attr))
        for k, v in getattr(b, attr).items():
            merged[k] = merged.get(k, 0) + v
        setattr(out, attr, merged)
    if out.num_rollouts:
        out.single_sample_fraction = out.samples_per_rollout.get(1, 0) / out.num_rollouts
        out.mean_samples_per_rollout = out.num_samples / out.num_rollouts
    return out


def merge_batches(a: Batch, b: Batch) -> Batch:
    """One batch from two built at the same policy version (a refill never crosses an update)."""
    return Batch(a.samples + b.samples, a.groups + b.groups, a.rewards | b.rewards, merge_stats(a.stats, b.stats),
                 a.staleness + b.staleness, a.dropped_stale + b.dropped_stale, a.no_samples + b.no_samples,
                 a.hacking + b.hacking, a.canaries + b.canaries, a.ages | b.ages,
                 overlong_masked=a.overlong_masked + b.overlong_masked,
                 context_overflow=a.context_overflow + b.context_overflow)


@dataclass
class DynamicSampler:
    """The update being filled: what was kept, what was dropped, and what the refill cost.

    `target` rollouts are wanted per update; taking stops once `target + max_extra` rollouts have been
    taken from the book for this update, and the update then trains on what it has (counted as underfilled).
    """

    target: int
    max_extra: int
    pending: Batch | None = None
    taken: int = 0
    rounds: int = 0
    dropped_groups: int = 0
    dropped_rollouts: int = 0
    t_first: float | None = None

    def want(self) -> int:
        """Rollouts still wanted for this update (at least one group's worth is always taken)."""
        have = len(self.pending.rewards) if self.pending is not None else 0
        return max(1, self.target - have)

    def add(self, batch: Batch, taken: int) -> bool:
        """Filter a freshly built batch into the pending one; True when the update should run now."""
        if self.t_first is None:
            self.t_first = time.perf_counter()
        self.taken += taken
        self.rounds += 1
        kept, dropped = keep_informative(batch)
        self.dropped_groups += len(dropped)
        self.dropped_rollouts += sum(len(rs) for rs in dropped)
        self.pending = kept if self.pending is None else merge_batches(self.pending, kept)
        return len(self.pending.rewards) >= self.target or self.taken >= self.target + self.max_extra

    def pop(self) -> tuple[Batch, dict[str, float]]:
        """The filled batch and its `dynamic/*` metrics; resets for the next update."""
        assert self.pending is not None, "pop() before add()"
        batch = self.pending
        metrics = {
            "dynamic/dropped_groups": float(self.dropped_groups),
            "dynamic/dropped_rollouts": float(self.dropped_rollouts),
            "dynamic/taken_rollouts": float(self.taken),
            "dynamic/extra_rollouts": float(max(0, self.taken - self.target)),  # the refill's cost in rollouts
            "dynamic/refills": float(self.rounds - 1),
            "dynamic/fill_s": time.perf_counter() - self.t_first if self.t_first is not None else 0.0,
            "dynamic/underfilled": float(len(batch.rewards) < self.target),
        }
        self.pending, self.taken, self.rounds, self.dropped_groups, self.dropped_rollouts = None, 0, 0, 0, 0
        self.t_first = None
        return batch, metrics


__all__ = ["DynamicSampler", "keep_informative", "merge_batches", "merge_stats"]
