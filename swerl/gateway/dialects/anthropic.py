"""Anthropic Messages (`POST .../v1/messages`) as chat completions, and the answers back.

Tool arguments are re-serialised with `json.dumps(..., ensure_ascii=False)`: vLLM's tool parsers
produce the arguments string that way, so an assistant turn sent back renders the same tokens
the engine produced (no retokenisation drift at tool calls).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import orjson
from starlette.datastructures import Headers

from swerl.gateway.dialects import (
    ChunkReader,
    Dialect,
    StreamOut,
    bad,
    first_choice,
    flag,
    number,
    obj,
    positive_int,
    string,
    texts,
    tool_calls,
    usage,
)
from swerl.gateway.errors import ApiError

_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
          404: "not_found_error", 409: "invalid_request_error", 413: "request_too_large",
          422: "invalid_request_error", 429: "rate_limit_error", 503: "overloaded_error"}
_CHOICE = {"auto": "auto", "any": "required", "none": "none"}


def _tool_result(b: dict[str, Any], where: str) -> dict[str, Any]:
    content = b.get("content", "")
    text = texts(content, f"{where}.content", ("text",))
    is_error = b.get("is_error")
    if is_error is not None and not isinstance(is_error, bool):
        raise bad(f"{where}.is_error", "must be a boolean")
    if is_error:
        text = "Error: " + text
    return {"role": "tool", "tool_call_id": string(b.get("tool_use_id"), f"{where}.tool_use_id"), "content": text}


def _tool_use(b: dict[str, Any], where: str) -> dict[str, Any]:
    args = json.dumps(obj(b.get("input"), f"{where}.input"), ensure_ascii=False)
    return {"id": string(b.get("id"), f"{where}.id"), "type": "function",
            "function": {"name": string(b.get("name"), f"{where}.name"), "arguments": args}}


def _message(m: Any, where: str) -> list[dict[str, Any]]:
    """One Anthropic message as chat messages: a user turn's tool results become tool messages first."""
    m = obj(m, where)
    role = m.get("role")
    if role not in ("user", "assistant"):
        raise bad(f"{where}.role", "must be 'user' or 'assistant'")
    content = m.get("content")
    if isinstance(content, str):
        return [{"role": role, "content": content}]
    if not isinstance(content, list) or not content:
        raise bad(f"{where}.content", "must be a string or a non-empty list of content blocks")
    text, calls, results = [], [], []
    allowed = ("text", "tool_use") if role == "assistant" else ("text", "tool_result")
    for j, block in enumerate(content):
        b, at = obj(block, f"{where}.content[{j}]"), f"{where}.content[{j}]"
        kind = b.get("type")
        if kind not in allowed:
            raise bad(f"{at}.type", f"{kind!r} is not supported in a {role} message (only {', '.join(allowed)})")
        if kind == "text":
            text.append(string(b.get("text"), f"{at}.text"))
        elif kind == "tool_use":
            calls.append(_tool_use(b, at))
        else:
            results.append(_tool_result(b, at))
    if role == "assistant":
        out: dict[str, Any] = {"role": "assistant", "content": "\n".join(text)}
        if calls:
            out["tool_calls"] = calls
        return [out]
    return results + ([{"role": "user", "content": "\n".join(text)}] if text else [])


def _tools(body: dict[str, Any], chat: dict[str, Any]) -> None:
    tools = body.get("tools")
    if tools is not None:
        if not isinstance(tools, list):
            raise bad("tools", "must be a list")
        out = []
        for i, t in enumerate(tools):
            t = obj(t, f"tools[{i}]")
            if t.get("type") not in (None, "custom"):
                raise bad(f"tools[{i}].type", f"server tool {t.get('type')!r} is not supported (client tools only)")
            fn = {"name": string(t.get("name"), f"tools[{i}].name")}
            if t.get("description") is not None:
                fn["description"] = string(t.get("description"), f"tools[{i}].description")
            fn["parameters"] = obj(t.get("input_schema"), f"tools[{i}].input_schema")
            out.append({"type": "function", "function": fn})
        if out:
            chat["tools"] = out
    choice = body.get("tool_choice")
    if choice is not None:
        c = obj(choice, "tool_choice")
        kind = c.get("type")
        if kind == "tool":
            chat["tool_choice"] = {"type": "function", "function": {"name": string(c.get("name"), "tool_choice.name")}}
        elif isinstance(kind, str) and kind in _CHOICE:
            chat["tool_choice"] = _CHOICE[kind]
        else:
            raise bad("tool_choice.type", "must be one of auto, any, tool, none")
        if flag(c, "disable_parallel_tool_use"):
            chat["parallel_tool_calls"] = False


def _sampling(body: dict[str, Any], chat: dict[str, Any]) -> None:
    for key in ("temperature", "top_p"):
        if number(body, key) is not None:
            chat[key] = body[key]
    if body.get("top_k") is not None:
        chat["top_k"] = positive_int(body, "top_k", required=False)
    stops = body.get("stop_sequences")
    if stops is not None:
        if not isinstance(stops, list) or not all(isinstance(s, str) and s for s in stops):
            raise bad("stop_sequences", "must be a list of non-empty strings")
        if stops:
            chat["stop"] = stops
    if flag(body, "stream") is not None:
        chat["stream"] = body["stream"]


def stop_reason(ch: dict[str, Any], called: bool, stops: list[str]) -> tuple[str, str | None]:
    """Anthropic's (stop_reason, stop_sequence) for a chat choice's finish (vLLM's `stop_reason`
    says which stop string matched)."""
    fin, matched = ch.get("finish_reason"), ch.get("stop_reason")
    if called or fin == "tool_calls":
        return "tool_use", None
    if fin == "length":
        return "max_tokens", None
    if fin == "content_filter":
        return "refusal", None
    if isinstance(matched, str) and matched in stops:
        return "stop_sequence", matched
    return "end_turn", None


def _input(arguments: str) -> dict[str, Any]:
    """A tool call's input object; arguments that are not a JSON object are kept under `arguments`."""
    try:
        value = json.loads(arguments)
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {"arguments": arguments}


def _message_id(chat_id: Any) -> str:
    return f"msg_{chat_id}" if isinstance(chat_id, str) and chat_id else f"msg_{uuid.uuid4().hex}"


class AnthropicMessages(Dialect):
    name = "anthropic"

    def auth(self, headers: Headers) -> str | None:
        """Anthropic clients send the key as `x-api-key` (or a bearer token with `auth_token`)."""
        if headers.get("authorization"):
            return headers["authorization"]
        key = headers.get("x-api-key")
        if not key:
            raise ApiError(401, "missing rollout token (x-api-key: <rollout token>, or Authorization: Bearer)")
        return f"Bearer {key}"

    def to_chat(self, body: Any) -> dict[str, Any]:
        b = obj(body, "the request body")
        chat: dict[str, Any] = {"model": string(b.get("model"), "model"),
                                "max_tokens": positive_int(b, "max_tokens", required=True)}
        msgs: list[dict[str, Any]] = []
        if b.get("system") is not None:
            system = texts(b["system"], "system", ("text",))
            if system:
                msgs.append({"role": "system", "content": system})
        raw = b.get("messages")
        if not isinstance(raw, list) or not raw:
            raise bad("messages", "must be a non-empty list")
        for i, m in enumerate(raw):
            msgs.extend(_message(m, f"messages[{i}]"))
        chat["messages"] = msgs
        _tools(b, chat)
        _sampling(b, chat)
        return chat

    def answer(self, chat: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
        ch, msg = first_choice(chat)
        content: list[dict[str, Any]] = []
        if isinstance(msg.get("content"), str) and msg["content"]:
            content.append({"type": "text", "text": msg["content"]})
        calls = tool_calls(msg)
        content += [{"type": "tool_use", "id": i, "name": n, "input": _input(a)} for i, n, a in calls]
        reason, seq = stop_reason(ch, bool(calls), source.get("stop_sequences") or [])
        n_in, n_out = usage(chat)
        return {"id": _message_id(chat.get("id")), "type": "message", "role": "assistant",
                "model": chat.get("model") or source.get("model"), "content": content, "stop_reason": reason,
                "stop_sequence": seq, "usage": {"input_tokens": n_in, "output_tokens": n_out}}

    def error(self, status: int, message: str, type_: str | None = None) -> bytes:
        kind = _TYPES.get(status, "api_error")
        return orjson.dumps({"type": "error", "error": {"type": kind, "message": message}})

    def stream(self, source: dict[str, Any]) -> StreamOut:
        return _Stream(source)


def _event(kind: str, data: dict[str, Any]) -> bytes:
    return b"event: " + kind.encode() + b"\ndata: " + orjson.dumps({"type": kind, **data}) + b"\n\n"


class _Stream(StreamOut):
    """message_start, content blocks (text_delta / input_json_delta), message_delta, message_stop."""

    def __init__(self, source: dict[str, Any]) -> None:
        self.source = source
        self.reader = ChunkReader()
        self.started = False
        self.index = -1
        self.block: tuple | None = None  # ("text",) or ("tool", tool index) while a block is open
        self.called = False

    def _start(self) -> bytes:
        self.started = True
        n_in, _ = self.reader.counts()
        return _event("message_start", {"message": {
            "id": _message_id(self.reader.head.get("id")), "type": "message", "role": "assistant", "content": [],
            "model": self.reader.head.get("model") or self.source.get("model"), "stop_reason": None,
            "stop_sequence": None, "usage": {"input_tokens": n_in, "output_tokens": 0}}})

    def _open(self, block: tuple, content: dict[str, Any]) -> bytes:
        out = self._close()
        self.index += 1
        self.block = block
        return out + _event("content_block_start", {"index": self.index, "content_block": content})

    def _close(self) -> bytes:
        if self.block is None:
            return b""
        self.block = None
        return _event("content_block_stop", {"index": self.index})

    def chunk(self, obj: dict[str, Any]) -> bytes:
        ops = self.reader.ops(obj)
        out = [b"" if self.started else self._start()]
        for op in ops:
            if op[0] == "text":
                if self.block != ("text",):
                    out.append(self._open(("text",), {"type": "text", "text": ""}))
                out.append(_event("content_block_delta", {"index": self.index,
                                                          "delta": {"type": "text_delta", "text": op[1]}}))
            elif op[0] == "tool":
                self.called = True
                out.append(self._open(("tool", op[1]), {"type": "tool_use", "id": op[2], "name": op[3], "input": {}}))
            elif self.block == ("tool", op[1]):
                out.append(_event("content_block_delta", {"index": self.index,
                                                          "delta": {"type": "input_json_delta", "partial_json": op[2]}}))
        return b"".join(out)

    def finish(self) -> bytes:
        head = b"" if self.started else self._start()
        ch = self.reader.as_chat()["choices"][0]
        reason, seq = stop_reason(ch, self.called, self.source.get("stop_sequences") or [])
        _, n_out = self.reader.counts()
        return head + self._close() + _event("message_delta", {
            "delta": {"stop_reason": reason, "stop_sequence": seq}, "usage": {"output_tokens": n_out}}) \
            + _event("message_stop", {})

    def fail(self, message: str) -> bytes:
        return _event("error", {"error": {"type": "api_error", "message": message}})


ANTHROPIC = AnthropicMessages()
