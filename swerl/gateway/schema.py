"""Every pydantic model of the gateway's HTTP API (the `Event` record is `swerl.events`).

The proxy parses its large bodies by hand for speed; `ChatCompletionRequest`/`CompletionRequest`
only document them in the OpenAPI spec (and give the fuzz test something to generate).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from swerl.events import Event, EventKind, State

HELD_S_HEADER = "x-swerl-held-s"
"""On every answer of the proxy: the rollout's `held_s` at that moment (`Rollout.held_s`), so a harness can keep
its time budget without asking the gateway (`swerl.rollout.held.HeldTime`)."""

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$"
Id = Annotated[str, Field(pattern=ID_PATTERN, description="1-128 chars of [A-Za-z0-9._:-]")]
# SQLite integers are 64-bit; keep every client-supplied integer well inside.
BigInt = Annotated[int, Field(ge=0, le=2**53)]
TokenId = Annotated[int, Field(ge=0, le=2**31 - 1)]
FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]
F32_MAX = 3.4028234663852886e38


def _float32(x: float) -> float:
    if abs(x) > F32_MAX:
        raise ValueError(f"{x:g} is outside float32's range (±3.4e38): log-probs are stored as float32")
    return x


LogProb = Annotated[float, Field(allow_inf_nan=False, description="Stored as float32: must be within its range."),
                    AfterValidator(_float32)]


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
    held_s: float = Field(0.0, description="Seconds during which the gateway held this rollout's calls (paused "
                                           "for an update), cumulative over its attempts and including a hold in "
                                           "progress: time the agent did not have; subtract it from time budgets.")


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


class NewEvent(_In):
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
    response_logprobs: list[LogProb] | None = None
    finish_reason: str | None = Field(None, max_length=64)
    request: dict[str, Any] | None = None
    response: dict[str, Any] | None = None
    data: dict[str, Any] = Field(default_factory=dict)


class PageOfEvents(BaseModel):
    items: list[Event]
    next_cursor: int | None = Field(description="Pass back as after/after_seq to continue (POST /events/query: "
                                                "null once everything was returned).")


class RolloutEventsQuery(_In):
    """The events of many rollouts in one request: what the trainer fetches for an update (JSON
    `PageOfEvents`, or a binary token batch by content negotiation: `Accept`)."""

    rollout_ids: list[Id] = Field(min_length=1, max_length=100_000)
    kinds: list[EventKind] | None = Field(None, description="Only these kinds (default: all).")
    current_attempt: bool = Field(False, description="Only events of each rollout's current attempt.")
    include_json: Literal["none", "last", "all"] = Field(
        "none", description="Request/response JSON: on no event, on each rollout's last model_request, on all.")
    after: BigInt = Field(0, description="Global cursor: only events with a larger id (paging).")
    limit: int = Field(200_000, ge=1, le=1_000_000)


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
    max_hold_s: float = Field(description="A call held longer than this is answered 503.")
    client_timeout_s: float = Field(description="The HTTP timeout a harness should use: a pause (at most "
                                                "max_hold_s) plus the engine's read timeout always fit in it.")


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


class AnthropicMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: Literal["user", "assistant"]
    content: str | list[dict[str, Any]]


class AnthropicMessagesRequest(BaseModel):
    """Documentation only: an Anthropic Messages request (`swerl.gateway.dialects.anthropic`)."""

    model_config = ConfigDict(extra="allow")
    model: str
    max_tokens: int = Field(ge=1)
    messages: list[AnthropicMessage] = Field(min_length=1)
    system: str | list[dict[str, Any]] | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: dict[str, Any] | None = None
    stop_sequences: list[str] | None = None
    temperature: float | None = None
    top_p: float | None = None
    stream: bool = False


class ResponsesRequest(BaseModel):
    """Documentation only: an OpenAI Responses request (`swerl.gateway.dialects.responses`); stateless."""

    model_config = ConfigDict(extra="allow")
    model: str | None = None
    input: str | list[dict[str, Any]]
    instructions: str | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    max_output_tokens: int | None = Field(None, ge=1)
    temperature: float | None = None
    top_p: float | None = None
    stream: bool = False
