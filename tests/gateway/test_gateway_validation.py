"""Input the gateway must refuse with one clear 400: impossible max_tokens, NaN/infinity in stored JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fake_engine import FakeConfig, FakeUpstream
from gateway_helpers import GatewayHandle

MSGS = [{"role": "user", "content": "go"}]
LIMIT = 4096


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from gateway_helpers import start_gateway

    fake = FakeUpstream(FakeConfig(prompt_len=4, response_len=2, max_model_len=LIMIT)).start_in_thread()
    g = start_gateway(store=str(tmp_path_factory.mktemp("v") / "gw.sqlite"), upstreams=[fake.url])
    yield g, fake
    g.stop()
    fake.stop_thread()


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"max_tokens": 1e12}, 400, f"max_tokens: 1e+12 is more than the engine's context limit of {LIMIT} tokens"),
    ({"max_tokens": 2**70}, 400, f"max_tokens: 1.18059e+21 is more than the engine's context limit of {LIMIT}"),
    ({"max_completion_tokens": LIMIT + 1}, 400, f"context limit of {LIMIT} tokens"),
    ({"max_tokens": 12.5}, 400, f"not a token count the engine can take (the engine's context limit is {LIMIT}"),
    ({"max_tokens": 0}, 400, "max_tokens: must be a positive integer"),
    ({"max_tokens": -3}, 400, "max_tokens: must be a positive integer"),
    ({"max_tokens": "100"}, 400, "max_tokens: must be a positive integer"),
    ({"max_tokens": True}, 400, "max_tokens: must be a positive integer"),
    ({"max_tokens": LIMIT}, 200, None),
    ({"max_tokens": None}, 200, None),
    ({}, 200, None),
])
@pytest.mark.parametrize("stream", [False, True])
def test_max_tokens(limited: Any, body: dict, status: int, says: str | None, stream: bool) -> None:
    g, _ = limited
    rid = f"mt{abs(hash((repr(body), stream)))}"
    r = g.rollout_client(rid, g.create(rid)).post("/chat/completions",
                                                  json={"messages": MSGS, "stream": stream, **body})
    assert r.status_code == status, r.text
    if says:
        assert says in r.json()["error"]["message"]
    if "context limit" in (says or ""):  # checked against the engine: recorded as a failed call, never trained
        [ev] = g.events(rid, kind="model_request")
        assert ev["http_status"] == 400 and ev["response_ids"] is None


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(("path", "body", "says"), [
    ("/rollouts/{rid}/events", {"kind": "reward", "reward": 1.0, "data": {"score": NAN}}, "data.score"),
    ("/rollouts/{rid}/events", {"kind": "reward", "reward": 1.0, "data": {"x": [1.0, INF]}}, "data.x[1]"),
    ("/rollouts/{rid}/events", {"kind": "model_request", "data": {"deep": {"v": -INF}}}, "data.deep.v"),
    ("/rollouts/{rid}/events", {"kind": "model_request", "request": {"temperature": NAN}}, "request.temperature"),
    ("/rollouts/{rid}/events", {"kind": "model_request", "response": {"x": [{"y": INF}]}}, "response.x[0].y"),
    ("/rollouts", {"id": "nan-meta", "metadata": {"difficulty": NAN}}, "metadata.difficulty"),
])
def test_nan_and_infinity_in_stored_json_are_refused(gw: GatewayHandle, path: str, body: dict, says: str) -> None:
    gw.create("nan")
    admin = gw.admin()
    before = len(gw.events("nan"))
    r = admin.post(path.format(rid="nan"), content=json.dumps(body),  # NaN/Infinity literals, as Python writes them
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"]["message"] == f"{says}: NaN and infinity are not valid JSON numbers"
    assert len(gw.events("nan")) == before  # nothing stored
    assert admin.get("/rollouts/nan-meta").status_code == 404
