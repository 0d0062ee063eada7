"""A fast fake OpenAI-compatible engine for the gateway tests and `bench/gateway.py` (run as a script there).

It speaks just enough HTTP/1.1 (keep-alive, Content-Length requests, chunked
SSE responses) on a raw asyncio protocol so that it costs a few tens of
microseconds per call: the benchmark measures the gateway, not the fake.
Responses look like vLLM's with `return_token_ids`: `prompt_token_ids`,
`choices[].token_ids` and per-token logprobs. The first response token id is
the request counter, so every recorded call is distinguishable.

Fault injection (`fail_every`, `drop_every`, `delay_s`) exercises the
gateway's retries and pause/drain.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import orjson


@dataclass
class FakeConfig:
    prompt_len: int = 2000
    response_len: int = 200
    fail_every: int = 0  # every k-th request answers 503
    drop_every: int = 0  # every k-th request closes the connection without answering
    fail_first: int = 0  # the first n requests answer 503
    delay_s: float = 0.0  # answer after this long (keeps calls in flight)
    chunk_delay_s: float = 0.0  # streamed answers: this long between chunks
    max_model_len: int = 32768  # the context limit /models reports
    model: str = "fake"


@dataclass
class FakeStats:
    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    bodies: list[dict] = field(default_factory=list)  # parsed requests, only when record=True
    record: bool = False


def response_logprob(i: int) -> float:
    """The fake's logprob for response position i (tests compare recorded values against it)."""
    return -0.125 - (i % 7) * 0.0625


class _Bodies:
    """Precomputed JSON fragments, so one answer is a few byte concatenations."""

    def __init__(self, cfg: FakeConfig) -> None:
        self.prompt = orjson.dumps(list(range(1000, 1000 + cfg.prompt_len)))
        self.resp_rest = orjson.dumps(list(range(2001, 2000 + cfg.response_len)))[1:]
        n = cfg.response_len
        self.chat_lp = orjson.dumps([{"token": f"t{i}", "logprob": response_logprob(i), "bytes": [116],
                                      "top_logprobs": []} for i in range(n)])
        self.cmpl_lp = orjson.dumps({"tokens": [f"t{i}" for i in range(n)],
                                     "token_logprobs": [response_logprob(i) for i in range(n)],
                                     "top_logprobs": None, "text_offset": list(range(n))})
        self.model = cfg.model.encode()
        self.usage = b'{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}' % (
            cfg.prompt_len, n, cfg.prompt_len + n)
        self.n = n

    def resp_ids(self, k: int) -> bytes:
        return b"[%d," % k + self.resp_rest if self.n > 1 else b"[%d]" % k

    def chat(self, k: int) -> bytes:
        return (b'{"id":"chatcmpl-fake-%d","object":"chat.completion","created":%d,"model":"%s",'
                b'"prompt_token_ids":%s,"choices":[{"index":0,"message":{"role":"assistant",'
                b'"content":"fake reply %d"},"logprobs":{"content":%s},"finish_reason":"stop",'
                b'"token_ids":%s}],"usage":%s}'
                % (k, int(time.time()), self.model, self.prompt, k, self.chat_lp, self.resp_ids(k), self.usage))

    def completion(self, k: int, prompt_ids: bytes | None) -> bytes:
        return (b'{"id":"cmpl-fake-%d","object":"text_completion","created":%d,"model":"%s",'
                b'"choices":[{"index":0,"text":"fake reply %d","logprobs":%s,"finish_reason":"stop",'
                b'"prompt_token_ids":%s,"token_ids":%s}],"usage":%s}'
                % (k, int(time.time()), self.model, k, self.cmpl_lp, prompt_ids or self.prompt,
                   self.resp_ids(k), self.usage))

    def chat_chunks(self, k: int) -> list[bytes]:
        """The same answer as SSE chunks: a role chunk with prompt ids, 4 content pieces, [DONE]."""
        ids = orjson.loads(self.resp_ids(k))
        lps = orjson.loads(self.chat_lp)
        text = f"fake reply {k}"
        out = [orjson.dumps({"id": f"chatcmpl-fake-{k}", "object": "chat.completion.chunk", "created": 0,
                             "model": self.model.decode(), "prompt_token_ids": orjson.loads(self.prompt),
                             "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                          "logprobs": None, "finish_reason": None}]})]
        step = max(1, (len(ids) + 3) // 4)
        pieces = [text[i * len(text) // 4:(i + 1) * len(text) // 4] for i in range(4)]
        for j in range(4):
            sl = slice(j * step, (j + 1) * step)
            out.append(orjson.dumps({
                "id": f"chatcmpl-fake-{k}", "object": "chat.completion.chunk", "created": 0,
                "model": self.model.decode(),
                "choices": [{"index": 0, "delta": {"content": pieces[j]}, "logprobs": {"content": lps[sl]},
                             "finish_reason": "stop" if j == 3 else None, "token_ids": ids[sl]}]}))
        return [b"data: " + c + b"\n\n" for c in out] + [b"data: [DONE]\n\n"]


class HttpProtocol(asyncio.Protocol):
    """Just enough HTTP/1.1 server (keep-alive, Content-Length bodies) for fake engines: subclasses
    implement `handle(method, path, body)` and answer with `send`/`send_chunks`. Shared with
    `bench/token_traffic.py`'s trace-replaying engine."""

    def __init__(self) -> None:
        self.buf = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def handle(self, method: str, path: str, body: bytes) -> None:
        raise NotImplementedError

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buf[:end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                k, _, v = line.partition(":")
                if k.strip().lower() == "content-length":
                    length = int(v)
            if len(self.buf) < end + 4 + length:
                return
            body = self.buf[end + 4:end + 4 + length]
            self.buf = self.buf[end + 4 + length:]
            parts = head.split(" ", 2)
            self.handle(parts[0], parts[1] if len(parts) > 1 else "/", body)

    def send(self, status: int, body: bytes, ctype: bytes = b"application/json") -> None:
        if self.transport is None or self.transport.is_closing():
            return
        self.transport.write(b"HTTP/1.1 %d X\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s"
                             % (status, ctype, len(body), body))

    def send_chunks(self, chunks: list[bytes], gap_s: float = 0.0) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        out = [b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"]
        out += [b"%x\r\n%s\r\n" % (len(c), c) for c in chunks]
        out.append(b"0\r\n\r\n")
        if gap_s <= 0:
            self.transport.write(b"".join(out))
            return
        loop = asyncio.get_running_loop()
        for i, piece in enumerate(out):
            loop.call_later(i * gap_s, lambda p=piece: self.transport and not self.transport.is_closing()
                            and self.transport.write(p))


class _Protocol(HttpProtocol):
    def __init__(self, server: FakeUpstream) -> None:
        super().__init__()
        self.s = server

    def handle(self, method: str, path: str, body: bytes) -> None:
        self.s._handle(self, method, path, body)


def serve_in_thread(factory: Any, port: int = 0, name: str = "fake-upstream") -> tuple[asyncio.AbstractEventLoop, int]:
    """Serve `factory` (an asyncio protocol factory) on 127.0.0.1 from a daemon thread; (its loop, port)."""
    ready = threading.Event()
    out: list[Any] = []

    def run() -> None:
        loop = asyncio.new_event_loop()
        server = loop.run_until_complete(loop.create_server(factory, "127.0.0.1", port, backlog=4096))
        out.extend([loop, server.sockets[0].getsockname()[1]])
        ready.set()
        loop.run_forever()

    threading.Thread(target=run, daemon=True, name=name).start()
    if not ready.wait(10):
        raise RuntimeError(f"{name}: the server did not start")
    return out[0], out[1]


class FakeUpstream:
    """Serve the fake engine on 127.0.0.1:port in this process's event loop (or a thread: `start_in_thread`)."""

    def __init__(self, cfg: FakeConfig | None = None) -> None:
        self.cfg = cfg or FakeConfig()
        self.stats = FakeStats()
        self._bodies = _Bodies(self.cfg)
        self._server: asyncio.AbstractServer | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.port = 0
        self.version = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def start(self, port: int = 0) -> None:
        self._loop = asyncio.get_running_loop()
        self._server = await self._loop.create_server(lambda: _Protocol(self), "127.0.0.1", port, backlog=4096)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()

    def start_in_thread(self, port: int = 0) -> FakeUpstream:
        self._loop, self.port = serve_in_thread(lambda: _Protocol(self), port)
        return self

    def stop_thread(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)

    # the gateway's engine interface (swerl.gateway.engines.InferenceEngine)
    def urls(self) -> list[str]:
        return [self.url]

    def release(self) -> None:
        """Nothing to free."""

    def load_weights(self, version: int) -> None:
        self.version = version

    def busy_seconds(self) -> tuple[float, int]:
        return 0.0, 0

    def close(self) -> None:
        self.stop_thread()

    def _handle(self, proto: _Protocol, method: str, path: str, body: bytes) -> None:
        st, cfg = self.stats, self.cfg
        if method == "GET":
            proto.send(200, b'{"object":"list","data":[{"id":"%s","object":"model","max_model_len":%d}]}'
                       % (self._bodies.model, cfg.max_model_len))
            return
        st.requests += 1
        k = st.requests
        if cfg.drop_every and k % cfg.drop_every == 0:
            assert proto.transport is not None
            proto.transport.close()
            return
        if k <= cfg.fail_first or (cfg.fail_every and k % cfg.fail_every == 0):
            proto.send(503, b'{"error":{"message":"fake overload","type":"overloaded","code":503}}')
            return
        try:
            req = orjson.loads(body) if body else {}
        except orjson.JSONDecodeError:
            req = None
        if not isinstance(req, dict):
            proto.send(400, b'{"error":{"message":"bad json","type":"invalid_request_error","code":400}}')
            return
        if st.record:
            st.bodies.append(req)
        if isinstance(req.get("temperature"), int | float) and req["temperature"] < 0:  # like vLLM's validation
            proto.send(400, b'{"error":{"message":"temperature must be non-negative","type":"BadRequestError",'
                            b'"code":400}}')
            return
        if path.endswith("/chat/completions"):
            if req.get("stream"):
                reply = lambda: proto.send_chunks(self._bodies.chat_chunks(k), cfg.chunk_delay_s)  # noqa: E731
            else:
                out = self._bodies.chat(k)
                reply = lambda: proto.send(200, out)  # noqa: E731
        elif path.endswith("/completions"):
            prompt = req.get("prompt")
            ids = orjson.dumps(prompt) if isinstance(prompt, list) and all(
                isinstance(x, int) for x in prompt) else None
            out = self._bodies.completion(k, ids)
            reply = lambda: proto.send(200, out)  # noqa: E731
        else:
            proto.send(404, b'{"error":{"message":"not found","type":"not_found","code":404}}')
            return
        if cfg.delay_s <= 0:
            reply()
            return
        st.in_flight += 1
        st.max_in_flight = max(st.max_in_flight, st.in_flight)

        def later() -> None:
            st.in_flight -= 1
            reply()

        assert self._loop is not None
        self._loop.call_later(cfg.delay_s, later)


def main() -> None:
    """`python tests/gateway/fake_engine.py --port P`: run the fake as its own process (benchmarks)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--prompt-len", type=int, default=2000)
    ap.add_argument("--response-len", type=int, default=200)
    ap.add_argument("--delay-s", type=float, default=0.0)
    a = ap.parse_args()
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

    async def run() -> None:
        f = FakeUpstream(FakeConfig(prompt_len=a.prompt_len, response_len=a.response_len, delay_s=a.delay_s))
        await f.start(a.port)
        sys.stdout.write(f"READY {f.port}\n")  # the parent reads the port from this line
        sys.stdout.flush()
        await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    main()
