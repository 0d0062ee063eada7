#!/usr/bin/env bash
# One short GPU run of the verl backend: random-init small Qwen3, vLLM rollout round trip,
# one update step (+ one for throughput), weight sync, checkpoint; then tokens/s and memory.
#
# Needs: NVIDIA GPU(s) and a Python environment with verl 0.9.x, vLLM and CUDA torch — e.g.
# verl's own GPU image (or `pip install "verl[vllm,fsdp]==0.9.1"` on a CUDA machine). No hub
# or registry access is needed: the model and tokenizer are built locally. swerl is used
# from this checkout (PYTHONPATH), so nothing is installed into that environment.
#
# Usage: scripts/gpu_check.sh [--gpus N] [--sao] [--no-rollout]
#   VERL_PYTHON=/path/to/python  the interpreter with verl+vLLM (default: python3)
#   OUT=DIR                      where gpu_check.json goes (default: ./gpu_check_out)
#   GPU_CHECK_TIMEOUT=SECONDS    hard limit (default 900)
# Exit 0 only if every stage passed; DIR/gpu_check.json says which stage failed and why.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${VERL_PYTHON:-python3}"
OUT="${OUT:-$PWD/gpu_check_out}"

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "[gpu_check] no NVIDIA GPU visible (nvidia-smi -L failed): this check needs CUDA" >&2
  exit 2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | sed 's/^/[gpu_check] gpu: /' >&2
mkdir -p "$OUT"

export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export SWERL_CACHE_DIR="$OUT/cache" RAY_DEDUP_LOGS=0 VLLM_LOGGING_LEVEL="${VLLM_LOGGING_LEVEL:-WARNING}"

# Fail fast, with names, when the environment lacks something (before Ray and vLLM spend minutes).
"$PY" - <<'PY'
import importlib
import sys

need = ["torch", "verl", "vllm", "ray", "hydra", "tensordict", "transformers", "tokenizers", "pydantic", "yaml",
        "httpx", "numpy", "cachetools"]
missing = [m for m in need if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"[gpu_check] missing in this Python environment: {', '.join(missing)}")
import torch
import verl
import vllm

if not torch.cuda.is_available():
    sys.exit("[gpu_check] torch.cuda.is_available() is False (a CPU build of torch?)")
if tuple(int(x) for x in verl.__version__.split(".")[:2]) != (0, 9):
    sys.exit(f"[gpu_check] expected verl 0.9.x, got {verl.__version__}")
if importlib.util.find_spec("flash_attn") is None:
    print("[gpu_check] warning: flash_attn not installed; verl's remove-padding path may fail", file=sys.stderr)
print(f"[gpu_check] torch {torch.__version__} cuda {torch.version.cuda}, verl {verl.__version__}, "
      f"vllm {vllm.__version__}, {torch.cuda.device_count()} GPU(s)", file=sys.stderr)
import swerl.train.backends.verl.backend  # noqa: F401  (swerl from this checkout imports under this Python)
PY

set +e
timeout --signal=TERM --kill-after=30 "${GPU_CHECK_TIMEOUT:-900}" \
  "$PY" -m swerl.train.backends.verl.gpu_check --out "$OUT" "$@"
rc=$?
set -e
if [[ -f $OUT/gpu_check.json ]]; then
  "$PY" - "$OUT/gpu_check.json" <<'PY'
import json
import sys

r = json.load(open(sys.argv[1]))
for name, st in r.get("stages", {}).items():
    print(f"[gpu_check] {'ok  ' if st['ok'] else 'FAIL'} {name:<22} {st['s']:>7.1f} s  {st.get('error', '')}")
for key in ("device", "trained_tokens_per_s", "max_memory_allocated_gb", "sync_s", "memory_after_rollout_mib",
            "memory_engine_asleep_mib", "memory_during_update_mib"):
    if key in r:
        print(f"[gpu_check] {key}: {r[key]}")
PY
fi
[[ $rc -eq 124 ]] && echo "[gpu_check] timed out after ${GPU_CHECK_TIMEOUT:-900} s" >&2
exit $rc
