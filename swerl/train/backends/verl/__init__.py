"""The verl training backend (issue 8): swerl's RL core on verl's Ray/FSDP/vLLM workers.

Importing this package does not import verl (it lives in its own environment,
`.venv-verl`; see docs/verl.md). The pure pieces are importable anywhere:

- `plan.dry_run_text(recipe)`: what `swerl train --dry-run` prints (resolved recipe,
  `plan.resource_plan` rendered by `plan.render_plan`, verl overrides).
- `settings.verl_overrides(recipe)`: the verl trainer-config overrides a recipe maps to.

The rest import verl when first used:

- `algos`: swerl's rollout-level GRPO/RLOO as a registered advantage estimator, swerl's
  PPO-clip and SAO DIS as registered policy losses with whole-step denominators, and
  the actor/critic loss functions handed to verl's workers.
- `proto`: swerl `Sample`s -> verl `DataProto` / `TensorDict` with provenance, whole
  rollouts per data-parallel rank.
- `critic`: SAO's frozen-attention value model as a verl engine.
- `backend.VerlBackend`: the `TrainingBackend` driving verl's workers.
- `cpu_platform`: verl's platform plugin for CPU (gloo, logical GPUs), so the real workers
  run without a GPU (`train.device: cpu`, `recipes/tiny-verl.yaml`).
- `replica`: swerl's embedded engine registered as a verl rollout backend (`rollout.name: swerl`),
  so verl's replica manager, sleep/wake and weight sync run on CPU too.
- `node_check`: one short run on a GPU node that has verl + vLLM (docs/verl.md).
"""

from swerl.train.backends.verl.plan import MemoryLine, ResourcePlan, dry_run_text, render_plan, resource_plan

__all__ = ["MemoryLine", "ResourcePlan", "dry_run_text", "render_plan", "resource_plan"]
