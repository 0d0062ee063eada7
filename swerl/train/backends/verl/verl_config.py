"""Compose verl's own trainer config from a recipe (imports verl and Hydra).

The config is verl's `ppo_trainer.yaml`, composed by Hydra with `settings.verl_overrides`,
so every default, interpolation and validation is verl's, not a copy kept in swerl. The
dataclass views (`actor_config`, `critic_config`) run verl's own
`__post_init__` checks, which is how a recipe is validated against verl on CPU.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from swerl.errors import ConfigError
from swerl.train.backends.verl.settings import verl_overrides

if TYPE_CHECKING:
    from omegaconf import DictConfig

    from swerl.config import Recipe


def verl_config_dir() -> str:
    """The directory of verl's Hydra trainer configs."""
    import verl

    return os.path.join(os.path.dirname(verl.__file__), "trainer", "config")


def compose(overrides: list[str], config_name: str = "ppo_trainer") -> DictConfig:
    """Hydra-compose verl's trainer config with `overrides`; a bad key is a `ConfigError` naming it."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    if GlobalHydra.instance().is_initialized():  # a caller's Hydra app: compose in a fresh context
        GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=verl_config_dir(), version_base=None):
            return hydra_compose(config_name=config_name, overrides=overrides)
    except (HydraException, OmegaConfBaseException) as exc:
        raise ConfigError(f"verl config: {exc}") from exc


def build_verl_config(recipe: Recipe, *, model_path: str | None = None, checkpoint_dir: str | None = None,
                      extra: list[str] | None = None) -> DictConfig:
    """verl's trainer config for `recipe`; `extra` overrides go after the recipe's own."""
    return compose(verl_overrides(recipe, model_path=model_path, checkpoint_dir=checkpoint_dir) + list(extra or []))


def _dataclass(node: Any, what: str) -> Any:
    from verl.utils.config import omega_conf_to_dataclass

    try:
        return omega_conf_to_dataclass(node)
    except Exception as exc:  # hydra wraps verl's AssertionError/ValueError in InstantiationException
        raise ConfigError(f"verl {what} config: {exc}") from exc


def actor_config(cfg: DictConfig) -> Any:
    """`verl.workers.config.ActorConfig` (FSDP flavour) with verl's validation."""
    return _dataclass(cfg.actor_rollout_ref.actor, "actor")


def critic_config(cfg: DictConfig) -> Any:
    """`verl.workers.config.CriticConfig` with verl's validation."""
    return _dataclass(cfg.critic, "critic")


def critic_worker_config(cfg: DictConfig) -> tuple[Any, Any]:
    """(CriticConfig, TrainingWorkerConfig) for SAO's critic worker: verl's value engine under swerl's model
    type (frozen attention, `critic.FrozenAttentionValueEngine`), token budgets as verl's own trainer sets them."""
    from verl.workers.engine_workers import TrainingWorkerConfig

    from swerl.train.backends.verl.settings import CRITIC_MODEL_TYPE

    c_cfg = critic_config(cfg)
    c_cfg.engine.infer_max_token_len_per_gpu = c_cfg.ppo_infer_max_token_len_per_gpu
    c_cfg.engine.max_token_len_per_gpu = c_cfg.ppo_max_token_len_per_gpu
    worker = TrainingWorkerConfig(model_type=CRITIC_MODEL_TYPE, model_config=c_cfg.model, engine_config=c_cfg.engine,
                                  optimizer_config=c_cfg.optim, checkpoint_config=c_cfg.checkpoint)
    return c_cfg, worker


def ray_runtime_env(cfg: Any, env: dict[str, str]) -> dict[str, Any]:
    """verl's own Ray runtime env for its workers (`get_ppo_ray_runtime_env`, what `verl.trainer.main_ppo`
    passes to `ray.init`: vLLM's compile-cache workaround, NCCL/vLLM log levels, determinism switches),
    with swerl's `env` on top. Taken from verl, not copied, so a verl upgrade brings its fixes along."""
    from verl.trainer.constants_ppo import get_ppo_ray_runtime_env

    runtime_env = dict(get_ppo_ray_runtime_env(cfg))
    runtime_env["env_vars"] = {**runtime_env.get("env_vars", {}), **env}
    return runtime_env


__all__ = ["actor_config", "build_verl_config", "compose", "critic_config", "critic_worker_config", "ray_runtime_env",
           "verl_config_dir"]
