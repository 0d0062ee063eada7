"""`scripts/gpu_check.sh`: the torch-only device check runs end to end on CPU before a GPU ever sees it."""

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
    assert list(stages) == ["env", "model", "loss_step", "logits"] and all(s["ok"] for s in stages.values())
    model = stages["model"]
    # Qwen3.5's hybrid layout (3 Gated DeltaNet layers, then full attention), as the 9B model has it
    assert model["architecture"] == "Qwen3_5ForCausalLM"
    assert model["layer_types"] == ["linear_attention"] * 3 + ["full_attention"]
    step = stages["loss_step"]
    assert step["loss_finite"] and step["tokens"] == 128 and step["tokens_per_s"] > 0
    logits = stages["logits"]
    # chunked (checkpointed) and un-chunked heads give the same log-probs, entropy and weight gradient
    assert logits["agree"] and logits["max_abs_diff_logp"] < 1e-5 and logits["max_abs_diff_entropy"] < 1e-4
    assert logits["max_rel_diff_grad"] < 1e-5
    bench = [ln for ln in proc.stdout.splitlines() if ln.startswith("BENCH")]
    assert bench and all(BENCH.match(ln) for ln in bench), proc.stdout
    assert bench == report["bench"]


def test_sigterm_still_leaves_the_report(tmp_path: Path) -> None:
    """A run stopped by the lease's time limit keeps the stages that finished (status says it was killed)."""
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "gpu_check.py"), "--cpu-smoke", "--seq", "16384",
                             "--out", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(tmp_path))
    path = tmp_path / "gpu_check.json"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # wait for an event (the model stage written), not for a time
            if path.is_file() and "model" in json.loads(path.read_text())["stages"]:
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
    assert report["stages"]["env"]["ok"] and report["stages"]["model"]["ok"]
    assert "logits" not in report["stages"]


def test_without_a_gpu_the_full_check_says_so(tmp_path: Path) -> None:
    proc = subprocess.run([str(ROOT / "scripts" / "gpu_check.sh"), "--preflight"], capture_output=True, text=True,
                          env=_env(tmp_path), timeout=300)
    assert proc.returncode == 2
    assert "use --cpu-smoke" in proc.stderr
    assert "no CUDA device" in json.loads((tmp_path / "gpu_check.json").read_text())["error"]


def test_qwen35_9b_sizes_and_what_fits() -> None:
    """The full-size config is Qwen3.5-9B (~9B parameters); the layer count shrinks to what memory holds."""
    gc = _module()
    cfg = gc.model_config(gc.QWEN35_9B, 32)
    n = gc.count_params(cfg)  # meta device: no memory
    assert 8.5e9 < n["total"] < 9.5e9 and n["embed_and_head"] == 2 * 248320 * 4096
    gib = 2**30
    assert gc.layers_that_fit(cfg, n, 32768, 139 * gib, 2) == 32  # an H200 holds all layers
    small = gc.layers_that_fit(cfg, n, 32768, 40 * gib, 2)
    assert small < 32 and small % 4 == 0
    # MFU's numerator: ~6 N T for 32k tokens plus the 8 full-attention layers' quadratic term
    flops = gc.step_flops(cfg, n, 32768)
    dense = 6 * (n["total"] - n["embed_and_head"] + 248320 * 4096) * 32768
    assert dense < flops < 1.2 * dense
    assert cfg.layer_types.count("full_attention") == 8


@pytest.mark.parametrize("peak", [None, 989.0])
def test_bench_lines_only_for_what_was_measured(peak: float | None) -> None:
    gc = _module()
    report = {"stages": {"loss_step": {"ok": True, "tokens_per_s": 5000.0, "full_depth_tokens_per_s": 5000.0,
                                       "mfu_pct": None if peak is None else 35.0, "peak_memory_gib": 60.0},
                         "logits": {"ok": False}}}
    lines = gc.bench_lines(report)
    assert all(BENCH.match(ln) for ln in lines)
    assert ("BENCH gpu_check_loss_mfu 35 % goal >=30 met" in lines) == (peak is not None)
    assert not any("logits" in ln for ln in lines)
