"""swerl `Sample`s -> verl `DataProto` / worker `TensorDict`, whole rollouts per rank (imports verl).

Row layout as docs/verl.md describes: prompt = everything before the first action token,
"response" = the rest with `response_mask` 1 on actions only, `rollout_log_probs` = the logged
`logp_rollout`, `old_log_probs` = pi_old (recomputed by the trainer, or the logged ones). Rollouts are never split (sec. 5): `rollout_layout` balances whole rollouts over
the data-parallel ranks (verl's workload model and partitioner), keeps a rollout's rows adjacent
and pads every rank to the same row count with empty rows, because verl's dispatch cuts the batch
into equal contiguous chunks; all of a rank's rows are one optimizer step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from verl import DataProto
from verl.utils import tensordict_utils as tu
from verl.utils.seqlen_balancing import calculate_workload, get_seqlen_balanced_partitions
from verl.workers.utils.padding import left_right_2_no_padding

from swerl.errors import DataError
from swerl.train.backends.verl.algos import denominators_to_meta
from swerl.train.backends.verl.loss_fns import ROLLOUT_INDEX, SAMPLE_INDEX, STEP_META
from swerl.train.batching import check_trainable
from swerl.train.gae import rollout_gae
from swerl.train.losses import StepDenominators
from swerl.train.schema import Sample

PAD_GROUP = "__swerl_padding__"


@dataclass(frozen=True)
class RowLayout:
    """Rows of one step: `rows[k]` is a sample id (index into the samples) or -1 for a padding row.

    Rank d owns the d-th of `dp_size` equal contiguous slices of `rows`, verl's contiguous chunking.
    """

    rows: tuple[int, ...]
    dp_size: int


def rollout_layout(samples: Sequence[Sample], dp_size: int = 1) -> RowLayout:
    """Balance whole rollouts over `dp_size` ranks by verl's workload (24576 L + L^2 per row), contiguously.

    Ranks get rollouts via `get_seqlen_balanced_partitions` at rollout granularity (fewer
    rollouts than ranks: one each, the rest padding); a rollout's samples stay in
    `sample_index` order; every rank is padded to the longest rank's row count.
    """
    if dp_size < 1:
        raise DataError(f"dp_size must be >= 1 (got {dp_size})")
    by_rollout: dict[str, list[int]] = {}
    for i, s in enumerate(samples):
        by_rollout.setdefault(s.rollout_id, []).append(i)
    rids = list(by_rollout)
    for rid in rids:
        by_rollout[rid].sort(key=lambda i: samples[i].sample_index)
    load = [int(calculate_workload(torch.tensor([samples[i].num_tokens for i in by_rollout[r]])).sum()) for r in rids]
    if len(rids) >= dp_size:
        parts = get_seqlen_balanced_partitions(load, k_partitions=dp_size, equal_size=False)
    else:
        parts = [[k] for k in range(len(rids))] + [[] for _ in range(dp_size - len(rids))]
    rank_rows = [[i for k in part for i in by_rollout[rids[k]]] for part in parts]
    width = max((len(r) for r in rank_rows), default=0) or 1
    rows = [i for r in rank_rows for i in (*r, *([-1] * (width - len(r))))]
    return RowLayout(tuple(rows), dp_size)


def response_start(s: Sample) -> int:
    """Index of the first response token (the prompt/response boundary); >= 1."""
    hits = np.flatnonzero(s.loss_mask)
    return int(hits[0]) if hits.size else max(s.num_tokens - 1, 1)


def _checked_step(samples: Sequence[Sample], advantages: Sequence[float] | None,
                  vocab_size: int | None) -> tuple[StepDenominators, list[int], bool]:
    """Refuse a step verl would train wrongly on; return its denominators, each sample's rollout index, and
    whether pi_old was recomputed (all samples or none: a mixed step would mix two ratio baselines)."""
    if not samples:
        raise DataError("update: no samples")
    check_trainable(samples, vocab_size)
    if advantages is not None and len(advantages) != len(samples):
        raise DataError(f"advantages: got {len(advantages)} values for {len(samples)} samples")
    den, ridx = StepDenominators.from_samples(samples)
    recomputed = [s.old_logprobs is not None for s in samples]
    if any(recomputed) and not all(recomputed):
        raise DataError("old_logprobs: set on some samples of the step but not on all")
    return den, ridx, all(recomputed)


def samples_to_dataproto(samples: Sequence[Sample], layout: RowLayout, *, advantages: Sequence[float] | None = None,
                         loss_agg: str = "rollout-mean", pad_token_id: int = 0,
                         vocab_size: int | None = None, correction: str = "none",
                         threshold: float = 2.0) -> DataProto:
    """The step's `DataProto` in `layout` order (module doc). Shapes: N rows, P prompt, R response columns.

    batch: prompts (N,P) responses (N,R) input_ids/attention_mask/position_ids (N,P+R),
    response_mask, rollout_log_probs (behaviour), old_log_probs (pi_old: the samples' `old_logprobs` when the
    trainer recomputed them, else the behaviour's), token_level_rewards[, advantages] (N,R),
    swerl_rollout_index / swerl_sample_index (N,) (step-global ids, -1 on padding rows).
    non_tensor_batch: uid (verl's group key) = group_id, rollout_id, sample_index (j).
    meta_info: swerl_step (loss mode, rollout correction + whole-step denominators), temperature 1.0.
    """
    den, ridx, decoupled = _checked_step(samples, advantages, vocab_size)
    splits = {i: response_start(s) for i, s in enumerate(samples)}
    P = max((splits[i] for i in layout.rows if i >= 0), default=1)
    R = max((samples[i].num_tokens - splits[i] for i in layout.rows if i >= 0), default=1)
    N = len(layout.rows)
    prompts = np.full((N, P), pad_token_id, np.int64)
    responses = np.full((N, R), pad_token_id, np.int64)
    p_mask, r_mask, resp_mask = np.zeros((N, P), np.int64), np.zeros((N, R), np.int64), np.zeros((N, R), np.int64)
    logp, rewards, adv = np.zeros((N, R), np.float32), np.zeros((N, R), np.float32), np.zeros((N, R), np.float32)
    old = np.zeros((N, R), np.float32)
    r_index, s_index = np.full(N, -1, np.int64), np.full(N, -1, np.int64)
    uid, rollout_id, sample_j = [PAD_GROUP] * N, [""] * N, [-1] * N
    for k, i in enumerate(layout.rows):
        if i < 0:  # padding row: one prompt and one response token, nothing to learn
            p_mask[k, -1] = r_mask[k, 0] = 1
            continue
        s, b = samples[i], splits[i]
        n_resp = s.num_tokens - b
        prompts[k, P - b:], p_mask[k, P - b:] = s.input_ids[:b], 1
        responses[k, :n_resp], r_mask[k, :n_resp] = s.input_ids[b:], 1
        resp_mask[k, :n_resp] = s.loss_mask[b:]
        logp[k, :n_resp] = s.rollout_logprobs[b:]
        old[k, :n_resp] = (s.old_logprobs if s.old_logprobs is not None else s.rollout_logprobs)[b:]
        if s.reward is not None and n_resp:
            rewards[k, np.flatnonzero(s.loss_mask[b:])[-1] if s.loss_mask[b:].any() else n_resp - 1] = s.reward
        if advantages is not None:
            adv[k, :n_resp] = np.float32(advantages[i]) * resp_mask[k, :n_resp]
        r_index[k], s_index[k] = ridx[i], i
        uid[k], rollout_id[k], sample_j[k] = s.group_id, s.rollout_id, s.sample_index
    attn = np.concatenate([p_mask, r_mask], axis=1)
    t = torch.from_numpy
    tensors = {
        "prompts": t(prompts), "responses": t(responses), "input_ids": t(np.concatenate([prompts, responses], 1)),
        "attention_mask": t(attn), "position_ids": t(np.clip(np.cumsum(attn, 1) - 1, 0, None)),
        "response_mask": t(resp_mask), "rollout_log_probs": t(logp), "old_log_probs": t(old),
        "token_level_rewards": t(rewards), "token_level_scores": t(rewards.copy()),
        ROLLOUT_INDEX: t(r_index), SAMPLE_INDEX: t(s_index),
    }
    if advantages is not None:
        tensors["advantages"] = t(adv)
    non_tensors = {"uid": np.array(uid, dtype=object), "group_id": np.array(uid, dtype=object),
                   "rollout_id": np.array(rollout_id, dtype=object), "sample_index": np.array(sample_j, dtype=object)}
    meta = {STEP_META: {"mode": loss_agg, "correction": correction, "threshold": float(threshold),
                        "decoupled": decoupled, **denominators_to_meta(den)}, "temperature": 1.0}
    return DataProto.from_dict(tensors=tensors, non_tensors=non_tensors, meta_info=meta)


def to_worker_tensordict(data: DataProto, *, epochs: int = 1, compute_loss: bool = True,
                         calculate_entropy: bool = False) -> object:
    """verl's no-padding worker format plus the keys `train_mini_batch` reads: the whole batch is ONE mini-batch.

    `epochs` > 1 repeats the step on the same batch (the SAO critic's K updates).
    """
    td = left_right_2_no_padding(data.to_tensordict())
    n = len(data)
    tu.assign_non_tensor(td, global_batch_size=n, mini_batch_size=n, epochs=epochs, seed=0,
                         dataloader_kwargs={"shuffle": False}, compute_loss=compute_loss,
                         calculate_entropy=calculate_entropy)
    return td


def rows_gae(values: torch.Tensor, data: DataProto, gamma: float, lam: float) -> tuple[torch.Tensor, torch.Tensor]:
    """SAO skip-observation GAE linked across each rollout's rows, (N, R) values -> (N, R) advantages, returns.

    Rows of a rollout are concatenated in `sample_index` order (`swerl.train.gae.rollout_gae`),
    the reward goes on the rollout's last action token; padding rows get zeros.
    """
    mask = data.batch["response_mask"]
    rewards = data.batch["token_level_rewards"].sum(-1)
    adv, ret = torch.zeros_like(values, dtype=torch.float32), torch.zeros_like(values, dtype=torch.float32)
    rows: dict[str, list[int]] = {}
    for k, rid in enumerate(data.non_tensor_batch["rollout_id"]):
        if rid:
            rows.setdefault(rid, []).append(k)
    for ks in rows.values():
        ks.sort(key=lambda k: data.non_tensor_batch["sample_index"][k])
        a, r = rollout_gae([values[k].float() for k in ks], [mask[k] for k in ks], float(rewards[ks[0]]), gamma, lam)
        for k, ak, rk in zip(ks, a, r, strict=True):
            adv[k], ret[k] = ak, rk
    return adv, ret


__all__ = ["PAD_GROUP", "RowLayout", "rollout_layout", "rows_gae", "samples_to_dataproto", "to_worker_tensordict"]
