"""API dialects other than OpenAI chat completions, translated to chat completions and back.

A harness that speaks Anthropic Messages or OpenAI Responses reaches the engine through the very
same recording path as a chat call (`proxy.handle`): its body is translated to a chat request
(that is what the engine sees and what the store keeps), the engine's chat answer (or stream) is
translated back. Translators are pure: no I/O, no gateway state, so they are tested on their own
and the recording, hold and 499 logic exists once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from starlette.datastructures import Headers

from swerl.gateway.errors import ApiError


class StreamOut(ABC):
    """Turns the engine's chat.completion.chunk objects into the dialect's SSE bytes, one call's worth."""

    @abstractmethod
    def chunk(self, obj: dict[str, Any]) -> bytes:
        """SSE bytes for one chat chunk (may be empty)."""

    @abstractmethod
    def finish(self) -> bytes:
        """The closing events; sent only once the call is recorded."""

    @abstractmethod
    def fail(self, message: str) -> bytes:
        """An in-stream error event (engine stream broke, store failed) ending the stream."""


class Dialect(ABC):
    """One client API: auth header, request translation, answers, errors, streams."""

    name: str

    def auth(self, headers: Headers) -> str | None:
        """The `Authorization` header value the gateway's rollout-token check reads."""
        return headers.get("authorization")

    @abstractmethod
    def to_chat(self, body: Any) -> dict[str, Any]:
        """The chat completions request for a dialect body; ApiError(400) naming the bad field."""

    @abstractmethod
    def answer(self, chat: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
        """The dialect's response for the engine's chat completion (`source`: the dialect request)."""

    @abstractmethod
    def error(self, status: int, message: str, type_: str | None = None) -> bytes:
        """An error body in the dialect's own shape."""

    @abstractmethod
    def stream(self, source: dict[str, Any]) -> StreamOut:
        """A translator for one streamed call."""


def bad(where: str, message: str) -> ApiError:
    """A 400 naming the field, the way every gateway error does (`field: what is wrong`)."""
    return ApiError(400, f"{where}: {message}")


def obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad(where, "must be an object")
    return value


def string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise bad(where, "must be a string")
    return value


def number(body: dict[str, Any], key: str) -> float | None:
    v = body.get(key)
    if v is not None and (isinstance(v, bool) or not isinstance(v, int | float) or v != v):
        raise bad(key, "must be a number")
    return v


def flag(body: dict[str, Any], key: str) -> bool | None:
    v = body.get(key)
    if v is not None and not isinstance(v, bool):
        raise bad(key, "must be a boolean")
    return v


def positive_int(body: dict[str, Any], key: str, *, required: bool) -> int | None:
    v = body.get(key)
    if v is None and not required:
        return None
    if type(v) is not int or v < 1:
        raise bad(key, ("required: " if v is None else "") + "must be a positive integer")
    return v


def texts(value: Any, where: str, kinds: tuple[str, ...]) -> str:
    """A string, or text parts of the given types joined by newlines (what vLLM does with text parts)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        raise bad(where, "must be a string or a list of text parts")
    out = []
    for j, part in enumerate(value):
        p = obj(part, f"{where}[{j}]")
        if p.get("type") not in kinds:
            raise bad(f"{where}[{j}].type", f"{p.get('type')!r} is not supported here (only {', '.join(kinds)})")
        out.append(string(p.get("text"), f"{where}[{j}].text"))
    return "\n".join(out)


def first_choice(chat: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(choice, message) of a chat completion, empty dicts where the engine left something out."""
    choices = chat.get("choices")
    ch = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    msg = ch.get("message")
    return ch, msg if isinstance(msg, dict) else {}


def tool_calls(msg: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(id, name, arguments) of a chat message's function tool calls."""
    out = []
    for i, tc in enumerate(msg.get("tool_calls") or []):
        if not isinstance(tc, dict) or not isinstance(tc.get("function"), dict):
            continue
        fn = tc["function"]
        args = fn.get("arguments")
        out.append((str(tc.get("id") or f"call_{i}"), str(fn.get("name") or ""),
                    args if isinstance(args, str) else "{}"))
    return out


def usage(chat: dict[str, Any], prompt: int | None = None, output: int | None = None) -> tuple[int, int]:
    """(input, output) tokens: the engine's usage, else the counted token ids."""
    u = chat.get("usage") if isinstance(chat.get("usage"), dict) else {}
    pi, co = u.get("prompt_tokens"), u.get("completion_tokens")
    return (pi if type(pi) is int else prompt or 0), (co if type(co) is int else output or 0)


class ChunkReader:
    """Reads chat.completion.chunk objects into content operations both stream translators share:
    `("text", piece)`, `("tool", index, id, name)` when a tool call begins, `("args", index, piece)`."""

    def __init__(self) -> None:
        self.head: dict[str, Any] = {}
        self.prompt_tokens: int | None = None
        self.output_tokens = 0
        self.usage: dict[str, Any] | None = None
        self.finish_reason: str | None = None
        self.stop_reason: Any = None
        self._tools: set[int] = set()

    def ops(self, obj: dict[str, Any]) -> list[tuple]:
        if not self.head:
            self.head = {k: obj.get(k) for k in ("id", "created", "model")}
        if isinstance(obj.get("usage"), dict):
            self.usage = obj["usage"]
        if isinstance(obj.get("prompt_token_ids"), list):
            self.prompt_tokens = len(obj["prompt_token_ids"])
        choices = obj.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return []
        ch = choices[0]
        if isinstance(ch.get("token_ids"), list):
            self.output_tokens += len(ch["token_ids"])
        if isinstance(ch.get("finish_reason"), str):
            self.finish_reason = ch["finish_reason"]
        if ch.get("stop_reason") is not None:
            self.stop_reason = ch["stop_reason"]
        delta = ch.get("delta") if isinstance(ch.get("delta"), dict) else {}
        out: list[tuple] = []
        if isinstance(delta.get("content"), str) and delta["content"]:
            out.append(("text", delta["content"]))
        for tc in delta.get("tool_calls") or []:
            if not isinstance(tc, dict):
                continue
            idx = tc.get("index") if type(tc.get("index")) is int else 0
            fn = tc.get("function") if isinstance(tc.get("function"), dict) else {}
            if idx not in self._tools:
                self._tools.add(idx)
                out.append(("tool", idx, str(tc.get("id") or f"call_{idx}"), str(fn.get("name") or "")))
            if isinstance(fn.get("arguments"), str) and fn["arguments"]:
                out.append(("args", idx, fn["arguments"]))
        return out

    def counts(self) -> tuple[int, int]:
        return usage({"usage": self.usage}, self.prompt_tokens, self.output_tokens)

    def as_chat(self) -> dict[str, Any]:
        """The finish of the streamed call as a chat completion's choice would say it."""
        return {"choices": [{"finish_reason": self.finish_reason, "stop_reason": self.stop_reason}]}
