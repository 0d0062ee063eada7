"""The dialect translators on their own (pure functions): what each request field becomes in chat, and
how chat answers and chunk streams come back, including the corners the SDK round trips do not reach."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from swerl.gateway.dialects.anthropic import ANTHROPIC
from swerl.gateway.dialects.responses import RESPONSES
from swerl.gateway.errors import ApiError


def _events(raw: bytes) -> list[tuple[str, dict]]:
    out = []
    for block in raw.decode().strip().split("\n\n"):
        head, data = block.split("\n")
        out.append((head.removeprefix("event: "), orjson.loads(data.removeprefix("data: "))))
    return out


def test_anthropic_request_fields_become_chat_fields() -> None:
    chat = ANTHROPIC.to_chat({
        "model": "m", "max_tokens": 5, "system": "sys", "stop_sequences": ["X"], "temperature": 0.2, "top_p": 0.5,
        "top_k": 7, "metadata": {"user_id": "u"}, "thinking": {"type": "enabled", "budget_tokens": 10},
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "tool", "name": "f", "disable_parallel_tool_use": True},
        "messages": [{"role": "user", "content": "a"},
                     {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f",
                                                        "input": {"q": "é"}}]},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "is_error": True,
                                                   "content": "boom"}]}]})
    assert chat == {
        "model": "m", "max_tokens": 5, "stop": ["X"], "temperature": 0.2, "top_p": 0.5, "top_k": 7,
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
        "tool_choice": {"type": "function", "function": {"name": "f"}}, "parallel_tool_calls": False,
        "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "a"},
                     {"role": "assistant", "content": "", "tool_calls": [
                         {"id": "t", "type": "function", "function": {"name": "f", "arguments": '{"q": "é"}'}}]},
                     {"role": "tool", "tool_call_id": "t", "content": "Error: boom"}]}
    for kind, expected in (("auto", "auto"), ("any", "required"), ("none", "none")):
        body = {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "a"}],
                "tool_choice": {"type": kind}}
        assert ANTHROPIC.to_chat(body)["tool_choice"] == expected


@pytest.mark.parametrize(("body", "field"), [
    ({"max_tokens": 1, "messages": [{"role": "user", "content": "a"}]}, "model"),
    ({"model": "m", "messages": [{"role": "user", "content": "a"}]}, "max_tokens"),
    ({"model": "m", "max_tokens": 1, "messages": []}, "messages"),
    ({"model": "m", "max_tokens": 1, "messages": [{"role": "system", "content": "a"}]}, "messages[0].role"),
    ({"model": "m", "max_tokens": 1, "messages": [{"role": "assistant", "content": [{"type": "thinking"}]}]},
     "messages[0].content[0].type"),
    ({"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "a"}],
      "tools": [{"type": "web_search_20250305", "name": "w"}]}, "tools[0].type"),
    ({"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "a"}], "stop_sequences": "X"},
     "stop_sequences"),
])
def test_anthropic_refusals_name_the_field(body: dict, field: str) -> None:
    with pytest.raises(ApiError) as e:
        ANTHROPIC.to_chat(body)
    assert e.value.status == 400 and e.value.message.startswith(f"{field}: ")


@pytest.mark.parametrize(("choice", "stops", "expected"), [
    ({"finish_reason": "stop", "stop_reason": "END"}, ["END"], ("stop_sequence", "END")),
    ({"finish_reason": "stop", "stop_reason": 151645}, ["END"], ("end_turn", None)),  # an EOS token id
    ({"finish_reason": "length"}, [], ("max_tokens", None)),
    ({"finish_reason": "content_filter"}, [], ("refusal", None)),
    ({"finish_reason": "tool_calls"}, [], ("tool_use", None)),
])
def test_anthropic_stop_reasons(choice: dict, stops: list[str], expected: tuple) -> None:
    chat = {"id": "c", "model": "e", "choices": [{"message": {"content": "x"}, **choice}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1}}
    out = ANTHROPIC.answer(chat, {"stop_sequences": stops})
    assert (out["stop_reason"], out["stop_sequence"]) == expected
    assert out["usage"] == {"input_tokens": 3, "output_tokens": 1}


def test_anthropic_tool_arguments_that_are_not_an_object_are_kept() -> None:
    chat = {"choices": [{"finish_reason": "tool_calls", "message": {"content": None, "tool_calls": [
        {"id": "a", "function": {"name": "f", "arguments": "not json"}}]}}]}
    assert ANTHROPIC.answer(chat, {})["content"] == [
        {"type": "tool_use", "id": "a", "name": "f", "input": {"arguments": "not json"}}]


def _chunk(delta: dict, finish: str | None = None, **extra: Any) -> dict:
    return {"id": "c1", "model": "e", "created": 5, **extra,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "token_ids": [1]}]}


CHUNKS = [_chunk({"role": "assistant", "content": ""}, prompt_token_ids=[1, 2, 3]), _chunk({"content": "hi"}),
          _chunk({"tool_calls": [{"index": 0, "id": "t0", "function": {"name": "f", "arguments": "{\"a\""}}]}),
          _chunk({"tool_calls": [{"index": 0, "function": {"arguments": ": 1}"}}]}),
          _chunk({"content": "after"}), _chunk({}, "tool_calls")]


def test_anthropic_stream_blocks_follow_the_chunks() -> None:
    s = ANTHROPIC.stream({"model": "m"})
    evs = _events(b"".join(s.chunk(c) for c in CHUNKS) + s.finish())
    assert [e for e, _ in evs] == [
        "message_start", "content_block_start", "content_block_delta", "content_block_stop", "content_block_start",
        "content_block_delta", "content_block_delta", "content_block_stop", "content_block_start",
        "content_block_delta", "content_block_stop", "message_delta", "message_stop"]
    assert evs[0][1]["message"]["usage"] == {"input_tokens": 3, "output_tokens": 0}
    assert evs[4][1]["content_block"] == {"type": "tool_use", "id": "t0", "name": "f", "input": {}}
    assert "".join(d["delta"]["partial_json"] for _, d in evs[5:7]) == '{"a": 1}'
    assert [d["index"] for e, d in evs if e == "content_block_start"] == [0, 1, 2]
    assert evs[-2][1] == {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                          "usage": {"output_tokens": 6}}
    empty = ANTHROPIC.stream({"model": "m"})
    assert [e for e, _ in _events(empty.finish())] == ["message_start", "message_delta", "message_stop"]
    assert _events(empty.fail("broke"))[0][1]["error"] == {"type": "api_error", "message": "broke"}


def test_responses_input_items_become_chat_messages() -> None:
    chat = RESPONSES.to_chat({
        "model": "m", "instructions": "sys", "max_output_tokens": 9, "store": True, "parallel_tool_calls": False,
        "text": {"format": {"type": "json_schema", "name": "n", "schema": {"type": "object"}, "strict": True}},
        "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": True}],
        "tool_choice": {"type": "function", "name": "f"},
        "input": [{"role": "developer", "content": "dev"}, {"role": "user", "content": "q"},
                  {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]},
                  {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
                  {"type": "function_call", "call_id": "d", "name": "f", "arguments": "{}"},
                  {"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text", "text": "r"}]},
                  {"type": "function_call", "call_id": "e", "name": "f", "arguments": "{}"}]})
    call = {"type": "function", "function": {"name": "f", "arguments": "{}"}}
    assert chat == {
        "model": "m", "max_tokens": 9, "parallel_tool_calls": False,
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
        "tool_choice": {"type": "function", "function": {"name": "f"}},
        "response_format": {"type": "json_schema", "json_schema": {"name": "n", "schema": {"type": "object"},
                                                                   "strict": True}},
        "messages": [{"role": "system", "content": "sys"}, {"role": "system", "content": "dev"},
                     {"role": "user", "content": "q"},
                     {"role": "assistant", "content": "no", "tool_calls": [{"id": "c", **call}, {"id": "d", **call}]},
                     {"role": "tool", "tool_call_id": "c", "content": "r"},
                     {"role": "assistant", "content": "", "tool_calls": [{"id": "e", **call}]}]}


@pytest.mark.parametrize(("body", "field"), [
    ({"input": "q", "previous_response_id": "resp_1"}, "previous_response_id"),
    ({}, "input"),
    ({"input": [{"type": "item_reference", "id": "x"}]}, "input[0].type"),
    ({"input": [{"type": "message", "role": "user", "content": [{"type": "input_image"}]}]},
     "input[0].content[0].type"),
    ({"input": "q", "tools": [{"type": "custom", "name": "x"}]}, "tools[0].type"),
    ({"input": "q", "max_output_tokens": 0}, "max_output_tokens"),
    ({"input": "q", "temperature": "hot"}, "temperature"),
])
def test_responses_refusals_name_the_field(body: dict, field: str) -> None:
    with pytest.raises(ApiError) as e:
        RESPONSES.to_chat(body)
    assert e.value.status == 400 and e.value.message.startswith(f"{field}: ")
    assert orjson.loads(RESPONSES.error(400, e.value.message))["error"]["param"] == field


def test_responses_stream_items_follow_the_chunks() -> None:
    s = RESPONSES.stream({"model": "m", "instructions": "sys"})
    evs = _events(b"".join(s.chunk(c) for c in CHUNKS) + s.finish())
    assert [e for e, _ in evs] == [
        "response.created", "response.in_progress", "response.output_item.added", "response.content_part.added",
        "response.output_text.delta", "response.output_text.done", "response.content_part.done",
        "response.output_item.done", "response.output_item.added", "response.function_call_arguments.delta",
        "response.function_call_arguments.delta", "response.function_call_arguments.done",
        "response.output_item.done", "response.output_item.added", "response.content_part.added",
        "response.output_text.delta", "response.output_text.done", "response.content_part.done",
        "response.output_item.done", "response.completed"]
    assert [d["sequence_number"] for _, d in evs] == list(range(len(evs)))
    final = evs[-1][1]["response"]
    assert [(o["type"], o.get("arguments"), o.get("content")) for o in final["output"]] == [
        ("message", None, [{"type": "output_text", "text": "hi", "annotations": []}]),
        ("function_call", '{"a": 1}', None),
        ("message", None, [{"type": "output_text", "text": "after", "annotations": []}])]
    assert final["usage"]["input_tokens"] == 3 and final["usage"]["output_tokens"] == 6
    assert final["instructions"] == "sys" and final["status"] == "completed"
    failed = _events(RESPONSES.stream({}).fail("broke"))
    assert failed[-1][0] == "response.failed"
    assert failed[-1][1]["response"]["error"] == {"code": "server_error", "message": "broke"}
