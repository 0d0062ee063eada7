#!/usr/bin/env bash
# The main job on the embedded default. Until `swerl train` lands, the demo materialises the
# bundled task pack and runs the SWE-smith filter over it (static stages, local git inspection).
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1
OUT=${DEMO_OUT:-runs/demo}
rm -rf "$OUT"
.venv/bin/swerl data taskpack --out "$OUT/taskpack"
.venv/bin/swerl data filter --dataset "$OUT/taskpack/tasks.jsonl" --inspect local --repos "$OUT/taskpack/repos" \
  --test-size 2 --seed 0 --out "$OUT/filtered"
echo "demo outputs in $OUT (report: $OUT/filtered/report.json)"
