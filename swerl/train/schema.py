"""The RL core's data contracts: Sample and AssemblyStats (Event, shared with the gateway, is `swerl.events`).

Token ids, masks and log-probs are numpy arrays, not Python lists: the trainer hands
them to torch without a copy. JSON dumps turn arrays back into lists.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

from swerl.events import Event, Floats, TokenIds, as_array

MERGE_FAILURE_CAUSES: tuple[str, ...] = ("think_dropped", "retokenize_drift", "rewritten_output", "context_edit",
                                         "reply_dropped", "other")
"""Why best-effort merging closed a sample; see `swerl.train.assembly`."""


def _mask(value: Any) -> np.ndarray:
    return as_array(value, np.int8, "loss mask")


Mask = Annotated[np.ndarray, BeforeValidator(_mask), PlainSerializer(lambda a: a.tolist(), when_used="json")]
"""int8 0/1 mask, shape (T,)."""


class Sample(BaseModel):
    """One training sequence S_{rho,j} (docs/algorithms.md sec. 2) with its provenance.

    `loss_mask` is 1 on response (action) tokens and 0 on prompt/observation tokens;
    `rollout_logprobs` holds logp_rollout on mask-1 positions and 0 elsewhere.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    input_ids: TokenIds
    loss_mask: Mask
    rollout_logprobs: Floats
    rollout_id: str
    group_id: str
    sample_index: int = Field(ge=0)
    reward: float | None = None
    policy_versions: list[int | None] = Field(default_factory=list)
    old_logprobs: Floats | None = None
    """pi_old recomputed by the trainer at the start of the update (`algorithm.recompute_old_logprobs`,
    docs/algorithms.md sec. 4), aligned like `rollout_logprobs`; None: pi_old is the logged behaviour."""

    @model_validator(mode="after")
    def _aligned(self) -> Sample:
        n = len(self.input_ids)
        if len(self.loss_mask) != n or len(self.rollout_logprobs) != n:
            raise ValueError(f"input_ids ({n}), loss_mask ({len(self.loss_mask)}) and rollout_logprobs "
                             f"({len(self.rollout_logprobs)}) must have the same length")
        if self.old_logprobs is not None and len(self.old_logprobs) != n:
            raise ValueError(f"old_logprobs ({len(self.old_logprobs)}) must have the length of input_ids ({n})")
        return self

    @property
    def num_tokens(self) -> int:
        return len(self.input_ids)

    @property
    def num_response_tokens(self) -> int:
        """L_{rho,j}: the number of mask-1 tokens (docs/algorithms.md sec. 2)."""
        return int(self.loss_mask.sum())


class AssemblyStats(BaseModel):
    """What assembly did to a batch of rollouts; AL1 reports 36% single-sample rollouts and 2.41 samples/rollout."""

    mode: Literal["best_effort", "per_call"]
    num_rollouts: int = 0
    num_samples: int = 0
    num_calls: int = 0
    num_calls_cut: int = 0
    """Calls whose response the engine stopped at `rollout.max_tokens` (finish_reason "length"): the per-call
    budget cut them (docs/algorithms.md sec. 13)."""
    num_retries_dropped: int = 0
    num_superseded_attempt_events: int = 0
    num_failed_calls: int = 0
    num_rollouts_without_reward: int = 0
    num_tokens: int = 0
    num_response_tokens: int = 0
    single_sample_fraction: float = 0.0
    mean_samples_per_rollout: float = 0.0
    samples_per_rollout: dict[int, int] = Field(default_factory=dict)
    merge_failures: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(MERGE_FAILURE_CAUSES, 0))


__all__ = ["MERGE_FAILURE_CAUSES", "AssemblyStats", "Event", "Floats", "Mask", "Sample", "TokenIds"]
