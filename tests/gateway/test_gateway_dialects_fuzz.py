"""Fuzz the Anthropic and Responses routes (hypothesis, bounded): a valid, feature-rich body with
one part replaced by an arbitrary JSON value or removed gets a 2xx or a 4xx in the dialect's own
error shape, never a 5xx; a rejection made before the engine was asked names the field."""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fake_engine import FakeConfig, FakeUpstream
from gateway_helpers import GatewayHandle, start_gateway
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SCHEMA = {"type": "object", "properties": {"command": {"type": "string"}}}
ANTHROPIC = {
    "model": "m", "max_tokens": 16, "system": [{"type": "text", "text": "sys"}], "temperature": 0.5, "top_p": 0.9,
    "stop_sequences": ["END"], "tools": [{"name": "bash", "description": "run", "input_schema": SCHEMA}],
    "tool_choice": {"type": "auto"},
    "messages": [{"role": "user", "content": "go"},
                 {"role": "assistant", "content": [{"type": "text", "text": "ok"},
                                                   {"type": "tool_use", "id": "t1", "name": "bash",
                                                    "input": {"command": "ls"}}]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": False,
                                               "content": [{"type": "text", "text": "a.py"}]},
                                              {"type": "text", "text": "next"}]}]}
RESPONSES = {
    "model": "m", "instructions": "sys", "max_output_tokens": 16, "temperature": 0.5, "top_p": 0.9,
    "tools": [{"type": "function", "name": "bash", "description": "run", "parameters": SCHEMA}],
    "tool_choice": "auto", "parallel_tool_calls": True, "store": False, "text": {"format": {"type": "text"}},
    "input": [{"role": "user", "content": "go"},
              {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]},
              {"type": "function_call", "call_id": "c1", "name": "bash", "arguments": "{\"command\": \"ls\"}"},
              {"type": "function_call_output", "call_id": "c1", "output": "a.py"},
              {"role": "user", "content": [{"type": "input_text", "text": "next"}]}]}
BODIES = {"anthropic": ("/v1/messages", ANTHROPIC), "responses": ("/responses", RESPONSES)}
JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
                    | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def _paths(node: Any, at: tuple = ()) -> list[tuple]:
    out = [at]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*at, i))
    return out


def _mutated(body: dict, path: tuple, value: Any, delete: bool) -> Any:
    if not path:
        return value
    body = copy.deepcopy(body)
    node = body
    for k in path[:-1]:
        node = node[k]
    if delete and isinstance(node, dict):
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return body


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[GatewayHandle, FakeUpstream, str]]:
    fake = FakeUpstream(FakeConfig(prompt_len=8, response_len=3)).start_in_thread()
    g = start_gateway(store=str(tmp_path_factory.mktemp("dfuzz") / "gw.sqlite"), upstreams=[fake.url],
                      retry_attempts=1, max_body_bytes=1 << 20)
    yield g, fake, g.create("fz")
    g.stop()
    fake.stop_thread()


def _check(target: Any, dialect: str, body: Any, original: dict) -> None:
    g, fake, tok = target
    path = BODIES[dialect][0]
    headers = {"x-api-key": tok} if dialect == "anthropic" else {"Authorization": f"Bearer {tok}"}
    before = fake.stats.requests
    r = httpx.post(f"{g.url}/v1/rollouts/fz{path}", content=json.dumps(body), headers=headers, timeout=30)
    assert r.status_code < 500, (r.status_code, r.text, body)
    if r.status_code < 400:
        return
    d = r.json()
    err = d["error"]
    assert isinstance(err["message"], str) and err["message"]
    if dialect == "anthropic":
        assert d["type"] == "error" and err["type"] == "invalid_request_error"
    else:
        assert err["type"] == "invalid_request_error" and err["code"] == r.status_code
    if fake.stats.requests == before:  # refused by the gateway itself: the message names the field
        field = err["message"].split(": ")[0]
        whole = field.startswith("the request body")  # not JSON (a 70-bit integer), or not an object
        assert whole or re.split(r"[.\[]", field)[0] in original, err["message"]
        if dialect == "responses" and not whole:
            assert err["param"] == field


@pytest.mark.parametrize("dialect", ["anthropic", "responses"])
def test_valid_bodies_are_served(target: Any, dialect: str) -> None:
    g, _, tok = target
    body = BODIES[dialect][1]
    headers = {"x-api-key": tok} if dialect == "anthropic" else {"Authorization": f"Bearer {tok}"}
    for stream in (False, True):
        r = httpx.post(f"{g.url}/v1/rollouts/fz{BODIES[dialect][0]}", json={**body, "stream": stream},
                       headers=headers, timeout=30)
        assert r.status_code == 200, r.text


@pytest.mark.parametrize("dialect", ["anthropic", "responses"])
def test_mutated_bodies_get_a_4xx_in_the_dialects_shape_naming_the_field(target: Any, dialect: str) -> None:
    original = BODIES[dialect][1]
    paths = _paths(original)

    @given(where=st.sampled_from(paths), value=JSON, delete=st.booleans())
    @settings(max_examples=int(os.environ.get("GW_FUZZ_EXAMPLES", "80")), deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def run(where: tuple, value: Any, delete: bool) -> None:
        _check(target, dialect, _mutated(original, where, value, delete), original)

    run()


@pytest.mark.parametrize("dialect", ["anthropic", "responses"])
@pytest.mark.parametrize("raw", [b"", b"{", b"[]", b"null", b"\"x\"", b"{\"a\": NaN}"])
def test_bodies_that_are_not_objects(target: Any, dialect: str, raw: bytes) -> None:
    g, _, tok = target
    headers = {"x-api-key": tok} if dialect == "anthropic" else {"Authorization": f"Bearer {tok}"}
    r = httpx.post(f"{g.url}/v1/rollouts/fz{BODIES[dialect][0]}", content=raw, headers=headers, timeout=30)
    assert r.status_code == 400
    assert r.json()["error"]["message"].startswith("the request body")
