"""The built-in torch backend: one optimizer step over whole rollouts on a Hugging Face causal LM.

One `update` (docs/train.md "The update step"): plan rows and whole-step denominators (secs. 4-5);
SAO only: critic values -> skip-observation GAE per rollout (sec. 8); per micro-batch the LM head
runs only at positions that predict a response token, PPO-clip or DIS loss aggregated with the
step's denominators (eqs. 14-16), backward; clip, step; SAO only: K critic updates.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from swerl.config import AlgorithmConfig, Recipe, TrainConfig
from swerl.errors import ConfigError, DataError
from swerl.log import get_logger
from swerl.models.lora import inner_model, is_lora, merged_weights, plain_copy
from swerl.train.backends.critic import ValueModel
from swerl.train.batching import (
    StepPlan,
    TensorBatch,
    check_trainable,
    collate,
    plan_batches,
    scatter_targets,
)
from swerl.train.gae import rollout_gae
from swerl.train.losses import (
    StepDenominators,
    add_mismatch_sums,
    aggregate_loss,
    dis_policy_loss,
    entropy_from_logits,
    mismatch_metrics,
    mismatch_sums,
    ppo_clip_loss,
    rollout_correction_weights,
    token_logprobs,
)
from swerl.train.schema import Sample

log = get_logger(__name__)


def _selective_head_ok(model: nn.Module) -> bool:
    """Can logits be computed as lm_head(hidden) on chosen positions only (no soft-capping/scaling)?"""
    cfg = getattr(model, "config", None)
    odd = any(getattr(cfg, k, None) for k in ("final_logit_softcapping", "logit_scale", "logits_scaling"))
    base = getattr(model, "base_model", None)
    head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    return not odd and base is not None and base is not model and head is not None


class TorchBackend:
    """Policy (and optional SAO critic) updates on one process; see the module doc for one `update`."""

    def __init__(self, model: nn.Module, algorithm: AlgorithmConfig | None = None, train: TrainConfig | None = None,
                 *, row_tokens: int | None = None, pad_token_id: int = 0, compute_entropy: bool = True) -> None:
        """The recipe's own `algorithm:` and `train:` sections (defaults when omitted): no copy of their fields.
        `row_tokens` is the model's context (`model.max_context`); SAO (`algorithm.name: sao`) adds the critic."""
        self.algo = a = algorithm or AlgorithmConfig()
        self.train = t = train or TrainConfig()
        self.row_tokens = row_tokens
        self.compute_entropy = compute_entropy
        self.device = torch.device(t.device)
        self.policy = model.to(self.device)
        self.pad_token_id = pad_token_id
        self.optimizer = torch.optim.AdamW(
            [p for p in self.policy.parameters() if p.requires_grad], lr=t.lr, weight_decay=t.weight_decay)
        self.critic: ValueModel | None = None
        self.critic_optimizer: torch.optim.Optimizer | None = None
        if a.name == "sao":
            self.critic = ValueModel(self.policy).to(self.device)
            self.critic_optimizer = torch.optim.AdamW(self.critic.trainable_parameters(), lr=a.value_lr,
                                                      weight_decay=t.weight_decay)
        self.step = 0
        self.lora = is_lora(self.policy)  # decided once: the policy's wrapper never changes during training
        self.lm = inner_model(self.policy)  # the transformers model (LoRA: adapters injected in it)
        self._selective = _selective_head_ok(self.lm)

    @classmethod
    def from_recipe(cls, model: nn.Module, recipe: Recipe, *, pad_token_id: int = 0) -> TorchBackend:
        """The backend a recipe describes: its `algorithm:` and `train:` sections, rows up to `model.max_context`."""
        return cls(model, recipe.algorithm, recipe.train, row_tokens=recipe.model.max_context,
                   pad_token_id=pad_token_id)

    def _response_logits(self, batch: TensorBatch) -> torch.Tensor:
        """(N, V) logits at the N positions that predict a response token (target_mask), in row-major order."""
        if self._selective:
            hidden = self.lm.base_model(input_ids=batch.input_ids, position_ids=batch.position_ids,
                                        use_cache=False).last_hidden_state
            return self.lm.get_output_embeddings()(hidden[batch.target_mask])
        logits = self.policy(input_ids=batch.input_ids, position_ids=batch.position_ids, use_cache=False).logits
        return logits[batch.target_mask]

    def _token_advantages(self, samples: Sequence[Sample], advantages: Sequence[float]) -> list[np.ndarray]:
        if len(advantages) != len(samples):
            raise DataError(f"advantages: got {len(advantages)} values for {len(samples)} samples")
        return [np.full(s.num_tokens, float(a), dtype=np.float32) for s, a in zip(samples, advantages, strict=True)]

    def _prepare(self, samples: Sequence[Sample]) -> tuple[StepPlan, StepDenominators, list[int]]:
        check_trainable(samples, getattr(getattr(self.lm, "config", None), "vocab_size", None))
        plan = plan_batches(samples, micro_batch_tokens=self.train.micro_batch_tokens, row_tokens=self.row_tokens)[0]
        den, ridx = StepDenominators.from_samples(samples)
        return plan, den, ridx

    def _batches(self, plan: StepPlan, samples: Sequence[Sample], ridx: list[int],
                 per_token: dict[str, list[np.ndarray]] | None = None) -> list[TensorBatch]:
        olds = [s.old_logprobs for s in samples]
        if per_token is not None and any(o is not None for o in olds):
            if any(o is None for o in olds):
                raise DataError("old_logprobs: set on some samples of the step but not on all")
            per_token = {**per_token, "old_logp": olds}  # type: ignore[dict-item]
        return [collate(mb, samples, ridx, self.pad_token_id, per_token).to(self.device)
                for rank in plan.ranks for mb in rank]

    @staticmethod
    def _old_logp(b: TensorBatch) -> torch.Tensor:
        """(N,) pi_old: recomputed by the trainer when the samples carry it (sec. 4), else the behaviour's."""
        return b.targets("old_logp") if "old_logp" in b.extra else b.rollout_logp[b.target_mask]

    def _token_policy_loss(self, b: TensorBatch, logp: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor,
                                                                              dict[str, float]]:
        """(N,) per-token loss, (N,) bool flags (clipped for PPO, masked for DIS) and the mismatch sums.

        The loss's ratio is against pi_old; the rollout correction's factor w (eqs. 17-20) multiplies it."""
        a = self.algo
        old, adv = self._old_logp(b), b.targets("advantages")
        if a.policy_loss == "ppo":
            tok_loss, flagged = ppo_clip_loss(logp, old, adv, a.clip_low, a.clip_high, a.clip_ratio_c)
        else:
            tok_loss, keep = dis_policy_loss(logp, old, adv, a.dis_eps_low, a.dis_eps_high)
            flagged = ~keep
        behaviour, decoupled = b.rollout_logp[b.target_mask], "old_logp" in b.extra
        ref = old if decoupled else logp.detach()  # (17): pi_old, or the current policy at this step
        w, changed = rollout_correction_weights(ref, behaviour, a.rollout_correction, a.rollout_correction_threshold,
                                                decoupled=decoupled)
        return tok_loss * w, flagged, mismatch_sums(ref, behaviour, changed)

    def _aggregate(self, tok_loss: torch.Tensor, b: TensorBatch, den: StepDenominators) -> torch.Tensor:
        """Eqs. 14-16 over the micro-batch's response targets with the whole step's denominators."""
        return aggregate_loss(tok_loss, torch.ones_like(tok_loss), b.rollout_index[b.target_mask],
                              self.algo.loss_agg, sample_index=b.sample_index[b.target_mask], denominators=den)

    def update(self, samples: Sequence[Sample], advantages: Sequence[float] | None = None, *,
               update_index: int | None = None) -> dict[str, float]:
        """One optimizer step over `samples` (all samples of whole rollouts); returns metrics.

        `advantages`: one per sample (GRPO/RLOO via `compute_advantages`); with a critic
        (SAO) pass None and GAE supplies per-token advantages.
        """
        t0 = time.perf_counter()
        if not samples:
            raise DataError("update: no samples")
        a = self.algo
        plan, den, ridx = self._prepare(samples)
        metrics: dict[str, float] = {
            "batch/samples": float(len(samples)), "batch/rollouts": float(den.num_rollouts),
            "batch/response_tokens": float(den.num_tokens), "batch/tokens": float(plan.num_tokens),
            "batch/micro_batches": float(sum(len(r) for r in plan.ranks)), "batch/padding_waste": plan.padding_waste,
        }
        if self.critic is not None:
            if advantages is not None:
                raise DataError("advantages: the SAO backend computes them with its critic; pass None")
            per_token = self._gae(plan, samples, ridx)
        elif advantages is None:
            raise DataError("advantages: required without a critic (use compute_advantages)")
        else:
            per_token = {"advantages": self._token_advantages(samples, advantages)}
        batches = self._batches(plan, samples, ridx, per_token)
        adv_all = torch.cat([b.targets("advantages") for b in batches])
        metrics["policy/advantage_mean"] = float(adv_all.mean()) if adv_all.numel() else 0.0

        # warm-up counts the loop's updates (`update_index`: one update may be several optimizer steps)
        done = self.step if update_index is None else update_index
        train_policy = self.critic is None or done >= a.critic_warmup_steps
        metrics["policy/updated"] = float(train_policy)
        if train_policy:
            metrics.update(self._policy_step(batches, den))
            metrics["policy/updated"] = 1.0 - metrics["policy/steps_skipped"]
        if self.critic is not None:
            metrics.update(self._critic_steps(batches, den))
        self.step += 1
        metrics["time/update_s"] = time.perf_counter() - t0
        log.info("update", step=self.step, **{k: round(v, 6) for k, v in metrics.items()})
        return metrics

    def _policy_step(self, batches: list[TensorBatch], den: StepDenominators) -> dict[str, float]:
        a, t = self.algo, self.train
        self.policy.train()
        self.optimizer.zero_grad(set_to_none=True)
        loss_sum = ent_sum = flag_sum = kl_sum = ratio_sum = 0.0
        n = 0
        mismatch: dict[str, float] = {}
        for b in batches:
            logits = self._response_logits(b)
            logp = token_logprobs(logits, b.target_ids[b.target_mask])
            tok_loss, flagged, sums = self._token_policy_loss(b, logp)
            loss = self._aggregate(tok_loss, b, den)
            loss.backward()
            add_mismatch_sums(mismatch, sums)
            with torch.no_grad():
                old = self._old_logp(b)
                loss_sum += float(loss.detach())
                flag_sum += float(flagged.sum())
                kl_sum += float((old - logp).sum())
                ratio_sum += float(torch.exp(logp - old).sum())
                if self.compute_entropy:
                    rows = max(1, (1 << 24) // logits.shape[-1])  # ~64 MB of float32 per chunk
                    ent_sum += sum(float(entropy_from_logits(c).sum()) for c in logits.detach().split(rows))
                n += logp.numel()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.policy.parameters(), t.grad_clip)
        # No gradient (every advantage 0, or every token clipped): no step. Adam would still move every weight
        # by ~lr along its momentum, so a run of all-failed batches drifts the policy with no signal at all.
        skipped = float(grad_norm) == 0.0
        if not skipped:
            self.optimizer.step()  # gradients stay readable until the next update zeroes them
        frac_key = "policy/clip_frac" if a.policy_loss == "ppo" else "policy/dis_masked_frac"
        out = {"policy/loss": loss_sum, frac_key: flag_sum / max(n, 1), "policy/approx_kl": kl_sum / max(n, 1),
               "policy/ratio_mean": ratio_sum / max(n, 1), "policy/grad_norm": float(grad_norm),
               "policy/lr": float(self.optimizer.param_groups[0]["lr"]), "policy/steps_skipped": float(skipped)}
        if self.compute_entropy:
            out["policy/entropy"] = ent_sum / max(n, 1)
        return out | mismatch_metrics(mismatch)

    @torch.no_grad()
    def _gae(self, plan: StepPlan, samples: Sequence[Sample], ridx: list[int]) -> dict[str, list[np.ndarray]]:
        """Per-sample token `advantages`, `returns` and pre-update `values` from the critic (sec. 8)."""
        assert self.critic is not None
        values = [np.zeros(s.num_tokens, dtype=np.float32) for s in samples]
        self.critic.eval()
        for b in self._batches(plan, samples, ridx):
            v = self.critic(b.input_ids, b.position_ids)[b.target_mask]  # V(state before each response token)
            scatter_targets(v.cpu().numpy(), b.sample_index[b.target_mask].cpu().numpy(),
                            b.target_pos[b.target_mask].cpu().numpy(), values)
        by_rollout: dict[str, list[int]] = {}
        for i, s in enumerate(samples):
            by_rollout.setdefault(s.rollout_id, []).append(i)
        adv = [np.zeros(s.num_tokens, dtype=np.float32) for s in samples]
        ret = [np.zeros(s.num_tokens, dtype=np.float32) for s in samples]
        for rid, ids in by_rollout.items():
            ids = sorted(ids, key=lambda i: samples[i].sample_index)
            reward = samples[ids[0]].reward
            if reward is None:
                raise DataError(f"rollout {rid!r}: field reward is missing (needed for GAE)")
            a, r = rollout_gae([torch.from_numpy(values[i]) for i in ids],
                               [torch.from_numpy(samples[i].loss_mask) for i in ids], float(reward), self.algo.gamma, self.algo.lam)
            for i, ai, ri in zip(ids, a, r, strict=True):
                adv[i], ret[i] = ai.numpy(), ri.numpy()
        return {"advantages": adv, "returns": ret, "values": values}

    def _critic_steps(self, batches: list[TensorBatch], den: StepDenominators) -> dict[str, float]:
        """K value updates (sec. 8: faster critic): squared error to the GAE returns, same aggregation."""
        assert self.critic is not None and self.critic_optimizer is not None
        a, t = self.algo, self.train
        self.critic.train()
        losses, norms = [], []
        for _ in range(a.critic_updates):
            self.critic_optimizer.zero_grad(set_to_none=True)
            total = 0.0
            for b in batches:
                v = self.critic(b.input_ids, b.position_ids)[b.target_mask]
                loss = self._aggregate(0.5 * (v - b.targets("returns")) ** 2, b, den)
                loss.backward()
                total += float(loss.detach())
            norms.append(float(torch.nn.utils.clip_grad_norm_(self.critic.trainable_parameters(), t.grad_clip)))
            self.critic_optimizer.step()
            losses.append(total)
        returns = torch.cat([b.targets("returns") for b in batches])
        old = torch.cat([b.targets("values") for b in batches])
        var = torch.var(returns, unbiased=False)
        ev = float(1.0 - torch.var(returns - old, unbiased=False) / var) if var > 0 else 0.0
        return {"critic/value_loss": losses[0], "critic/value_loss_last": losses[-1], "critic/grad_norm": norms[-1],
                "critic/explained_variance": ev, "critic/value_mean": float(old.mean()) if old.numel() else 0.0}

    @torch.no_grad()
    def policy_loss(self, samples: Sequence[Sample], advantages: Sequence[float]) -> float:
        """The step loss `update` would minimise for these samples (current weights), changing nothing."""
        plan, den, ridx = self._prepare(samples)
        self.policy.eval()
        total = 0.0
        for b in self._batches(plan, samples, ridx, {"advantages": self._token_advantages(samples, advantages)}):
            logp = token_logprobs(self._response_logits(b), b.target_ids[b.target_mask])
            total += float(self._aggregate(self._token_policy_loss(b, logp)[0], b, den))
        return total

    @torch.no_grad()
    def compute_logprobs(self, samples: Sequence[Sample]) -> list[np.ndarray]:
        """Current-policy log-probs per sample, aligned like `rollout_logprobs` (0 off the loss mask)."""
        plan, _, ridx = self._prepare(samples)
        out = [np.zeros(s.num_tokens, dtype=np.float32) for s in samples]
        self.policy.eval()
        for b in self._batches(plan, samples, ridx):
            logp = token_logprobs(self._response_logits(b), b.target_ids[b.target_mask])
            scatter_targets(logp.cpu().numpy(), b.sample_index[b.target_mask].cpu().numpy(),
                            b.target_pos[b.target_mask].cpu().numpy(), out)
        return out

    def state_dict(self) -> dict[str, Any]:
        """Weights, optimizer states and the step counter (what a checkpoint needs to resume exactly)."""
        state: dict[str, Any] = {"step": self.step, "config": {"algorithm": self.algo.model_dump(), "train": self.train.model_dump()},
                                 "policy": self.policy.state_dict(), "optimizer": self.optimizer.state_dict()}
        if self.critic is not None and self.critic_optimizer is not None:
            state["critic"] = self.critic.state_dict()
            state["critic_optimizer"] = self.critic_optimizer.state_dict()
        return state

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.policy.load_state_dict(state["policy"])
        self.optimizer.load_state_dict(state["optimizer"])
        if self.critic is not None and self.critic_optimizer is not None:
            if "critic" not in state:
                raise ConfigError("checkpoint has no critic state but this backend uses a critic (SAO)")
            self.critic.load_state_dict(state["critic"])
            self.critic_optimizer.load_state_dict(state["critic_optimizer"])
        self.step = int(state["step"])

    def policy_weights(self) -> dict[str, torch.Tensor]:
        """Detached policy parameters/buffers by name, e.g. for `load_state_dict` into an inference copy.
        LoRA: the adapter merged into the base weights (eq. 23), under the plain model's names."""
        if self.lora:
            return merged_weights(self.policy)
        return {k: v.detach() for k, v in self.policy.state_dict().items()}

    def serving_copy(self) -> nn.Module:
        """A plain copy of the policy for an in-process engine (LoRA: without adapters; it loads merged weights)."""
        return plain_copy(self.policy)


__all__ = ["TorchBackend"]
