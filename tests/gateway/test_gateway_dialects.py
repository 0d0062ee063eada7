"""Anthropic Messages and OpenAI Responses through the gateway: the official SDKs as clients, a
scripted engine with real token ids and vLLM-style tool calls behind it. Every call is recorded
token-exact like a chat call (prompt = the engine's tokenisation of the translated chat prompt),
noted with its dialect, held by a pause and recorded 499 when its client leaves.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx
import openai
import pytest
from dialect_engine import ToolEngine
from fake_engine import FakeConfig, FakeUpstream
from gateway_helpers import GatewayHandle

from swerl.gateway.engines.embedded import ServedEngine

CALL = 'I will list the files.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls -la"}}\n</tool_call>'
SCRIPT = [CALL, "Done: two files, a.py and b.py."]
SCHEMA = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
CHAT_TOOLS = [{"type": "function", "function": {"name": "bash", "description": "Run a command.", "parameters": SCHEMA}}]
SYSTEM = "You fix bugs."


@pytest.fixture
def tool_gw(gateway_factory: Any, tiny_tok: Any) -> Iterator[tuple[GatewayHandle, ToolEngine, str]]:
    served = ServedEngine(ToolEngine(tiny_tok, SCRIPT))
    g = gateway_factory(upstreams=[served.urls()[0].removesuffix("/v1")])
    yield g, served.engine, g.create("d")  # type: ignore[misc]
    served.close()


def _rendered(tok: Any, msgs: list[dict], tools: list[dict] | None = CHAT_TOOLS) -> list[int]:
    """What vLLM (and the engine) makes of a chat request: the template rendered, then tokenised."""
    kw = {"tools": tools} if tools else {}
    text = tok.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True, **kw)
    return list(tok.encode(text, add_special_tokens=False))


def _check_exact(g: GatewayHandle, eng: ToolEngine, dialect: str, prompts: list[list[int]]) -> None:
    evs = g.events("d", kind="model_request")
    assert [(e["mode"], e["data"], e["http_status"], e["error"]) for e in evs] == \
        [("chat", {"dialect": dialect}, 200, None)] * len(prompts)
    produced = list(eng.history)
    assert [e["prompt_ids"] for e in evs] == [p["prompt_ids"] for p in produced] == prompts
    assert [e["response_ids"] for e in evs] == [p["token_ids"] for p in produced]
    assert [e["response_logprobs"] for e in evs] == [p["logprobs"] for p in produced]  # bit-exact


def _expected_chat(call_id: str, closing: dict) -> list[dict]:
    args = '{"command": "ls -la"}'
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "List the files."},
            {"role": "assistant", "content": "I will list the files.\n",
             "tool_calls": [{"id": call_id, "type": "function", "function": {"name": "bash", "arguments": args}}]},
            {"role": "tool", "tool_call_id": call_id, "content": "a.py\nb.py"}, closing]


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_sdk_tool_loop_round_trips_token_exact(tool_gw: Any, tiny_tok: Any, stream: bool) -> None:
    g, eng, tok = tool_gw
    client = anthropic.Anthropic(base_url=f"{g.url}/v1/rollouts/d", api_key=tok, max_retries=0)
    tools = [{"name": "bash", "description": "Run a command.", "input_schema": SCHEMA}]
    msgs: list[dict] = [{"role": "user", "content": "List the files."}]
    kw = {"model": "claude-x", "max_tokens": 64, "system": [{"type": "text", "text": SYSTEM}], "tools": tools}

    def ask() -> Any:
        if not stream:
            return client.messages.create(messages=msgs, **kw)
        with client.messages.stream(messages=msgs, **kw) as s:
            kinds = [e.type for e in s]
            assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
            return s.get_final_message()

    first = ask()
    assert first.stop_reason == "tool_use"
    text, use = first.content
    assert (text.type, text.text) == ("text", "I will list the files.\n")
    assert (use.type, use.name, use.input) == ("tool_use", "bash", {"command": "ls -la"})
    msgs += [{"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
             {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id,
                                           "content": [{"type": "text", "text": "a.py\nb.py"}]},
                                          {"type": "text", "text": "Summarise."}]}]
    second = ask()
    assert (second.stop_reason, [b.text for b in second.content]) == ("end_turn", [SCRIPT[1]])
    assert second.usage.output_tokens == len(eng.history[-1]["token_ids"])
    assert second.usage.input_tokens == len(eng.history[-1]["prompt_ids"])
    turn1 = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "List the files."}]
    turn2 = _expected_chat(use.id, {"role": "user", "content": "Summarise."})
    _check_exact(g, eng, "anthropic", [_rendered(tiny_tok, turn1), _rendered(tiny_tok, turn2)])


@pytest.mark.parametrize("stream", [False, True])
def test_responses_sdk_tool_loop_round_trips_token_exact(tool_gw: Any, tiny_tok: Any, stream: bool) -> None:
    g, eng, tok = tool_gw
    client = openai.OpenAI(base_url=f"{g.url}/v1/rollouts/d", api_key=tok, max_retries=0)
    tools = [{"type": "function", "name": "bash", "description": "Run a command.", "parameters": SCHEMA}]
    items: list[dict] = [{"role": "user", "content": "List the files."}]
    kw = {"model": "gpt-x", "instructions": SYSTEM, "tools": tools, "max_output_tokens": 64}

    def ask() -> Any:
        if not stream:
            return client.responses.create(input=items, **kw)
        with client.responses.stream(input=items, **kw) as s:
            kinds = [e.type for e in s]
            assert kinds[:2] == ["response.created", "response.in_progress"] and kinds[-1] == "response.completed"
            return s.get_final_response()

    first = ask()
    msg, call = first.output
    assert (msg.type, first.output_text) == ("message", "I will list the files.\n")
    assert (call.type, call.name, call.arguments) == ("function_call", "bash", '{"command": "ls -la"}')
    items += [o.model_dump(exclude_none=True) for o in first.output]
    items += [{"type": "function_call_output", "call_id": call.call_id, "output": "a.py\nb.py"},
              {"role": "user", "content": [{"type": "input_text", "text": "Summarise."}]}]
    second = ask()
    assert (second.status, second.output_text) == ("completed", SCRIPT[1])
    assert second.usage.output_tokens == len(eng.history[-1]["token_ids"])
    turn1 = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "List the files."}]
    turn2 = _expected_chat(call.call_id, {"role": "user", "content": "Summarise."})
    _check_exact(g, eng, "responses", [_rendered(tiny_tok, turn1), _rendered(tiny_tok, turn2)])


@pytest.mark.parametrize("stream", [False, True])
def test_stop_sequence_and_max_tokens_map_to_each_dialect(tool_gw: Any, stream: bool) -> None:
    g, _, tok = tool_gw
    ac = anthropic.Anthropic(base_url=f"{g.url}/v1/rollouts/d", api_key=tok, max_retries=0)
    oc = openai.OpenAI(base_url=f"{g.url}/v1/rollouts/d", api_key=tok, max_retries=0)
    msgs = [{"role": "user", "content": "go"}]

    def anth(**kw: Any) -> Any:
        if not stream:
            return ac.messages.create(model="m", messages=msgs, **kw)
        with ac.messages.stream(model="m", messages=msgs, **kw) as s:
            return s.get_final_message()

    stopped = anth(max_tokens=64, stop_sequences=["files"])
    assert (stopped.stop_reason, stopped.stop_sequence) == ("stop_sequence", "files")
    assert [b.text for b in stopped.content] == ["I will list the "]
    cut = anth(max_tokens=2)
    assert (cut.stop_reason, cut.usage.output_tokens) == ("max_tokens", 2)
    if stream:
        with oc.responses.stream(model="m", input="go", max_output_tokens=2) as s:
            kinds = [e.type for e in s]
        assert kinds[-1] == "response.incomplete"
    else:
        r = oc.responses.create(model="m", input="go", max_output_tokens=2)
        assert (r.status, r.incomplete_details.reason, r.usage.output_tokens) == ("incomplete", "max_output_tokens", 2)
    evs = g.events("d", kind="model_request")
    assert [e["finish_reason"] for e in evs] == ["stop", "length", "length"]
    assert [len(e["response_ids"]) for e in evs[1:]] == [2, 2]


# ---- holds, 499s and errors, on the fast fake engine (raw HTTP: exact bodies and statuses)

ANTH = ("/v1/messages", {"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "go"}]})
RESP = ("/responses", {"model": "m", "input": "go"})
DIALECTS = {"anthropic": ANTH, "responses": RESP}


def _headers(dialect: str, tok: str) -> dict[str, str]:
    return {"x-api-key": tok, "anthropic-version": "2023-06-01"} if dialect == "anthropic" else \
        {"Authorization": f"Bearer {tok}"}


def _post(g: GatewayHandle, dialect: str, tok: str, body: dict | None = None, timeout: float = 30,
          rid: str = "h") -> httpx.Response:
    path, default = DIALECTS[dialect]
    return httpx.post(f"{g.url}/v1/rollouts/{rid}{path}", json=default if body is None else body,
                      headers=_headers(dialect, tok), timeout=timeout)


def _until(fn: Any) -> Any:
    for _ in range(1000):
        out = fn()
        if out:
            return out
        time.sleep(0.01)
    raise AssertionError("never happened")


@pytest.mark.parametrize("dialect", ["anthropic", "responses"])
def test_a_paused_gateway_holds_dialect_calls_and_records_them_with_the_new_version(
        gateway_factory: Any, fake: FakeUpstream, dialect: str) -> None:
    g = gateway_factory(upstreams=[fake.url])
    tok = g.create("h")
    admin = g.admin()
    assert admin.post("/admin/pause").json()["drained"] is True
    got: list[httpx.Response] = []
    t = threading.Thread(target=lambda: got.append(_post(g, dialect, tok)))
    t.start()
    _until(lambda: admin.get("/admin/status").json()["held"] == 1)
    assert fake.stats.requests == 0
    admin.post("/admin/resume", json={"policy_version": 4})
    t.join(30)
    assert got[0].status_code == 200 and got[0].headers["x-swerl-policy-version"] == "4"
    [ev] = g.events("h", kind="model_request")
    assert (ev["policy_version"], ev["http_status"], ev["data"]) == (4, 200, {"dialect": dialect})
    assert g.admin().get("/rollouts/h").json()["held_s"] > 0


@pytest.mark.parametrize("dialect", ["anthropic", "responses"])
@pytest.mark.parametrize("stream", [False, True])
def test_a_dialect_client_that_leaves_is_recorded_499(gateway_factory: Any, dialect: str, stream: bool) -> None:
    fake = FakeUpstream(FakeConfig(prompt_len=6, response_len=8, delay_s=0 if stream else 0.6,
                                   chunk_delay_s=0.3 if stream else 0)).start_in_thread()
    try:
        g = gateway_factory(upstreams=[fake.url])
        tok = g.create("h")
        path, body = DIALECTS[dialect]
        if stream:
            with httpx.stream("POST", f"{g.url}/v1/rollouts/h{path}", json={**body, "stream": True},
                              headers=_headers(dialect, tok), timeout=30) as r:
                first = next(r.iter_lines())
            assert first.startswith("event: ")
        else:
            with pytest.raises(httpx.ReadTimeout):
                _post(g, dialect, tok, timeout=0.15)
        [ev] = _until(lambda: g.events("h", kind="model_request"))
        assert (ev["http_status"], ev["data"]) == (499, {"dialect": dialect}) and "disconnected" in ev["error"]
    finally:
        fake.stop_thread()


def test_anthropic_errors_come_in_anthropic_shape_with_their_statuses(gateway_factory: Any) -> None:
    fake = FakeUpstream(FakeConfig(prompt_len=6, response_len=3, fail_first=1)).start_in_thread()
    try:
        g = gateway_factory(upstreams=[fake.url], retry_attempts=1)
        tok, other = g.create("h"), g.create("o")
        cases = [
            (httpx.post(f"{g.url}/v1/rollouts/h/v1/messages", json=ANTH[1]), 401, "authentication_error", "x-api-key"),
            (_post(g, "anthropic", other), 403, "permission_error", "not valid for rollout"),
            (_post(g, "anthropic", tok, {**ANTH[1], "max_tokens": None}), 400, "invalid_request_error", "max_tokens"),
            (_post(g, "anthropic", tok, {**ANTH[1], "messages": [{"role": "user", "content": [
                {"type": "image", "source": {}}]}]}), 400, "invalid_request_error", "messages[0].content[0].type"),
            (_post(g, "anthropic", tok, {**ANTH[1], "max_tokens": 10**6}), 400, "invalid_request_error", "context"),
            (_post(g, "anthropic", tok), 502, "api_error", "engine answered 503"),
            (_post(g, "anthropic", tok, {**ANTH[1], "temperature": -1}), 400, "invalid_request_error",
             "temperature must be non-negative"),
            (_post(g, "anthropic", tok, rid="-bad"), 422, "invalid_request_error", "rollout_id"),
        ]
        for r, status, kind, words in cases:
            body = r.json()
            assert (r.status_code, body["type"], body["error"]["type"]) == (status, "error", kind), r.text
            assert words in body["error"]["message"]
        recorded = g.events("h", kind="model_request")  # the admitted failures are recorded, as chat ones are
        assert [(e["http_status"], e["data"]) for e in recorded] == [(400, {"dialect": "anthropic"}),
                                                                     (502, {"dialect": "anthropic"}),
                                                                     (400, {"dialect": "anthropic"})]
    finally:
        fake.stop_thread()


def test_responses_refuses_previous_response_id_and_other_state(gw: GatewayHandle) -> None:
    tok = gw.create("h")
    for key in ("previous_response_id", "conversation"):
        r = _post(gw, "responses", tok, {**RESP[1], key: "resp_123"})
        assert r.status_code == 400
        err = r.json()["error"]
        assert (err["type"], err["param"]) == ("invalid_request_error", key) and "stateless" not in err["message"]
        assert "keeps no conversation" in err["message"]
    r = _post(gw, "responses", tok, {**RESP[1], "tools": [{"type": "web_search"}]})
    assert (r.status_code, r.json()["error"]["param"]) == (400, "tools[0].type")
    with pytest.raises(openai.BadRequestError, match="previous_response_id"):
        openai.OpenAI(base_url=f"{gw.url}/v1/rollouts/h", api_key=tok, max_retries=0).responses.create(
            model="m", input="go", previous_response_id="resp_1", store=True)
    assert gw.events("h", kind="model_request") == []  # refused before admission: nothing to record


def test_anthropic_calls_continue_the_token_sequence_in_continuous_mode(gateway_factory: Any, tiny_tok: Any) -> None:
    served = ServedEngine(ToolEngine(tiny_tok, ["First answer.", "Second answer.", "Third answer."]))
    try:
        g = gateway_factory(upstreams=[served.urls()[0].removesuffix("/v1")], continuous_tokens=True,
                            tokenizer=tiny_tok)
        client = anthropic.Anthropic(base_url=f"{g.url}/v1/rollouts/c", api_key=g.create("c"), max_retries=0)
        msgs: list[dict] = [{"role": "user", "content": "Start."}]
        for step in range(3):
            if step < 2:
                reply = client.messages.create(model="m", max_tokens=32, system=SYSTEM, messages=msgs)
            else:
                with client.messages.stream(model="m", max_tokens=32, system=SYSTEM, messages=msgs) as s:
                    reply = s.get_final_message()
            msgs += [{"role": "assistant", "content": reply.content[0].text},
                     {"role": "user", "content": f"observation {step}"}]
        assert [m["content"] for m in msgs[1::2]] == ["First answer.", "Second answer.", "Third answer."]
        evs = g.events("c", kind="model_request")
        assert [(e["mode"], e["data"]) for e in evs] == [("chat", {"dialect": "anthropic"})] + [
            ("continuous", {"dialect": "anthropic"})] * 2
        for prev, nxt in itertools.pairwise(evs):
            seq = prev["prompt_ids"] + prev["response_ids"]
            assert nxt["prompt_ids"][:len(seq)] == seq  # the exact prior tokens, then only the new turn
        assert [e["response_ids"] for e in evs] == [h["token_ids"] for h in served.engine.history]
    finally:
        served.close()
