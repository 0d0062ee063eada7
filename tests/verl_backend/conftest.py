"""verl lives in its own environment (`.venv-verl`, `scripts/setup-verl.sh`): its test modules are
collected only where verl is installed. `make test-full` runs them there; the main `.venv` (no
verl) collects only the recipe/plan tests, which need no verl. Tests of verl's vLLM replica need vLLM too
(`.venv-verl-vllm`)."""

from __future__ import annotations

import importlib.util

try:
    _HAVE_VERL = importlib.util.find_spec("verl.trainer.ppo.core_algos") is not None
except ModuleNotFoundError:
    _HAVE_VERL = False

try:  # verl's vLLM replica with a CPU vLLM beside it: `.venv-verl-vllm` (scripts/setup-verl-vllm.sh)
    _HAVE_VLLM = _HAVE_VERL and importlib.util.find_spec("vllm") is not None
except ModuleNotFoundError:
    _HAVE_VLLM = False

if _HAVE_VERL:
    collect_ignore_glob = ["test_verl_without_verl.py"] + (
        [] if _HAVE_VLLM else ["test_verl_vllm_launch.py", "test_verl_vllm_tiny_run.py"])
else:
    collect_ignore_glob = ["test_verl_algos.py", "test_verl_backend.py", "test_verl_config.py",
                           "test_verl_proto.py", "test_verl_update_path.py", "test_verl_cpu_run.py",
                           "test_verl_tiny_run.py", "test_verl_cpu_sao.py", "test_verl_cpu_replica.py",
                           "test_verl_runtime_env.py", "test_verl_vllm_launch.py", "test_verl_vllm_tiny_run.py"]
