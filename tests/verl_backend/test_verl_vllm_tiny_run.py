"""`swerl train --recipe tiny-verl-vllm` in `.venv-verl-vllm`: verl's own vLLM replicas (vLLMReplica /
vLLMHttpServer on CPU vLLM 0.31) serve the loop's rollouts through the gateway, tool-calling mini-swe-agent runs on
the bundled tasks in bwrap, verl's FSDP2 actor updates on 2 gloo ranks, and after every update verl's
`CheckpointEngineManager.update_weights` (naive; verl's shared-memory bucket transfer) brings the replicas the new
policy, checked by the log-prob canary. Slow (~10-15 min on 2 cores).

The model is the recipe's tiny architecture, warm-started (`verl_helpers.warm_start_tool_caller`) to answer with
JSON tool calls most of the time: a random model never writes one, so vLLM's `hermes` parser would have nothing to
parse. DAPO's soft overlong penalty (`algorithm.overlong: penalty`, a recipe setting) turns the different
trajectory lengths into different rewards, so the policy gradient is not zero and every update moves the weights
(a random or warm model solves no bundled task: without it every advantage is 0 and verl skips the step).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from verl_helpers import warm_start_tool_caller

pytestmark = pytest.mark.slow

CANARY_TOLERANCE = 1e-3


def _recorded_responses(store: Path) -> list[dict]:
    """Every chat completion the gateway recorded (its JSON blobs are zlib-compressed when that is smaller)."""
    out = []
    with sqlite3.connect(store) as db:
        for (blob,) in db.execute("SELECT response FROM events WHERE kind = 'model_request' AND response IS NOT NULL"):
            raw = bytes(blob)
            out.append(json.loads(zlib.decompress(raw) if raw[:1] == b"x" else raw))
    return out


def test_tiny_verl_vllm_trains_with_verls_vllm_replicas(tmp_path: Path) -> None:
    model = warm_start_tool_caller(tmp_path / "warm")
    run = tmp_path / "tvv"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "LITELLM_LOCAL_MODEL_COST_MAP": "True", "MSWEA_SILENT_STARTUP": "1",
           "COLUMNS": "200", "SWERL_LOG_JSON": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "swerl.cli", "--log-level", "INFO", "train", "--recipe", "tiny-verl-vllm",
         "--out", str(run), "--set", f"model.path={model}", "--set", "algorithm.overlong=penalty",
         "--set", "algorithm.overlong_max_tokens=160", "--set", "algorithm.overlong_buffer=150"],
        capture_output=True, text=True, env=env, timeout=2400)
    log = proc.stdout + proc.stderr
    (tmp_path / "train.log").write_text(log)
    assert proc.returncode == 0, log[-5000:]
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines() if line.strip()]
    assert [r["step"] for r in rows] == [1, 2, 3]
    # verl's vLLM replicas were launched and served (verl's own server class and vLLM's engine)
    assert "vLLMHttpServer" in log and "CPUReloadWorkerExtension" in log
    # every update moved the policy, and the replicas got each new version through verl's sync
    assert all(r["policy/updated"] == 1.0 and r["policy/grad_norm"] > 0 for r in rows)
    assert [r["policy_version"] for r in rows] == [1, 2, 3]
    assert [r["engine/weights_version"] for r in rows] == [0.0, 1.0, 2.0]
    # the canary after every sync (the first one at start, then one per update): vLLM's log-probs = the actor's
    records = [json.loads(line) for line in log.splitlines() if line.startswith("{") and '"msg"' in line]
    diffs = [r["max_abs_logprob_diff"] for r in records if r["msg"] == "verl_weight_sync_canary"]
    assert len(diffs) == 4 and all(0.0 <= d <= CANARY_TOLERANCE for d in diffs), diffs
    assert all(r["engine/canary_max_abs_logprob_diff"] <= CANARY_TOLERANCE for r in rows)
    # vLLM's hermes parser turned the model's text into tool calls, recorded by the gateway
    responses = _recorded_responses(run / "gateway.sqlite")
    calls = [c for r in responses for c in (r["choices"][0]["message"].get("tool_calls") or [])]
    assert calls and all(c["function"]["name"] == "bash" for c in calls)
    assert all("command" in json.loads(c["function"]["arguments"]) for c in calls)
