#!/usr/bin/env bash
# Idempotent setup of .venv-harbor: harbor (Terminus-2) for `rollout.harness: terminus-2`, and the bwrap rootfs
# with tmux that Terminus-2 drives inside the sandbox.
#
# Why a second venv: harbor needs Python >= 3.12 and swerl's .venv is 3.11. Only harbor goes in (not swerl): the
# agent runs there as swerl/rollout/terminus_worker.py, which imports harbor and the standard library only, and
# sends every command back to the swerl process (docs/rollout.md, "Terminus-2").
#
# Usage: scripts/setup-harbor.sh            PYTHON=/path/to/python3.12 scripts/setup-harbor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv-harbor}"
HARBOR="harbor==0.25.0"   # keep in step with pyproject.toml's `terminus` extra
export PIP_DISABLE_PIP_VERSION_CHECK=1

find_python() {
  local c
  for c in "${PYTHON:-}" python3.13 python3.12 "$HOME"/.pyenv/versions/3.13*/bin/python "$HOME"/.pyenv/versions/3.12*/bin/python; do
    [[ -n $c ]] && command -v "$c" >/dev/null 2>&1 || continue
    "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo "$c"; return; }
  done
  return 1
}

stamp="$VENV/.swerl-setup-$(cat scripts/setup-harbor.sh | sha1sum | cut -c1-12)"
if [[ ! -f $stamp ]]; then
  py=$(find_python) || { echo "[setup-harbor] needs Python >= 3.12 (set PYTHON=...): harbor requires it" >&2; exit 1; }
  [[ -x $VENV/bin/python ]] || "$py" -m venv "$VENV"
  echo "[setup-harbor] install $HARBOR into $VENV ($("$VENV"/bin/python --version))"
  # uv where it can be had (seconds, not a minute), pip otherwise
  if [[ -x .venv/bin/uv ]] && .venv/bin/uv pip install --python "$VENV/bin/python" -q "$HARBOR"; then :; else
    "$VENV/bin/pip" install -q "$HARBOR" 2> >(grep -v "^WARNING: Location" >&2)
  fi
  "$VENV/bin/python" -c "from harbor.agents.terminus_2.terminus_2 import Terminus2; print('[setup-harbor] harbor', Terminus2.name())"
  rm -f "$VENV"/.swerl-setup-*
  touch "$stamp"
else
  echo "[setup-harbor] $VENV up to date"
fi
# tmux inside the sandbox: swerl's debootstrap rootfs plus tmux, built once into the shared cache
LITELLM_LOCAL_MODEL_COST_MAP=True .venv/bin/python -c "from swerl.rollout.terminus import terminus_rootfs; print('[setup-harbor] rootfs', terminus_rootfs())"
