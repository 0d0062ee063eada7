"""A scripted engine that calls tools the way vLLM's hermes tool parser reports them.

Replies are scripted text with real token ids (`ScriptedEngine`); a reply containing
`<tool_call>{"name": .., "arguments": {..}}</tool_call>` is answered as vLLM does with a tool
parser: `content` is the text before the first call, `tool_calls` carry the parsed calls with
arguments re-serialised by `json.dumps(ensure_ascii=False)`, `finish_reason` is `tool_calls`;
streamed, the content arrives per token and the calls as tool-call deltas (id and name first,
then the arguments in two pieces). The dialect tests drive real SDK clients against it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from scripted_engine import ScriptedEngine

_CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)


def parse_calls(text: str) -> tuple[str, list[dict[str, Any]]]:
    """(content, tool_calls) of a hermes-format reply."""
    start = text.find("<tool_call>")
    if start < 0:
        return text, []
    calls = []
    for k, m in enumerate(_CALL.finditer(text)):
        d = json.loads(m.group(1))
        calls.append({"id": f"call_{k}_{abs(hash(m.group(1))) % 10**8}", "type": "function",
                      "function": {"name": d["name"], "arguments": json.dumps(d["arguments"], ensure_ascii=False)}})
    return text[:start], calls


class ToolEngine(ScriptedEngine):
    """`ScriptedEngine` answering tool calls like vLLM with `--tool-call-parser hermes`."""

    matched_stop: str | None = None  # the stop string that ended the last generation (vLLM's `stop_reason`)

    def chat_body(self, req: dict[str, Any], gen: Any, prompt: list[int]) -> dict[str, Any]:
        body = super().chat_body(req, gen, prompt)
        ch = body["choices"][0]
        content, calls = parse_calls(ch["message"]["content"])
        if calls:
            ch["message"] = {"role": "assistant", "content": content or None, "tool_calls": calls}
            ch["finish_reason"] = "tool_calls"
        if req.get("stop") and gen.finish_reason == "stop":
            ch["stop_reason"] = self.matched_stop
        return body

    def generate(self, prompt_ids: list[int], params: Any) -> Any:
        """The scripted reply, cut at the first stop string (not included), as vLLM does."""
        gen = super().generate(prompt_ids, params)
        self.matched_stop = None
        text = self.tokenizer.decode(gen.token_ids, skip_special_tokens=True)
        hits = [(text.find(s), s) for s in params.stop if s in text]
        if hits:
            at, self.matched_stop = min(hits)
            ids = [*self.tokenizer.encode(text[:at], add_special_tokens=False)]
            gen.token_ids, gen.logprobs = ids, gen.logprobs[:len(ids)]
        return gen

    def chunks(self, body: dict[str, Any], chat: bool) -> list[bytes]:
        calls = body["choices"][0]["message"].get("tool_calls") if chat else None
        if not calls:
            out = super().chunks(body, chat)
            last = orjson.loads(out[-2][6:])
            last["choices"][0]["stop_reason"] = body["choices"][0].get("stop_reason")
            return [*out[:-2], b"data: " + orjson.dumps(last) + b"\n\n", out[-1]]
        text = body["choices"][0]["message"]["content"] or ""
        plain = super().chunks({**body, "choices": [{**body["choices"][0], "finish_reason": None}]}, chat)[:-1]
        out, sent = [], 0
        for raw in plain:  # per-token chunks: token ids and logprobs, content only up to the first call
            c = orjson.loads(raw[6:])
            delta = c["choices"][0].get("delta", {})
            if "content" in delta:
                piece = delta["content"][:max(0, len(text) - sent)]
                sent += len(delta["content"])
                delta["content"] = piece
            out.append(c)
        base = {k: body[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
        for k, tc in enumerate(calls):
            args = tc["function"]["arguments"]
            deltas = [{"index": k, "id": tc["id"], "type": "function",
                       "function": {"name": tc["function"]["name"], "arguments": ""}},
                      {"index": k, "function": {"arguments": args[:len(args) // 2]}},
                      {"index": k, "function": {"arguments": args[len(args) // 2:]}}]
            out += [{**base, "choices": [{"index": 0, "delta": {"tool_calls": [d]}, "logprobs": None,
                                          "finish_reason": None}]} for d in deltas]
        out.append({**base, "choices": [{"index": 0, "delta": {}, "logprobs": None, "finish_reason": "tool_calls"}]})
        return [b"data: " + orjson.dumps(c) + b"\n\n" for c in out] + [b"data: [DONE]\n\n"]
