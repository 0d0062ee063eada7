"""The admin client used by trainer/controller: idempotent calls, paging, completion feed, pause/resume."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from gateway_helpers import ADMIN, GatewayHandle

from swerl.gateway.client import GatewayClient, GatewayError
from swerl.gateway.schema import CompletedPage, Rollout, RolloutCreated


def test_client_drives_a_rollout_end_to_end(gw: GatewayHandle, fake: Any) -> None:
    with GatewayClient(gw.url, ADMIN) as gc:
        r = gc.create_rollout("c1", group_id="task-9", metadata={"task": "t9"})
        assert isinstance(r, RolloutCreated) and r.token and r.created_now
        again = gc.create_rollout("c1", group_id="task-9")
        assert again.token is None and not again.created_now
        token = gc.rotate_token("c1")
        gc.set_state("c1", "running")
        with httpx.Client(base_url=gc.proxy_base_url("c1"), headers={"Authorization": f"Bearer {token}"}) as h:
            assert h.post("/chat/completions", json={"messages": [{"role": "user", "content": "x"}]}).status_code == 200
        first = gc.add_reward("c1", 1.0)
        assert gc.add_reward("c1", 1.0)["id"] == first["id"]  # once per attempt
        gc.set_state("c1", "succeeded", attempt=1)
        feed = gc.completed(wait_s=0)
        assert isinstance(feed, CompletedPage) and type(gc.rollout("c1")) is Rollout  # the wire models, no dicts
        assert [i.rollout_id for i in feed.items] == ["c1"]
        assert gc.completed(after=feed.next_cursor, wait_s=0).items == []
        kinds = [e["kind"] for e in gc.events("c1")]
        assert kinds == ["status", "model_request", "reward", "status"]
        for i in range(7):
            gc.create_rollout(f"q{i}")
        assert [r.id for r in gc.rollouts(["queued"], page_size=3)] == [f"q{i}" for i in range(7)]
        assert gc.pause()["drained"] is True
        assert gc.resume(2)["policy_version"] == 2
        assert gc.status()["policy_version"] == 2
        with pytest.raises(GatewayError) as e:
            gc.set_state("c1", "running")
        assert e.value.status == 409


def test_client_gives_up_after_its_retry_budget() -> None:
    from gateway_helpers import free_port

    with GatewayClient(f"http://127.0.0.1:{free_port()}", ADMIN, retry_for_s=0.3) as gc, \
            pytest.raises(GatewayError, match="unavailable"):
        gc.status()


def test_a_read_timeout_as_long_as_the_retry_budget_is_retried_not_fatal() -> None:
    """A loaded host: the first answer comes after the client's read timeout, which equals its retry budget.
    Before MIN_TRIES the call ended on that first timeout (a training run died of one slow reply)."""
    import json
    import threading
    import time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen: list[float] = []

    class Slow(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(time.monotonic())
            if len(seen) == 1:
                time.sleep(0.8)  # past the client's 0.3 s read timeout
            body = json.dumps({"paused": False}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a: object) -> None:
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        with GatewayClient(f"http://127.0.0.1:{srv.server_address[1]}", ADMIN, timeout=0.3, retry_for_s=0.3) as gc:
            assert gc.status() == {"paused": False}
        assert len(seen) >= 2
    finally:
        srv.shutdown()
        srv.server_close()
