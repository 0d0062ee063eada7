#!/usr/bin/env bash
# Device check for the Qwen3.5-9B recipes, torch + transformers only (what a lent accelerator machine has):
# swerl's loss forward+backward at 32k tokens on a random-init model of Qwen3.5-9B's architecture
# (peak memory, tokens/s, MFU) and the logits/entropy memory at 32k x 248k vocabulary, chunked vs not.
# See scripts/gpu_check.py for the stages; docs/verl.md for what it tells about a verl run.
#
# Usage: scripts/gpu_check.sh [--preflight | --cpu-smoke] [--seq N] [--layers N] [--steps N] [--peak-tflops F]
#   --preflight   every stage at 2 layers / 2k tokens (under a minute): run this first on a new machine
#   --cpu-smoke   every stage on CPU with a tiny config (runs in `make test`)
#   OUT=DIR                    where gpu_check.json goes (default ./gpu_check_out); rewritten after every stage
#   GPU_CHECK_PYTHON=python    the interpreter with torch + transformers (default: .venv's if present, else python3)
#   GPU_CHECK_TIMEOUT=SECONDS  hard limit (default 540, inside a 600 s command); SIGTERM still writes the report
# Prints `BENCH <name> <value> <unit> goal <op><target> met|missed` lines; exit 0 only if every stage passed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n ${GPU_CHECK_PYTHON:-} ]]; then PY=$GPU_CHECK_PYTHON
elif [[ -x .venv/bin/python ]]; then PY=.venv/bin/python
else PY=python3; fi
OUT="${OUT:-$PWD/gpu_check_out}"
mkdir -p "$OUT"
export OUT HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
if [[ " $* " != *" --cpu-smoke "* ]] && command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv,noheader 2>/dev/null \
    | sed 's/^/[gpu_check] gpu: /' >&2 || true
fi
set +e
timeout --signal=TERM --kill-after=20 "${GPU_CHECK_TIMEOUT:-540}" "$PY" scripts/gpu_check.py --out "$OUT" "$@"
rc=$?
set -e
[[ $rc -eq 124 || $rc -eq 143 ]] && echo "[gpu_check] stopped at the ${GPU_CHECK_TIMEOUT:-540} s limit; $OUT/gpu_check.json has the stages that finished" >&2
exit $rc
