"""The verl training backend: swerl's RL core on verl's Ray/FSDP/vLLM workers (docs/verl.md).

Importing this package does not import verl (it lives in `.venv-verl`): `plan` and `settings`
are pure and importable anywhere; `algos`, `loss_fns`, `proto`, `critic`, `backend`,
`cpu_platform` and `replica` import verl when first used (the GPU node check is `scripts/verl_node_check.py`).
"""

from swerl.train.backends.verl.plan import MemoryLine, ResourcePlan, dry_run_text, render_plan, resource_plan

__all__ = ["MemoryLine", "ResourcePlan", "dry_run_text", "render_plan", "resource_plan"]
