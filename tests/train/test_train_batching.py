"""Batching (docs/algorithms.md sec. 5): whole rollouts per step, packed rows, balanced ranks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from train_helpers import make_sample

from swerl.errors import ConfigError
from swerl.train.batching import pack_rows, plan_batches


def _samples(spec: list[list[int]]) -> list:
    """spec[r] = token counts of rollout r's samples."""
    return [make_sample(f"r{r}", j, n, [(1, n)]) for r, lens in enumerate(spec) for j, n in enumerate(lens)]


@settings(max_examples=80, deadline=None)
@given(
    spec=st.lists(st.lists(st.integers(2, 300), min_size=1, max_size=4), min_size=1, max_size=12),
    per_step=st.integers(1, 5),
    budget=st.integers(64, 1024),
    dp=st.integers(1, 4),
)
def test_plans_never_split_a_rollout_and_cover_every_sample_once(spec: list[list[int]], per_step: int,
                                                                  budget: int, dp: int) -> None:
    samples = _samples(spec)
    plans = plan_batches(samples, micro_batch_tokens=budget, rollouts_per_step=per_step, dp_size=dp)
    seen: list[int] = []
    step_of: dict[str, int] = {}
    for k, plan in enumerate(plans):
        assert len(plan.ranks) == dp
        assert 1 <= len(plan.rollout_ids) <= per_step
        in_plan = [sid for rank in plan.ranks for mb in rank for row in mb.rows for sid in row.sample_ids]
        assert sorted(in_plan) == sorted(plan.sample_ids)
        seen += in_plan
        for sid in in_plan:
            rid = samples[sid].rollout_id
            assert step_of.setdefault(rid, k) == k  # one rollout, one optimizer step
            assert rid in plan.rollout_ids
        for rank in plan.ranks:
            for mb in rank:
                for row in mb.rows:
                    assert row.num_tokens == sum(samples[s].num_tokens for s in row.sample_ids)
                    assert row.num_tokens <= budget or len(row.sample_ids) == 1  # only oversize samples exceed
                assert mb.padded_tokens <= budget or len(mb.rows) == 1
        # token balance: no rank exceeds another by more than the largest row
        loads = [sum(mb.num_tokens for mb in rank) for rank in plan.ranks]
        largest = max(r.num_tokens for rank in plan.ranks for mb in rank for r in mb.rows)
        assert max(loads) - min(loads) <= largest
    assert sorted(seen) == list(range(len(samples)))


def test_packing_beats_one_sample_per_row() -> None:
    spec = [[700, 300, 500], [250, 750], [1000], [120, 880, 400, 600]]
    samples = _samples(spec)
    (plan,) = plan_batches(samples, micro_batch_tokens=2048, row_tokens=1024)
    assert plan.num_tokens == sum(map(sum, spec))
    assert plan.padding_waste < 0.05
    rows = pack_rows([s.num_tokens for s in samples], list(range(len(samples))), 1024)
    assert len(rows) == 6  # 5500 tokens into rows of 1024: the bound ceil(5500/1024) = 6 is reached


def test_bad_settings_are_config_errors() -> None:
    s = _samples([[10]])
    with pytest.raises(ConfigError, match="micro_batch_tokens"):
        plan_batches(s, micro_batch_tokens=0)
    with pytest.raises(ConfigError, match="rollouts_per_step"):
        plan_batches(s, micro_batch_tokens=10, rollouts_per_step=0)
    with pytest.raises(ConfigError, match="dp_size"):
        plan_batches(s, micro_batch_tokens=10, dp_size=0)
