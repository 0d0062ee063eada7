"""Continuous-token mode: keep a rollout one token sequence.

When a chat request extends the rollout's previous call (its messages, the reply the engine
produced, then new messages), the engine gets `prev_prompt_ids + prev_response_ids + delta_ids`
as a token prompt, `delta_ids` tokenising only what the chat template adds after the reply. Every
action is then conditioned on exactly the tokens it is trained on, and merging sees one sample per
rollout instead of breaking where detokenise -> retokenise drifts. Anything that does not fit
(the template rewrites the reply, tools, non-text content, edited history) is served as plain chat.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any

from swerl.log import get_logger

log = get_logger(__name__)
Msgs = list[tuple[str, str]]

# Sampling parameters that mean the same in chat and completions requests.
_SHARED_PARAMS = ("model", "max_tokens", "temperature", "top_p", "top_k", "min_p", "seed", "stop", "stop_token_ids",
                  "presence_penalty", "frequency_penalty", "repetition_penalty", "ignore_eos", "min_tokens", "user")


@dataclass(slots=True)
class LastCall:
    messages: Msgs
    prompt_ids: array
    response_ids: array
    text: str


def normalise(messages: Any) -> Msgs | None:
    """(role, content) pairs for plain-text conversations; None when anything else is in there."""
    if not isinstance(messages, list):
        return None
    out = []
    for m in messages:
        if not isinstance(m, dict) or not isinstance(m.get("role"), str) or not isinstance(m.get("content"), str):
            return None
        if m.get("tool_calls") or m.get("tool_call_id"):
            return None
        out.append((m["role"], m["content"]))
    return out


class Continuer:
    def __init__(self, tokenizer: Any) -> None:
        self.tok = tokenizer
        self._special = set(getattr(tokenizer, "all_special_ids", []) or [])

    def _render(self, msgs: Msgs, gen: bool) -> str:
        return self.tok.apply_chat_template([{"role": r, "content": c} for r, c in msgs], tokenize=False,
                                            add_generation_prompt=gen)

    def plan(self, last: LastCall | None, req: dict[str, Any]) -> list[int] | None:
        """The token prompt that continues `last`, or None to serve this call as plain chat."""
        if last is None or req.get("tools") or req.get("n", 1) != 1 or req.get("response_format"):
            return None
        msgs = normalise(req.get("messages"))
        k = len(last.messages)
        if msgs is None or len(msgs) <= k + 1 or msgs[:k] != last.messages or msgs[k] != ("assistant", last.text):
            return None
        try:
            a = self._render(last.messages, True)
            b = self._render(msgs[:k + 1], False)
            c = self._render(msgs, True)
        except Exception as exc:  # a template that rejects the conversation: plain chat decides
            log.info("continuous: template failed, plain chat", error=repr(exc))
            return None
        tail = b[len(a):]
        if not (b.startswith(a) and c.startswith(b) and tail.startswith(last.text)):
            return None
        end_marker = tail[len(last.text):]
        if last.response_ids and last.response_ids[-1] in self._special:
            sampled_end = self.tok.decode([last.response_ids[-1]], skip_special_tokens=False)
            if sampled_end and end_marker.startswith(sampled_end):
                end_marker = end_marker[len(sampled_end):]
        delta = self.tok.encode(end_marker + c[len(b):], add_special_tokens=False)
        return [*last.prompt_ids, *last.response_ids, *delta]


def completion_request(chat_req: dict[str, Any], prompt_ids: list[int]) -> dict[str, Any]:
    """The /completions request that serves a chat request from a token prompt."""
    out = {k: chat_req[k] for k in _SHARED_PARAMS if k in chat_req}
    if "max_completion_tokens" in chat_req and "max_tokens" not in out:
        out["max_tokens"] = chat_req["max_completion_tokens"]
    out.update(prompt=prompt_ids, return_token_ids=True, logprobs=1, stream=bool(chat_req.get("stream")))
    return out


def _chat_logprobs(lp: Any) -> list[dict[str, Any]]:
    """Completions log-probs (`tokens`, `token_logprobs`) as chat `logprobs.content` entries."""
    lp = lp or {}
    return [{"token": t, "logprob": p, "bytes": None, "top_logprobs": []}
            for t, p in zip(lp.get("tokens") or [], lp.get("token_logprobs") or [], strict=False)]


def as_chat(d: dict[str, Any]) -> dict[str, Any]:
    """A completions response re-shaped as the chat completion the harness asked for."""
    ch = d["choices"][0]
    return {"id": d.get("id"), "object": "chat.completion", "created": d.get("created"), "model": d.get("model"),
            "prompt_token_ids": ch.get("prompt_token_ids", d.get("prompt_token_ids")),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": ch.get("text", "")},
                         "logprobs": {"content": _chat_logprobs(ch.get("logprobs"))}, "finish_reason": ch.get("finish_reason"),
                         "token_ids": ch.get("token_ids")}],
            "usage": d.get("usage")}


def as_chat_chunk(d: dict[str, Any], first: bool) -> dict[str, Any]:
    """A streamed completions chunk re-shaped as a chat.completion.chunk (continuous mode, stream=true)."""
    choices = d.get("choices") or [{}]
    ch = choices[0] if isinstance(choices[0], dict) else {}
    delta: dict[str, Any] = {"content": ch.get("text") or ""}
    if first:
        delta["role"] = "assistant"
    content = _chat_logprobs(ch.get("logprobs"))
    out_ch: dict[str, Any] = {"index": 0, "delta": delta, "finish_reason": ch.get("finish_reason"),
                              "logprobs": {"content": content} if content else None}
    if "token_ids" in ch:
        out_ch["token_ids"] = ch["token_ids"]
    out = {"id": d.get("id"), "object": "chat.completion.chunk", "created": d.get("created"),
           "model": d.get("model"), "choices": [out_ch]}
    prompt = ch.get("prompt_token_ids", d.get("prompt_token_ids"))
    if prompt is not None:
        out["prompt_token_ids"] = prompt
    if d.get("usage"):
        out["usage"] = d["usage"]
    return out
