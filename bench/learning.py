"""Learning evidence that holds: `toy` over several seeds, against a negated-advantage control.

One run can be lucky. This runs the real loop (`swerl.train.loop.train`: in-process gateway,
embedded engine, torch backend, collocated-async GRPO) on the `toy` recipe for `--seeds`
seeds, and once more per seed with every advantage negated (the control: the same loop,
data and optimizer, with the learning signal pointing the wrong way). If the policy learns
from the signal, the real runs rise and the control falls toward 0; if the "learning" were
an artefact (drift, a bug that rewards anything), both would move alike.

The control is a wrapper around `compute_advantages` as the loop imports it, installed only
in this process for the control runs.

Per seed it prints the first update's reward, the mean of the last `--tail` updates, and
the best; then

    BENCH toy_learning_min_last <v> reward goal >=0.6         (worst seed's tail mean)
    BENCH toy_negated_max_last <v> reward goal <=0.1           (best control seed's tail mean)
    BENCH toy_learning_vs_negated <ratio> x goal >=4           (min learning tail / max control tail)

Usage: .venv/bin/python bench/learning.py [--seeds 0,1,2] [--steps 40] [--control-seeds 0]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from swerl.config import load_recipe
from swerl.train.loop import train
from swerl.train.loop.metrics import read_metrics

GOAL_LAST = 0.6
GOAL_CONTROL = 0.1
GOAL_RATIO = 4.0


@contextlib.contextmanager
def negated_advantages() -> Iterator[None]:
    import swerl.train.loop.update as update

    orig = update.compute_advantages

    def negated(*args: Any, **kwargs: Any) -> Any:
        adv = orig(*args, **kwargs)
        return [-x for x in adv] if isinstance(adv, list) else -adv

    update.compute_advantages = negated  # type: ignore[assignment]
    try:
        yield
    finally:
        update.compute_advantages = orig  # type: ignore[assignment]


def run(seed: int, args: argparse.Namespace, root: Path, control: bool) -> dict[str, Any]:
    recipe = load_recipe("toy", [f"train.steps={args.steps}", "train.val_every=0", f"train.seed={seed}",
                                 f"train.checkpoint_every={args.steps}", "train.tensorboard=false",
                                 f"train.threads={args.threads}"])
    out = root / f"{'neg' if control else 'toy'}-{seed}"
    t0 = time.perf_counter()
    with negated_advantages() if control else contextlib.nullcontext():
        train(recipe, out)
    rewards = [m["train/reward_mean"] for m in read_metrics(out / "metrics.jsonl")]
    tail = rewards[-args.tail:]
    return {"seed": seed, "control": control, "first": rewards[0], "last": statistics.fmean(tail),
            "best": max(rewards), "updates": len(rewards), "seconds": time.perf_counter() - t0, "rewards": rewards}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--control-seeds", default="0")
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--tail", type=int, default=5, help="Updates averaged as the run's final reward.")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="Keep the run directories here (default: a temporary directory).")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    controls = [int(s) for s in args.control_seeds.split(",") if s.strip()]
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        root = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="swerl-bench-learning-")))
        runs = [run(s, args, root, control=True) for s in controls]  # the control first: cheapest to lose
        runs += [run(s, args, root, control=False) for s in seeds]
    for r in runs:
        kind = "negated" if r["control"] else "toy"
        print(f"{kind:8s} seed {r['seed']}: first {r['first']:.3f}  last{args.tail} {r['last']:.3f}  best "
              f"{r['best']:.3f}  ({r['updates']} updates, {r['seconds']:.0f}s)")
        print("         rewards: " + " ".join(f"{x:.2f}" for x in r["rewards"]))
    learn = min(r["last"] for r in runs if not r["control"])
    neg = max((r["last"] for r in runs if r["control"]), default=float("nan"))
    ratio = learn / max(neg, 0.01)
    print(f"total {time.perf_counter() - t0:.0f}s for {len(runs)} runs of {args.steps} updates")
    print(f"BENCH toy_learning_min_last {learn:.3f} reward goal >={GOAL_LAST:g} "
          f"{'met' if learn >= GOAL_LAST else 'missed'}")
    print(f"BENCH toy_negated_max_last {neg:.3f} reward goal <={GOAL_CONTROL:g} "
          f"{'met' if neg <= GOAL_CONTROL else 'missed'}")
    print(f"BENCH toy_learning_vs_negated {ratio:.1f} x goal >={GOAL_RATIO:g} {'met' if ratio >= GOAL_RATIO else 'missed'}")


if __name__ == "__main__":
    main()
