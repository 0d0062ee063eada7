"""Collocated-async vs synchronous training on CPU, with long-tailed rollout times (ALGORITHMS.md sec. 6).

The real loop (`swerl.train.loop.train`: in-process gateway, embedded engine, torch
backend, GRPO) on the toy harness, whose rollouts each spend a log-normal time in their
"environment" (median `--delay`, sigma `--sigma`: a few rollouts take many times the
median, as agent rollouts do). Same recipe, same seed, same CPUs, one run each:

- sync:       declare one batch (`--rollouts` rollouts), wait for every one of them, update;
- collocated: keep `--concurrency` rollouts in flight; when `--rollouts` of them have
              completed in whole groups, pause the gateway (drain, hold), update, sync the
              weights, resume; unfinished rollouts carry over (staleness limit 4).

Reported: wall time for `--steps` updates in each mode (sum of the per-update wall times,
start-up excluded) and the speed-up (goal >= 2x; AL1 reports ~2x), the mean staleness of
trained rollouts and the rollouts dropped as over-stale, and the trainer idle fraction:
the share of wall time in which neither the engine generated nor the trainer updated or
synced weights (the GPU-idle equivalent of a collocated pool).

Usage: .venv/bin/python bench/collocated.py [--steps 8] [--rollouts 16] [--delay 0.3] [--sigma 1.2]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from swerl.config import load_recipe
from swerl.train.loop import train
from swerl.train.loop.metrics import read_metrics

GOAL_SPEEDUP = 2.0


def run(mode: str, args: argparse.Namespace, root: Path) -> dict[str, Any]:
    concurrency = args.rollouts if mode == "sync" else args.concurrency
    recipe = load_recipe("toy", [
        f"train.mode={mode}", f"train.steps={args.steps}", f"train.rollouts_per_step={args.rollouts}",
        "train.mini_batches=1", "train.val_every=0", f"train.checkpoint_every={args.steps}",
        "train.tensorboard=false", f"train.seed={args.seed}", f"rollout.concurrency={concurrency}",
        "rollout.n_per_task=4", f"toy.delay_s={args.delay}", f"toy.delay_sigma={args.sigma}",
        "algorithm.staleness_limit=4", f"train.threads={args.threads}"])
    t0 = time.perf_counter()
    train(recipe, root / mode)
    total = time.perf_counter() - t0
    lines = read_metrics(root / mode / "metrics.jsonl")
    wall = sum(ln["time/step_s"] for ln in lines)
    work = sum(ln["time/engine_busy_s"] + ln["time/update_s"] + ln["time/sync_s"] for ln in lines)
    trained = sum(ln["train/rollouts"] for ln in lines)
    return {
        "wall_s": wall, "total_s": total, "idle": max(0.0, 1 - work / wall), "rollouts": trained,
        "staleness": sum(ln["staleness/mean"] * ln["train/rollouts"] for ln in lines) / max(trained, 1),
        "stale_dropped": lines[-1]["staleness/dropped_total"], "updates": len(lines),
        "step_s": statistics.median(ln["time/step_s"] for ln in lines),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--rollouts", type=int, default=16, help="rollouts per update (groups of 4)")
    ap.add_argument("--concurrency", type=int, default=32, help="collocated: rollouts kept in flight")
    ap.add_argument("--delay", type=float, default=0.3, help="median environment seconds per rollout")
    ap.add_argument("--sigma", type=float, default=1.2, help="log-normal sigma of the environment time")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-collocated-") as tmp:
        res = {mode: run(mode, args, Path(tmp)) for mode in ("sync", "collocated")}
    s, c = res["sync"], res["collocated"]
    speedup = s["wall_s"] / c["wall_s"]
    print(f"{args.steps} updates x {args.rollouts} rollouts, environment time log-normal(median {args.delay} s, "
          f"sigma {args.sigma}); collocated keeps {args.concurrency} in flight")
    for mode, r in res.items():
        print(f"  {mode:<10} wall {r['wall_s']:6.1f} s  (median {r['step_s']:.2f} s/update, with start-up "
              f"{r['total_s']:.1f} s)  trained {int(r['rollouts'])} rollouts  staleness {r['staleness']:.2f}  "
              f"dropped {int(r['stale_dropped'])}  trainer idle {r['idle']:.0%}")
    met = "met" if speedup >= GOAL_SPEEDUP else "missed"
    print(f"BENCH collocated_speedup_vs_sync {speedup:.2f} x goal >={GOAL_SPEEDUP:g} {met}")
    print(f"BENCH collocated_wall_{args.steps}updates {c['wall_s']:.1f} s goal <={s['wall_s']:.1f} "
          f"{'met' if c['wall_s'] <= s['wall_s'] else 'missed'}")
    print(f"BENCH sync_wall_{args.steps}updates {s['wall_s']:.1f} s goal >=0 met")
    print(f"BENCH collocated_mean_staleness {c['staleness']:.2f} versions goal <=4 "
          f"{'met' if c['staleness'] <= 4 else 'missed'}")
    print(f"BENCH collocated_stale_dropped {int(c['stale_dropped'])} rollouts goal >=0 met")
    print(f"BENCH collocated_trainer_idle {c['idle'] * 100:.0f} % goal <={s['idle'] * 100:.0f} "
          f"{'met' if c['idle'] <= s['idle'] else 'missed'}")
    print(f"BENCH sync_trainer_idle {s['idle'] * 100:.0f} % goal >=0 met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
