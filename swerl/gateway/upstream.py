"""Registered inference engines, sticky routing, and retried upstream calls.

A rollout is pinned to one engine for life (warm prefix caches, one engine's numerics). Transport
failures and 5xx answers are retried with backoff and jitter; a read timeout is not (the engine
may still be generating), and 4xx answers are the client's to see.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from dataclasses import dataclass, field

import orjson

from swerl.gateway.httpclient import (
    HttpPool,
    HttpResponse,
    StreamingResponse,
    TransportError,
    TransportTimeout,
)
from swerl.log import get_logger

log = get_logger(__name__)
JSON_HEADERS = {"Content-Type": "application/json"}


class UpstreamFailed(Exception):
    """No usable answer after all retries; `status` is what the proxy returns (502/503/504)."""

    def __init__(self, status: int, message: str, body: bytes | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.body = body  # the engine's own error answer, if any


@dataclass
class EngineConnection:
    """The live connection to one registered engine: URL, model override, HTTP pool, load (wire view: `schema.Engine`)."""

    name: str
    url: str
    model: str | None
    pool: HttpPool
    rollouts: int = 0
    max_model_len: int | None = None  # its context limit, as its /models reports it (vLLM's max_model_len)
    asked_limit: float = 0.0  # when /models was last asked (an engine that does not say is asked again later)


def normalise_url(url: str) -> str:
    """Engines are addressed by their OpenAI base URL; `/v1` is appended when missing."""
    u = url.rstrip("/")
    return u if u.endswith("/v1") else u + "/v1"


@dataclass
class Retry:
    attempts: int = 4  # total tries per call
    backoff_s: float = 0.05
    max_backoff_s: float = 2.0


@dataclass
class Engines:
    connect_timeout: float = 5.0
    read_timeout: float = 600.0
    max_connections: int = 1024
    retry: Retry = field(default_factory=Retry)
    by_name: dict[str, EngineConnection] = field(default_factory=dict)

    def add(self, url: str, model: str | None = None) -> EngineConnection:
        url = normalise_url(url)
        name = hashlib.sha1(url.encode()).hexdigest()[:10]
        if name in self.by_name:
            self.by_name[name].model = model
            return self.by_name[name]
        pool = HttpPool(url, max_connections=self.max_connections, connect_timeout=self.connect_timeout,
                        read_timeout=self.read_timeout)
        eng = self.by_name[name] = EngineConnection(name, url, model, pool)
        log.info("engine registered", engine=name, url=url)
        return eng

    async def remove(self, name: str) -> bool:
        eng = self.by_name.pop(name, None)
        if eng is not None:
            await eng.pool.aclose()
        return eng is not None

    def pick(self, current: str | None) -> EngineConnection | None:
        """The rollout's pinned engine, or the least loaded one for a rollout not pinned yet."""
        if current is not None and current in self.by_name:
            return self.by_name[current]
        if not self.by_name:
            return None
        eng = min(self.by_name.values(), key=lambda e: e.rollouts)
        eng.rollouts += 1
        return eng

    async def post(self, eng: EngineConnection, path: str, body: bytes) -> HttpResponse:
        """POST with retries; returns a 2xx/4xx response, raises UpstreamFailed otherwise."""
        return await self._retrying(eng, path, body, stream=False)  # type: ignore[return-value]

    async def open_stream(self, eng: EngineConnection, path: str, body: bytes) -> StreamingResponse:
        """Start a streaming POST with retries up to the response head (nothing sent to the client yet)."""
        return await self._retrying(eng, path, body, stream=True)  # type: ignore[return-value]

    async def _retrying(self, eng: EngineConnection, path: str, body: bytes,
                        stream: bool) -> HttpResponse | StreamingResponse:
        delay = self.retry.backoff_s
        last: UpstreamFailed | None = None
        for i in range(self.retry.attempts):
            try:
                r = await (eng.pool.stream if stream else eng.pool.request)("POST", path, body, JSON_HEADERS)
                if r.status < 500:
                    return r
                err_body = (await drain(r))[:4096] if isinstance(r, StreamingResponse) else r.body
                last = UpstreamFailed(502, f"engine answered {r.status}", err_body)
            except TransportTimeout as exc:
                if "connect" not in str(exc):
                    raise UpstreamFailed(504, f"engine timed out: {exc}") from exc
                last = UpstreamFailed(502, f"engine unreachable: {exc}")
            except TransportError as exc:
                last = UpstreamFailed(502, f"engine unreachable: {exc}")
            if i + 1 < self.retry.attempts:
                log.info("upstream retry", engine=eng.name, attempt=i + 1, error=last.message)
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, self.retry.max_backoff_s)
        assert last is not None
        raise last

    async def context_limit(self, eng: EngineConnection) -> int | None:
        """The engine's context length in tokens (`max_model_len` of its /models answer), if it reports one."""
        now = asyncio.get_running_loop().time()
        if eng.max_model_len is None and now - eng.asked_limit > 60:
            eng.asked_limit = now
            try:
                r = await eng.pool.request("GET", "/models")
                cards = orjson.loads(r.body).get("data") if r.status == 200 else None
                lens = [c.get("max_model_len") for c in cards or [] if isinstance(c, dict)]
                lens = [n for n in lens if type(n) is int and n > 0]
                eng.max_model_len = min(lens) if lens else None
            except (TransportError, orjson.JSONDecodeError, AttributeError) as exc:
                log.info("engine context limit unknown", engine=eng.name, error=str(exc))
        return eng.max_model_len

    async def aclose(self) -> None:
        for eng in self.by_name.values():
            await eng.pool.aclose()


async def drain(r: StreamingResponse) -> bytes:
    """The (error) body of a streamed answer (empty if the transfer broke); the connection is released."""
    try:
        return await r.read()
    except TransportError:
        return b""
    finally:
        await r.aclose()
