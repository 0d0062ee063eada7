"""kill -9 the gateway under 200 concurrent fake agents, restart it on the same store.

Every response an agent received is an acknowledged write: it must be in the
store afterwards, byte for byte. Agents whose call died with the gateway
report an infrastructure failure and retry the rollout as a new attempt, so
every rollout ends succeeded (possibly on a later attempt), with one reward.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import httpx
from fake_engine import FakeConfig, FakeUpstream
from gateway_helpers import A, GatewayProcess

from swerl.gateway import sql

AGENTS, STEPS = 200, 4


async def _retrying(fn: Any) -> httpx.Response:
    """Admin calls are idempotent: retry through the outage (bounded)."""
    for _ in range(1200):
        try:
            r = await fn()
            if r.status_code < 500:
                return r
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.05)
    raise AssertionError("the gateway never came back")


async def _agent(i: int, c: httpx.AsyncClient, acked: list[tuple]) -> None:
    rid = f"a{i}"
    r = await _retrying(lambda: c.post("/rollouts", json={"id": rid, "group_id": f"g{i % 20}", "max_attempts": 5},
                                       headers=A))
    token = r.json()["token"]
    if token is None:  # our create committed but its answer was lost in the crash: get a fresh token
        token = (await _retrying(lambda: c.post(f"/rollouts/{rid}/token", headers=A))).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    while True:
        st = (await _retrying(lambda: c.get(f"/rollouts/{rid}", headers=A))).json()
        attempt = st["attempt"]
        await _retrying(lambda attempt=attempt: c.patch(f"/rollouts/{rid}", json={"state": "running", "attempt": attempt},
                                                              headers=A))
        ok = True
        for step in range(STEPS):
            body = {"messages": [{"role": "user", "content": f"{rid} step {step}"}], "return_token_ids": True}
            try:
                r = await c.post(f"/v1/rollouts/{rid}/chat/completions", json=body, headers=auth)
            except httpx.TransportError:
                ok = False
                break
            if r.status_code != 200:
                ok = False
                break
            acked.append((rid, int(r.headers["x-swerl-event-id"]), int(r.headers["x-swerl-seq"]), attempt,
                          r.json()["choices"][0]["token_ids"]))
        if ok:
            await _retrying(lambda attempt=attempt: c.post(f"/rollouts/{rid}/events", headers=A, json={
                "kind": "reward", "reward": 1.0, "attempt": attempt, "idempotency_key": f"{rid}-{attempt}"}))
            await _retrying(lambda attempt=attempt: c.patch(f"/rollouts/{rid}", json={"state": "succeeded", "attempt": attempt},
                                            headers=A))
            return
        await _retrying(lambda attempt=attempt: c.patch(f"/rollouts/{rid}", json={"state": "failed_infra", "attempt": attempt,
                                                                   "reason": "gateway unreachable"}, headers=A))
        await _retrying(lambda: c.patch(f"/rollouts/{rid}", json={"state": "queued"}, headers=A))


def test_kill_9_mid_run_loses_no_acknowledged_event(tmp_path: Path) -> None:
    fake = FakeUpstream(FakeConfig(prompt_len=30, response_len=6, delay_s=0.02)).start_in_thread()
    store = tmp_path / "gw.sqlite"
    gp = GatewayProcess(store, fake.url, tmp_path).start()
    acked: list[tuple] = []

    async def main() -> None:
        limits = httpx.Limits(max_connections=AGENTS + 50, max_keepalive_connections=AGENTS + 50)
        async with httpx.AsyncClient(base_url=gp.url, timeout=60, limits=limits) as c:
            agents = [asyncio.create_task(_agent(i, c, acked)) for i in range(AGENTS)]
            for _ in range(6000):  # bounded wait for a third of the calls
                if len(acked) >= AGENTS * STEPS // 3:
                    break
                await asyncio.sleep(0.01)
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, gp.kill9)
            await loop.run_in_executor(None, gp.start)
            await asyncio.gather(*agents)

    try:
        asyncio.run(main())
    finally:
        gp.stop()
        fake.stop_thread()

    conn = sqlite3.connect(store)
    rows = {r[0]: r for r in conn.execute("SELECT id, rollout_id, seq, attempt, response_ids, kind FROM events")}
    lost = [a for a in acked if a[1] not in rows]
    assert lost == []  # zero acknowledged events lost
    for rid, eid, seq, attempt, ids in acked:
        row = rows[eid]
        assert (row[1], row[2], row[3], sql.blob_ids(row[4]), row[5]) == (rid, seq, attempt, ids, "model_request")
    states = dict(conn.execute("SELECT id, state FROM rollouts").fetchall())
    assert len(states) == AGENTS and set(states.values()) == {"succeeded"}  # every rollout completed
    retried = [r for r, a in conn.execute("SELECT id, attempt FROM rollouts") if a > 1]
    assert retried  # the kill hit calls in flight: those rollouts were retried, not lost
    infra = {r[0] for r in conn.execute("SELECT rollout_id FROM events WHERE kind='status' AND state='failed_infra'")}
    assert set(retried) == infra
    rewards = conn.execute("SELECT rollout_id, COUNT(*) FROM events WHERE kind='reward' GROUP BY rollout_id").fetchall()
    assert len(rewards) == AGENTS and {n for _, n in rewards} == {1}  # idempotent reward appends
    for rid, attempt in conn.execute("SELECT id, attempt FROM rollouts"):
        n = conn.execute("SELECT COUNT(*) FROM events WHERE rollout_id=? AND attempt=? AND kind='model_request' "
                         "AND http_status=200", (rid, attempt)).fetchone()[0]
        assert n == STEPS
