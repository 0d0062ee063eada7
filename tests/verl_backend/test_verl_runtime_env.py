"""verl's Ray runtime env reaches swerl's `ray.init` (in .venv-verl; quick: composes a config, starts no Ray)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from swerl.config import load_recipe
from swerl.train.backends.verl.verl_config import build_verl_config, ray_runtime_env


def test_ray_runtime_env_is_verls_own_plus_swerls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from verl.trainer.constants_ppo import PPO_RAY_RUNTIME_ENV

    monkeypatch.delenv("VLLM_DISABLE_COMPILE_CACHE", raising=False)  # verl drops keys the shell already sets
    cfg = build_verl_config(load_recipe("qwen9b"), model_path=str(tmp_path), checkpoint_dir=str(tmp_path / "c"))
    env = ray_runtime_env(cfg, {"TOKENIZERS_PARALLELISM": "false", "SWERL_X": "1"})
    assert env["env_vars"]["VLLM_DISABLE_COMPILE_CACHE"] == "1"  # verl's vLLM compile-cache workaround
    assert env["env_vars"]["TOKENIZERS_PARALLELISM"] == "false" and env["env_vars"]["SWERL_X"] == "1"  # swerl's win
    inherited = {k for k in PPO_RAY_RUNTIME_ENV["env_vars"] if k in os.environ}  # verl leaves those to the shell
    assert set(PPO_RAY_RUNTIME_ENV["env_vars"]) - inherited <= set(env["env_vars"])

