"""Recipes composed into verl's own trainer config and validated by verl's dataclasses; the verl API the backend uses."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from swerl.config import load_recipe
from swerl.errors import ConfigError
from swerl.train.backends.verl.settings import CRITIC_MODEL_TYPE
from swerl.train.backends.verl.verl_config import (
    actor_config,
    build_verl_config,
    critic_config,
    critic_worker_config,
)

if TYPE_CHECKING:
    from omegaconf import DictConfig

pytestmark = pytest.mark.slow


def rollout_config(cfg: DictConfig) -> Any:
    """`verl.workers.config.RolloutConfig` with verl's validation (what the rollout workers build)."""
    from verl.utils.config import omega_conf_to_dataclass

    return omega_conf_to_dataclass(cfg.actor_rollout_ref.rollout)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local HF model config (what verl's HFModelConfig reads for the critic); no weights needed."""
    from transformers import Qwen2Config

    d = tmp_path_factory.mktemp("tiny-qwen")
    Qwen2Config(vocab_size=96, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=2, architectures=["Qwen2ForCausalLM"]).save_pretrained(d)
    return d


def test_qwen9b_composes_and_validates_in_verl(model_dir: Path) -> None:
    from verl.trainer.ppo.core_algos import get_adv_estimator_fn, get_policy_loss_fn

    import swerl.train.backends.verl.algos  # noqa: F401  (registers the names the config refers to)

    cfg = build_verl_config(load_recipe("qwen9b"), model_path=str(model_dir), checkpoint_dir="/tmp/ckpt")
    a, r = actor_config(cfg), rollout_config(cfg)
    assert (a.strategy, a.policy_loss.loss_mode, a.clip_ratio_low, a.clip_ratio_high) == ("fsdp2", "swerl_ppo", 0.2, 0.28)
    assert a.use_dynamic_bsz and a.ppo_epochs == 1 and not a.shuffle and a.optim.lr == 1e-6
    assert a.engine.ulysses_sequence_parallel_size == 2 and a.engine.optimizer_offload
    assert (r.name, r.n, r.temperature, r.max_model_len, r.tensor_model_parallel_size) == ("vllm", 8, 1.0, 65536, 1)
    assert r.checkpoint_engine.backend == "naive" and r.free_cache_engine and r.logprobs_mode == "raw_logprobs"
    assert r.engine_kwargs["vllm"]["served_model_name"] == "policy"  # what the gateway and the loop ask for
    # what verl's vLLM server reads (`launch_server`: engine_kwargs.vllm, forwarded into `vllm serve`)
    kw = {k: v for k, v in dict(r.engine_kwargs["vllm"]).items() if v is not None}
    assert kw["enable_auto_tool_choice"] is True and kw["tool_call_parser"] == "qwen3_coder"
    assert dict(kw["limit_mm_per_prompt"]) == {"image": 0, "video": 0} and not r.get("limit_images")
    assert cfg.trainer.n_gpus_per_node == 8 and cfg.trainer.default_local_dir == "/tmp/ckpt"
    assert not cfg.critic.enable
    get_adv_estimator_fn(cfg.algorithm.adv_estimator)  # the names resolve in verl's registries
    get_policy_loss_fn(a.policy_loss.loss_mode)


def test_qwen9b_sao_composes_with_a_frozen_attention_critic(model_dir: Path) -> None:
    cfg = build_verl_config(load_recipe("qwen9b-sao"), model_path=str(model_dir))
    a, c = actor_config(cfg), critic_config(cfg)
    assert (a.policy_loss.loss_mode, a.clip_ratio_low, a.clip_ratio_high, a.optim.lr) == ("swerl_dis", 0.8, 3.0, 1e-6)
    assert (c.optim.lr, c.ppo_epochs, c.strategy) == (5e-6, 2, "fsdp2")
    assert c.engine.use_orig_params and c.model.path == str(model_dir)
    assert cfg.critic.enable and cfg.trainer.critic_warmup == 10 and cfg.actor_rollout_ref.rollout.n == 1
    _, worker = critic_worker_config(cfg)
    assert worker.model_type == CRITIC_MODEL_TYPE and worker.engine_config.strategy == "fsdp2"
    assert worker.engine_config.use_dynamic_bsz and worker.engine_config.max_token_len_per_gpu == 32768


def test_entropy_reaches_the_engine_chunked_and_recomputed_as_the_plan_counts(model_dir: Path) -> None:
    """The entropy metric must never hold a tokens x vocabulary softmax for backward (30 GiB at 32k x 248k):
    the engine config verl's workers build from the actor config has chunking and checkpointing on, and
    the chunk is the one the resource plan counts."""
    from verl.utils.torch_functional import entropy_from_logits_with_chunking

    from swerl.train.backends.verl.plan import ENTROPY_CHUNK, resource_plan

    e = actor_config(build_verl_config(load_recipe("qwen9b"), model_path=str(model_dir))).engine
    assert e.entropy_from_logits_with_chunking and e.entropy_checkpointing
    assert e.entropy_from_logits_chunk_size == ENTROPY_CHUNK
    # with checkpointing, verl calls the chunked function with its default chunk: the same size
    assert inspect.signature(entropy_from_logits_with_chunking).parameters["chunk_size"].default == ENTROPY_CHUNK
    lines = {x.name: x for x in resource_plan(load_recipe("qwen9b")).update_lines}
    assert lines["entropy chunk (fp32)"].gib == pytest.approx(ENTROPY_CHUNK * 248320 * 8 / 2**30)
    assert "logits gradient (bf16)" in lines


def test_swerl_replicas_compose_and_resolve_in_verls_registries(model_dir: Path) -> None:
    from verl.workers.rollout.base import get_rollout_class
    from verl.workers.rollout.replica import get_rollout_replica_class

    from swerl.train.backends.verl.replica import SwerlReplica, SwerlServerAdapter

    r = rollout_config(build_verl_config(load_recipe("tiny-verl"), model_path=str(model_dir)))
    assert (r.name, r.mode, r.checkpoint_engine.backend, r.free_cache_engine) == ("swerl", "async", "naive", True)
    assert r.engine_kwargs["swerl"] == {"served_model_name": "policy", "seed": 0, "threads": 1}
    assert "dummy" in r.load_format  # replicas start without weights: verl's first sync brings them
    assert get_rollout_replica_class("swerl") is SwerlReplica
    assert get_rollout_class("swerl", "async") is SwerlServerAdapter


def test_bad_overrides_are_config_errors_naming_the_key(model_dir: Path) -> None:
    with pytest.raises(ConfigError, match="no_such_key"):
        build_verl_config(load_recipe("qwen9b"), model_path=str(model_dir),
                          extra=["actor_rollout_ref.actor.no_such_key=1"])
    cfg = build_verl_config(load_recipe("qwen9b", ["verl.overrides=[actor_rollout_ref.actor.use_dynamic_bsz=false]"]),
                            model_path=str(model_dir))
    assert not cfg.actor_rollout_ref.actor.use_dynamic_bsz  # the user's overrides come last and win
    with pytest.raises(ConfigError, match="verl actor config"):  # ... and verl's own validation still applies
        actor_config(cfg)


def _params(obj: object) -> set[str]:
    return set(inspect.signature(obj).parameters)  # type: ignore[arg-type]


def test_the_verl_api_the_backend_drives_exists() -> None:
    """A contract check against API drift: every verl entry point `VerlBackend.start/update` calls, with its arguments."""
    from verl.checkpoint_engine import CheckpointEngineManager
    from verl.single_controller.ray import RayClassWithInitArgs, RayResourcePool, RayWorkerGroup
    from verl.workers.engine import EngineRegistry
    from verl.workers.engine_workers import TrainingWorkerConfig
    from verl.workers.rollout.llm_server import LLMServerManager

    from swerl.train.backends.verl.critic import ActorWorker, CriticWorker, FrozenAttentionValueEngine

    assert {"process_on_nodes", "use_gpu", "max_colocate_count", "name_prefix"} <= _params(RayResourcePool)
    assert {"resource_pool", "ray_cls_with_init", "kwargs"} <= _params(RayWorkerGroup)
    assert 'kwargs.get("device_name"' in inspect.getsource(RayWorkerGroup.__init__)
    assert {"cls"} <= _params(RayClassWithInitArgs)
    assert {"model_type", "model_config", "engine_config", "optimizer_config", "checkpoint_config"} <= _params(
        TrainingWorkerConfig)
    assert {"config", "worker_group", "rollout_resource_pool"} <= _params(LLMServerManager.__init__)
    assert {"config", "actor_wg", "replicas"} <= _params(CheckpointEngineManager.__init__)
    for m in ("sleep_replicas", "update_weights"):
        assert callable(getattr(CheckpointEngineManager, m))
    assert callable(LLMServerManager.get_addresses) and callable(LLMServerManager.get_replicas)
    for m in ("init_model", "set_loss_fn", "update_actor", "save_checkpoint", "load_checkpoint", "update_weights"):
        assert callable(getattr(ActorWorker, m))
    for m in ("reset", "set_loss_fn", "infer_batch", "train_mini_batch", "save_checkpoint", "load_checkpoint"):
        assert callable(getattr(CriticWorker, m))
    assert {"local_path", "global_step"} <= _params(ActorWorker.save_checkpoint)
    assert {"local_path", "del_local_after_load"} <= _params(CriticWorker.load_checkpoint)
    assert EngineRegistry._engines[CRITIC_MODEL_TYPE]["fsdp2"]["cuda"] is FrozenAttentionValueEngine
    assert "mini_batch_size" in inspect.getsource(CriticWorker.train_mini_batch)  # the keys proto.py sets
    assert "epochs" in inspect.getsource(CriticWorker.train_mini_batch)
    # the replica interface swerl's replica implements, and the calls verl's naive sync makes on it
    from verl.workers.rollout.base import BaseRollout
    from verl.workers.rollout.replica import RolloutReplica

    assert {"resume", "release", "update_weights"} <= BaseRollout.__abstractmethods__
    assert "launch_servers" in RolloutReplica.__abstractmethods__
    sync = inspect.getsource(ActorWorker.update_weights)
    for call in ('self.rollout.resume(tags=["weights"])', "self.rollout.update_weights(",
                 'self.rollout.resume(tags=["kv_cache"])', "get_per_tensor_param("):
        assert call in sync, call
