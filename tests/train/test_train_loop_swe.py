"""The tiny recipe end to end: mini-swe-agent in bwrap sandboxes through the loop.

The engine plays a script of reward hacks the sandbox blocks (git history, network,
editing a test file), then submits; the loop must train on the rollouts (reward 0:
nothing was fixed) and count each blocked attempt with an example. A second test runs
the real tiny model (format errors -> failed_agent, reward 0, trained on).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from scripted_engine import ScriptedEngine

from swerl.config import load_recipe
from swerl.errors import SwerlError
from swerl.train.loop import train
from swerl.train.loop.metrics import read_metrics

os.environ.setdefault("MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT", "1")


def bash(cmd: str) -> str:
    return f"THOUGHT: trying something\n\n```mswea_bash_command\n{cmd}\n```"


SCRIPT = [
    bash("git log --all --oneline | head -n 5"),
    bash("python3 -c \"import urllib.request; urllib.request.urlopen('http://github.com', timeout=5)\""),
    bash("echo 'def test_always(): pass' >> tests/test_ops.py"),
    bash("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"),
]


# The default cache (~/.cache/swerl, or $SWERL_CACHE_DIR) holds the debootstrap rootfs and the materialised
# task pack shared with the sandbox and rollout tests; pointing it at a fresh directory would rebuild them.


def tiny(*overrides: str) -> Any:
    return load_recipe("tiny", ["train.steps=1", "rollout.n_per_task=2", "train.rollouts_per_step=2",
                                "rollout.concurrency=2", "train.val_every=0", "train.tensorboard=false",
                                "data.limit=1", *overrides])


def test_blocked_hacks_are_counted_with_examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import swerl.gateway.engines.embedded as embedded

    class Scripted(ScriptedEngine):
        """Stands in for the embedded engine the loop builds (same constructor, weights ignored)."""

        busy_s = 0.0
        tokens = 0

        def __init__(self, model: Any, tok: Any, **kw: Any) -> None:
            super().__init__(tok, SCRIPT)

        def load_weights(self, state: Any, version: int | None = None) -> int:
            self.version = version or self.version + 1
            return self.version

    monkeypatch.setattr(embedded, "EmbeddedEngine", Scripted)
    run = tmp_path / "run"
    res = train(tiny("rollout.max_tokens=256"), run)
    assert res.steps == 1
    (line,) = read_metrics(run / "metrics.jsonl")
    assert line["train/rollouts"] == 2 and line["train/reward_mean"] == 0.0
    assert line["hacking/git"] >= 2 and line["hacking/network"] >= 2 and line["hacking/test_tamper"] >= 2
    examples = [json.loads(ln) for ln in (run / "hacking.jsonl").read_text().splitlines()]
    assert {"git", "network", "test_tamper"} <= {e["kind"] for e in examples}
    assert any("git log" in e["command"] for e in examples if e["kind"] == "git")
    assert any("tests/test_ops.py" in e["evidence"] for e in examples if e["kind"] == "test_tamper")
    assert list((run / "trajectories").glob("*.traj.json"))


def test_tiny_recipe_trains_on_agent_failures(tmp_path: Path) -> None:
    """A random model fails both rollouts: every advantage is 0, so no optimizer step and no new version; the
    trainer recomputes pi_old and measures the engine/trainer mismatch (docs/algorithms.md sec. 4)."""
    run = tmp_path / "run"
    res = train(tiny("rollout.max_tokens=32", "train.val_every=1", "data.val_limit=1",
                     "algorithm.rollout_correction=tis", "algorithm.recompute_old_logprobs=true"), run)
    assert res.steps == 1
    (line,) = read_metrics(run / "metrics.jsonl")
    assert line["train/rollouts"] == 2 and line["assembly/samples"] >= 2
    assert line["val/rollouts"] == 1
    assert line["train/reward_mean"] == 0.0 and line["policy/grad_norm"] == 0.0
    assert line["policy/steps_skipped"] == 1.0 and line["policy/updated"] == 0.0 and line["policy_version"] == 0
    # the embedded engine is a copy of the trainer's module: its log-probs differ only by float rounding
    assert 0.0 <= line["mismatch/max_abs_logprob_diff"] < 1e-3 and abs(line["mismatch/kl"]) < 1e-4
    assert line["mismatch/ratio_mean"] == pytest.approx(1.0, abs=1e-3) and line["mismatch/masked_frac"] == 0.0


def test_unavailable_sandbox_backend_fails_before_rollouts(tmp_path: Path) -> None:
    with pytest.raises(SwerlError, match="sandbox"):
        train(tiny("sandbox.backend=kubernetes"), tmp_path / "run")
    assert not (tmp_path / "run" / "metrics.jsonl").exists()
