"""One Event schema: the store's columns come from it, and the trainer fetches an update's events in one request."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from fake_engine import FakeUpstream
from gateway_helpers import ADMIN, GatewayHandle

from swerl.events import Event
from swerl.gateway import sql
from swerl.gateway.client import GatewayClient
from swerl.train.io import fetch_rollouts

MSGS = [{"role": "user", "content": "go"}]


class CountingClient(GatewayClient):
    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.requests = 0

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        self.requests += 1
        return super()._call(method, path, **kw)


def test_store_columns_are_the_event_fields(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "s.sqlite")
    sql.init(conn)
    cols = [r[1] for r in conn.execute("PRAGMA table_info(events)")]
    assert cols == [*Event.model_fields, "idem", *sql.REQ_COLS]  # + storage-only: idempotency, request delta
    row = sql.event_row(rollout_id="r", group_id="g", attempt=1, kind="model_request", prompt_ids=[1, 2],
                        response_ids=[3], response_logprobs=[-0.1], http_status=200, data={"a": 1}, created=1.0)
    eid, seq = sql.insert_event(conn, row)
    [back] = sql.list_events(conn, "r", 0, 10, None, True)
    assert (back["id"], back["seq"], back["prompt_ids"], back["response_logprobs"], back["data"]) == (
        eid, seq, [1, 2], [-0.10000000149011612], {"a": 1})  # stored as float32: what engines and the trainer use
    assert set(back) == set(Event.model_fields)  # storage-only columns are never shown
    ev = Event.model_validate(back)
    assert ev.usable and ev.response_logprobs.tolist() == [-0.10000000149011612]


def test_a_store_of_the_previous_version_gains_the_new_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE rollouts(n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, group_id TEXT NOT NULL,
          state TEXT NOT NULL, attempt INTEGER NOT NULL, max_attempts INTEGER NOT NULL,
          token_hash BLOB NOT NULL UNIQUE, engine TEXT, metadata BLOB NOT NULL, created REAL NOT NULL,
          updated REAL NOT NULL);
        CREATE TABLE events(id INTEGER PRIMARY KEY, rollout_id TEXT NOT NULL, group_id TEXT NOT NULL,
          attempt INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, created REAL NOT NULL, idem TEXT,
          UNIQUE(rollout_id, seq));
        INSERT INTO rollouts VALUES (1, 'old', 'old', 'running', 1, 3, x'00', NULL, '{}', 0, 0);
        INSERT INTO events(rollout_id, group_id, attempt, seq, kind, created) VALUES ('old', 'old', 1, 1, 'status', 0);
    """)
    conn.commit()
    sql.init(conn)
    assert sql.get_rollout(conn, "old")["held_s"] == 0
    [ev] = sql.list_events(conn, "old", 0, 10, None, True)
    assert ev["http_status"] is None and Event.model_validate(ev).kind == "status"


def test_one_request_fetches_an_update(gw: GatewayHandle, fake: FakeUpstream) -> None:
    rids = [f"q{i}" for i in range(5)]
    for rid in rids:
        tok = gw.create(rid)
        c = gw.rollout_client(rid, tok)
        for _ in range(3):
            assert c.post("/chat/completions", json={"messages": MSGS}).status_code == 200
    admin = gw.admin()
    # q0's first attempt failed for infra reasons: its retry is what counts
    assert admin.patch("/rollouts/q0", json={"state": "failed_infra"}).status_code == 200
    assert admin.patch("/rollouts/q0", json={"state": "queued"}).json()["attempt"] == 2
    admin.patch("/rollouts/q0", json={"state": "running"})
    tok = admin.post("/rollouts/q0/token").json()["token"]
    assert gw.rollout_client("q0", tok).post("/chat/completions", json={"messages": MSGS}).status_code == 200
    for rid in rids:
        r = admin.post(f"/rollouts/{rid}/events", json={"kind": "reward", "reward": 1.0, "data": {"why": rid}})
        assert r.status_code == 201

    client = CountingClient(gw.url, ADMIN)
    got = fetch_rollouts(client, rids, last_request=True)
    assert client.requests == 1
    assert [len(got[r].events) for r in rids] == [2, 4, 4, 4, 4]  # q0: attempt 2's call and reward only
    assert all(e.attempt == 2 for e in got["q0"].events)
    assert got["q1"].reward == 1.0 and got["q1"].reward_data["why"] == "q1" and got["q1"].first_version == 0
    assert got["q1"].last_request["messages"] == MSGS
    calls = [e for e in got["q1"].events if e.kind == "model_request"]
    assert [e.request is not None for e in calls] == [False, False, True]  # JSON of the last call only
    # paging returns the same events in commit order
    everything = client.query_events(rids)
    paged = client.query_events(rids, page_size=4)
    assert [e["id"] for e in paged] == [e["id"] for e in everything] == sorted(e["id"] for e in everything)
    assert fetch_rollouts(client, []) == {}
    client.close()
