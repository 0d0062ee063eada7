"""OpenAI-compatible proxy per rollout: base_url = http://gateway/v1/rollouts/{id}, rollout token as API key."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from swerl.gateway import proxy
from swerl.gateway.dialects import Dialect
from swerl.gateway.dialects.anthropic import ANTHROPIC
from swerl.gateway.dialects.responses import RESPONSES
from swerl.gateway.errors import ApiError
from swerl.gateway.routers.deps import RolloutId
from swerl.gateway.schema import (
    AnthropicMessagesRequest,
    ChatCompletionRequest,
    CompletionRequest,
    ErrorBody,
    ResponsesRequest,
)

router = APIRouter(prefix="/v1/rollouts/{rollout_id}", tags=["proxy"])
_ERRORS = {s: {"model": ErrorBody} for s in (400, 401, 403, 404, 409, 413, 502, 503, 504)}


def _inline(node: object, defs: dict) -> object:
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline(defs[node["$ref"].rsplit("/", 1)[1]], defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _body_doc(model: type) -> dict:
    """Document the hand-parsed body in OpenAPI (self-contained: no $defs)."""
    schema = model.model_json_schema()  # type: ignore[attr-defined]
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": _inline(schema, schema.get("$defs", {}))}}}}


@router.post("/chat/completions", responses=_ERRORS, openapi_extra=_body_doc(ChatCompletionRequest))
async def chat_completions(rollout_id: RolloutId, request: Request) -> Response:
    """Forward a chat completion to the rollout's engine, record its tokens durably, return the answer."""
    return await proxy.handle(request.app.state.gw, rollout_id, request, "chat")


@router.post("/completions", responses=_ERRORS, openapi_extra=_body_doc(CompletionRequest))
async def completions(rollout_id: RolloutId, request: Request) -> Response:
    """Forward a text completion (string or token-id prompt) and record it."""
    return await proxy.handle(request.app.state.gw, rollout_id, request, "completion")


@router.post("/v1/messages", responses=_ERRORS, openapi_extra=_body_doc(AnthropicMessagesRequest))
async def anthropic_messages(rollout_id: RolloutId, request: Request) -> Response:
    """Anthropic Messages API (base URL: the rollout's, /v1/messages appended), translated to chat and
    recorded as a chat call; `x-api-key` carries the rollout token. Also served at `/messages`."""
    return await _dialect(request, rollout_id, ANTHROPIC)


@router.post("/responses", responses=_ERRORS, openapi_extra=_body_doc(ResponsesRequest))
async def responses(rollout_id: RolloutId, request: Request) -> Response:
    """OpenAI Responses API (stateless: no previous_response_id), translated to chat and recorded as one."""
    return await _dialect(request, rollout_id, RESPONSES)


async def _dialect(request: Request, rollout_id: str, dialect: Dialect) -> Response:
    """Reached only if the app's proxy fast path is bypassed (it serves these paths): same answers."""
    try:
        return await proxy.handle(request.app.state.gw, rollout_id, request, "chat", dialect)
    except ApiError as exc:
        return Response(dialect.error(exc.status, exc.message, exc.type), exc.status, media_type="application/json")


@router.get("/models", responses=_ERRORS)
async def models(rollout_id: RolloutId, request: Request) -> dict:
    """The models this rollout can reach (OpenAI clients sometimes ask)."""
    gw = request.app.state.gw
    await gw.authorize(rollout_id, request.headers.get("authorization"))
    names = sorted({e.model or "default" for e in gw.engines.by_name.values()})
    return {"object": "list", "data": [{"id": n, "object": "model", "owned_by": "swerl"} for n in names]}

