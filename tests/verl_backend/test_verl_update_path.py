"""The worker-side update path on CPU: verl's batching + swerl's loss functions give TorchBackend's gradient.

The engine's forward step is re-enacted here with the same verl utilities it calls
(chunking per rank, mini-batch iterator, token-budget micro-batches, no-padding log-probs,
`no_padding_2_padding`) around a tiny Hugging Face model, which isolates each loss mode;
FSDP's gradient averaging over ranks is a division by dp_size. The real FSDP2 engine on
CPU is `test_verl_cpu_run.py`.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch
from backend_helpers import torch_backend
from verl.utils import tensordict_utils as tu
from verl.workers.engine.utils import prepare_micro_batches
from verl_helpers import engine_backward, random_batch

from swerl.config import load_recipe
from swerl.train.advantage import compute_advantages
from swerl.train.backends.verl.algos import dual_clip
from swerl.train.backends.verl.critic import freeze_attention, is_critic_trainable
from swerl.train.backends.verl.loss_fns import swerl_actor_loss, swerl_value_loss
from swerl.train.backends.verl.proto import (
    rollout_layout,
    rows_gae,
    samples_to_dataproto,
    to_worker_tensordict,
)
from swerl.train.backends.verl.verl_config import actor_config, build_verl_config
from swerl.train.gae import rollout_gae
from swerl.train.losses import StepDenominators, aggregate_loss

pytestmark = pytest.mark.slow
VOCAB = 96
torch.set_num_threads(2)


@pytest.fixture(scope="module")
def tiny_model() -> torch.nn.Module:
    from transformers import Qwen2Config, Qwen2ForCausalLM

    cfg = Qwen2Config(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                      tie_word_embeddings=False, attn_implementation="sdpa")
    torch.manual_seed(0)
    return Qwen2ForCausalLM(cfg).float()


@pytest.fixture(scope="module")
def actor_cfgs() -> dict[str, object]:
    """Real verl FSDPActorConfig objects composed from recipes (Hydra, verl's validation)."""
    out = {}
    for loss, sets in (("ppo", []), ("dis", ["algorithm.policy_loss=dis", "algorithm.dis_eps_low=0.3",
                                             "algorithm.dis_eps_high=0.5"])):
        out[loss] = actor_config(build_verl_config(load_recipe("qwen9b", sets), model_path="/nonexistent"))
    return out


@pytest.mark.parametrize(("mode", "loss", "dp_size"), [("rollout-mean", "ppo", 2), ("token-mean", "ppo", 2),
                                                       ("seq-mean-token-mean", "ppo", 1),
                                                       ("rollout-mean", "dis", 3)])
def test_policy_gradient_matches_torch_backend(tiny_model: torch.nn.Module, actor_cfgs: dict, mode: str, loss: str,
                                               dp_size: int) -> None:
    samples = random_batch(21, groups=2, per_group=3, vocab=VOCAB, max_len=30)
    # a stale behaviour policy: logged log-probs far from the model's, so clips / DIS masks are active
    rng = np.random.default_rng(0)
    for s in samples:
        s.rollout_logprobs[:] = np.where(s.loss_mask > 0, -4.6 - rng.random(s.num_tokens) * 2, 0.0)
    adv = compute_advantages(samples)
    cfg = actor_cfgs[loss]
    tb_cfg = dict(policy_loss=loss, loss_agg=mode, clip_low=cfg.clip_ratio_low,  # type: ignore[arg-type]
                                clip_high=cfg.clip_ratio_high, dis_eps_low=cfg.clip_ratio_low,
                                dis_eps_high=cfg.clip_ratio_high, lr=0.0, grad_clip=1e9, micro_batch_tokens=64,
                                compute_entropy=False, clip_ratio_c=dual_clip(cfg))  # the recipe's dual-clip
    ref = torch_backend(copy.deepcopy(tiny_model), **tb_cfg)
    want_loss = ref.policy_loss(samples, adv)
    metrics = ref.update(samples, adv)
    assert 0 < metrics["policy/clip_frac" if loss == "ppo" else "policy/dis_masked_frac"] < 1

    model = copy.deepcopy(tiny_model)
    model.zero_grad(set_to_none=True)
    dp = samples_to_dataproto(samples, rollout_layout(samples, dp_size), advantages=adv, loss_agg=mode)
    got_loss = engine_backward(model, to_worker_tensordict(dp), dp_size, swerl_actor_loss, cfg)
    assert got_loss == pytest.approx(want_loss, rel=1e-5, abs=1e-7)
    for (name, p), q in zip(model.named_parameters(), ref.policy.parameters(), strict=True):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-7, msg=name)


def test_value_loss_micro_batches_sum_to_the_full_step() -> None:
    samples = random_batch(5, groups=2, per_group=3, vocab=VOCAB)
    dp = samples_to_dataproto(samples, rollout_layout(samples, 2))
    g = torch.Generator().manual_seed(0)
    mask = dp.batch["response_mask"].bool()
    dp.batch["returns"] = torch.randn(mask.shape, generator=g) * mask
    values_full = torch.randn(mask.shape, generator=g)
    den, _ = StepDenominators.from_samples(samples)
    want = aggregate_loss(0.5 * (values_full - dp.batch["returns"]) ** 2, mask, dp.batch["swerl_rollout_index"],
                          "rollout-mean", sample_index=dp.batch["swerl_sample_index"], denominators=den)
    td = to_worker_tensordict(dp)
    row_of = {sid: k for k, sid in enumerate(dp.batch["swerl_sample_index"].tolist()) if sid >= 0}
    P = dp.batch["prompts"].shape[1]
    total, n_micro = 0.0, 0
    for rank_td in tu.chunk_tensordict(td, 2):
        tu.assign_non_tensor(rank_td, use_dynamic_bsz=True, max_token_len_per_gpu=48, dp_size=2)
        micro, _ = prepare_micro_batches(rank_td)
        for m in micro:
            per_seq = []  # the value model's per-position output; verl reads V(token t) at position t-1
            for sid, n in zip(m["swerl_sample_index"].tolist(), m["input_ids"].offsets().diff().tolist(), strict=True):
                v = torch.zeros(n)
                if sid >= 0:
                    resp_len = int(dp.batch["attention_mask"][row_of[sid], P:].sum())
                    v[n - resp_len - 1:n - 1] = values_full[row_of[sid], :resp_len]
                per_seq.append(v)
            values = torch.nested.nested_tensor_from_jagged(torch.cat(per_seq), m["input_ids"].offsets())
            loss, _ = swerl_value_loss(None, {"values": values}, m)
            total += float(loss) / 2  # FSDP averages the two ranks
            n_micro += 1
    assert n_micro > 2
    assert total == pytest.approx(float(want), rel=1e-5)


def test_rows_gae_links_a_rollouts_rows_like_the_torch_backend() -> None:
    samples = random_batch(4, groups=2, per_group=2, max_samples=3, vocab=VOCAB)
    dp = samples_to_dataproto(samples, rollout_layout(samples, 2))
    g = torch.Generator().manual_seed(1)
    per_sample = [torch.randn(s.num_tokens, generator=g) for s in samples]
    P = dp.batch["prompts"].shape[1]
    values = torch.zeros(dp.batch["response_mask"].shape)
    for k, sid in enumerate(dp.batch["swerl_sample_index"].tolist()):
        if sid >= 0:
            n_resp = int(dp.batch["attention_mask"][k, P:].sum())
            values[k, :n_resp] = per_sample[sid][samples[sid].num_tokens - n_resp:]
    adv, ret = rows_gae(values, dp, gamma=0.9, lam=0.8)
    by_rollout: dict[str, list[int]] = {}
    for i, s in enumerate(samples):
        by_rollout.setdefault(s.rollout_id, []).append(i)
    linked = 0
    for ids in by_rollout.values():
        ids.sort(key=lambda i: samples[i].sample_index)
        a, r = rollout_gae([per_sample[i] for i in ids], [torch.from_numpy(samples[i].loss_mask) for i in ids],
                           float(samples[ids[0]].reward), 0.9, 0.8)
        linked += len(ids) > 1
        for i, ai, ri in zip(ids, a, r, strict=True):
            k = dp.batch["swerl_sample_index"].tolist().index(i)
            n_resp = int(dp.batch["attention_mask"][k, P:].sum())
            torch.testing.assert_close(adv[k, :n_resp], ai[-n_resp:].float())
            torch.testing.assert_close(ret[k, :n_resp], ri[-n_resp:].float())
    assert linked > 0  # some rollouts were split, so the cross-sample link was exercised


def test_frozen_attention_matches_the_torch_backend_critic(tiny_model: torch.nn.Module) -> None:
    from transformers import Qwen2ForTokenClassification

    from swerl.train.backends.critic import ValueModel

    cfg = copy.deepcopy(tiny_model.config)
    cfg.num_labels = 1
    critic = Qwen2ForTokenClassification(cfg)
    frozen = freeze_attention(critic)
    trainable = {n for n, p in critic.named_parameters() if p.requires_grad}
    assert trainable and all(".mlp." in n or n.startswith("score.") for n in trainable)
    assert any("self_attn" in n for n in frozen) and any("embed_tokens" in n for n in frozen)
    assert torch.count_nonzero(critic.score.weight) == 0  # V = 0 at step 0, as swerl's ValueModel
    # same split as the torch backend's critic, parameter by parameter of the decoder
    ours = {n.removeprefix("model.") for n in trainable if not n.startswith("score.")}
    ref = ValueModel(tiny_model)
    theirs = {n.removeprefix("base.") for n, p in ref.named_parameters() if p.requires_grad and n.startswith("base.")}
    assert ours == theirs
    assert not is_critic_trainable("model.layers.0.linear_attn.in_proj_qkvz.weight")  # Qwen3.5 linear attention


@pytest.mark.parametrize(("correction", "recompute", "mode", "dp_size"), [("tis", True, "rollout-mean", 2),
                                                                        ("mis", False, "rollout-mean", 3),
                                                                        ("tis", False, "token-mean", 1),
                                                                        ("none", True, "seq-mean-token-mean", 2)])
def test_rollout_correction_matches_torch_backend(tiny_model: torch.nn.Module, actor_cfgs: dict, correction: str,
                                                  recompute: bool, mode: str, dp_size: int) -> None:
    """docs/algorithms.md sec. 4 through verl's micro-batching: the loss, every gradient and the mismatch sums
    equal `TorchBackend`'s, with pi_old recomputed (decoupled) or not (bypass), and the asymmetric advantage."""
    from verl_helpers import with_policy_logprobs

    from swerl.train.backends.verl.loss_fns import MISMATCH_PREFIX
    from swerl.train.losses import add_mismatch_sums, mismatch_metrics

    samples = with_policy_logprobs(random_batch(22, groups=2, per_group=3, vocab=VOCAB, max_len=30), tiny_model,
                                   noise=0.4)
    adv = compute_advantages(samples, negative_scale=0.1)
    cfg = actor_cfgs["ppo"]
    tb_cfg = dict(loss_agg=mode, clip_low=cfg.clip_ratio_low, clip_high=cfg.clip_ratio_high,  # type: ignore[arg-type]
                                lr=0.0, grad_clip=1e9, micro_batch_tokens=64, compute_entropy=False,
                                clip_ratio_c=dual_clip(cfg), rollout_correction=correction,  # type: ignore[arg-type]
                                rollout_correction_threshold=1.4)
    ref = torch_backend(copy.deepcopy(tiny_model), **tb_cfg)
    if recompute:  # pi_old from the trainer, then shifted so the clip's ratio differs from 1 as after a step
        for s, lp in zip(samples, ref.compute_logprobs(samples), strict=True):
            s.old_logprobs = np.where(s.loss_mask > 0, lp - 0.05, 0.0).astype(np.float32)
    want_loss = ref.policy_loss(samples, adv)
    metrics = ref.update(samples, adv)
    if correction != "none":
        assert 0 < metrics["mismatch/masked_frac"] < 1

    model = copy.deepcopy(tiny_model)
    model.zero_grad(set_to_none=True)
    dp = samples_to_dataproto(samples, rollout_layout(samples, dp_size), advantages=adv, loss_agg=mode,
                              correction=correction, threshold=1.4)
    seen: list[dict] = []
    got_loss = engine_backward(model, to_worker_tensordict(dp), dp_size, swerl_actor_loss, cfg, metrics=seen)
    assert got_loss == pytest.approx(want_loss, rel=1e-5, abs=1e-7)
    for (name, p), q in zip(model.named_parameters(), ref.policy.parameters(), strict=True):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-7, msg=name)
    sums: dict[str, float] = {}
    for m in seen:
        add_mismatch_sums(sums, {k.removeprefix(MISMATCH_PREFIX): float(v.aggregate()) for k, v in m.items()
                                 if k.startswith(MISMATCH_PREFIX)})
    for k, v in mismatch_metrics(sums).items():
        assert v == pytest.approx(metrics[k], rel=1e-5, abs=1e-7), k
