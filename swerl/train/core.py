"""swerl's RL core: the public math API (docs/algorithms.md secs. 1-5 and 8, docs/train.md).

Pure functions documented with the equations they implement; other rooms, the backends and
external checks import from here.
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

__all__ = ["LOSS_AGG_MODES", "MERGE_FAILURE_CAUSES", "QWEN_THINK_TOKEN_IDS", "AssemblyStats", "Event",
           "MicroBatch", "Row", "Sample", "StepDenominators", "StepPlan", "aggregate_loss", "assemble",
           "assemble_batch", "classify_merge_failure", "compute_advantages", "dis_mask", "dis_policy_loss",
           "entropy_from_logits", "group_advantages", "masked_mean", "pack_rows", "plan_batches",
           "ppo_clip_loss", "rollout_gae", "skip_observation_gae", "token_logprobs"]
