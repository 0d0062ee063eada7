"""Collocated-async vs synchronous training on CPU at equal in-flight budget (docs/algorithms.md sec. 6).

The real loop (`swerl.train.loop.train`: in-process gateway, embedded engine, torch
backend, GRPO) on the toy harness, whose rollouts each spend a log-normal time in their
"environment" (median `--delay`, sigma `--sigma`: a few rollouts take many times the
median, as agent rollouts do). A fair comparison:

- equal in-flight budget: both modes keep at most `--concurrency` rollouts running
  (default: one batch, `--rollouts`); sync declares a batch and waits for all of it,
  collocated refills as rollouts finish and pauses/drains/updates/syncs/resumes whenever
  `--rollouts` have completed in whole groups (staleness limit 4);
- `--steps` updates (default 24) per run, `--seeds` seeds (default 3) per mode, so one
  slow draw cannot decide the result;
- the speed-up is in trained rollouts per second (rollouts that reached an update, over
  the sum of per-update wall times, start-up excluded), pooled over seeds; beside it,
  what collocated pays for it: rollouts dropped as over-stale, and rollouts still
  unfinished when the run stopped (started, never trained).

Also reported: mean staleness of trained rollouts and the trainer idle fraction (share of
wall time with no generation, update or weight sync: the GPU-idle equivalent).

Usage: .venv/bin/python bench/collocated.py [--steps 24] [--seeds 3] [--rollouts 16] [--delay 0.3]
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


def run(mode: str, seed: int, args: argparse.Namespace, root: Path) -> dict[str, Any]:
    recipe = load_recipe("toy", [
        f"train.mode={mode}", f"train.steps={args.steps}", f"train.rollouts_per_step={args.rollouts}",
        "train.mini_batches=1", "train.val_every=0", f"train.checkpoint_every={args.steps}",
        "train.tensorboard=false", f"train.seed={seed}", f"rollout.concurrency={args.concurrency}",
        "rollout.n_per_task=4", f"toy.delay_s={args.delay}", f"toy.delay_sigma={args.sigma}",
        "algorithm.staleness_limit=4", f"train.threads={args.threads}"])
    out = root / f"{mode}-{seed}"
    t0 = time.perf_counter()
    train(recipe, out)
    total = time.perf_counter() - t0
    lines = read_metrics(out / "metrics.jsonl")
    wall = sum(ln["time/step_s"] for ln in lines)
    work = sum(ln["time/engine_busy_s"] + ln["time/update_s"] + ln["time/sync_s"] for ln in lines)
    trained = sum(ln["train/rollouts"] for ln in lines)
    return {
        "wall_s": wall, "total_s": total, "work_s": work, "rollouts": trained, "updates": len(lines),
        "staleness_sum": sum(ln["staleness/mean"] * ln["train/rollouts"] for ln in lines),
        "stale_dropped": lines[-1]["staleness/dropped_total"], "unfinished": lines[-1].get("rollouts/in_flight", 0.0),
        "step_s": statistics.median(ln["time/step_s"] for ln in lines),
    }


def pooled(rs: list[dict[str, Any]]) -> dict[str, float]:
    wall = sum(r["wall_s"] for r in rs)
    trained = sum(r["rollouts"] for r in rs)
    return {"wall_s": wall, "rollouts": trained, "rate": trained / wall, "idle": max(0.0, 1 - sum(r["work_s"] for r in rs) / wall),
            "staleness": sum(r["staleness_sum"] for r in rs) / max(trained, 1),
            "stale_dropped": sum(r["stale_dropped"] for r in rs), "unfinished": sum(r["unfinished"] for r in rs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=24)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--rollouts", type=int, default=16, help="rollouts per update (groups of 4)")
    ap.add_argument("--concurrency", type=int, default=0, help="in-flight budget of BOTH modes (0: --rollouts)")
    ap.add_argument("--delay", type=float, default=0.3, help="median environment seconds per rollout")
    ap.add_argument("--sigma", type=float, default=1.2, help="log-normal sigma of the environment time")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    args.concurrency = args.concurrency or args.rollouts
    t_start = time.perf_counter()
    res: dict[str, list[dict[str, Any]]] = {"sync": [], "collocated": []}
    with tempfile.TemporaryDirectory(prefix="bench-collocated-") as tmp:
        for seed in range(args.seeds):
            for mode in ("sync", "collocated"):  # interleaved: machine load hits both modes alike
                r = run(mode, seed, args, Path(tmp))
                res[mode].append(r)
                print(f"  seed {seed} {mode:<10} wall {r['wall_s']:6.1f} s ({r['updates']} updates, median "
                      f"{r['step_s']:.2f} s/update; with start-up {r['total_s']:.1f} s)  trained {int(r['rollouts'])}  "
                      f"{r['rollouts'] / r['wall_s']:.2f} rollouts/s  dropped stale {int(r['stale_dropped'])}  "
                      f"unfinished {int(r['unfinished'])}", flush=True)
    s, c = pooled(res["sync"]), pooled(res["collocated"])
    speedup = c["rate"] / s["rate"]
    per_seed = [rc["rollouts"] / rc["wall_s"] / (rs["rollouts"] / rs["wall_s"])
                for rs, rc in zip(res["sync"], res["collocated"], strict=True)]
    print(f"{args.seeds} seeds x {args.steps} updates x {args.rollouts} rollouts; both modes at most "
          f"{args.concurrency} in flight; environment time log-normal(median {args.delay} s, sigma {args.sigma})")
    for mode, p in (("sync", s), ("collocated", c)):
        print(f"  {mode:<10} {p['rate']:.2f} trained rollouts/s ({int(p['rollouts'])} in {p['wall_s']:.1f} s)  "
              f"staleness {p['staleness']:.2f}  dropped stale {int(p['stale_dropped'])}  unfinished "
              f"{int(p['unfinished'])}  trainer idle {p['idle']:.0%}")
    trained_plus = c["rollouts"] + c["stale_dropped"] + c["unfinished"]
    print(f"  speed-up per seed: {', '.join(f'{x:.2f}x' for x in per_seed)}; collocated dropped "
          f"{c['stale_dropped'] / max(trained_plus, 1):.1%} of its rollouts as stale and left "
          f"{int(c['unfinished'])} unfinished; total bench time {time.perf_counter() - t_start:.0f} s")
    met = "met" if speedup >= GOAL_SPEEDUP else "missed"
    print(f"BENCH collocated_speedup_equal_concurrency {speedup:.2f} x goal >={GOAL_SPEEDUP:g} {met}")
    print(f"BENCH collocated_stale_dropped {int(c['stale_dropped'])} rollouts goal >=0 met")
    print(f"BENCH collocated_unfinished {int(c['unfinished'])} rollouts goal >=0 met")
    print(f"BENCH collocated_mean_staleness {c['staleness']:.2f} versions goal <=4 "
          f"{'met' if c['staleness'] <= 4 else 'missed'}")
    print(f"BENCH collocated_trainer_idle {c['idle'] * 100:.0f} % goal <={s['idle'] * 100:.0f} "
          f"{'met' if c['idle'] <= s['idle'] else 'missed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
