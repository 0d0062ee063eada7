#!/usr/bin/env bash
# The demo, in two parts (~10 minutes on 2 cores after setup):
#  1. the main job on the embedded default: `swerl train --recipe tiny` for a few updates (tiny random-init
#     model, embedded engine, in-process gateway, bubblewrap sandboxes, bundled task pack, mini-swe-agent,
#     grading in a fresh sandbox, collocated-async GRPO), then its report. A random model never emits a
#     parsable action, so its reward is 0: this part shows the machinery, not learning.
#  2. learning on CPU: `swerl train --recipe toy` (same gateway, engine and collocated loop, the toy
#     tool-use harness) for DEMO_TOY_STEPS updates: the reward rises from ~0.1 toward 1.
# It ends with what was shown and what to run next (export -> eval -> compare; the SWE pipeline that learns),
# and with the command that opens the runs in the browser (`swerl view`).
# The bundled task pack is materialised on first use by the task source; nothing to prepare here.
# `make demo` runs this; DEMO_OUT picks the run directory, extra arguments go to the tiny run's
# `swerl train` (e.g. scripts/demo.sh --set train.steps=1).
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_SILENT_STARTUP=1
export TOKENIZERS_PARALLELISM=false
OUT=${DEMO_OUT:-runs/demo}
TOY_OUT="$OUT-toy"
TOY_STEPS=${DEMO_TOY_STEPS:-30}
rm -rf "$OUT" "$TOY_OUT"
echo "== 1/2 the real SWE loop on a tiny random model (machinery; reward 0 expected)"
.venv/bin/swerl train --recipe tiny --out "$OUT" "$@"
.venv/bin/swerl train report "$OUT"
echo "== 2/2 learning on CPU: the toy tool-use task through the same gateway, engine and collocated loop"
.venv/bin/swerl train --recipe toy --out "$TOY_OUT" --set "train.steps=$TOY_STEPS" --set train.val_every=10 \
    --set "train.checkpoint_every=$TOY_STEPS"
.venv/bin/python - "$OUT" "$TOY_OUT" <<'PY'
import json
import sys


def rewards(run):
    with open(f"{run}/metrics.jsonl") as fh:
        return [json.loads(line)["train/reward_mean"] for line in fh if line.strip()]


swe, toy = rewards(sys.argv[1]), rewards(sys.argv[2])
k = min(5, len(toy))
print()
print("What this demo showed:")
print(f"  1. {sys.argv[1]}: mini-swe-agent (unchanged) in bwrap sandboxes, graded in fresh ones, every model call")
print(f"     recorded by the gateway, {len(swe)} collocated GRPO updates; reward {swe[-1]:.3f} "
      "(a random model never acts).")
last = sum(toy[-k:]) / k
verdict = "the policy learned" if last > toy[0] + 0.2 else "no clear rise yet (more updates: DEMO_TOY_STEPS=60)"
print(f"  2. {sys.argv[2]}: {verdict}: train reward {toy[0]:.2f} at update 1 -> "
      f"{last:.2f} (mean of the last {k} of {len(toy)} updates).")
PY
cat <<NEXT

Next steps:
  swerl train report $TOY_OUT                                    # reward / entropy / phase plots
  swerl train export $OUT --out $OUT/export                      # a checkpoint as a transformers model dir
  swerl eval swebench --model $OUT --dataset taskpack --backend bwrap --out runs/eval-after   # run dir or export
  swerl eval compare runs/eval-before runs/eval-after            # paired bootstrap CI of the difference
  .venv/bin/python bench/swe_learning.py                         # taskgen -> expert -> SFT -> eval -> RL -> eval

Look at what the trainer trained on (updates, rollouts, tokens trained vs masked) in the browser:
  .venv/bin/swerl view $TOY_OUT                                  # serves http://127.0.0.1:8765/ (or --port N)
  .venv/bin/swerl view $OUT --export $OUT-site                   # a static site: open $OUT-site/index.html
NEXT
