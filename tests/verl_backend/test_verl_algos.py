"""swerl's estimator and policy losses registered in verl give swerl's core numbers (run in .venv-verl)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from verl.trainer.ppo.core_algos import (
    compute_grpo_outcome_advantage,
    get_adv_estimator_fn,
    get_policy_loss_fn,
)
from verl_helpers import make_sample, random_batch

from swerl.train.advantage import compute_advantages
from swerl.train.backends.verl.algos import (
    STEP_KEY,
    StepInfo,
    denominators_from_meta,
    denominators_to_meta,
)
from swerl.train.backends.verl.proto import rollout_layout, samples_to_dataproto
from swerl.train.losses import StepDenominators, aggregate_loss, dis_policy_loss, ppo_clip_loss

pytestmark = pytest.mark.slow


def _estimate(name: str, samples: list, *, std: bool = False, dp_size: int = 1) -> tuple[list[float], torch.Tensor]:
    """Run the registered estimator on the DataProto built from `samples`; return per-sample values."""
    dp = samples_to_dataproto(samples, rollout_layout(samples, dp_size))
    fn = get_adv_estimator_fn(name)
    adv, ret = fn(token_level_rewards=dp.batch["token_level_rewards"], response_mask=dp.batch["response_mask"],
                  index=dp.non_tensor_batch["uid"], rollout_index=dp.non_tensor_batch["rollout_id"],
                  config={"norm_adv_by_std_in_grpo": std})
    assert torch.equal(adv, ret)
    per_sample = [0.0] * len(samples)
    for k, sid in enumerate(dp.batch["swerl_sample_index"].tolist()):
        if sid >= 0:
            m = dp.batch["response_mask"][k].bool()
            assert torch.all(adv[k][m] == adv[k][m][0])  # one value per row, on action tokens only
            assert torch.all(adv[k][~m] == 0)
            per_sample[sid] = float(adv[k][m][0])
    return per_sample, adv


def test_fig4_rollout_level_baseline_is_one_half() -> None:
    # AL1 Fig. 4: rollout 1 (reward 1) split into 3 samples, rollout 2 (reward 0) one sample.
    samples = [make_sample("a", j, 8, [(3, 8)], reward=1.0, seed=j) for j in range(3)]
    samples.append(make_sample("b", 0, 8, [(3, 8)], reward=0.0, seed=9))
    ours, _ = _estimate("swerl_grpo", samples)
    assert ours == pytest.approx([0.5, 0.5, 0.5, -0.5])
    # verl's built-in GRPO counts rows, i.e. the sample-level ablation (baseline 3/4): this test can fail.
    dp = samples_to_dataproto(samples, rollout_layout(samples))
    builtin, _ = compute_grpo_outcome_advantage(dp.batch["token_level_rewards"], dp.batch["response_mask"],
                                                dp.non_tensor_batch["uid"], norm_adv_by_std_in_grpo=False)
    assert builtin[:, -1].max() != 0.5 and float(builtin[0][dp.batch["response_mask"][0].bool()][0]) in (0.25, -0.75)


@pytest.mark.parametrize(("name", "estimator"), [("swerl_grpo", "grpo"), ("swerl_rloo", "rloo")])
@pytest.mark.parametrize("std", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_estimator_equals_swerl_core(name: str, estimator: str, std: bool, seed: int) -> None:
    samples = random_batch(seed, groups=3, per_group=4)
    want = compute_advantages(samples, estimator, "rollout", std_normalize=std)  # type: ignore[arg-type]
    got, _ = _estimate(name, samples, std=std, dp_size=2)
    np.testing.assert_allclose(got, np.float32(want), rtol=0, atol=0)


def test_estimator_rejects_inconsistent_rollout_rewards() -> None:
    from swerl.errors import DataError

    samples = [make_sample("a", 0, 8, [(3, 8)], reward=1.0), make_sample("a", 1, 8, [(3, 8)], reward=0.0, seed=1)]
    dp = samples_to_dataproto(samples, rollout_layout(samples))
    with pytest.raises(DataError, match="different rewards"):
        get_adv_estimator_fn("swerl_grpo")(dp.batch["token_level_rewards"], dp.batch["response_mask"],
                                           dp.non_tensor_batch["uid"], rollout_index=dp.non_tensor_batch["rollout_id"])


class _Cfg:
    """The ActorConfig fields swerl's registered losses read."""

    def __init__(self, low: float, high: float) -> None:
        self.clip_ratio_low, self.clip_ratio_high = low, high
        self.global_batch_info: dict = {}


def _loss_inputs(seed: int, mode: str) -> tuple[dict[str, torch.Tensor], StepInfo]:
    samples = random_batch(seed, groups=2, per_group=3)
    adv = compute_advantages(samples)
    dp = samples_to_dataproto(samples, rollout_layout(samples), advantages=adv, loss_agg=mode)
    old = dp.batch["old_log_probs"]
    g = torch.Generator().manual_seed(seed)
    logp = old + 0.8 * torch.randn(old.shape, generator=g)  # ratios well outside any clip band
    den = denominators_from_meta(dp.meta_info["swerl_step"])
    step = StepInfo(mode, den, dp.batch["swerl_rollout_index"], dp.batch["swerl_sample_index"])
    return {"old": old, "logp": logp, "adv": dp.batch["advantages"], "mask": dp.batch["response_mask"].bool()}, step


@pytest.mark.parametrize("mode", ["token-mean", "seq-mean-token-mean", "rollout-mean"])
@pytest.mark.parametrize(("loss", "low", "high"), [("swerl_ppo", 0.2, 0.28), ("swerl_dis", 0.8, 3.0),
                                                   ("swerl_dis", 0.3, 0.5)])
def test_policy_loss_equals_swerl_core(mode: str, loss: str, low: float, high: float) -> None:
    x, step = _loss_inputs(3, mode)
    cfg = _Cfg(low, high)
    cfg.global_batch_info[STEP_KEY] = step
    got, metrics = get_policy_loss_fn(loss)(x["old"], x["logp"], x["adv"], x["mask"], "token-mean", cfg)
    if loss == "swerl_ppo":
        tok, flags = ppo_clip_loss(x["logp"], x["old"], x["adv"], low, high)
        frac_key = "actor/pg_clipfrac"
    else:
        tok, keep = dis_policy_loss(x["logp"], x["old"], x["adv"], low, high)
        flags, frac_key = ~keep, "actor/dis_masked_frac"
    want = aggregate_loss(tok, x["mask"], step.rollout_index, mode, sample_index=step.sample_index,  # type: ignore[arg-type]
                          denominators=step.denominators)
    assert torch.equal(got, want)  # identical numbers, not merely close
    assert metrics[frac_key] == pytest.approx(float(flags[x["mask"]].float().mean()))
    assert 0 < metrics[frac_key] < 1  # the band / clip is active on these inputs


def test_dis_masks_tokens_outside_the_band_from_the_gradient() -> None:
    # SAO example: rollout prob 0.1, current 0.3 -> r = 3: masked at eps_high 1.5 (band upper 2.5), kept at 2.5.
    old = torch.log(torch.tensor([[0.1, 0.1]]))
    for eps_high, kept in ((1.5, False), (2.5, True)):
        logp = torch.log(torch.tensor([[0.3, 0.1]])).requires_grad_(True)
        cfg = _Cfg(0.8, eps_high)
        loss, _ = get_policy_loss_fn("swerl_dis")(old, logp, torch.ones(1, 2), torch.ones(1, 2, dtype=torch.bool),
                                                  "token-mean", cfg)
        loss.backward()
        assert (logp.grad[0, 0] != 0).item() is kept and logp.grad[0, 1] != 0


@pytest.mark.parametrize("mode", ["token-mean", "seq-mean-token-mean", "rollout-mean"])
def test_micro_batches_and_ranks_add_up_to_the_full_step(mode: str) -> None:
    """Any row partition (ranks x micro-batches) with the step's denominators sums to the full-step loss."""
    x, step = _loss_inputs(5, mode)
    full_cfg = _Cfg(0.2, 0.28)
    full_cfg.global_batch_info[STEP_KEY] = step
    fn = get_policy_loss_fn("swerl_ppo")
    full, _ = fn(x["old"], x["logp"], x["adv"], x["mask"], "token-mean", full_cfg)
    perm = torch.randperm(x["old"].shape[0], generator=torch.Generator().manual_seed(0))
    dp_size, total = 2, torch.zeros(())
    for rank_rows in perm.chunk(dp_size):
        for rows in rank_rows.chunk(2):
            cfg = _Cfg(0.2, 0.28)
            cfg.global_batch_info[STEP_KEY] = StepInfo(mode, step.denominators, step.rollout_index[rows],
                                                       step.sample_index[rows], dp_size)
            part, _ = fn(x["old"][rows], x["logp"][rows], x["adv"][rows], x["mask"][rows], "token-mean", cfg)
            total = total + part / dp_size  # FSDP averages the ranks' gradients
    torch.testing.assert_close(total, full, rtol=1e-6, atol=1e-7)


def test_without_step_info_falls_back_to_verl_agg_loss() -> None:
    from verl.trainer.ppo.core_algos import agg_loss

    x, _ = _loss_inputs(7, "token-mean")
    cfg = _Cfg(0.2, 0.28)
    cfg.global_batch_info.update(dp_size=1, batch_num_tokens=int(x["mask"].sum()))
    got, _ = get_policy_loss_fn("swerl_ppo")(x["old"], x["logp"], x["adv"], x["mask"], "token-mean", cfg)
    tok, _ = ppo_clip_loss(x["logp"], x["old"], x["adv"], 0.2, 0.28)
    torch.testing.assert_close(got, agg_loss(tok, x["mask"], "token-mean", dp_size=1,
                                             batch_num_tokens=int(x["mask"].sum())))
    from swerl.errors import ConfigError

    with pytest.raises(ConfigError, match="rollout-mean"):
        get_policy_loss_fn("swerl_ppo")(x["old"], x["logp"], x["adv"], x["mask"], "rollout-mean", _Cfg(0.2, 0.28))


def test_denominators_survive_the_meta_round_trip() -> None:
    samples = random_batch(11)
    den, _ = StepDenominators.from_samples(samples)
    back = denominators_from_meta(denominators_to_meta(den))
    assert (back.num_tokens, back.num_samples, back.num_rollouts) == (den.num_tokens, den.num_samples,
                                                                       den.num_rollouts)
    assert torch.equal(back.rollout_tokens, den.rollout_tokens) and torch.equal(back.sample_tokens, den.sample_tokens)
