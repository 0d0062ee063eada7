"""Research knobs at an equal rollout budget: dynamic sampling and LoRA against plain GRPO, over seeds.

Skill measured: the `toy` recipe's (call the tool, answer with what it returned), held-out validation
reward (greedy, 16 unseen tasks). It is not swe-tiny: one swe-tiny arm costs ~15-30 CPU-minutes per seed
on 2 cores, this ~1-3; the swe-tiny comparison is still owed (docs/benchmarks.md).

Arms, each the real loop (`swerl.train.loop.train`, in-process gateway, embedded engine, torch backend):
- `base`: the `toy` recipe unchanged (GRPO, rollout-level advantage, 64 rollouts per update);
- `ds`: `algorithm.dynamic_sampling=true` (eq. 22: all-equal groups dropped, the update refilled);
- `lora`: `model.lora.rank=8` (alpha 16, the recipe's lr), the merged weights served after each update.

Equal budget: every arm runs `--steps` updates, validating every `--val-every`; an arm is scored at the
last validation whose `rollouts/done_total` (rollouts generated for training, dropped ones included) is
within the budget `--steps * rollouts_per_step`. Dynamic sampling spends extra rollouts per update, so it
is scored earlier in its run; that is the point of comparing at equal budget.

    BENCH ds_minus_base_val <d> reward goal >=0          (mean over seeds of ds - base at the budget)
    BENCH lora_minus_full_val <d> reward goal >=-0.1     (mean over seeds of lora - base at the budget)

Usage: .venv/bin/python bench/knobs.py [--seeds 0,1,2] [--steps 20] [--val-every 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from swerl.config import load_recipe
from swerl.train.loop import train
from swerl.train.loop.metrics import read_metrics

ARMS: dict[str, list[str]] = {
    "base": [],
    "ds": ["algorithm.dynamic_sampling=true"],
    "lora": ["model.lora.rank=8"],
}


def run(arm: str, seed: int, args: argparse.Namespace, root: Path) -> dict[str, Any]:
    """One arm, one seed: the score at the budget, and what the run spent to get there."""
    sets = [f"train.steps={args.steps}", f"train.val_every={args.val_every}", f"train.seed={seed}",
            f"train.checkpoint_every={args.steps}", "train.tensorboard=false", f"train.threads={args.threads}",
            *ARMS[arm]]
    recipe = load_recipe("toy", sets)
    budget = args.steps * recipe.train.rollouts_per_step
    out = root / f"{arm}-{seed}"
    t0 = time.perf_counter()
    train(recipe, out)
    lines = read_metrics(out / "metrics.jsonl")
    in_budget = [m for m in lines if m.get("rollouts/done_total", 0) <= budget]
    vals = [m for m in in_budget if "val/reward_mean" in m]
    score = vals[-1]["val/reward_mean"] if vals else 0.0
    zero = [m["adv/zero_frac"] for m in in_budget if "adv/zero_frac" in m]
    return {"arm": arm, "seed": seed, "val": score, "updates": len(in_budget),
            "rollouts": int(in_budget[-1]["rollouts/done_total"]) if in_budget else 0,
            "zero_frac": statistics.fmean(zero) if zero else float("nan"), "seconds": time.perf_counter() - t0,
            "curve": [(int(m["rollouts/done_total"]), m["val/reward_mean"]) for m in lines if "val/reward_mean" in m]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--arms", default=",".join(ARMS))
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--val-every", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="Keep the run directories here (default: a temporary directory).")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    arms = [a for a in args.arms.split(",") if a.strip()]
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        root = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="swerl-bench-knobs-")))
        runs = [run(a, s, args, root) for s in seeds for a in arms]
    by: dict[tuple[str, int], dict[str, Any]] = {(r["arm"], r["seed"]): r for r in runs}
    print(f"{'arm':5s} {'seed':>4s} {'val@budget':>10s} {'updates':>7s} {'rollouts':>8s} {'adv0':>5s} {'s':>5s}")
    for r in runs:
        print(f"{r['arm']:5s} {r['seed']:4d} {r['val']:10.3f} {r['updates']:7d} {r['rollouts']:8d} "
              f"{r['zero_frac']:5.2f} {r['seconds']:5.0f}")
        print("      val curve (rollouts, reward): " + " ".join(f"({n},{v:.2f})" for n, v in r["curve"]))
    print(f"total {time.perf_counter() - t0:.0f}s for {len(runs)} runs")
    for arm, name, goal in (("ds", "ds_minus_base_val", 0.0), ("lora", "lora_minus_full_val", -0.1)):
        if arm not in arms or "base" not in arms:
            continue
        d = statistics.fmean(by[(arm, s)]["val"] - by[("base", s)]["val"] for s in seeds)
        print(f"BENCH {name} {d:.3f} reward goal >={goal:g} {'met' if d >= goal else 'missed'}")


if __name__ == "__main__":
    main()
