"""The verl recipes and the dry-run resource plan: main venv, no verl, not slow."""

from __future__ import annotations

import subprocess
import sys

import pytest

from swerl.config import VerlConfig, load_recipe
from swerl.errors import ConfigError
from swerl.train.backends.verl.plan import dry_run_text, estimate_params, render_plan, resource_plan
from swerl.train.backends.verl.settings import CPU_VLLM_WORKER_EXTENSION, cpu_vllm_overrides, verl_overrides


def _overrides(recipe_name: str, *sets: str) -> dict[str, str]:
    return dict(x.split("=", 1) for x in verl_overrides(load_recipe(recipe_name, list(sets))))


def test_qwen9b_recipe_is_al1_setup() -> None:
    r = load_recipe("qwen9b")
    assert r.train.backend == "verl" and r.train.mode == "collocated"
    assert r.model.path == "Qwen/Qwen3.5-9B" and r.rollout.harness == "mini-swe-agent"
    assert (r.rollout.n_per_task, r.rollout.temperature) == (8, 1.0)
    assert (r.algorithm.name, r.algorithm.advantage_level, r.algorithm.loss_agg) == ("grpo", "rollout", "rollout-mean")
    assert r.sandbox.backend in ("docker", "kubernetes") and r.sandbox.network_allow == []
    assert r.model.max_context >= 32768 and r.data.val_split == "test"
    assert (r.inference.engine, r.inference.model) == ("openai", "policy")  # verl's vLLM replicas, not embedded


def test_qwen9b_sao_recipe_has_sao_coding_settings() -> None:
    r = load_recipe("qwen9b-sao")
    a = r.algorithm
    assert (a.name, a.policy_loss, r.rollout.n_per_task) == ("sao", "dis", 1)
    assert (a.dis_eps_low, a.dis_eps_high, a.value_lr, r.train.lr) == (0.8, 3.0, 5e-6, 1e-6)
    assert (a.critic_updates, a.critic_warmup_steps) == (2, 10)
    assert r.verl.strategy == "fsdp2"


def test_tiny_recipe_keeps_verl_defaults_and_section_forbids_typos() -> None:
    assert load_recipe("tiny").verl == VerlConfig()
    with pytest.raises(ConfigError, match=r"verl\.gpus_per_nod"):
        load_recipe("qwen9b", ["verl.gpus_per_nod=4"])
    with pytest.raises(ConfigError, match=r"verl\.rollout_gpu_memory_utilization"):
        load_recipe("qwen9b", ["verl.rollout_gpu_memory_utilization=1.5"])
    assert load_recipe("qwen9b", ["verl.nnodes=4"]).verl.nnodes == 4


@pytest.mark.parametrize("name", ["qwen9b", "qwen9b-sao"])
def test_plan_renders_and_fits_on_one_8x80_node(name: str) -> None:
    plan = resource_plan(load_recipe(name))
    text = render_plan(plan)
    assert plan.fits, text
    assert plan.gpus == 8 and plan.vllm_replicas == 8 and plan.data_parallel == 4
    assert "8 = 1 node(s) x 8, 80 GiB" in text and "sandboxes       128 x docker" in text
    assert max(plan.update_gib, plan.rollout_gib) < 80
    assert ("critic" in text) == (name == "qwen9b-sao")
    # 9B parameters under FSDP over 8 GPUs: 4 B/param of fp32 weights per GPU
    w = next(x for x in plan.update_lines if x.name.startswith("actor weights"))
    assert w.gib == pytest.approx(9e9 * 4 / 8 / 2**30)


def test_plan_flags_recipes_that_cannot_run() -> None:
    bad = resource_plan(load_recipe("qwen9b", ["verl.ulysses_sp=3", "verl.max_token_len_per_gpu=8192"]))
    assert not bad.fits
    assert any("ulysses_sp=3 does not divide" in x for x in bad.issues)
    assert any("max_context=65536 exceeds" in x for x in bad.issues)
    small = resource_plan(load_recipe("qwen9b", ["verl.gpu_memory_gb=24", "verl.gpus_per_node=1"]))
    assert not small.fits and any("per GPU >" in x for x in small.issues)
    assert any("no group baseline" in x for x in resource_plan(load_recipe("qwen9b", ["rollout.n_per_task=1"])).issues)
    multi = resource_plan(load_recipe("qwen9b", ["verl.nnodes=4"]))
    assert multi.gpus == 32 and any("kubernetes" in w for w in multi.warnings)
    assert "PROBLEM" in render_plan(bad) and "fits: NO" in render_plan(bad)


def test_plan_for_the_cpu_torch_recipe() -> None:
    plan = resource_plan(load_recipe("tiny"))
    assert plan.fits and plan.gpus == 0 and plan.vllm_replicas == 0
    assert plan.params_estimated and plan.params_b * 1e9 == estimate_params(64, 2, 8192)
    assert "none (CPU)" in render_plan(plan)


def test_overrides_map_the_recipe_onto_verl_keys() -> None:
    o = _overrides("qwen9b")
    assert o["algorithm.adv_estimator"] == "swerl_grpo"
    assert o["actor_rollout_ref.actor.policy_loss.loss_mode"] == "swerl_ppo"
    assert (o["actor_rollout_ref.actor.clip_ratio_low"], o["actor_rollout_ref.actor.clip_ratio_high"]) == ("0.2", "0.28")
    assert o["actor_rollout_ref.rollout.n"] == "8" and o["actor_rollout_ref.rollout.max_model_len"] == "65536"
    assert o["actor_rollout_ref.actor.ppo_epochs"] == "1" and o["critic.enable"] == "false"
    s = _overrides("qwen9b-sao")
    assert s["actor_rollout_ref.actor.policy_loss.loss_mode"] == "swerl_dis"
    assert (s["actor_rollout_ref.actor.clip_ratio_low"], s["actor_rollout_ref.actor.clip_ratio_high"]) == ("0.8", "3.0")
    assert (s["critic.enable"], s["critic.optim.lr"], s["critic.ppo_epochs"]) == ("true", "5e-06", "2")
    assert _overrides("qwen9b", "algorithm.name=rloo")["algorithm.adv_estimator"] == "swerl_rloo"
    assert o["++actor_rollout_ref.rollout.engine_kwargs.vllm.served_model_name"] == "policy"
    user = verl_overrides(load_recipe("qwen9b", ["verl.overrides=[trainer.save_freq=5]"]))
    assert user[-1] == "trainer.save_freq=5"  # the escape hatch is applied last
    with pytest.raises(ConfigError, match="max_tokens"):
        verl_overrides(load_recipe("qwen9b", ["rollout.max_tokens=70000"]))
    # the driver applies the asymmetric advantage before verl sees the batch (loop.update.rl_update), so verl
    # accepts it and its config does not change; the rollout correction rides on the batch the same way
    base = verl_overrides(load_recipe("qwen9b"))
    assert verl_overrides(load_recipe("qwen9b", ["algorithm.negative_advantage_scale=0.1"])) == base
    assert verl_overrides(load_recipe("qwen9b", ["algorithm.rollout_correction=tis"])) == base


def test_tiny_verl_serves_from_swerl_replicas_behind_verls_interface() -> None:
    """CPU runs: verl launches swerl's embedded engine as its replicas (vLLM needs a GPU), so the gateway's
    upstreams and every sleep, wake and weight sync are verl's; the driver loads no model."""
    r = load_recipe("tiny-verl")
    assert (r.inference.engine, r.verl.rollout_engine, r.train.device) == ("openai", "swerl", "cpu")
    o = _overrides("tiny-verl")
    assert o["actor_rollout_ref.rollout.name"] == "swerl"
    assert o["++actor_rollout_ref.rollout.engine_kwargs.swerl.served_model_name"] == "policy"
    assert "++actor_rollout_ref.rollout.engine_kwargs.vllm.served_model_name" not in o
    assert o["actor_rollout_ref.rollout.checkpoint_engine.backend"] == "naive"
    plan = resource_plan(r)
    assert plan.vllm_replicas == 2 and "2 swerl replica(s) x TP 1" in render_plan(plan)
    assert any(x.name.startswith("swerl engine weights") for x in plan.rollout_lines)
    with pytest.raises(ConfigError, match=r"verl\.rollout_engine"):
        load_recipe("tiny-verl", ["verl.rollout_engine=trtllm"])


VLLM_KW = "++actor_rollout_ref.rollout.engine_kwargs.vllm."


def test_qwen9b_vllm_launch_has_tool_calling_its_parser_the_served_name_and_no_vision_tower() -> None:
    """What verl's vLLM server forwards verbatim into `vllm serve` (`launch_server`: `engine_kwargs.vllm`
    -> `build_cli_args_from_config`). The harness sends `tools=[bash]`: without `--enable-auto-tool-choice`
    and a parser vLLM answers 400 to every call. Qwen3.5 writes `<tool_call><function=..><parameter=..>`,
    which vLLM parses with `qwen3_coder` (Qwen3EngineToolParser), not `hermes` (JSON inside <tool_call>)."""
    for name in ("qwen9b", "qwen9b-sao"):
        o = _overrides(name)
        assert o[VLLM_KW + "served_model_name"] == "policy"
        assert o[VLLM_KW + "enable_auto_tool_choice"] == "true"
        assert o[VLLM_KW + "tool_call_parser"] == "qwen3_coder"
        assert o[VLLM_KW + "limit_mm_per_prompt"] == "{image:0,video:0}"  # Hydra dict: every modality off
    off = _overrides("qwen9b", "verl.tool_call_parser=null")
    assert VLLM_KW + "enable_auto_tool_choice" not in off and VLLM_KW + "tool_call_parser" not in off
    assert _overrides("tiny-verl").keys().isdisjoint({VLLM_KW + "tool_call_parser"})  # swerl's engine: no flags


def test_tiny_verl_vllm_is_qwen9bs_settings_plus_the_named_cpu_vllm_differences() -> None:
    """tiny-verl-vllm goes through the same `verl_overrides` as qwen9b: the same keys (served name, tool calling,
    naive sync, ...), plus only what CPU vLLM cannot do (`cpu_vllm_overrides`), which qwen9b never gets."""
    r = load_recipe("tiny-verl-vllm")
    assert (r.inference.engine, r.verl.rollout_engine, r.train.device) == ("openai", "vllm", "cpu")
    assert r.rollout.harness == "mini-swe-agent" and r.model.hidden_size // r.model.num_heads == 64  # CPU kernel
    o, q = _overrides("tiny-verl-vllm"), _overrides("qwen9b")
    cpu = {k for k, _ in cpu_vllm_overrides(r)}
    assert set(o) == set(q) | cpu and not (cpu - {"actor_rollout_ref.rollout.free_cache_engine"}) & set(q)
    assert o[VLLM_KW + "served_model_name"] == "policy" and o[VLLM_KW + "enable_auto_tool_choice"] == "true"
    assert o[VLLM_KW + "tool_call_parser"] == "hermes"  # the tiny tokenizer's JSON tool-call template
    assert o["actor_rollout_ref.rollout.name"] == "vllm" and o["actor_rollout_ref.rollout.checkpoint_engine.backend"] == "naive"
    assert (o["actor_rollout_ref.rollout.free_cache_engine"], q["actor_rollout_ref.rollout.free_cache_engine"]) == (
        "false", "true")  # CPU vLLM cannot sleep
    assert o["++actor_rollout_ref.rollout.enable_sleep_mode"] == "false"
    assert o["actor_rollout_ref.rollout.enforce_eager"] == "true" and o[VLLM_KW + "compilation_config"] == (
        "{cudagraph_mode:NONE}")
    assert o["actor_rollout_ref.rollout.dtype"] == "float32" and o[VLLM_KW + "worker_extension_cls"] == (
        CPU_VLLM_WORKER_EXTENSION)


def test_sglang_is_selectable_with_its_own_parser_name() -> None:
    """verl 0.9.1 ships an SGLang replica; swerl passes the served name and SGLang's name for the same tool-call
    format (untested: SGLang does not install on this CPU machine, docs/verl.md)."""
    o = _overrides("qwen9b", "verl.rollout_engine=sglang")
    kw = "++actor_rollout_ref.rollout.engine_kwargs.sglang."
    assert o["actor_rollout_ref.rollout.name"] == "sglang" and o[kw + "served_model_name"] == "policy"
    assert o[kw + "tool_call_parser"] == "qwen3_coder"
    assert _overrides("qwen9b", "verl.rollout_engine=sglang", "verl.tool_call_parser=hermes")[kw + "tool_call_parser"] == "qwen25"
    assert "SGLang replica" in render_plan(resource_plan(load_recipe("qwen9b", ["verl.rollout_engine=sglang"])))


def test_package_imports_without_verl() -> None:
    code = ("import sys; import swerl.train.backends.verl as v; from swerl.train.backends.verl import settings; "
            "assert 'verl' not in sys.modules, 'verl imported'; print(v.resource_plan.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_dry_run_text_shows_recipe_plan_and_verl_overrides() -> None:
    text = dry_run_text(load_recipe("qwen9b", ["verl.nnodes=2"]))
    assert "# resolved recipe" in text and "path: Qwen/Qwen3.5-9B" in text and "nnodes: 2" in text
    assert "GPUs            16 = 2 node(s) x 8" in text
    assert "  algorithm.adv_estimator=swerl_grpo" in text and "  trainer.nnodes=2" in text
    tiny = dry_run_text(load_recipe("tiny"))
    assert "backend torch" in tiny and "verl overrides" not in tiny


def test_plan_follows_verls_phases_and_chooses_vllms_share() -> None:
    """Each update/sync/rollout line names the verl code it models; Adam is counted on the GPU during the update
    although the recipe offloads it (verl reloads it for the whole mini-batch); the logits are verl's bf16 ones,
    with a second buffer for their gradient because entropy is computed; the recipes use the recommended share."""
    for name in ("qwen9b", "qwen9b-sao"):
        plan = resource_plan(load_recipe(name))
        for line in (*plan.update_lines, *plan.rollout_lines, *plan.sync_lines):
            assert line.name == "headroom" or line.source.startswith("verl/"), line
        assert plan.recommended_utilization == load_recipe(name).verl.rollout_gpu_memory_utilization
        assert plan.fits and not plan.warnings
    plan = resource_plan(load_recipe("qwen9b"))
    lines = {x.name: x for x in plan.update_lines}
    gib = 2**30
    assert lines["actor Adam (fp32 m, v shard)"].gib == pytest.approx(8 * 9e9 / 8 / gib)  # ~8.4 GiB, offload or not
    assert "base.py:322-328" in lines["actor Adam (fp32 m, v shard)"].source
    assert lines["logits (bf16)"].gib == pytest.approx(32768 * 248320 * 2 / gib)  # ~15.2, not 30 GiB of fp32
    assert lines["logits gradient (bf16)"].gib == lines["logits (bf16)"].gib
    assert lines["embedding + LM head unsharded (bf16)"].gib == pytest.approx(4 * 248320 * 4096 * 2 / gib)
    assert "vLLM asleep (level 2)" in lines and [x.name for x in plan.sync_lines][1] == "vLLM weights (bf16, resumed)"
    # the rollout phase fills the GPU with vLLM's pool beside what the trainer keeps, up to the headroom
    assert plan.rollout_gib == pytest.approx(80, abs=0.8) and plan.rollout_gib <= 80
    old = resource_plan(load_recipe("qwen9b", ["verl.rollout_gpu_memory_utilization=0.55"]))
    assert any("leaves ~29 GiB per GPU idle" in w and "recommends 0.91" in w for w in old.warnings)
    over = resource_plan(load_recipe("qwen9b", ["verl.rollout_gpu_memory_utilization=0.95"]))
    assert not over.fits and any("0.95 > 0.91" in x for x in over.issues)
