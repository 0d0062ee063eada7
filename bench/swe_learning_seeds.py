"""Does RL through the real loop beat the simple alternatives? Several seeds, pooled.

One `bench/swe_learning.py` run per training seed (`--seed`), all on the same generated tasks, the same
expert trajectories (`--expert-limit` 16 train tasks, 14 resolved: few demonstrations, as when a strong
model's resolved trajectories are scarce) and the same held-out tasks (`--data-seed 0`), so the only thing that varies is
training randomness. Each run evaluates these policies on the held-out tasks:

- `sft`      - SFT for `--sft-epochs` (40, converged on the demonstrations): the RL start;
- `rl`       - that SFT model after RL through the real loop (8 updates x 16 rollouts on train tasks);
- `sft-<E>ep` - the same SFT for E epochs instead, for each of `--baseline-epochs` (80): more imitation;
- `rft`      - rejection-sampling fine-tuning from the RL start at RL's rollout budget (128 samples on train
  tasks, the resolved ones added to the demonstrations): the simple alternative that also uses the reward;
- with `--after-rft`, two more from the RFT model, at RL's budget again: `rft-rl` (RL after RFT, the usual
  pipeline order) and `rft2` (a second RFT round on other train tasks). They are compared with each other
  and `rft-rl` with its start, never with `rl` (they have spent twice its rollouts).

"The best alternative" below is the non-RL policy with the highest mean over seeds, chosen after seeing the
held-out scores: a choice that favours the baseline, not RL. Pooled over seeds x tasks with a two-way
bootstrap (resample seeds and tasks, both with replacement), it prints

    BENCH swe_tiny_seeds_gain_over_start_ci_low <v> pct-points goal >0
    BENCH swe_tiny_seeds_rl_minus_best_alternative <v> pct-points goal >0
    BENCH swe_tiny_seeds_rl_minus_best_alternative_ci_low <v> pct-points goal >0
    BENCH swe_tiny_seeds_after_rft_gain_ci_low <v> pct-points goal >0           (--after-rft: RFT+RL - RFT)
    BENCH swe_tiny_seeds_after_rft_rl_minus_rft2 <v> pct-points goal >0         (RFT+RL - RFT+RFT)
    BENCH swe_tiny_seeds_after_rft_rl_minus_rft2_ci_low <v> pct-points goal >0

and draws `seeds.png` (resolved % per seed and policy). `--runs DIR...` pools finished runs (each a work
dir of `swe_learning.py`) without running anything.

Usage: .venv/bin/python bench/swe_learning_seeds.py [--seeds 0,1,2,3,4] [--parallel 3] [--work DIR]
       [--tasks DIR --expert DIR] [--expert-limit 16] [--sft-epochs 40] [--baseline-epochs 80]
       [--rft-attempts 4] [--runs DIR ...] [extra args passed to swe_learning.py after --]
Five seeds, three at a time, take about an hour on 2 cores (per seed: RL ~10 min, the RFT samples ~10 min,
two SFT runs, four held-out evals), after ~5 min of taskgen and expert runs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
AFTER_RFT = ("rft-rl", "rft2")  # `--after-rft` arms: twice RL's rollouts, compared with each other, not with RL
def arms_of(runs: list[Path]) -> dict[str, str]:
    """Policy name -> eval dir, for the policies every run evaluated (SFT-only arms sorted by epochs)."""
    extra = set.intersection(*({d.name for d in r.glob("eval-sft-*ep")} for r in runs))
    by_epochs = sorted(extra, key=lambda d: int(d.removeprefix("eval-sft-").removesuffix("ep")))
    rft = {arm: f"eval-{arm}" for arm in ("rft", "rft-rl", "rft2") if all((r / f"eval-{arm}").is_dir() for r in runs)}
    return {"sft": "eval-before", "rl": "eval-after", **{d.removeprefix("eval-"): d for d in by_epochs}, **rft}


def resolved(run: Path, eval_dir: str) -> dict[str, bool]:
    """instance id -> resolved at attempt 0 (as `swerl eval compare` pairs them), from one eval run's report."""
    from swerl.eval.compare import load_report

    return {i.instance_id: i.outcome == "resolved" for i in load_report(run / eval_dir).instances if i.attempt == 0}


def table(runs: list[Path], arms: dict[str, str]) -> tuple[list[str], dict[str, np.ndarray]]:
    """Per arm, a (seeds, tasks) 0/1 matrix over the tasks every run evaluated in every arm."""
    per = [{arm: resolved(r, d) for arm, d in arms.items()} for r in runs]
    common = sorted(set.intersection(*(set(p[arm]) for p in per for arm in arms)))
    if not common:
        raise SystemExit("the runs share no evaluated task: were they made with the same --data-seed?")
    return common, {arm: np.array([[p[arm][t] for t in common] for p in per], dtype=float) for arm in arms}


def two_way_bootstrap(diff: np.ndarray, *, samples: int = 10_000, seed: int = 0) -> tuple[float, float, float]:
    """(mean, low, high) in points of diff (seeds, tasks), resampling seeds and tasks with replacement.

    Seeds and tasks are both sources of noise: a CI over tasks alone (as one run's paired bootstrap) says
    nothing about whether another training seed would have given the same answer.
    """
    rng = np.random.default_rng(seed)
    k, n = diff.shape
    means = np.empty(samples)
    for b in range(samples):
        means[b] = diff[rng.integers(0, k, k)][:, rng.integers(0, n, n)].mean()
    low, high = np.quantile(means, [0.025, 0.975])
    return 100 * float(diff.mean()), 100 * float(low), 100 * float(high)


def run_seeds(a: argparse.Namespace, work: Path, extra: list[str], script: Path = ROOT / "bench" / "swe_learning.py"
              ) -> list[Path]:
    """One `swe_learning.py` per seed, `--parallel` at a time; a seed with a `summary.json` is not run again.

    The first seed makes the tasks and expert trajectories unless `--tasks`/`--expert` are given; the others
    reuse them, so they run after it. Running seeds side by side changes only wall time: the repair tool is
    budgeted in test runs, so load decides no reward and no outcome.
    """
    seeds = a.seeds.split(",")
    runs = [work / f"seed-{seed}" for seed in seeds]
    tasks, expert = a.tasks, a.expert
    todo = [(seed, run) for seed, run in zip(seeds, runs, strict=True) if not (run / "summary.json").is_file()]
    made = [r for r in runs if (r / "summary.json").is_file() and (r / "tasks").is_dir() and (r / "expert").is_dir()]
    if not (tasks and expert) and made:  # a finished seed made them: the rest reuse its tasks and trajectories
        tasks, expert = made[0] / "tasks", made[0] / "expert"

    def cmd(seed: str, run: Path) -> list[str]:
        reuse = [*(["--tasks", str(tasks)] if tasks else []), *(["--expert", str(expert)] if expert else [])]
        return [sys.executable, str(script), "--work", str(run), "--seed", seed,
                "--data-seed", "0", "--expert-limit", str(a.expert_limit), "--sft-epochs", str(a.sft_epochs),
                "--baseline-epochs", a.baseline_epochs, "--rft-attempts", str(a.rft_attempts), *reuse,
                *(["--after-rft"] if a.after_rft else []), *extra]

    def start(seed: str, run: Path) -> tuple[str, subprocess.Popen]:
        run.mkdir(parents=True, exist_ok=True)
        print(f"[seed {seed}] {' '.join(cmd(seed, run))} > {run}.log", flush=True)
        with open(f"{run}.log", "w") as log:
            return seed, subprocess.Popen(cmd(seed, run), stdout=log, stderr=subprocess.STDOUT)

    def wait(seed: str, proc: subprocess.Popen) -> None:
        if proc.wait() != 0:
            raise SystemExit(f"seed {seed} failed (exit {proc.returncode}); see {work / f'seed-{seed}.log'}")

    if todo and not (tasks and expert):  # the first seed makes what the others share
        seed, run = todo.pop(0)
        wait(*start(seed, run))
        tasks, expert = run / "tasks", run / "expert"
    running: list[tuple[str, subprocess.Popen]] = []
    while todo or running:
        while todo and len(running) < a.parallel:
            running.append(start(*todo.pop(0)))
        wait(*running.pop(0))
    return runs


def plot(seeds: list[str], pct: dict[str, np.ndarray], out: Path, labels: dict[str, str],
         title: str = "swe-tiny: RL vs the simple alternatives (held-out, greedy)") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    x = np.arange(len(seeds) + 1)
    width = 0.8 / len(pct)
    for i, arm in enumerate(pct):
        vals = [*pct[arm], pct[arm].mean()]
        ax.bar(x + (i - (len(pct) - 1) / 2) * width, vals, width, label=labels[arm])
    ax.set_xticks(x, [f"seed {s}" for s in seeds] + ["mean"])
    ax.set_ylabel("held-out resolved %")
    ax.set_ylim(0, 115)
    ax.set_yticks(range(0, 101, 20))
    ax.legend(loc="upper center", ncol=len(pct), fontsize=8)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0,1,2,3,4")
    ap.add_argument("--parallel", type=int, default=3, help="seeds run side by side (wall time only)")
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "bench-swe-seeds")
    ap.add_argument("--tasks", type=Path)
    ap.add_argument("--expert", type=Path)
    ap.add_argument("--runs", type=Path, nargs="*", help="pool these finished runs instead of running")
    ap.add_argument("--expert-limit", type=int, default=16)
    ap.add_argument("--sft-epochs", type=int, default=40)
    ap.add_argument("--baseline-epochs", default="80")
    ap.add_argument("--rft-attempts", type=int, default=4, help="the RFT arm's samples per train task (0 skips it)")
    ap.add_argument("--after-rft", action="store_true", help="also RL after RFT vs a second RFT round (both from "
                    "the RFT model, the same rollouts each)")
    a, extra = ap.parse_known_args()
    extra = [x for x in extra if x != "--"]
    work = a.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    runs = [r.resolve() for r in a.runs or []]
    if not runs:
        runs = run_seeds(a, work, extra)

    arms = arms_of(runs)
    common, m = table(runs, arms)
    names = [str(json.loads((r / "summary.json").read_text())["seed"]) if (r / "summary.json").is_file()
             else r.name.removeprefix("seed-") for r in runs]
    pct = {arm: 100 * m[arm].mean(axis=1) for arm in arms}
    summary = runs[0] / "summary.json"
    start = json.loads(summary.read_text()).get("sft_epochs", a.sft_epochs) if summary.is_file() else a.sft_epochs
    labels = {"sft": f"SFT {start} ep", "rl": f"SFT {start} ep + RL",
              **{arm: f"SFT {arm.removeprefix('sft-').removesuffix('ep')} ep" for arm in arms if arm.endswith("ep")},
              "rft": f"SFT {start} ep + RFT", "rft-rl": "+ RFT + RL", "rft2": "+ RFT + RFT"}
    print(f"{len(runs)} seeds x {len(common)} held-out tasks")
    print("seed     " + "  ".join(f"{labels[arm]:>16}" for arm in arms))
    for i, name in enumerate(names):
        print(f"{name:8} " + "  ".join(f"{pct[arm][i]:15.1f}%" for arm in arms))
    print("mean     " + "  ".join(f"{pct[arm].mean():15.1f}%" for arm in arms))
    alternatives = [arm for arm in arms if arm not in ("rl", *AFTER_RFT)]  # at most RL's rollouts
    diffs = {arm: two_way_bootstrap(m["rl"] - m[arm]) for arm in alternatives}
    for arm, (d, lo, hi) in diffs.items():
        print(f"RL minus {labels[arm]:>10}: {d:+.1f} [{lo:+.1f}, {hi:+.1f}] (95%, seeds x tasks)")
    after = {arm: two_way_bootstrap(m["rft-rl"] - m[arm]) for arm in ("rft2", "rft")} \
        if {"rft", *AFTER_RFT} <= set(arms) else {}
    for arm, (d, lo, hi) in after.items():
        print(f"RFT + RL minus {labels[arm]:>10}: {d:+.1f} [{lo:+.1f}, {hi:+.1f}] (95%, seeds x tasks)")
    best = max(alternatives, key=lambda arm: pct[arm].mean())
    gain, vs_best = diffs["sft"], diffs[best]
    print(f"best alternative to RL (chosen on these scores): {labels[best]}")
    plot(names, pct, work / "seeds.png", labels)
    (work / "seeds.json").write_text(json.dumps({
        "runs": [str(r) for r in runs], "tasks": common, "resolved_pct": {k: v.tolist() for k, v in pct.items()},
        "rl_minus": diffs, "best_alternative": best, "rft_rl_minus": after}, indent=2))
    print(f"plot {work / 'seeds.png'}")
    print(f"BENCH swe_tiny_seeds_gain_over_start_ci_low {gain[1]:.1f} pct-points goal >0 "
          f"{'met' if gain[1] > 0 else 'missed'}")
    print(f"BENCH swe_tiny_seeds_rl_minus_best_alternative {vs_best[0]:.1f} pct-points goal >0 "
          f"{'met' if vs_best[0] > 0 else 'missed'}")
    print(f"BENCH swe_tiny_seeds_rl_minus_best_alternative_ci_low {vs_best[1]:.1f} pct-points goal >0 "
          f"{'met' if vs_best[1] > 0 else 'missed'}")
    if after:
        (d2, lo2, _), (_, lo1, _) = after["rft2"], after["rft"]
        print(f"BENCH swe_tiny_seeds_after_rft_gain_ci_low {lo1:.1f} pct-points goal >0 {'met' if lo1 > 0 else 'missed'}")
        print(f"BENCH swe_tiny_seeds_after_rft_rl_minus_rft2 {d2:.1f} pct-points goal >0 {'met' if d2 > 0 else 'missed'}")
        print(f"BENCH swe_tiny_seeds_after_rft_rl_minus_rft2_ci_low {lo2:.1f} pct-points goal >0 "
              f"{'met' if lo2 > 0 else 'missed'}")


if __name__ == "__main__":
    main()
