"""An OpenAI-compatible server over any token-level generator, answering like vLLM.

Responses carry what vLLM returns with `return_token_ids` (`prompt_token_ids`, `choices[].token_ids`
with a sampled end-of-turn token) and per-token logprobs. Chat prompts are the chat template
rendered as text, tokenised without extra special tokens, as vLLM does. Streaming emits one
chunk per token after generation.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import Response, StreamingResponse


@dataclass
class Sampling:
    max_tokens: int = 256
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 0
    seed: int | None = None
    stop: list[str] = field(default_factory=list)
    allowed_token_ids: list[int] | None = None  # vLLM's option: sample only among these ids


@dataclass
class Generation:
    token_ids: list[int]
    logprobs: list[float]
    finish_reason: str


class EngineError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _sampling(req: dict[str, Any], default_max: int) -> Sampling:
    def num(key: str, default: float, lo: float, hi: float) -> float:
        v = req.get(key)
        if v is None:
            return default
        if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= v <= hi:
            raise EngineError(400, f"{key}: must be a number in [{lo}, {hi}]")
        return v

    mt_key = "max_tokens" if req.get("max_tokens") is not None else "max_completion_tokens"
    stop = req.get("stop") or []
    stop = [stop] if isinstance(stop, str) else stop
    if not isinstance(stop, list) or not all(isinstance(s, str) for s in stop):
        raise EngineError(400, "stop: must be a string or a list of strings")
    seed = req.get("seed")
    allowed = req.get("allowed_token_ids")
    if allowed is not None and (not isinstance(allowed, list) or not allowed
                                or not all(type(t) is int and 0 <= t < (1 << 31) for t in allowed)):
        raise EngineError(400, "allowed_token_ids: must be a non-empty list of token ids")
    return Sampling(max_tokens=int(num(mt_key, default_max, 1, 1 << 20)),
                    temperature=float(num("temperature", 1.0, 0, 100)), top_p=float(num("top_p", 1.0, 0, 1)),
                    top_k=int(num("top_k", 0, -1, 1 << 20)), seed=seed if isinstance(seed, int) else None, stop=stop,
                    allowed_token_ids=allowed)


class TokenEngine(ABC):
    """Subclasses implement `generate`; this class serves it over HTTP like vLLM."""

    def __init__(self, tokenizer: Any, model_name: str = "swerl", default_max_tokens: int = 256,
                 history: int = 1000) -> None:
        self.tokenizer = tokenizer
        self.model_name = model_name
        self.default_max_tokens = default_max_tokens
        self.max_model_len = 32768  # the context limit /v1/models reports (as vLLM does)
        self.version = 0
        self.busy_s = 0.0  # time spent generating, and tokens generated (the trainer's idle/throughput metrics)
        self.tokens = 0
        self.lock = threading.Lock()  # one generation (or weight load) at a time
        self.history: deque[dict[str, Any]] = deque(maxlen=history)  # what was produced, for checks

    @abstractmethod
    def generate(self, prompt_ids: list[int], params: Sampling) -> Generation: ...

    def chat_prompt(self, messages: list[dict[str, Any]], req: dict[str, Any]) -> list[int]:
        kw = {"tools": req["tools"]} if req.get("tools") else {}
        text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True, **kw)
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def _run(self, prompt: list[int], params: Sampling) -> Generation:
        with self.lock:
            t0 = time.perf_counter()
            gen = self.generate(prompt, params)
            self.busy_s += time.perf_counter() - t0
            self.tokens += len(gen.token_ids)
            self.history.append({"prompt_ids": list(prompt), "token_ids": list(gen.token_ids),
                                 "logprobs": list(gen.logprobs), "finish_reason": gen.finish_reason,
                                 "version": self.version})
        return gen

    def _piece(self, tid: int) -> str:
        return self.tokenizer.decode([tid], skip_special_tokens=False)

    def _text(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=True)

    async def handle(self, req: Any, chat: bool) -> tuple[dict[str, Any], Generation, list[int]]:
        if not isinstance(req, dict):
            raise EngineError(400, "body must be a JSON object")
        if req.get("n", 1) != 1:
            raise EngineError(400, "n: only 1 is supported")
        params = _sampling(req, self.default_max_tokens)
        if params.allowed_token_ids and max(params.allowed_token_ids) >= len(self.tokenizer):
            raise EngineError(400, "allowed_token_ids: ids must be inside the vocabulary")
        if chat:
            msgs = req.get("messages")
            if not isinstance(msgs, list) or not msgs or not all(isinstance(m, dict) for m in msgs):
                raise EngineError(400, "messages: must be a non-empty list of objects")
            try:
                prompt = self.chat_prompt(msgs, req)
            except Exception as exc:  # the template refused the conversation
                raise EngineError(400, f"chat template: {exc}") from exc
        else:
            p = req.get("prompt")
            if isinstance(p, str):
                prompt = list(self.tokenizer.encode(p, add_special_tokens=False))
            elif isinstance(p, list) and p and all(type(x) is int and 0 <= x < len(self.tokenizer) for x in p):
                prompt = p
            else:
                raise EngineError(400, "prompt: a string or a non-empty list of valid token ids")
        gen = await asyncio.to_thread(self._run, prompt, params)
        return req, gen, prompt

    def chat_body(self, req: dict[str, Any], gen: Generation, prompt: list[int]) -> dict[str, Any]:
        ch: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": self._text(gen.token_ids)},
                              "logprobs": None, "finish_reason": gen.finish_reason}
        if req.get("logprobs"):
            ch["logprobs"] = {"content": [
                {"token": (t := self._piece(i)), "logprob": lp, "bytes": list(t.encode()), "top_logprobs": []}
                for i, lp in zip(gen.token_ids, gen.logprobs, strict=True)]}
        out = {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()),
               "model": self.model_name, "choices": [ch], "usage": self._usage(prompt, gen)}
        if req.get("return_token_ids"):
            out["prompt_token_ids"] = prompt
            ch["token_ids"] = gen.token_ids
        return out

    def completion_body(self, req: dict[str, Any], gen: Generation, prompt: list[int]) -> dict[str, Any]:
        ch: dict[str, Any] = {"index": 0, "text": self._text(gen.token_ids), "logprobs": None,
                              "finish_reason": gen.finish_reason}
        if req.get("logprobs") is not None and req.get("logprobs") is not False:
            pieces = [self._piece(i) for i in gen.token_ids]
            offsets = list(accumulate((len(p) for p in pieces[:-1]), initial=0)) if pieces else []
            ch["logprobs"] = {"tokens": pieces, "token_logprobs": gen.logprobs, "top_logprobs": None,
                              "text_offset": offsets}
        if req.get("return_token_ids"):
            ch["prompt_token_ids"] = prompt
            ch["token_ids"] = gen.token_ids
        return {"id": f"cmpl-{uuid.uuid4().hex}", "object": "text_completion", "created": int(time.time()),
                "model": self.model_name, "choices": [ch], "usage": self._usage(prompt, gen)}

    @staticmethod
    def _usage(prompt: list[int], gen: Generation) -> dict[str, int]:
        return {"prompt_tokens": len(prompt), "completion_tokens": len(gen.token_ids),
                "total_tokens": len(prompt) + len(gen.token_ids)}

    def chunks(self, body: dict[str, Any], chat: bool) -> list[bytes]:
        """The same answer as SSE: ids/logprobs split per token like vLLM streams them."""
        ch = body["choices"][0]
        ids = ch.get("token_ids")
        base = {k: body[k] for k in ("id", "created", "model")}
        base["object"] = "chat.completion.chunk" if chat else "text_completion"
        out = []
        first: dict[str, Any] = {**base, "choices": [{"index": 0, "logprobs": None, "finish_reason": None,
                                                      **({"delta": {"role": "assistant", "content": ""}} if chat
                                                         else {"text": ""})}]}
        if chat and "prompt_token_ids" in body:
            first["prompt_token_ids"] = body["prompt_token_ids"]
        if not chat and ids is not None:
            first["choices"][0]["prompt_token_ids"] = ch["prompt_token_ids"]
        out.append(first)
        n = len(ids) if ids is not None else 0
        lp = ch.get("logprobs")
        sent = ""
        for j in range(n):
            c: dict[str, Any] = {"index": 0, "finish_reason": ch["finish_reason"] if j == n - 1 else None,
                                 "token_ids": [ids[j]]}
            # incremental detokenisation: hold back a partial UTF-8 character until it is complete
            text = self.tokenizer.decode(ids[:j + 1], skip_special_tokens=True)
            piece = ""
            if text.startswith(sent) and (j == n - 1 or not text.endswith("\ufffd")):
                piece, sent = text[len(sent):], text
            if chat:
                c["delta"] = {"content": piece}
                c["logprobs"] = {"content": [lp["content"][j]]} if lp else None
            else:
                c["text"] = piece
                c["logprobs"] = ({"tokens": [lp["tokens"][j]], "token_logprobs": [lp["token_logprobs"][j]],
                                  "top_logprobs": None, "text_offset": [lp["text_offset"][j]]} if lp else None)
            out.append({**base, "choices": [c]})
        return [b"data: " + orjson.dumps(c) + b"\n\n" for c in out] + [b"data: [DONE]\n\n"]

    def app(self) -> FastAPI:
        """The HTTP face of the engine (serve it with swerl.gateway.server.ServerThread)."""
        app = FastAPI(title=f"swerl engine ({type(self).__name__})")

        async def serve(request: Request, chat: bool) -> Response:
            try:
                try:
                    req = orjson.loads(await request.body())
                except orjson.JSONDecodeError:
                    raise EngineError(400, "body is not JSON") from None
                req, gen, prompt = await self.handle(req, chat)
            except EngineError as exc:
                return Response(orjson.dumps({"error": {"message": str(exc), "type": "invalid_request_error",
                                                        "code": exc.status}}), exc.status,
                                media_type="application/json")
            body = self.chat_body(req, gen, prompt) if chat else self.completion_body(req, gen, prompt)
            if req.get("stream"):
                return StreamingResponse(iter(self.chunks(body, chat)), media_type="text/event-stream")
            return Response(orjson.dumps(body), media_type="application/json")

        @app.post("/v1/chat/completions")
        async def chat_completions(request: Request) -> Response:
            return await serve(request, True)

        @app.post("/v1/completions")
        async def completions(request: Request) -> Response:
            return await serve(request, False)

        @app.get("/v1/models")
        async def models() -> dict:
            return {"object": "list", "data": [{"id": self.model_name, "object": "model", "version": self.version,
                                                "max_model_len": self.max_model_len}]}

        @app.get("/health")
        async def health() -> dict:
            return {"ok": True, "version": self.version}

        return app
