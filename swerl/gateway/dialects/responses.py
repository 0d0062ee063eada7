"""OpenAI Responses (`POST .../responses`) as chat completions, and the answers back.

The gateway keeps no conversation between calls (each call is recorded on its own), so the
stateful parts of the API are refused: `previous_response_id` and `conversation` are 400s, and
`store` is accepted but nothing can be retrieved later (answers say `store: false`). An
assistant `message` item followed by `function_call` items is one chat assistant message with
tool calls, as the engine produced it, so the next prompt renders the same tokens.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import orjson

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
from swerl.gateway.recorder import error_json

_PARTS = ("input_text", "output_text", "text")
_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
_TYPES = {401: "authentication_error", 403: "permission_error", 404: "not_found_error", 409: "conflict_error",
          413: "request_too_large", 502: "upstream_error", 503: "service_unavailable", 504: "upstream_timeout"}
STATELESS = ("not supported: the gateway keeps no conversation between calls; send the whole conversation "
             "in `input`")


def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


def _item(it: dict[str, Any], where: str, msgs: list[dict[str, Any]]) -> None:
    """Append one input item to the chat messages (function calls join the assistant turn before them)."""
    kind = it.get("type") or ("message" if "role" in it else None)
    if kind == "message":
        role = _ROLES.get(it["role"]) if isinstance(it.get("role"), str) else None
        if role is None:
            raise bad(f"{where}.role", "must be user, assistant, system or developer")
        content = it.get("content")
        if isinstance(content, list):  # a refusal the model gave is its text
            content = [{"type": "text", "text": string(p.get("refusal"), f"{where}.content[{j}].refusal")}
                       if isinstance(p, dict) and p.get("type") == "refusal" else p for j, p in enumerate(content)]
        msgs.append({"role": role, "content": texts(content, f"{where}.content", _PARTS)})
    elif kind == "function_call":
        call = {"id": string(it.get("call_id"), f"{where}.call_id"), "type": "function",
                "function": {"name": string(it.get("name"), f"{where}.name"),
                             "arguments": string(it.get("arguments"), f"{where}.arguments")}}
        if msgs and msgs[-1]["role"] == "assistant":
            msgs[-1].setdefault("tool_calls", []).append(call)
        else:
            msgs.append({"role": "assistant", "content": "", "tool_calls": [call]})
    elif kind == "function_call_output":
        output = texts(it.get("output"), f"{where}.output", _PARTS)
        msgs.append({"role": "tool", "tool_call_id": string(it.get("call_id"), f"{where}.call_id"), "content": output})
    else:
        raise bad(f"{where}.type", f"{kind!r} is not supported (message, function_call, function_call_output)")


def _tools(body: dict[str, Any], chat: dict[str, Any]) -> None:
    tools = body.get("tools")
    if tools is not None:
        if not isinstance(tools, list):
            raise bad("tools", "must be a list")
        out = []
        for i, t in enumerate(tools):
            t = obj(t, f"tools[{i}]")
            if t.get("type") != "function":
                raise bad(f"tools[{i}].type", f"{t.get('type')!r} is not supported (function tools only)")
            fn: dict[str, Any] = {"name": string(t.get("name"), f"tools[{i}].name")}
            if t.get("description") is not None:
                fn["description"] = string(t.get("description"), f"tools[{i}].description")
            params = t.get("parameters")
            fn["parameters"] = {"type": "object", "properties": {}} if params is None else obj(
                params, f"tools[{i}].parameters")
            out.append({"type": "function", "function": fn})
        if out:
            chat["tools"] = out
    choice = body.get("tool_choice")
    if choice is None:
        return
    if choice in ("auto", "none", "required"):
        chat["tool_choice"] = choice
    elif isinstance(choice, dict) and choice.get("type") == "function":
        chat["tool_choice"] = {"type": "function", "function": {"name": string(choice.get("name"),
                                                                                 "tool_choice.name")}}
    else:
        raise bad("tool_choice", "must be auto, none, required or {type: function, name}")


def _format(body: dict[str, Any], chat: dict[str, Any]) -> None:
    text = body.get("text")
    if text is None or obj(text, "text").get("format") is None:
        return
    fmt = obj(text["format"], "text.format")
    kind = fmt.get("type")
    if kind == "json_schema":
        schema = {"name": string(fmt.get("name"), "text.format.name"),
                  "schema": obj(fmt.get("schema"), "text.format.schema")}
        if flag(fmt, "strict") is not None:
            schema["strict"] = fmt["strict"]
        chat["response_format"] = {"type": "json_schema", "json_schema": schema}
    elif kind == "json_object":
        chat["response_format"] = {"type": "json_object"}
    elif kind != "text":
        raise bad("text.format.type", "must be text, json_schema or json_object")


def _input(body: dict[str, Any]) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = []
    if body.get("instructions") is not None:
        msgs.append({"role": "system", "content": string(body["instructions"], "instructions")})
    value = body.get("input")
    if isinstance(value, str):
        return [*msgs, {"role": "user", "content": value}]
    if not isinstance(value, list) or not value:
        raise bad("input", "required: a string or a non-empty list of items")
    for i, it in enumerate(value):
        _item(obj(it, f"input[{i}]"), f"input[{i}]", msgs)
    return msgs


def _status(ch: dict[str, Any]) -> tuple[str, dict[str, str] | None]:
    fin = ch.get("finish_reason")
    if fin == "length":
        return "incomplete", {"reason": "max_output_tokens"}
    if fin == "content_filter":
        return "incomplete", {"reason": "content_filter"}
    return "completed", None


def _usage(n_in: int, n_out: int) -> dict[str, Any]:
    return {"input_tokens": n_in, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": n_out,
            "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": n_in + n_out}


def message_item(text: str, status: str = "completed", item_id: str | None = None) -> dict[str, Any]:
    return {"type": "message", "id": item_id or _new_id("msg"), "status": status, "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}] if status == "completed" else []}


def call_item(call_id: str, name: str, arguments: str, status: str = "completed",
              item_id: str | None = None) -> dict[str, Any]:
    return {"type": "function_call", "id": item_id or _new_id("fc"), "call_id": call_id, "name": name,
            "arguments": arguments, "status": status}


def response(source: dict[str, Any], head: dict[str, Any], output: list[dict[str, Any]], status: str,
             details: dict[str, str] | None, use: dict[str, Any] | None) -> dict[str, Any]:
    """A Response object; request settings echoed as the API does."""
    return {"id": head["id"], "object": "response", "created_at": head["created"], "status": status,
            "error": None, "incomplete_details": details, "instructions": source.get("instructions"),
            "max_output_tokens": source.get("max_output_tokens"), "model": head.get("model") or source.get("model"),
            "output": output, "parallel_tool_calls": source.get("parallel_tool_calls", True),
            "previous_response_id": None, "reasoning": {"effort": None, "summary": None}, "store": False,
            "temperature": source.get("temperature", 1.0), "text": source.get("text") or {"format": {"type": "text"}},
            "tool_choice": source.get("tool_choice", "auto"), "tools": source.get("tools") or [],
            "top_p": source.get("top_p", 1.0), "truncation": "disabled", "usage": use,
            "metadata": source.get("metadata") if isinstance(source.get("metadata"), dict) else {}}


class Responses(Dialect):
    name = "responses"

    def to_chat(self, body: Any) -> dict[str, Any]:
        b = obj(body, "the request body")
        for key in ("previous_response_id", "conversation"):
            if b.get(key) is not None:
                raise bad(key, STATELESS)
        chat: dict[str, Any] = {"messages": _input(b)}
        if b.get("model") is not None:
            chat["model"] = string(b["model"], "model")
        if b.get("max_output_tokens") is not None:
            chat["max_tokens"] = positive_int(b, "max_output_tokens", required=False)
        for key in ("temperature", "top_p"):
            if number(b, key) is not None:
                chat[key] = b[key]
        flag(b, "store")  # accepted (checked), never honoured: see the module docstring
        for key in ("parallel_tool_calls", "stream"):
            if flag(b, key) is not None:
                chat[key] = b[key]
        _tools(b, chat)
        _format(b, chat)
        return chat

    def answer(self, chat: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
        ch, msg = first_choice(chat)
        output = []
        calls = tool_calls(msg)
        text = msg.get("content") if isinstance(msg.get("content"), str) else ""
        if text or not calls:
            output.append(message_item(text))
        output += [call_item(i, n, a) for i, n, a in calls]
        status, details = _status(ch)
        created = chat.get("created") if type(chat.get("created")) is int else int(time.time())
        head = {"id": _new_id("resp"), "created": created, "model": chat.get("model")}
        return response(source, head, output, status, details, _usage(*usage(chat)))

    def error(self, status: int, message: str, type_: str | None = None) -> bytes:
        field, sep, _ = message.partition(": ")
        d = orjson.loads(error_json(message, _TYPES.get(status, "invalid_request_error"), status))
        d["error"]["param"] = field if sep and " " not in field else None
        return orjson.dumps(d)

    def stream(self, source: dict[str, Any]) -> StreamOut:
        return _Stream(source)


class _Stream(StreamOut):
    """response.created, output items (message text deltas, function call argument deltas), response.completed."""

    def __init__(self, source: dict[str, Any]) -> None:
        self.source = source
        self.reader = ChunkReader()
        self.seq = 0
        self.head: dict[str, Any] | None = None
        self.items: list[dict[str, Any]] = []
        self.open: dict[str, Any] | None = None  # the output item being streamed
        self.text = ""  # its text so far (a message)
        self.tool = -1  # its chat tool-call index (a function call)

    def _event(self, kind: str, data: dict[str, Any]) -> bytes:
        body = orjson.dumps({"type": kind, "sequence_number": self.seq, **data})
        self.seq += 1
        return b"event: " + kind.encode() + b"\ndata: " + body + b"\n\n"

    def _start(self) -> bytes:
        created = self.reader.head.get("created")
        self.head = {"id": _new_id("resp"), "created": created if type(created) is int else int(time.time()),
                     "model": self.reader.head.get("model")}
        r = response(self.source, self.head, [], "in_progress", None, None)
        return self._event("response.created", {"response": r}) + self._event("response.in_progress", {"response": r})

    def _add(self, item: dict[str, Any], tool: int = -1) -> bytes:
        out = self._close()
        self.open, self.text, self.tool = item, "", tool
        self.items.append(item)
        out += self._event("response.output_item.added", {"output_index": len(self.items) - 1, "item": item})
        if item["type"] == "message":
            out += self._event("response.content_part.added", {
                "item_id": item["id"], "output_index": len(self.items) - 1, "content_index": 0,
                "part": {"type": "output_text", "text": "", "annotations": []}})
        return out

    def _close(self) -> bytes:
        item, self.open = self.open, None
        if item is None:
            return b""
        at = {"item_id": item["id"], "output_index": len(self.items) - 1}
        if item["type"] == "message":
            text = self.text
            part = {"type": "output_text", "text": text, "annotations": []}
            done = self._event("response.output_text.done", {**at, "content_index": 0, "text": text, "logprobs": []})
            done += self._event("response.content_part.done", {**at, "content_index": 0, "part": part})
            item["content"] = [part]
        else:
            done = self._event("response.function_call_arguments.done", {**at, "arguments": item["arguments"],
                                                                         "name": item["name"]})
        item["status"] = "completed"
        return done + self._event("response.output_item.done", {"output_index": at["output_index"], "item": item})

    def chunk(self, obj: dict[str, Any]) -> bytes:
        ops = self.reader.ops(obj)
        out = [b"" if self.head else self._start()]
        for op in ops:
            if op[0] == "text":
                if self.open is None or self.open["type"] != "message":
                    out.append(self._add(message_item("", "in_progress")))
                assert self.open is not None
                self.text += op[1]
                out.append(self._event("response.output_text.delta", {
                    "item_id": self.open["id"], "output_index": len(self.items) - 1, "content_index": 0,
                    "delta": op[1], "logprobs": []}))
            elif op[0] == "tool":
                out.append(self._add(call_item(op[2], op[3], "", "in_progress"), op[1]))
            elif self.open is not None and self.open["type"] == "function_call" and self.tool == op[1]:
                self.open["arguments"] += op[2]
                out.append(self._event("response.function_call_arguments.delta", {
                    "item_id": self.open["id"], "output_index": len(self.items) - 1, "delta": op[2]}))
        return b"".join(out)

    def finish(self) -> bytes:
        out = (b"" if self.head else self._start()) + self._close()
        assert self.head is not None
        status, details = _status(self.reader.as_chat()["choices"][0])
        r = response(self.source, self.head, self.items, status, details, _usage(*self.reader.counts()))
        return out + self._event("response.completed" if status == "completed" else "response.incomplete",
                                 {"response": r})

    def fail(self, message: str) -> bytes:
        out = b"" if self.head else self._start()
        assert self.head is not None
        r = response(self.source, self.head, [], "failed", None, None)
        r["error"] = {"code": "server_error", "message": message}
        return out + self._event("response.failed", {"response": r})


RESPONSES = Responses()
