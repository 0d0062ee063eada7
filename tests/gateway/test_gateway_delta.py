"""Delta-encoded storage: request JSON and prompt ids stored against the right earlier call, read back exactly.

A multi-turn harness re-sends its whole conversation every call; the store keeps each call's new
part only (tokens: `swerl.tokens`, request JSON: `recorder.encode_request`). These tests drive the
real gateway over HTTP and check (a) every reader returns exactly what was sent, (b) the rows hold
the delta and point at the right parent, including after a branch, and (c) stores of another schema
(older or newer) and foreign files are refused by name and left untouched.
"""

from __future__ import annotations

import asyncio
import copy
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest
from fake_engine import FakeUpstream
from gateway_helpers import ADMIN, GatewayHandle
from hypothesis import given, settings
from hypothesis import strategies as st
from token_helpers import query_events

from swerl.gateway import sql
from swerl.gateway.client import GatewayClient
from swerl.gateway.recorder import REDACTED, RequestHead, add_head, decode_request, encode_request
from swerl.gateway.store import Store
from swerl.train.assembly import assemble

TOOLS = [{"type": "function", "function": {"name": f"tool{i}", "description": "does a thing " * 20,
                                           "parameters": {"type": "object", "properties": {}}}} for i in range(6)]


def _rows(path: str) -> dict[int, dict[str, Any]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cols = ("id", "seq", "request", "req_parent", "req_shared", "prompt_parent", "prompt_shared", "prompt_ids")
        rows = {r[0]: dict(zip(cols, r, strict=True)) for r in conn.execute(
            f"SELECT {', '.join(cols)} FROM events WHERE kind = 'model_request' ORDER BY id")}
    finally:
        conn.close()
    for r in rows.values():  # as stored, decompressed (big JSON is kept zlib-compressed)
        r["stored_bytes"] = len(r["request"] or b"")
        r["request"] = None if r["request"] is None else orjson.dumps(sql.json_of(r["request"]))
    return rows


def test_chat_requests_are_stored_as_deltas_and_read_back_exactly(gw: GatewayHandle) -> None:
    tok = gw.create("conv")
    c = gw.rollout_client("conv", tok)
    sys_msg = {"role": "system", "content": "You are a careful engineer. " * 50}
    a = [sys_msg, {"role": "user", "content": "task: fix the bug " * 30}]
    sent: list[dict[str, Any]] = []

    def call(body: dict[str, Any]) -> int:
        r = c.post("/chat/completions", json=body)
        assert r.status_code == 200, r.text
        sent.append(copy.deepcopy(body))
        return int(r.headers["x-swerl-event-id"])

    def turn(msgs: list[dict[str, Any]], reply_of: int, obs: str) -> list[dict[str, Any]]:
        return [*msgs, {"role": "assistant", "content": f"reply {reply_of}"}, {"role": "user", "content": obs}]

    base = {"model": "m", "tools": TOOLS, "temperature": 0.7}
    ids = [call({**base, "messages": a})]
    a = turn(a, 1, "observation one " * 40)
    ids.append(call({**base, "messages": a}))
    a = turn(a, 2, "observation two " * 40)
    ids.append(call({**base, "messages": a, "temperature": 0.2}))  # a changed setting
    b = [sys_msg, {"role": "user", "content": "summary of the work so far"}]  # a context edit: a branch
    ids.append(call({"model": "m", "tools": TOOLS, "messages": b}))  # and a key dropped
    a = turn(a, 3, f"observation three, token {tok} echoed")  # back to the first conversation, a secret in it
    ids.append(call({**base, "messages": a}))
    ids.append(call({**base, "messages": a}))  # the harness re-sent the same call

    expect = copy.deepcopy(sent)
    last = expect[4]["messages"][-1]
    last["content"] = last["content"].replace(tok, REDACTED)
    expect[5]["messages"][-1]["content"] = last["content"]
    # every reader returns the whole request, exactly
    evs = gw.events("conv", include_json="true", kind="model_request")
    assert [e["request"] for e in evs] == expect
    assert [e["id"] for e in evs] == ids
    assert all("req_parent" not in e and "req_shared" not in e for e in evs)
    with GatewayClient(gw.url, ADMIN) as client:
        assert [e["request"] for e in query_events(client, ["conv"], ["model_request"], include_json="all")] == expect
        got = query_events(client, ["conv"], ["model_request"], include_json="last")
        assert [e["request"] for e in got] == [None] * 5 + [expect[5]]
        batch = client.token_batch(["conv"], ["model_request"], include_json="all")
        assert [batch.requests[i] for i in range(len(batch))] == expect
    glob = gw.admin().get("/events", params={"include_json": "true", "kind": "model_request"}).json()["items"]
    assert [e["request"] for e in glob] == expect

    # what the rows hold: the new messages only, against the right parent
    rows = _rows(gw.gw.cfg.store)
    r = [rows[i] for i in ids]
    assert r[0]["req_parent"] is None and orjson.loads(r[0]["request"]) == expect[0]  # first call: whole,
    assert r[0]["stored_bytes"] < len(orjson.dumps(expect[0])) / 2  # and compressed
    assert (r[1]["req_parent"], r[1]["req_shared"]) == (ids[0], 2)
    assert (r[2]["req_parent"], r[2]["req_shared"]) == (ids[1], 4)
    assert (r[3]["req_parent"], r[3]["req_shared"]) == (ids[2], 1)  # the branch shares the system message
    assert (r[4]["req_parent"], r[4]["req_shared"]) == (ids[2], 6)  # the right ancestor, not the last call
    assert (r[5]["req_parent"], r[5]["req_shared"]) == (ids[4], 8)  # a resend: nothing new
    rec = orjson.loads(r[4]["request"])
    assert rec["new"] == expect[4]["messages"][6:] and rec["set"] == {"temperature": 0.7}  # 0.2 at the parent
    assert orjson.loads(r[5]["request"])["new"] == [] and orjson.loads(r[5]["request"])["set"] == {}
    assert b"tool0" not in r[2]["request"] and b"careful engineer" not in r[2]["request"]  # inherited, not repeated
    assert orjson.loads(r[3]["request"])["keys"] == ["model", "tools", "messages"]
    # what the gateway keeps in memory: one tip per conversation (an extension replaces its parent)
    assert [h.event_id for h in gw.gw._rollouts["conv"].req_heads] == [ids[5], ids[3]]
    whole = sum(len(orjson.dumps(e)) for e in expect)
    assert sum(x["stored_bytes"] for x in r) < whole / 5


def test_completions_prompts_choose_the_parent_sharing_the_most(gw: GatewayHandle) -> None:
    """Two conversations interleave in one rollout: each call is stored against its own conversation's tip."""
    tok = gw.create("mix")
    c = gw.rollout_client("mix", tok)
    rng = np.random.default_rng(3)
    ids = lambda n: rng.integers(0, 50_000, n).tolist()  # noqa: E731
    sent: list[list[int]] = []
    event_ids: list[int] = []

    def call(prompt: list[int]) -> list[int]:
        r = c.post("/completions", json={"model": "m", "prompt": prompt, "max_tokens": 8, "return_token_ids": True})
        assert r.status_code == 200, r.text
        sent.append(prompt)
        event_ids.append(int(r.headers["x-swerl-event-id"]))
        return r.json()["choices"][0]["token_ids"]

    a = ids(300)
    a = a + call(a) + ids(50)       # A1 -> A2
    a2_resp = call(a)               # A2
    b = ids(200)
    b = b + call(b) + ids(40)       # B1 -> B2 (nothing in common with A)
    a = a + a2_resp + ids(60)
    call(a)                         # A3 extends A2, two calls back
    call(b)                         # B2 extends B1
    a_edit = a[:150] + ids(30)
    call(a_edit)                    # a context edit of A: shares A's first 150 tokens

    rows = [_rows(gw.gw.cfg.store)[i] for i in event_ids]
    full = lambda j: len(sent[j]) + 8  # noqa: E731
    assert [(x["prompt_parent"], x["prompt_shared"]) for x in rows] == [
        (None, None), (event_ids[0], full(0)), (None, None), (event_ids[1], full(1)), (event_ids[2], full(2)),
        (event_ids[3], 150)]
    assert [h.event_id for h in gw.gw._rollouts["mix"].tok_heads] == [event_ids[5], event_ids[4], event_ids[3]]
    assert len(rows[3]["prompt_ids"]) == 4 * 60 and len(rows[5]["prompt_ids"]) == 4 * 30  # only the new tokens
    assert (rows[3]["req_parent"], rows[3]["req_shared"]) == (event_ids[1], len(sent[1]))  # token-id prompt JSON
    evs = gw.events("mix", include_json="true", kind="model_request")
    assert [e["prompt_ids"] for e in evs] == sent
    assert [e["request"]["prompt"] for e in evs] == sent
    with GatewayClient(gw.url, ADMIN) as client:
        batch = client.token_batch(["mix"])
    mine, stats = assemble(batch)
    ref, ref_stats = assemble(evs)
    assert [s.input_ids.tolist() for s in mine] == [s.input_ids.tolist() for s in ref]
    assert [s.loss_mask.tolist() for s in mine] == [s.loss_mask.tolist() for s in ref]
    assert stats.merge_failures == ref_stats.merge_failures and stats.num_samples == ref_stats.num_samples == 5


def test_appended_model_calls_are_delta_encoded_too(gw: GatewayHandle, fake: FakeUpstream) -> None:
    gw.create("ext")
    admin = gw.admin()
    p1, r1 = list(range(100, 400)), [7, 8, 9]
    p2, r2 = [*p1, *r1, 11, 12], [13]
    msgs = [{"role": "user", "content": "x" * 2000}]
    bodies = [{"kind": "model_request", "prompt_ids": p1, "response_ids": r1, "response_logprobs": [-0.5] * 3,
               "request": {"model": "m", "messages": msgs}},
              {"kind": "model_request", "prompt_ids": p2, "response_ids": r2, "response_logprobs": [-0.25],
               "request": {"model": "m", "messages": [*msgs, {"role": "user", "content": "more"}]},
               "idempotency_key": "k2"}]
    got = [admin.post("/rollouts/ext/events", json=b).json() for b in bodies]
    again = admin.post("/rollouts/ext/events", json=bodies[1]).json()  # an idempotent repeat adds nothing
    assert again["id"] == got[1]["id"] and again["created_now"] is False
    rows = _rows(gw.gw.cfg.store)
    row = rows[got[1]["id"]]
    assert (row["prompt_parent"], row["prompt_shared"], len(row["prompt_ids"])) == (got[0]["id"], 303, 8)
    assert (row["req_parent"], row["req_shared"]) == (got[0]["id"], 1) and row["stored_bytes"] < 200
    evs = gw.events("ext", include_json="true", kind="model_request")
    assert [e["prompt_ids"] for e in evs] == [p1, p2]
    assert [e["request"] for e in evs] == [b["request"] for b in bodies]


@given(st.lists(st.lists(st.sampled_from(["a", "b", "c", "dd"]), min_size=1, max_size=6), min_size=1, max_size=8),
       st.lists(st.integers(0, 7), min_size=8, max_size=8), st.booleans())
@settings(max_examples=80, deadline=None)
def test_request_codec_round_trips(convs: list[list[str]], picks: list[int], as_text: bool) -> None:
    """Any sequence of requests (extensions, edits, unrelated ones) decodes to exactly what was encoded."""
    heads: list[RequestHead] = []
    stored: dict[int, tuple[dict, int | None, int | None]] = {}
    originals: dict[int, dict] = {}
    for i, conv in enumerate(convs):
        prev = originals.get(picks[i] % max(1, len(originals)))
        payload: Any = "".join(conv) if as_text else [{"role": "user", "content": x} for x in conv]
        if prev is not None and picks[i] % 2:  # build on an earlier request, as a harness does
            payload = prev["prompt" if as_text else "messages"] + payload
        req = {"model": "m", "prompt" if as_text else "messages": payload, **({"seed": i} if i % 3 else {})}
        raw = orjson.dumps(req)
        data, parent, shared, head, extends = encode_request(raw, orjson.loads(raw), heads)
        eid = i + 1
        stored[eid] = (orjson.loads(data), parent, shared)
        originals[i] = req
        assert head is not None
        head.event_id = eid
        if extends:  # the parent's whole payload starts this one
            base = next(h for h in heads if h.event_id == parent).request
            key = "prompt" if as_text else "messages"
            assert req[key][:len(base[key])] == base[key]
        heads = add_head(heads, head, parent, extends)
        assert len(heads) <= 4 and (not extends or parent not in [h.event_id for h in heads])
    full: dict[int, dict] = {}
    for eid, (data, parent, shared) in stored.items():
        full[eid] = data if parent is None else decode_request(data, shared or 0, full[parent])
        assert full[eid] == originals[eid - 1] and list(full[eid]) == list(originals[eid - 1])  # order too


def test_big_json_is_stored_compressed_and_small_json_as_is() -> None:
    small = orjson.dumps({"a": 1})
    assert sql.squeeze(small) is small and sql.json_of(small) == {"a": 1}
    big = orjson.dumps({"messages": [{"role": "user", "content": "ls -la\n" * 300}]})
    z = sql.squeeze(big)
    assert z is not None and z[:1] == b"x" and len(z) < len(big) / 10 and sql.json_of(z) == orjson.loads(big)
    noise = orjson.dumps({"b": np.random.default_rng(0).bytes(3000).hex()})
    assert sql.json_of(sql.squeeze(noise)) == orjson.loads(noise)  # kept whichever way is smaller; read the same


def test_an_old_store_is_refused_not_converted(tmp_path: Path) -> None:
    """Schema 2 stored float64 log-probs and no request deltas: swerl 0.x refuses it by name (re-record, or use
    the swerl that wrote it) and leaves it exactly as it was."""
    path = tmp_path / "v2.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE rollouts(n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, group_id TEXT NOT NULL,
          state TEXT NOT NULL, attempt INTEGER NOT NULL, max_attempts INTEGER NOT NULL,
          token_hash BLOB NOT NULL UNIQUE, engine TEXT, metadata BLOB NOT NULL, created REAL NOT NULL,
          updated REAL NOT NULL, held_s REAL NOT NULL DEFAULT 0);
        CREATE TABLE events(id INTEGER PRIMARY KEY, rollout_id TEXT NOT NULL, group_id TEXT NOT NULL,
          attempt INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, prompt_ids BLOB, response_ids BLOB,
          response_logprobs BLOB, request BLOB, created REAL NOT NULL, idem TEXT, UNIQUE(rollout_id, seq));
        INSERT INTO rollouts VALUES (1, 'old', 'old', 'running', 1, 3, x'00', NULL, '{}', 0, 0, 0);
        PRAGMA user_version = 2;
    """)
    f64 = np.array([-0.25, -0.1], "<f8").tobytes()
    conn.execute("INSERT INTO events(rollout_id, group_id, attempt, seq, kind, prompt_ids, response_ids, "
                 "response_logprobs, request, created) VALUES ('old', 'old', 1, 1, 'model_request', ?, ?, ?, ?, 0)",
                 (np.array([1, 2], "<i4").tobytes(), np.array([3, 4], "<i4").tobytes(), f64, b'{"messages": []}'))
    conn.commit()
    conn.close()
    with pytest.raises(sql.StoreVersionError, match=rf"{path}: written by an older swerl \(store schema 2;.*"
                       r"use the swerl version that wrote it, or give --store a new file and re-record"):
        Store(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    assert conn.execute("SELECT response_logprobs FROM events").fetchone()[0] == f64  # untouched
    assert "req_parent" not in {r[1] for r in conn.execute("PRAGMA table_info(events)")}
    conn.close()


def test_a_new_store_uses_small_pages(tmp_path: Path) -> None:
    from swerl.gateway.store import PAGE_SIZE

    Store(tmp_path / "new.sqlite").close()
    conn = sqlite3.connect(tmp_path / "new.sqlite")
    assert conn.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE == 2048
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_newer_or_foreign_store_is_refused_by_name(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {sql.SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(sql.StoreVersionError, match=rf"{newer}: written by a newer swerl .*use the swerl version "
                       "that wrote it"):
        Store(newer)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(sql.StoreVersionError, match=rf"{junk}: not a SQLite gateway store"):
        Store(junk)


def test_a_store_error_on_rebuild_names_the_event(tmp_path: Path) -> None:
    """A delta record whose parent is gone (a damaged store) is an error naming the event, not a wrong answer."""
    store = Store(tmp_path / "s.sqlite")

    async def write() -> tuple[int, int]:
        a = await store.write(lambda c: sql.insert_event(c, sql.event_row(
            rollout_id="r", group_id="r", attempt=1, kind="model_request", created=0.0,
            request=orjson.dumps({"messages": [{"role": "user", "content": "hi"}]}))))
        rec = {"key": "messages", "keys": ["messages"], "new": [{"role": "user", "content": "more"}], "set": {}}
        b = await store.write(lambda c: sql.insert_event(c, sql.event_row(
            rollout_id="r", group_id="r", attempt=1, kind="model_request", created=0.0,
            request=orjson.dumps(rec), req_parent=a[0], req_shared=1)))
        return a[0], b[0]

    a, b = asyncio.run(write())
    assert [e["request"]["messages"] for e in store.read_now(lambda c: sql.list_events(c, "r", 0, 10, None, True))] \
        == [[{"role": "user", "content": "hi"}], [{"role": "user", "content": "hi"}, {"role": "user", "content": "more"}]]
    store.read_now(lambda c: None)
    store.close()
    conn = sqlite3.connect(tmp_path / "s.sqlite")
    conn.execute("DELETE FROM events WHERE id = ?", (a,))
    conn.commit()
    with pytest.raises(ValueError, match=rf"store event {b}: request stored against event {a} cannot be rebuilt"):
        sql.list_events(conn, "r", 0, 10, None, True)


def test_an_appended_logprob_beyond_float32_is_refused(gw: GatewayHandle) -> None:
    """Log-probs are stored as float32: a value it cannot hold is a clear error, never a silent infinity."""
    gw.create("big")
    r = gw.admin().post("/rollouts/big/events", json={"kind": "model_request", "prompt_ids": [1], "response_ids": [2],
                                                      "response_logprobs": [-1e39]})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["message"] == ("response_logprobs.0: Value error, -1e+39 is outside float32's range "
                                            "(±3.4e38): log-probs are stored as float32")
    assert gw.events("big", kind="model_request") == []


def test_streamed_calls_are_delta_encoded_and_read_back_exactly(gw: GatewayHandle) -> None:
    tok = gw.create("stream")
    c = gw.rollout_client("stream", tok)
    msgs = [{"role": "user", "content": "fix the failing test " * 40}]
    bodies = [{"model": "m", "stream": True, "messages": msgs},
              {"model": "m", "stream": True, "messages": [*msgs, {"role": "assistant", "content": "ok"},
                                                            {"role": "user", "content": "now run it"}]}]
    for b in bodies:
        r = c.post("/chat/completions", json=b)
        assert r.status_code == 200 and r.text.rstrip().endswith("data: [DONE]")
    evs = gw.events("stream", include_json="true", kind="model_request")
    assert [e["request"] for e in evs] == bodies and all(e["http_status"] == 200 for e in evs)
    rows = _rows(gw.gw.cfg.store)
    assert (rows[evs[1]["id"]]["req_parent"], rows[evs[1]["id"]]["req_shared"]) == (evs[0]["id"], 1)
    assert rows[evs[1]["id"]]["stored_bytes"] < 200
