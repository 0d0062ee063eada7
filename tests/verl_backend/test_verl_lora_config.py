"""`model.lora` becomes verl's own LoRA settings in the config translation (docs/algorithms.md sec. 12); no verl
needed: this checks the override list `verl_overrides` hands to verl's config composition."""

from __future__ import annotations

import pytest

from swerl.config import load_recipe
from swerl.errors import ConfigError
from swerl.train.backends.verl.settings import verl_overrides


def _kv(overrides: list[str]) -> dict[str, str]:
    return dict(o.split("=", 1) for o in verl_overrides(load_recipe("tiny-verl", overrides)))


def test_lora_maps_to_verl_model_settings() -> None:
    kv = _kv(["model.lora.rank=8", "model.lora.alpha=32", "model.lora.target_modules=[q_proj,v_proj]"])
    assert kv["actor_rollout_ref.model.lora_rank"] == "8"
    assert float(kv["actor_rollout_ref.model.lora_alpha"]) == 32.0
    assert "q_proj" in kv["actor_rollout_ref.model.target_modules"]
    assert "v_proj" in kv["actor_rollout_ref.model.target_modules"]
    assert "k_proj" not in kv["actor_rollout_ref.model.target_modules"]


def test_no_lora_settings_when_off_and_dropout_refused() -> None:
    assert not any("lora" in k for k in _kv([]))
    with pytest.raises(ConfigError, match=r"model\.lora\.dropout"):
        _kv(["model.lora.rank=8", "model.lora.dropout=0.1"])
