"""Dynamic sampling and LoRA on swe-tiny, over seeds, at no more rollouts than plain GRPO.

Skill measured: swe-tiny's (emit a well-formed repair-tool call and submit; docs/benchmarks.md says why that is
a format skill), held-out resolved (greedy) after RL from the same SFT start. `bench/knobs.py` asks the same
questions on `toy`, where an arm costs minutes instead of a quarter hour.

Per seed, one SFT start (`bench/swe_learning.py`: 14-of-16 expert demonstrations, 40 epochs) and three RL arms
from it through the real loop (mini-swe-agent, bwrap, gateway, fresh-sandbox grading):
- `base`: the `swe-tiny` recipe, 8 updates x 16 rollouts = 128 rollouts;
- `ds`: `algorithm.dynamic_sampling=true` with `dynamic_sampling_max_extra=16` and 4 updates: at most
  4 x (16 + 16) = 128 rollouts, fewer when groups are informative (its `rollouts/done_total` is reported). An
  equal-or-smaller budget: a choice that favours `base`;
- `lora`: `model.lora.rank=8` (alpha 16) at 10x the recipe's lr (LoRA's usual optimum sits ~10x above full
  fine-tuning's; at the same lr rank 8 barely moved the policy), 8 x 16 rollouts, the merged weights served
  after each update.
Pooled over seeds x held-out tasks with the two-way bootstrap of `bench/swe_learning_seeds.py`; prints

    BENCH swe_tiny_ds_minus_base <v> pct-points goal >=0
    BENCH swe_tiny_lora_minus_full <v> pct-points goal >=-10

and draws `knobs.png`. `--tasks`/`--expert` reuse a taskgen dir and expert trajectories (made once otherwise).

Usage: .venv/bin/python bench/swe_knobs.py [--seeds 0,1,2] [--work DIR] [--tasks DIR] [--expert DIR]
Three seeds took 2 h 10 min on 2 cores shared with CI (about 25 minutes an arm, the first adds task generation).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from swe_learning_seeds import ROOT, plot, resolved, two_way_bootstrap

LORA_LR = 3e-3  # 10x the recipe's full-FT lr: LoRA's usual optimum (at 3e-4 seed 0 barely moved: 9.4 % vs 96.9 %)
ARMS: dict[str, list[str]] = {
    "base": [],
    "ds": ["--rl-steps", "4", "--rl-set", "algorithm.dynamic_sampling=true",
           "--rl-set", "algorithm.dynamic_sampling_max_extra=16"],
    "lora": ["--rl-set", "model.lora.rank=8", "--rl-set", f"train.lr={LORA_LR}"],
}
BUDGET = 8 * 16  # base's rollouts: steps x rollouts_per_step


def run_arm(seed: str, arm: str, work: Path, shared: list[str]) -> Path:
    """One `swe_learning.py` run of `arm` for `seed` (skipped when its summary exists: the bench resumes)."""
    run = work / f"seed-{seed}" / arm
    if (run / "summary.json").is_file():
        return run
    start = [] if arm == "base" else ["--sft", str(work / f"seed-{seed}" / "base" / "sft")]
    cmd = [sys.executable, str(ROOT / "bench" / "swe_learning.py"), "--work", str(run), "--seed", seed,
           "--data-seed", "0", "--rl-steps", "8", "--rl-rollouts", "16", *shared, *start, *ARMS[arm]]
    run.parent.mkdir(parents=True, exist_ok=True)
    print(f"[seed {seed} {arm}] {' '.join(cmd)}", flush=True)
    with open(f"{run}.log", "w") as log:
        if subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
            raise SystemExit(f"seed {seed} arm {arm} failed; see {run}.log")
    return run


def spent(run: Path) -> int:
    """Rollouts the run generated for training (dropped ones included), from its last metrics line."""
    lines = [json.loads(x) for x in (run / "rl" / "metrics.jsonl").read_text().splitlines() if x.strip()]
    return int(lines[-1]["rollouts/done_total"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "bench-swe-knobs")
    ap.add_argument("--tasks", type=Path)
    ap.add_argument("--expert", type=Path)
    a = ap.parse_args()
    work = a.work.resolve()
    seeds = a.seeds.split(",")
    tasks, expert = a.tasks, a.expert
    runs: dict[str, list[Path]] = {arm: [] for arm in ARMS}
    for seed in seeds:
        for arm in ARMS:
            shared = [*(["--tasks", str(tasks)] if tasks else []), *(["--expert", str(expert)] if expert else []),
                      "--rft-attempts", "0", "--baseline-epochs", ""]
            runs[arm].append(run_arm(seed, arm, work, shared))
            made = runs[arm][-1]
            if tasks is None and (made / "tasks").is_dir():  # the first run made what the rest share
                tasks = made / "tasks"
            if expert is None and (made / "expert").is_dir():
                expert = made / "expert"

    per = {arm: [resolved(r, "eval-after") for r in rs] for arm, rs in runs.items()}
    common = sorted(set.intersection(*(set(d) for ds in per.values() for d in ds)))
    m = {arm: np.array([[d[t] for t in common] for d in ds], dtype=float) for arm, ds in per.items()}
    pct = {arm: 100 * v.mean(axis=1) for arm, v in m.items()}
    budget = {arm: [spent(r) for r in rs] for arm, rs in runs.items()}
    print(f"{len(seeds)} seeds x {len(common)} held-out tasks; rollouts per run: "
          + ", ".join(f"{arm} {budget[arm]}" for arm in ARMS))
    for i, seed in enumerate(seeds):
        print(f"seed {seed}: " + "  ".join(f"{arm} {pct[arm][i]:5.1f}%" for arm in ARMS))
    print("mean:   " + "  ".join(f"{arm} {pct[arm].mean():5.1f}%" for arm in ARMS))
    ds = two_way_bootstrap(m["ds"] - m["base"])
    lora = two_way_bootstrap(m["lora"] - m["base"])
    print(f"ds minus base:   {ds[0]:+.1f} [{ds[1]:+.1f}, {ds[2]:+.1f}] (95%, seeds x tasks)")
    print(f"lora minus full: {lora[0]:+.1f} [{lora[1]:+.1f}, {lora[2]:+.1f}] (95%, seeds x tasks)")
    plot(seeds, pct, work / "knobs.png", {"base": "GRPO (full FT)", "ds": "+ dynamic sampling", "lora": "LoRA r=8"},
         title="swe-tiny: research knobs at <= the same rollouts (held-out, greedy)")
    (work / "knobs.json").write_text(json.dumps({"tasks": common, "resolved_pct": {k: v.tolist() for k, v in pct.items()},
                                                 "rollouts": budget, "ds_minus_base": ds, "lora_minus_full": lora}, indent=2))
    print(f"plot {work / 'knobs.png'}")
    print(f"BENCH swe_tiny_ds_minus_base {ds[0]:.1f} pct-points goal >=0 {'met' if ds[0] >= 0 else 'missed'}")
    print(f"BENCH swe_tiny_lora_minus_full {lora[0]:.1f} pct-points goal >=-10 {'met' if lora[0] >= -10 else 'missed'}")


if __name__ == "__main__":
    main()
