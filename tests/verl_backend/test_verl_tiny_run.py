"""`swerl train --recipe tiny-verl` as a user runs it in `.venv-verl`: the whole loop on verl's real workers, on CPU.

bwrap sandboxes, mini-swe-agent on the bundled tasks, the recording gateway, swerl's replicas behind
verl's rollout interface (sleep, wake and weight sync by verl's `CheckpointEngineManager`), and every
update on verl's FSDP2 actor over 2 gloo ranks (local Ray), each skipped because a random model fails every task
(zero gradient, no new version); then `--resume`
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
    return subprocess.run([sys.executable, "-m", "swerl.cli", "--log-level", "INFO", "train", "--recipe", "tiny-verl",
                           *args],
                          capture_output=True, text=True, env=env, timeout=1800)


def _metrics(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines() if line.strip()]


def test_tiny_verl_trains_checkpoints_and_resumes(tmp_path: Path) -> None:
    run = tmp_path / "tv"
    proc = _train("--out", str(run))
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    rows = _metrics(run)
    assert [r["step"] for r in rows] == [1, 2, 3]
    assert all(r["batch/samples"] > 0 and "policy/clip_frac" in r for r in rows)
    # a random tiny model fails every task: every advantage is 0, the gradient exactly 0, and verl's worker takes
    # no optimizer step (TorchBackend's rule), so the loop publishes no new version
    assert all(r["train/reward_mean"] == 0.0 and r["policy/grad_norm"] == 0.0 for r in rows)
    assert all(r["policy/steps_skipped"] == 1.0 and r["policy/updated"] == 0.0 for r in rows)
    assert [r["policy_version"] for r in rows] == [0, 0, 0]
    # the trainer/engine mismatch on every update: swerl's replicas serve the actor's own fp32 weights
    assert all(0.0 <= r["mismatch/max_abs_logprob_diff"] < 1e-3 and abs(r["mismatch/kl"]) < 1e-4 for r in rows)
    assert all(r["mismatch/ratio_mean"] == pytest.approx(1.0, abs=1e-3) for r in rows)
    # rollouts were served by swerl's replicas behind verl's interface; they slept for each update (verl frees
    # their weights), so verl's CheckpointEngineManager gave them back the same version 0 after each one
    assert [r["engine/weights_version"] for r in rows] == [0.0, 0.0, 0.0]
    assert [r["engine/weight_syncs"] for r in rows] == [1.0, 2.0, 3.0]
    log = proc.stdout + proc.stderr
    assert "verl_weight_sync" in log and "CheckpointEngineManager.update_weights (naive)" in log
    assert "engine_resynced_after_unchanged_policy" in log
    verl_ckpt = run / "checkpoints" / "verl"
    assert (verl_ckpt / "global_step_3" / "actor").is_dir()
    assert any((verl_ckpt / "global_step_3" / "actor").glob("model_world_size_2_rank_*.pt"))  # 2 FSDP2 ranks

    proc = _train("--out", str(run), "--resume", "--set", "train.steps=4")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    rows = _metrics(run)
    assert [r["step"] for r in rows] == [1, 2, 3, 4] and rows[-1]["policy/steps_skipped"] == 1.0
    # fresh replicas (dummy weights) got the restored policy (version 0) through verl's sync before serving
    assert rows[-1]["engine/weights_version"] == 0.0 and rows[-1]["engine/weight_syncs"] == 2.0
    assert (verl_ckpt / "global_step_4" / "actor").is_dir()


def test_tiny_verl_sao_runs_the_critic_through_swerl_train(tmp_path: Path) -> None:
    """SAO on the same stack: group 1, DIS, the frozen-attention critic beside the actor; one warm-up update
    trains the critic alone, after which the replicas get the unchanged policy back (they slept for it).

    The harness is the toy tool-use task (recipes/toy.yaml): a random tiny model never solves a bundled SWE
    task, so under mini-swe-agent every return is 0 and the critic would only ever fit zeros; the toy task
    pays off now and then, which gives the critic something to learn (the GRPO run above covers the sandboxes)."""
    run = tmp_path / "sao"
    proc = _train("--out", str(run), "--set", "algorithm.name=sao", "--set", "rollout.n_per_task=1",
                  "--set", "algorithm.policy_loss=dis", "--set", "algorithm.critic_warmup_steps=1",
                  "--set", "algorithm.value_lr=2e-3", "--set", "algorithm.gamma=1.0", "--set", "algorithm.lam=1.0",
                  "--set", "rollout.harness=toy", "--set", "rollout.max_tokens=1", "--set", "toy.secrets=2",
                  "--set", "toy.tool_word=cat", "--set", "train.rollouts_per_step=32", "--set", "rollout.concurrency=16")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    rows = _metrics(run)
    assert [r["step"] for r in rows] == [1, 2, 3]
    assert [r["policy/updated"] for r in rows] == [0.0, 1.0, 1.0]
    assert all("critic/value_loss" in r and "critic/grad_norm" in r and "critic/explained_variance" in r
               for r in rows)
    assert all("policy/dis_masked_frac" in r and "mismatch/kl" in r for r in rows[1:])
    assert rows[0]["critic/value_mean"] == 0.0  # the zero-initialised head
    for k in range(1, len(rows)):  # values (before the update) move exactly when the critic saw a non-zero return
        assert (rows[k]["critic/value_mean"] != 0.0) == any(r["train/reward_mean"] > 0 for r in rows[:k]), k
    assert any(r["train/reward_mean"] > 0 for r in rows[:2])  # 64 toy rollouts: P(no reward) < 0.1%
    assert [r["engine/weights_version"] for r in rows] == [0.0, 0.0, 1.0]  # no new version after the warm-up
    assert [r["engine/weight_syncs"] for r in rows] == [1.0, 2.0, 3.0]  # ... but its weights went back
    assert (run / "checkpoints" / "verl" / "global_step_3" / "critic").is_dir()
