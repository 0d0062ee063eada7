#!/usr/bin/env bash
# Idempotent setup of .venv-verl: swerl + the verl training backend (verl 0.9.x), kept apart from .venv.
#
# Why a second venv: verl 0.9.x pins transformers<5.11 and pulls ray/hydra/tensordict; the base
# install must not carry that (docs/verl.md). On a CPU box this runs verl's real workers (local Ray,
# FSDP2 over gloo, swerl's CPU platform plugin) for tests/verl_backend/ and `swerl train --recipe
# tiny-verl`. On GPU nodes use verl's own CUDA image (vLLM + flash-attn) and `pip install -e . --no-deps`.
#
# Usage: scripts/setup-verl.sh [extras]     (default extras: all,dev,verl)
#        VENV=.venv-verl PYTHON=python3 scripts/setup-verl.sh
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS="${1:-all,dev,verl}"
VENV="${VENV:-.venv-verl}"
PYTHON="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

stamp="$VENV/.swerl-setup-$(cat pyproject.toml scripts/setup-verl.sh | sha1sum | cut -c1-12)-${EXTRAS//,/_}"
if [[ -f $stamp ]]; then
  echo "[setup-verl] ok ($VENV up to date)"
  exit 0
fi
[[ -x $VENV/bin/python ]] || "$PYTHON" -m venv "$VENV"
quiet() { "$@" 2> >(grep -v "^WARNING: Location" >&2); }
# torch first, pinned to the CPU build that lies on disk (a bare "torch" requirement pulls CUDA).
quiet "$VENV/bin/pip" install -q torch==2.13.0
quiet "$VENV/bin/pip" install -q -e ".[${EXTRAS}]"
# verl's base requirements miss one module its rollout manager imports (cachetools, from verl[verl-core]);
# the rest of verl-core (TransferQueue, torchcodec, nvtx, ...) is for verl's own fit loop and GPUs.
quiet "$VENV/bin/pip" install -q cachetools
# The backend's Ray worker path imports uvicorn/fastapi (present via swerl's base deps) and ray;
# fail now, not in the first test, if the resolver produced something verl cannot import.
"$VENV/bin/python" - <<'PY'
import importlib
import sys

import torch
import transformers
import verl

mods = ["verl.trainer.ppo.core_algos", "verl.protocol", "verl.utils.seqlen_balancing",
        "verl.workers.utils.losses", "verl.workers.engine_workers", "verl.workers.rollout.llm_server",
        "verl.checkpoint_engine", "ray", "hydra"]
for m in mods:
    importlib.import_module(m)
major_minor = tuple(int(x) for x in verl.__version__.split(".")[:2])
if major_minor != (0, 9):
    sys.exit(f"[setup-verl] expected verl 0.9.x, got {verl.__version__}")
print(f"[setup-verl] verl {verl.__version__}, torch {torch.__version__}, transformers {transformers.__version__}")
PY
rm -f "$VENV"/.swerl-setup-*
touch "$stamp"
echo "[setup-verl] ok"
