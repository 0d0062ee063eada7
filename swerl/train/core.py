"""swerl's RL core: the public math API (docs/algorithms.md sections 1-5 and 8).

Pure functions, documented with the equations they implement; other rooms, the
backends and external checks import from here:

- `assemble(events, mode)` -> (samples, stats)                   secs. 1-2
- `assemble_batch(token_batch, mode)`: the same from delta-encoded prompts (swerl.tokens)
- `compute_advantages(samples, estimator, level, std_normalize)`  sec. 3
- `aggregate_loss(token_loss, loss_mask, rollout_index, mode)`    sec. 4, eqs. 14-16
- `dis_mask(logp, rollout_logp, eps_low, eps_high)`               sec. 8 (SAO DIS)
- `skip_observation_gae(token_rewards, values, action_mask, ...)` sec. 8
- `plan_batches(samples, micro_batch_tokens=...)`                 sec. 5
"""

from swerl.train.advantage import compute_advantages, group_advantages
from swerl.train.assembly import QWEN_THINK_TOKEN_IDS, assemble, assemble_batch, classify_merge_failure
from swerl.train.batching import MicroBatch, Row, StepPlan, pack_rows, plan_batches
from swerl.train.gae import rollout_gae, skip_observation_gae
from swerl.train.losses import (
    LOSS_AGG_MODES,
    StepDenominators,
    aggregate_loss,
    dis_mask,
    dis_policy_loss,
    entropy_from_logits,
    masked_mean,
    ppo_clip_loss,
    token_logprobs,
)
from swerl.train.schema import MERGE_FAILURE_CAUSES, AssemblyStats, Event, Sample

__all__ = [
    "LOSS_AGG_MODES",
    "MERGE_FAILURE_CAUSES",
    "QWEN_THINK_TOKEN_IDS",
    "AssemblyStats",
    "Event",
    "MicroBatch",
    "Row",
    "Sample",
    "StepDenominators",
    "StepPlan",
    "aggregate_loss",
    "assemble",
    "assemble_batch",
    "classify_merge_failure",
    "compute_advantages",
    "dis_mask",
    "dis_policy_loss",
    "entropy_from_logits",
    "group_advantages",
    "masked_mean",
    "pack_rows",
    "plan_batches",
    "ppo_clip_loss",
    "rollout_gae",
    "skip_observation_gae",
    "token_logprobs",
]
