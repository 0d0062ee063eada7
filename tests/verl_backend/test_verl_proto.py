"""swerl samples -> verl DataProto: provenance on every row, whole rollouts through verl's own batching."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
import torch
from verl.utils import tensordict_utils as tu
from verl.utils.seqlen_balancing import calculate_workload, get_seqlen_balanced_partitions
from verl.workers.engine.utils import prepare_micro_batches
from verl_helpers import make_sample, random_batch

from swerl.errors import DataError
from swerl.train.advantage import compute_advantages
from swerl.train.backends.verl.proto import (
    rollout_layout,
    samples_to_dataproto,
    to_worker_tensordict,
)

pytestmark = pytest.mark.slow


def _rows_of(rollout_ids: list[str]) -> dict[str, list[int]]:
    rows: dict[str, list[int]] = defaultdict(list)
    for k, rid in enumerate(rollout_ids):
        if rid:
            rows[rid].append(k)
    return rows


def test_rows_carry_provenance_and_reconstruct_each_sample() -> None:
    samples = random_batch(0, groups=3, per_group=3)
    adv = compute_advantages(samples)
    dp = samples_to_dataproto(samples, rollout_layout(samples, 2), advantages=adv)
    b, nt = dp.batch, dp.non_tensor_batch
    seen = set()
    for k, sid in enumerate(b["swerl_sample_index"].tolist()):
        if sid < 0:  # padding row: nothing to learn, no provenance
            assert nt["rollout_id"][k] == "" and b["response_mask"][k].sum() == 0
            continue
        s = samples[sid]
        seen.add(sid)
        assert (nt["rollout_id"][k], nt["group_id"][k], nt["sample_index"][k]) == (s.rollout_id, s.group_id,
                                                                                   s.sample_index)
        assert nt["uid"][k] == s.group_id  # verl's group key for its own estimators and metrics
        attn = b["attention_mask"][k].bool()
        np.testing.assert_array_equal(b["input_ids"][k][attn].numpy(), s.input_ids)
        P = b["prompts"].shape[1]
        resp = attn[P:]
        split = s.num_tokens - int(resp.sum())
        assert s.loss_mask[:split].sum() == 0 and s.loss_mask[split] == 1  # prompt = everything before the 1st action
        np.testing.assert_array_equal(b["response_mask"][k][resp].numpy(), s.loss_mask[split:])
        np.testing.assert_allclose(b["old_log_probs"][k][resp].numpy(), s.rollout_logprobs[split:])
        m = b["response_mask"][k].bool()
        assert torch.all(b["advantages"][k][m] == np.float32(adv[sid])) and torch.all(b["advantages"][k][~m] == 0)
        assert float(b["token_level_rewards"][k].sum()) == s.reward
        pos = b["position_ids"][k][attn]
        assert torch.equal(pos, torch.arange(s.num_tokens))
    assert seen == set(range(len(samples)))


@pytest.mark.parametrize("dp_size", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rollouts_stay_whole_and_contiguous_per_rank(dp_size: int, seed: int) -> None:
    samples = random_batch(seed, groups=3, per_group=3, max_samples=4)
    layout = rollout_layout(samples, dp_size)
    dp = samples_to_dataproto(samples, layout, advantages=compute_advantages(samples))
    assert len(dp) % dp_size == 0 and len(dp) == len(layout.rows)
    chunks = dp.chunk(dp_size)  # what verl's dispatch does: equal contiguous chunks
    rank_of: dict[str, int] = {}
    for rank, chunk in enumerate(chunks):
        for rid, rows in _rows_of(list(chunk.non_tensor_batch["rollout_id"])).items():
            assert rid not in rank_of, f"rollout {rid} split across ranks"
            rank_of[rid] = rank
            assert rows == list(range(rows[0], rows[0] + len(rows))), "rows of a rollout are not contiguous"
            js = [chunk.non_tensor_batch["sample_index"][k] for k in rows]
            assert js == sorted(js)
    assert set(rank_of) == {s.rollout_id for s in samples}
    # balance: no rank is more than the heaviest rollout above the ideal share (Karmarkar-Karp on rollouts)
    load = defaultdict(int)
    for s in samples:
        load[s.rollout_id] += int(calculate_workload(torch.tensor(s.num_tokens)))
    per_rank = [sum(w for r, w in load.items() if rank_of[r] == d) for d in range(dp_size)]
    assert max(per_rank) - sum(per_rank) / dp_size <= max(load.values())


def test_verl_row_level_balancing_would_split_rollouts() -> None:
    """The hazard our layout avoids: verl's default balancing reorders *rows* (as RayPPOTrainer._balance_batch)."""
    samples = random_batch(1, groups=3, per_group=3, max_samples=4)
    layout = rollout_layout(samples, 1)
    dp = samples_to_dataproto(samples, layout)
    seqlen = dp.batch["attention_mask"].sum(-1)
    assert len(dp) % 2 == 0  # equal_size partitions (fixed seed: 22 rows)
    parts = get_seqlen_balanced_partitions(calculate_workload(seqlen).tolist(), k_partitions=2, equal_size=True)
    dp.reorder(torch.tensor([j for p in parts for j in p]))
    ranks = defaultdict(set)
    for rank, chunk in enumerate(dp.chunk(2)):
        for rid in chunk.non_tensor_batch["rollout_id"]:
            ranks[rid].add(rank)
    assert any(len(r) > 1 for r in ranks.values())


@pytest.mark.parametrize("dp_size", [1, 2])
def test_worker_batching_keeps_one_mini_batch_and_every_row(dp_size: int) -> None:
    """Through verl's own chunking, mini-batch iterator and token-budget micro-batching (the worker path)."""
    samples = random_batch(4, groups=3, per_group=3, max_samples=4)
    dp = samples_to_dataproto(samples, rollout_layout(samples, dp_size), advantages=compute_advantages(samples))
    td = to_worker_tensordict(dp)
    mini = tu.get(td, "mini_batch_size")
    all_rows = []
    for rank_td in tu.chunk_tensordict(td, dp_size):
        batches = list(tu.make_iterator(rank_td, mini_batch_size=mini // dp_size, epochs=1,
                                        dataloader_kwargs={"shuffle": False}))
        assert len(batches) == 1, "a step's rows must form ONE optimizer step on every rank"
        mb = batches[0]
        tu.assign_non_tensor(mb, use_dynamic_bsz=True, max_token_len_per_gpu=64)
        micro, idx = prepare_micro_batches(mb)
        assert len(micro) > 1  # the budget forces several micro-batches (several backward passes, one step)
        got = sorted(i for part in idx for i in part)
        assert got == list(range(len(mb)))
        for m in micro:  # the step data the loss needs rides along with every micro-batch
            assert tu.get_non_tensor_data(m, "swerl_step", None)["num_rollouts"] == len({s.rollout_id for s in samples})
            assert m["swerl_rollout_index"].shape[0] == len(m)
        all_rows += rank_td["swerl_sample_index"].tolist()
    assert sorted(r for r in all_rows if r >= 0) == list(range(len(samples)))


def test_fewer_rollouts_than_ranks_and_bad_input() -> None:
    samples = [make_sample("only", 0, 10, [(4, 10)]), make_sample("only", 1, 12, [(6, 12)], seed=1)]
    layout = rollout_layout(samples, 4)
    assert layout.rows == (0, 1, -1, -1, -1, -1, -1, -1)
    dp = samples_to_dataproto(samples, layout, advantages=[0.5, 0.5])
    assert len(dp) == 8 and int(dp.batch["response_mask"][2:].sum()) == 0
    with pytest.raises(DataError, match="advantages"):
        samples_to_dataproto(samples, layout, advantages=[0.5])
    bad = make_sample("x", 0, 6, [(0, 6)])
    with pytest.raises(DataError, match="position 0"):
        samples_to_dataproto([bad], rollout_layout([bad]))
    with pytest.raises(DataError, match="vocabulary"):
        samples_to_dataproto(samples, layout, vocab_size=10)
