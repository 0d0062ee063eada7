#!/usr/bin/env bash
# Idempotent setup for a fresh machine: system packages (apt) and the .venv.
# Usage: scripts/setup.sh [extras]   (default extras: all,dev)
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS="${1:-all,dev}"
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1

# --- system packages: bubblewrap (default sandbox), git, docker engine + debootstrap (docker tests)
need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v git >/dev/null || need+=(git)
command -v dockerd >/dev/null || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
if ((${#need[@]})); then
  if [[ $(id -u) -eq 0 ]]; then SUDO=""; else SUDO="sudo"; fi
  echo "[setup] apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# --- python environment
stamp=".venv/.swerl-setup-$(cat pyproject.toml | sha1sum | cut -c1-12)-${EXTRAS//,/_}"
if [[ ! -f $stamp ]]; then
  [[ -x .venv/bin/python ]] || python3 -m venv .venv
  # torch first, pinned to the CPU build that lies on disk (a bare "torch" pulls CUDA).
  .venv/bin/pip install -q torch==2.13.0 2> >(grep -v "^WARNING: Location" >&2)
  .venv/bin/pip install -q -e ".[${EXTRAS}]" 2> >(grep -v "^WARNING: Location" >&2)
  rm -f .venv/.swerl-setup-*
  touch "$stamp"
fi
echo "[setup] ok"
