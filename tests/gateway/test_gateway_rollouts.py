"""Rollout and event API over real HTTP: idempotent create, paging, state changes, events, auth."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
from gateway_helpers import A, GatewayHandle


def test_idempotent_create_under_concurrent_duplicates(gw: GatewayHandle) -> None:
    async def main() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=gw.url, headers=A, timeout=30) as c:
            return await asyncio.gather(*(c.post("/rollouts", json={"id": f"dup-{i % 5}", "group_id": "g"})
                                          for i in range(100)))

    rs = asyncio.run(main())
    assert all(r.status_code in (200, 201) for r in rs)
    for i in range(5):
        mine = [r for r in rs if r.json()["id"] == f"dup-{i}"]
        created = [r for r in mine if r.status_code == 201]
        assert len(mine) == 20 and len(created) == 1  # exactly one creator, who alone sees the token
        assert created[0].json()["token"].startswith("swr_")
        assert all(r.json()["token"] is None for r in mine if r.status_code == 200)
    page = gw.admin().get("/rollouts", params={"limit": 1000}).json()
    assert sorted(r["id"] for r in page["items"]) == [f"dup-{i}" for i in range(5)]


def test_create_conflicts_when_the_same_id_means_something_else(gw: GatewayHandle) -> None:
    c = gw.admin()
    assert c.post("/rollouts", json={"id": "r", "group_id": "g1"}).status_code == 201
    r = c.post("/rollouts", json={"id": "r", "group_id": "g2"})
    assert r.status_code == 409 and "group_id" in r.json()["error"]["message"]
    assert c.post("/rollouts", json={"id": "r"}).status_code == 200  # unspecified fields do not conflict


def test_list_by_state_with_cursor_paging(gw: GatewayHandle) -> None:
    c = gw.admin()
    for i in range(25):
        c.post("/rollouts", json={"id": f"p{i:02d}"})
    for i in range(0, 25, 2):
        assert c.patch(f"/rollouts/p{i:02d}", json={"state": "running"}).status_code == 200
    seen, cursor = [], None
    while True:
        params: dict[str, Any] = {"state": "running", "limit": 4}
        if cursor:
            params["cursor"] = cursor
        page = c.get("/rollouts", params=params).json()
        seen += [r["id"] for r in page["items"]]
        assert all(r["state"] == "running" for r in page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [f"p{i:02d}" for i in range(0, 25, 2)]
    both = c.get("/rollouts", params={"state": ["running", "queued"], "limit": 100}).json()["items"]
    assert len(both) == 25
    assert c.get("/rollouts", params={"cursor": "xyz"}).status_code == 400
    assert c.get("/rollouts", params={"cursor": "³"}).status_code == 400  # isdigit() would take it


def test_state_changes_follow_the_table_and_record_status_events(gw: GatewayHandle) -> None:
    c = gw.admin()
    c.post("/rollouts", json={"id": "s", "max_attempts": 2})
    assert c.patch("/rollouts/s", json={"state": "succeeded"}).status_code == 409
    assert c.patch("/rollouts/s", json={"state": "running"}).json()["state"] == "running"
    assert c.patch("/rollouts/s", json={"state": "running"}).status_code == 200  # retried PATCH: no-op
    assert c.patch("/rollouts/s", json={"state": "failed_infra", "reason": "sandbox died"}).status_code == 200
    r = c.patch("/rollouts/s", json={"state": "queued"}).json()
    assert (r["state"], r["attempt"]) == ("queued", 2)
    c.patch("/rollouts/s", json={"state": "running"})
    stale = c.patch("/rollouts/s", json={"state": "succeeded", "attempt": 1})
    assert stale.status_code == 409 and "stale" in stale.json()["error"]["message"]
    c.patch("/rollouts/s", json={"state": "failed_infra"})
    assert c.patch("/rollouts/s", json={"state": "queued"}).status_code == 409  # budget spent
    ev = gw.events("s", kind="status")
    assert [(e["state"], e["attempt"]) for e in ev] == [
        ("running", 1), ("failed_infra", 1), ("queued", 2), ("running", 2), ("failed_infra", 2)]
    assert ev[1]["data"] == {"from": "running", "reason": "sandbox died"}
    assert [e["seq"] for e in ev] == [1, 2, 3, 4, 5]


def test_events_append_idempotent_and_listing(gw: GatewayHandle) -> None:
    c = gw.admin()
    c.post("/rollouts", json={"id": "e", "group_id": "grp"})
    c.patch("/rollouts/e", json={"state": "running"})
    first = c.post("/rollouts/e/events", json={"kind": "reward", "reward": 1.0, "idempotency_key": "rw1"})
    again = c.post("/rollouts/e/events", json={"kind": "reward", "reward": 1.0, "idempotency_key": "rw1"})
    assert first.status_code == 201 and again.status_code == 200
    assert first.json()["id"] == again.json()["id"]
    mr = c.post("/rollouts/e/events", json={"kind": "model_request", "prompt_ids": [1, 2, 3], "response_ids": [4],
                                            "response_logprobs": [-0.5], "policy_version": 3})
    assert mr.status_code == 201
    st = c.post("/rollouts/e/events", json={"kind": "status", "state": "succeeded"})
    assert st.status_code == 201
    assert c.get("/rollouts/e").json()["state"] == "succeeded"
    assert c.post("/rollouts/e/events", json={"kind": "reward"}).status_code == 400
    items = gw.events("e")
    assert [e["kind"] for e in items] == ["status", "reward", "model_request", "status"]
    assert items[1]["reward"] == 1.0 and items[1]["group_id"] == "grp"
    assert items[2]["prompt_ids"] == [1, 2, 3] and items[2]["response_logprobs"] == [-0.5]
    assert items[2]["policy_version"] == 3
    page = c.get("/rollouts/e/events", params={"after_seq": 2, "limit": 1}).json()
    assert [e["seq"] for e in page["items"]] == [3] and page["next_cursor"] == 3
    glob = c.get("/events", params={"after": items[0]["id"], "kind": "reward"}).json()["items"]
    assert [e["id"] for e in glob] == [items[1]["id"]]
    assert c.get("/rollouts/nope/events").status_code == 404


def test_completion_feed_long_poll_wakes_on_completion(gw: GatewayHandle) -> None:
    c = gw.admin()
    for rid in ("c1", "c2", "c3"):
        c.post("/rollouts", json={"id": rid})
        c.patch(f"/rollouts/{rid}", json={"state": "running"})
    c.patch("/rollouts/c1", json={"state": "succeeded"})
    feed = c.get("/completed").json()
    assert [i["rollout_id"] for i in feed["items"]] == ["c1"]
    cursor = feed["next_cursor"]
    result: dict[str, Any] = {}

    def poll() -> None:  # waits server-side until something completes (the client timeout is the bound)
        with httpx.Client(base_url=gw.url, headers=A, timeout=20) as pc:
            result["r"] = pc.get("/completed", params={"after": cursor, "wait": 60})

    t = threading.Thread(target=poll)
    t.start()
    c.patch("/rollouts/c2", json={"state": "failed_infra"})  # not trainable: not in the default feed
    c.patch("/rollouts/c3", json={"state": "failed_agent"})
    t.join(30)
    items = result["r"].json()["items"]
    assert [(i["rollout_id"], i["state"]) for i in items] == [("c3", "failed_agent")]
    infra = c.get("/completed", params={"state": "failed_infra"}).json()["items"]
    assert [i["rollout_id"] for i in infra] == ["c2"]


def test_admin_api_needs_the_admin_token(gw: GatewayHandle) -> None:
    tok = gw.create("a1")
    with httpx.Client(base_url=gw.url, timeout=10) as c:
        assert c.get("/rollouts").status_code == 401
        r = c.get("/rollouts", headers={"Authorization": f"Bearer {tok}"})  # a rollout token is not admin
        assert r.status_code == 403 and r.json()["error"]["type"] == "permission_error"
        assert c.post("/admin/pause", headers={"Authorization": "Bearer nope"}).status_code == 403
        assert c.get("/health").status_code == 200


def test_rotated_token_replaces_the_old_one(gw: GatewayHandle, fake: Any) -> None:
    old = gw.create("rot")
    new = gw.admin().post("/rollouts/rot/token").json()["token"]
    assert new != old
    body = {"messages": [{"role": "user", "content": "hi"}]}
    assert gw.rollout_client("rot", old).post("/chat/completions", json=body).status_code == 401
    assert gw.rollout_client("rot", new).post("/chat/completions", json=body).status_code == 200
