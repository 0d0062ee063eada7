"""Benchmark sandbox exec overhead: bwrap and `docker exec` against a bare subprocess, p50/p95.

Measured in one run, interleaved round-robin so that machine noise hits all three alike:
- bare:   `sh -c true` as a host subprocess with a clean environment (the baseline; the
          same capture code path, `swerl.sandbox.proc.run_capped`),
- bwrap:  the same argv in a hardened bwrap sandbox on the debootstrap rootfs (default
          mode: one bwrap per sandbox, commands through its exec server),
- bwrap_percommand: the same, `persistent=False`: a new bwrap (all namespaces unshared)
          per command,
- docker: the same argv in a hardened docker sandbox (SDK exec_create/start/inspect
          against a private dockerd started here, wrapped in `timeout`).
(The agent's commands go through `bash -lc`, which costs the same inside and outside.)
Overhead = p50 (p95) of the backend minus p50 (p95) of bare. Also the hardened start
latency (work tree, prep, .git out, checks) per backend.

Goals: bwrap <= 15 ms p50 over bare (issue 4), for the default mode and per-command mode. The docker and start-up goals are this
room's own targets, stated so that regressions show.

Usage: .venv/bin/python bench/sandbox.py [--n 60] [--no-docker]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

GOALS = {
    "sandbox_bwrap_exec_overhead_p50": 15.0,
    "sandbox_bwrap_exec_overhead_p95": 30.0,
    "sandbox_bwrap_percommand_exec_overhead_p50": 15.0,
    "sandbox_docker_exec_overhead_p50": 150.0,
    "sandbox_docker_exec_overhead_p95": 300.0,
    "sandbox_bwrap_start_p50": 500.0,
    "sandbox_docker_start_p50": 3000.0,
}


ARGV = ["sh", "-c", "true"]  # the same command everywhere: only the sandbox differs


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def bench_line(name: str, value: float, unit: str = "ms") -> str:
    goal = GOALS[name]
    return f"BENCH {name} {value:.1f} {unit} goal <={goal:g} {'met' if value <= goal else 'missed'}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--no-docker", action="store_true")
    args = ap.parse_args()

    from swerl.sandbox.bwrap import BwrapSandbox
    from swerl.sandbox.images import ensure_rootfs
    from swerl.sandbox.proc import run_capped
    from swerl.sandbox.schema import BwrapSettings, DockerSettings, SandboxSettings
    from swerl.sandbox.tasks import load_taskpack

    pack, tasks = load_taskpack()
    task = tasks[next(r.instance_id for r in pack.rows if r.instance_id.endswith("calc.median_even"))]
    bw = BwrapSandbox(SandboxSettings(bwrap=BwrapSettings(rootfs=ensure_rootfs())))

    daemon = None
    dk = None
    runners: dict[str, Callable[[], object]] = {
        "bare": lambda: run_capped(ARGV, timeout=30, limit=1 << 20, env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"}),
    }
    starts: dict[str, list[float]] = {"bwrap": [], "docker": []}
    handles = []
    try:
        for _ in range(5):
            t0 = time.perf_counter()
            h = bw.start(task)
            starts["bwrap"].append((time.perf_counter() - t0) * 1000)
            bw.stop(h)
        hb = bw.start(task)
        handles.append((bw, hb))
        runners["bwrap"] = lambda: bw.exec_argv(hb, ARGV)
        bwp = BwrapSandbox(SandboxSettings(bwrap=BwrapSettings(rootfs=ensure_rootfs(), persistent=False)))
        hp = bwp.start(task)
        handles.append((bwp, hp))
        runners["bwrap_percommand"] = lambda: bwp.exec_argv(hp, ARGV)
        if not args.no_docker:
            from dockerd import DockerDaemon

            from swerl.sandbox.docker import DockerSandbox
            from swerl.sandbox.images import ensure_taskpack_images

            daemon = DockerDaemon()
            url = daemon.start()
            dk = DockerSandbox(SandboxSettings(docker=DockerSettings(base_url=url)))
            ensure_taskpack_images(dk.client, pack)
            for _ in range(5):
                t0 = time.perf_counter()
                h = dk.start(task)
                starts["docker"].append((time.perf_counter() - t0) * 1000)
                dk.stop(h)
            hd = dk.start(task)
            handles.append((dk, hd))
            runners["docker"] = lambda: dk.exec_argv(hd, ARGV)

        for fn in runners.values():  # warm-up
            for _ in range(3):
                fn()
        samples: dict[str, list[float]] = {k: [] for k in runners}
        for _ in range(args.n):
            for name, fn in runners.items():
                t0 = time.perf_counter()
                res = fn()
                samples[name].append((time.perf_counter() - t0) * 1000)
                if getattr(res, "returncode", 0) != 0:
                    print(f"{name}: exec failed: {res}", file=sys.stderr)
                    return 1
    finally:
        for sb, h in handles:
            sb.stop(h)
        if daemon is not None:
            daemon.stop()

    print(f"exec latency over {args.n} interleaved runs (ms):")
    for name, xs in samples.items():
        print(f"  {name:16s} p50 {pct(xs, 0.5):7.1f}  p95 {pct(xs, 0.95):7.1f}  mean {statistics.mean(xs):7.1f}")
    for name, xs in starts.items():
        if xs:
            print(f"  start {name:7s} p50 {pct(xs, 0.5):7.1f} ms (hardened: work tree, branch, .git out, checks)")
    lines = []
    for backend in ("bwrap", "bwrap_percommand", "docker"):
        if backend not in samples:
            continue
        for q, tag in ((0.5, "p50"), (0.95, "p95")):
            name = f"sandbox_{backend}_exec_overhead_{tag}"
            if name in GOALS:
                lines.append(bench_line(name, pct(samples[backend], q) - pct(samples["bare"], q)))
    for backend, xs in starts.items():
        if xs:
            lines.append(bench_line(f"sandbox_{backend}_start_p50", pct(xs, 0.5)))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
