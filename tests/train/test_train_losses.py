"""Loss aggregation (eqs. 14-16, AL1 Fig. 5), whole-step denominators, DIS and PPO-clip."""

from __future__ import annotations

import itertools
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from swerl.errors import ConfigError
from swerl.train.losses import StepDenominators, aggregate_loss, dis_mask, dis_policy_loss, ppo_clip_loss

# AL1 Fig. 5: rollout A has samples of 50 and 100 response tokens, B three of 30, C one of 40.
FIG5 = [("A", 50), ("A", 100), ("B", 30), ("B", 30), ("B", 30), ("C", 40)]


def fig5_batch(seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, list[float]]:
    """Rows padded to 100 tokens (+3 prompt tokens) with random per-token losses; returns sums A1..C1."""
    g = torch.Generator().manual_seed(seed)
    B, T = len(FIG5), 103
    loss = torch.randn(B, T, generator=g, dtype=torch.float64)
    mask = torch.zeros(B, T, dtype=torch.float64)
    for b, (_, n) in enumerate(FIG5):
        mask[b, 3:3 + n] = 1
    rollout = torch.tensor([{"A": 0, "B": 1, "C": 2}[r] for r, _ in FIG5])
    sums = [float((loss[b] * mask[b]).sum()) for b in range(B)]
    return loss, mask, rollout, sums


def test_fig5_token_mean() -> None:
    loss, mask, rollout, (A1, A2, B1, B2, B3, C1) = fig5_batch()
    got = aggregate_loss(loss, mask, rollout, "token-mean")
    assert float(got) == pytest.approx((A1 + A2 + B1 + B2 + B3 + C1) / 280, rel=1e-12)


def test_fig5_seq_mean_token_mean() -> None:
    loss, mask, rollout, (A1, A2, B1, B2, B3, C1) = fig5_batch()
    got = aggregate_loss(loss, mask, rollout, "seq-mean-token-mean")
    assert float(got) == pytest.approx((A1 / 50 + A2 / 100 + B1 / 30 + B2 / 30 + B3 / 30 + C1 / 40) / 6, rel=1e-12)


def test_fig5_rollout_mean() -> None:
    loss, mask, rollout, (A1, A2, B1, B2, B3, C1) = fig5_batch()
    got = aggregate_loss(loss, mask, rollout, "rollout-mean")
    assert float(got) == pytest.approx(((A1 + A2) / 150 + (B1 + B2 + B3) / 90 + C1 / 40) / 3, rel=1e-12)


def test_unknown_mode_is_a_config_error() -> None:
    loss, mask, rollout, _ = fig5_batch()
    with pytest.raises(ConfigError, match="loss_agg 'mean'"):
        aggregate_loss(loss, mask, rollout, "mean")  # type: ignore[arg-type]


def _split_rollout_batch(token_losses: list[list[float]], cuts: list[list[int]], prompt: int
                         ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Lay out each rollout's response tokens split into samples at `cuts`; returns (w, loss_fn inputs)."""
    rows, masks, ridx = [], [], []
    for r, (tokens, cut) in enumerate(zip(token_losses, cuts, strict=True)):
        bounds = [0, *sorted(set(c for c in cut if 0 < c < len(tokens))), len(tokens)]
        for a, b in itertools.pairwise(bounds):
            rows.append([0.0] * prompt + tokens[a:b])
            masks.append([0.0] * prompt + [1.0] * (b - a))
            ridx.append(r)
    T = max(len(x) for x in rows)
    loss = torch.tensor([x + [0.0] * (T - len(x)) for x in rows], dtype=torch.float64)
    mask = torch.tensor([x + [0.0] * (T - len(x)) for x in masks], dtype=torch.float64)
    return loss, mask, torch.tensor(ridx), torch.tensor([len(x) for x in rows])


rollout_tokens = st.lists(st.lists(st.floats(-3, 3, allow_nan=False), min_size=1, max_size=12), min_size=1,
                          max_size=4)


@settings(max_examples=80, deadline=None)
@given(tokens=rollout_tokens, data=st.data())
def test_rollout_mean_and_its_gradient_are_split_invariant(tokens: list[list[float]], data: st.DataObject) -> None:
    cuts = [data.draw(st.lists(st.integers(0, 12), max_size=4)) for _ in tokens]
    prompt = data.draw(st.integers(1, 3))
    whole_loss, whole_mask, whole_r, _ = _split_rollout_batch(tokens, [[] for _ in tokens], prompt)
    split_loss, split_mask, split_r, _ = _split_rollout_batch(tokens, cuts, prompt)
    whole_loss.requires_grad_(True)
    split_loss.requires_grad_(True)
    a = aggregate_loss(whole_loss, whole_mask, whole_r, "rollout-mean")
    b = aggregate_loss(split_loss, split_mask, split_r, "rollout-mean")
    assert float(a.detach()) == pytest.approx(float(b.detach()), rel=1e-9, abs=1e-12)
    a.backward()
    b.backward()
    # the gradient w.r.t. each response token's loss is the same wherever the token landed
    ga = whole_loss.grad[whole_mask > 0]
    gb = split_loss.grad[split_mask > 0]
    assert torch.allclose(ga, gb, rtol=1e-9, atol=1e-15)


def test_token_and_seq_mean_are_not_split_invariant() -> None:
    tokens = [[1.0, 2.0, 3.0, 4.0], [10.0]]
    l1, m1, r1, _ = _split_rollout_batch(tokens, [[], []], 1)
    l2, m2, r2, _ = _split_rollout_batch(tokens, [[1], []], 1)
    assert float(aggregate_loss(l1, m1, r1, "seq-mean-token-mean")) != pytest.approx(
        float(aggregate_loss(l2, m2, r2, "seq-mean-token-mean")))
    assert float(aggregate_loss(l1, m1, r1, "rollout-mean")) == pytest.approx(
        float(aggregate_loss(l2, m2, r2, "rollout-mean")))


@settings(max_examples=60, deadline=None)
@given(tokens=rollout_tokens, data=st.data(), mode=st.sampled_from(["token-mean", "seq-mean-token-mean",
                                                                      "rollout-mean"]))
def test_micro_batch_accumulation_equals_the_full_batch_gradient(
    tokens: list[list[float]], data: st.DataObject, mode: str
) -> None:
    cuts = [data.draw(st.lists(st.integers(0, 12), max_size=3)) for _ in tokens]
    loss, mask, ridx, _ = _split_rollout_batch(tokens, cuts, 2)
    B = loss.shape[0]
    sidx = torch.arange(B)
    # a tiny "model": token loss = w[t] * x, so gradients w.r.t. shared parameters accumulate
    w = torch.linspace(0.5, 1.5, loss.shape[1], dtype=torch.float64).requires_grad_(True)
    full = aggregate_loss(loss * w, mask, ridx, mode, sample_index=sidx)  # type: ignore[arg-type]
    (g_full,) = torch.autograd.grad(full, w)
    den = StepDenominators.from_batch(mask, ridx, sidx)
    perm = data.draw(st.permutations(list(range(B))))
    n_mb = data.draw(st.integers(1, B))
    chunks = [perm[i::n_mb] for i in range(n_mb)]
    total = torch.zeros((), dtype=torch.float64)
    g_acc = torch.zeros_like(w)
    for rows in chunks:
        if not rows:
            continue
        idx = torch.tensor(rows)
        part = aggregate_loss(loss[idx] * w, mask[idx], ridx[idx], mode, sample_index=sidx[idx],  # type: ignore[arg-type]
                              denominators=den)
        (g,) = torch.autograd.grad(part, w)
        g_acc += g
        total += part.detach()
    assert float(total) == pytest.approx(float(full.detach()), rel=1e-9, abs=1e-12)
    assert torch.allclose(g_acc, g_full, rtol=1e-9, atol=1e-12)


def test_packed_rows_with_per_token_indices_match_unpacked() -> None:
    loss, mask, rollout, _ = fig5_batch(seed=3)
    want = aggregate_loss(loss, mask, rollout, "rollout-mean")
    # pack all six samples into one row of flat tokens (per-token rollout and sample indices)
    sel = mask > 0
    flat_loss = loss[sel].unsqueeze(0)
    r_tok = rollout.unsqueeze(1).expand_as(mask)[sel].unsqueeze(0)
    s_tok = torch.arange(6).unsqueeze(1).expand_as(mask)[sel].unsqueeze(0)
    for mode in ("token-mean", "seq-mean-token-mean", "rollout-mean"):
        unpacked = aggregate_loss(loss, mask, rollout, mode)
        packed = aggregate_loss(flat_loss, torch.ones_like(flat_loss), r_tok, mode, sample_index=s_tok)
        assert float(packed) == pytest.approx(float(unpacked), rel=1e-12)
    assert float(want) == pytest.approx(float(aggregate_loss(flat_loss, torch.ones_like(flat_loss), r_tok,
                                                             "rollout-mean", sample_index=s_tok)))


def test_dis_example_from_sao() -> None:
    logp, rollout_logp = torch.tensor([math.log(0.3)]), torch.tensor([math.log(0.1)])
    ratio, keep = dis_mask(logp, rollout_logp, eps_low=0.8, eps_high=1.5)
    assert float(ratio) == pytest.approx(3.0, rel=1e-6)
    assert not bool(keep)  # 3.0 >= 1 + 1.5
    _, keep = dis_mask(logp, rollout_logp, eps_low=0.8, eps_high=2.5)
    assert bool(keep)  # 3.0 < 1 + 2.5
    # lower band: ratio 0.15 is outside (1 - 0.8, ...) = (0.2, ...), 0.25 is inside
    _, keep = dis_mask(torch.log(torch.tensor([0.015, 0.025])), torch.log(torch.tensor([0.1, 0.1])), 0.8, 3.0)
    assert keep.tolist() == [False, True]


def test_dis_loss_masks_the_gradient_outside_the_band() -> None:
    logp = torch.log(torch.tensor([0.3, 0.12])).requires_grad_(True)
    rollout_logp = torch.log(torch.tensor([0.1, 0.1]))
    adv = torch.tensor([1.0, 1.0])
    loss, keep = dis_policy_loss(logp, rollout_logp, adv, eps_low=0.8, eps_high=1.5)
    loss.sum().backward()
    assert keep.tolist() == [False, True]
    assert logp.grad[0] == 0.0  # masked token: no gradient at all
    assert float(logp.grad[1]) == pytest.approx(-1.2, rel=1e-5)  # -A * r * dlogp, r = 1.2


def test_ppo_clip_bounds_and_dual_clip() -> None:
    ratio = torch.tensor([0.5, 1.0, 1.5, 0.5, 1.5, 5.0])
    adv = torch.tensor([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    logp = torch.log(ratio).requires_grad_(True)
    loss, clipped = ppo_clip_loss(logp, torch.zeros(6), adv, clip_low=0.2, clip_high=0.28)
    # A>0: min(r, clip(r)) on the objective -> r=1.5 capped at 1.28; A<0: r=0.5 floored at 0.8
    assert loss.tolist() == pytest.approx([-0.5, -1.0, -1.28, 0.8, 1.5, 5.0])
    assert clipped.tolist() == [False, False, True, True, False, False]
    loss.sum().backward()
    assert logp.grad.tolist() == pytest.approx([-0.5, -1.0, 0.0, 0.0, 1.5, 5.0])
    dual, flagged = ppo_clip_loss(torch.log(ratio), torch.zeros(6), adv, 0.2, 0.28, clip_ratio_c=3.0)
    assert dual.tolist()[-1] == pytest.approx(3.0) and bool(flagged[-1])
