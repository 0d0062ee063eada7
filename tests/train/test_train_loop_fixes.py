"""Small algorithm fixes, each shown on the real code path: denominators, dual-clip from the recipe, SAO warm-up
counted in updates without a policy-version bump."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from train_helpers import make_sample

from swerl.config import load_recipe
from swerl.train.losses import StepDenominators, aggregate_loss


def test_zero_response_token_rollouts_leave_the_rollout_mean_denominator() -> None:
    mask = torch.tensor([[1, 1, 0, 0], [0, 0, 0, 0]])
    ones = torch.ones(2, 4)
    rollout = torch.tensor([0, 1])
    assert float(aggregate_loss(ones, mask, rollout, "rollout-mean")) == pytest.approx(1.0)  # was 0.5
    assert float(aggregate_loss(ones, mask, rollout, "seq-mean-token-mean")) == pytest.approx(1.0)
    samples = [make_sample("a", 0, 8, [(2, 6)]), make_sample("b", 0, 8, []), make_sample("c", 0, 8, [(1, 3)])]
    den, idx = StepDenominators.from_samples(samples)
    assert (den.num_rollouts, den.num_samples, den.num_tokens) == (2, 2, 6)
    m = torch.stack([torch.as_tensor(s.loss_mask) for s in samples])
    loss = aggregate_loss(torch.ones(3, 8), m, torch.tensor(idx), "rollout-mean", denominators=den)
    assert float(loss) == pytest.approx(1.0)


def test_dual_clip_comes_from_the_recipe() -> None:
    from swerl.models import build_tiny_model, build_tiny_tokenizer
    from swerl.train.backends.torch import TorchBackend

    def clip_c(*sets: str) -> float | None:
        return TorchBackend.from_recipe(build_tiny_model(build_tiny_tokenizer()), load_recipe("tiny", list(sets))).algo.clip_ratio_c

    assert clip_c() == 3.0  # verl's default
    assert clip_c("algorithm.clip_ratio_c=5") == 5.0
    assert clip_c("algorithm.clip_ratio_c=null") is None
    from swerl.errors import ConfigError

    with pytest.raises(ConfigError, match="clip_ratio_c"):
        load_recipe("tiny", ["algorithm.clip_ratio_c=0.5"])  # must exceed 1


@pytest.fixture
def _shared_tokenizer_cache(tok_cache: Path, tiny_tok: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWERL_CACHE_DIR", str(tok_cache.parent))


@pytest.mark.usefixtures("_shared_tokenizer_cache")
def test_sao_warmup_counts_updates_and_does_not_bump_the_policy_version(tmp_path: Path) -> None:
    from swerl.train.loop import train
    from swerl.train.loop.metrics import read_metrics

    r = load_recipe("toy-sao", ["train.steps=3", "train.rollouts_per_step=8", "rollout.concurrency=8",
                                "train.mini_batches=2", "algorithm.critic_warmup_steps=2", "train.val_every=0",
                                "train.tensorboard=false"])
    train(r, tmp_path / "run")
    lines = read_metrics(tmp_path / "run" / "metrics.jsonl")
    assert [ln["policy/updated"] for ln in lines] == [0.0, 0.0, 1.0]  # two whole updates, two optimizer steps each
    assert [ln["train/optimizer_steps"] for ln in lines] == [2.0, 2.0, 2.0]
    assert [ln["policy_version"] for ln in lines] == [0, 0, 1]  # warm-up changed nothing: same version
