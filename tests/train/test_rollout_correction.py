"""Rollout correction (docs/algorithms.md sec. 4): the weights on worked numbers, and what `TorchBackend` does
with them. The verl backend's parity on the same rules is tests/verl_backend/test_verl_update_path.py."""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest
import torch
from backend_helpers import torch_backend
from train_helpers import make_sample

from swerl.train.backends.torch import TorchBackend
from swerl.train.loop.update import recompute_old_logprobs
from swerl.train.losses import mismatch_metrics, mismatch_sums, rollout_correction_weights


def test_weights_on_the_worked_numbers() -> None:
    """sec. 4 rollout-correction example: rho = 3, 1 and 0.4 against C = 2."""
    behaviour = torch.log(torch.tensor([0.1, 0.5, 0.5]))
    ref = torch.log(torch.tensor([0.3, 0.5, 0.2]))  # rho = 3, 1, 0.4
    w, changed = rollout_correction_weights(ref, behaviour, "tis", 2.0, decoupled=True)
    assert torch.allclose(w, torch.tensor([2.0, 1.0, 0.4])) and changed.tolist() == [True, False, False]
    w, _ = rollout_correction_weights(ref, behaviour, "tis", 2.0, decoupled=False)
    assert torch.allclose(w, torch.tensor([2 / 3, 1.0, 1.0]))  # the loss's ratio already holds rho
    w, changed = rollout_correction_weights(ref, behaviour, "mis", 2.0, decoupled=True)
    assert torch.allclose(w, torch.tensor([0.0, 1.0, 0.0])) and changed.tolist() == [True, False, True]
    w, changed = rollout_correction_weights(ref, behaviour, "mis", 2.0, decoupled=False)
    assert torch.allclose(w, torch.tensor([0.0, 1.0, 0.0]))
    w, changed = rollout_correction_weights(ref, behaviour, "none", 2.0, decoupled=True)
    assert torch.equal(w, torch.ones(3)) and not changed.any()
    m = mismatch_metrics(mismatch_sums(ref, behaviour, changed=torch.tensor([True, False, True])))
    assert m["mismatch/kl"] == pytest.approx(-(math.log(3) + math.log(0.4)) / 3)
    assert m["mismatch/ratio_mean"] == pytest.approx((3 + 1 + 0.4) / 3)
    assert m["mismatch/max_abs_logprob_diff"] == pytest.approx(math.log(3))
    assert m["mismatch/masked_frac"] == pytest.approx(2 / 3)


def test_weights_carry_no_gradient_and_bound_huge_ratios() -> None:
    ref = torch.tensor([0.0, 50.0], requires_grad=True)
    w, changed = rollout_correction_weights(ref, torch.zeros(2), "tis", 2.0, decoupled=False)
    assert not w.requires_grad and torch.isfinite(w).all() and changed.tolist() == [False, True]


@pytest.fixture(scope="module")
def model(tiny_tok: Any) -> torch.nn.Module:
    from swerl.models import build_tiny_model

    return build_tiny_model(tiny_tok, hidden_size=32, num_layers=1, num_heads=2, seed=3)


def _samples(model: torch.nn.Module, shift: float) -> list[Any]:
    """Two groups of two rollouts whose logged log-probs are the model's own minus `shift` (rho = e^shift)."""
    out = [make_sample(f"r{g}{k}", 0, 24, [(4, 12), (16, 24)], group_id=f"g{g}", reward=float(k), seed=7 * g + k,
                       vocab=model.config.vocab_size) for g in range(2) for k in range(2)]
    for s, lp in zip(out, TorchBackend(copy.deepcopy(model)).compute_logprobs(out), strict=True):
        s.rollout_logprobs[:] = np.where(s.loss_mask > 0, lp - shift, 0.0)
    return out


def _update(model: torch.nn.Module, samples: list[Any], mode: str, c: float, *, recompute: bool) -> dict[str, float]:
    backend = torch_backend(copy.deepcopy(model), lr=1e-3, grad_clip=1e9, rollout_correction=mode,
                            rollout_correction_threshold=c, compute_entropy=False)
    samples = copy.deepcopy(samples)
    if recompute:
        recompute_old_logprobs(backend, samples)
    return backend.update(samples, [0.5, -0.5, 0.5, -0.5])


def test_decoupled_tis_scales_the_loss_by_the_truncated_weight(model: torch.nn.Module) -> None:
    """Every token has rho = e^0.5 ~ 1.65 against the recomputed pi_old: with C = 1.2 TIS weighs each by 1.2,
    so the loss and its gradient are 1.2 x those of no correction; the clip sees ratio 1 (pi_theta = pi_old)."""
    samples = _samples(model, 0.5)
    plain = _update(model, samples, "none", 1.2, recompute=True)
    tis = _update(model, samples, "tis", 1.2, recompute=True)
    assert plain["policy/approx_kl"] == 0.0 and plain["policy/clip_frac"] == 0.0  # ratio exactly 1 at step 1
    assert tis["policy/loss"] == pytest.approx(1.2 * plain["policy/loss"], rel=1e-5)
    assert tis["policy/grad_norm"] == pytest.approx(1.2 * plain["policy/grad_norm"], rel=1e-5)
    assert tis["mismatch/masked_frac"] == 1.0 and plain["mismatch/masked_frac"] == 0.0
    for m in (plain, tis):
        assert m["mismatch/kl"] == pytest.approx(-0.5, abs=1e-5)
        assert m["mismatch/ratio_mean"] == pytest.approx(math.exp(0.5), rel=1e-5)
        assert m["mismatch/max_abs_logprob_diff"] == pytest.approx(0.5, abs=1e-5)


def test_bypass_measures_the_same_mismatch_without_recompute(model: torch.nn.Module) -> None:
    """Without recompute the clip's ratio holds the mismatch (ratio e^0.5 is above 1 + 0.28: clipped), and the
    first step's mismatch metrics are those the decoupled run measured against pi_old."""
    samples = _samples(model, 0.5)
    bypass = _update(model, samples, "none", 2.0, recompute=False)
    assert bypass["policy/clip_frac"] > 0 and bypass["policy/approx_kl"] == pytest.approx(-0.5, abs=1e-5)
    assert bypass["mismatch/kl"] == pytest.approx(-0.5, abs=1e-5)
    assert bypass["mismatch/ratio_mean"] == pytest.approx(math.exp(0.5), rel=1e-5)


@pytest.mark.parametrize("recompute", [True, False])
def test_mis_outside_the_band_trains_nothing_and_takes_no_step(model: torch.nn.Module, recompute: bool) -> None:
    """rho = e^0.5 > C = 1.5 on every token: MIS masks them all, the gradient is exactly 0, no optimizer step."""
    out = _update(model, _samples(model, 0.5), "mis", 1.5, recompute=recompute)
    assert out["mismatch/masked_frac"] == 1.0
    assert out["policy/grad_norm"] == 0.0 and out["policy/steps_skipped"] == 1.0 and out["policy/updated"] == 0.0


def test_recompute_fills_old_logprobs_on_the_loss_mask_only(model: torch.nn.Module) -> None:
    samples = _samples(model, 0.0)
    recompute_old_logprobs(TorchBackend(copy.deepcopy(model)), samples)
    for s in samples:
        assert s.old_logprobs is not None and s.old_logprobs.dtype == np.float32
        assert np.all(s.old_logprobs[s.loss_mask == 0] == 0.0)
        assert np.allclose(s.old_logprobs, s.rollout_logprobs, atol=1e-6)  # the same model, no shift


def test_recipe_show_accepts_the_settings_and_names_a_bad_value() -> None:
    from typer.testing import CliRunner

    from swerl.cli import app

    res = CliRunner().invoke(app, ["recipe", "show", "tiny", "--set", "algorithm.rollout_correction=tis",
                                   "--set", "algorithm.recompute_old_logprobs=true"])
    assert res.exit_code == 0, res.output
    assert "rollout_correction: tis" in res.output and "recompute_old_logprobs: true" in res.output
    assert "rollout_correction_threshold: 2.0" in res.output
    bad = CliRunner().invoke(app, ["recipe", "show", "tiny", "--set", "algorithm.rollout_correction=clip"])
    assert bad.exit_code != 0 and "'algorithm.rollout_correction'" in bad.output + repr(bad.exception)
    bad = CliRunner().invoke(app, ["recipe", "show", "tiny", "--set", "algorithm.rollout_correction_threshold=1"])
    assert bad.exit_code != 0 and "'algorithm.rollout_correction_threshold'" in bad.output + repr(bad.exception)
