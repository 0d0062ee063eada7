"""The FastAPI application: routers, JSON error handlers, request size limit.

Every error leaves as `{"error": {"message", "type", "code"}}` with a 4xx status (502/503/504 for
upstream or store trouble); no client input may produce a 500 (the fuzz test holds it to that).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from swerl import __version__
from swerl.gateway import proxy as proxy_call
from swerl.gateway.dialects import Dialect
from swerl.gateway.dialects.anthropic import ANTHROPIC
from swerl.gateway.dialects.responses import RESPONSES
from swerl.gateway.errors import ApiError
from swerl.gateway.recorder import error_json
from swerl.gateway.routers import admin, events, proxy, rollouts
from swerl.gateway.schema import ID_PATTERN
from swerl.gateway.service import Gateway
from swerl.log import get_logger

log = get_logger(__name__)
_ID = re.compile(ID_PATTERN)


def _err(status: int, message: str, type_: str, dialect: Dialect | None = None) -> Response:
    body = error_json(message, type_, status) if dialect is None else dialect.error(status, message, type_)
    return Response(body, status, media_type="application/json")


# The proxy's POST paths under /v1/rollouts/{id}/: (kind, dialect). Anthropic clients append /v1/messages
# to their base URL, OpenAI clients /messages or /responses to theirs (which ends in /v1/rollouts/{id}).
PROXY_PATHS: dict[str, tuple[str, Dialect | None]] = {
    "chat/completions": ("chat", None), "completions": ("completion", None), "messages": ("chat", ANTHROPIC),
    "v1/messages": ("chat", ANTHROPIC), "responses": ("chat", RESPONSES)}


def _too_large(scope: Any, max_bytes: int) -> bool:
    for k, v in scope["headers"]:
        if k == b"content-length":
            return not v.isdigit() or int(v) > max_bytes
    return False


def _limited(receive: Any, max_bytes: int) -> Any:
    """A receive() that raises 413 once more than max_bytes of body arrived (chunked uploads)."""
    seen = 0

    async def limited() -> Any:
        nonlocal seen
        msg = await receive()
        if msg["type"] == "http.request":
            seen += len(msg.get("body", b""))
            if seen > max_bytes:
                raise ApiError(413, f"request body over {max_bytes} bytes")
        return msg

    return limited


class BodyLimit:
    """Pure ASGI middleware: 413 for bodies over the limit, by header or by counting what arrives."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _too_large(scope, self.max_bytes):
            await _err(413, f"request body over {self.max_bytes} bytes", "request_too_large")(scope, receive, send)
            return
        await self.app(scope, _limited(receive, self.max_bytes), send)


class ProxyFastPath:
    """The outermost ASGI app: the proxy POST paths skip FastAPI's middleware and routing, which
    cost ~0.1 ms per request (a sixth of the per-call budget), and answer every error in their
    dialect's shape. They stay declared in FastAPI for the OpenAPI spec; everything else goes to
    FastAPI unchanged."""

    _PATH = re.compile(r"^/v1/rollouts/([^/]+)/(chat/completions|completions|messages|v1/messages|responses)$")

    def __init__(self, app: FastAPI, gw: Gateway) -> None:
        self.app = app
        self.gw = gw

    def __getattr__(self, name: str) -> Any:  # behave like the FastAPI app for everyone else
        return getattr(self.app, name)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        m = self._PATH.match(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if m is None:
            await self.app(scope, receive, send)
            return
        rid, (kind, dialect) = m.group(1), PROXY_PATHS[m.group(2)]
        scope["app"] = self.app
        try:
            if _too_large(scope, self.gw.cfg.max_body_bytes):
                raise ApiError(413, f"request body over {self.gw.cfg.max_body_bytes} bytes")
            if not _ID.match(rid):
                raise ApiError(422, f"rollout_id: must match {_ID.pattern}")
            request = Request(scope, _limited(receive, self.gw.cfg.max_body_bytes))
            response = await proxy_call.handle(self.gw, rid, request, kind, dialect)
        except ApiError as exc:
            response = _err(exc.status, exc.message, exc.type, dialect)
        except ClientDisconnect:
            return
        except Exception as exc:
            log.error("unhandled error", path=scope["path"], error=repr(exc), exc_info=exc)
            response = _err(500, "internal error", "internal_error", dialect)
        await response(scope, receive, send)


def create_app(gw: Gateway) -> ProxyFastPath:
    """The gateway's ASGI app (FastAPI behind the proxy fast path)."""
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await gw.aclose()

    extra: dict[str, Any] = {}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters:
        # FastAPI's native OpenTelemetry checks the global providers on every request (~30 us each);
        # the gateway records its own events and has no use for spans on the hot path.
        extra["telemetry"] = {"tracing": False, "metrics": False, "logs": False}
    app = FastAPI(title="swerl gateway", version=__version__, lifespan=lifespan,
                  description="Recording gateway: rollout API, OpenAI-compatible proxy per rollout, pause/hold.",
                  **extra)
    app.state.gw = gw
    # The proxy first: routes are matched in order and it is the hot path.
    for r in (proxy.router, rollouts.router, events.router, admin.router):
        app.include_router(r)

    @app.get("/health", tags=["admin"])
    async def health() -> dict:
        return {"ok": True, "policy_version": gw.gate.policy_version, "paused": gw.gate.paused}

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return _err(exc.status, exc.message, exc.type)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        parts = []
        for e in exc.errors()[:5]:
            loc = ".".join(str(x) for x in e.get("loc", ()) if x not in ("body", "query", "path"))
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        return _err(422, "; ".join(parts) or "invalid request", "invalid_request_error")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        return _err(exc.status_code, str(exc.detail), "invalid_request_error")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.error("unhandled error", path=request.url.path, error=repr(exc), exc_info=exc)
        return _err(500, "internal error", "internal_error")

    app.add_middleware(BodyLimit, max_bytes=gw.cfg.max_body_bytes)
    return ProxyFastPath(app, gw)
