"""Abandoned calls: a client that goes away before its answer gets a 499 event, never a trainable 200.

Real HTTP clients (httpx) against the real gateway on loopback; the client disconnects by its own
read timeout (what litellm does after 600 s) or by closing a stream after the first chunk.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fake_engine import FakeConfig, FakeUpstream
from gateway_helpers import GatewayHandle

from swerl.gateway import sql
from swerl.train.assembly import assemble

MSGS = [{"role": "user", "content": "go"}]


@pytest.fixture
def slow_fake() -> Any:
    started: list[FakeUpstream] = []

    def make(**kw: Any) -> FakeUpstream:
        f = FakeUpstream(FakeConfig(prompt_len=6, response_len=8, **kw)).start_in_thread()
        started.append(f)
        return f

    yield make
    for f in started:
        f.stop_thread()


def _until(what: str, fn: Callable[[], Any]) -> Any:
    """Poll fn until it returns something truthy (bounded: fail rather than hang)."""
    for _ in range(1000):
        out = fn()
        if out:
            return out
        time.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def _calls(g: GatewayHandle, rid: str, n: int) -> list[dict]:
    def got() -> list[dict] | None:
        ev = g.events(rid, kind="model_request")
        return ev if len(ev) >= n else None

    return _until(f"{n} model_request events of {rid}", got)


def _trained_response(g: GatewayHandle, rid: str) -> list[list[int]]:
    """What the trainer would learn from this rollout: assemble its events plus a reward."""
    events = [*g.events(rid), {"kind": "reward", "rollout_id": rid, "seq": 10**6, "reward": 1.0}]
    samples, _ = assemble(events, mode="per_call")
    return [s.input_ids[s.loss_mask == 1].tolist() for s in samples]


def test_non_streaming_client_gone_before_answer_is_499_and_never_trained(gateway_factory: Any,
                                                                           slow_fake: Any) -> None:
    fake = slow_fake(delay_s=0.6)
    g = gateway_factory(upstreams=[fake.url])
    tok = g.create("r")
    with pytest.raises(httpx.ReadTimeout):
        g.rollout_client("r", tok, timeout=0.15).post("/chat/completions", json={"messages": MSGS})
    [gone] = _calls(g, "r", 1)
    assert gone["http_status"] == 499 and "disconnected" in gone["error"]
    assert gone["response_ids"] is not None and len(gone["response_ids"]) == 8  # the engine did answer
    resend = g.rollout_client("r", tok, timeout=30).post("/chat/completions", json={"messages": MSGS})
    assert resend.status_code == 200
    [_, seen] = _calls(g, "r", 2)
    assert seen["http_status"] == 200 and seen["error"] is None
    assert _trained_response(g, "r") == [seen["response_ids"]]  # only the answer the client got


def test_stream_closed_mid_way_is_499(gateway_factory: Any, slow_fake: Any) -> None:
    fake = slow_fake(chunk_delay_s=0.15)
    g = gateway_factory(upstreams=[fake.url])
    tok = g.create("s")
    with g.rollout_client("s", tok).stream("POST", "/chat/completions",
                                           json={"messages": MSGS, "stream": True}) as r:
        assert r.status_code == 200
        first = next(r.iter_lines())
        assert first.startswith("data: ")
    # leaving the block closes the unread response: the connection goes away mid-stream
    [ev] = _calls(g, "s", 1)
    assert ev["http_status"] == 499 and "disconnected" in ev["error"]
    assert _trained_response(g, "s") == []
    full = g.rollout_client("s", tok).post("/chat/completions", json={"messages": MSGS, "stream": True})
    assert full.status_code == 200 and full.text.endswith("data: [DONE]\n\n")
    [_, ok] = _calls(g, "s", 2)
    assert ok["http_status"] == 200
    assert _trained_response(g, "s") == [ok["response_ids"]]


def test_stream_client_gone_before_first_byte_is_499(gateway_factory: Any, slow_fake: Any) -> None:
    fake = slow_fake(delay_s=0.6)
    g = gateway_factory(upstreams=[fake.url])
    tok = g.create("t")
    with pytest.raises(httpx.ReadTimeout):
        g.rollout_client("t", tok, timeout=0.15).post("/chat/completions", json={"messages": MSGS, "stream": True})
    [ev] = _calls(g, "t", 1)
    assert ev["http_status"] == 499
    assert _trained_response(g, "t") == []


def test_held_call_whose_client_leaves_is_never_served(gateway_factory: Any, slow_fake: Any) -> None:
    fake = slow_fake()
    g = gateway_factory(upstreams=[fake.url])
    tok = g.create("h")
    admin = g.admin()
    assert admin.post("/admin/pause").json()["drained"] is True
    with pytest.raises(httpx.ReadTimeout):
        g.rollout_client("h", tok, timeout=0.3).post("/chat/completions", json={"messages": MSGS})
    [ev] = _calls(g, "h", 1)
    assert ev["http_status"] == 499 and "held" in ev["error"] and ev["response_ids"] is None
    assert admin.get("/admin/status").json()["held"] == 0
    held_after_first = admin.get("/rollouts/h").json()["held_s"]
    assert held_after_first > 0
    assert g.gw.store.read_now(lambda c: sql.get_rollout(c, "h"))["held_s"] == held_after_first  # durable

    # the resend is held too, and is the one served after resume
    out: dict[str, httpx.Response] = {}
    t = threading.Thread(target=lambda: out.setdefault("r", g.rollout_client("h", tok).post(
        "/chat/completions", json={"messages": MSGS})))
    t.start()
    _until("resend held", lambda: admin.get("/admin/status").json()["held"] == 1)
    live = g.gw.held_s("h")  # in-process view, counting the hold in progress
    assert live is not None and live > held_after_first
    assert admin.post("/admin/resume", json={"policy_version": 1}).status_code == 200
    t.join(30)
    assert out["r"].status_code == 200 and out["r"].headers["x-swerl-policy-version"] == "1"
    assert fake.stats.requests == 1  # the abandoned call never reached the engine
    [_, served] = _calls(g, "h", 2)
    assert served["http_status"] == 200
    assert admin.get("/rollouts/h").json()["held_s"] >= live
    assert _trained_response(g, "h") == [served["response_ids"]]


def test_hold_is_bounded_and_client_timeout_covers_it(gateway_factory: Any, slow_fake: Any) -> None:
    fake = slow_fake()
    g = gateway_factory(upstreams=[fake.url], max_hold_s=0.3, read_timeout_s=5.0)
    tok = g.create("m")
    admin = g.admin()
    st = admin.get("/admin/status").json()
    assert st["max_hold_s"] == 0.3 and st["client_timeout_s"] >= 0.3 + 5.0
    admin.post("/admin/pause")
    r = g.rollout_client("m", tok, timeout=st["client_timeout_s"]).post("/chat/completions",
                                                                        json={"messages": MSGS})
    assert r.status_code == 503 and "paused" in r.json()["error"]["message"]
    [ev] = _calls(g, "m", 1)
    assert ev["http_status"] == 503 and fake.stats.requests == 0


def test_pause_longer_than_the_engine_timeout_causes_no_client_timeout(gateway_factory: Any,
                                                                       slow_fake: Any) -> None:
    """An update that outlasts the engine read timeout: a client using client_timeout_s sees one answer."""
    fake = slow_fake()
    g = gateway_factory(upstreams=[fake.url], read_timeout_s=0.2, max_hold_s=30.0)
    tok = g.create("p")
    admin = g.admin()
    timeout = admin.get("/admin/status").json()["client_timeout_s"]
    admin.post("/admin/pause")
    out: dict[str, Any] = {}
    t = threading.Thread(target=lambda: out.setdefault("r", g.rollout_client("p", tok, timeout=timeout).post(
        "/chat/completions", json={"messages": MSGS})))
    t.start()
    _until("call held", lambda: admin.get("/admin/status").json()["held"] == 1)
    held_from = time.time()
    time.sleep(0.5)  # the "update": longer than the engine's read timeout
    held_to = time.time()
    admin.post("/admin/resume", json={"policy_version": 2})
    t.join(30)
    assert out["r"].status_code == 200
    [ev] = _calls(g, "p", 1)
    assert ev["http_status"] == 200 and fake.stats.requests == 1
    assert admin.get("/rollouts/p").json()["held_s"] >= held_to - held_from


def _ev(seq: int, prompt: list[int], response: list[int], t_arrival: float) -> dict:
    return {"kind": "model_request", "rollout_id": "d", "group_id": "d", "attempt": 1, "seq": seq,
            "prompt_ids": prompt, "response_ids": response, "response_logprobs": [-0.5] * len(response),
            "http_status": 200, "t_arrival": t_arrival}


def test_dedup_trains_the_attempt_the_next_prompt_contains_not_the_last_completed() -> None:
    """A held orphan served after resume completes after the resend: the next prompt says which one was seen."""
    p = [1, 2, 3]
    resend = _ev(5, p, [8, 9], t_arrival=601.0)
    orphan = _ev(6, p, [7, 7], t_arrival=0.0)  # arrived first, completed last
    nxt = _ev(7, [*p, 8, 9, 4], [5], t_arrival=700.0)
    reward = {"kind": "reward", "rollout_id": "d", "attempt": 1, "seq": 8, "reward": 1.0}
    samples, stats = assemble([resend, orphan, nxt, reward])
    assert [s.input_ids.tolist() for s in samples] == [[1, 2, 3, 8, 9, 4, 5]]
    assert stats.num_retries_dropped == 1
    # no later prompt to decide by: the latest by arrival, whatever the completion order
    samples, _ = assemble([_ev(1, p, [7], t_arrival=20.0), _ev(2, p, [6], t_arrival=10.0), reward])
    assert [s.input_ids.tolist() for s in samples] == [[1, 2, 3, 7]]
