"""SAO on verl's real workers on CPU: the frozen-attention critic engine beside the FSDP2 actor (`cpu_platform`).

`tiny-verl` with `algorithm.name: sao`: critic values (forward) -> linked GAE on the driver -> warm-up
update (critic only), then policy + K critic epochs; numbers against `TorchBackend` on the same samples.
"""

from __future__ import annotations

from typing import Any

import pytest
from verl_helpers import random_batch

pytestmark = pytest.mark.slow


def test_sao_critic_warms_up_then_both_train_like_the_torch_backend(tmp_path: Any) -> None:
    from swerl.config import load_recipe
    from swerl.models import build_tiny_model, load_tokenizer
    from swerl.train.backends.torch import TorchBackend, TorchBackendConfig
    from swerl.train.backends.verl.backend import VerlBackend

    recipe = load_recipe("tiny-verl", ["algorithm.name=sao", "algorithm.policy_loss=dis", "rollout.n_per_task=1",
                                       "algorithm.critic_warmup_steps=1", "verl.max_token_len_per_gpu=96"])
    samples = random_batch(0, groups=8, per_group=1, max_samples=3, vocab=8000)
    m = recipe.model
    tok = load_tokenizer(m.tokenizer, vocab_size=m.vocab_size)
    model = build_tiny_model(tok, hidden_size=m.hidden_size, num_layers=m.num_layers, num_heads=m.num_heads,
                             seed=recipe.train.seed, max_position_embeddings=max(m.max_context, 512))
    ref = TorchBackend(model, TorchBackendConfig.from_recipe(recipe), pad_token_id=tok.pad_token_id)
    want = [ref.update(samples, None), ref.update(samples, None)]
    backend = VerlBackend(recipe, checkpoint_dir=str(tmp_path / "ckpt"), with_rollout=False).start()
    try:
        got = [backend.update(samples, None), backend.update(samples, None)]
        state = backend.state_dict()
    finally:
        backend.shutdown()
    assert [g["policy/updated"] for g in got] == [0.0, 1.0]  # one warm-up update: the critic alone
    assert (tmp_path / "ckpt" / "global_step_2" / "critic").is_dir() and state["step"] == 2
    for w, g in zip(want, got, strict=True):
        for k in ("critic/value_loss", "critic/value_loss_last", "critic/grad_norm", "critic/explained_variance",
                  "policy/advantage_mean", "batch/tokens", "batch/response_tokens"):
            assert g[k] == pytest.approx(w[k], rel=1e-3, abs=1e-6), k
    for k in ("policy/dis_masked_frac", "policy/approx_kl", "policy/entropy", "policy/ratio_mean", "policy/loss"):
        assert got[1][k] == pytest.approx(want[1][k], rel=1e-5, abs=1e-9), k
