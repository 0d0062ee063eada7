"""`scripts/gpu_check.sh`: the torch-only device check runs end to end on CPU before a GPU ever sees it, and its
full mode fits one 420 s call by its own estimate."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest
import torch

ROOT = Path(__file__).resolve().parents[2]
BENCH = re.compile(r"^BENCH \S+ \S+ \S+ goal (>=|<=)\S+ (met|missed)$")


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("swerl_gpu_check", ROOT / "scripts" / "gpu_check.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _env(out: Path) -> dict[str, str]:
    return {**os.environ, "OUT": str(out), "GPU_CHECK_PYTHON": sys.executable, "CUDA_VISIBLE_DEVICES": ""}


def test_cpu_smoke_runs_every_stage_and_reports(tmp_path: Path) -> None:
    proc = subprocess.run([str(ROOT / "scripts" / "gpu_check.sh"), "--cpu-smoke"], capture_output=True, text=True,
                          env=_env(tmp_path), timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((tmp_path / "gpu_check.json").read_text())
    assert report["status"] == "ok" and report["mode"] == "cpu-smoke"
    stages = report["stages"]
    assert list(stages) == ["env", "smoke.model", "smoke.update", "smoke.logprobs", "smoke.adam"]
    assert all(s["ok"] for s in stages.values())
    model = stages["smoke.model"]
    # Qwen3.5's hybrid layout (3 Gated DeltaNet layers, then full attention), as the 9B model has it
    assert model["architecture"] == "Qwen3_5ForCausalLM"
    assert model["layer_types"] == ["linear_attention"] * 3 + ["full_attention"]
    assert model["linear_attention"]["fast"] is False  # CPU: transformers' torch kernels (FLA needs a GPU)
    step = stages["smoke.update"]
    assert step["loss_finite"] and step["tokens"] == 128 and step["tokens_per_s"] > 0 and step["entropy_mean"] > 0
    lp = stages["smoke.logprobs"]  # torch's chunked and recurrent fallbacks agree in fp32 on CPU
    assert lp["decode_tokens"] == 8 and lp["max_abs_logprob_diff"] < 1e-4 and lp["frac_outside_tis_2"] == 0.0
    adam = stages["smoke.adam"]
    assert adam["shard_params"] == 1 << 16 and adam["adam_states_bytes"] == 8 << 16 and adam["h2d_gb_per_s"] > 0
    bench = [ln for ln in proc.stdout.splitlines() if ln.startswith("BENCH")]
    assert bench and all(BENCH.match(ln) for ln in bench), proc.stdout
    assert bench == report["bench"] and any(ln.startswith("BENCH gpu_check_total_s") for ln in bench)


def test_full_mode_fits_one_420_s_call_by_its_own_estimate() -> None:
    proc = subprocess.run([str(ROOT / "scripts" / "gpu_check.sh"), "--estimate"], capture_output=True, text=True,
                          env=_env(Path("/nonexistent")), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    est = json.loads(proc.stdout.splitlines()[0])
    assert est["total_s"] <= 420 and est["compile_s"] > 0 and est["preflight_s"] > 0 and est["full_update_s"] > 0
    assert est["layers"] >= 4 and est["layers"] % 4 == 0
    assert proc.stdout.splitlines()[1].endswith("goal <=420 met")
    gc = _module()  # the full pass is 65,536 tokens and 8-way Adam shards of the 9B model
    fp = gc.full_plan()
    assert fp["seq"] == 65536 and fp["shard"] == fp["n_full"]["total"] // 8


def test_sigterm_still_leaves_the_report(tmp_path: Path) -> None:
    """A run stopped by the lease's time limit keeps the stages that finished (status says it was killed)."""
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "gpu_check.py"), "--cpu-smoke", "--seq", "16384",
                             "--out", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(tmp_path))
    path = tmp_path / "gpu_check.json"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # wait for an event (the model stage written), not for a time
            if path.is_file() and "smoke.model" in json.loads(path.read_text())["stages"]:
                break
            assert proc.poll() is None, proc.communicate()[1][-2000:]
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM
    report = json.loads(path.read_text())
    assert report["status"] == "killed by signal 15"
    assert report["stages"]["env"]["ok"] and report["stages"]["smoke.model"]["ok"]
    assert "smoke.adam" not in report["stages"]


def test_without_a_gpu_the_full_check_says_so(tmp_path: Path) -> None:
    proc = subprocess.run([str(ROOT / "scripts" / "gpu_check.sh"), "--preflight"], capture_output=True, text=True,
                          env=_env(tmp_path), timeout=300)
    assert proc.returncode == 2
    assert "use --cpu-smoke" in proc.stderr
    assert "no CUDA device" in json.loads((tmp_path / "gpu_check.json").read_text())["error"]


@pytest.mark.parametrize("entropy", [True, False])
def test_verl_like_head_matches_plain_cross_entropy(entropy: bool) -> None:
    """The chunked fp32 cross-entropy over bf16-sized logits gives log_softmax's numbers and gradients, whether its
    backward writes into the logits' buffer (verl without entropy) or a second one (with entropy)."""
    gc = _module()
    g = torch.Generator().manual_seed(0)
    hidden = torch.randn(37, 16, generator=g, requires_grad=True)
    weight = torch.randn(50, 16, generator=g, requires_grad=True)
    labels = torch.randint(0, 50, (37,), generator=g)
    coef = torch.randn(37, generator=g)
    logp, ent = gc.verl_head(hidden, weight, labels, entropy=entropy, chunk=8)
    (logp * coef).sum().backward()
    got = (logp.detach(), hidden.grad.clone(), weight.grad.clone())
    hidden.grad = weight.grad = None
    ref_lsm = torch.log_softmax(hidden @ weight.T, -1)
    ref = ref_lsm.gather(1, labels[:, None])[:, 0]
    (ref * coef).sum().backward()
    for a, b in zip(got, (ref.detach(), hidden.grad, weight.grad), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)
    if entropy:
        torch.testing.assert_close(ent, -(ref_lsm.exp() * ref_lsm).sum(-1).detach(), rtol=1e-5, atol=1e-6)
    else:
        assert ent is None


def test_qwen35_9b_sizes_what_fits_and_the_fast_path_probe() -> None:
    """The full-size config is Qwen3.5-9B (~9B parameters); the layer count shrinks to what memory holds at 64k; a
    model without FLA's kernels is reported as not on the fast path (the GPU run then fails)."""
    gc = _module()
    cfg = gc.model_config(gc.QWEN35_9B, 32)
    n = gc.count_params(cfg)  # meta device: no memory
    assert 8.5e9 < n["total"] < 9.5e9 and n["embed_and_head"] == 2 * 248320 * 4096
    gib = 2**30
    on_h200 = gc.layers_that_fit(cfg, n, 65536, 139 * gib)
    assert 4 <= on_h200 < 32 and on_h200 % 4 == 0  # the 64k-token logits (2 x 30 GiB bf16) leave room for a few
    assert gc.update_bytes(cfg, n, on_h200, 65536) <= 0.85 * 139 * gib
    assert gc.layers_that_fit(cfg, n, 2048, 139 * gib) == 32
    flops = gc.step_flops(cfg, n, 32768)
    dense = 6 * (n["total"] - n["embed_and_head"] + 248320 * 4096) * 32768
    assert dense < flops < 1.2 * dense and cfg.layer_types.count("full_attention") == 8
    tiny = gc.build_model(gc.model_config(gc.TINY, 4), torch.device("cpu"))
    probe = gc.linear_attention_kernels(tiny)
    assert probe["fast"] is False and probe["chunk"].endswith("torch_chunk_gated_delta_rule")


@pytest.mark.parametrize("peak", [None, 989.0])
def test_bench_lines_only_for_what_was_measured(peak: float | None) -> None:
    gc = _module()
    report = {"stages": {"full.update": {"ok": True, "tokens_per_s": 5000.0, "full_depth_tokens_per_s": 5000.0,
                                         "mfu_pct": None if peak is None else 35.0, "peak_memory_gib": 60.0},
                         "full.logprobs": {"ok": False}}, "total_s": 300.0}
    lines = gc.bench_lines(report)
    assert all(BENCH.match(ln) for ln in lines)
    assert ("BENCH gpu_check_update_mfu 35 % goal >=30 met" in lines) == (peak is not None)
    assert not any("logprob" in ln for ln in lines) and "BENCH gpu_check_total_s 300 s goal <=420 met" in lines
