"""Server-sent events: split an engine's streamed body into `data:` payloads, and accumulate them
into what a non-streamed call would have returned, so streamed calls are recorded like the others."""

from __future__ import annotations

from array import array
from collections.abc import AsyncIterator
from typing import Any

import orjson

from swerl.gateway.recorder import Tokens


async def data_events(chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """Yield each event's data (multi-line data joined by newlines); other SSE fields are dropped."""
    buf = b""
    async for chunk in chunks:
        buf += chunk
        if b"\r" in buf:
            buf = buf.replace(b"\r\n", b"\n")
        while True:
            i = buf.find(b"\n\n")
            if i < 0:
                break
            block, buf = buf[:i], buf[i + 2:]
            lines = [ln[5:].lstrip(b" ") if ln.startswith(b"data:") else None for ln in block.split(b"\n")]
            data = [ln for ln in lines if ln is not None]
            if data:
                yield b"\n".join(data)
    if buf.strip().startswith(b"data:"):
        yield buf.strip()[5:].lstrip(b" ")


class StreamAccumulator:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.prompt_ids: list[int] | None = None
        self.ids: list[int] = []
        self.lps: list[float] = []
        self.text: list[str] = []
        self.finish_reason: str | None = None
        self.head: dict[str, Any] = {}
        self.usage: Any = None
        self.problems: list[str] = []
        self._saw_ids = False
        self._saw_lps = False

    def add(self, obj: dict[str, Any]) -> None:
        if not self.head:
            self.head = {k: obj.get(k) for k in ("id", "created", "model")}
        if obj.get("usage"):
            self.usage = obj["usage"]
        if isinstance(obj.get("prompt_token_ids"), list):
            self.prompt_ids = obj["prompt_token_ids"]
        choices = obj.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return
        ch = choices[0]
        if isinstance(ch.get("prompt_token_ids"), list):
            self.prompt_ids = ch["prompt_token_ids"]
        if isinstance(ch.get("token_ids"), list):
            self._saw_ids = True
            self.ids.extend(ch["token_ids"])
        if isinstance(ch.get("finish_reason"), str):
            self.finish_reason = ch["finish_reason"]
        lp = ch.get("logprobs")
        if self.kind == "chat":
            delta = ch.get("delta")
            if isinstance(delta, dict) and isinstance(delta.get("content"), str):
                self.text.append(delta["content"])
            content = lp.get("content") if isinstance(lp, dict) else None
            if isinstance(content, list):
                self._saw_lps = True
                self.lps.extend(e.get("logprob") for e in content if isinstance(e, dict))
        else:
            if isinstance(ch.get("text"), str):
                self.text.append(ch["text"])
            tl = lp.get("token_logprobs") if isinstance(lp, dict) else None
            if isinstance(tl, list):
                self._saw_lps = True
                self.lps.extend(tl)

    def tokens(self) -> Tokens:
        t = Tokens(finish_reason=self.finish_reason, text="".join(self.text), problems=list(self.problems))
        try:
            t.prompt_ids = array("i", self.prompt_ids) if self.prompt_ids is not None else None
            t.response_ids = array("i", self.ids) if self._saw_ids else None
            t.logprobs = array("f", self.lps) if self._saw_lps else None
        except (TypeError, OverflowError):
            t.problems.append("malformed token ids or logprobs in stream")
            t.prompt_ids = t.response_ids = t.logprobs = None
        for name in ("prompt_ids", "response_ids", "logprobs"):
            if getattr(t, name) is None:
                t.problems.append(f"{name} missing")
        return t.checked()

    def response_json(self) -> bytes:
        text = "".join(self.text)
        choice: dict[str, Any] = {"index": 0, "finish_reason": self.finish_reason}
        if self.kind == "chat":
            choice["message"] = {"role": "assistant", "content": text}
        else:
            choice["text"] = text
        return orjson.dumps({**self.head, "object": "chat.completion" if self.kind == "chat" else "text_completion",
                             "choices": [choice], "usage": self.usage, "streamed": True})
