#!/usr/bin/env bash
# Idempotent setup for a fresh machine: system packages (apt) and the .venv.
# Usage: scripts/setup.sh [extras]   (default extras: all,dev)
# Prints one line per step as it starts and when it ends (with seconds taken), so a log shows
# where the minutes go; steps with nothing to do say so.
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS="${1:-all,dev}"
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1
T0=$SECONDS
step_start() { STEP_T=$SECONDS; echo "[setup] $1 ..."; }
step_done() { echo "[setup]   done in $((SECONDS - STEP_T)) s${1:+ ($1)}"; }

# --- system packages: bubblewrap (default sandbox), git, docker engine + debootstrap (docker tests),
#     chromium (headless browser tests of `swerl view`)
need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v git >/dev/null || need+=(git)
command -v dockerd >/dev/null || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v chromium >/dev/null || need+=(chromium)
if ((${#need[@]})); then
  if [[ $(id -u) -eq 0 ]]; then SUDO=""; else SUDO="sudo"; fi
  step_start "apt-get update"
  $SUDO apt-get update -qq
  step_done
  step_start "apt-get install ${need[*]}"
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  note=""
  [[ " ${need[*]} " == *" docker.io "* ]] && note="docker.io is installed, not started: tests start their own dockerd; to use it: sudo systemctl start docker (or sudo dockerd &)"
  step_done "$note"
else
  echo "[setup] system packages: bubblewrap, git, docker.io, debootstrap, chromium already installed"
fi

# --- python environment
stamp=".venv/.swerl-setup-$(cat pyproject.toml | sha1sum | cut -c1-12)-${EXTRAS//,/_}"
if [[ ! -f $stamp ]]; then
  if [[ ! -x .venv/bin/python ]]; then
    step_start "python3 -m venv .venv"
    python3 -m venv .venv
    step_done
  fi
  # torch first, pinned to the CPU build that lies on disk (a bare "torch" pulls CUDA).
  step_start "pip install torch==2.13.0 (CPU build)"
  .venv/bin/pip install -q torch==2.13.0 2> >(grep -v "^WARNING: Location" >&2)
  step_done
  # The rest through uv (about 15 s against pip's 2-3 minutes on a 2-core machine: parallel downloads and
  # installs), with torch held at the build above; pip where uv cannot be had or fails (no network to PyPI).
  step_start "uv pip install -e .[${EXTRAS}] (pip if uv fails)"
  echo "torch==2.13.0" > .venv/torch-pin.txt
  if .venv/bin/pip install -q uv 2>/dev/null &&
     .venv/bin/uv pip install --python .venv/bin/python -q -c .venv/torch-pin.txt -e ".[${EXTRAS}]"; then
    step_done "uv"
  else
    .venv/bin/pip install -q -e ".[${EXTRAS}]" 2> >(grep -v "^WARNING: Location" >&2)
    step_done "pip"
  fi
  rm -f .venv/.swerl-setup-*
  touch "$stamp"
else
  echo "[setup] .venv is up to date with pyproject.toml (extras ${EXTRAS})"
fi
echo "[setup] ok ($((SECONDS - T0)) s)"
