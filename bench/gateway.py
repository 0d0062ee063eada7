"""Gateway benchmark: added latency, throughput at 1/16/128/500 clients, memory over 100k recorded calls.

Setup (all on loopback): a fast fake engine (~2,000 prompt ids, 200 response
ids + logprobs per answer) and the load generator share CPU 1; the gateway
under test runs as its own process pinned to CPU 0, with every event durable
(SQLite WAL, synchronous=FULL, group commit) before its response is sent. The
straightforward baseline (FastAPI + httpx over in-memory dicts) runs in the
same way in the same run, so the ratio is robust to a noisy machine.

    .venv/bin/python bench/gateway.py            # the recorded run (100k calls for the memory phase)
    .venv/bin/python bench/gateway.py --quick    # a short run (10k calls)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from swerl.gateway.httpclient import HttpPool  # noqa: E402

ADMIN = "bench-admin-token-0123456789"
GW_CPU, LOAD_CPU = "0", "1"
# ~2,000 tokens of conversation text, like an agent's prompt a few steps in.
MESSAGES = [{"role": "system", "content": "You are a helpful software engineer. " * 60},
            {"role": "user", "content": "Please fix the failing test in the repository. " * 80},
            {"role": "assistant", "content": "THOUGHT: look around first.\n```bash\nls -la\n```"},
            {"role": "user", "content": "total 48\ndrwxr-xr-x  6 root root 4096 src tests setup.py\n" * 20}]
BODY = orjson.dumps({"model": "fake", "messages": MESSAGES, "temperature": 1.0, "max_tokens": 256})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn(args: list[str], cpu: str, **kw: object) -> subprocess.Popen:
    cmd = (["taskset", "-c", cpu] if shutil.which("taskset") else []) + args
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(cmd, env=env, **kw)  # type: ignore[call-overload]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def wait_up(port: int, timeout: float = 60.0) -> None:
    pool = HttpPool(f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + timeout
    while True:
        try:
            r = await pool.request("GET", "/health")
            if r.status == 200:
                await pool.aclose()
                return
        except Exception:
            if time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.2)


async def make_rollouts(port: int, n: int, prefix: str) -> list[tuple[str, dict[str, str]]]:
    """Create n running rollouts; returns (proxy path, headers) per rollout."""
    pool = HttpPool(f"http://127.0.0.1:{port}", max_connections=16)
    hdr = {"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"}
    sem = asyncio.Semaphore(16)

    async def one(i: int) -> tuple[str, dict[str, str]]:
        async with sem:
            rid = f"{prefix}-{i}"
            r = await pool.request("POST", "/rollouts", orjson.dumps({"id": rid}), hdr)
            tok = orjson.loads(r.body)["token"]
            await pool.request("PATCH", f"/rollouts/{rid}", b'{"state":"running"}', hdr)
            return f"/v1/rollouts/{rid}/chat/completions", {"Authorization": f"Bearer {tok}",
                                                            "Content-Type": "application/json"}

    out = await asyncio.gather(*(one(i) for i in range(n)))
    await pool.aclose()
    return list(out)


OK_CALLS: dict[int, int] = {}  # port -> calls answered 200 (each one an acknowledged, recorded event)


async def load(port: int, targets: list[tuple[str, dict[str, str]]], conc: int, *, calls: int | None = None,
               duration: float | None = None) -> dict[str, float]:
    """`conc` closed-loop clients; each uses targets[i % len] (its own rollout). Returns stats."""
    pool = HttpPool(f"http://127.0.0.1:{port}", max_connections=conc + 8)
    lat: list[float] = []
    errors = 0
    issued = 0
    stop_at = time.perf_counter() + duration if duration else None

    async def worker(i: int) -> None:
        nonlocal errors, issued
        path, hdr = targets[i % len(targets)]
        while (calls is None or issued < calls) and (stop_at is None or time.perf_counter() < stop_at):
            issued += 1
            t = time.perf_counter()
            try:
                r = await pool.request("POST", path, BODY, hdr)
                ok = r.status == 200
            except Exception:
                ok = False
            if ok:
                lat.append(time.perf_counter() - t)
            else:
                errors += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(conc)))
    el = time.perf_counter() - t0
    await pool.aclose()
    lat.sort()
    n = len(lat)
    OK_CALLS[port] = OK_CALLS.get(port, 0) + n
    return {"calls": n, "errors": errors, "rate": n / el if el else 0.0,
            "p50": lat[n // 2] * 1e3 if n else float("nan"), "p99": lat[min(n - 1, int(n * 0.99))] * 1e3 if n else float("nan")}


def bench_line(name: str, value: float, unit: str, op: str, target: float) -> str:
    ok = {"<=": value <= target, ">=": value >= target, "==": value == target}[op]
    return f"BENCH {name} {value:.3g} {unit} goal {op}{target:g} {'met' if ok else 'missed'}"


@contextlib.contextmanager
def processes() -> object:
    procs: list[subprocess.Popen] = []
    try:
        yield procs
    finally:
        for p in procs:
            p.kill()
            p.wait()


def start_fake(procs: list) -> int:
    p = spawn([sys.executable, str(ROOT / "tests" / "gateway" / "fake_engine.py"), "--port", "0"], LOAD_CPU,
              stdout=subprocess.PIPE, text=True)
    procs.append(p)
    line = p.stdout.readline()  # type: ignore[union-attr]
    return int(line.split()[1])


def start_gateway(procs: list, tmp: Path, fake_port: int, sync: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    tokf = tmp / "admin.token"
    tokf.write_text(ADMIN)
    store = tmp / f"bench-{sync}-{port}.sqlite"
    p = spawn([sys.executable, "-m", "swerl.gateway", "serve", "--store", str(store), "--port", str(port),
               "--admin-token-file", str(tokf), "--upstream", f"http://127.0.0.1:{fake_port}/v1",
               "--sync", sync], GW_CPU)
    procs.append(p)
    return p, port


def start_baseline(procs: list, fake_port: int, stack: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    p = spawn([sys.executable, __file__, "--baseline-server", str(port), str(fake_port), stack], GW_CPU)
    procs.append(p)
    return p, port


def baseline_server(port: int, fake_port: int, stack: str) -> None:
    """The straightforward proxy: FastAPI + httpx, events kept in in-memory dicts (nothing durable).

    stack "plain": uvicorn's pure-Python defaults (h11, asyncio), i.e. `pip install fastapi uvicorn`;
    "fast": the same code on uvloop + httptools, like the gateway.
    """
    import httpx
    import uvicorn
    from fastapi import FastAPI, Header, HTTPException

    app = FastAPI()
    tokens: dict[str, str] = {}
    events: dict[str, list] = {}
    client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{fake_port}/v1", timeout=600,
                               limits=httpx.Limits(max_connections=1000, max_keepalive_connections=1000))

    @app.get("/health")
    async def health() -> dict:
        return {"ok": True}

    @app.post("/rollouts")
    async def create(body: dict) -> dict:
        tokens[body["id"]] = tok = f"tok-{body['id']}"
        events[body["id"]] = []
        return {"token": tok}

    @app.patch("/rollouts/{rid}")
    async def patch(rid: str, body: dict) -> dict:
        return {"id": rid}

    @app.post("/v1/rollouts/{rid}/chat/completions")
    async def chat(rid: str, body: dict, authorization: str = Header("")) -> dict:
        if authorization != f"Bearer {tokens.get(rid)}":
            raise HTTPException(401)
        body.update(return_token_ids=True, logprobs=True)
        r = await client.post("/chat/completions", json=body)
        d = r.json()
        ch = d["choices"][0]
        events[rid].append({"prompt_ids": d.pop("prompt_token_ids"), "response_ids": ch.pop("token_ids"),
                            "logprobs": [e["logprob"] for e in ch.pop("logprobs")["content"]], "request": body})
        return d

    fast = stack == "fast"
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False, backlog=4096,
                loop="uvloop" if fast else "asyncio", http="httptools" if fast else "h11")


async def run(args: argparse.Namespace) -> list[str]:
    lines: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix="gwbench-", dir=args.tmp))
    dur = args.duration
    with processes() as procs:
        fake_port = start_fake(procs)
        await wait_up(fake_port)
        gw, gw_port = start_gateway(procs, tmp, fake_port, args.sync)
        await wait_up(gw_port)
        targets = await make_rollouts(gw_port, 500, "b")
        direct = [("/v1/chat/completions", {"Content-Type": "application/json"})]
        await load(fake_port, direct, 1, calls=500)
        await load(gw_port, targets, 16, calls=2000)  # warm up
        d1 = await load(fake_port, direct, 1, duration=dur)
        g1 = await load(gw_port, targets, 1, duration=dur)
        print(f"direct 1 client: p50 {d1['p50']:.3f} ms p99 {d1['p99']:.3f} ms; gateway: p50 {g1['p50']:.3f} ms "
              f"p99 {g1['p99']:.3f} ms", flush=True)
        rates = {1: g1}
        for conc in (16, 128, 500):
            rates[conc] = await load(gw_port, targets, conc, duration=dur)
        for conc, r in rates.items():
            print(f"gateway {conc:>3} clients: {r['rate']:.0f} calls/s p50 {r['p50']:.2f} ms p99 {r['p99']:.2f} ms "
                  f"errors {r['errors']}", flush=True)
        rss0 = rss_mib(gw.pid)
        t0 = time.perf_counter()
        big = await load(gw_port, targets[:128], 128, calls=args.calls)
        rss1 = rss_mib(gw.pid)
        print(f"{big['calls']} recorded calls at 128 clients in {time.perf_counter() - t0:.0f} s "
              f"({big['rate']:.0f}/s); RSS {rss0:.1f} -> {rss1:.1f} MiB", flush=True)
        store_file = next(tmp.glob(f"bench-{args.sync}-*.sqlite"))
        with sqlite3.connect(store_file) as conn:
            recorded = conn.execute("SELECT COUNT(*) FROM events WHERE kind = 'model_request' AND http_status = 200 "
                                    "AND response_ids IS NOT NULL").fetchone()[0]
        unrecorded = OK_CALLS[gw_port] - recorded
        print(f"acknowledged calls {OK_CALLS[gw_port]}, recorded events {recorded}", flush=True)
        store_bytes = sum(f.stat().st_size for f in tmp.glob("bench-*"))
        print(f"store on disk: {store_bytes / 2**20:.0f} MiB", flush=True)
        gw.kill()
        gw.wait()
        for f in tmp.glob("bench-*"):
            f.unlink()
        normal_p50 = None
        if not args.skip_normal:
            gwn, port_n = start_gateway(procs, tmp, fake_port, "normal")
            await wait_up(port_n)
            tn = await make_rollouts(port_n, 4, "n")
            await load(port_n, tn, 4, calls=1000)
            n1 = await load(port_n, tn, 1, duration=dur)
            normal_p50 = n1["p50"] - d1["p50"]
            print(f"gateway --sync normal, 1 client: p50 {n1['p50']:.3f} ms", flush=True)
            gwn.kill()
        base: dict[str, dict[str, float]] = {}
        for stack in ("plain", "fast"):
            bl, bl_port = start_baseline(procs, fake_port, stack)
            await wait_up(bl_port)
            bt = await make_rollouts(bl_port, 128, "x")
            await load(bl_port, bt, 16, calls=500)
            b1 = await load(bl_port, bt, 1, duration=dur)
            base[stack] = b128 = await load(bl_port, bt, 128, duration=dur)
            print(f"baseline FastAPI+httpx ({stack} uvicorn): 1 client p50 {b1['p50']:.3f} ms; 128 clients "
                  f"{b128['rate']:.0f} calls/s p50 {b128['p50']:.1f} ms p99 {b128['p99']:.1f} ms", flush=True)
            bl.kill()
    shutil.rmtree(tmp, ignore_errors=True)
    errors = sum(r["errors"] for r in rates.values()) + big["errors"]
    lines.append(bench_line("gateway_added_p50_1client", g1["p50"] - d1["p50"], "ms", "<=", 1.0))
    lines.append(bench_line("gateway_added_p99_1client", g1["p99"] - d1["p99"], "ms", "<=", 5.0))
    if normal_p50 is not None:
        lines.append(bench_line("gateway_added_p50_1client_sync_normal", normal_p50, "ms", "<=", 1.0))
    lines.append(bench_line("gateway_calls_per_s_1client", rates[1]["rate"], "calls/s", ">=", 500))
    for conc in (16, 128, 500):
        lines.append(bench_line(f"gateway_calls_per_s_{conc}clients", rates[conc]["rate"], "calls/s", ">=", 800))
    lines.append(bench_line("gateway_p99_500clients", rates[500]["p99"], "ms", "<=", 2000))
    lines.append(bench_line("baseline_plain_calls_per_s_128clients", base["plain"]["rate"], "calls/s", ">=", 0))
    lines.append(bench_line("baseline_fast_calls_per_s_128clients", base["fast"]["rate"], "calls/s", ">=", 0))
    lines.append(bench_line("gateway_vs_baseline_plain_128clients",
                            rates[128]["rate"] / max(base["plain"]["rate"], 1e-9), "x", ">=", 5))
    lines.append(bench_line("gateway_vs_baseline_fast_128clients",
                            rates[128]["rate"] / max(base["fast"]["rate"], 1e-9), "x", ">=", 1))
    lines.append(bench_line(f"gateway_rss_growth_{big['calls']}calls", (rss1 - rss0) / rss0 * 100, "%", "<=", 10))
    lines.append(bench_line("gateway_failed_calls", errors, "calls", "==", 0))
    lines.append(bench_line("gateway_acknowledged_but_unrecorded", unrecorded, "calls", "==", 0))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=100_000, help="recorded calls in the memory phase")
    ap.add_argument("--duration", type=float, default=6.0, help="seconds per latency/throughput phase")
    ap.add_argument("--sync", default="full", choices=["full", "normal"])
    ap.add_argument("--quick", action="store_true", help="--calls 10000 --duration 3")
    ap.add_argument("--skip-normal", action="store_true", help="skip the --sync normal latency phase")
    ap.add_argument("--tmp", default=None, help="directory for the store files")
    ap.add_argument("--baseline-server", nargs=3, metavar=("PORT", "FAKE_PORT", "STACK"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.baseline_server:
        port, fake_port, stack = args.baseline_server
        baseline_server(int(port), int(fake_port), stack)
        return
    if args.quick:
        args.calls, args.duration = 10_000, 3.0
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setaffinity(0, {int(LOAD_CPU)})
    for line in asyncio.run(run(args)):
        print(line)


if __name__ == "__main__":
    main()
