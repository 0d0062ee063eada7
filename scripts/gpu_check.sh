#!/usr/bin/env bash
# Device check for the Qwen3.5-9B verl recipes in ONE call of at most 420 s on one H200, torch + transformers only:
# a preflight pass (2 layers, 2k tokens) then the full pass at 65,536 tokens: swerl's loss through a verl-like head
# with fp32 master weights (peak memory, tokens/s, MFU), AdamW on one rank's shard plus timed pinned host<->device
# copies of its states (what verl's optimizer_offload moves each update), and chunked-vs-recurrent log-probs of the
# same random model. See scripts/gpu_check.py for the stages, docs/verl.md for what they tell about a verl run.
#
# Usage: scripts/gpu_check.sh [--preflight | --cpu-smoke | --estimate] [--seq N] [--layers N] [--peak-tflops F]
#   (no flag)     preflight + full pass, one call (carry .cache/gpu_check/wheels: the run fails without FLA's kernels)
#   --preflight   the 2-layer, 2k-token pass only
#   --cpu-smoke   every stage on CPU with a tiny config (runs in `make test`)
#   --estimate    this script's own estimate of the full run's seconds on an H200; runs nothing
#   --fetch-wheels  download the wheels to carry (fla-core, flash-linear-attention 0.6.0, einops; ~1.5 MB) and exit
#   OUT=DIR                    where gpu_check.json goes (default ./gpu_check_out); rewritten after every stage
#   GPU_CHECK_PYTHON=python    the interpreter with torch + transformers (default: .venv's if present, else python3)
#   GPU_CHECK_TIMEOUT=SECONDS  hard limit (default 420); SIGTERM still writes the report
# Prints `BENCH <name> <value> <unit> goal <op><target> met|missed` lines; exit 0 only if every stage passed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n ${GPU_CHECK_PYTHON:-} ]]; then PY=$GPU_CHECK_PYTHON
elif [[ -x .venv/bin/python ]]; then PY=.venv/bin/python
else PY=python3; fi
WHEELS=.cache/gpu_check/wheels
if [[ " $* " == *" --fetch-wheels "* ]]; then
  mkdir -p "$WHEELS"
  "$PY" -m pip download --no-deps -d "$WHEELS" fla-core==0.6.0 flash-linear-attention==0.6.0 einops
  du -sh "$WHEELS"
  exit 0
fi
OUT="${OUT:-$PWD/gpu_check_out}"
mkdir -p "$OUT"
export OUT HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
# The carried wheels are pure Python: unpack them (no pip, no network) into a temporary directory put on the path;
# Triton's compiled kernels go next to it (not into OUT, whose files travel back).
if compgen -G "$WHEELS/*.whl" >/dev/null; then
  SITE="$(mktemp -d)/site"
  "$PY" - "$SITE" "$WHEELS"/*.whl <<'PY'
import sys
import zipfile

for wheel in sys.argv[2:]:
    zipfile.ZipFile(wheel).extractall(sys.argv[1])
PY
  trap 'rm -rf "$(dirname "$SITE")"' EXIT
  export GPU_CHECK_SITE="$SITE" PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
  export TRITON_CACHE_DIR="${TRITON_CACHE_DIR:-$(dirname "$SITE")/triton}"
fi
if [[ " $* " != *" --cpu-smoke "* && " $* " != *" --estimate "* ]] && command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv,noheader 2>/dev/null \
    | sed 's/^/[gpu_check] gpu: /' >&2 || true
fi
set +e
timeout --signal=TERM --kill-after=20 "${GPU_CHECK_TIMEOUT:-420}" "$PY" scripts/gpu_check.py --out "$OUT" "$@"
rc=$?
set -e
[[ $rc -eq 124 || $rc -eq 143 ]] && echo "[gpu_check] stopped at the ${GPU_CHECK_TIMEOUT:-420} s limit; $OUT/gpu_check.json has the stages that finished" >&2
exit $rc
