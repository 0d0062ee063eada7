"""One update from completed rollouts, in the order it runs (docs/algorithms.md secs. 2-6 and 8):
fetch events (one binary token batch: `fetch_rollouts`), drop over-stale rollouts (sec. 6), assemble (secs. 1-2),
advantages over rollouts (sec. 3; SAO: critic + skip-observation GAE, sec. 8), optionally pi_old
recomputed by the trainer (sec. 4), `backend.update` per mini-batch of whole groups (secs. 4-5), metrics."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from swerl.config import Recipe
from swerl.errors import ConfigError
from swerl.gateway.client import GatewayClient
from swerl.tokens import F_ERROR, KIND_CODE, USABLE, TokenBatch
from swerl.train.advantage import compute_advantages
from swerl.train.assembly import assemble
from swerl.train.backends import TrainingBackend
from swerl.train.loop.book import Group
from swerl.train.loop.hacking import KINDS, BlockedHack, canary_outcome, scan_rollout
from swerl.train.schema import MERGE_FAILURE_CAUSES, AssemblyStats, Sample


class GatewayReader(Protocol):
    """What the fetch needs from a gateway client (`swerl.gateway.client.GatewayClient.token_batch`)."""

    def token_batch(self, rollout_ids: list[str], kinds: list[str] | None = ..., current_attempt: bool = ...,
                    include_json: str = ...) -> TokenBatch: ...


@dataclass
class RolloutEvents:
    """What the gateway recorded for one rollout's current attempt: the batch holding its model calls and
    reward (shared by every rollout of one fetch), and what the trainer decides on before assembling."""

    rollout_id: str
    batch: TokenBatch  # the binary batch of the whole fetch; `assemble(batch, rollouts=...)` reads it
    first_version: int | None  # the oldest policy that served one of its usable calls (staleness)
    reward: float | None
    reward_data: Any
    last_request: Any = None  # its last call's request JSON (reward-hacking evidence), when asked for


def fetch_rollouts(client: GatewayReader, rollout_ids: list[str], *, last_request: bool = False
                   ) -> dict[str, RolloutEvents]:
    """Model calls and rewards of many rollouts (their current attempts) in one binary request.

    Prompts stay delta records, so the transfer is linear in unique tokens with no per-event JSON
    work; the batch is what `assemble` reads. Calls the trainer must not learn from (failed,
    abandoned) stay in the batch for assembly's counts but never set `first_version`.
    """
    if not rollout_ids:
        return {}
    batch = client.token_batch(rollout_ids, kinds=["model_request", "reward"], current_attempt=True,
                               include_json="last" if last_request else "none")
    rows = batch.rows_by_rollout()
    kind, flags, seq = batch.kind.tolist(), batch.flags.tolist(), batch.seq.tolist()
    version, reward = batch.policy_version.tolist(), batch.reward.tolist()
    out = {}
    for rid in rollout_ids:
        rs = rows.get(rid, [])
        calls = [r for r in rs if kind[r] == KIND_CODE["model_request"]]
        rewards = [r for r in rs if kind[r] == KIND_CODE["reward"]]
        versions = [version[r] for r in calls if flags[r] & (USABLE | F_ERROR) == USABLE and version[r] >= 0]
        rew = max(rewards, key=lambda r: seq[r]) if rewards else None
        out[rid] = RolloutEvents(rid, batch, min(versions) if versions else None,
                                 None if rew is None else reward[rew], None if rew is None else batch.data.get(rew),
                                 batch.requests.get(calls[-1]) if calls and last_request else None)
    return out


@dataclass
class Batch:
    """A batch ready for the optimizer, with everything the step's metrics report."""

    samples: list[Sample]
    groups: list[list[str]]  # rollout ids per group (after dropping), in batch order
    rewards: dict[str, float]
    stats: AssemblyStats
    staleness: list[int]
    dropped_stale: list[str]
    no_samples: list[str]
    hacking: list[BlockedHack] = field(default_factory=list)
    canaries: list[tuple[bool, bool]] = field(default_factory=list)  # (graded, passed) of each canary rollout
    ages: dict[str, int] = field(default_factory=dict)  # staleness of each kept rollout (updates.jsonl, the viewer)
    advantages: dict[tuple[str, int], float] = field(default_factory=dict)  # per sample; set by rl_update (not SAO)
    overlong_masked: list[str] = field(default_factory=list)  # sec. 13 mask: in the baseline, out of the loss
    context_overflow: list[str] = field(default_factory=list)  # kept rollouts a context overflow ended (sec. 13)


def build_batch(client: GatewayClient, groups: Sequence[Group], *, version: int, recipe: Recipe, tokenizer: Any,
                scan: bool) -> Batch:
    """Fetch, staleness-filter and assemble the rollouts of `groups` for an update at policy `version`."""
    limit = recipe.algorithm.staleness_limit
    kept_ids: list[str] = []
    kept_groups: list[list[str]] = []
    rewards: dict[str, float] = {}
    staleness: list[int] = []
    stale: list[str] = []
    no_samples: list[str] = []
    hacking: list[BlockedHack] = []
    canaries: list[tuple[bool, bool]] = []
    ages: dict[str, int] = {}
    overflow: set[str] = set()
    fetched = fetch_rollouts(client, [rid for g in groups for rid in g.trainable], last_request=scan)
    for g in groups:
        members: list[str] = []
        for rid in g.trainable:
            f = fetched[rid]
            hacking += scan_rollout(rid, f.last_request, f.reward_data)
            if (canary := canary_outcome(f.reward_data)) is not None:
                canaries.append(canary)  # an impossible task: counted, never trained on
                continue
            if f.first_version is None or f.reward is None:
                no_samples.append(rid)  # no usable model call (or no reward): nothing to train on
                continue
            age = version - f.first_version
            if age > limit:
                stale.append(rid)  # sec. 6: over-stale rollouts are dropped and counted, never silently
                continue
            staleness.append(age)
            ages[rid] = age
            members.append(rid)
            rewards[rid] = float(f.reward)
            if (f.reward_data or {}).get("context_overflow"):
                overflow.add(rid)
            kept_ids.append(rid)
        if members:
            kept_groups.append(members)
    src = next((f.batch for f in fetched.values()), None)  # one batch, shared by the fetch's rollouts
    samples, stats = assemble(src if src is not None else [], mode=recipe.algorithm.merge, tokenizer=tokenizer,
                              rollouts=kept_ids)
    with_reward = {s.rollout_id for s in samples}
    no_samples += [r for rs in kept_groups for r in rs if r not in with_reward]
    kept_groups = [[r for r in rs if r in with_reward] for rs in kept_groups]
    kept_groups = [rs for rs in kept_groups if rs]
    return Batch(samples, kept_groups, {r: rewards[r] for rs in kept_groups for r in rs}, stats, staleness, stale,
                 no_samples, hacking, canaries, ages,
                 context_overflow=[r for rs in kept_groups for r in rs if r in overflow])


def mini_batches(batch: Batch, k: int) -> list[list[Sample]]:
    """Split into k optimizer steps of whole groups (never one rollout in two steps: sec. 5)."""
    by_rollout: dict[str, list[Sample]] = {}
    for s in batch.samples:
        by_rollout.setdefault(s.rollout_id, []).append(s)
    k = max(1, min(k, len(batch.groups)))
    total = sum(len(rs) for rs in batch.groups)
    out: list[list[Sample]] = [[]]
    taken = 0
    for rs in batch.groups:
        if len(out) < k and taken >= total * len(out) / k:
            out.append([])
        for r in rs:
            out[-1] += by_rollout[r]
        taken += len(rs)
    return [mb for mb in out if mb]


def recompute_old_logprobs(backend: TrainingBackend, samples: Sequence[Sample]) -> None:
    """Set every sample's `old_logprobs` to the trainer's log-probs under the current weights (docs/algorithms.md
    sec. 4, decoupled): the clip and DIS band then measure only this update's own policy change, and the
    engine/trainer mismatch goes to the rollout correction's weight instead."""
    compute = getattr(backend, "compute_logprobs", None)
    if compute is None:
        raise ConfigError(f"algorithm.recompute_old_logprobs: the {type(backend).__name__} backend cannot compute "
                          "log-probs")
    for s, lp in zip(samples, compute(samples), strict=True):
        s.old_logprobs = np.where(np.asarray(s.loss_mask) > 0, np.asarray(lp, dtype=np.float32), 0.0).astype(
            np.float32)


def rl_update(backend: TrainingBackend, batch: Batch, recipe: Recipe, update_index: int) -> dict[str, float]:
    """Advantages (sec. 3), then `train.ppo_epochs` passes of `train.mini_batches` optimizer steps; returns
    averaged backend metrics. Rollouts are the expensive part of a real loop, so several passes get more learning
    out of each; the advantages stay those of the batch. `update_index` (updates done before this one) drives
    SAO's critic warm-up."""
    a = recipe.algorithm
    metrics: dict[str, float] = {}
    per_step: list[dict[str, float]] = []
    adv_of: dict[tuple[str, int], float] | None = None  # SAO (group size 1): the critic supplies them (sec. 8)
    if a.name != "sao":
        adv = compute_advantages(batch.samples, estimator=a.name, level=a.advantage_level,
                                 std_normalize=a.std_normalize, negative_scale=a.negative_advantage_scale)
        adv_of = {(s.rollout_id, s.sample_index): x for s, x in zip(batch.samples, adv, strict=True)}
        batch.advantages = adv_of  # what each sample trained with: recorded in updates.jsonl
        per_rollout = [adv_of[(s.rollout_id, s.sample_index)] for s in batch.samples if s.sample_index == 0]
        metrics |= {"adv/mean": statistics.fmean(per_rollout), "adv/abs_mean": statistics.fmean(map(abs, per_rollout)),
                    "adv/std": statistics.pstdev(per_rollout) if len(per_rollout) > 1 else 0.0,
                    "adv/zero_frac": sum(1 for x in per_rollout if abs(x) < 1e-9) / len(per_rollout)}
    if a.recompute_old_logprobs:  # sec. 4 (rollout correction): pi_old once per update, before its first optimizer step
        recompute_old_logprobs(backend, batch.samples)
    masked = set(batch.overlong_masked)  # sec. 13 (mask): advantages above counted them; the loss skips them
    loss_batch = batch if not masked else replace(
        batch, samples=[s for s in batch.samples if s.rollout_id not in masked],
        groups=[g for g in ([r for r in rs if r not in masked] for rs in batch.groups) if g])
    steps = mini_batches(loss_batch, recipe.train.mini_batches)  # the same split on every pass
    for _ in range(recipe.train.ppo_epochs):
        for mb in steps:
            advs = () if adv_of is None else ([adv_of[(s.rollout_id, s.sample_index)] for s in mb],)
            per_step.append(backend.update(mb, *advs, update_index=update_index))
    keys = {k for m in per_step for k in m}
    for k in sorted(keys):
        vals = [m[k] for m in per_step if k in m]
        summed = k.startswith("batch/") or k in ("time/update_s", "policy/steps_skipped")
        if k == "mismatch/max_abs_logprob_diff":
            metrics[k] = float(max(vals))
            continue
        metrics[k] = float(sum(vals)) if summed else float(statistics.fmean(vals))
    metrics["train/optimizer_steps"] = float(len(per_step))
    return metrics


def batch_metrics(batch: Batch) -> dict[str, float]:
    """Reward, assembly (samples per rollout, merge-failure causes), staleness and hacking counts of a batch."""
    rewards = list(batch.rewards.values())
    st = batch.stats
    m: dict[str, float] = {
        "train/reward_mean": statistics.fmean(rewards) if rewards else 0.0,
        "train/reward_std": statistics.pstdev(rewards) if len(rewards) > 1 else 0.0,
        "train/success_rate": sum(1 for r in rewards if r > 0) / len(rewards) if rewards else 0.0,
        "train/rollouts": float(len(rewards)), "train/groups": float(len(batch.groups)),
        "train/no_sample_rollouts": float(len(batch.no_samples)),
        "assembly/samples_per_rollout": st.mean_samples_per_rollout,
        "assembly/single_sample_frac": st.single_sample_fraction,
        "assembly/samples": float(st.num_samples), "assembly/calls": float(st.num_calls),
        "assembly/retries_dropped": float(st.num_retries_dropped), "assembly/failed_calls": float(st.num_failed_calls),
        "length/calls_cut_max_tokens": float(st.num_calls_cut),  # sec. 13: the per-call budget cut these
        "staleness/mean": statistics.fmean(batch.staleness) if batch.staleness else 0.0,
        "staleness/max": float(max(batch.staleness, default=0)),
        "staleness/dropped": float(len(batch.dropped_stale)),
    }
    for cause in MERGE_FAILURE_CAUSES:
        m[f"assembly/merge_failures/{cause}"] = float(st.merge_failures.get(cause, 0))
    for n, count in st.samples_per_rollout.items():
        m[f"assembly/samples_per_rollout_hist/{n}"] = float(count)
    for kind in KINDS:
        m[f"hacking/{kind}"] = float(sum(1 for h in batch.hacking if h.kind == kind))
    m["hacking/total"] = float(len(batch.hacking))
    return m


__all__ = ["Batch", "batch_metrics", "build_batch", "mini_batches", "recompute_old_logprobs", "rl_update"]
