"""Delta-encoded recording through the real gateway, and the trainer's binary fetch (swerl.tokens).

A real gateway (HTTP on loopback, SQLite store) in front of a tiny engine that answers each
call with the token ids the test chose; the harness side is plain HTTP. Checked: what the
store holds (suffixes only, linear in unique tokens), what the JSON API shows (full prompts,
for humans), and what the trainer's fetch gets (one binary request, the same samples as
assembling the JSON events).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import numpy as np
import orjson
import pytest
from token_helpers import query_events, to_events

from swerl.config import GatewaySettings
from swerl.gateway.app import create_app
from swerl.gateway.client import GatewayClient
from swerl.gateway.server import ServerThread
from swerl.gateway.service import Gateway
from swerl.tokens import MEDIA_TYPE, TokenBatch
from swerl.train.assembly import assemble
from swerl.train.loop.update import fetch_rollouts

ADMIN = "test-admin-token-tokens-0123456789"


class _Engine(asyncio.Protocol):
    """Answers call "<rollout> <j>" with SCRIPT[rollout][j]: (prompt ids, response ids), vLLM-style."""

    script: ClassVar[dict[str, list[tuple[list[int], list[int]]]]] = {}

    def __init__(self) -> None:
        self.buf = b""
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while (end := self.buf.find(b"\r\n\r\n")) >= 0:
            head = self.buf[:end].decode("latin-1")
            n = next((int(v) for k, _, v in (ln.partition(":") for ln in head.split("\r\n")[1:])
                      if k.strip().lower() == "content-length"), 0)
            if len(self.buf) < end + 4 + n:
                return
            body, self.buf = self.buf[end + 4:end + 4 + n], self.buf[end + 4 + n:]
            if head.startswith("GET"):
                out = b'{"object":"list","data":[{"id":"t","object":"model","max_model_len":65536}]}'
            else:
                rid, j = orjson.loads(body)["messages"][-1]["content"].split()
                prompt, resp = self.script[rid][int(j)]
                out = orjson.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "t",
                                    "prompt_token_ids": prompt, "choices": [{
                                        "index": 0, "message": {"role": "assistant", "content": "ok"},
                                        "finish_reason": "length" if len(resp) == 3 else "stop", "token_ids": resp,
                                        "logprobs": {"content": [{"logprob": -0.25 - k / 64} for k in range(len(resp))]}}]})
            self.transport.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                                 % (len(out), out))


@pytest.fixture
def engine_url() -> Iterator[str]:
    ready, port, loop_box = threading.Event(), [], []

    def run() -> None:
        loop = asyncio.new_event_loop()
        server = loop.run_until_complete(loop.create_server(_Engine, "127.0.0.1", 0))
        port.append(server.sockets[0].getsockname()[1])
        loop_box.append(loop)
        ready.set()
        loop.run_forever()

    threading.Thread(target=run, daemon=True).start()
    assert ready.wait(10)
    yield f"http://127.0.0.1:{port[0]}/v1"
    loop_box[0].call_soon_threadsafe(loop_box[0].stop)


@pytest.fixture
def gateway(tmp_path: Path, engine_url: str) -> Iterator[tuple[str, Path]]:
    store = tmp_path / "gw.sqlite"
    gw = Gateway(GatewaySettings(store=str(store)), admin_token=ADMIN, upstreams=[engine_url])
    server = ServerThread(create_app(gw)).start()
    yield server.url, store
    server.stop()


def _run_rollout(url: str, admin: GatewayClient, rid: str, calls: list[tuple[list[int], list[int]]],
                 reward: float) -> None:
    _Engine.script[rid] = calls
    token = admin.create_rollout(rid, group_id="g").token
    admin.set_state(rid, "running")
    with httpx.Client(base_url=f"{url}/v1/rollouts/{rid}", headers={"Authorization": f"Bearer {token}"},
                      timeout=30) as http:
        for j in range(len(calls)):
            r = http.post("/chat/completions", json={"model": "m", "messages": [{"role": "user", "content": f"{rid} {j}"}]})
            assert r.status_code == 200, r.text
    admin.add_reward(rid, reward)
    admin.set_state(rid, "succeeded")


def _chain(seed: int) -> list[tuple[list[int], list[int]]]:
    """Calls that extend, one retokenisation break, a retry of the same prompt, and a fresh branch."""
    rng = np.random.default_rng(seed)
    ids = lambda n: rng.integers(0, 150_000, n).tolist()  # noqa: E731
    p = ids(50)
    out = []
    for _ in range(3):
        a = ids(5)
        out.append((p, a))
        p = p + a + ids(20)
    a = ids(5)
    out.append((p, a))
    broken = [*p, a[0], 7, 7, *a[3:], *ids(10)]  # the response came back re-tokenised
    out.append((broken, ids(4)))
    out.append((broken, ids(4)))  # a retry of the same prompt
    out.append((ids(30), ids(3)))  # a sub-agent: nothing shared; the engine cut its reply at max_tokens
    return out


def test_store_holds_suffixes_json_shows_full_prompts_and_trainer_fetches_binary(gateway: tuple[str, Path]) -> None:
    url, store = gateway
    rollouts = {"ra": _chain(1), "rb": _chain(2)}
    with GatewayClient(url, ADMIN) as admin:
        for i, (rid, calls) in enumerate(rollouts.items()):
            _run_rollout(url, admin, rid, calls, float(i))

        # the store: delta records, linear in unique tokens
        conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        rows = conn.execute("SELECT rollout_id, prompt_parent, prompt_shared, LENGTH(prompt_ids) FROM events "
                            "WHERE kind = 'model_request' ORDER BY id").fetchall()
        conn.close()
        ra = [r for r in rows if r[0] == "ra"]
        assert [r[1] is None for r in ra] == [True, False, False, False, False, False, True]
        calls = rollouts["ra"]
        assert ra[1][2] == len(calls[0][0]) + 5 and ra[1][3] == 4 * 20  # only the new observation is stored
        assert ra[4][2] == len(calls[3][0]) + 1 and ra[4][3] == 4 * (len(calls[4][0]) - ra[4][2])  # the break
        assert ra[5][3] == 0  # the retry shares everything
        stored = sum(r[3] for r in rows) // 4
        assert stored < sum(len(p) for c in rollouts.values() for p, _ in c) / 2

        # humans: the JSON API returns whole prompts
        for rid, calls in rollouts.items():
            got = [e["prompt_ids"] for e in admin.events(rid, kinds=["model_request"])]
            assert got == [p for p, _ in calls]
        json_events = query_events(admin, list(rollouts), kinds=["model_request", "reward"], current_attempt=True)

        # the trainer: one binary request, the same samples as from the JSON events
        batch = admin.token_batch(list(rollouts), kinds=["model_request", "reward"], include_json="last")
        assert isinstance(batch, TokenBatch) and batch.prompt_pool.size == stored
        want, want_stats = assemble(json_events)
        got, got_stats = assemble(batch)
        assert got_stats.model_dump() == want_stats.model_dump()
        assert [s.input_ids.tolist() for s in got] == [s.input_ids.tolist() for s in want]
        assert [s.loss_mask.tolist() for s in got] == [s.loss_mask.tolist() for s in want]
        assert got_stats.num_retries_dropped == 2 and got_stats.num_samples == 6
        assert got_stats.num_calls_cut == 2  # the per-call budget's cuts, counted the same on both paths

        fetched = fetch_rollouts(admin, list(rollouts), last_request=True)
        assert fetched["rb"].reward == 1.0 and fetched["ra"].first_version == 0
        assert fetched["ra"].last_request["messages"][-1]["content"] == "ra 6"
        tokens = {"Accept": MEDIA_TYPE}
        raw = httpx.post(f"{url}/events/query", headers={**tokens, "Authorization": "Bearer nope"},
                         json={"rollout_ids": ["ra"]})
        assert raw.status_code in (401, 403)  # the binary answer is admin-only like the JSON one
        raw = httpx.post(f"{url}/events/query", headers={**tokens, "Authorization": f"Bearer {ADMIN}"},
                         json={"rollout_ids": ["ra", "nobody"], "kinds": ["reward"]})
        assert raw.status_code == 200 and raw.headers["content-type"].startswith(MEDIA_TYPE)
        only_reward = TokenBatch.from_bytes(raw.content)
        assert len(only_reward) == 1 and to_events(only_reward)[0]["reward"] == 0.0
