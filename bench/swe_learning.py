"""The real loop learns? taskgen -> expert trajectories -> SFT -> held-out eval -> RL -> held-out eval -> compare.

Every stage is the public CLI, run as a subprocess exactly as a user types it, and every agent stage
(expert, RL, both evals) prompts through the same mini-swe-agent config, `recipes/agents/swe-tiny.yaml`:

1. `swerl data taskgen` - generated SWE-smith-style tasks (train split; test split = held-out files);
2. `swerl data expert` - mini-swe-agent + the scripted expert (search strategy: call the repair tool on the
   function the issue names, submit) in bwrap, graded fresh -> `.traj.json`, on a seeded sample of train;
3. `swerl train sft` - warm-start of the `swe-tiny` architecture on the resolved trajectories;
4. `swerl eval swebench --model SFT_DIR` on `--heldout` tasks of the test split (before);
5. `swerl train --recipe swe-tiny` - RL from the SFT checkpoint through the real loop (mini-swe-agent,
   bwrap, fresh-sandbox grading, gateway, best-effort merge, rollout-level GRPO, collocated async);
6. `swerl eval swebench --model RL_RUN_DIR` (the run dir: exported on the fly) on the same tasks (after);
7. `swerl eval compare before after` - paired bootstrap CI of the difference;
8. the simple alternative at far less budget than RL: `swerl train sft` for each of `--baseline-epochs`
   (default none; e.g. `--baseline-epochs 80`: twice the start's epochs) on the same trajectories with the same seed, evaluated on the same tasks
   (`eval-sft-<E>ep`), and `swerl eval compare eval-sft-<E>ep eval-after` (does RL beat training longer?);
9. the simple alternative that also uses the reward, at RL's rollout budget: rejection-sampling fine-tuning
   (RFT, one round of expert iteration). `swerl eval swebench --attempts 4 --temperature 0.8` samples the RL
   start on as many train tasks as RL's rollouts cover (`rft-samples`); `swerl train sft --init SFT_DIR`
   continues on the expert trajectories plus the resolved samples (`--rft-epochs`) -> `eval-rft`. Off by
   default (`--rft-attempts 4` turns it on; `bench/swe_learning_seeds.py` does): it costs as many rollouts as RL.
10. `--after-rft`: RL as the stage after RFT, not instead of it. From `sft-rft`, RL at the same budget
   (`rft-rl` -> `eval-rft-rl`) against a second RFT round on other train tasks, fine-tuned on the expert
   trajectories plus both rounds' resolved samples (`rft2-samples`, `sft-rft2` -> `eval-rft2`).

`--seed` seeds training (SFT init and order, RL sampling); `--data-seed` picks the expert sample and the
held-out tasks, so runs with different `--seed` are evaluated on the same tasks.
`bench/swe_learning_seeds.py` runs this over several seeds and pools them. Each run leaves
`summary.json` in its work dir.

Prints each stage's wall time, then

    BENCH swe_tiny_train_reward_first <v> reward goal >0
    BENCH swe_tiny_train_reward_last <v> reward goal >first
    BENCH swe_tiny_heldout_resolved_before <v> % goal >=0
    BENCH swe_tiny_heldout_resolved_after <v> % goal >before
    BENCH swe_tiny_heldout_gain_ci_low <v> pct-points goal >0
    BENCH swe_tiny_heldout_resolved_sft_<E>ep <v> % goal <after   (one line per baseline)
    BENCH swe_tiny_heldout_resolved_rft <v> % goal <after
    BENCH swe_tiny_heldout_resolved_rft_rl <v> % goal ><rft2>          (with --after-rft)
    BENCH swe_tiny_total_time <v> s goal <=2400

`--tasks DIR` / `--expert DIR` / `--sft DIR` reuse earlier stages' outputs (the expensive ones on a small
machine). Sizes default to a run that fits ~40 minutes on 2 free cores; `--quick` shrinks every stage
to prove the pipeline end to end in a few minutes (its numbers say nothing about learning).

Usage: .venv/bin/python bench/swe_learning.py [--work DIR] [--quick] [--expert-limit 16] [--sft-epochs 40]
       [--heldout 32] [--rl-steps 8] [--rl-rollouts 16] [--tasks DIR] [--expert DIR] [--sft DIR]
       [--seed 0] [--data-seed 0] [--baseline-epochs 80] [--rl-set KEY=VALUE ...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AGENT_CONFIG = ROOT / "recipes" / "agents" / "swe-tiny.yaml"  # the one mini-swe-agent config of every stage
STEPS, MAX_TOKENS = 3, 64  # as the recipe's rollout.max_steps; an action is ~25 tokens
SWERL = [sys.executable, "-m", "swerl.cli"] if not (ROOT / ".venv" / "bin" / "swerl").exists() else \
    [str(ROOT / ".venv" / "bin" / "swerl")]


def sh(stage: str, args: list[str], times: dict[str, float], log: Path) -> str:
    t0 = time.perf_counter()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
           "MSWEA_SILENT_STARTUP": "1", "TOKENIZERS_PARALLELISM": "false", "COLUMNS": "160"}
    res = subprocess.run([*SWERL, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    times[stage] = time.perf_counter() - t0
    with log.open("a") as fh:
        fh.write(f"$ swerl {' '.join(args)}\n{res.stdout}\n{res.stderr[-4000:]}\n")
    if res.returncode != 0:
        raise SystemExit(f"stage {stage} failed (exit {res.returncode}); see {log}\n{res.stderr[-1500:]}")
    print(f"[{stage}] {times[stage]:.0f}s", flush=True)
    return res.stdout


def sample_rows(tasks: Path, split: str, purpose: str, n: int, seed: int) -> Path:
    """A seeded sample of n rows of a split (rows are ordered by repo: the first n would miss repos), written
    beside the split's file so each row's repo_dir stays valid."""
    rows = [line for line in (tasks / f"{split}.jsonl").read_text().splitlines() if line.strip()]
    random.Random(f"{purpose}-{seed}").shuffle(rows)
    out = tasks / f"{purpose}-{n}-seed{seed}.jsonl"
    out.write_text("".join(line + "\n" for line in rows[:n]))
    return out


def compare(stage: str, a_dir: Path, b_dir: Path, seed: int, times: dict[str, float], log: Path) -> dict:
    """`swerl eval compare A B --json`: B minus A, paired bootstrap over tasks."""
    out = sh(stage, ["eval", "compare", str(a_dir), str(b_dir), "--json", "--seed", str(seed)], times, log)
    return json.loads(out[out.index("{"):])


def rft_arm(a: argparse.Namespace, tasks: Path, data: list[Path], start: Path, work: Path, agent_args: list[str],
            eval_args: list[str], times: dict[str, float], log: Path, name: str = "rft") -> dict:
    """One round of rejection-sampling fine-tuning at RL's rollout budget: sample `start` on as many train tasks
    as RL's rollouts cover, then `swerl train sft --init start` on `data` plus the resolved samples.
    Leaves `<name>-samples`, `sft-<name>` and `eval-<name>` in `work`; returns the sample counts."""
    attempts = a.rft_attempts
    n_tasks = max(1, a.rl_steps * a.rl_rollouts // attempts)  # RL's rollouts: steps x rollouts_per_step
    sample = sample_rows(tasks, "train", name, n_tasks, a.seed)  # round 2 ("rft2") draws other tasks
    samples = work / f"{name}-samples"
    sh(f"{name}_sample", ["eval", "swebench", "--model", str(start), "--out", str(samples), "--dataset", str(sample),
                          "--attempts", str(attempts), "--temperature", "0.8", *agent_args], times, log)  # as RL samples
    model = work / f"sft-{name}"
    sh(f"{name}_sft", ["train", "sft", *(x for d in [*data, samples] for x in ("--data", str(d))), "--out", str(model),
                       "--recipe", "swe-tiny", "--init", str(start), "--epochs", str(a.rft_epochs or a.sft_epochs),
                       "--lr", str(a.sft_lr), "--batch-tokens", str(a.sft_batch_tokens), "--seed", str(a.seed)],
       times, log)
    sh(f"eval_{name}", ["eval", "swebench", "--model", str(model), "--out", str(work / f"eval-{name}"), *eval_args],
       times, log)
    from swerl.eval.compare import load_report

    resolved = sum(1 for i in load_report(samples).instances if i.outcome == "resolved")
    return {"samples": n_tasks * attempts, "samples_resolved": resolved}


def rl_arm(a: argparse.Namespace, tasks: Path, start: Path, run: Path, eval_dir: Path, eval_args: list[str],
           times: dict[str, float], log: Path, name: str = "rl", eval_stage: str = "eval_after") -> None:
    """`swerl train --recipe swe-tiny` from `start` (8 x 16 rollouts by default), then its held-out eval."""
    sh(name, ["train", "--recipe", "swe-tiny", "--out", str(run), "--set", f"model.path={start}",
              "--set", f"data.dataset={tasks / 'train.jsonl'}", "--set", f"train.steps={a.rl_steps}",
              "--set", f"train.rollouts_per_step={a.rl_rollouts}", "--set", f"train.checkpoint_every={a.rl_steps}",
              "--set", f"train.seed={a.seed}", "--set", f"rollout.agent_config={a.agent_config}",
              *(x for kv in a.rl_set for x in ("--set", kv))], times, log)
    sh(eval_stage, ["eval", "swebench", "--model", str(run), "--out", str(eval_dir), *eval_args], times, log)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "bench-swe-learning")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--tasks", type=Path)
    ap.add_argument("--expert", type=Path)
    ap.add_argument("--sft", type=Path)
    ap.add_argument("--expert-limit", type=int, default=16)
    ap.add_argument("--sft-epochs", type=int, default=40)
    ap.add_argument("--sft-lr", type=float, default=3e-3)
    ap.add_argument("--sft-batch-tokens", type=int, default=4096)
    ap.add_argument("--heldout", type=int, default=32)
    ap.add_argument("--rl-steps", type=int, default=8)
    ap.add_argument("--rl-rollouts", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0, help="training seed (SFT and RL)")
    ap.add_argument("--data-seed", type=int, default=0, help="expert sample and held-out tasks")
    ap.add_argument("--baseline-epochs", default="", help="SFT-only arms' epochs, comma-separated ('': none)")
    ap.add_argument("--rft-epochs", type=int, default=0, help="RFT arm's epochs from the RL start (0: --sft-epochs)")
    ap.add_argument("--rft-attempts", type=int, default=0,
                    help="RFT arm: samples per train task (4, the recipe's n_per_task); 0 skips the arm, which "
                         "costs as many rollouts as RL (the seeds bench turns it on)")
    ap.add_argument("--after-rft", action="store_true",
                    help="with --rft-attempts: also RL from the RFT model (rft-rl) and a second RFT round from it "
                         "(rft2), the same rollouts each")
    ap.add_argument("--rl-set", action="append", default=[], metavar="KEY=VALUE",
                    help="a recipe override for the RL arms (repeatable), e.g. train.lr=1e-3 for an ablation")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--agent-config", type=Path, default=AGENT_CONFIG,
                    help="the mini-swe-agent config of every agent stage (recipes/agents/swe-tiny-hard.yaml: the "
                    "variant whose repair tool needs the function the issue names)")
    a = ap.parse_args()
    a.agent_config = a.agent_config.resolve()
    if a.quick:
        a.expert_limit, a.sft_epochs, a.heldout, a.rl_steps, a.rl_rollouts = 6, 2, 3, 1, 4
        a.baseline_epochs, a.rft_attempts = "3", min(a.rft_attempts, 2)
    work = a.work.resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    log = work / "bench.log"
    times: dict[str, float] = {}
    t_all = time.perf_counter()

    tasks = a.tasks.resolve() if a.tasks else work / "tasks"
    if not a.tasks:
        sh("taskgen", ["data", "taskgen", "--out", str(tasks), "--seed", str(a.data_seed), "--workers", str(a.workers)],
           times, log)
    expert = a.expert.resolve() if a.expert else work / "expert"
    if not a.expert and not a.sft:
        sample = sample_rows(tasks, "train", "expert", a.expert_limit, a.data_seed)
        sh("expert", ["data", "expert", "--tasks", str(sample), "--out", str(expert), "--workers", str(a.workers),
                      "--agent-config", str(a.agent_config), "--step-limit", str(STEPS)], times, log)
    def sft_stage(stage: str, out: Path, epochs: int) -> None:
        sh(stage, ["train", "sft", "--data", str(expert), "--out", str(out), "--recipe", "swe-tiny",
                   "--epochs", str(epochs), "--lr", str(a.sft_lr), "--batch-tokens", str(a.sft_batch_tokens),
                   "--seed", str(a.seed)], times, log)

    sft = a.sft.resolve() if a.sft else work / "sft"
    if not a.sft:
        sft_stage("sft", sft, a.sft_epochs)

    # the held-out subset: a seeded sample of the test split (files never edited in any train task)
    heldout = sample_rows(tasks, "test", "heldout", a.heldout, a.data_seed)
    agent_args = ["--backend", "bwrap", "--harness", "mini-swe-agent-textbased", "--agent-config", str(a.agent_config),
                  "--step-limit", str(STEPS), "--max-tokens", str(MAX_TOKENS), "--command-timeout", "60",
                  "--workers", str(a.workers), "--engine", "embedded", "--infra-retries", "1"]
    eval_args = ["--dataset", str(heldout), "--temperature", "0", *agent_args]  # greedy, on held-out tasks
    sh("eval_before", ["eval", "swebench", "--model", str(sft), "--out", str(work / "eval-before"), *eval_args],
       times, log)
    rl = work / "rl"
    rl_arm(a, tasks, sft, rl, work / "eval-after", eval_args, times, log)
    cmp = compare("compare", work / "eval-before", work / "eval-after", a.seed, times, log)
    longer: dict[int, dict] = {}
    for epochs in sorted({int(e) for e in a.baseline_epochs.split(",") if e.strip()}):
        # the simple alternative, at far less compute than RL: train the same SFT longer
        sft_dir, eval_dir = work / f"sft-{epochs}ep", work / f"eval-sft-{epochs}ep"
        sft_stage(f"sft_{epochs}ep", sft_dir, epochs)
        sh(f"eval_sft_{epochs}ep", ["eval", "swebench", "--model", str(sft_dir), "--out", str(eval_dir), *eval_args],
           times, log)
        longer[epochs] = compare(f"compare_sft_{epochs}ep", eval_dir, work / "eval-after", a.seed, times, log)
    rft = after_rft = None
    if a.rft_attempts:
        rft = rft_arm(a, tasks, [expert], sft, work, agent_args, eval_args, times, log)
        rft |= compare("compare_rft", work / "eval-rft", work / "eval-after", a.seed, times, log)
    if a.rft_attempts and a.after_rft:
        # RL after RFT, against a second RFT round at the same rollouts: both start from sft-rft
        rl_arm(a, tasks, work / "sft-rft", work / "rft-rl", work / "eval-rft-rl", eval_args, times, log, "rft_rl",
               "eval_rft_rl")
        after_rft = rft_arm(a, tasks, [expert, work / "rft-samples"], work / "sft-rft", work, agent_args, eval_args,
                            times, log, "rft2")
        after_rft |= {"rl_minus_rft2": compare("compare_rft2", work / "eval-rft2", work / "eval-rft-rl", a.seed,
                                               times, log),
                      "rl_minus_rft": compare("compare_rft_rl", work / "eval-rft", work / "eval-rft-rl", a.seed,
                                              times, log)}
    total = time.perf_counter() - t_all

    metrics = [json.loads(line) for line in (rl / "metrics.jsonl").read_text().splitlines() if line.strip()]
    rewards = [m["train/reward_mean"] for m in metrics]
    before = json.loads((work / "eval-before" / "report.json").read_text())["resolved_pct"]
    after = json.loads((work / "eval-after" / "report.json").read_text())["resolved_pct"]
    sft_info = json.loads((sft / "sft.json").read_text())
    print(f"work dir {work}; stage times: " + ", ".join(f"{k} {v:.0f}s" for k, v in times.items()))
    print(f"sft: {sft_info['counts']['examples']} trajectories, epochs loss "
          + " ".join(f"{e['loss']:.2f}" for e in sft_info["epochs"]))
    print("rl train reward per update: " + " ".join(f"{r:.3f}" for r in rewards))
    print(f"held-out: {a.heldout} tasks, resolved {before:.1f}% -> {after:.1f}%, delta {cmp['delta_pct']:+.1f} "
          f"[{cmp['ci_low']:+.1f}, {cmp['ci_high']:+.1f}] ({cmp['confidence']:.0%} paired bootstrap)")
    for epochs, c in longer.items():
        print(f"SFT for {epochs} epochs instead of RL: {c['a_resolved_pct']:.1f}%; RL minus that "
              f"{c['delta_pct']:+.1f} [{c['ci_low']:+.1f}, {c['ci_high']:+.1f}]")
    if rft:
        print(f"RFT instead of RL ({rft['samples_resolved']}/{rft['samples']} samples resolved): "
              f"{rft['a_resolved_pct']:.1f}%; RL minus that {rft['delta_pct']:+.1f} [{rft['ci_low']:+.1f}, "
              f"{rft['ci_high']:+.1f}]")
    if after_rft:
        c2, c1 = after_rft["rl_minus_rft2"], after_rft["rl_minus_rft"]
        print(f"after RFT: RL {c2['b_resolved_pct']:.1f}% vs a second RFT round {c2['a_resolved_pct']:.1f}%, RL minus "
              f"that {c2['delta_pct']:+.1f} [{c2['ci_low']:+.1f}, {c2['ci_high']:+.1f}]; RL minus its RFT start "
              f"{c1['delta_pct']:+.1f} [{c1['ci_low']:+.1f}, {c1['ci_high']:+.1f}]")
    first, last = rewards[0], rewards[-1]
    (work / "summary.json").write_text(json.dumps({
        "seed": a.seed, "agent_config": a.agent_config.name, "data_seed": a.data_seed, "sft_epochs": a.sft_epochs,
        "baseline_epochs": a.baseline_epochs,
        "rl_steps": a.rl_steps, "rl_rollouts": a.rl_rollouts, "rl_set": a.rl_set, "heldout": a.heldout, "times_s": times,
        "total_s": total, "train_reward": rewards, "resolved_pct": {"before": before, "after": after},
        "gain": cmp, "rl_minus_sft_epochs": longer, "rl_minus_rft": rft, "after_rft": after_rft}, indent=2))
    print(f"BENCH swe_tiny_train_reward_first {first:.3f} reward goal >0 {'met' if first > 0 else 'missed'}")
    print(f"BENCH swe_tiny_train_reward_last {last:.3f} reward goal >{first:.3f} {'met' if last > first else 'missed'}")
    print(f"BENCH swe_tiny_heldout_resolved_before {before:.1f} % goal >=0 met")
    print(f"BENCH swe_tiny_heldout_resolved_after {after:.1f} % goal >{before:.1f} {'met' if after > before else 'missed'}")
    print(f"BENCH swe_tiny_heldout_gain_ci_low {cmp['ci_low']:.1f} pct-points goal >0 "
          f"{'met' if cmp['ci_low'] > 0 else 'missed'}")
    for epochs, c in longer.items():
        lp = c["a_resolved_pct"]
        print(f"BENCH swe_tiny_heldout_resolved_sft_{epochs}ep {lp:.1f} % goal <{after:.1f} "
              f"{'met' if lp < after else 'missed'}")
    if rft:
        print(f"BENCH swe_tiny_heldout_resolved_rft {rft['a_resolved_pct']:.1f} % goal <{after:.1f} "
              f"{'met' if rft['a_resolved_pct'] < after else 'missed'}")
    if after_rft:
        c2 = after_rft["rl_minus_rft2"]
        print(f"BENCH swe_tiny_heldout_resolved_rft_rl {c2['b_resolved_pct']:.1f} % goal >{c2['a_resolved_pct']:.1f} "
              f"{'met' if c2['b_resolved_pct'] > c2['a_resolved_pct'] else 'missed'}")
    print(f"BENCH swe_tiny_total_time {total:.0f} s goal <=2400 {'met' if total <= 2400 else 'missed'}")


if __name__ == "__main__":
    main()
