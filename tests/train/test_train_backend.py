"""The torch backend's update step on a tiny random-init Qwen2 model (CPU)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import torch
from backend_helpers import torch_backend
from synthetic_traces import TraceConfig, make_rollout_events

from swerl.config import load_recipe
from swerl.errors import DataError
from swerl.models import build_tiny_model, build_tiny_tokenizer
from swerl.train.advantage import compute_advantages
from swerl.train.assembly import assemble
from swerl.train.backends import TrainingBackend
from swerl.train.backends.torch import TorchBackend
from swerl.train.schema import Sample


def random_samples(n_rollouts: int = 4, per_rollout: int = 2, seed: int = 0, vocab: int = 8000) -> list[Sample]:
    rng = np.random.default_rng(seed)
    out = []
    for r in range(n_rollouts):
        for j in range(per_rollout):
            n = int(rng.integers(40, 120))
            mask = np.zeros(n, dtype=np.int8)
            mask[n // 3:n // 2] = 1
            mask[2 * n // 3:] = 1
            out.append(Sample(input_ids=rng.integers(0, vocab, n), loss_mask=mask, rollout_logprobs=np.zeros(n),
                              rollout_id=f"r{r}", group_id=f"g{r // 2}", sample_index=j, reward=float(r % 2)))
    return out


def on_policy(backend: TorchBackend, samples: list[Sample]) -> list[Sample]:
    """Set rollout log-probs to the current policy's (what an engine serving these weights would log)."""
    return [s.model_copy(update={"rollout_logprobs": lp}) for s, lp in
            zip(samples, backend.compute_logprobs(samples), strict=True)]


def test_packed_logprobs_equal_one_sample_at_a_time(tiny_tok: Any) -> None:
    model = build_tiny_model(tiny_tok, seed=1)
    samples = random_samples(3, 2)
    packed = torch_backend(model, micro_batch_tokens=1024).compute_logprobs(samples)
    for s, got in zip(samples, packed, strict=True):
        with torch.no_grad():
            logits = model(torch.from_numpy(s.input_ids).long().unsqueeze(0)).logits[0]
        want = torch.log_softmax(logits.float(), -1)[:-1].gather(-1, torch.from_numpy(s.input_ids[1:]).long()
                                                                 .unsqueeze(-1)).squeeze(-1).numpy()
        m = s.loss_mask[1:] > 0
        np.testing.assert_allclose(got[1:][m], want[m], atol=2e-5)
        assert np.all(got[s.loss_mask == 0] == 0)


def test_one_update_lowers_the_loss_on_a_fixed_batch(tiny_tok: Any) -> None:
    backend = torch_backend(build_tiny_model(tiny_tok, seed=0), lr=3e-3, micro_batch_tokens=256)
    assert isinstance(backend, TrainingBackend)
    samples = on_policy(backend, random_samples())
    adv = compute_advantages(samples)
    before = backend.policy_loss(samples, adv)
    metrics = backend.update(samples, adv)
    after = backend.policy_loss(samples, adv)
    assert after < before - 1e-3, (before, after)
    assert metrics["policy/loss"] == pytest.approx(before, abs=1e-6)  # on-policy: ratio 1, loss = -mean(A)
    assert metrics["policy/ratio_mean"] == pytest.approx(1.0, abs=1e-5) and metrics["policy/clip_frac"] == 0.0
    assert metrics["batch/micro_batches"] > 1 and metrics["batch/rollouts"] == 4
    assert metrics["batch/response_tokens"] == sum(s.num_response_tokens for s in samples)
    assert 0 < metrics["policy/entropy"] <= math.log(8192) + 1e-3
    assert metrics["policy/grad_norm"] > 0 and backend.step == 1


def test_a_batch_without_signal_leaves_the_policy_as_it_was(tiny_tok: Any) -> None:
    """All advantages 0 (every rollout of every group failed): no step. Adam would otherwise keep moving every
    weight by ~lr along the momentum of the last real step."""
    backend = torch_backend(build_tiny_model(tiny_tok, seed=0), lr=1e-3, micro_batch_tokens=256)
    samples = on_policy(backend, random_samples())
    assert backend.update(samples, compute_advantages(samples))["policy/updated"] == 1.0  # a real step first
    weights = [p.detach().clone() for p in backend.policy.parameters()]
    failed = [s.model_copy(update={"reward": 0.0}) for s in samples]
    metrics = backend.update(failed, compute_advantages(failed))
    assert metrics["policy/grad_norm"] == 0.0 and metrics["policy/steps_skipped"] == 1.0
    assert metrics["policy/updated"] == 0.0
    assert all(torch.equal(a, b) for a, b in zip(weights, backend.policy.parameters(), strict=True))


def test_micro_batches_accumulate_to_the_full_batch_gradient(tiny_tok: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    samples = random_samples(3, 3, seed=5)
    grads = []
    for budget in (100_000, 150):
        backend = torch_backend(build_tiny_model(tiny_tok, seed=2), micro_batch_tokens=budget, grad_clip=1e9, loss_agg="rollout-mean")
        monkeypatch.setattr(backend.optimizer, "step", lambda: None)
        fixed = on_policy(backend, samples)
        m = backend.update(fixed, compute_advantages(fixed))
        grads.append(({k: p.grad.clone() for k, p in backend.policy.named_parameters()}, m))
    (full, m_full), (micro, m_micro) = grads
    assert m_full["batch/micro_batches"] == 1 and m_micro["batch/micro_batches"] >= 3
    assert m_micro["policy/loss"] == pytest.approx(m_full["policy/loss"], abs=1e-6)
    for k in full:
        torch.testing.assert_close(micro[k], full[k], rtol=1e-4, atol=1e-7)


def test_dis_masks_tokens_outside_the_band(tiny_tok: Any) -> None:
    backend = torch_backend(build_tiny_model(tiny_tok), policy_loss="dis", dis_eps_high=3.0, lr=1e-2)
    samples = on_policy(backend, random_samples(2, 1))
    # logged rollout probabilities 5x smaller than now: r = 5 >= 1 + 3 everywhere -> every token masked
    far = [s.model_copy(update={"rollout_logprobs": np.where(s.loss_mask > 0, s.rollout_logprobs - math.log(5), 0)})
           for s in samples]
    before = {k: p.detach().clone() for k, p in backend.policy.named_parameters()}
    m = backend.update(far, [1.0, -1.0])
    assert m["policy/dis_masked_frac"] == 1.0 and m["policy/grad_norm"] == 0.0
    assert all(torch.equal(before[k], p) for k, p in backend.policy.named_parameters())
    m = backend.update(samples, [1.0, -1.0])  # r = 1 inside the band: trained
    assert m["policy/dis_masked_frac"] == 0.0 and m["policy/grad_norm"] > 0


def test_sao_critic_keeps_attention_frozen(tiny_tok: Any) -> None:
    cfg = dict(policy_loss="dis", name="sao", critic_updates=2, critic_warmup_steps=0,
                             value_lr=1e-2, lr=1e-3, gamma=1.0, lam=0.95)
    backend = torch_backend(build_tiny_model(tiny_tok, seed=4), **cfg)
    assert backend.critic is not None
    samples = on_policy(backend, random_samples(2, 2, seed=3))
    critic_before = {k: v.detach().clone() for k, v in backend.critic.state_dict().items()}
    policy_before = {k: p.detach().clone() for k, p in backend.policy.named_parameters()}
    m = backend.update(samples)
    after = backend.critic.state_dict()
    attention = [k for k in after if ".self_attn." in k]
    assert attention and all(torch.equal(critic_before[k], after[k]) for k in attention)
    frozen = [k for k in after if "embed_tokens" in k or "norm" in k]
    assert frozen and all(torch.equal(critic_before[k], after[k]) for k in frozen)
    mlp = [k for k in after if ".mlp." in k]
    assert any(not torch.equal(critic_before[k], after[k]) for k in mlp)  # K=2: MLPs move on the second update
    assert not torch.equal(critic_before["head.weight"], after["head.weight"])
    assert any(not torch.equal(policy_before[k], p) for k, p in backend.policy.named_parameters())
    assert m["critic/value_loss_last"] < m["critic/value_loss"]
    assert m["critic/explained_variance"] == pytest.approx(0.0, abs=1e-6)  # zero-initialised head: V = 0
    m2 = backend.update(samples)
    assert m2["critic/explained_variance"] > 0.0  # the critic learned something about the returns


def test_sao_warmup_trains_only_the_critic(tiny_tok: Any) -> None:
    cfg = dict(policy_loss="dis", name="sao", critic_warmup_steps=1, lr=1e-2)
    backend = torch_backend(build_tiny_model(tiny_tok), **cfg)
    # a rewarded rollout: with reward 0 and a zero-initialised value head every advantage is 0 (no step at all)
    samples = [s.model_copy(update={"reward": 1.0}) for s in on_policy(backend, random_samples(1, 2))]
    before = {k: p.detach().clone() for k, p in backend.policy.named_parameters()}
    m = backend.update(samples)
    assert m["policy/updated"] == 0.0 and "policy/loss" not in m
    assert all(torch.equal(before[k], p) for k, p in backend.policy.named_parameters())
    assert backend.update(samples)["policy/updated"] == 1.0
    with pytest.raises(DataError, match="critic"):
        backend.update(samples, [0.0, 0.0])


def test_update_on_assembled_tiny_bpe_traces(tiny_tok: Any) -> None:
    cfg = TraceConfig(turns_min=2, turns_max=3, obs_lines_max=3, task_paragraphs=1, drift_prob=0.5)
    events = []
    for r in range(4):
        events += make_rollout_events(tiny_tok, rollout_id=f"r{r}", group_id="g", seed=r, config=cfg,
                                      reward=float(r % 2))
    samples, stats = assemble(events, tokenizer=tiny_tok)
    assert stats.num_rollouts == 4
    backend = torch_backend(build_tiny_model(tiny_tok), lr=1e-3, micro_batch_tokens=2048)
    samples = on_policy(backend, samples)
    m = backend.update(samples, compute_advantages(samples))
    assert m["batch/samples"] == len(samples) and m["batch/response_tokens"] == stats.num_response_tokens


def test_checkpoint_round_trip_and_weights(tiny_tok: Any) -> None:
    cfg = dict(name="sao", policy_loss="dis", critic_warmup_steps=0, lr=1e-3)
    a = torch_backend(build_tiny_model(tiny_tok, seed=1), **cfg)
    samples = on_policy(a, random_samples(1, 2))
    a.update(samples)
    state = a.state_dict()
    b = torch_backend(build_tiny_model(tiny_tok, seed=9), **cfg)
    b.load_state_dict(state)
    assert b.step == 1
    wa, wb = a.policy_weights(), b.policy_weights()
    assert wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)
    ma, mb = a.update(samples), b.update(samples)  # identical state -> identical next step
    assert ma["policy/loss"] == pytest.approx(mb["policy/loss"], rel=1e-6)
    assert ma["critic/value_loss"] == pytest.approx(mb["critic/value_loss"], rel=1e-6)


def test_bad_inputs_are_data_errors(tiny_tok: Any) -> None:
    backend = TorchBackend(build_tiny_model(tiny_tok))
    samples = random_samples(1, 2)
    with pytest.raises(DataError, match="advantages: required"):
        backend.update(samples)
    with pytest.raises(DataError, match="got 1 values for 2 samples"):
        backend.update(samples, [1.0])
    bad = samples[0].model_copy(update={"loss_mask": np.ones(samples[0].num_tokens, dtype=np.int8)})
    with pytest.raises(DataError, match="loss_mask is 1 at position 0"):
        backend.update([bad], [1.0])
    huge = samples[0].model_copy(update={"input_ids": samples[0].input_ids + 100_000})
    with pytest.raises(DataError, match=r"input_ids has ids outside the model's vocabulary \[0, 8192\)"):
        backend.update([huge], [1.0])


def test_config_from_recipe() -> None:
    recipe = load_recipe("tiny", ["algorithm.name=sao", "algorithm.policy_loss=dis", "train.lr=1e-5"])
    backend = TorchBackend.from_recipe(build_tiny_model(build_tiny_tokenizer()), recipe)
    assert backend.critic is not None and backend.algo.policy_loss == "dis" and backend.algo.critic_updates == 2
    assert backend.optimizer.param_groups[0]["lr"] == 1e-5  # the recipe's train.lr reached the optimizer
    assert backend.row_tokens == recipe.model.max_context and backend.algo.loss_agg == "rollout-mean"
