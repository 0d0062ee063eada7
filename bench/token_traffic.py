"""Token traffic at realistic scale: store size per unique token, store -> samples throughput, vs JSON lists.

Synthetic agent rollouts at the shape of a training step (default 64 rollouts x 50 calls;
a 2-3k-token task prompt, then per call a 50-250-token response and a 300-1000-token
observation, so contexts grow to ~40k tokens; 30% of rollouts with one retokenisation
break: a response re-encoded differently in the next prompt, as `Tok(Decode(a)) != a`
does). Token ids are random (the codec never looks at their values); responses carry
log-probs. "Unique tokens" come from the generator, independently of the codec: each
rollout's final sequence plus the re-sent tail after its break.

swerl's path (`--via gateway`, the default and the goal):
  16 concurrent agents call the real gateway (`swerl gateway serve`, its own process,
  every event fsynced before the answer) through its OpenAI proxy, each re-sending its
  whole conversation as chat messages every call, as a real harness does (~4 characters of
  text per token: `--text code`, slices of this repository's source, or `--text words`,
  random pseudo-words); a tiny engine answers each call with the trace's token ids and the
  reply's text, as vLLM does with `return_token_ids`. The gateway records each prompt and
  each request's messages as delta records (parent call, shared length, new part). Then,
  timed from the store to samples: the trainer's `build_batch` (one binary request for the
  update's events, `swerl.tokens.TokenBatch`, staleness filter, `assemble`), with the CPU
  time of the trainer and the gateway process beside the wall time.
  `--via memory`: the codec alone (delta records into a batch, bytes, decode, assemble).
The baseline, same traces, same process: each call's full prompt as JSON lists (what
storing full `prompt_ids` and fetching JSON gives the trainer) -> `orjson.loads` -> the
plain list-slice merge of `bench/assembly.py`, rollout by rollout (the gateway's own cost
of building that JSON is not charged to it). Both must produce identical samples.

Throughput counts logical tokens: every prompt and response token of every call, as
full-prompt records hold them. Store size: the token columns of the gateway's store
(prompt suffixes and response ids int32, log-probs float32) plus 16 bytes per call for the
delta fields; and the whole SQLite file as a user sees it once the gateway stopped (WAL
checkpointed): every column, the request/response JSON with its text, indexes, free pages.

Usage: .venv/bin/python bench/token_traffic.py [--rollouts 64] [--calls 50] [--via gateway|memory]
       [--text code|words]
"""

from __future__ import annotations

import argparse
import gc
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import httpx
import numpy as np
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "gateway"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from assembly import baseline_assemble
from fake_engine import HttpProtocol, serve_in_thread
from token_helpers import delta, to_bytes

from swerl.tokens import TokenBatch
from swerl.train.assembly import assemble

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "bench-token-traffic-admin-0123456789"
GOAL_BYTES = 6.0
GOAL_FILE_BYTES = 8.0
GOAL_MTOK = 500.0
GOAL_RATIO = 10.0
VOCAB = 151_000


@dataclass
class Call:
    prompt: np.ndarray
    response: np.ndarray
    logprobs: np.ndarray
    messages: list[dict[str, str]]  # the conversation the harness sends (whole, every call)
    reply: str  # the reply's text


@dataclass
class Rollout:
    rollout_id: str
    calls: list[Call]
    unique: int
    broken: bool


_WORDS: list[str] = []
_CODE: list[str] = []
TEXT = "code"


def text_of(ids: np.ndarray) -> str:
    """Text standing for token ids, ~4-4.5 characters per token as BPE text has.

    `code` (default): a slice of this repository's own Python source, at an offset the ids choose:
    what a SWE agent reads (files, diffs, command output). `words`: one pseudo-word of random
    letters per id, text with almost no redundancy (the worst case for compression).
    """
    if TEXT == "words":
        if not _WORDS:
            r = np.random.default_rng(12345)
            letters = np.array(list("etaoinshrdlcumwfgypbvkjxqz_.()=:"))
            _WORDS.extend("".join(r.choice(letters, int(n))) for n in r.integers(1, 7, VOCAB))
        return " ".join([_WORDS[i] for i in ids.tolist()])
    if not _CODE:
        _CODE.append("".join(p.read_text() for p in sorted((ROOT / "swerl").rglob("*.py"))))
    code, n = _CODE[0], 4 * len(ids)
    start = int(ids[:4].astype(np.int64).sum()) * 7919 % max(1, len(code) - n)
    return (code * (1 + n // len(code)))[start:start + n] if n > len(code) else code[start:start + n]


def make_rollout(rng: np.random.Generator, rid: str, n_calls: int, brk: bool) -> Rollout:
    """A chain of calls whose prompts extend `prompt + response + observation`; optionally one break."""
    ids = lambda n: rng.integers(0, VOCAB, int(n), dtype=np.int32)  # noqa: E731
    prompt = ids(rng.integers(2000, 3000))
    messages = [{"role": "user", "content": text_of(prompt)}]
    unique = len(prompt)
    break_at = int(rng.integers(n_calls // 5, n_calls - 5)) if brk else -1
    calls = []
    for i in range(n_calls):
        resp = ids(rng.integers(50, 250))
        reply = text_of(resp)
        calls.append(Call(prompt, resp, -rng.exponential(0.3, len(resp)).astype(np.float32), messages, reply))
        unique += len(resp)
        seq = np.concatenate([prompt, resp])
        if i == break_at:  # retokenisation: two adjacent response tokens come back as one different token
            at = len(prompt) + int(rng.integers(0, len(resp) - 2))
            seq = np.concatenate([seq[:at], ids(1), seq[at + 2:]])
            unique += len(seq) - at
        obs = ids(rng.integers(300, 1000))
        unique += len(obs)
        prompt = np.concatenate([seq, obs])
        messages = [*messages, {"role": "assistant", "content": reply}, {"role": "user", "content": text_of(obs)}]
    return Rollout(rid, calls, unique - len(obs), brk)  # the last observation is never sent


def record(rollouts: list[Rollout]) -> tuple[list[tuple], float, list[float]]:
    """What the recorder does per call: delta against the rollout's last call, then append the store row
    (`ROW_FIELDS` order)."""
    b: list[tuple] = []
    eid = 0
    per_call: list[float] = []
    t_all = 0.0
    for ro in rollouts:
        parent: tuple[int, np.ndarray] | None = None
        for seq, c in enumerate(ro.calls, start=1):
            eid += 1
            t0 = time.perf_counter()
            shared, suffix = delta(c.prompt, parent[1] if parent else None)
            full = np.concatenate([c.prompt, c.response])  # kept as the next call's parent
            dt = time.perf_counter() - t0
            per_call.append(dt)
            t_all += dt
            b.append((eid, ro.rollout_id, f"g{int(ro.rollout_id[1:]) // 8}", 1, seq, "model_request", 3,
                      parent[0] if parent and shared else None, shared, suffix.tobytes(), c.response.tobytes(),
                      c.logprobs.tobytes(), None, None, None, None, None))
            parent = (eid, full)
        eid += 1
        b.append((eid, ro.rollout_id, None, 1, len(ro.calls) + 1, "reward", None, None, 0, None, None, None, None,
                  float(eid % 2), None, None, None))
    return b, t_all, per_call


# ---- the real gateway: an engine that answers each call with the trace's token ids -------------------

class TraceEngine(HttpProtocol):
    """Minimal OpenAI-compatible engine replaying the traces, vLLM-style (HTTP from the tests' fake engine).

    The harness names the call in the request's `user` field ("r<i> <j>"); the answer carries that
    call's `prompt_token_ids`, `choices[0].token_ids`, per-token logprobs and the reply's text, as
    vLLM returns them.
    """

    traces: ClassVar[dict[str, Rollout]] = {}

    def handle(self, method: str, path: str, body: bytes) -> None:
        if method == "GET":
            out = b'{"object":"list","data":[{"id":"trace","object":"model","max_model_len":131072}]}'
        else:
            rid, _, j = orjson.loads(body)["user"].partition(" ")
            c = self.traces[rid].calls[int(j)]
            out = orjson.dumps({
                "id": "x", "object": "chat.completion", "created": 0, "model": "trace", "prompt_token_ids": c.prompt,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": c.reply},
                             "finish_reason": "stop", "token_ids": c.response,
                             "logprobs": {"content": [{"logprob": x} for x in c.logprobs.tolist()]}}]},
                option=orjson.OPT_SERIALIZE_NUMPY)
        self.send(200, out)


def start_engine(rollouts: list[Rollout]) -> int:
    TraceEngine.traces = {ro.rollout_id: ro for ro in rollouts}
    return serve_in_thread(TraceEngine, name="trace-engine")[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (from /proc; 0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gateway(tmp: Path, engine_port: int) -> tuple[subprocess.Popen, str, Path]:
    """`swerl gateway serve` as its own process, every event fsynced before its answer."""
    token_file, store = tmp / "admin.token", tmp / "gw.sqlite"
    token_file.write_text(ADMIN)
    port = free_port()
    proc = subprocess.Popen([str(Path(sys.executable).parent / "swerl"), "gateway", "serve", "--store", str(store),
                             "--admin-token-file", str(token_file), "--port", str(port), "--sync", "full",
                             "--upstream", f"http://127.0.0.1:{engine_port}/v1", "--max-body-mb", "256"],
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return proc, url, store
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            raise RuntimeError("the gateway did not start")
        time.sleep(0.2)


def record_via_gateway(url: str, rollouts: list[Rollout], clients: int) -> float:
    """Each rollout is an agent: create it, make its calls through the proxy one after another, reward it."""
    from swerl.gateway.client import GatewayClient

    admin = GatewayClient(url, ADMIN)

    def agent(ro: Rollout) -> None:
        gid = f"g{int(ro.rollout_id[1:]) // 8}"
        token = admin.create_rollout(ro.rollout_id, group_id=gid).token
        admin.set_state(ro.rollout_id, "running")
        with httpx.Client(base_url=f"{url}/v1/rollouts/{ro.rollout_id}", timeout=120,
                          headers={"Authorization": f"Bearer {token}"}) as http:
            for j, c in enumerate(ro.calls):
                r = http.post("/chat/completions", content=orjson.dumps(
                    {"model": "m", "user": f"{ro.rollout_id} {j}", "messages": c.messages}),
                    headers={"Content-Type": "application/json"})
                r.raise_for_status()
        admin.add_reward(ro.rollout_id, float(int(ro.rollout_id[1:]) % 2))
        admin.set_state(ro.rollout_id, "succeeded")

    t0 = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(agent, rollouts))
    admin.close()
    return time.perf_counter() - t0


def store_bytes(path: Path) -> tuple[int, int, int]:
    """(token payload bytes, model_request events, request JSON bytes) of the gateway's SQLite store."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        n, payload, req = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(prompt_ids)), 0) + COALESCE(SUM(LENGTH(response_ids)), 0) + "
            "COALESCE(SUM(LENGTH(response_logprobs)), 0), COALESCE(SUM(LENGTH(request)), 0) "
            "FROM events WHERE kind = 'model_request'").fetchone()
    finally:
        conn.close()
    return int(payload), int(n), int(req)


def store_file_bytes(path: Path) -> tuple[int, int]:
    """(file bytes once the WAL is checkpointed, bytes after VACUUM) of a store no gateway has open."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
        packed = path.with_name("vacuumed.sqlite")
        conn.execute("VACUUM INTO ?", (str(packed),))
    finally:
        conn.close()
    return size, packed.stat().st_size


def json_events(ro: Rollout, gid: str) -> bytes:
    """The rollout's events as full-prompt JSON lists (the trainer's input before this change)."""
    return orjson.dumps([{"rollout_id": ro.rollout_id, "group_id": gid, "seq": i, "kind": "model_request",
                          "prompt_ids": c.prompt, "response_ids": c.response, "response_logprobs": c.logprobs}
                         for i, c in enumerate(ro.calls, start=1)], option=orjson.OPT_SERIALIZE_NUMPY)


def verdict(ok: bool) -> str:
    return "met" if ok else "missed"


def via_memory(rollouts: list[Rollout], repeat: int) -> tuple[float, list[Any], int, int | None, str]:
    """Record with `delta` into an in-memory batch, then bytes -> decode -> assemble (no gateway)."""
    rows, _, per_call = record(rollouts)
    batch = TokenBatch.from_bytes(TokenBatch.rows_to_bytes(rows))
    store = batch.prompt_pool.nbytes + batch.resp_pool.nbytes + batch.logp_pool.nbytes + 16 * len(batch)
    print(f"record (in memory): delta per call p50 {np.median(per_call) * 1e6:.0f} us, p99 "
          f"{np.quantile(per_call, 0.99) * 1e6:.0f} us")
    best, samples = float("inf"), []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        samples, _stats = assemble(TokenBatch.from_bytes(to_bytes(batch)))
        best = min(best, time.perf_counter() - t0)
    return best, samples, store, None, f"{store / 1e6:.1f} MB of token records (ids int32, log-probs float32, 16 B/event)"


def via_gateway(rollouts: list[Rollout], repeat: int, clients: int) -> tuple[float, list[Any], int, int | None, str]:
    """Record through the real gateway (proxy, SQLite, fsync per commit), then the trainer's `build_batch`."""
    from swerl.config import load_recipe
    from swerl.gateway.client import GatewayClient
    from swerl.train.loop.book import Group
    from swerl.train.loop.update import build_batch

    engine_port = start_engine(rollouts)
    with tempfile.TemporaryDirectory(prefix="bench-token-traffic-") as tmp:
        proc, url, path = start_gateway(Path(tmp), engine_port)
        try:
            rec_s = record_via_gateway(url, rollouts, clients)
            n_calls = sum(len(ro.calls) for ro in rollouts)
            print(f"record (gateway): {n_calls} calls by {clients} concurrent agents in {rec_s:.1f} s "
                  f"({n_calls / rec_s:.0f} calls/s)")
            payload, n_events, req_bytes = store_bytes(path)
            store = payload + 16 * n_events
            groups: dict[str, Any] = {}
            for ro in rollouts:
                gid = f"g{int(ro.rollout_id[1:]) // 8}"
                g = groups.setdefault(gid, Group(gid, "train", []))
                g.rollout_ids.append(ro.rollout_id)
                g.done[ro.rollout_id] = "succeeded"
            recipe = load_recipe("toy")
            best, samples = float("inf"), []
            cpu_me = cpu_gw = 0.0
            with GatewayClient(url, ADMIN, timeout=600) as client:
                for _ in range(repeat):
                    gc.collect()
                    c0, g0 = time.process_time(), cpu_seconds(proc.pid)
                    t0 = time.perf_counter()
                    b = build_batch(client, list(groups.values()), version=0, recipe=recipe, tokenizer=None,
                                    scan=False)
                    best = min(best, time.perf_counter() - t0)
                    cpu_me += time.process_time() - c0
                    cpu_gw += cpu_seconds(proc.pid) - g0
                    samples = b.samples
                cpu = (cpu_me + cpu_gw) / repeat
                print(f"  CPU per fetch+assembly (mean of {repeat}): trainer {cpu_me / repeat * 1e3:.0f} ms + gateway "
                      f"{cpu_gw / repeat * 1e3:.0f} ms = {cpu * 1e3:.0f} ms ({sum(len(c.prompt) + len(c.response) for ro in rollouts for c in ro.calls) / cpu / 1e6:.0f} M logical tok per CPU-second); "
                      f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
                split = []
                for _ in range(3):  # where the time goes: the binary fetch alone, then assembly alone
                    t0 = time.perf_counter()
                    tb = client.token_batch([ro.rollout_id for ro in rollouts], kinds=["model_request", "reward"])
                    t1 = time.perf_counter()
                    assemble(tb)
                    split.append((t1 - t0, time.perf_counter() - t1, len(to_bytes(tb))))
                f_s, a_s, wire = min(split)
                print(f"  of which: fetch {f_s * 1e3:.0f} ms ({wire / 1e6:.1f} MB binary batch: store query, "
                      f"transfer, decode), assembly {a_s * 1e3:.0f} ms")
                # humans still read full prompts and whole requests from the JSON API
                first = client.events(rollouts[0].rollout_id, kinds=["model_request"], include_json=True)
                for j, (e, c) in enumerate(zip(first, rollouts[0].calls, strict=True)):
                    assert e["prompt_ids"] == c.prompt.tolist(), "JSON API prompt differs from what was sent"
                    assert e["request"] == {"model": "m", "user": f"{rollouts[0].rollout_id} {j}",
                                            "messages": c.messages}, "JSON API request differs from what was sent"
        finally:
            proc.terminate()
            proc.wait(30)
        files, packed = store_file_bytes(path)
    sent = sum(len(orjson.dumps(c.messages)) for ro in rollouts for c in ro.calls)
    note = (f"{store / 1e6:.1f} MB of token columns (+16 B/event for the delta fields); request JSON "
            f"{req_bytes / 1e6:.1f} MB stored of {sent / 1e6:.0f} MB sent; whole SQLite file {files / 1e6:.1f} MB "
            f"({packed / 1e6:.1f} MB after VACUUM)")
    return best, samples, store, files, note


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=64)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--break-frac", type=float, default=0.3)
    ap.add_argument("--repeat", type=int, default=7, help="swerl's path: best of this many (the machine is noisy)")
    ap.add_argument("--clients", type=int, default=16, help="concurrent agents recording through the gateway")
    ap.add_argument("--via", choices=("gateway", "memory"), default="gateway",
                    help="gateway: record through the real gateway and fetch with the trainer's code (the goal); "
                         "memory: the codec alone")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--text", choices=("code", "words"), default="code",
                    help="the conversation's text: slices of this repository's source (what a SWE agent reads), "
                         "or random pseudo-words (nearly incompressible)")
    args = ap.parse_args()
    global TEXT
    TEXT = args.text
    t_start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    n_break = round(args.rollouts * args.break_frac)
    broken = set(rng.choice(args.rollouts, n_break, replace=False).tolist())
    rollouts = [make_rollout(rng, f"r{i}", args.calls, i in broken) for i in range(args.rollouts)]
    logical = sum(len(c.prompt) + len(c.response) for ro in rollouts for c in ro.calls)
    unique = sum(ro.unique for ro in rollouts)
    longest = max(len(ro.calls[-1].prompt) + len(ro.calls[-1].response) for ro in rollouts)
    resp = sum(len(c.response) for ro in rollouts for c in ro.calls)
    print(f"{args.rollouts} rollouts x {args.calls} calls, {n_break} with a retokenisation break; contexts up to "
          f"{longest} tokens; {logical / 1e6:.1f} M logical tokens, {unique / 1e6:.2f} M unique ({logical / unique:.0f}x)"
          f", responses {resp / unique:.0%} of unique; full-prompt records would hold {logical * 4 / 1e6:.0f} MB of ids")

    if args.via == "gateway":
        best, samples, store, files, note = via_gateway(rollouts, args.repeat, args.clients)
    else:
        best, samples, store, files, note = via_memory(rollouts, args.repeat)
    bytes_per_unique = store / unique
    mtok = logical / best / 1e6
    print(f"store: {note}; {bytes_per_unique:.2f} bytes per unique token in the token columns"
          + (f", {files / unique:.2f} in the whole file" if files else ""))
    print(f"swerl: store -> {len(samples)} samples in {best * 1e3:.0f} ms = {mtok:.0f} M logical tok/s")

    # ---- baseline: full-prompt JSON lists -> orjson -> list-slice merge, rollout by rollout ---------------
    t_base = 0.0
    json_bytes = 0
    by_rollout: dict[str, list[Any]] = {}
    for smp in samples:
        by_rollout.setdefault(smp.rollout_id, []).append(smp)
    for ro in rollouts:
        raw_json = json_events(ro, "g")
        json_bytes += len(raw_json)
        gc.collect()
        t0 = time.perf_counter()
        base = baseline_assemble(orjson.loads(raw_json))
        t_base += time.perf_counter() - t0
        mine = by_rollout[ro.rollout_id]
        assert len(base) == len(mine), (ro.rollout_id, len(base), len(mine))
        for (_, ids, mask, _lp), smp in zip(base, mine, strict=True):
            assert ids == smp.input_ids.tolist() and mask == smp.loss_mask.tolist(), ro.rollout_id
        del base, raw_json
    ratio = t_base / best
    print(f"baseline: {json_bytes / 1e6:.0f} MB of JSON -> list-slice merge in {t_base:.2f} s = "
          f"{logical / t_base / 1e6:.1f} M logical tok/s; identical samples")
    print(f"total bench time {time.perf_counter() - t_start:.0f} s")
    print(f"BENCH store_bytes_per_unique_token {bytes_per_unique:.2f} bytes goal <={GOAL_BYTES:g} "
          f"{verdict(bytes_per_unique <= GOAL_BYTES)}")
    if files:
        fb = files / unique
        print(f"BENCH store_file_bytes_per_unique_token {fb:.2f} bytes goal <={GOAL_FILE_BYTES:g} "
              f"{verdict(fb <= GOAL_FILE_BYTES)}")
    print(f"BENCH fetch_assemble_mtok_s {mtok:.0f} Mtok/s goal >={GOAL_MTOK:g} {verdict(mtok >= GOAL_MTOK)}")
    print(f"BENCH fetch_assemble_vs_json_lists {ratio:.1f} x goal >={GOAL_RATIO:g} {verdict(ratio >= GOAL_RATIO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
