"""The OpenAI-compatible proxy: exact recording, what the harness sees, streaming, errors, retries, auth."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest
from fake_engine import FakeConfig, FakeUpstream, response_logprob
from gateway_helpers import GatewayHandle

MSGS = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "fix it"}]


def _expected_response_ids(k: int, n: int = 8) -> list[int]:
    return [k, *range(2001, 2000 + n)]


def test_chat_call_is_recorded_exactly_and_answered_plainly(gw: GatewayHandle, fake: FakeUpstream) -> None:
    fake.stats.record = True
    tok = gw.create("r1", group_id="g7")
    r = gw.rollout_client("r1", tok).post("/chat/completions", json={"model": "m", "messages": MSGS,
                                                                        "temperature": 0.7})
    assert r.status_code == 200
    body = r.json()
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "fake reply 1"}
    # the harness did not ask for ids/logprobs: it gets a normal OpenAI response
    assert "prompt_token_ids" not in body and "token_ids" not in body["choices"][0]
    assert body["choices"][0]["logprobs"] is None
    # the engine was asked for them
    sent = fake.stats.bodies[-1]
    assert sent["return_token_ids"] is True and sent["logprobs"] is True and sent["temperature"] == 0.7
    [ev] = gw.events("r1", kind="model_request", include_json=True)
    assert ev["prompt_ids"] == list(range(1000, 1040))
    assert ev["response_ids"] == _expected_response_ids(1)
    assert ev["response_logprobs"] == [response_logprob(i) for i in range(8)]
    assert (ev["rollout_id"], ev["group_id"], ev["attempt"], ev["mode"]) == ("r1", "g7", 1, "chat")
    assert ev["finish_reason"] == "stop" and ev["policy_version"] == 0 and ev["http_status"] == 200
    assert ev["t_arrival"] <= ev["t_start"] <= ev["t_end"] <= ev["created"]
    assert ev["request"] == {"model": "m", "messages": MSGS, "temperature": 0.7}
    assert ev["response"]["choices"][0]["message"]["content"] == "fake reply 1"
    assert r.headers["x-swerl-event-id"] == str(ev["id"]) and r.headers["x-swerl-seq"] == str(ev["seq"])


def test_client_that_asks_for_ids_and_logprobs_gets_them(gw: GatewayHandle) -> None:
    tok = gw.create("r2")
    r = gw.rollout_client("r2", tok).post("/chat/completions", json={"messages": MSGS, "logprobs": True,
                                                                        "return_token_ids": True}).json()
    assert r["prompt_token_ids"] == list(range(1000, 1040))
    assert r["choices"][0]["token_ids"] == _expected_response_ids(1)
    assert [e["logprob"] for e in r["choices"][0]["logprobs"]["content"]] == [response_logprob(i) for i in range(8)]


def test_completions_with_token_prompt(gw: GatewayHandle) -> None:
    tok = gw.create("r3")
    c = gw.rollout_client("r3", tok)
    r = c.post("/completions", json={"model": "m", "prompt": [5, 6, 7], "max_tokens": 4})
    assert r.status_code == 200 and r.json()["choices"][0]["text"] == "fake reply 1"
    r = c.post("/completions", json={"model": "m", "prompt": "hello"})
    assert r.status_code == 200
    evs = gw.events("r3", kind="model_request")
    assert evs[0]["prompt_ids"] == [5, 6, 7] and evs[0]["mode"] == "completion"
    assert evs[0]["response_logprobs"] == [response_logprob(i) for i in range(8)]
    assert evs[1]["prompt_ids"] == list(range(1000, 1040))
    assert [e["seq"] for e in evs] == [2, 3]


def test_streamed_call_is_forwarded_and_recorded_like_a_plain_one(gw: GatewayHandle) -> None:
    tok = gw.create("st")
    with gw.rollout_client("st", tok).stream("POST", "/chat/completions",
                                             json={"messages": MSGS, "stream": True}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        lines = [ln for ln in r.iter_lines() if ln.startswith("data: ")]
    assert lines[-1] == "data: [DONE]"
    chunks = [orjson.loads(ln[6:]) for ln in lines[:-1]]
    text = "".join(ch["choices"][0]["delta"].get("content") or "" for ch in chunks)
    assert text == "fake reply 1"
    assert all("token_ids" not in ch["choices"][0] and "prompt_token_ids" not in ch for ch in chunks)
    [ev] = gw.events("st", kind="model_request", include_json=True)
    assert ev["prompt_ids"] == list(range(1000, 1040)) and ev["response_ids"] == _expected_response_ids(1)
    assert ev["response_logprobs"] == [response_logprob(i) for i in range(8)]
    assert ev["response"]["choices"][0]["message"]["content"] == "fake reply 1" and ev["error"] is None


def test_token_of_another_rollout_is_403_and_other_auth_failures(gw: GatewayHandle) -> None:
    tok_a = gw.create("ra")
    gw.create("rb")
    body = {"messages": MSGS}
    with httpx.Client(base_url=gw.url, timeout=10) as c:
        r = c.post("/v1/rollouts/rb/chat/completions", json=body, headers={"Authorization": f"Bearer {tok_a}"})
        assert r.status_code == 403 and r.json()["error"]["type"] == "permission_error"
        r = c.post("/v1/rollouts/rb/chat/completions", json=body, headers={"Authorization": f"Bearer {gw.gw.admin_token}"})
        assert r.status_code == 403  # the admin token does not open proxy paths
        assert c.post("/v1/rollouts/rb/chat/completions", json=body).status_code == 401
        r = c.post("/v1/rollouts/rb/chat/completions", json=body, headers={"Authorization": "Bearer swr_forged"})
        assert r.status_code == 401
        r = c.post("/v1/rollouts/ghost/chat/completions", json=body, headers={"Authorization": f"Bearer {tok_a}"})
        assert r.status_code == 403
    assert gw.events("rb", kind="model_request") == []


def test_finished_rollout_takes_no_more_calls(gw: GatewayHandle) -> None:
    tok = gw.create("fin")
    gw.admin().patch("/rollouts/fin", json={"state": "succeeded"})
    r = gw.rollout_client("fin", tok).post("/chat/completions", json={"messages": MSGS})
    assert r.status_code == 409


@pytest.mark.parametrize(("body", "needle"), [
    (b"{not json", "not valid JSON"), (b"[1,2]", "JSON object"), (b'{"messages": []}', "messages"),
    (b'{"messages": [{"content": "x"}]}', "role"), (b'{"messages": [{"role": "user"}], "n": 3}', "n/best_of"),
    (b'{"messages": [{"role": "user"}], "stream": "yes"}', "stream")])
def test_bad_requests_are_json_400(gw: GatewayHandle, body: bytes, needle: str) -> None:
    tok = gw.create("bad")
    r = gw.rollout_client("bad", tok).post("/chat/completions", content=body)
    assert r.status_code == 400 and needle in r.json()["error"]["message"]


def test_request_size_limit(gateway_factory: Any, fake: FakeUpstream) -> None:
    g = gateway_factory(upstreams=[fake.url], max_body_bytes=10_000)
    tok = g.create("big")
    r = g.rollout_client("big", tok).post("/chat/completions", json={"messages": [{"role": "user",
                                                                                   "content": "x" * 20_000}]})
    assert r.status_code == 413 and r.json()["error"]["type"] == "request_too_large"
    assert g.admin().post("/rollouts", json={"id": "m", "metadata": {"x": "y" * 20_000}}).status_code == 413


def test_secrets_are_redacted_from_stored_requests(gw: GatewayHandle) -> None:
    tok = gw.create("sec")
    msgs = [{"role": "user", "content": f"my key is {tok} and the admin one {gw.gw.admin_token}"}]
    r = gw.rollout_client("sec", tok).post("/chat/completions", json={
        "messages": msgs, "api_key": "sk-live-123", "extra_headers": {"Authorization": "Bearer sk-2"}})
    assert r.status_code == 200
    [ev] = gw.events("sec", kind="model_request", include_json=True)
    stored = orjson.dumps(ev["request"]).decode()
    for secret in (tok, gw.gw.admin_token, "sk-live-123", "sk-2"):
        assert secret not in stored
    assert ev["request"]["api_key"] == "[REDACTED]"
    assert "[REDACTED]" in ev["request"]["messages"][0]["content"]


def test_upstream_failures_are_retried(gateway_factory: Any) -> None:
    f = FakeUpstream(FakeConfig(prompt_len=4, response_len=2, fail_first=2)).start_in_thread()
    try:
        g = gateway_factory(upstreams=[f.url], retry_attempts=4)
        tok = g.create("retry")
        r = g.rollout_client("retry", tok).post("/chat/completions", json={"messages": MSGS})
        assert r.status_code == 200 and f.stats.requests == 3
        [ev] = g.events("retry", kind="model_request")
        assert ev["response_ids"] == [3, 2001] and ev["error"] is None
    finally:
        f.stop_thread()


def test_dropped_connections_are_retried(gateway_factory: Any) -> None:
    f = FakeUpstream(FakeConfig(prompt_len=4, response_len=2, drop_every=2)).start_in_thread()
    try:
        g = gateway_factory(upstreams=[f.url], retry_attempts=3)
        tok = g.create("drop")
        c = g.rollout_client("drop", tok)
        assert all(c.post("/chat/completions", json={"messages": MSGS}).status_code == 200 for _ in range(6))
        assert len(g.events("drop", kind="model_request")) == 6
    finally:
        f.stop_thread()


def test_final_upstream_failure_is_an_openai_error_and_recorded(gateway_factory: Any) -> None:
    f = FakeUpstream(FakeConfig(prompt_len=4, response_len=2, fail_every=1)).start_in_thread()
    try:
        g = gateway_factory(upstreams=[f.url], retry_attempts=3)
        tok = g.create("down")
        r = g.rollout_client("down", tok).post("/chat/completions", json={"messages": MSGS})
        assert r.status_code == 502 and r.json()["error"]["type"] == "upstream_error"
        assert f.stats.requests == 3
        [ev] = g.events("down", kind="model_request", include_json=True)
        assert ev["http_status"] == 502 and "503" in ev["error"] and ev["response_ids"] is None
        assert ev["response"]["error"]["message"] == "fake overload"
    finally:
        f.stop_thread()


def test_unreachable_engine_and_no_engine(gateway_factory: Any) -> None:
    from gateway_helpers import free_port

    g = gateway_factory(upstreams=[f"http://127.0.0.1:{free_port()}/v1"], retry_attempts=2)
    tok = g.create("nx")
    r = g.rollout_client("nx", tok).post("/chat/completions", json={"messages": MSGS})
    assert r.status_code == 502 and "unreachable" in r.json()["error"]["message"]
    g2 = gateway_factory()
    tok = g2.create("none")
    r = g2.rollout_client("none", tok).post("/chat/completions", json={"messages": MSGS})
    assert r.status_code == 503
    assert g2.events("none", kind="model_request")[0]["http_status"] == 503


def test_engine_4xx_is_passed_through_not_retried(gw: GatewayHandle, fake: FakeUpstream) -> None:
    tok = gw.create("e4")
    r = gw.rollout_client("e4", tok).post("/chat/completions", json={"messages": MSGS, "temperature": -1})
    assert r.status_code == 400 and r.json()["error"]["message"] == "temperature must be non-negative"
    assert fake.stats.requests == 1
    [ev] = gw.events("e4", kind="model_request")
    assert ev["http_status"] == 400 and ev["response_ids"] is None


def test_rollouts_are_sticky_to_one_engine(gateway_factory: Any) -> None:
    fs = [FakeUpstream(FakeConfig(prompt_len=4, response_len=2)).start_in_thread() for _ in range(2)]
    try:
        g = gateway_factory(upstreams=[f.url for f in fs])
        toks = {f"k{i}": g.create(f"k{i}") for i in range(6)}
        for rid, tok in toks.items():
            c = g.rollout_client(rid, tok)
            for _ in range(3):
                assert c.post("/chat/completions", json={"messages": MSGS}).status_code == 200
        for rid in toks:
            assert len({e["engine"] for e in g.events(rid, kind="model_request")}) == 1
            assert g.admin().get(f"/rollouts/{rid}").json()["engine"] is not None
        assert [f.stats.requests for f in fs] == [9, 9]  # new rollouts go to the least loaded engine
    finally:
        for f in fs:
            f.stop_thread()
