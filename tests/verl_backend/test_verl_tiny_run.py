"""`swerl train --recipe tiny-verl` as a user runs it in `.venv-verl`: the whole loop on verl's real workers, on CPU.

bwrap sandboxes, mini-swe-agent on the bundled tasks, the recording gateway, the embedded engine for
rollouts, and every update on verl's FSDP2 actor over 2 gloo ranks (local Ray); then `--resume`
continues from the loop's checkpoint and verl's sharded one. Slow (~10 min on 2 cores).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def _train(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "LITELLM_LOCAL_MODEL_COST_MAP": "True", "MSWEA_SILENT_STARTUP": "1",
           "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "swerl.cli", "train", "--recipe", "tiny-verl", *args],
                          capture_output=True, text=True, env=env, timeout=1800)


def _metrics(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines() if line.strip()]


def test_tiny_verl_trains_checkpoints_and_resumes(tmp_path: Path) -> None:
    run = tmp_path / "tv"
    proc = _train("--out", str(run))
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    rows = _metrics(run)
    assert [r["step"] for r in rows] == [1, 2, 3]
    assert all(r["policy/updated"] == 1.0 and "policy/grad_norm" in r and "policy/clip_frac" in r for r in rows)
    assert all(r["batch/samples"] > 0 for r in rows)
    verl_ckpt = run / "checkpoints" / "verl"
    assert (verl_ckpt / "global_step_3" / "actor").is_dir()
    assert any((verl_ckpt / "global_step_3" / "actor").glob("model_world_size_2_rank_*.pt"))  # 2 FSDP2 ranks

    proc = _train("--out", str(run), "--resume", "--set", "train.steps=4")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    rows = _metrics(run)
    assert [r["step"] for r in rows] == [1, 2, 3, 4] and rows[-1]["policy/updated"] == 1.0
    assert (verl_ckpt / "global_step_4" / "actor").is_dir()
