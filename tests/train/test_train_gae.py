"""Skip-observation GAE (docs/algorithms.md sec. 8) against hand computations."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from swerl.train.gae import rollout_gae, skip_observation_gae


def test_hand_computation_skips_observations() -> None:
    # tokens:  a0 a0 | o o | a1 | o | a2     (a = action, o = observation)
    mask = torch.tensor([1, 1, 0, 0, 1, 0, 1])
    values = torch.tensor([0.5, 0.4, 9.0, 9.0, 0.3, 9.0, 0.2])  # observation values must never be read
    rewards = torch.tensor([0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 1.0])  # observation rewards are ignored
    gamma, lam = 0.9, 0.8
    # action chain: v = [0.5, 0.4, 0.3, 0.2], r = [0, 0, 0, 1], next value after the last = 0
    d3 = 1.0 + gamma * 0.0 - 0.2
    d2 = 0.0 + gamma * 0.2 - 0.3  # the last token of a1 links to the first token of a2
    d1 = 0.0 + gamma * 0.3 - 0.4  # the last token of a0 links to the first token of a1, skipping o o
    d0 = 0.0 + gamma * 0.4 - 0.5
    a3 = d3
    a2 = d2 + gamma * lam * a3
    a1 = d1 + gamma * lam * a2
    a0 = d0 + gamma * lam * a1
    adv, ret = skip_observation_gae(rewards, values, mask, gamma, lam)
    assert adv.tolist() == pytest.approx([a0, a1, 0.0, 0.0, a2, 0.0, a3], abs=1e-6)
    assert ret.tolist() == pytest.approx([a0 + 0.5, a1 + 0.4, 0, 0, a2 + 0.3, 0, a3 + 0.2], abs=1e-6)


def test_gamma_lambda_one_is_reward_to_go_minus_value() -> None:
    mask = torch.tensor([0, 1, 1, 0, 1])
    values = torch.tensor([0.0, 0.1, 0.2, 0.0, 0.3])
    rewards = torch.tensor([0.0, 0.0, 0.0, 0.0, 1.0])
    adv, ret = skip_observation_gae(rewards, values, mask, 1.0, 1.0)
    assert adv.tolist() == pytest.approx([0.0, 0.9, 0.8, 0.0, 0.7])
    assert ret.tolist() == pytest.approx([0.0, 1.0, 1.0, 0.0, 1.0])
    adv0, _ = skip_observation_gae(rewards, values, mask, 1.0, 0.0)  # TD(0): delta only
    assert adv0.tolist() == pytest.approx([0.0, 0.2 - 0.1, 0.3 - 0.2, 0.0, 1.0 - 0.3])


def test_links_across_two_samples_of_one_rollout() -> None:
    # sample 0: p p a a o a     sample 1 (after a merge failure): p p p a a
    v0 = torch.tensor([0.0, 0.0, 0.6, 0.5, 0.0, 0.4])
    m0 = torch.tensor([0, 0, 1, 1, 0, 1])
    v1 = torch.tensor([0.0, 0.0, 0.0, 0.3, 0.2])
    m1 = torch.tensor([0, 0, 0, 1, 1])
    gamma, lam, reward = 0.95, 0.9, 1.0
    adv, ret = rollout_gae([v0, v1], [m0, m1], reward, gamma, lam)
    vs = [0.6, 0.5, 0.4, 0.3, 0.2]
    rs = [0, 0, 0, 0, reward]
    hand = [0.0] * 5
    acc = 0.0
    for k in range(4, -1, -1):
        nxt = vs[k + 1] if k < 4 else 0.0
        acc = rs[k] + gamma * nxt - vs[k] + gamma * lam * acc
        hand[k] = acc
    assert adv[0].tolist() == pytest.approx([0, 0, hand[0], hand[1], 0, hand[2]], abs=1e-6)
    assert adv[1].tolist() == pytest.approx([0, 0, 0, hand[3], hand[4]], abs=1e-6)
    # sample 0's last action token bootstraps from sample 1's first action token (V=0.3), not from 0
    assert adv[0][5].item() == pytest.approx(0 + gamma * 0.3 - 0.4 + gamma * lam * hand[3], abs=1e-6)
    assert ret[1][4].item() == pytest.approx(reward, abs=1e-6)


def test_no_action_tokens() -> None:
    adv, ret = skip_observation_gae(torch.zeros(3), torch.ones(3), torch.zeros(3), 0.9, 0.9)
    assert adv.tolist() == [0.0, 0.0, 0.0] and ret.tolist() == [0.0, 0.0, 0.0]


@settings(max_examples=50, deadline=None)
@given(n=st.integers(1, 40), gamma=st.floats(0.5, 1.0), lam=st.floats(0.0, 1.0), seed=st.integers(0, 1000))
def test_matches_plain_gae_on_the_action_subsequence(n: int, gamma: float, lam: float, seed: int) -> None:
    g = torch.Generator().manual_seed(seed)
    mask = (torch.rand(n, generator=g) > 0.4).long()
    values = torch.randn(n, generator=g, dtype=torch.float64)
    rewards = torch.randn(n, generator=g, dtype=torch.float64) * mask
    adv, _ = skip_observation_gae(rewards, values, mask, gamma, lam)
    # plain GAE on the compressed sequence, written out the textbook way
    idx = mask.nonzero().squeeze(-1).tolist()
    plain = [0.0] * len(idx)
    last = 0.0
    for k in reversed(range(len(idx))):
        nv = values[idx[k + 1]].item() if k + 1 < len(idx) else 0.0
        last = rewards[idx[k]].item() + gamma * nv - values[idx[k]].item() + gamma * lam * last
        plain[k] = last
    assert adv[idx].tolist() == pytest.approx(plain, rel=1e-9, abs=1e-9)
    assert adv[mask == 0].abs().sum().item() == 0.0
