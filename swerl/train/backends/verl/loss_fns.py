"""The loss functions swerl hands to verl's workers (`worker_group.set_loss_fn`; imports verl).

verl's contract `fn(config, model_output, data, dp_group=None) -> (loss, metrics)`, per micro-batch.
The batch's step data become a `StepInfo` in `config.global_batch_info` for the call, so the
registered policy loss reduces with whole-step denominators; the critic loss is 0.5 (V - G)^2 on
action tokens reduced the same way, without value clipping. Module-level functions, so Ray pickles
them by reference and each worker imports this module (registering swerl's losses there too).
"""

from __future__ import annotations

from typing import Any

import torch
from verl.trainer.ppo.core_algos import get_policy_loss_fn
from verl.utils import tensordict_utils as tu
from verl.utils.metric import AggregationType, Metric
from verl.workers.utils.padding import no_padding_2_padding

from swerl.train.backends.verl.algos import STEP_KEY, SUM_PREFIX, StepInfo, aggregate, denominators_from_meta
from swerl.train.losses import aggregate_loss, masked_mean, mismatch_sums, rollout_correction_weights

STEP_META = "swerl_step"
"""Non-tensor key: {"mode": loss_agg, "correction", "threshold", "decoupled", **denominators_to_meta(den)} for
the whole optimizer step."""
MISMATCH_PREFIX = "actor/swerl_mismatch_"
"""Per-micro-batch `losses.mismatch_sums` (token sums; `max_abs` a max), turned into `mismatch/*` on the driver."""
ROLLOUT_INDEX = "swerl_rollout_index"
SAMPLE_INDEX = "swerl_sample_index"


def step_info(data: Any, dp_size: int) -> StepInfo | None:
    """The micro-batch's `StepInfo`, or None when the batch did not come from swerl."""
    meta = tu.get_non_tensor_data(data=data, key=STEP_META, default=None)
    if meta is None:
        return None
    return StepInfo(mode=meta["mode"], denominators=denominators_from_meta(meta),
                    rollout_index=data[ROLLOUT_INDEX].long(), sample_index=data[SAMPLE_INDEX].long(),
                    dp_size=int(dp_size), correction=meta.get("correction", "none"),
                    threshold=float(meta.get("threshold", 2.0)), decoupled=bool(meta.get("decoupled", False)))


def correction(step: StepInfo | None, log_prob: torch.Tensor, batch: Any,
               mask: torch.Tensor) -> tuple[torch.Tensor, dict[str, Any]]:
    """(b, R) rollout-correction factor w (docs/algorithms.md sec. 4 eqs. 17-20, `TorchBackend`'s rule) and the
    micro-batch's mismatch sums as verl metrics. pi_old is `old_log_probs`; the behaviour is `rollout_log_probs`."""
    mode, c, decoupled = ("none", 2.0, False) if step is None else (step.correction, step.threshold, step.decoupled)
    behaviour = batch["rollout_log_probs"].float()
    ref = batch["old_log_probs"].float() if decoupled else log_prob.detach().float()  # (17)
    w, changed = rollout_correction_weights(ref, behaviour, mode, c, decoupled=decoupled)  # type: ignore[arg-type]
    sums = mismatch_sums(ref[mask], behaviour[mask], changed[mask])
    metrics = {f"{MISMATCH_PREFIX}{k}": Metric(AggregationType.MAX if k == "max_abs" else AggregationType.SUM, v)
               for k, v in sums.items()}
    return w.to(log_prob.dtype), metrics


def _padded(data: Any, fields: list[str]) -> Any:
    return data.select(*fields).to_padded_tensor()


def swerl_actor_loss(config: Any, model_output: dict[str, Any], data: Any,
                     dp_group: Any = None) -> tuple[torch.Tensor, dict[str, Any]]:
    """Policy loss of one micro-batch: (b, R) log-probs -> scalar share of the step loss, metrics."""
    log_prob = no_padding_2_padding(model_output["log_probs"], data)
    dp_size = data["dp_size"]
    info = config.global_batch_info
    info.update(dp_size=dp_size, batch_num_tokens=data["batch_num_tokens"],
                global_batch_size=data["global_batch_size"], loss_scale_factor=config.loss_scale_factor)
    fields = ["response_mask", "old_log_probs", "rollout_log_probs", "advantages"] + (
        ["rollout_is_weights"] if "rollout_is_weights" in data else [])
    batch = _padded(data, fields)
    mask = batch["response_mask"].bool()
    step = step_info(data, dp_size)
    policy_loss_fn = get_policy_loss_fn(config.policy_loss.get("loss_mode", "vanilla"))
    weights, mismatch = correction(step, log_prob, batch, mask)
    if "rollout_is_weights" in data:
        weights = weights * batch["rollout_is_weights"]
    if step is not None:
        info[STEP_KEY] = step
    try:
        pg_loss, pg_metrics = policy_loss_fn(
            old_log_prob=batch["old_log_probs"], log_prob=log_prob, advantages=batch["advantages"],
            response_mask=mask, loss_agg_mode=config.loss_agg_mode, config=config, rollout_is_weights=weights)
        loss = pg_loss
        metrics: dict[str, Any] = {
            k: Metric(AggregationType.SUM if k.startswith(SUM_PREFIX) else AggregationType.MEAN, v)
            for k, v in pg_metrics.items()} | mismatch
        metrics["actor/pg_loss"] = Metric(AggregationType.SUM, pg_loss.detach())
        entropy = model_output.get("entropy")
        if entropy is not None:
            entropy = no_padding_2_padding(entropy, data)
            metrics["actor/entropy"] = Metric(AggregationType.MEAN, masked_mean(entropy.detach(), mask).item())
            metrics[f"{SUM_PREFIX}entropy"] = Metric(
                AggregationType.SUM, float((entropy.detach().double() * mask).sum()))
            if config.entropy_coeff:
                loss = loss - config.entropy_coeff * aggregate(entropy, mask, config.loss_agg_mode, config)
    finally:
        info.pop(STEP_KEY, None)
    return loss, metrics


def swerl_value_loss(config: Any, model_output: dict[str, Any], data: Any,
                     dp_group: Any = None) -> tuple[torch.Tensor, dict[str, Any]]:
    """SAO critic loss of one micro-batch: 0.5 (V - G)^2 on action tokens with whole-step denominators."""
    vpreds = no_padding_2_padding(model_output["values"], data)
    batch = _padded(data, ["returns", "response_mask"])
    mask = batch["response_mask"].bool()
    tok = 0.5 * (vpreds.float() - batch["returns"].float()) ** 2
    step = step_info(data, data["dp_size"])
    if step is None:
        raise ValueError("swerl_value_loss needs a batch built by swerl.train.backends.verl.proto")
    loss = aggregate_loss(tok, mask, step.rollout_index, step.mode,  # type: ignore[arg-type]
                          sample_index=step.sample_index, denominators=step.denominators) * step.dp_size
    metrics = {"critic/vf_loss": Metric(AggregationType.SUM, loss.detach()),
               "critic/vpred_mean": Metric(AggregationType.MEAN, masked_mean(vpreds.detach(), mask).item())}
    return loss, metrics


__all__ = ["MISMATCH_PREFIX", "ROLLOUT_INDEX", "SAMPLE_INDEX", "STEP_META", "correction", "step_info", "swerl_actor_loss",
           "swerl_value_loss"]
