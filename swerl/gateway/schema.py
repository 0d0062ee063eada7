"""Every pydantic model of the gateway's HTTP API, in one place.

The proxy endpoints parse their (large) bodies by hand for speed; the
`ChatCompletionRequest`/`CompletionRequest` models here only document them in
the OpenAPI spec (and give the fuzz test something to generate).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

State = Literal["queued", "running", "succeeded", "failed_agent", "failed_infra"]
EventKind = Literal["model_request", "reward", "status"]
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$"
Id = Annotated[str, Field(pattern=ID_PATTERN, description="1-128 chars of [A-Za-z0-9._:-]")]
# SQLite integers are 64-bit; keep every client-supplied integer well inside.
BigInt = Annotated[int, Field(ge=0, le=2**53)]
TokenId = Annotated[int, Field(ge=0, le=2**31 - 1)]
FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorDetail(BaseModel):
    message: str
    type: str
    code: int | str | None = None


class ErrorBody(BaseModel):
    """Every error, admin or proxy, is this OpenAI-style JSON object."""

    error: ErrorDetail


class RolloutCreate(_In):
    id: Id | None = Field(None, description="Caller-supplied id: creating it again is a no-op (idempotent).")
    group_id: Id | None = Field(None, description="Rollouts sampled from the same task; defaults to the id.")
    max_attempts: int = Field(3, ge=1, le=100, description="Attempts allowed, counting infra retries.")
    metadata: dict[str, Any] = Field(default_factory=dict)


class Rollout(BaseModel):
    id: str
    group_id: str
    state: State
    attempt: int
    max_attempts: int
    engine: str | None
    metadata: dict[str, Any]
    created: float
    updated: float


class RolloutCreated(Rollout):
    token: str | None = Field(None, description="The rollout's bearer token; only in the response that created it.")
    created_now: bool


class RolloutPage(BaseModel):
    items: list[Rollout]
    next_cursor: str | None


class StatusPatch(_In):
    state: State
    attempt: int | None = Field(None, ge=1, le=1000, description="Guard: the attempt the caller is reporting on.")
    reason: str | None = Field(None, max_length=4000)


class TokenIssued(BaseModel):
    rollout_id: str
    token: str


class EventIn(_In):
    """An event appended by the trainer/runner (the proxy records model_request events itself)."""

    kind: EventKind
    idempotency_key: Id | None = Field(None, description="Appending again with the same key returns the first event.")
    reward: FiniteFloat | None = Field(None, description="kind=reward: the outcome reward.")
    state: State | None = Field(None, description="kind=status: the new state (same rules as PATCH).")
    attempt: int | None = Field(None, ge=1, le=1000)
    reason: str | None = Field(None, max_length=4000)
    policy_version: BigInt | None = None
    prompt_ids: list[TokenId] | None = None
    response_ids: list[TokenId] | None = None
    response_logprobs: list[FiniteFloat] | None = None
    finish_reason: str | None = Field(None, max_length=64)
    request: dict[str, Any] | None = None
    response: dict[str, Any] | None = None
    data: dict[str, Any] = Field(default_factory=dict)


class Event(BaseModel):
    id: int = Field(description="Global cursor: strictly increasing in commit order.")
    rollout_id: str
    group_id: str
    attempt: int
    seq: int = Field(description="Per-rollout order, from 1.")
    kind: EventKind
    policy_version: int | None
    mode: str | None = Field(None, description="model_request: 'chat', 'completion' or 'continuous'.")
    engine: str | None
    prompt_ids: list[int] | None
    response_ids: list[int] | None
    response_logprobs: list[float] | None
    finish_reason: str | None
    error: str | None
    http_status: int | None
    state: State | None
    reward: float | None
    data: dict[str, Any] | None
    request: Any | None = None
    response: Any | None = None
    t_arrival: float | None
    t_start: float | None
    t_end: float | None
    created: float


class EventPage(BaseModel):
    items: list[Event]
    next_cursor: int = Field(description="Pass back as after/after_seq to continue.")


class Completed(BaseModel):
    cursor: int
    rollout_id: str
    group_id: str
    attempt: int
    state: State


class CompletedPage(BaseModel):
    items: list[Completed]
    next_cursor: int


class PauseResult(BaseModel):
    paused: bool
    drained: bool
    in_flight: int
    held: int
    policy_version: int


class ResumeIn(_In):
    policy_version: BigInt


class EngineIn(_In):
    url: str = Field(pattern=r"^https?://[^\s/]+(/\S*)?$", max_length=500)
    model: str | None = Field(None, max_length=200, description="Model name to send upstream (overrides the client's).")


class Engine(BaseModel):
    name: str
    url: str
    model: str | None
    rollouts: int = Field(description="Rollouts pinned to it (sticky routing).")


class GatewayStatus(BaseModel):
    paused: bool
    in_flight: int
    held: int
    policy_version: int
    engines: list[Engine]
    continuous_tokens: bool


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: str
    content: Any = None


class ChatCompletionRequest(BaseModel):
    """Documentation only: any OpenAI chat request; the gateway adds return_token_ids and logprobs."""

    model_config = ConfigDict(extra="allow")
    model: str | None = None
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    max_tokens: int | None = None
    temperature: float | None = None


class CompletionRequest(BaseModel):
    """Documentation only: an OpenAI completions request; `prompt` may be a string or token ids."""

    model_config = ConfigDict(extra="allow")
    model: str | None = None
    prompt: str | list[int]
    stream: bool = False
    max_tokens: int | None = None
