"""The RL core's data contracts (ARCHITECTURE.md "Contracts between rooms"): Event, Sample, AssemblyStats.

Token ids and log-probs are numpy arrays, not Python lists: assembly compares
prompts byte-wise (memcmp) and the trainer hands them to torch without a copy.
Validators accept lists, tuples, arrays, or raw little-endian int32 / float32 bytes
(how a store may keep them as blobs); JSON dumps turn arrays back into lists.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

MERGE_FAILURE_CAUSES: tuple[str, ...] = ("think_dropped", "retokenize_drift", "rewritten_output", "context_edit", "other")
"""Why best-effort merging closed a sample (ALGORITHMS.md sec. 2); see `swerl.train.assembly`."""

_LITTLE = sys.byteorder == "little"


def _as_array(value: Any, dtype: type[np.generic], what: str) -> np.ndarray:
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ValueError(f"{what} must be one-dimensional, got shape {value.shape}")
        if value.dtype == dtype:
            return value
        if dtype is np.int32 and value.dtype.kind not in "iu":
            raise ValueError(f"{what} must be integers, got dtype {value.dtype}")
        return value.astype(dtype)
    if isinstance(value, bytes | bytearray | memoryview):
        if len(value) % 4:
            raise ValueError(f"{what}: byte length {len(value)} is not a multiple of 4")
        arr = np.frombuffer(value, dtype=np.dtype(dtype).newbyteorder("<"))
        return arr if _LITTLE else arr.astype(dtype)
    if isinstance(value, list | tuple):
        try:
            arr = np.asarray(value, dtype=dtype)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"{what} must be a list of numbers ({exc})") from None
        if arr.ndim != 1:
            raise ValueError(f"{what} must be a flat list")
        return arr
    raise ValueError(f"{what} must be a list, array or bytes, got {type(value).__name__}")


def _token_ids(value: Any) -> np.ndarray:
    arr = _as_array(value, np.int32, "token ids")
    # Lists (JSON) are checked for negative ids; arrays and blobs come from the gateway store, whose
    # schema already rejects them, and re-scanning every prompt would double assembly's cost. The
    # torch backend checks the id range of what it trains on.
    if isinstance(value, list | tuple) and arr.size and int(arr.min()) < 0:
        raise ValueError("token ids must be >= 0")
    return arr


def _floats(value: Any) -> np.ndarray:
    if isinstance(value, bytes | bytearray | memoryview):  # the gateway store keeps float64 blobs
        if len(value) % 8:
            raise ValueError(f"log-probs: byte length {len(value)} is not a multiple of 8")
        return np.frombuffer(value, dtype="<f8").astype(np.float32)
    return _as_array(value, np.float32, "log-probs")


def _mask(value: Any) -> np.ndarray:
    return _as_array(value, np.int8, "loss mask")


def _to_list(arr: np.ndarray) -> list[Any]:
    return arr.tolist()


TokenIds = Annotated[np.ndarray, BeforeValidator(_token_ids), PlainSerializer(_to_list, when_used="json")]
"""int32 token ids, shape (T,)."""
Floats = Annotated[np.ndarray, BeforeValidator(_floats), PlainSerializer(_to_list, when_used="json")]
"""float32 values, shape (T,)."""
Mask = Annotated[np.ndarray, BeforeValidator(_mask), PlainSerializer(_to_list, when_used="json")]
"""int8 0/1 mask, shape (T,)."""


class Event(BaseModel):
    """One record from the gateway store. Only the fields assembly needs are typed; others pass through.

    Reward events carry the outcome in `value` (the gateway's `reward` field is accepted
    too). A `model_request` whose `error` is set, or that lacks token ids or log-probs,
    was not a usable call (upstream failure, client gone): assembly skips and counts it.
    Raw bytes are accepted as the gateway store keeps them: int32 little-endian ids,
    float64 little-endian log-probs.
    """

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    kind: Literal["model_request", "reward", "status"]
    rollout_id: str = Field(min_length=1)
    group_id: str | None = None
    seq: int
    attempt: int = 0
    policy_version: int | None = None
    prompt_ids: TokenIds | None = None
    response_ids: TokenIds | None = None
    response_logprobs: Floats | None = None
    error: str | None = None
    value: float | None = None

    @model_validator(mode="before")
    @classmethod
    def _reward_alias(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("value") is None and data.get("reward") is not None:
            data = {**data, "value": data["reward"]}
        return data

    @model_validator(mode="after")
    def _fields_for_kind(self) -> Event:
        if self.kind == "model_request":
            if self.response_ids is not None and self.response_logprobs is not None \
                    and len(self.response_logprobs) != len(self.response_ids):
                raise ValueError(f"response_logprobs has {len(self.response_logprobs)} values for "
                                 f"{len(self.response_ids)} response_ids")
        elif self.kind == "reward" and self.value is None:
            raise ValueError("value (or reward) is required for a reward event")
        return self

    @property
    def usable(self) -> bool:
        """A model call that succeeded and carries prompt ids, response ids and their log-probs."""
        return self.error is None and self.prompt_ids is not None and self.response_ids is not None \
            and self.response_logprobs is not None


class Sample(BaseModel):
    """One training sequence S_{rho,j} (ALGORITHMS.md sec. 2) with its provenance.

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

    @model_validator(mode="after")
    def _aligned(self) -> Sample:
        n = len(self.input_ids)
        if len(self.loss_mask) != n or len(self.rollout_logprobs) != n:
            raise ValueError(f"input_ids ({n}), loss_mask ({len(self.loss_mask)}) and rollout_logprobs "
                             f"({len(self.rollout_logprobs)}) must have the same length")
        return self

    @property
    def num_tokens(self) -> int:
        return len(self.input_ids)

    @property
    def num_response_tokens(self) -> int:
        """L_{rho,j}: the number of mask-1 tokens (ALGORITHMS.md sec. 2)."""
        return int(self.loss_mask.sum())


class AssemblyStats(BaseModel):
    """What assembly did to a batch of rollouts; AL1 reports 36% single-sample rollouts and 2.41 samples/rollout."""

    mode: Literal["best_effort", "per_call"]
    num_rollouts: int = 0
    num_samples: int = 0
    num_calls: int = 0
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
