#!/usr/bin/env bash
# The main job on the embedded default: `swerl train --recipe tiny` for a few updates (tiny random-init
# model, embedded engine, in-process gateway, bubblewrap sandboxes, bundled task pack, mini-swe-agent,
# collocated-async GRPO), then the run's report (plots + summary table). ~5 minutes on 2 cores.
# The bundled task pack is materialised on first use by the task source; nothing to prepare here.
# `make demo` runs this; DEMO_OUT picks the run directory, extra arguments go to `swerl train`
# (e.g. scripts/demo.sh --set train.steps=1).
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_SILENT_STARTUP=1
export TOKENIZERS_PARALLELISM=false
OUT=${DEMO_OUT:-runs/demo}
rm -rf "$OUT"
.venv/bin/swerl train --recipe tiny --out "$OUT" "$@"
.venv/bin/swerl train report "$OUT"
echo "demo outputs in $OUT (metrics.jsonl, report/*.png, tensorboard/, checkpoints/, trajectories/)"
