"""SAO on verl's real workers on CPU: the frozen-attention critic engine beside the FSDP2 actor (`cpu_platform`).

`tiny-verl` with `algorithm.name: sao`: critic values (forward) -> linked GAE on the driver -> warm-up
update (critic only), then policy + K critic epochs; every metric both backends report agrees with
`TorchBackend` on the same samples to 1e-5 relative, over three updates (so after AdamW steps of both
models). The logged log-probs are the policy's own plus noise, so DIS masks some tokens, not all of them, and a
critic learning rate of 1e-3 moves the values away from the zero-initialised head.
"""

from __future__ import annotations

from typing import Any

import pytest
from verl_helpers import random_batch, with_policy_logprobs

pytestmark = pytest.mark.slow

REL = 1e-5


def test_sao_critic_warms_up_then_both_train_like_the_torch_backend(tmp_path: Any) -> None:
    from swerl.config import load_recipe
    from swerl.models import build_tiny_model, load_tokenizer
    from swerl.train.backends.torch import TorchBackend
    from swerl.train.backends.verl.backend import VerlBackend

    recipe = load_recipe("tiny-verl", ["algorithm.name=sao", "algorithm.policy_loss=dis", "rollout.n_per_task=1",
                                       "algorithm.critic_warmup_steps=1", "algorithm.value_lr=1e-3",
                                       "verl.max_token_len_per_gpu=96"])
    m = recipe.model
    tok = load_tokenizer(m.tokenizer, vocab_size=m.vocab_size)
    model = build_tiny_model(tok, hidden_size=m.hidden_size, num_layers=m.num_layers, num_heads=m.num_heads,
                             seed=recipe.train.seed, max_position_embeddings=max(m.max_context, 512))
    samples = with_policy_logprobs(random_batch(0, groups=8, per_group=1, max_samples=3, vocab=8000), model,
                                   noise=1.0)
    ref = TorchBackend.from_recipe(model, recipe, pad_token_id=tok.pad_token_id)
    want = [ref.update(samples, None) for _ in range(3)]
    backend = VerlBackend(recipe, checkpoint_dir=str(tmp_path / "ckpt"), with_rollout=False).start()
    try:
        got = [backend.update(samples, None) for _ in range(3)]
        state = backend.state_dict()
    finally:
        backend.shutdown()
    assert [g["policy/updated"] for g in got] == [0.0, 1.0, 1.0]  # one warm-up update: the critic alone
    assert (tmp_path / "ckpt" / "global_step_3" / "critic").is_dir() and state["step"] == 3
    assert got[2]["critic/explained_variance"] > 0.05 and got[2]["critic/value_mean"] > 0.01  # the critic learned
    assert 0 < want[1]["policy/dis_masked_frac"] < 0.5 and want[1]["policy/loss"] != 0.0  # DIS masks some tokens
    critic = {"critic/value_loss", "critic/value_loss_last", "critic/grad_norm", "critic/explained_variance",
              "critic/value_mean", "policy/advantage_mean", "batch/tokens", "batch/response_tokens"}
    policy = {"policy/dis_masked_frac", "policy/approx_kl", "policy/entropy", "policy/ratio_mean", "policy/loss",
              "policy/grad_norm"}
    for i, (w, g) in enumerate(zip(want, got, strict=True)):
        shared = {k for k in set(w) & set(g) if not k.startswith(("time/", "perf/"))}
        assert critic <= shared and (i == 0 or policy <= shared), sorted(shared)
        for k in shared:
            assert g[k] == pytest.approx(w[k], rel=REL, abs=1e-9), (i, k, g[k], w[k])
