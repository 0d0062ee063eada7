"""One proxied LLM call: authorise, hold if paused, forward, record durably, answer.

The hot path: raw bytes + orjson (no pydantic model of a chat request), token arrays straight
into compact blobs. The event commits before the response is sent, so whatever the harness saw
is in the store; conversely `http_status 200` means the client was still connected when its
answer was recorded. A client that went away gets its call recorded as 499 (never trained on:
the harness never saw it); a held call whose client leaves is not served at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import orjson
from fastapi import Request
from fastapi.responses import Response, StreamingResponse

from swerl.events import GONE
from swerl.gateway import sql
from swerl.gateway.continuous import LastCall, as_chat, as_chat_chunk, completion_request, normalise
from swerl.gateway.control import ClientGone, HeldTooLong
from swerl.gateway.dialects import Dialect, StreamOut
from swerl.gateway.errors import ApiError
from swerl.gateway.httpclient import StreamingResponse as HttpStream
from swerl.gateway.httpclient import TransportError
from swerl.gateway.recorder import (
    BadUpstreamResponse,
    RequestHead,
    Tokens,
    encode_request,
    error_json,
    extract,
    for_storage,
    redacted_json,
    strip_for_client,
)
from swerl.gateway.schema import HELD_S_HEADER
from swerl.gateway.service import Gateway, RolloutRec, event_values
from swerl.gateway.sse import StreamAccumulator, data_events
from swerl.gateway.upstream import EngineConnection, UpstreamFailed, drain
from swerl.log import get_logger

log = get_logger(__name__)
JSON = "application/json"


class ClientWatch:
    """Notices the client's disconnect: after the body, the ASGI `receive` channel yields only
    `http.disconnect`. A streamed response listens on `receive` instead of the raw channel."""

    def __init__(self, receive: Any) -> None:
        self._receive = receive
        self.gone = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        with contextlib.suppress(Exception):
            while (await self._receive())["type"] != "http.disconnect":
                pass
        self.gone.set()

    async def receive(self) -> dict[str, str]:
        await self.gone.wait()
        return {"type": "http.disconnect"}

    def close(self) -> None:
        self._task.cancel()


def _check(kind: str, req: Any) -> None:
    """Reject what cannot be recorded as one call; everything else passes through untouched."""
    if not isinstance(req, dict):
        raise ApiError(400, "the request body must be a JSON object")
    if kind == "chat":
        msgs = req.get("messages")
        if not isinstance(msgs, list) or not msgs:
            raise ApiError(400, "messages: must be a non-empty list")
        if not all(isinstance(m, dict) and isinstance(m.get("role"), str) for m in msgs):
            raise ApiError(400, "messages: every message must be an object with a string role")
    else:
        p = req.get("prompt")
        ok = isinstance(p, str) or (isinstance(p, list) and p and all(
            type(x) is int and 0 <= x < 2**31 for x in p))
        if not ok:
            raise ApiError(400, "prompt: must be a string or a non-empty list of token ids")
    if req.get("n", 1) != 1 or req.get("best_of", 1) != 1:
        raise ApiError(400, "n/best_of: only 1 choice per call can be recorded")
    if not isinstance(req.get("stream", False), bool):
        raise ApiError(400, "stream: must be a boolean")
    if "model" in req and not isinstance(req["model"], str):
        raise ApiError(400, "model: must be a string")
    for key in _MAX_KEYS:
        v = req.get(key)
        if v is not None and (type(v) not in (int, float) or v < 1 or v != v):
            raise ApiError(400, f"{key}: must be a positive integer number of tokens")


_MAX_KEYS = ("max_tokens", "max_completion_tokens")
INT32_MAX = 2**31 - 1


async def _check_limit(call: Call, eng: EngineConnection) -> None:
    """A `max_tokens` the engine cannot honour is the client's error (400), not the engine's crash."""
    asked = [(k, call.req[k]) for k in _MAX_KEYS if call.req.get(k) is not None]
    if not asked:
        return
    limit = await call.gw.engines.context_limit(eng)
    for key, v in asked:
        shown = v if type(v) is int else f"{v:g}"
        if limit is not None and v > limit:
            raise ApiError(400, f"{key}: {shown} is more than the engine's context limit of {limit} tokens")
        if v > INT32_MAX or type(v) is not int:
            where = f"the engine's context limit is {limit} tokens" if limit else \
                "the engine does not report its context limit"
            raise ApiError(400, f"{key}: {shown} is not a token count the engine can take ({where})")


def _upstream_body(kind: str, req: dict[str, Any], eng: EngineConnection) -> dict[str, Any]:
    up = dict(req)
    up["return_token_ids"] = True
    if kind == "chat":
        up["logprobs"] = True
    elif type(up.get("logprobs")) is not int or up["logprobs"] < 1:
        up["logprobs"] = 1
    if eng.model:
        up["model"] = eng.model
    return up


class Call:
    """The per-call context shared by the plain, continuous and streamed paths."""

    def __init__(self, gw: Gateway, rec: RolloutRec, kind: str, raw: bytes, req: dict[str, Any], token: str,
                 t_arrival: float, watch: ClientWatch) -> None:
        self.gw, self.rec, self.kind, self.raw, self.req = gw, rec, kind, raw, req
        self.token, self.t_arrival, self.watch = token, t_arrival, watch
        self.held = False
        self.t_start = 0.0
        self.version = 0
        self.mode = "chat" if kind == "chat" else "completion"
        self.engine: EngineConnection | None = None
        self.pin: str | None = None
        self.want_ids = req.get("return_token_ids") is True
        self.want_lp = bool(req.get("logprobs"))
        self.next_parent: tuple[int, bytes, int | None, bool] | None = None  # once committed: a token head
        self.next_req: tuple[RequestHead, int | None, bool] | None = None  # once committed: a request head
        self.dialect: Dialect | None = None  # the client's API when it is not chat completions (`dialects`)
        self.source: dict[str, Any] = {}  # its request as the client sent it; `req` is the chat translation

    def stored_request(self) -> tuple[bytes, int | None, int | None]:
        """(request JSON to store, parent event id, shared length): redacted, then delta-encoded against the
        rollout's earlier requests (`recorder.encode_request`); it becomes a head once its write commits."""
        raw = redacted_json(self.raw, self.req, (self.token, self.gw.admin_token))
        parsed = self.req if raw is self.raw else orjson.loads(raw)
        stored, parent, shared, head, extends = encode_request(raw, parsed, self.rec.req_heads)
        if head is not None:
            self.next_req = (head, parent, extends)
        return stored, parent, shared

    def values(self, toks: Tokens | None, *, status: int, error: str | None, response: bytes | None) -> tuple:
        if self.watch.gone.is_set() and status < 400:
            status, error = GONE, "; ".join(filter(None, ["client disconnected before the response", error]))
        prompt, parent, shared = self.delta(toks, status, error)
        request, req_parent, req_shared = self.stored_request()
        return event_values(
            self.rec, "model_request", data={"dialect": self.dialect.name} if self.dialect else None,
            policy_version=self.version, mode=self.mode,
            engine=self.engine.name if self.engine else None, prompt_parent=parent, prompt_shared=shared,
            prompt_ids=prompt, response_ids=toks.response_ids if toks else None,
            response_logprobs=toks.logprobs if toks else None, finish_reason=toks.finish_reason if toks else None,
            error=error, http_status=status, request=request, response=response, req_parent=req_parent,
            req_shared=req_shared, t_arrival=self.t_arrival, t_start=self.t_start, t_end=time.time())

    def submit(self, values: tuple) -> Any:
        """Queue the event (with the engine pin of a rollout's first call, and its held time) as one write."""
        pin, rid = self.pin, self.rec.id
        held = self.rec.held_total if self.held else None
        self.pin = None

        def job(c: Any) -> tuple[int, int]:
            if pin is not None:
                sql.set_engine(c, rid, pin)
            if held is not None:
                sql.set_held(c, rid, held)
            return sql.insert_event(c, values)

        return self.gw.store.write(job)

    async def record(self, values: tuple) -> tuple[int, int]:
        return await self.committed(self.submit(values))

    def delta(self, toks: Tokens | None, status: int, error: str | None) -> tuple[Any, int | None, int | None]:
        """(stored prompt, parent event id, shared length): a delta record against the rollout's recent
        calls (`RolloutRec.encode_tokens`); a usable call becomes a head once its write commits."""
        if toks is None or toks.prompt_ids is None:
            return None, None, None
        usable = error is None and status == 200 and toks.response_ids is not None and toks.logprobs is not None
        stored, parent, shared, head = self.rec.encode_tokens(toks.prompt_ids, toks.response_ids, self.rec.attempt,
                                                              usable)
        if head is not None:
            self.next_parent = head
        return stored, parent, shared

    async def committed(self, fut: Any) -> tuple[int, int]:
        ids = await self.gw.committed(fut, self.rec)
        self.rec.add_heads(ids[0], self.next_parent, self.next_req)  # durable now: later calls may build on it
        self.next_parent = self.next_req = None
        return ids

    async def failed(self, status: int, message: str, upstream_body: bytes | None = None) -> Response:
        """Record a failed call, then answer with an OpenAI-style error (or the engine's own 4xx JSON)."""
        body = error_json(message, "upstream_error" if status >= 500 else "invalid_request_error", status)
        stored = None
        with contextlib.suppress(orjson.JSONDecodeError):
            if upstream_body and isinstance(orjson.loads(upstream_body), dict):
                stored = upstream_body
                if status < 500:
                    body = upstream_body
        if self.dialect is not None:  # in the client's own error shape, with the engine's message
            body = self.dialect.error(status, _upstream_message(stored, message) if status < 500 else message)
        with contextlib.suppress(ApiError):  # the store is down: the error answer still goes out
            await self.record(self.values(None, status=status, error=message, response=stored))
        return Response(body, status, media_type=JSON, headers={HELD_S_HEADER: self.held_header()})

    def headers(self, eid: int, seq: int) -> dict[str, str]:
        return {"x-swerl-event-id": str(eid), "x-swerl-seq": str(seq), "x-swerl-policy-version": str(self.version),
                "x-swerl-mode": self.mode, HELD_S_HEADER: self.held_header()}

    def held_header(self) -> str:
        """The rollout's held seconds so far (this call's hold included): a harness's budget reads it here."""
        return f"{self.rec.held_s:.3f}"

    def remember(self, toks: Tokens) -> None:
        """Continuous-token mode: keep this call as the base that the next call may extend."""
        if self.gw.continuous is None or self.kind != "chat":
            return
        msgs = normalise(self.req.get("messages"))
        ok = msgs is not None and toks.prompt_ids is not None and toks.response_ids is not None
        self.rec.last_call = LastCall(msgs, toks.prompt_ids, toks.response_ids, toks.text) if ok else None


def _upstream_message(body: bytes | None, default: str) -> str:
    """The engine's own error message (OpenAI shape), for a dialect client that reads another shape."""
    err = orjson.loads(body).get("error") if body else None
    msg = err.get("message") if isinstance(err, dict) else None
    return f"{default}: {msg}" if isinstance(msg, str) and msg else default


async def handle(gw: Gateway, rid: str, request: Request, kind: str, dialect: Dialect | None = None) -> Response:
    """Serve one call; a `dialect` call is translated to chat and served, held and recorded as one."""
    t_arrival = time.time()
    header = request.headers.get("authorization") if dialect is None else dialect.auth(request.headers)
    rec = await gw.authorize(rid, header)
    raw = await request.body()
    try:
        req = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ApiError(400, "the request body is not valid JSON") from None
    source = req
    if dialect is not None:
        req = dialect.to_chat(source)
        raw = orjson.dumps(req)
    _check(kind, req)
    call = Call(gw, rec, kind, raw, req, header.partition(" ")[2].strip() if header else "", t_arrival,
                ClientWatch(request.receive))
    call.dialect, call.source = dialect, source
    resp = None
    try:
        resp = await _admitted(call)
        return resp
    finally:
        if not isinstance(resp, _Stream):  # a stream closes the watch when it ends
            call.watch.close()


async def _admitted(call: Call) -> Response:
    """Hold while paused (a gone client leaves the hold unserved), then serve the call."""
    gw, rec, req = call.gw, call.rec, call.req
    if gw.gate.paused:
        call.held = True
        rec.hold_begin()
        failure = None
        try:
            call.version = await gw.gate.enter(call.watch.gone)
        except ClientGone:
            failure = (GONE, "client disconnected while the call was held")
        except HeldTooLong:
            failure = (503, f"held for {gw.gate.max_hold_s:.0f} s by a paused gateway; retry")
        finally:
            rec.hold_end()  # before the event's write, which persists the rollout's held time
            call.t_start = time.time()
        if failure:
            return await call.failed(*failure)
    else:
        call.version = await gw.gate.enter()
    streaming = False
    try:
        call.t_start = time.time()
        eng = gw.engines.pick(rec.engine)
        if eng is None:
            return await call.failed(503, "no inference engine is registered")
        call.engine = eng
        if rec.engine != eng.name:
            call.pin = rec.engine = eng.name
        try:
            await _check_limit(call, eng)
        except ApiError as exc:
            return await call.failed(exc.status, exc.message)
        path, up = _route(call)
        stream = req.get("stream") is True
        try:
            r: Any = await (gw.engines.open_stream if stream else gw.engines.post)(eng, path, orjson.dumps(up))
        except UpstreamFailed as exc:
            return await call.failed(exc.status, exc.message, exc.body)
        if r.status >= 400:
            body = await drain(r) if stream else r.body
            return await call.failed(r.status, f"engine rejected the request ({r.status})", body)
        if not stream:
            return await _plain(call, r.body)
        resp = _stream(call, r)
        streaming = True  # the stream leaves the gate when it ends
        return resp
    finally:
        if not streaming:
            gw.gate.leave()


def _route(call: Call) -> tuple[str, dict[str, Any]]:
    """Engine path and body: continuous-token mode when the call extends the rollout's last one."""
    gw, req, eng = call.gw, call.req, call.engine
    assert eng is not None
    prompt = gw.continuous.plan(call.rec.last_call, req) if gw.continuous and call.kind == "chat" else None
    if prompt is not None:
        call.mode = "continuous"
        up = completion_request(req, prompt)
        if eng.model:
            up["model"] = eng.model
        return "/completions", up
    return ("/chat/completions" if call.kind == "chat" else "/completions"), _upstream_body(call.kind, req, eng)


async def _plain(call: Call, body: bytes) -> Response:
    try:
        d = orjson.loads(body)
        if not isinstance(d, dict):
            raise BadUpstreamResponse("not a JSON object")
        if call.mode == "continuous":
            d = as_chat(d)
        toks = extract(d, call.kind == "chat")
    except (orjson.JSONDecodeError, BadUpstreamResponse, KeyError, IndexError, TypeError, AttributeError) as exc:
        return await call.failed(502, f"engine returned an unusable response: {exc}")
    if toks.problems:
        log.warning("call recorded without complete tokens", rollout=call.rec.id, problems=toks.problems)
    if call.dialect is not None:
        stored = orjson.dumps(strip_for_client(d, False, False))  # stored as a chat call's answer
        out = orjson.dumps(call.dialect.answer(d, call.source))
    elif call.want_ids or call.want_lp:
        stored = for_storage(d)
        out = orjson.dumps(strip_for_client(d, call.want_ids, call.want_lp))
    else:  # neither ids nor log-probs asked for: one serialised body serves the store and the answer
        out = stored = orjson.dumps(strip_for_client(d, False, False))
    eid, seq = await call.record(call.values(toks, status=200, error="; ".join(toks.problems) or None,
                                             response=stored))
    call.remember(toks)
    return Response(out, 200, media_type=JSON, headers=call.headers(eid, seq))


class _Stream(StreamingResponse):
    """A streamed answer whose cleanup (gate leave, pending write) runs even if it never started.

    It listens for the disconnect on the call's `ClientWatch` (the raw channel has one reader).
    """

    def __init__(self, gen: Any, cleanup: Any, headers: dict[str, str], watch: ClientWatch) -> None:
        super().__init__(gen, media_type="text/event-stream", headers=headers)
        self._cleanup = cleanup
        self._watch = watch

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, self._watch.receive, send)
        finally:
            self._watch.close()
            self._cleanup()


def _stream_end(out: StreamOut | None, error: str | None, type_: str, status: int) -> bytes:
    """The end of a recorded stream: the dialect's closing events, or an error event; chat ends in [DONE]."""
    if out is not None:
        return out.fail(error) if error else out.finish()
    return (b"data: " + error_json(error, type_, status) + b"\n\n" if error else b"") + b"data: [DONE]\n\n"


def _stream(call: Call, sr: HttpStream) -> Response:
    gw, continuous = call.gw, call.mode == "continuous"
    state = {"submitted": False, "closed": False}
    acc = StreamAccumulator(call.kind)
    gone = call.watch.gone

    def cleanup() -> None:
        if state["closed"]:
            return
        state["closed"] = True
        if not state["submitted"]:  # the client went away mid-stream: record what was served anyway
            toks = acc.tokens()
            call.submit(call.values(toks, status=GONE, error="client disconnected mid-stream",
                                    response=acc.response_json()))
        gw.gate.leave()

    async def gen() -> Any:
        error = None
        out = call.dialect.stream(call.source) if call.dialect else None  # None: chat chunks as they came
        try:
            async for data in data_events(sr.iter_bytes()):
                if data.strip() == b"[DONE]" or gone.is_set():
                    break
                try:
                    obj = orjson.loads(data)
                except orjson.JSONDecodeError:
                    continue
                if not isinstance(obj, dict):
                    continue
                if continuous:
                    obj = as_chat_chunk(obj, first=not acc.head)
                acc.add(obj)
                if out is not None:
                    piece = out.chunk(obj)
                    if piece:
                        yield piece
                    continue
                if not (call.want_ids and call.want_lp):
                    strip_for_client(obj, call.want_ids, call.want_lp)
                yield b"data: " + orjson.dumps(obj) + b"\n\n"
        except TransportError as exc:
            error = f"engine stream broke: {exc}"
        finally:
            await sr.aclose()
        toks = acc.tokens()
        problems = ([error] if error else []) + toks.problems
        values = call.values(toks, status=502 if error else 200, error="; ".join(problems) or None,
                             response=acc.response_json())
        try:
            fut = call.submit(values)
            state["submitted"] = True
            await call.committed(fut)
            call.remember(toks)
        except ApiError as exc:
            yield _stream_end(out, exc.message, exc.type, exc.status)
            return
        yield _stream_end(out, error, "upstream_error", 502)

    return _Stream(gen(), cleanup, {"x-swerl-policy-version": str(call.version), "x-swerl-mode": call.mode,
                                    HELD_S_HEADER: call.held_header()}, call.watch)
