"""verl lives in its own environment (`.venv-verl`, `scripts/setup-verl.sh`): its test modules are
collected only where verl is installed. `make test-full` runs them there; the main `.venv` (no
verl) collects only the recipe/plan tests, which need no verl."""

from __future__ import annotations

import importlib.util

try:
    _HAVE_VERL = importlib.util.find_spec("verl.trainer.ppo.core_algos") is not None
except ModuleNotFoundError:
    _HAVE_VERL = False

if _HAVE_VERL:
    collect_ignore_glob = ["test_verl_without_verl.py"]
else:
    collect_ignore_glob = ["test_verl_algos.py", "test_verl_backend.py", "test_verl_config.py",
                           "test_verl_proto.py", "test_verl_update_path.py", "test_verl_cpu_run.py",
                           "test_verl_tiny_run.py", "test_verl_cpu_sao.py", "test_verl_cpu_replica.py",
                           "test_verl_runtime_env.py"]
