"""The event record shared by the gateway (which writes it) and the trainer (which learns from it).

`Event` is the contract: the gateway's SQL table is derived from its fields, its API documents it,
and the trainer validates what it fetches with it (pydantic and numpy only: the ground floor).
Token ids and log-probs are numpy arrays (byte-wise prompt compares, no copy into torch); validators
take lists, tuples, arrays or the store's little-endian bytes; JSON dumps give lists again.
"""

from __future__ import annotations

import sys
from functools import partial
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import (
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
    model_validator,
)

State = Literal["queued", "running", "succeeded", "failed_agent", "failed_infra"]
EventKind = Literal["model_request", "reward", "status"]
GONE = 499
"""`http_status` of a call whose client went away before its answer (nginx's "client closed request"): the
harness never saw it; recorded, never trained on."""

_LITTLE = sys.byteorder == "little"


def as_array(value: Any, dtype: type[np.generic], what: str) -> np.ndarray:
    """A 1-D array of `dtype` from a list, tuple, array or little-endian bytes of that dtype."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ValueError(f"{what} must be one-dimensional, got shape {value.shape}")
        if value.dtype == dtype:
            return value
        if dtype is np.int32 and value.dtype.kind not in "iu":
            raise ValueError(f"{what} must be integers, got dtype {value.dtype}")
        return value.astype(dtype)
    if isinstance(value, bytes | bytearray | memoryview):
        size = np.dtype(dtype).itemsize
        if len(value) % size:
            raise ValueError(f"{what}: byte length {len(value)} is not a multiple of {size}")
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
    arr = as_array(value, np.int32, "token ids")
    # Lists (JSON) are checked for negative ids; arrays and blobs come from the gateway store, whose
    # schema already rejects them, and re-scanning every prompt would double assembly's cost.
    if isinstance(value, list | tuple) and arr.size and int(arr.min()) < 0:
        raise ValueError("token ids must be >= 0")
    return arr


TokenIds = Annotated[np.ndarray, BeforeValidator(_token_ids), PlainSerializer(np.ndarray.tolist, when_used="json"),
                     WithJsonSchema({"type": "array", "items": {"type": "integer", "minimum": 0}})]
"""int32 token ids, shape (T,)."""
Floats = Annotated[np.ndarray, BeforeValidator(partial(as_array, dtype=np.float32, what="log-probs")),
                   PlainSerializer(np.ndarray.tolist, when_used="json"),
                   WithJsonSchema({"type": "array", "items": {"type": "number"}})]
"""float32 values, shape (T,)."""


class Event(BaseModel):
    """One record of the gateway store: a model call, a reward, or a state change of a rollout.

    Failed and abandoned calls (499: the harness never saw the answer) are kept for the record and
    never trained on (`swerl.tokens.USABLE`). Reward events carry the outcome in `reward` (`value` accepted as input).
    """

    model_config = ConfigDict(extra="ignore", arbitrary_types_allowed=True)

    id: int | None = Field(None, description="Global cursor: strictly increasing in commit order.")
    rollout_id: str = Field(min_length=1)
    group_id: str | None = Field(None, description="Rollouts sampled from the same task.")
    attempt: int = Field(0, description="The rollout attempt (infra retries start a new one).")
    seq: int = Field(description="Per-rollout order, from 1.")
    kind: EventKind
    policy_version: int | None = Field(None, description="The policy that served a call (fixed at admission).")
    mode: str | None = Field(None, description="model_request: chat, completion, continuous or external.")
    engine: str | None = None
    prompt_ids: TokenIds | None = None
    prompt_parent: int | None = Field(None, description="Stored as a delta record (swerl.tokens): the earlier "
                                      "call of this rollout attempt whose prompt ++ response this prompt "
                                      "starts with, for prompt_shared tokens. APIs always show the full prompt.")
    prompt_shared: int | None = Field(None, description="Tokens shared with the parent's prompt ++ response.")
    response_ids: TokenIds | None = None
    response_logprobs: Floats | None = None
    finish_reason: str | None = None
    error: str | None = None
    http_status: int | None = Field(None, description="What the client was answered; 499: the client was gone.")
    state: State | None = Field(None, description="status events: the new state.")
    reward: float | None = Field(None, validation_alias=AliasChoices("reward", "value"))
    data: Any = None
    request: Any = Field(None, description="The request JSON (secrets redacted), when asked for.")
    response: Any = Field(None, description="The response JSON without token arrays, when asked for.")
    t_arrival: float | None = Field(None, description="Request received.")
    t_start: float | None = Field(None, description="Admitted: after any hold.")
    t_end: float | None = Field(None, description="Engine answered.")
    created: float | None = Field(None, description="Committed.")

    @model_validator(mode="after")
    def _fields_for_kind(self) -> Event:
        if self.kind == "model_request":
            if self.error is None and self.response_ids is not None and self.response_logprobs is not None \
                    and len(self.response_logprobs) != len(self.response_ids):
                raise ValueError(f"response_logprobs has {len(self.response_logprobs)} values for "
                                 f"{len(self.response_ids)} response_ids")
        elif self.kind == "reward" and self.reward is None:
            raise ValueError("reward (or value) is required for a reward event")
        return self


__all__ = ["GONE", "Event", "EventKind", "Floats", "State", "TokenIds", "as_array"]
