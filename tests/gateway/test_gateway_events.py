"""One Event schema: the store's columns come from it, and the trainer fetches an update's events in one request."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fake_engine import FakeUpstream
from gateway_helpers import ADMIN, GatewayHandle
from token_helpers import query_events

from swerl.events import Event
from swerl.gateway import sql
from swerl.gateway.client import GatewayClient
from swerl.tokens import KIND_CODE, USABLE, from_events
from swerl.train.loop.update import fetch_rollouts

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
    assert ev.response_logprobs.tolist() == [-0.10000000149011612]
    assert from_events([ev]).flags[0] & USABLE == USABLE  # trainable, as the trainer reads it


def test_a_store_of_an_earlier_layout_is_refused_by_name_and_left_alone(tmp_path: Path) -> None:
    """A store from before the schema version was kept (user_version 0, tables already there) is not
    converted: the error names the file and says what to do; the file is not touched."""
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
    with pytest.raises(sql.StoreVersionError, match=rf"{path}: written by an older swerl \(store schema 0;.*"
                       r"use the swerl version that wrote it, or give --store a new file and re-record"):
        sql.init(conn, str(path))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    assert "held_s" not in {r[1] for r in conn.execute("PRAGMA table_info(rollouts)")}  # no column added
    conn.close()


def test_a_new_store_gets_the_schema_once(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "new.sqlite")
    sql.init(conn)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == sql.SCHEMA_VERSION
    sql.init(conn)  # opening it again checks the version and changes nothing
    assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == {
        "rollouts", "events", "meta"}
    conn.close()


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
    batch = got["q0"].batch
    assert all(f.batch is batch for f in got.values())  # one binary batch for the whole update
    rows = batch.rows_by_rollout()
    assert [len(rows[r]) for r in rids] == [2, 4, 4, 4, 4]  # q0: attempt 2's call and reward only
    assert {int(batch.attempt[r]) for r in rows["q0"]} == {2}
    assert got["q1"].reward == 1.0 and got["q1"].reward_data["why"] == "q1" and got["q1"].first_version == 0
    assert got["q1"].last_request["messages"] == MSGS
    calls = [r for r in rows["q1"] if batch.kind[r] == KIND_CODE["model_request"]]
    assert [r in batch.requests for r in calls] == [False, False, True]  # JSON of the last call only
    # paging returns the same events in commit order
    everything = query_events(client, rids)
    paged = query_events(client, rids, page_size=4)
    assert [e["id"] for e in paged] == [e["id"] for e in everything] == sorted(e["id"] for e in everything)
    assert fetch_rollouts(client, []) == {}
    client.close()
