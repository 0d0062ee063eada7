"""verl's real workers on CPU: local Ray, FSDP2 over gloo on 2 ranks, swerl's registered losses (`cpu_platform`).

Nothing here is a stand-in: `VerlBackend.start()` builds verl's colocated worker group, its FSDP2
engine loads the model, `update()` runs verl's mini-batch iterator, dynamic micro-batching, packed
forward and swerl's loss function on each rank, and checkpoints are verl's sharded ones. The same
samples through `TorchBackend` (one process, no FSDP) give the reference: loss, grad norm, every
parameter's gradient and every metric the two backends both report must agree.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest
import torch
from verl_helpers import random_batch

pytestmark = pytest.mark.slow

REL = 1e-5


def _rel(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-12)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from swerl.config import load_recipe
    from swerl.models import build_tiny_model, build_tiny_tokenizer
    from swerl.train.advantage import compute_advantages
    from swerl.train.backends.torch import TorchBackend
    from swerl.train.backends.verl.backend import VerlBackend

    root = tmp_path_factory.mktemp("verl-cpu")
    tok = build_tiny_tokenizer(root / "tok-cache")
    model = build_tiny_model(tok, hidden_size=64, num_layers=2, num_heads=4, seed=1)
    model.save_pretrained(root / "model")
    tok.save_pretrained(root / "model")
    recipe = load_recipe("tiny", ["train.backend=verl", "train.device=cpu", "verl.nnodes=1", "verl.gpus_per_node=2",
                                  "verl.max_token_len_per_gpu=96", "verl.gradient_checkpointing=false",
                                  f"model.path={root / 'model'}", f"model.tokenizer={root / 'model'}",
                                  "train.rollouts_per_step=8", "train.lr=1e-4", "verl.max_ckpt_to_keep=2"])
    # split rollouts (up to 3 samples each) and a token budget that cuts several micro-batches per rank
    samples = random_batch(0, groups=2, per_group=4, max_samples=3, vocab=8000)
    adv = compute_advantages(samples)
    torch_backend = TorchBackend.from_recipe(copy.deepcopy(model), recipe,
                                 pad_token_id=tok.pad_token_id)
    torch_metrics = torch_backend.update(samples, adv)
    torch_grads = {n: p.grad.detach().clone() for n, p in torch_backend.policy.named_parameters()
                   if p.grad is not None}
    backend = VerlBackend(recipe, checkpoint_dir=str(root / "ckpt"), with_rollout=False).start()
    try:
        backend.actor_wg.capture_gradients(True)
        verl_metrics = backend.update(samples, adv)
        verl_grads = backend.actor_wg.captured_gradients()[0]
        yield {"backend": backend, "recipe": recipe, "samples": samples, "adv": adv, "root": root,
               "torch": (torch_metrics, torch_grads), "verl": (verl_metrics, verl_grads)}
    finally:
        backend.shutdown()


def test_two_fsdp2_ranks_on_gloo_from_a_public_query(run: Any) -> None:
    backend = run["backend"]
    infos = backend.actor_wg.parallel_info()
    assert [i["world_size"] for i in infos] == [2, 2] and sorted(i["dp_rank"] for i in infos) == [0, 1]
    assert backend.dp_size == 2
    assert os.environ["VERL_PLATFORM"] == "swerl_cpu"


def test_update_matches_the_torch_backend(run: Any) -> None:
    (tm, tg), (vm, vg) = run["torch"], run["verl"]
    assert vm["policy/updated"] == 1.0
    assert _rel(vm["policy/loss"], tm["policy/loss"]) < REL
    assert _rel(vm["policy/grad_norm"], tm["policy/grad_norm"]) < REL
    assert set(vg) == set(tg) and len(tg) > 10
    for name, g in tg.items():  # every parameter's gradient, gathered from the FSDP2 shards
        assert float((vg[name] - g).norm() / g.norm()) < REL, name
    shared = sorted(k for k in set(tm) & set(vm) if not k.startswith("time/"))
    # the same names have the same definitions (clip_frac, approx_kl, entropy: whole-step token means)
    assert {"policy/clip_frac", "policy/approx_kl", "policy/entropy", "policy/ratio_mean", "batch/tokens",
            "batch/response_tokens", "batch/rollouts", "policy/advantage_mean"} <= set(shared)
    for k in shared:
        assert _rel(vm[k], tm[k]) < REL, (k, vm[k], tm[k])
    assert 0 < tm["policy/clip_frac"] < 1  # the clip bites on some tokens, so the definition matters


def test_checkpoint_resume_reproduces_the_next_update_and_old_ones_are_pruned(run: Any) -> None:
    backend, samples, adv = run["backend"], run["samples"], run["adv"]
    first = backend.state_dict()
    assert Path(first["checkpoint"], "actor").is_dir() and first["step"] == 1
    after = backend.update(samples, adv)
    after_grads = backend.actor_wg.captured_gradients()[0]
    backend.load_state_dict(first)
    assert backend.step == 1
    again = backend.update(samples, adv)
    again_grads = backend.actor_wg.captured_gradients()[0]
    assert again["policy/loss"] == pytest.approx(after["policy/loss"], rel=1e-6)
    for name, g in after_grads.items():
        assert torch.allclose(again_grads[name], g, rtol=1e-5, atol=1e-9), name
    # the model moved between the two updates' starting points and the first update
    assert after["policy/loss"] != pytest.approx(run["verl"][0]["policy/loss"], rel=1e-9)
    for _ in range(2):
        backend.update(samples, adv)
        backend.state_dict()
    kept = sorted(p.name for p in (run["root"] / "ckpt").iterdir())
    assert kept == ["global_step_3", "global_step_4"]  # verl.max_ckpt_to_keep=2
