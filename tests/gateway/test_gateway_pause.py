"""Collocated control: pause stops admitting and drains, new calls are held (no error), resume releases."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from fake_engine import FakeConfig, FakeUpstream
from gateway_helpers import A

MSGS = [{"role": "user", "content": "go"}]


async def _until(pred: Any, c: httpx.AsyncClient) -> dict:
    """Poll /admin/status until pred(status) holds (bounded: the test fails rather than hangs)."""
    for _ in range(600):
        st = (await c.get("/admin/status")).json()
        if pred(st):
            return st
        await asyncio.sleep(0.02)
    raise AssertionError(f"status never matched: {st}")


def test_pause_drains_holds_and_resume_serves_with_new_version(gateway_factory: Any) -> None:
    fake = FakeUpstream(FakeConfig(prompt_len=6, response_len=3, delay_s=0.4)).start_in_thread()
    g = gateway_factory(upstreams=[fake.url])
    toks = {f"p{i}": g.create(f"p{i}") for i in range(10)}

    async def call(rid: str, stream: bool = False) -> httpx.Response:
        async with httpx.AsyncClient(base_url=f"{g.url}/v1/rollouts/{rid}", timeout=60,
                                     headers={"Authorization": f"Bearer {toks[rid]}"}) as c:
            r = await c.post("/chat/completions", json={"messages": MSGS, "stream": stream})
            await r.aread()
            return r

    async def main() -> None:
        async with httpx.AsyncClient(base_url=g.url, headers=A, timeout=60) as admin:
            first = [asyncio.create_task(call(f"p{i}", stream=i == 0)) for i in range(6)]
            await _until(lambda s: s["in_flight"] == 6, admin)
            pause = await admin.post("/admin/pause")
            # pause answered only after every in-flight call finished and was recorded
            assert pause.json() == {"paused": True, "drained": True, "in_flight": 0, "held": 0, "policy_version": 0}
            for i in range(6):
                assert len(g.events(f"p{i}", kind="model_request")) == 1
            held = [asyncio.create_task(call(f"p{i}")) for i in range(6, 10)]
            await _until(lambda s: s["held"] == 4, admin)
            assert not any(t.done() for t in held)
            assert fake.stats.requests == 6  # nothing reached the engine while paused
            again = await admin.post("/admin/pause")  # pausing again is a no-op that reports drained
            assert again.json()["drained"] is True and again.json()["held"] == 4
            assert (await admin.post("/admin/resume", json={"policy_version": 7})).json()["paused"] is False
            done = await asyncio.gather(*first, *held)
            assert [r.status_code for r in done] == [200] * 10
            assert [r.headers["x-swerl-policy-version"] for r in done[6:]] == ["7"] * 4
            back = await admin.post("/admin/resume", json={"policy_version": 6})
            assert back.status_code == 409  # policy versions never go back

    try:
        asyncio.run(main())
        versions = {rid: [e["policy_version"] for e in g.events(rid, kind="model_request")] for rid in toks}
        assert versions == {**{f"p{i}": [0] for i in range(6)}, **{f"p{i}": [7] for i in range(6, 10)}}
        assert all(e["http_status"] == 200 for rid in toks for e in g.events(rid, kind="model_request"))
    finally:
        fake.stop_thread()


def test_pause_state_and_policy_version_survive_a_restart(gateway_factory: Any, fake: FakeUpstream,
                                                          tmp_path: Any) -> None:
    store = str(tmp_path / "persist.sqlite")
    g = gateway_factory(upstreams=[fake.url], store=store)
    a = g.admin()
    a.post("/admin/resume", json={"policy_version": 3})
    a.post("/admin/pause")
    g.stop()
    g2 = gateway_factory(upstreams=[fake.url], store=store)
    st = g2.admin().get("/admin/status").json()
    assert (st["paused"], st["policy_version"]) == (True, 3)


def test_every_answer_reports_the_rollouts_held_time(gateway_factory: Any, fake: FakeUpstream) -> None:
    """`x-swerl-held-s` on plain, streamed and failed answers: the rollout's held seconds so far, the hold of the
    answered call included, as GET /rollouts/{id} reports them (a harness keeps its budget without asking)."""
    g = gateway_factory(upstreams=[fake.url])
    tok = g.create("h")

    async def call(c: httpx.AsyncClient, **body: Any) -> httpx.Response:
        r = await c.post("/chat/completions", json={"messages": MSGS, **body})
        await r.aread()
        return r

    async def main() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=g.url, headers=A, timeout=60) as admin, \
                httpx.AsyncClient(base_url=f"{g.url}/v1/rollouts/h", timeout=60,
                                  headers={"Authorization": f"Bearer {tok}"}) as c:
            before = await call(c)
            await admin.post("/admin/pause")
            held = asyncio.create_task(call(c, stream=True))
            await _until(lambda s: s["held"] == 1, admin)
            await asyncio.sleep(0.5)
            await admin.post("/admin/resume", json={"policy_version": 1})
            after = await call(c)
            for e in (await admin.get("/admin/engines")).json():  # no engine left: the call fails (503)
                await admin.delete(f"/admin/engines/{e['name']}")
            return [before, await held, after, await call(c)]

    before, held, after, failed = asyncio.run(main())
    assert [r.status_code for r in (before, held, after)] == [200, 200, 200] and failed.status_code == 503
    assert float(before.headers["x-swerl-held-s"]) == 0.0
    total = g.admin().get("/rollouts/h").json()["held_s"]
    assert total >= 0.5
    for r in (held, after, failed):
        assert float(r.headers["x-swerl-held-s"]) == round(total, 3)
